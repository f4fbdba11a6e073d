"""The course's Python-Markdown extension: it checks a lesson page while it is converted, so MkDocs
and Zensical (which runs Markdown extensions, but no MkDocs hooks) check the same things.

Before pymdownx.snippets and superfences see the page, a preprocessor
- finds the page's file (builders pass the text without its front matter, not its path),
- binds every `{=expr}` annotation to the lesson's live values and checks every number a reader
  sees (coursekit.core.guard), in the page, its front-matter title and the Markdown it includes,
- removes the annotations, and tags each executed block with its file and line (`src=`), so a
  failing block is reported where it stands (coursekit.extensions.fence runs the blocks).
At the end (a last treeprocessor, once every block has run) it hands the page's problems to the MkDocs hooks, which show them on the
served page or stop the build; with no hooks in charge it raises, so any builder fails.
"""

from __future__ import annotations

import functools
import html
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from coursekit.core import CourseError, blocks, engine, footer, guard, manifest, names, pagetext, pasted, proposer, scan, shown, stamps, widgets
from coursekit.extensions import facts, fence

log = logging.getLogger("coursekit")
LESSON_PAGES = "docs/lessons/"
SESSION = re.compile(r'\bsession="?(l\d+)"?')
EXECUTES = re.compile(r"\bexec=[\"']")  # a markdown-exec block, either quote
# pymdownx.snippets' include lines and what it inserts for them, re-implemented (the guard reads an
# included file as its own, with its own line numbers, before snippets runs): `--8<-- "file"` (either
# quote, any number of dashes), "file:3:5", "file:section"; the block form (a `--8<--` line, file names
# one per line, `;` commenting one out, a `--8<--` line); a section's `-8<- [start:name]` markers.
# Pinned with pymdown-extensions 13.1: tests/test_contracts.py puts what these read in place and
# compares the result with what snippets itself inserts.
INCLUDE = re.compile(r"""^(?P<indent>[ \t]*)-{1,}8<-{1,}[ \t]+(?P<q>["'])(?P<spec>[^"']+)(?P=q)[ \t]*$""")
BLOCK = re.compile(r"^(?P<indent>[ \t]*)-{1,}8<-{1,}[ \t]*$")
SECTION = re.compile(r"(?<!;)-{1,}8<-{1,}[ \t]+\[[ \t]*(?P<type>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\]", re.I)
LINES = re.compile(r"(?P<a>\d*)(?::(?P<b>\d*))?")  # file:3:5, file:3, file::5

class PageProblems(CourseError):
    """A page has drifted numbers or failing code; the message has one line per problem."""



def plan(root: Path, lesson: engine.Lesson) -> engine.PagePlan | None:
    """What a lesson's page will ask of its run, as this extension asks it: the expressions of its
    annotations and widgets, and its blocks that run in the lesson's worker, in page order (as
    superfences runs them; another order only costs a rerun). None: the lesson has no page."""
    page = next(iter(sorted((root / LESSON_PAGES).glob(f"{lesson.number}-*.md"))), None)
    if page is None:
        return None
    rel = page.relative_to(root).as_posix()
    _, fm_lines, body = scan.front_matter(pagetext.read(page))
    exprs = guard.scan_page(rel, body).expressions + widgets.declared(body)

    planned, counted = [], {}
    for f in scan.fences(body):
        given = {m["key"]: m["quoted"] if m["quoted"] is not None else m["bare"] for m in OPTION.finditer(f.info)}
        named = given.get("session", "")
        if not f.executed or fence.role(f.lang) not in ("python", "pycon") or "file=" in f.info or named not in ("", lesson.id):
            continue
        n = counted[named] = counted.get(named, 0) + 1  # as coursekit.extensions.fence._context counts
        width = int(given["width"]) if given.get("width", "").isdigit() else 0
        context = blocks.Context.of(rel, True, named, n, given.get("id", ""), given.get("title", ""),
                                    given.get("workdir", ""), width)
        planned.append(engine.PlannedBlock(fence.runnable(f.lang, "\n".join(f.lines)), f"{rel}:{fm_lines + f.start}", context))
    return engine.PagePlan(rel, exprs, planned)


OPTION = re.compile(r'(?<![\w-])(?P<key>session|id|title|workdir|width)=(?:"(?P<quoted>[^"]*)"|(?P<bare>[^\s"]+))')

