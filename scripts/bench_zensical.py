"""The two builders side by side on the course as it is: a one-shot build, and, while serving, the
time from saving a file to the served page showing the change. Prints, asserts nothing.

    python scripts/bench_zensical.py [--edits 5]

Rows (medians of --edits, in a throwaway copy of the repository with its caches):
- build: `mkdocs build` / `python -m coursekit.zensical_adapter build`, nothing changed since the
  last build of that kind;
- prose edit while serving: a new paragraph at the end of the first lesson's page, until the
  served page shows it;
- code edit while serving: a comment line at the top of the first lesson's first experiment file,
  until its served notebook page shows it (the lesson runs again).

Measured (the course as it is, a copy with its caches, 2-core machine, medians of 5):

| | MkDocs | Zensical (adapter) |
| --- | ---: | ---: |
| build, nothing changed (s) | 1.22 | 2.48 |
| serve: prose edit → page (s) | 0.73 | 1.07 |
| serve: code edit → notebook page (s) | 2.30 | 3.47 |

Zensical's rebuild is a whole-site one (its own cache; our page cache is MkDocs-only), and the
adapter's serve adds a 0.1 s poll to copy the saved file over.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_scale import code_edit, prose_edit, serve_edits  # noqa: E402
from scripts.drive import copy_repo, course_lessons  # noqa: E402

COMMANDS = {"mkdocs": [sys.executable, "-m", "mkdocs", "build", "-q"],
            "zensical": [sys.executable, "-m", "coursekit.zensical_adapter", "build"]}


def build_seconds(repo: Path, builder: str, times: int) -> float:
    runs = []
    for _ in range(times + 1):  # the first one fills the caches
        start = time.perf_counter()
        subprocess.run(COMMANDS[builder], cwd=repo, check=True, capture_output=True)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-zensical-"))
    try:
        repo = copy_repo(work / "repo", with_cache=True)
        lesson = course_lessons(repo)[0]
        experiment = f"{lesson.folder}/{lesson.experiments[0][0]}.py"
        rows = []
        for label, measure in (
            ("build, nothing changed (s)", lambda b: build_seconds(repo, b, args.edits)),
            ("serve: prose edit → page (s)",
             lambda b: statistics.median(serve_edits(repo, lesson.page, prose_edit, lesson.url, args.edits, b))),
            ("serve: code edit → notebook page (s)",
             lambda b: statistics.median(serve_edits(repo, experiment, code_edit, lesson.notebook_url, args.edits, b))),
        ):
            rows.append((label, measure("mkdocs"), measure("zensical")))
        print(f"\n{len(course_lessons(repo))} lessons · medians of {args.edits}")
        print("| | MkDocs | Zensical (adapter) |")
        print("| --- | ---: | ---: |")
        for label, ours, theirs in rows:
            print(f"| {label} | {ours:.2f} | {theirs:.2f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
