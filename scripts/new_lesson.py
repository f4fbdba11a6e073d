"""Start lesson NN from the template: its page, its companion package, and its place in the nav.

    python scripts/new_lesson.py 11 masking "掩码：不许偷看后文"

Writes docs/lessons/NN-SLUG.md and lessons/lNN/ from templates/lesson/, and adds the lesson (page
and notebook) to the nav in mkdocs.yml, above the marker line. Refuses to overwrite anything.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "templates/lesson"
NAV_MARKER = "# 新的一讲由 scripts/new_lesson.py 加在这一行上面"


def new_lesson(root: Path, number: str, slug: str, title: str) -> list[Path]:
    if not re.fullmatch(r"\d{2}", number) or not re.fullmatch(r"[a-z0-9-]+", slug):
        raise SystemExit("讲次要两位数字（如 11），slug 只用小写字母、数字和连字符（如 masking）")
    plan = {}
    for src in sorted(p for p in TEMPLATE.rglob("*") if p.is_file()):
        rel = src.relative_to(TEMPLATE).as_posix().replace("lNN", f"l{number}").replace("NN-SLUG", f"{number}-{slug}")
        text = src.read_text(encoding="utf-8").replace("lNN", f"l{number}").replace("NN", number).replace("TITLE", title)
        plan[root / rel] = text
    existing = [str(p.relative_to(root)) for p in plan if p.exists()]
    if existing:
        raise SystemExit(f"已存在，不覆盖：{', '.join(existing)}")
    config = root / "mkdocs.yml"
    yml = config.read_text(encoding="utf-8")
    if NAV_MARKER not in yml:
        raise SystemExit(f"mkdocs.yml 的 nav 里找不到标记行：{NAV_MARKER}")
    indent = re.search(rf"^([ ]*){re.escape(NAV_MARKER)}", yml, re.M).group(1)
    short = title.split("：")[0]
    entry = (f"{indent}- 第 {int(number)} 讲 · {short}:\n"
             f"{indent}    - 正文: lessons/{number}-{slug}.md\n"
             f"{indent}    - 笔记本: lessons/{number}-notebook.ipynb\n")
    for path, text in plan.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config.write_text(yml.replace(f"{indent}{NAV_MARKER}", entry + f"{indent}{NAV_MARKER}", 1), encoding="utf-8")
    return list(plan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("number", help="两位讲次，如 11")
    parser.add_argument("slug", help="页面文件名的一部分，如 masking")
    parser.add_argument("title", help="标题，如 “掩码：不许偷看后文”")
    args = parser.parse_args()
    for path in new_lesson(ROOT, args.number, args.slug, args.title):
        print(f"写入 {path.relative_to(ROOT)}")
    print("已加入 mkdocs.yml 的 nav。下一步：python -m lessons.l" + args.number + "，然后 mkdocs serve。")


if __name__ == "__main__":
    sys.exit(main())
