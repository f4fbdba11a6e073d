"""Lessons that point at each other, and the home page's course table: a Python-Markdown extension
(`coursekit.extensions.crossref` in `markdown_extensions`), so MkDocs and Zensical both do it.

What a lesson declares: its title is its page's front-matter `title`
(docs/lessons/NN-slug.md); its one-line summary is `SUMMARY` in its package's `__init__.py`
(lessons/lNN/, read without importing it), next to its EXPERIMENTS:

    SUMMARY = "给读取比例加上因果掩码，每个位置只读自己和前文"

(Not a front-matter line: one more line at the top of a published page would move every line
number of it, and earlier lessons' pages must not move.) From these, at build:

- In a lesson page, `第 N 讲`, `第N讲`, `第0N讲`, `上一讲` (lesson N-1) and `下一讲` (lesson N+1)
  become links to that lesson's page when it exists, with its title as the tooltip: the first
  reference to each lesson in each section (h1/h2), not every one. They stay plain text when the
  lesson does not exist, and when N is the page's own lesson (a page never links to itself). Code,
  headings (and so their anchors), existing links, details' summaries and raw HTML (the kicker line)
  are left alone. The Markdown source is not changed: the drift guard reads the page as written,
  where these are ordinals.
- A lesson page ends with a line linking the previous and the next lesson that exist, in number
  order (`nav.tl-lessons`, left out of the search index).
- A page with the marker line (`TABLE_MARKER`, alone on its line) gets the course table in its
  place: 讲次 (kept on one line: `tl-lesson-number`, overrides/course.css), the title without its
  `NN｜`, and the summary, one row per lesson.
- A lesson without a title or a summary, or with a summary that is not one short line, fails the
  build with a message naming its file and line: on its own page, and on the page with the table.

Links are written to the target's `.md` file, relative to the page, so the builder turns them into
its URLs and checks them like any other internal link (mkdocs.yml's `validation:`).
"""

from __future__ import annotations

import ast
import html
import posixpath
import re
import unicodedata
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from pathlib import Path

import yaml
from markdown import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from coursekit.core import CourseError, engine, guard, pagetext, scan, stamps, syntax

SUMMARY_NAME = "SUMMARY"
TABLE_MARKER = "<!-- 课程目录：构建时由 coursekit/extensions/crossref.py 生成，每讲一行：页面开头的 title，lessons/lNN/__init__.py 的 SUMMARY -->"
LESSON_FILE = re.compile(r"docs/lessons/(\d+)-[^/]+\.md")
MAX_SUMMARY = 80
# 第 10 讲, 第10讲, 第08讲 (ASCII or full-width digits), 上一讲, 下一讲
REFERENCE = re.compile(r"第[ \t\n]*(?P<n>[0-9０-９]{1,3})[ \t\n]*讲|(?P<rel>上一讲|下一讲)")
SECTION = {"h1", "h2"}  # each starts a section: its first reference to a lesson is linked again
# No link is made inside these (nor inside raw HTML, which the tree does not hold).
SKIP = {"a", "code", "pre", "kbd", "samp", "script", "style", "math", "svg", "summary", "button", "label",
        "textarea", "select", "option", "h1", "h2", "h3", "h4", "h5", "h6", "nav"}

class LessonDeclarationError(CourseError):
    """A lesson's title or summary is missing or unusable; one `file:line: message` line each."""


@dataclass(frozen=True)
class Lesson:
    number: int
    path: str  # docs/lessons/10-attention.md
    title: str  # as a reader sees it (front matter holds HTML text: entities are read)
    title_line: int
    package: str  # lessons/l10
    has_package: bool
    summary: str | None  # SUMMARY in lessons/lNN/__init__.py
    summary_line: int

    @property
    def short_title(self) -> str:
        """The title without its leading `NN｜` (the table's 讲次 column says it)."""
        return re.sub(rf"^0*{self.number}[ \t]*[｜|][ \t]*", "", self.title, count=1) or self.title

    def problems(self) -> list[str]:
        out = []
        if not self.title.strip():
            out.append(f"{self.path}:{self.title_line}: 这一讲没有标题：在页面开头的 YAML 里写 title: \"NN｜标题\"")
        init = f"{self.package}/__init__.py"
        if not self.has_package:
            out.append(f"{self.path}:1: 这一讲没有配套代码包 {self.package}/：一句话简介写在它的 __init__.py 里，"
                       f"{SUMMARY_NAME} = \"这一讲做什么\"（首页的课程目录显示它）")
        elif self.summary is None:
            out.append(f"{init}:{self.summary_line}: 这一讲没有一句话简介：在这个文件里加一行 "
                       f"{SUMMARY_NAME} = \"这一讲做什么\"（首页的课程目录显示它；写成字符串，构建只读这一行，不运行本包）")
        else:
            reason = summary_problem(self.summary)
            if reason:
                out.append(f"{init}:{self.summary_line}: 一句话简介 {SUMMARY_NAME} {reason}")
        return out


