"""How fast the site builds and how soon `mkdocs serve` shows an edit. Prints figures, asserts nothing.

    python scripts/bench_authoring.py [--edits 7]

Works on a throwaway copy of the repository. Measures a cold `mkdocs build --strict` (no caches),
a warm one, and, under `mkdocs serve`, the time from saving a file to the served page showing the
change: after a lesson edit, after a comment edit in tinylm (the notebook is not rerun), and after
a code edit in tinylm (the notebook is rerun). For each it also gives the time spent running code
(the page's executed blocks and the notebook), as the build log reports it.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import MkdocsServe  # noqa: E402
from tests.conftest import copy_repo, mkdocs_build  # noqa: E402

EXEC = re.compile(r"代码执行：页面代码块 ([\d.]+) s，笔记本 ([\d.]+) s")
LESSON = "docs/lessons/10-attention.md"


def timed_build(repo: Path, site: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = mkdocs_build(repo, site)
    if done.returncode:
        raise SystemExit(done.stderr)
    return time.perf_counter() - start, EXEC.findall(done.stderr)[-1]


def edit_latencies(server: MkdocsServe, path: Path, make_edit, edits: int) -> tuple[list[float], list[tuple[str, str]]]:
    """Seconds from each save to the served page showing it, and the code-execution figures logged."""
    original = path.read_text(encoding="utf-8")
    seconds, executed = [], []
    try:
        for i in range(edits):
            marker = f"m{i}x{time.time_ns() % 100000}"
            logged = len(server.lines)
            start = time.perf_counter()
            path.write_text(make_edit(original, marker, i), encoding="utf-8")
            server.wait_for(marker, seconds=60)
            seconds.append(time.perf_counter() - start)
            time.sleep(0.3)
            executed += EXEC.findall("".join(server.lines[logged:]))
    finally:
        path.write_text(original, encoding="utf-8")
        time.sleep(1.0)
    return seconds, executed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = copy_repo(Path(tmp) / "repo")
        shutil.rmtree(repo / ".cache", ignore_errors=True)  # cold: as a fresh clone
        cold, cold_exec = timed_build(repo, Path(tmp) / "site")
        warm, warm_exec = timed_build(repo, Path(tmp) / "site")
        server = MkdocsServe(repo)
        server.wait_for("注意力", seconds=120)
        try:
            lesson = edit_latencies(server, repo / LESSON, lambda t, m, i: t.replace("读到“早上", f"{m}读到“早上", 1), args.edits)
            comment = edit_latencies(server, repo / "tinylm/attention.py",
                                     lambda t, m, i: t.replace("# 行选查询位置", f"# {m} 行选查询位置", 1), args.edits)
            code = edit_latencies(server, repo / "tinylm/attention.py",
                                  lambda t, m, i: t.replace("# 行选查询位置", f"# {m} 行选查询位置", 1).replace(
                                      "math.sqrt(q.shape[-1])", f"math.sqrt(q.shape[-1] + {i} * 0)", 1), max(3, args.edits // 2))
        finally:
            server.stop()
    print("== builds (mkdocs build --strict, whole process) ==")
    print(f"cold (no caches): {cold:.2f} s   code execution: page blocks {cold_exec[0]} s, notebook {cold_exec[1]} s")
    print(f"warm (caches):    {warm:.2f} s   code execution: page blocks {warm_exec[0]} s, notebook {warm_exec[1]} s")
    print("== mkdocs serve: save -> served page shows the edit ==")
    for name, (seconds, executed) in [("lesson edit", lesson), ("tinylm comment edit", comment), ("tinylm code edit", code)]:
        page = statistics.median(float(p) for p, _ in executed) if executed else float("nan")
        nb = statistics.median(float(n) for _, n in executed) if executed else float("nan")
        print(f"{name:<20} median {statistics.median(seconds):.2f} s  (min {min(seconds):.2f}, max {max(seconds):.2f}, n={len(seconds)})"
              f"   code execution median: page blocks {page:.2f} s, notebook {nb:.2f} s")


if __name__ == "__main__":
    main()
