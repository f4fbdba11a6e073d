"""Executed ```python, ```pycon and ```md blocks: markdown-exec's syntax and rendering, the course
engine's execution (LANGUAGES: the fences mkdocs.yml registers with this validator and formatter).

A block on a lesson page (`session="lNN"`) runs in that lesson's worker, after the lesson's
experiments, and its result is cached (coursekit.core.engine). A block may also show sections of the
files that ran, with what those sections printed in that same run, instead of running anything:

    ```python exec="1" file="lessons/l10/projections.py:listing" source="above" result="output"
    ```

`file` takes one or more `path:section` (or a whole `path`), separated by spaces. A block on a page
of no lesson runs the same way, in a worker of its own (engine.SITE) with nothing run before it, and
as markdown-exec runs it: in a namespace of its own, or in its `session=`'s (any name). On a lesson
page every block runs in the lesson's namespace; one whose session= names another is refused at its
line. A failing block is reported at its line (its id or title named) and the page's later blocks
still run.

A ```pycon block runs as markdown-exec runs it: only its `>>> `/`... ` lines, without the prompt
(each other line sent as an empty one, so a failure names its line of the page). A ```md block's
text is rendered as Markdown; an executed block in it, or in what a block printed (markdown-exec's
file-tree pattern), runs here too, in the page's worker: the Markdown that base_format converts a
block's output with is a new instance without the page's state, so the page goes with the block
(`_OUTER`) while its output is converted.

Only a block that says `exec` runs: markdown-exec's MARKDOWN_EXEC_AUTO (run every block of a
language) is ignored with one notice (如何写一讲 says why).
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
from pathlib import Path

import markdown_exec
from markdown_exec import base_format
from markupsafe import Markup

from coursekit.core import blocks, digests, engine, guard, pagetext, printed, shown, widgets

# Each fence markdown-exec registers, and what this site makes of it (mkdocs.yml registers every one
# with this validator and formatter; tests/test_fences.py holds the two lists equal).
ROLES = {"python": "python", "py": "python", "pycon": "pycon", "md": "md", "markdown": "md",
         "tree": "tree",  # markdown-exec draws it here: it runs no code
         "bash": "refused", "sh": "refused", "console": "refused", "pyodide": "refused"}
LANGUAGES = tuple(ROLES)
RUN = tuple(lang for lang, role in ROLES.items() if role in ("python", "pycon", "md"))
REFUSED = {  # why, and what to write instead (checks.py refuses these at their line)
    "shell": "本站的代码块只在 Python 工作进程里运行，不运行命令行；要显示命令和它的输出，去掉 exec= 并把输出写成 text 代码块",
    "pyodide": ("本站不放 Pyodide 编辑器：它在读者打开页面时从别的网站下载 Python，很多读者那里打不开；"
                "要读者自己改着运行，指向这一讲的笔记本；只显示代码，写成 python 代码块"),
}


def role(language: str) -> str:
    return ROLES.get(language, "")


def refusal(language: str, executed: bool) -> str | None:
    """Why a block of this language is not run or drawn here, or None: pyodide always (markdown-exec
    renders it without exec=), another language when it says exec."""
    if language == "pyodide":
        return REFUSED["pyodide"]
    if executed and role(language) not in ("python", "pycon", "md"):
        return (f"本站不运行 {language or '没写语言的'} 代码块（exec=）：能运行的是 {'、'.join(RUN)} 代码块；"
                + REFUSED["shell"].partition("；")[2])
    return None
OURS = ("src", "file")
TAG = re.compile(r' src="[^"]*:\d+"')  # what coursekit.extensions.checks adds to an executed block's first line
_OUTER: contextvars.ContextVar = contextvars.ContextVar("coursekit_outer", default=None)  # (page state, where)
log = logging.getLogger("coursekit")
# markdown-exec's validator fills `options` for base_format; a listing sets its `extra` (the title)
# and its `source`/`result` (pinned with markdown-exec 1.12.6: tests/test_contracts.py).


NUMBERS = {"width": "终端的列数，如 width=\"80\"", "returncode": "期望的退出码，如 returncode=\"1\""}


def validator(language, inputs, options, attrs, md) -> bool:
    ours = {k: inputs.pop(k) for k in OURS if k in inputs}
    if ours.get("file"):
        inputs.setdefault("exec", "1")
    if role(language) == "refused":  # shown as plain code; checks.py refuses it at its line
        return False
    if role(language) == "tree":  # drawn as markdown-exec draws it, with no exec
        return markdown_exec.validator(language, inputs, options, attrs, md)
    if not _truthy(inputs.get("exec", "")):  # markdown-exec would also run it if MARKDOWN_EXEC_AUTO names it
        inputs.pop("exec", None)
        _auto_notice(language)
        return False
    bad = next((k for k in NUMBERS if not re.fullmatch(r"-?\d+", inputs.get(k, "0").strip())), None)
    if bad and markdown_exec.validator(language, {"exec": inputs.get("exec", "no")}, {}, attrs, md):
        # markdown-exec's int() would raise, and superfences show the block as plain code: refused instead
        options.update(ours, invalid=f"{bad}=\"{inputs[bad]}\" 不是整数：写{NUMBERS[bad]}")
        return True
    ok = markdown_exec.validator(language, inputs, options, attrs, md)
    options.get("extra", {}).pop("exec", None)  # left there when MARKDOWN_EXEC_AUTO names the language: the
    # source it shows would run again, and each traceback (the loop that reached 22 GB)
    options.update(ours)
    return ok


def _truthy(value: str) -> bool:
    """markdown-exec's reading of a yes/no option (pinned: tests/test_contracts.py)."""
    return value.lower() not in {"", "no", "off", "false", "0"}


