"""How the site's build and `mkdocs serve` scale with the number of lessons. Prints, asserts nothing.

    python scripts/bench_scale.py [--sizes 1 30] [--prose-edits 5] [--code-edits 3]

For each size N it makes an N-lesson course in a throwaway folder: lesson 10 plus N-1 renamed
copies of it, each started with scripts/new_lesson.py and then filled with lesson 10's page and
code. It measures, side by side:
- cold: `mkdocs build --strict` with no caches;
- warm: the same build again, nothing changed;
- prose edit: under `mkdocs serve`, seconds from saving a sentence in lesson 10 to the served page
  showing it (median);
- code edit: seconds from saving lesson 10's experiment file to its notebook page showing it
  (median; the lesson reruns);
- peak memory: the most the build's process tree held at once during the cold build;
- raw search index size, and what each lesson adds to it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.harness import MkdocsServe, copy_repo, mkdocs_build  # noqa: E402

LESSON = "docs/lessons/10-attention.md"
EXPERIMENT = "lessons/l10/projections.py"


def make_course(dest: Path, n: int) -> Path:
    repo = copy_repo(dest)
    source_md = (ROOT / LESSON).read_text(encoding="utf-8")
    for number in range(11, 10 + n):
        nn, slug = f"{number:02d}", f"copy{number}"
        subprocess.run([sys.executable, "scripts/new_lesson.py", nn, slug, f"注意力副本 {nn}：同一讲的改名副本"],
                       cwd=repo, check=True, capture_output=True)
        package = repo / f"lessons/l{nn}"
        shutil.rmtree(package)
        shutil.copytree(ROOT / "lessons/l10", package, ignore=shutil.ignore_patterns("__pycache__"))
        for file in package.rglob("*"):
            if file.is_file() and file.suffix in (".py", ".txt", ".md"):
                text = file.read_text(encoding="utf-8")
                file.write_text(text.replace("lessons.l10", f"lessons.l{nn}").replace("lessons/l10", f"lessons/l{nn}"),
                                encoding="utf-8")
        page = source_md.replace("lessons/l10/", f"lessons/l{nn}/").replace("10-notebook", f"{nn}-notebook")
        (repo / f"docs/lessons/{nn}-{slug}.md").write_text(page, encoding="utf-8")
    return repo


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        children.setdefault(int(stat[1]), []).append(int(entry))
        m = re.search(r"VmRSS:\s+(\d+) kB", status)
        rss[int(entry)] = int(m.group(1)) if m else 0
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children.get(p, [])
    return total / 1024


def cold_build(repo: Path, site: Path) -> tuple[float, float]:
    shutil.rmtree(repo / ".cache", ignore_errors=True)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=repo, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = [0.0]

    def sample():
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_rss_mb(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - start
    sampler.join()
    if proc.returncode:
        raise SystemExit(err)
    return seconds, peak[0]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def serve_edits(repo: Path, path: str, edit, page: str, edits: int) -> list[float]:
    server = MkdocsServe(repo)
    file = repo / path
    original = file.read_text(encoding="utf-8")
    seconds = []
    try:
        server.wait_for("注意力", seconds=600)
        for i in range(edits):
            marker = f"m{i}x{time.time_ns() % 100000}"
            start = time.perf_counter()
            file.write_text(edit(original, marker), encoding="utf-8")
            server.wait_for(marker, seconds=300, path=page)
            seconds.append(time.perf_counter() - start)
            time.sleep(0.5)
    finally:
        file.write_text(original, encoding="utf-8")
        server.stop()
    return seconds


def prose_edit(text: str, marker: str) -> str:
    return text.replace("这些数不代表三个中文词的真实语义。", f"这些数不代表三个中文词的真实语义（{marker}）。", 1)


def code_edit(text: str, marker: str) -> str:
    return text.replace("# 这是单独的构造实验", f"# {marker} 这是单独的构造实验", 1)


def measure(n: int, args) -> dict[str, float]:
    work = Path(tempfile.mkdtemp(prefix=f"bench-scale-{n}-"))
    try:
        repo = make_course(work / "repo", n)
        cold, peak = cold_build(repo, work / "site")
        warm = timed(lambda: mkdocs_build(repo, work / "site"))
        index = (work / "site/search/search_index.json").stat().st_size / 1024
        prose = serve_edits(repo, LESSON, prose_edit, "lessons/10-attention/", args.prose_edits)
        code = serve_edits(repo, EXPERIMENT, code_edit, "lessons/10-notebook/", args.code_edits)
        return {"cold": cold, "warm": warm, "prose": statistics.median(prose), "code": statistics.median(code),
                "peak": peak, "index": index}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[1, 30])
    parser.add_argument("--prose-edits", type=int, default=5)
    parser.add_argument("--code-edits", type=int, default=3)
    args = parser.parse_args()
    small, large = args.sizes
    a, b = measure(small, args), measure(large, args)
    rows = [
        ("cold mkdocs build --strict (s)", "cold", f"≤ 4× N={small}"),
        ("warm build, nothing changed (s)", "warm", ""),
        ("serve: prose edit → page (s, median)", "prose", "≤ 1.5× and ≤ 1.0 s"),
        ("serve: experiment edit → notebook (s, median)", "code", "≤ 3 s"),
        ("peak memory, cold build (MB)", "peak", ""),
        ("search index, raw (KB)", "index", "≤ 25 KB per lesson"),
    ]
    print(f"{os.cpu_count()} cores · lesson 10 plus renamed copies")
    print(f"| measure | N={small} | N={large} | ratio | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    for label, key, target in rows:
        print(f"| {label} | {a[key]:.2f} | {b[key]:.2f} | {b[key] / a[key]:.2f}× | {target} |")
    per_lesson = (b["index"] - a["index"]) / (large - small)
    print(f"\nsearch index per added lesson: {per_lesson:.1f} KB")
    if shutil.which("jupyter-book"):
        print("Jupyter Book is installed, but this script does not drive it yet.")
    else:
        print("Jupyter Book is not installed here: no comparison row.")


if __name__ == "__main__":
    main()
