"""Start lesson NN from the template: its page, its companion package, its place in the nav.

    python scripts/new_lesson.py 11 masking "掩码：不许偷看后文" "给读取比例加上因果掩码，每个位置只读自己和前文"

Writes docs/lessons/NN-SLUG.md and lessons/lNN/ from templates/lesson/ (the summary goes into
lessons/lNN/__init__.py as SUMMARY) and adds the lesson (page and notebook) to the nav in mkdocs.yml
above the marker line. The home page's 课程目录 is not written here: the build makes it from each
lesson's title and SUMMARY (coursekit/extensions/crossref.py). Everything is checked first (the number, the slug, the title, the summary; the filled-in
Python compiles, the page's front matter and mkdocs.yml still parse to what was meant), so a
refusal writes nothing; a failure while writing undoes what was written. Never overwrites a file.
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import os
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "templates/lesson"
NAV_MARKER = "# 新的一讲由 scripts/new_lesson.py 加在这一行上面"
PLACEHOLDERS = re.compile(r"LESSON_SUMMARY|lNN|NN-SLUG|NN|SLUG|TITLE")
MAX_TITLE = 60
# A number the drift guard requires bound (a decimal, a fraction, a percentage, an integer in a vector
# or an equation) fails the build in a page title, where no annotation can follow it. The title is
# checked with the guard's own rule; without coursekit there is no such check, so no lesson is made.
sys.path.insert(0, str(ROOT))
try:
    from coursekit.core import guard
except ImportError as err:
    sys.exit(f"没有写入任何文件：检查标题要用数字守卫（coursekit.core.guard），它导入不了（{err}）。"
             "请在仓库根目录运行 python -m pip install -r requirements.txt")
finally:
    sys.path.remove(str(ROOT))


class Refused(Exception):
    """The lesson cannot be made as asked; the message says why. Nothing was written."""


def check_arguments(number: str, slug: str, title: str) -> str:
    """The title to use (trimmed), or Refused."""
    if not re.fullmatch(r"[0-9]{2}", number) or number == "00":
        raise Refused(f"讲次要两位 ASCII 数字，01 到 99（如 11），收到的是 {number!r}")
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slug) or len(slug) > 40:
        raise Refused(f"slug 只用小写 ASCII 字母、数字和中间的连字符，最长 40 个字符（如 masking），收到的是 {slug!r}")
    title = title.strip()
    if not title:
        raise Refused("标题不能为空")
    odd = [c for c in title if unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}]
    if odd:
        raise Refused(f"标题只能是一行看得见的文字，其中有换行或控制字符：{', '.join(f'U+{ord(c):04X}' for c in odd)}")
    if len(title) > MAX_TITLE:
        raise Refused(f"标题最长 {MAX_TITLE} 个字符，这个有 {len(title)} 个")
    if guard.ANNOTATION.search(title):
        raise Refused("标题里不写 {=…} 或 {示意}：标题里的数无从绑定，读者会看到标注本身")
    # as the reader reads it, as the page's front matter and its heading write it
    found = next((c for form in (title, html_text(title), markdown_text(title)) if (c := [t.text for t in guard.claims(form)])), [])
    if found:
        raise Refused(f"标题里不要写要核对的数（{'、'.join(found)}）：读者看到的每个数（数字、带量词的中文数字、"
                      "形状、−∞）在正文里都要绑定到代码现算的值，标题里无从绑定；序数（第 2 种）可以写")
    return title


def markdown_text(text: str) -> str:
    """`text` as Markdown that shows it literally: in a heading, a link or a table cell."""
    out = []
    for c in text:
        if c == "<":
            out.append("&lt;")
        elif c == "&":
            out.append("&amp;")
        elif c in "\\`*_{}[]()>#+-.!|":
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def html_text(text: str) -> str:
    """MkDocs and Material put page and nav titles into the HTML as they are: escape what is markup."""
    return html.escape(text, quote=False)


def yaml_string(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is YAML's, for the characters allowed)."""
    return json.dumps(text, ensure_ascii=False)