@dataclass
class PageState:
    path: str  # docs/lessons/10-attention.md
    root: Path
    lesson_id: str | None
    build: engine.Build | None
    owns_build: bool
    problems: list[guard.Problem] = field(default_factory=list)
    bound: list[guard.Bound] = field(default_factory=list)
    chains: dict[str, str] = field(default_factory=dict)  # a namespace of its blocks -> the chain of those run in it
    counted: dict[str, int] = field(default_factory=dict)  # a session= name ("": none) -> its blocks so far (markdown-exec's n)
    broken: bool = False  # the lesson's code or a block failed: checks that read what ran (bindings, the reviewed record) wait
    shown: list[shown.Shown] = field(default_factory=list)  # what code put on the page (coursekit.core.shown)
    widget_values: dict = field(default_factory=dict)  # widget expressions, evaluated before the blocks (coursekit.core.widgets)
    hint: Callable | None = None  # adds a proposal to each unbound number's message (coursekit.core.proposer.hint)


class _Pages:
    """The page files under docs/, to find which one a builder is converting."""

    def __init__(self) -> None:
        self.seen = stamps.Remembered()  # page -> its text

    def locate(self, root: Path, text: str) -> tuple[str, int, str]:
        """(path, line of the text's first line, front matter) of the page holding `text`."""
        best = None
        for path in sorted((root / "docs").rglob("*.md")):
            full = self.seen.get(path, pagetext.read)
            fm, fm_lines, body = scan.front_matter(full)
            if body == text or body.strip() == text.strip():
                offset = body.find(text.strip()[:200]) if body != text else 0
                first = fm_lines + 1 + body.count("\n", 0, max(offset, 0))
                best = (path.relative_to(root).as_posix(), first, fm)
                break
        return best or ("<page>", 1, "")


_pages = _Pages()


class GuardPreprocessor(Preprocessor):
    def __init__(self, md, hints: bool = True) -> None:
        super().__init__(md)
        self.hint = proposer.hint if hints else None

    def run(self, lines: list[str]) -> list[str]:
        text = pagetext.normal("\n".join(lines))  # a builder may pass a BOM or CRLF on: read as MkDocs reads
        root = engine.current.root or Path.cwd()
        path, first, fm = _pages.locate(root, text)
        if path == "<page>":
            return text.split("\n")  # markdown-exec converting a block's output, or text from elsewhere
        lesson_id = page_lesson(path, text, fm)
        build, owns = engine.current.build, False
        if build is None and (lesson_id or EXECUTES.search(text)):  # a builder without the MkDocs hooks
            build, owns = engine.Build(root, planner=plan), True
        if lesson_id and build is not None and lesson_id not in build.lessons:
            lesson_id = None
        state = PageState(path, root, lesson_id, build, owns, hint=self.hint)
        self.md.coursekit = state
        if lesson_id:
            try:
                run = build.run(lesson_id)
                if run.error:
                    _lesson_failed(state, run.error, path, text, first)
            except engine.LessonError as err:
                _lesson_failed(state, err, path, text, first)
            if lesson_id == engine.lesson_of(path) and not state.broken:  # the lesson's own page reports
                try:  # its files' comments; a failed run is the one error
                    state.problems += build.comment_problems(lesson_id)
                    state.problems += names.problems(build.run(lesson_id).clashes)  # one value per name
                except engine.LessonError as err:
                    _lesson_failed(state, err, path, text, first)
        out = _check(state, path, text, first)
        state.problems += paste_problems(root, path, text, first, shows_by_default=not lesson_id)
        state.problems += figure_problems(root, path, text, first)
        widgets.prepare(state, out)  # what the page's widgets show is bound like its numbers
        if fm:
            title = re.search(r"^title:[ \t]*(.*)$", fm, re.M)
            if title:
                line = 2 + fm.count("\n", 0, title.start())
                _check(state, path, title.group(1), line, strip=False)
        return out.split("\n")


FIGURE = re.compile(r"""!\[[^\]]*\]\(\s*<?([^)\s>]+\.svg)>?|<img\b[^>]*\bsrc=["']([^"']+\.svg)["']""", re.I)
SVG_TEXT = re.compile(r"<(text|title|desc|tspan)\b[^>]*>(.*?)</\1\s*>", re.S | re.I)
SVG_EXAMPLE = "<!-- 示意 -->"  # a static figure whose numbers are all examples says so once