_told: set[str] = set()


def _auto_notice(language: str) -> None:
    auto = os.environ.get("MARKDOWN_EXEC_AUTO", "")
    if language in {lang.strip() for lang in auto.split(",")} and auto not in _told:
        _told.add(auto)
        log.warning(f"MARKDOWN_EXEC_AUTO={auto}：本站不按它运行代码块，只运行写了 exec=\"1\" 的块（见如何写一讲 docs/authoring.md）")


def formatter(source, language, css_class, options, md, **kwargs):
    state, outer = getattr(md, "coursekit", None), None
    if state is None and _OUTER.get() is not None:  # a block in what a block of the page printed
        state, outer = _OUTER.get()
    if state is None or role(language) == "tree":  # not a page of the site, or a tree drawn
        return markdown_exec.formatter(source, language, css_class, options, md, **kwargs)
    where = options.get("src") or outer or f"{state.path}:1"  # before _format takes it out of the options
    options["src"] = where
    try:
        return _format(state, source, language, css_class, options, md, **kwargs)
    except Exception as err:  # superfences would show the block's source as text and go on: fail the page
        return _failed(state, where, {"type": type(err).__name__, "message": str(err), "where": None}, "代码块没有运行")


def _format(state, source, language, css_class, options, md, **kwargs):
    ours = {k: options.pop(k, "") for k in OURS}
    where = ours["src"] or f"{state.path}:1"
    if options.get("invalid"):
        return _failed(state, where, {"type": "", "message": options["invalid"], "where": None}, "代码块没有运行")
    named = options.get("session", "")
    if named and state.lesson_id and named != state.lesson_id:
        return _failed(state, where, {"type": "", "message": _elsewhere(named, state.lesson_id), "where": None},
                       "代码块没有运行")
    if ours["file"]:
        if not state.lesson_id:
            return _plain_listing(ours["file"], md, options, state)
        return _unsearched(_listing(state, ours["file"], where, md, options))
    token = _OUTER.set((state, where))  # blocks in its output run in the page's worker too
    try:
        if role(language) == "md":  # the text, as Markdown; what it shows as its source leaves out the tags
            return _unsearched(base_format(language="md", run=lambda code, **_: code, code=source, md=md,
                                           transform_source=lambda code: (code, TAG.sub("", code)), **options))
        return _run_block(state, where, source, language, md, options)
    finally:
        _OUTER.reset(token)


def runnable(language: str, source: str) -> str:
    """The code a python or pycon block runs: a pycon block's `>>> `/`... ` lines without their prompt,
    as markdown-exec's pycon formatter takes them, every other line left empty (its lines stay the
    page's lines)."""
    if role(language) != "pycon":
        return source
    return "\n".join(s[4:] if s.startswith((">>> ", "... ")) else "" for s in source.split("\n"))