def summary_problem(summary: object) -> str | None:
    """Why `summary` cannot be a lesson's one-line summary, or None. scripts/new_lesson.py uses it too."""
    if not isinstance(summary, str) or not summary.strip():
        return "不能为空"
    odd = [c for c in summary if unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}]
    if odd:
        return f"只能是一行看得见的文字，其中有换行或控制字符：{', '.join(f'U+{ord(c):04X}' for c in odd)}"
    if guard.ANNOTATION.search(summary):
        return "里不写 {=…} 或 {示意}：简介不在正文里，没有什么去核对它，读者会看到标注本身"
    if len(summary.strip()) > MAX_SUMMARY:
        return f"最长 {MAX_SUMMARY} 个字符，这个有 {len(summary.strip())} 个"
    claimed = guard.claims(summary)
    if claimed:
        return (f"里不要写数（{'、'.join(t.text for t in claimed)}）：首页上的简介无从绑定到代码现算的值，"
                "这样的数写进正文并绑定")
    return None


_read = stamps.Remembered()  # (page, its lesson's __init__.py) -> Lesson


def declared_summary(init: Path) -> tuple[str | None, int]:
    """(the string assigned to SUMMARY in a lesson's __init__.py, its line); (None, 1) without one."""
    try:
        return summary_in(pagetext.read(init))
    except OSError:
        return None, 1


def summary_in(source: str) -> tuple[str | None, int]:
    """(SUMMARY's value, its line) in a module's source, read without running it; (None, its line)
    when it is not a string literal, (None, 1) when there is none."""
    try:
        tree = syntax.parse(source)
    except (SyntaxError, ValueError):
        return None, 1
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == SUMMARY_NAME for t in targets) and node.value is not None:
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    value = None
                return (value if isinstance(value, str) else None), node.lineno
    return None, 1


def _lesson(root: Path, file: Path) -> Lesson | None:
    rel = file.relative_to(root).as_posix()
    m = LESSON_FILE.fullmatch(rel)
    if not m:
        return None
    init = root / f"lessons/l{m.group(1)}/__init__.py"
    return _read.get((file, init), lambda file, init: _read_lesson(root, rel, file, init, int(m.group(1))))


def _read_lesson(root: Path, rel: str, file: Path, init: Path, number: int) -> Lesson:
    fm, _, _ = scan.front_matter(pagetext.read(file))
    try:
        meta = yaml.safe_load(fm) if fm else {}
    except yaml.YAMLError:
        meta = None
    meta = meta if isinstance(meta, dict) else {}
    found = re.search(r"^title[ \t]*:", fm, re.M)
    title = meta.get("title")
    summary, line = declared_summary(init)
    return Lesson(
        number=number, path=rel,
        title=html.unescape(str(title)).strip() if title is not None else "",
        title_line=2 + fm.count("\n", 0, found.start()) if found else 1,
        package=init.parent.relative_to(root).as_posix(), has_package=init.is_file(),
        summary=summary.strip() if summary is not None else None, summary_line=line,
    )


def lessons(root: Path) -> dict[int, Lesson]:
    """{number: Lesson} of every lesson page under docs/lessons/, in number order."""
    found = {}
    for file in sorted((root / "docs/lessons").glob("[0-9]*-*.md")):
        lesson = _lesson(root, file)
        if lesson is not None and lesson.number not in found:
            found[lesson.number] = lesson
    return dict(sorted(found.items()))


def declarations(root: Path) -> str:
    """What a page shows of other lessons (their numbers, pages, titles, summaries), as one string:
    the home page's table and every lesson page's links and nav line change when it does, so an
    incremental rebuild should count it among the inputs of those pages."""
    return "\n".join(f"{n}\t{x.path}\t{x.title}\t{x.summary}" for n, x in lessons(root).items())


def shows_declarations(page: str, text: str) -> bool:
    """Whether the page `page` (docs/…) with source `text` shows `declarations`: a lesson page, or
    a page holding the table's marker."""
    return LESSON_FILE.fullmatch(page) is not None or TABLE_MARKER in text