def figure_problems(root: Path, path: str, text: str, first: int) -> list[guard.Problem]:
    """The numbers a static SVG the page shows states in its text: a reader reads them like the
    prose, and no code computes them. A figure drawn by an executed block comes from code; a static
    one marked SVG_EXAMPLE holds examples only; a figure that can't be read fails at the page's line."""
    found = []
    code = [(m.start(), m.end()) for m in scan.INLINE_CODE.finditer(text)] + scan.fence_spans(text)
    for m in FIGURE.finditer(text):
        src = m.group(1) or m.group(2)
        if any(a <= m.start() < b for a, b in code):
            continue  # written in code: shown, not drawn
        if re.match(r"[a-z]+:", src):
            continue  # another host: refused elsewhere (nothing loads from other hosts)
        line = first + text.count("\n", 0, m.start())
        figure = (root / path).parent / src
        try:
            svg = pagetext.read(figure)
        except (OSError, UnicodeDecodeError) as err:
            found.append(guard.Problem(path, line, f"图 {src} 读不出来（{err.__class__.__name__}）：构建核对不了它里面的数"))
            continue
        if SVG_EXAMPLE in svg:
            continue
        for piece in SVG_TEXT.finditer(svg):
            words = html.unescape(re.sub(r"<[^>]+>", "", piece.group(2)))
            stated = [t.text for t in guard.claims(words)]
            if stated:
                found.append(guard.Problem(
                    path, line, f"图 {src} 里写着 {'、'.join(stated)}（「{words.strip()[:40]}」）：静态图里的数没有代码核对；"
                    f"让执行的代码块画出这张图（打印 SVG），数从代码来；图里的数都只是示意，就在 SVG 里写一行 {SVG_EXAMPLE}",
                    stated[0]))
    return found


def _check(state: PageState, path: str, text: str, first: int, strip: bool = True) -> str:
    """Check one piece of Markdown (a page, an included file, a title); return what the reader gets."""
    found = guard.scan_page(path, text, first)
    exprs = found.expressions
    values: dict[str, dict] = {}
    if exprs and state.broken:
        values = None  # the lesson's code failed: that is the one error, not every binding
    elif exprs:
        if state.lesson_id is None:  # a page of no lesson binds to the kit's own numbers
            values = dict(zip(exprs, facts.evaluate(exprs)))
        else:
            try:
                values = dict(zip(exprs, state.build.evaluate(state.lesson_id, exprs)))
            except engine.LessonError as err:
                _lesson_failed(state, err, path, text, first)
                values = None
    if values is not None:
        state.bound += guard.bind(found, values)
        if (found.unbound or found.examples) and state.lesson_id is not None and state.hint is not None:
            state.hint(state.build, state.root, state.lesson_id, found)  # 写 {=…} 绑定？
        state.problems += found.problems
    if not strip:
        return text
    out = _tag_blocks(state, found.stripped(), path, first)
    return _include(state, out, path, first)


def _include(state: PageState, text: str, path: str, first: int) -> str:
    """Text included into the prose with pymdownx.snippets is checked as its own file (its own
    lines in messages), then put in place, so snippets has nothing left to include there."""
    lines = text.split("\n")
    fence_of = {n: f for f in scan.fences(text) for n in range(f.start, f.end + 1)}
    out, i = [], 0
    while i < len(lines):
        line, m = lines[i], INCLUDE.match(lines[i])
        specs, indent, end = [], "", i
        if m and _included(state.root, m["spec"]) is None:  # reported here: snippets would stop the build
            out.append(m["indent"] + _missing(state, path, first + i, [m["spec"]]))
            i += 1
            continue
        fence = fence_of.get(i + 1)
        if m and fence is not None and fence.lang in ("python", "py") and not fence.executed:
            piece = _shown_source(state, m["spec"])  # a listing of a file: its comments are text a reader sees
            if piece is not None:
                out += [m["indent"] + s if s else s for s in piece.split("\n")]
                i += 1
                continue
        displayed = fence is not None and not fence.executed and fence.lang not in scan.CODE_LANGS
        found = include_at(lines, i)
        if found and (fence is None or (m and displayed)):  # in prose, or shown as a displayed block's text
            specs, indent, end = found
        pieces = [_included(state.root, spec) for spec in specs]
        if None in pieces:
            out.append(indent + _missing(state, path, first + i, [s for s, p in zip(specs, pieces) if p is None]))
            i = end + 1
            continue
        if not specs:
            out.append(line)  # not an include
            i += 1
            continue
        for rel, body, start in pieces:
            checked = _check(state, rel, body, start) if rel else body
            out += [indent + s if s else s for s in checked.split("\n")]
        i = end + 1
    return "\n".join(out)


