"""Page weight and Lighthouse scores of the lesson page, beside a plain Material page of the same text.

    python scripts/bench_page.py [--runs 9]

Builds the site, writes a "plain" copy of the lesson page (the same text without the course's own
CSS, JavaScript, demo and exercise widgets), serves both on a local port, measures the bytes each
loads with the demo open, and runs Lighthouse (npm lighthouse 12.2.3, installed under
scripts/bench/node_modules on first use) on both with Debian's Chromium. Prints figures; asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import FLAGS, chromium, free_port, serve  # noqa: E402
from tests.conftest import mkdocs_build  # noqa: E402

BENCH = ROOT / "scripts/bench"
LIGHTHOUSE = BENCH / "node_modules/.bin/lighthouse"
LESSON = "lessons/10-attention/"
PLAIN = "lessons/10-attention-plain/"
DEMO_ASSETS = ["assets/attention-demo.js", "assets/attention-demo.css"]
COURSE_STYLE = re.compile(r"<style>/\* 课程页面的少量样式.*?</style>", re.S)  # inlined by overrides/main.html
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
CHROME_FLAGS = " ".join(["--headless=new", *FLAGS])


def build(site: Path, url: str) -> None:
    done = mkdocs_build(ROOT, site, SITE_URL=url)
    if done.returncode:
        raise SystemExit(done.stderr)


def write_plain(site: Path) -> None:
    """The lesson page without anything the course adds to Material: same text, same depth."""
    html = (site / LESSON / "index.html").read_text(encoding="utf-8")
    html = COURSE_STYLE.sub("", html)
    for asset in DEMO_ASSETS:
        html = re.sub(rf'<(link|script)[^>]*{re.escape(asset)}[^>]*>(</script>)?', "", html)
    html = re.sub(r'<div class="tl-(demo|exercise)" data-attention="[^"]*">.*?</div>', "", html, flags=re.S)
    (site / PLAIN).mkdir(parents=True)
    (site / PLAIN / "index.html").write_text(html, encoding="utf-8")


def page_bytes(base: str, path: str) -> dict[str, int]:
    """Bytes of every response the page loads, with the demo opened."""
    sizes: dict[str, int] = {}
    with chromium() as browser:
        page = browser.new_page()
        page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body()) if r.ok else 0))
        page.goto(base + path, wait_until="networkidle")
        summary = page.locator("summary", has_text="展开观看动态过程")
        summary.click()
        page.wait_for_load_state("networkidle")
    return sizes


def lighthouse(url: str, out: Path) -> dict[str, float]:
    env = {**os.environ, "CHROME_PATH": "/usr/bin/chromium"}
    subprocess.run(
        [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
         f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"],
        env=env, check=True,
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    return {c: report["categories"][c]["score"] for c in CATEGORIES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="Lighthouse runs per page (median)")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-package-lock"], cwd=BENCH, check=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(site, base)
        write_plain(site)
        demo = {a: (site / a).stat().st_size for a in DEMO_ASSETS}
        html = (site / LESSON / "index.html").read_text(encoding="utf-8")
        data = sum(len(m.encode()) for m in re.findall(r'data-attention="[^"]*"', html))
        with serve(site, port):
            weights = {name: page_bytes(base, path) for name, path in (("lesson", LESSON), ("plain", PLAIN))}
            runs = {"lesson": [], "plain": []}
            for i in range(args.runs):  # interleaved, so drift in the machine's load hits both alike
                for name, path in (("lesson", LESSON), ("plain", PLAIN)):
                    runs[name].append(lighthouse(base + path, Path(tmp) / f"{name}-{i}.json"))
            scores = {}
            for name, rs in runs.items():
                scores[name] = {c: statistics.median(r[c] for r in rs) for c in CATEGORIES}
                scores[name]["performance runs"] = [r["performance"] for r in rs]
                scores[name]["performance mean"] = statistics.fmean(r["performance"] for r in rs)
    print("== page weight (uncompressed bytes, demo open) ==")
    for name, sizes in weights.items():
        print(f"{name:>7}: {sum(sizes.values()):>9,} bytes in {len(sizes)} responses")
    print(f"demo JavaScript + CSS: {sum(demo.values()):,} bytes ({', '.join(f'{k} {v:,}' for k, v in demo.items())})")
    print(f"demo data embedded in the page: {data:,} bytes")
    print(f"lesson minus plain: {sum(weights['lesson'].values()) - sum(weights['plain'].values()):,} bytes")
    print("== Lighthouse 12.2.3 (median of runs) ==")
    print(f"{'':>7}  " + "  ".join(f"{c:>14}" for c in CATEGORIES))
    for name, s in scores.items():
        print(f"{name:>7}  " + "  ".join(f"{s[c]:>14.2f}" for c in CATEGORIES)
              + f"   performance mean {s['performance mean']:.3f}, runs {s['performance runs']}")


if __name__ == "__main__":
    main()