def _problems(found: list[Lesson]) -> None:
    lines = [line for lesson in found for line in lesson.problems()]
    if lines:
        raise LessonDeclarationError("\n".join(lines))


def markdown_text(text: str) -> str:
    """`text` as Markdown that shows it literally (in a table cell, a link)."""
    return "".join("&lt;" if c == "<" else "&amp;" if c == "&" else "\\" + c if c in "\\`*_{}[]()>#+-.!|~" else c
                   for c in text)


def table(lessons_: dict[int, Lesson], page_dir: str = "docs") -> list[str]:
    """The course table's Markdown lines; links relative to `page_dir` (the folder of the page holding it)."""
    _problems(list(lessons_.values()))
    rows = ["| 讲次 | 题目 | 这一讲做什么 |", "| --- | --- | --- |"]
    for n, lesson in lessons_.items():
        href = posixpath.relpath(lesson.path, page_dir)
        rows.append(f'| <span class="tl-lesson-number">第 {n} 讲</span> | [{markdown_text(lesson.short_title)}]({href}) | {markdown_text(lesson.summary)} |')
    return rows


def target(number: int, word: str | None, own: int) -> int | None:
    """The lesson a reference means: 第 N 讲 is N, 上一讲 own-1, 下一讲 own+1."""
    if word == "上一讲":
        return own - 1
    if word == "下一讲":
        return own + 1
    return number


def _pieces(text: str, own: Lesson, lessons_: dict[int, Lesson], page_dir: str, linked: set[int]) -> list:
    """`text` split into strings and links (etree elements, their tail unset); a lesson already in
    `linked` (this section's) stays text, one that gets its link is added."""
    out, last = [], 0
    for m in REFERENCE.finditer(text):
        n = int(m.group("n").translate(str.maketrans("０１２３４５６７８９", "0123456789"))) if m.group("n") else 0
        to = target(n, m.group("rel"), own.number)
        if to == own.number or to not in lessons_ or to in linked:
            continue
        linked.add(to)
        a = etree.Element("a", {"class": "tl-xref", "href": posixpath.relpath(lessons_[to].path, page_dir),
                                "title": lessons_[to].title})
        a.text = m.group(0)
        out += [text[last:m.start()], a]
        last = m.end()
    if not out:
        return [text]
    return [*out, text[last:]]


def link_references(root: etree.Element, own: Lesson, lessons_: dict[int, Lesson]) -> None:
    """Turn the first reference to each other lesson that exists, in each section of `root` (from
    one h1/h2 to the next), into a link: a paragraph saying 上一讲 three times gets one link."""
    page_dir = posixpath.dirname(own.path)
    linked: set[int] = set()

    def split(text):
        if not text or isinstance(text, AtomicString) or not REFERENCE.search(text):
            return None
        pieces = _pieces(text, own, lessons_, page_dir, linked)
        return pieces if len(pieces) > 1 else None

    def place(parent: etree.Element, at: int, pieces: list) -> int:
        """Insert the links of `pieces` (after its first string) into parent at index `at`; how many."""
        links = pieces[1::2]
        for i, a in enumerate(links):
            a.tail = pieces[2 + 2 * i] or None
            parent.insert(at + i, a)
        return len(links)

    def visit(el: etree.Element) -> None:
        if el.tag in SECTION:
            linked.clear()
        if el.tag in SKIP:
            return
        pieces = split(el.text)
        if pieces:
            el.text = pieces[0] or None
            place(el, 0, pieces)
        i = 0
        while i < len(el):
            child = el[i]
            if child.get("class") == "tl-xref":
                i += 1
                continue
            visit(child)
            pieces = split(child.tail)
            if pieces:
                child.tail = pieces[0] or None
                i += place(el, i + 1, pieces)
            i += 1

    visit(root)


def neighbours(own: Lesson, lessons_: dict[int, Lesson]) -> tuple[Lesson | None, Lesson | None]:
    """The lessons that exist just before and just after `own`, in number order."""
    numbers = list(lessons_)
    before = [n for n in numbers if n < own.number]
    after = [n for n in numbers if n > own.number]
    return (lessons_[before[-1]] if before else None), (lessons_[after[0]] if after else None)