def python_string_body(text: str) -> str:
    """`text` as the inside of a Python string literal, "..." or \"\"\"...\"\"\"."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def fill(template: str, values: dict[str, str]) -> str:
    """Every placeholder replaced in one pass, so nothing inserted is replaced again."""
    return PLACEHOLDERS.sub(lambda m: values[m.group(0)], template)


def fill_markdown(template: str, values: dict[str, str], title: str) -> str:
    """A page: front-matter values as quoted YAML, the title as literal Markdown text."""
    lines = template.split("\n")
    body_from = 0
    if lines and lines[0] == "---" and "---" in lines[1:]:
        end = lines.index("---", 1)
        for i in range(1, end):
            key, sep, value = lines[i].partition(": ")
            if sep and PLACEHOLDERS.search(value):
                lines[i] = f"{key}: {yaml_string(fill(value, {**values, 'TITLE': html_text(title)}))}"
        body_from = end + 1
    body = fill("\n".join(lines[body_from:]), {**values, "TITLE": markdown_text(title)})
    return "\n".join([*lines[:body_from], body])


def check_summary(summary: str | None) -> str:
    """The one-line summary to use (trimmed), or Refused: the build's own rule (coursekit.extensions.crossref)."""
    from coursekit.extensions import crossref

    if summary is None or not summary.strip():
        raise Refused("要写一句话简介（第四个参数），说这一讲做什么，如 \"给读取比例加上因果掩码，每个位置只读自己和前文\"；"
                      "首页的课程目录显示它，没有它构建会失败")
    reason = crossref.summary_problem(summary)
    if reason:
        raise Refused(f"一句话简介{reason}")
    return summary.strip()