def _pycon_source(code: str) -> tuple[str, str]:
    """base_format's transform_source for pycon: what runs, what the block shows (its prompt lines)."""
    return runnable("pycon", code), "\n".join(s for s in code.split("\n") if s.startswith((">>> ", "... ")))


def _run_block(state, where: str, source: str, language: str, md, options):
    lesson_id = state.lesson_id or engine.SITE  # a page of no lesson: a worker with nothing run before
    label = options.get("id") or options.get("extra", {}).get("title", "")
    headline = f"代码块「{label}」" if label else "代码块"
    try:
        context = _context(state, options)
    except ValueError as err:  # an option the kit can't honour: refused at the block, saying what to write
        return _failed(state, where, {"type": "", "message": str(err), "where": None}, f"{headline}没有运行")
    space = context.space

    def run(code: str, **_) -> str:
        # A failure is reported once, by the page's problems; the block shows it instead of output
        # (raising would have markdown-exec log the whole block again), and the page's later blocks run.
        try:
            typed = printed.fixed_numbers(where, code)
        except SyntaxError:
            typed = []  # running it reports the error, with its line
        if typed:
            path, _, line = where.rpartition(":")
            return _failed(state, where, {"type": "", "message": printed.describe(printed.by_line(typed)[0]),
                                          "where": (path, int(line) + typed[0].line)}, f"{headline}没有运行", "drift")
        previous = state.chains.get(space, "")
        state.chains[space] = digests.chain(previous, code)
        try:
            answer = state.build.execute(lesson_id, state.path, previous, code, where, context=context)
        except engine.LessonError as err:
            if err is state.build.run(lesson_id).error:  # the lesson's code failed: the page names it once
                return "本讲的代码运行失败，这个代码块没有运行（见本页报告的错误）"
            answer = {"error": {"type": "", "message": str(err), "where": err.where}}
        if "error" in answer:
            return _failed(state, where, answer["error"], f"{headline}执行出错")
        widgets.check(state, where, answer)  # the widgets it embedded, what it changed in place
        return answer["output"]

    printed_out: list[str] = []

    def shown_run(code: str, **kw) -> str:
        printed_out.append(run(code, **kw))
        return printed_out[-1]

    transform = _pycon_source if role(language) == "pycon" else None
    html = base_format(language=language, run=shown_run, code=source, md=md, transform_source=transform, **options)
    _record(state, where, shown.EXECUTED, runnable(language, source), "".join(printed_out))
    return _unsearched(html)


def _context(state, options) -> blocks.Context:
    """The namespace, module name, working directory and width a block runs with, as markdown-exec's
    options say (its `workdir` and `width` taken out: markdown-exec would set them in this process).
    A lesson page's blocks share the lesson's namespace; on a page of no lesson a block without
    `session` has its own, blocks of one `session=` name share one."""
    named = options.get("session", "")
    n = state.counted[named] = state.counted.get(named, 0) + 1
    workdir, width = options.pop("workdir", None) or "", options.pop("width", 0) or 0
    if workdir and not blocks.inside(state.root, workdir):
        raise ValueError(f"workdir=\"{workdir}\" 不是仓库里的文件夹：写相对于仓库根目录的文件夹，如 workdir=\"docs\"")
    return blocks.Context.of(state.path, bool(state.lesson_id), named, n, options.get("id", ""),
                             options.get("extra", {}).get("title", ""), workdir, width)


def _record(state, where: str, block: str, code: str, output: str) -> None:
    """What this block shows, for the page's reviewed record (coursekit.core.shown)."""
    state.shown.append(shown.Shown(int(where.rpartition(":")[2] or 1), block, code, output))


def _unsearched(html: str) -> str:
    """Code and what code printed stay out of the search index: it holds the lesson's words once.

    The mark goes on each block (code, output, figure), not on a wrapper: Material's search parser
    matches elements by tag name, so a wrapping div would end its exclusion at the first inner div.
    Names and whitespace lose their highlighting spans: Material colours them as plain code anyway,
    and they are half of a listing's elements (a lighter page for the browser to lay out).
    """
    html = re.sub(r'<span class="[nw]">([^<]*)</span>', r"\1", str(html))
    return Markup(re.sub(r"<(div|figure|table)(?=[\s>])", r"<\1 data-search-exclude", html))