def lesson_nav(own: Lesson, lessons_: dict[int, Lesson]) -> etree.Element | None:
    """The line at the end of a lesson page: 上一讲 / 下一讲 (前一篇 / 后一篇 across a gap in the numbers)."""
    prev, nxt = neighbours(own, lessons_)
    if prev is None and nxt is None:
        return None
    nav = etree.Element("nav", {"class": "tl-lessons", "aria-label": "前后讲次", "data-search-exclude": ""})
    p = etree.SubElement(nav, "p")
    page_dir = posixpath.dirname(own.path)
    last = None
    for lesson, rel, adjacent, other in ((prev, "prev", "上一讲", "前一篇"), (nxt, "next", "下一讲", "后一篇")):
        if lesson is None:
            continue
        label = adjacent if abs(lesson.number - own.number) == 1 else other
        if last is None:
            p.text = f"{label}："
        else:
            last.tail = f" · {label}："
        last = etree.SubElement(p, "a", {"href": posixpath.relpath(lesson.path, page_dir), "rel": rel})
        last.text = lesson.title
    return nav


class _Pages:
    """The page files under docs/, to find which one a builder is converting (it passes the text
    without its front matter, not its path)."""

    def __init__(self) -> None:
        self.seen = stamps.Remembered()  # page -> its text after the front matter

    def locate(self, root: Path, text: str) -> str | None:
        for path in sorted((root / "docs").rglob("*.md")):
            body = self.seen.get(path, lambda p: scan.front_matter(pagetext.read(p))[2])
            if body == text or body.strip() == text.strip():
                return path.relative_to(root).as_posix()
        return None


_pages = _Pages()


@dataclass
class _State:
    root: Path
    path: str | None  # docs/lessons/10-attention.md; None for text that is no page (a block's output)
    lessons: dict[int, Lesson]

    @property
    def own(self) -> Lesson | None:
        m = LESSON_FILE.fullmatch(self.path or "")
        return self.lessons.get(int(m.group(1))) if m else None


class LocatePreprocessor(Preprocessor):
    """First of all preprocessors: which page this is, and its own declarations checked (before the
    guard starts its lesson's code, so a refusal leaves nothing running). Changes nothing but what
    a builder that decoded the page itself left in it: a BOM, CR line ends (pagetext.normal)."""

    def run(self, lines: list[str]) -> list[str]:
        root = engine.current.root or Path.cwd()
        text = pagetext.normal("\n".join(lines))
        path = _pages.locate(root, text) if (root / "docs").is_dir() else None
        state = _State(root, path, lessons(root) if path else {})
        self.md.coursekit_crossref = state
        if state.own is not None:
            _problems([state.own])
        return text.split("\n")


class TablePreprocessor(Preprocessor):
    """The marker line, outside code, becomes the course table (after the guard and snippets)."""

    def run(self, lines: list[str]) -> list[str]:
        if not any(line.strip() == TABLE_MARKER for line in lines):
            return lines
        state = getattr(self.md, "coursekit_crossref", None)
        root = state.root if state else (engine.current.root or Path.cwd())
        path = state.path if state and state.path else "docs/index.md"
        found = state.lessons if state and state.lessons else lessons(root)
        code = {n for f in scan.fences("\n".join(lines)) for n in range(f.start, f.end + 1)}
        out = []
        for i, line in enumerate(lines, 1):
            if line.strip() == TABLE_MARKER and i not in code:
                out += table(found, posixpath.dirname(path))
            else:
                out.append(line)
        return out


class LinkTreeprocessor(Treeprocessor):
    """A lesson page's references to other lessons become links, and its last line links its neighbours."""

    def run(self, root: etree.Element):
        state = getattr(self.md, "coursekit_crossref", None)
        self.md.coursekit_crossref = None
        own = state.own if state else None
        if own is None:
            return None
        link_references(root, own, state.lessons)
        nav = lesson_nav(own, state.lessons)
        if nav is not None:
            root.append(nav)
        return None


class CrossrefExtension(Extension):
    def extendMarkdown(self, md) -> None:  # Python-Markdown's name
        md.registerExtension(self)
        md.preprocessors.register(LocatePreprocessor(md), "coursekit_crossref_locate", 40)  # before the guard (33)
        md.preprocessors.register(TablePreprocessor(md), "coursekit_crossref_table", 31)  # after snippets (32)
        # after inline markup (20) and attribute lists (8); before the builder reads links (MkDocs: 0)
        md.treeprocessors.register(LinkTreeprocessor(md), "coursekit_crossref_links", 7)

    def reset(self) -> None:
        pass


def makeExtension(**kwargs):  # Python-Markdown's name
    return CrossrefExtension(**kwargs)