def plan_files(root: Path, number: str, slug: str, title: str, summary: str = "") -> dict[Path, str]:
    values = {"lNN": f"l{number}", "NN-SLUG": f"{number}-{slug}", "NN": number, "SLUG": slug,
              "LESSON_SUMMARY": markdown_text(summary)}
    plan = {}
    for src in sorted(p for p in TEMPLATE.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = fill(src.relative_to(TEMPLATE).as_posix(), {**values, "TITLE": "TITLE"})
        text = src.read_text(encoding="utf-8")
        if src.suffix == ".py":
            text = fill(text, {**values, "TITLE": python_string_body(title), "LESSON_SUMMARY": python_string_body(summary)})
            check_python(rel, text, title if "TITLE" in src.read_text(encoding="utf-8") else None)
            if "LESSON_SUMMARY" in src.read_text(encoding="utf-8"):
                check_summary_written(rel, text, summary)
        elif src.suffix == ".md":
            text = fill_markdown(text, values, title)
            check_front_matter(rel, text)
        else:
            text = fill(text, {**values, "TITLE": title, "LESSON_SUMMARY": summary})
        plan[root / rel] = text
    return plan


def check_summary_written(rel: str, text: str, summary: str) -> None:
    """The build reads SUMMARY from the file as written (coursekit.extensions.crossref): it must read back."""
    from coursekit.extensions import crossref

    if crossref.summary_in(text)[0] != summary:
        raise Refused(f"{rel}：一句话简介没有原样写进 {crossref.SUMMARY_NAME}")


def check_python(rel: str, text: str, title: str | None) -> None:
    try:
        tree = ast.parse(text, rel)
    except SyntaxError as err:  # a template problem, not the author's
        raise Refused(f"{rel}：填入后不是合法的 Python（{err.msg}）") from None
    if title is not None:
        strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        if not any(title in s for s in strings):
            raise Refused(f"{rel}：标题没有原样进入文件里的字符串")


def check_front_matter(rel: str, text: str) -> None:
    import yaml

    if text.startswith("---\n"):
        head = text.split("\n---\n", 1)[0][4:]
        try:
            meta = yaml.safe_load(head)
        except yaml.YAMLError as err:
            raise Refused(f"{rel}：填入后页面开头的 YAML 不能解析（{err}）") from None
        if not isinstance(meta, dict):
            raise Refused(f"{rel}：填入后页面开头的 YAML 不是键值表")


def nav_title(number: str, title: str) -> str:
    short = re.split(r"[：:]", title, maxsplit=1)[0].strip() or title
    return f"第 {int(number)} 讲 · {short}"


def plan_nav(root: Path, number: str, slug: str, title: str) -> str:
    from mkdocs.utils.yaml import yaml_load

    yml = (root / "mkdocs.yml").read_text(encoding="utf-8")
    found = re.search(rf"^([ ]*){re.escape(NAV_MARKER)}[ ]*$", yml, re.M)
    if not found:
        raise Refused(f"mkdocs.yml 的 nav 里找不到标记行：{NAV_MARKER}")
    indent = found.group(1)
    key = nav_title(number, title)
    page, notebook = f"lessons/{number}-{slug}.md", f"lessons/{number}-notebook.ipynb"
    entry = (f"{indent}- {yaml_string(html_text(key))}:\n"
             f"{indent}    - 正文: {page}\n"
             f"{indent}    - 笔记本: {notebook}\n")
    new = yml[:found.start()] + entry + yml[found.start():]
    try:
        before, after = yaml_load(yml)["nav"], yaml_load(new)["nav"]
    except Exception as err:  # any parse failure means: do not write it
        raise Refused(f"加入 nav 后 mkdocs.yml 不能解析（{err}）") from None
    added = [e for e in after if e not in before]
    if added != [{html_text(key): [{"正文": page}, {"笔记本": notebook}]}] or [e for e in after if e in before] != before:
        raise Refused("加入 nav 后 mkdocs.yml 读出来和预期的不一样；请检查 nav 里的标记行")
    if any(html_text(key) in e for e in before if isinstance(e, dict)):
        raise Refused(f"nav 里已经有「{key}」")
    return new


def plan(root: Path, number: str, slug: str, title: str, summary: str | None = None) -> tuple[dict[Path, str], dict[Path, str]]:
    """(new files, changed files) with their full text; Refused if anything is wrong."""
    title = check_arguments(number, slug, title)
    taken = sorted(p.relative_to(root).as_posix() for p in [
        *root.glob(f"docs/lessons/{number}-*"), *([root / f"lessons/l{number}"] if (root / f"lessons/l{number}").exists() else [])])
    new = plan_files(root, number, slug, title)
    existing = [p.relative_to(root).as_posix() for p in new if p.exists() or p.is_symlink()]
    if taken and f"docs/lessons/{number}-{slug}.md" not in existing:
        raise Refused(f"第 {number} 讲已经有了：{', '.join(taken)}。换一个讲次，或者先删掉它们")
    if existing:
        raise Refused(f"已存在，不覆盖：{', '.join(existing)}")
    summary = check_summary(summary)
    new = plan_files(root, number, slug, title, summary)
    changed = {root / "mkdocs.yml": plan_nav(root, number, slug, title)}
    return new, changed


def write(new: dict[Path, str], changed: dict[Path, str]) -> None:
    """Write all or nothing: on any failure, what was written is removed and what was changed restored."""
    made_dirs: list[Path] = []
    made_files: list[Path] = []
    originals: dict[Path, bytes] = {}
    temps: list[Path] = []
    try:
        for path, text in new.items():
            for parent in reversed(path.parents):
                if not parent.exists():
                    parent.mkdir()
                    made_dirs.append(parent)
            with open(path, "x", encoding="utf-8") as f:  # "x": never overwrite
                made_files.append(path)
                f.write(text)
        for path, text in changed.items():
            originals[path] = path.read_bytes()
            temp = path.with_name(f".{path.name}.new-lesson")
            temps.append(temp)
            temp.write_text(text, encoding="utf-8")
            os.replace(temp, path)
    except BaseException:
        for path, data in originals.items():
            path.write_bytes(data)
        for path in [*temps, *made_files]:
            path.unlink(missing_ok=True)
        for directory in reversed(made_dirs):
            directory.rmdir()
        raise


def new_lesson(root: Path, number: str, slug: str, title: str, summary: str | None = None) -> list[Path]:
    new, changed = plan(root, number, slug, title, summary)
    write(new, changed)
    return [*new, *changed]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("number", help="两位讲次，如 11")
    parser.add_argument("slug", help="页面文件名的一部分，如 masking")
    parser.add_argument("title", help="标题，如 “掩码：不许偷看后文”")
    parser.add_argument("summary", nargs="?", help="一句话简介（首页的课程目录显示它），如 “给读取比例加上因果掩码，每个位置只读自己和前文”")
    args = parser.parse_args()
    try:
        paths = new_lesson(ROOT, args.number, args.slug, args.title, args.summary)
    except Refused as err:
        print(f"没有写入任何文件：{err}", file=sys.stderr)
        return 1
    for path in paths:
        print(f"写入 {path.relative_to(ROOT)}")
    print(f"已加入 mkdocs.yml 的 nav；首页的课程目录在构建时按标题和 lessons/l{args.number}/__init__.py 的 SUMMARY 生成。"
          f"下一步：python -m lessons.l{args.number}，然后 mkdocs serve。")
    return 0


if __name__ == "__main__":
    sys.exit(main())
