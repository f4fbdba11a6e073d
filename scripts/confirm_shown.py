"""Confirm what lesson pages show now: their listings, printed outputs and executed blocks.

    python scripts/confirm_shown.py docs/lessons/10-attention.md   # one page, after reading it
    python scripts/confirm_shown.py --all                          # every lesson page

A build fails when a listing or output on a lesson page differs from the page's reviewed record
(`lessons/lNN/reviewed.json`, see coursekit/core/shown.py), because shared code changed under prose
written for the old output. Read the page (`mkdocs serve` shows it, with each change in its box);
if the prose still fits, this command rebuilds the site once, writes what each named page shows
now into its record and prints what changed. Commit the record: the pull request's diff shows the
reviewer exactly what changed on a published page. It refuses while the build fails for another
reason (a drifted number, failing code), and writes nothing then.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.extensions import authoring  # noqa: E402
from coursekit.core import shown  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="*", help="lesson pages to confirm, e.g. docs/lessons/10-attention.md")
    parser.add_argument("--all", action="store_true", help="confirm every lesson page")
    args = parser.parse_args(argv)
    every = [p.relative_to(ROOT).as_posix() for p in authoring.lesson_pages(ROOT)]
    chosen = every if args.all else [Path(p).as_posix().removeprefix("./") for p in args.pages]
    unknown = [p for p in chosen if p not in every]
    if unknown or not chosen:
        print(f"要确认的页面得是 docs/lessons/ 里的讲义页（{', '.join(every)}），或写 --all；收到：{', '.join(unknown) or '（没有）'}",
              file=sys.stderr)
        return 2
    for page in chosen:
        shown.current_path(ROOT, page).unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as site:
        env = dict(os.environ, **{shown.CONFIRMING: "1", "NO_MKDOCS_2_WARNING": "1"})
        build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", site], cwd=ROOT, env=env,
                               capture_output=True, text=True)
    if build.returncode != 0:
        sys.stderr.write(build.stdout + build.stderr)
        print("构建失败（见上），什么都没有确认：先修好这些问题。", file=sys.stderr)
        return 1
    for page in chosen:
        now = shown.current_path(ROOT, page)
        if not now.is_file():
            print(f"{page}：构建没有给出这一页展示的内容，什么都没有写入", file=sys.stderr)
            return 1
        record = shown.record_path(ROOT, page)
        text = now.read_text(encoding="utf-8")
        old = record.read_text(encoding="utf-8") if record.is_file() else None
        rel = record.relative_to(ROOT).as_posix()
        if old == text:
            print(f"{page}：与 {rel} 相同，没有要确认的")
            continue
        changes = _changes(old, text)
        record.write_text(text, encoding="utf-8")
        print(f"{page}：已写入 {rel}（{changes}）")
    return 0


def _changes(old: str | None, new: str) -> str:
    if old is None:
        return f"新记录，{len(json.loads(new)['shown'])} 个块"
    def blocks(text: str) -> dict[str, dict]:
        return {shown.Shown.from_entry(e).key: e for e in json.loads(text)["shown"]}

    try:
        before = blocks(old)
    except (ValueError, KeyError, TypeError):
        return "旧记录读不了，已重写"
    after = blocks(new)
    changed = sum(1 for k, e in after.items() if k in before and before[k] != e)
    return f"新增 {len(after.keys() - before.keys())} 个，变了 {changed} 个，去掉 {len(before.keys() - after.keys())} 个"


if __name__ == "__main__":
    sys.exit(main())