def paste_problems(root: Path, path: str, text: str, first: int, shows_by_default: bool) -> list[guard.Problem]:
    """The blocks of a page (`text`, its first line `first`) whose shown code, pasted in page order,
    stops at a name that no shown line binds (coursekit.core.pasted), at each block's line. A listing
    shows its code when it says `source=`, or on a page of no lesson, where `source` is "above"."""
    listings, sources = [], {}
    for f in scan.fences(text):
        spec = LISTING.search(f.info)
        if not f.executed or not (f.shows_source or (spec and shows_by_default)):
            continue
        if spec is None:
            parts = [pasted.Part(path, "\n".join(f.lines), 0, 0)]
        else:
            try:
                parts = [pasted.Part(rel, code, a, b) for rel, code, (a, b) in fence.sections(spec.group(1), root)]
            except (OSError, FileNotFoundError):  # the block reports it; what follows it can't be judged
                break
            for p in parts:
                if p.path.endswith(".py") and p.path not in sources:
                    sources[p.path] = pagetext.read(root / p.path)
        listings.append(pasted.Listing(first + f.start - 1, tuple(parts)))
    return [guard.Problem(path, m.listing.line, m.message(), kind="code") for m in pasted.missing(listings, sources)]


def _missing(state: PageState, path: str, line: int, specs: list[str]) -> str:
    """Report includes that name no file (or no such section of one), or a form of line numbers the
    guard does not read, at their line, and what the page shows instead: pymdownx.snippets would
    raise on a missing one, which stops a build and leaves `mkdocs serve` answering nothing."""
    for spec in specs:
        rel, _, section = spec.partition(":")
        if not (state.root / rel).is_file():
            why = f"--8<-- 引入的 {spec} 不存在：找不到文件 {rel}（删掉或改名了吗？）"
        elif re.fullmatch(r"[-\d:,]+", section):
            why = (f"--8<-- 引入的 {spec}：这种行号写法（几段行号、从末尾数的行号）检查工具读不了，"
                   f"拆成几行 --8<--，每行写一段 {rel}:起:止")
        else:
            why = f"--8<-- 引入的 {spec} 不存在：{rel} 里没有 [start:{section}] 与 [end:{section}] 标出的一段"
        state.problems.append(guard.Problem(path, line, why, kind="code"))
    return f"（这里要引入的 {'、'.join(specs)} 没有引入）"


def _shown_source(state: PageState, spec: str) -> str | None:
    """The claims in the comments and docstrings of the Python that a code block includes; the
    included text (None: not one snippets can include, it reports that)."""
    from coursekit.core import comments

    piece = _included(state.root, spec)
    if piece is None:
        return None
    rel, body, start = piece
    if rel.endswith(".py") and not re.match(r"lessons/l\d+/", rel):  # a lesson's own files are its
        # page's (engine.Build.comment_problems), reported once
        whole = pagetext.read(state.root / rel)
        state.problems += comments.problems(rel, whole, start, start + body.count("\n"))
    return body


def include_at(lines: list[str], i: int) -> tuple[list[str], str, int] | None:
    """The files that line i includes, with pymdownx.snippets: (specs, indent, the include's last line)."""
    m = INCLUDE.match(lines[i])
    if m:
        return [m["spec"]], m["indent"], i
    block = BLOCK.match(lines[i])
    close = next((j for j in range(i + 1, len(lines)) if BLOCK.match(lines[j])), None) if block else None
    if close is None:
        return None
    specs = [s.strip() for s in lines[i + 1 : close] if not s.strip().startswith(";")]  # "": a blank line
    return specs, block["indent"], close


