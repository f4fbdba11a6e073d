"""The kit's command line, in the repository's root: CI's matrix runs these steps, and so can an author.

  python -m coursekit plan [--cache DIR] [--attached "gpu …"] [--site-takes N]   the lessons with no cached run, as JSON for a matrix
  python -m coursekit run-lessons --into DIR [--time-scale N] 10 11   run lessons, their records into DIR
  python -m coursekit merge-runs DIR… [--into CACHE]            take those records into the build's cache

What each does: coursekit/core/spread.py."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coursekit.core import CourseError, spread

CACHE = Path(".cache/coursekit")  # the build's cache, from the repository's root (as the MkDocs hooks keep it)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursekit")
    commands = parser.add_subparsers(dest="command", required=True)
    planned = commands.add_parser("plan", help="列出缓存里没有结果的讲，印成 CI 矩阵的 JSON")
    planned.add_argument("--cache", type=Path, default=CACHE)
    planned.add_argument("--attached", default="", help="CI 连上的自托管运行器的标签，空格或逗号分隔")
    planned.add_argument("--site-takes", type=int, default=0, help="要运行的讲不超过这么多（且都不要别的运行器）时，留给构建网站的作业运行")
    running = commands.add_parser("run-lessons", help="运行几讲，把它们的记录写进一个文件夹")
    running.add_argument("--into", type=Path, required=True)
    running.add_argument("--time-scale", type=float, default=1.0, help="时间上限乘以这个数")
    running.add_argument("lessons", nargs="+", help="讲的编号：10 或 l10")
    merging = commands.add_parser("merge-runs", help="把 run-lessons 写的文件夹并进构建的缓存")
    merging.add_argument("folders", type=Path, nargs="+")
    merging.add_argument("--into", type=Path, default=CACHE)
    args = parser.parse_args(argv)
    root = Path.cwd()
    if not (root / "lessons").is_dir():
        print(f"{root}: 没有 lessons/ 文件夹；请在仓库的根目录运行", file=sys.stderr)
        return 2
    try:
        return COMMANDS[args.command](root, args)
    except CourseError as err:
        print(err, file=sys.stderr)
        return 1


def _plan(root: Path, args) -> int:
    attached = set(args.attached.replace(",", " ").split())
    stale = spread.plan(root, args.cache, attached)
    jobs = spread.matrix(stale, args.site_takes)
    for job in jobs:
        print(f"要运行：{job.lesson}（{' '.join(job.runs_on)}）{('：' + job.note) if job.note else ''}", file=sys.stderr)
    if stale and not jobs:
        print(f"要运行：{'、'.join(j.lesson for j in stale)}，不多，留给构建网站的作业运行", file=sys.stderr)
    if not stale:
        print("每一讲都有缓存的结果：没有要运行的", file=sys.stderr)
    print(json.dumps({"include": [job.matrix() for job in jobs]}, ensure_ascii=False))
    return 0


def _run(root: Path, args) -> int:
    from coursekit.extensions import checks  # what each lesson's page will ask of its run

    ran = spread.run(root, args.lessons, args.into, checks.plan, args.time_scale)
    for lesson_id, seconds in ran.seconds.items():
        print(f"{lesson_id}：{'取缓存' if seconds is None else f'运行了 {seconds:.1f} s'}，记录写进 {args.into}",
              file=sys.stderr)
    for error in ran.errors:
        print(error, file=sys.stderr)
    return 1 if ran.errors else 0


def _merge(root: Path, args) -> int:
    merged = spread.merge(args.folders, args.into)
    for refused in merged.refused:
        print(refused, file=sys.stderr)
    print(f"合并进 {args.into}：收下 {merged.kept} 条记录，拒收 {len(merged.refused)} 条", file=sys.stderr)
    return 0


COMMANDS = {"plan": _plan, "run-lessons": _run, "merge-runs": _merge}

if __name__ == "__main__":
    sys.exit(main())