def _elsewhere(named: str, own: str) -> str:
    return (f"它写了 session=\"{named}\"，可这一页属于 {own}：页面上的代码块都在本页的那一讲里运行"
            "（页面开头的 front matter 写 session: lNN 指定），删掉这个选项，或把代码块移到那一讲的页面上")


def _failed(state, where: str, error: dict, headline: str = "代码块执行出错", kind: str = "code") -> str:
    """Report a block's failure at the block (`kind` as guard.Problem: "code", or "drift" for
    numbers typed instead of computed); a failing assert says what it checked."""
    from coursekit.core.reads import Refused

    path, _, line = where.rpartition(":")
    inner = error.get("where")
    at = ""
    if inner and inner[0] != path:
        at = f"（{inner[0]}:{inner[1]}）"
    elif inner and str(inner[1]) != line:
        at = f"（第 {inner[1]} 行）"
    if error.get("type") == "AssertionError":
        what = f"核对失败：{error['message']}" if error["message"] else "核对失败"
    elif error.get("type") == Refused.__name__:  # it says what was read and what to write instead
        what = error["message"]
    else:
        what = f"{error['type']}: {error['message']}" if error.get("type") else error["message"]
    message = f"{headline}{at}：{what}"
    state.problems.append(guard.Problem(path, int(line), message, kind=kind))
    state.broken = True
    return message


def sections(spec: str, root: Path) -> list[tuple[str, str, tuple[int, int]]]:
    """[(path, code, (first line, last line))] for each `path:section` or `path` in spec: the code as
    written (the numbers of its comments are bound in its lesson's data file, coursekit.core.comments)."""
    out = []
    for item in spec.split():
        path, _, name = item.partition(":")
        if not (root / path).is_file():
            raise FileNotFoundError(f"要展示的文件 {path} 不存在（删掉或改名了吗？）")
        lines = pagetext.read(root / path).split("\n")
        if not name:
            out.append((path, "\n".join(lines).strip("\n"), (1, len(lines))))
            continue
        start = next((i for i, s in enumerate(lines) if re.search(rf"--8<-- \[start:{re.escape(name)}\]", s)), None)
        end = next((i for i, s in enumerate(lines) if re.search(rf"--8<-- \[end:{re.escape(name)}\]", s)), None)
        if start is None or end is None or end < start:
            raise FileNotFoundError(f"{path} 里没有标记为 {name} 的段落（# --8<-- [start:{name}] … [end:{name}]）")
        body = [s for s in lines[start + 1 : end] if "--8<--" not in s]
        out.append((path, "\n".join(body).strip("\n"), (start + 2, end)))
    return out


def _listing(state, spec: str, where: str, md, options):
    """Show sections of files that ran, with what they printed in this build's run of the lesson."""
    try:
        parts = sections(spec, state.root)
    except (OSError, FileNotFoundError) as err:
        message = _failed(state, where, {"type": "", "message": str(err)})
        return base_format(language="python", run=lambda code, **_: message, code="", md=md, **options)
    try:
        run = state.build.run(state.lesson_id)
    except engine.LessonError:
        run = None
    output = ""
    if run is not None:  # the files that ran show what they printed, also when a later one failed
        for path, _, lines in parts:
            result = run.file(path)
            if result is not None:
                output += result.output(lines)
    code = "\n\n".join(code for _, code, _ in parts)
    if not state.broken:
        _record(state, where, spec, code, output)
    extra = options.setdefault("extra", {})
    if "title" not in extra and len({p for p, _, _ in parts}) == 1:
        extra["title"] = parts[0][0]
    return base_format(language="python", run=lambda _code, **_: output, code=code, md=md, **options)


def _plain_listing(spec: str, md, options, state):
    root = state.root if state is not None else Path.cwd()
    try:
        code = "\n\n".join(code for _, code, _ in sections(spec, root))
    except FileNotFoundError as err:
        message = _failed(state, options.get("src", f"{state.path}:1"), {"type": "", "message": str(err)})
        return base_format(language="python", run=lambda code, **_: message, code="", md=md, **options)
    options["source"], options["result"] = options.get("source") or "above", ""
    return base_format(language="python", run=lambda code, **_: "", code=code, md=md, **options)