def _included(root: Path, spec: str) -> tuple[str, str, int] | None:
    """(file, the text snippets would insert, its first line) for `file`, `file:a:b` or `file:name`
    (a section without its end runs to the file's end; "": a block's blank line, inserted as one);
    None when snippets would find no such file or section (or the spec is a form the guard does not
    read: several ranges, lines counted from the end)."""
    if not spec:
        return "", "", 0
    rel, _, rest = spec.partition(":")
    file = root / rel
    if not file.is_file():
        return None
    lines = pagetext.read(file).split("\n")
    if not rest:
        return rel, "\n".join(lines), 1  # section markers left in: snippets drops them from the page
    span = LINES.fullmatch(rest)
    if span:
        a, b = int(span["a"] or 1), int(span["b"] or len(lines))
        return rel, "\n".join(lines[a - 1 : b]), a
    marks = [(k, m["type"]) for k, s in enumerate(lines) for m in [SECTION.search(s)] if m and m["name"] == rest]
    start = next((k for k, kind in marks if kind == "start"), None)
    if start is None:
        return None
    stop = next((k for k, kind in marks if kind == "end" and k > start), len(lines))
    return rel, "\n".join(lines[start + 1 : stop]), start + 2


def _lesson_failed(state: PageState, err: engine.LessonError, path: str, text: str, first: int) -> None:
    """Reported at the block that shows the failing file (failure_line), never the title."""
    where = f"（{err.where[0]}:{err.where[1]}）" if err.where else ""
    if not any(p.message.startswith("本讲的代码") for p in state.problems):
        line = failure_line(state.root, text, first, err)
        state.problems.append(guard.Problem(path, line, f"本讲的代码{'运行失败' if err.ran else '没有运行'}{where}：{err}",
                                            kind="code" if err.ran else "drift"))
    state.broken = True


def failure_line(root: Path, text: str, first: int, err: engine.LessonError) -> int:
    """The line of a page (`text`, whose first line is line `first`) to report a lesson's failing
    code at: the block that shows the failing file (the one whose section holds the failing line,
    else its first), else the block that shows the experiment that was running, else the page's
    first block that runs or shows code, else its first line after the title. Never the title
    itself: it says nothing about where to look."""
    from coursekit.extensions.fence import sections

    blocks = [f for f in scan.fences(text) if f.executed or LISTING.search(f.info)]
    wanted = [err.where, (err.file, 0) if err.file else None]
    for path, line in (w for w in wanted if w):
        showing = []  # (block, whether its section holds the line)
        for f in blocks:
            m = LISTING.search(f.info)
            try:
                parts = sections(m.group(1), root) if m else []
            except (OSError, ValueError):
                continue
            showing += [(f, a <= line <= b) for p, _, (a, b) in parts if p == path]
        if showing:
            block = next((f for f, holds in showing if holds), showing[0][0])
            return first + block.start - 1
    if blocks:
        return first + blocks[0].start - 1
    lines = text.split("\n")
    title = next((i for i, s in enumerate(lines) if re.match(r"#\s", s)), -1)
    after = next((i for i, s in enumerate(lines) if i > title and s.strip()), max(title, 0))
    return first + after


LISTING = re.compile(r'\bfile="([^"]+)"')


def page_lesson(path: str, text: str, fm: str = "") -> str | None:
    """A lesson page runs in its lesson (docs/lessons/10-….md: l10); another page names one in its
    front matter (`session: l10`) or on an executed block (session="l10")."""
    m = FRONT_SESSION.search(fm) or SESSION.search(text)
    return engine.lesson_of(path) or (m.group(1) if m else None)


FRONT_SESSION = re.compile(r"^session:[ \t]*[\"']?(l\d+)[\"']?[ \t]*$", re.M)


def _tag_blocks(state: PageState, text: str, path: str, first: int) -> str:
    """Add src="file:line" to each executed block's opening line (coursekit.extensions.fence reads it),
    the blocks inside an executed ```md block's text included; an executed block of a language the
    site does not run is refused at its line (superfences would show its first line as text)."""
    lines = text.split("\n")
    for f in scan.fences(text):
        refused = fence.refusal(f.lang, f.executed)
        if refused:
            state.problems.append(guard.Problem(path, first + f.start - 1, refused, kind="code"))
            continue
        if not f.executed or "src=" in f.info or fence.role(f.lang) == "tree":
            continue
        lines[f.start - 1] += f' src="{path}:{first + f.start - 1}"'
        if fence.role(f.lang) == "md":  # its blocks are at their own lines of the page
            inner = _tag_blocks(state, "\n".join(f.lines), path, first + f.start).split("\n")
            lines[f.start : f.end - 1] = [line[: len(line) - len(body)] + tagged for line, body, tagged
                                          in zip(lines[f.start : f.end - 1], f.lines, inner)]
    return "\n".join(lines)


