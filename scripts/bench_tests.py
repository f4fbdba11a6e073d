"""How long the README's test command takes in a fresh clone, and what each added lesson adds.
Prints, asserts nothing.

    .venv/bin/python scripts/bench_tests.py [--added 0 3] [--keep]

For each count N it clones the repository's committed tree (`git clone`, so no `.venv`, no cache),
adds N lessons with `scripts/new_lesson.py` and the template's content (committed in the clone),
and times, side by side:
- `bash scripts/test.sh` from nothing: set-up (venv, torch, packages, font, browser) and all layers;
- `bash scripts/test.sh --fast` after it: the layer an author runs while writing;
- the slope: what each added lesson adds to the full command.

Measured (2-core machine, 2 test workers, fresh clones, nothing else running), each row one run:

| at commit | full, 0 added (s) | full, 3 added (s) | per added lesson | fast, 0 / 3 added (s) |
| --- | ---: | ---: | ---: | ---: |
| 8a58c1c (copies waited for the session's build) | 545 | 682 | +45.8 | |
| 5ce7399 | 438 | 551 | +38 | 28.5 / 42.1 |
| d4b6ef2 (a page loads once a palette) | 489 | 569 | +26.7 | 27.6 / 36.4 |
| f6726ed (one scratch copy, no first-listing run; 1 flaky failure at 3 added) | 479 | 534 | +18.2 | 27.1 / 27.9 |
| 8ef8bc2 (axe waits for transitions to end; all passed) | 506 | 554 | +15.9 | 28.6 / 27.4 |

Targets: full at most 600 s, at most 20 s a lesson; fast at most 60 s. The full figures include the
set-up from nothing (about a minute). What still grows with each lesson: its share of the session's
build, its notebook's run in a checkout, its pages in the browser (two palettes each, lesson and
notebook), its widgets' tests and its listings pasted in page order.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def clone(dest: Path, added: int) -> Path:
    subprocess.run(["git", "clone", "-q", str(ROOT), str(dest)], check=True)
    numbers = [int(m.group(1)) for p in (dest / "docs/lessons").glob("*.md") if (m := re.match(r"(\d+)-", p.name))]
    first = max(numbers, default=0) + 1
    for number in range(first, first + added):
        subprocess.run([sys.executable, "scripts/new_lesson.py", f"{number:02d}", f"added{number}",
                        f"第 {number} 讲：模板的一讲", "模板原样的一讲，只用来量测试的增长"],
                       cwd=dest, check=True, capture_output=True)
    if added:
        git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
        subprocess.run([*git, "add", "-A"], cwd=dest, check=True)
        subprocess.run([*git, "commit", "-qm", f"{added} template lessons"], cwd=dest, check=True)
    return dest


def timed(repo: Path, *args: str) -> tuple[float, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    start = time.perf_counter()
    run = subprocess.run(["bash", "scripts/test.sh", *args], cwd=repo, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    tail = (run.stdout.strip().splitlines() or ["?"])[-1]
    return seconds, tail if run.returncode == 0 else f"FAILED ({run.returncode}): {tail}\n{run.stdout[-3000:]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--added", type=int, nargs="+", default=[0, 3])
    parser.add_argument("--keep", action="store_true", help="keep the clones (their paths are printed)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-tests-"))
    rows = []
    for n in args.added:
        repo = clone(work / f"added-{n}", n)
        full, said = timed(repo)
        fast, fast_said = timed(repo, "--fast")
        rows.append((n, full, fast, said, fast_said))
        print(f"{n} added: full {full:.0f} s ({said}); fast {fast:.1f} s ({fast_said})", flush=True)
        if not args.keep:
            shutil.rmtree(repo, ignore_errors=True)
    print("\n| measure | " + " | ".join(f"{n} added" for n, *_ in rows) + " | per added lesson |")
    print("| --- |" + " ---: |" * (len(rows) + 1))
    for label, col in (("`bash scripts/test.sh` from a fresh clone (s)", 1), ("`bash scripts/test.sh --fast` (s)", 2)):
        values = [r[col] for r in rows]
        slope = (values[-1] - values[0]) / (rows[-1][0] - rows[0][0]) if len(rows) > 1 and rows[-1][0] != rows[0][0] else 0
        print(f"| {label} | " + " | ".join(f"{v:.1f}" for v in values) + f" | {slope:+.1f} |")
    if args.keep:
        print(f"clones kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