# The kit's tag on a block's first line (_tag_blocks), as text or escaped in an attribute
LEAKED = re.compile(r'src=(?:"|&quot;)([^"&<>\s]+):(\d+)(?:"|&quot;)')


def leak_problems(root, md) -> list[guard.Problem]:
    """A block's first line that superfences did not read (its tag then shows on the page as text):
    at that block's line. `root`: the page's element tree; what blocks rendered is in md's stash."""
    text = "".join(root.itertext()) + "".join(str(b) for b in md.htmlStash.rawHtmlBlocks)
    found = {(m.group(1), int(m.group(2))) for m in LEAKED.finditer(text) if m.group(1).endswith(".md")}
    return [guard.Problem(path, line, "这个代码块没被当成代码块读，页面上显示的是它的原文（连同构建加上的 src= 标记）："
                                      "检查它的缩进（列表、提示框之外缩进 4 格就成了缩进的代码）和第一行的写法", kind="code")
            for path, line in sorted(found)]


class ReportTreeprocessor(Treeprocessor):
    """Runs once per page, after every block has run (the toc runs postprocessors many times).
    With `repository` set (not None), it adds the reproducibility footer (coursekit.core.footer)
    after a lesson page's content, for a builder with no hooks to add it (Zensical)."""

    def __init__(self, md, repository: str | None = None) -> None:
        super().__init__(md)
        self.repository = repository

    def run(self, root):
        state: PageState | None = getattr(self.md, "coursekit", None)
        if state is None:
            return None
        self.md.coursekit = None
        if state.build is not None:
            state.build.done_with(state.lesson_id or engine.SITE)
        if state.owns_build:
            state.build.close()
        state.problems += leak_problems(root, self.md)
        if state.lesson_id and state.path.startswith(LESSON_PAGES) and not state.broken:
            state.problems += shown.finish(state.root, state.path, state.shown)
        problems = sorted(state.problems, key=lambda p: (p.path != state.path, p.path, p.line))
        engine.current.problems[state.path] = problems
        engine.current.records[state.path] = manifest.page_record(state)
        if self.repository is not None and state.path.startswith(LESSON_PAGES) and state.path.endswith(".md"):
            root.append(_footer(self.md.htmlStash.store(footer.html(
                _build_info(state.root), _title(state), state.path[len("docs/"):-len(".md")] + "/", self.repository))))
        if problems and not engine.current.collects:
            for p in problems:
                log.error(p.format())
            raise PageProblems(f"{state.path}: {len(problems)} 处问题（见上）")
        return None


@functools.cache
def _build_info(root: Path) -> dict[str, str]:
    return footer.build_info(root)


def _title(state: PageState) -> str:
    """The page's title as MkDocs gives it: its front matter's, or its first heading's."""
    fm, _, body = scan.front_matter(pagetext.read(state.root / state.path))
    found = re.search(r"^title:[ \t]*(.+?)[ \t]*$", fm, re.M) or re.search(r"^#[ \t]+(.+?)[ \t#]*$", body, re.M)
    return found.group(1).strip("'\"") if found else ""


def _footer(placeholder: str):
    from xml.etree import ElementTree

    el = ElementTree.Element("p")  # a paragraph holding only stashed HTML is replaced by that HTML
    el.text = placeholder
    return el


class CourseExtension(Extension):
    def __init__(self, **kwargs) -> None:
        self.config = {"footer": [False, "add the reproducibility footer to lesson pages (builders without hooks)"],
                       "hints": [True, "add to an unbound number's message the binding its lesson's values suggest "
                                       "(coursekit.core.proposer.hint, searched in the lesson's worker)"],
                       "repository": ["", "the repository the footer's report link opens an issue in"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md) -> None:  # Python-Markdown's name
        md.registerExtension(self)
        md.preprocessors.register(GuardPreprocessor(md, self.getConfig("hints")), "coursekit_guard", 33)  # before snippets (32)
        repository = self.getConfig("repository") if self.getConfig("footer") else None
        md.treeprocessors.register(ReportTreeprocessor(md, repository), "coursekit_report", -100)

    def reset(self) -> None:
        pass


def makeExtension(**kwargs):  # Python-Markdown's name
    return CourseExtension(**kwargs)
