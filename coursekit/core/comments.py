"""Numbers written in a Python file's comments and docstrings: text a reader sees.

An experiment file (lessons/lNN/*.py) is shown as listings on its lesson's page and as cells of
the lesson's notebook, where its docstring becomes the prose above the cell (coursekit.core.notebook);
a tinylm file is shown whole on its source page (docs/code/*.md). What its comments and docstrings
say, the reader reads as the course's words, and a number there is a claim as it would be in prose
(the guard's rule). It is bound as in prose, `# 三个位置{=x.shape[0]}各有两个坐标{=x.shape[1]}`, in the
lesson's namespace (a file of no lesson has none to bind to); every listing, source page and
notebook shows the text without the annotation (guard.strip_annotations). A number that is only
an example is marked: `# 示意` on the line of a comment, `（示意）` at the end of a docstring's line.

Read: every comment (a run of whole-line comments is read as one text, as a paragraph), the
docstrings and any other string written as a statement of its own (a bare string is a comment in
all but syntax). Not read: strings the code uses (those it prints are coursekit.core.printed's), and
the snippet markers (`# --8<-- [start:listing]`).

    claims(path, text)                                -> [Claim]          every unbound claim, with its line
    problems(path, text, first=1, last=None, evaluate) -> [guard.Problem]  as the guard's problems, for
                                                                          the lines [first, last] shown
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from coursekit.core import guard, scan

COMMENT_EXAMPLE = "# 示意"
DOCSTRING_EXAMPLE = re.compile(r"[（(]示意[）)]\s*$")


@dataclass
class Claim:
    line: int
    number: str
    shown: str  # the comment's or docstring's line it is in
    where: str  # "comment" or "docstring"


def _comments(text: str) -> list[tuple[int, str, bool]]:
    """(first line, text, whole-line) of each comment, a run of whole-line comments joined."""
    found: list[tuple[int, str, bool]] = []
    last = (0, -1)  # (line, column) of the previous whole-line comment
    tokens = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            tokens.append(tok)
    except (tokenize.TokenError, SyntaxError):
        pass  # the comments before the error are still read; running the file reports the error
    lines = text.split("\n")
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        (row, col), body = tok.start, tok.string[1:]
        if "--8<--" in body:
            continue  # a listing's section marker: never shown
        whole = not lines[row - 1][:col].strip()
        if whole and found and found[-1][2] and last == (row - 1, col):
            first, joined, _ = found[-1]
            found[-1] = (first, joined + "\n" + body, True)
        else:
            found.append((row, body, whole))
        last = (row, col) if whole else (0, -1)
    return found


def _comment_example(own: str, source: str) -> bool:
    """A comment marked as an example: `# 示意` on its line (or ending the comment, in brackets or not)."""
    return COMMENT_EXAMPLE in source or bool(re.search(r"[（(]?示意[）)]?\s*$", own))


def _docstring_example(own: str, source: str) -> bool:
    """A docstring's line ending with （示意）."""
    return bool(DOCSTRING_EXAMPLE.search(own))


def _pieces(path: str, text: str) -> list[tuple[int, str, str]]:
    """(first line, text, "comment" or "docstring") of each text the reader reads in `text`."""
    pieces = [(line, body, "comment") for line, body, _ in _comments(text)]
    try:
        tree = ast.parse(text, path)
    except SyntaxError:
        return pieces
    return pieces + [(node.lineno, node.value, "docstring") for node in scan.standalone_strings(tree)]


NO_LESSON = "这个文件不属于哪一讲，注释里的绑定没有地方计算"


def check(path: str, text: str, evaluate=None, first: int = 1, last: int | None = None
          ) -> tuple[list[Claim], list[guard.Problem]]:
    """(unbound claims, other problems: drift, a bad annotation) of the comments and docstrings of
    Python source `text`, on lines [first, last]. A number there is bound as in prose, with
    `{=expr}` right after it (listings, source pages and notebooks show the text without it);
    `evaluate(exprs)` answers for the file's lesson, as the engine does (None: the file has none)."""
    lines = text.split("\n")
    unbound: list[Claim] = []
    others: list[guard.Problem] = []
    for line, body, where in _pieces(path, text):
        found = guard.scan_page(path, body, line)
        exprs = found.expressions
        answers = evaluate(exprs) if exprs and evaluate else [{"error": NO_LESSON}] * len(exprs)
        guard.bind(found, dict(zip(exprs, answers)))
        example = _comment_example if where == "comment" else _docstring_example
        for p in found.problems:
            if p.line < first or (last is not None and p.line > last):
                continue
            source = lines[p.line - 1] if 0 < p.line <= len(lines) else ""
            if not p.message.startswith("未绑定的数字"):
                written = "注释写" if where == "comment" else "文档字符串写"
                others.append(guard.Problem(p.path, p.line, p.message.replace("正文写", written, 1), p.text, p.kind))
            elif not example(re.sub(r"""[\s'"]+$""", "", source), source):
                unbound.append(Claim(p.line, p.text, source.strip().lstrip("#").strip(), where))
    return sorted(unbound, key=lambda c: c.line), others


def claims(path: str, text: str) -> list[Claim]:
    """Each number the comments and docstrings of the Python source `text` claim and no annotation
    binds, in line order. A file that does not parse has only its comments read here."""
    return check(path, text)[0]


def describe(line: list[Claim]) -> str:
    """The guard's words for the claims of one line (the caller names the file and line)."""
    shown = line[0].shown if len(line[0].shown) <= 40 else line[0].shown[:39] + "…"
    numbers = "、".join(c.number for c in line)
    if line[0].where == "comment":
        return (f"注释里写的 {numbers} 没有代码核对（「{shown}」），读者在代码清单和笔记本里会当成课程的结论；"
                "在数后面写 {=表达式} 绑定（代码清单、源码页和笔记本里不显示标注），或让代码把它算出来打印；"
                "只是举例的数，在这行末尾注明 # 示意")
    return (f"文档字符串里写的 {numbers} 没有代码核对（「{shown}」），读者在代码清单和笔记本里会当成课程的结论；"
            "在数后面写 {=表达式} 绑定（代码清单、源码页和笔记本里不显示标注），或让代码把它算出来打印；"
            "只是举例的数，在这一行末尾写（示意）")


def by_line(found: list[Claim]) -> list[list[Claim]]:
    """The claims grouped by the line they are on, in order."""
    groups: dict[int, list[Claim]] = {}
    for c in found:
        groups.setdefault(c.line, []).append(c)
    return list(groups.values())


def problems(path: str, text: str, first: int = 1, last: int | None = None, evaluate=None) -> list[guard.Problem]:
    """One guard.Problem per line of the Python source `text` (file `path`, as the page names it)
    whose comments or docstrings claim a number no annotation binds, and one per drifted or broken
    binding, for the lines [first, last] a page shows (all by default); `evaluate` as in check()."""
    unbound, others = check(path, text, evaluate, first, last)
    return sorted([guard.Problem(path, line[0].line, describe(line), line[0].number, kind="drift")
                   for line in by_line(unbound)] + others, key=lambda p: p.line)


def _texts(root: Path, files: list[str]) -> dict[str, str]:
    """The text of each of the lesson's `files` that can be read (running a file reports one that can't)."""
    texts = {}
    for rel in files:
        try:
            texts[rel] = (root / rel).read_text(encoding="utf-8")
        except OSError:
            continue
    return texts


def lesson_expressions(root: Path, files: list[str]) -> list[str]:
    """Every expression the comments and docstrings of the lesson's `files` bind ({=expr}), in
    order: what lesson_problems will ask its evaluator."""
    return [e for rel, text in _texts(root, files).items()
            for line, body, _ in _pieces(rel, text) for e in guard.scan_page(rel, body, line).expressions]


def lesson_problems(root: Path, lesson, files: list[str], evaluate) -> list:
    """The claims an experiment file of the lesson makes in its comments and docstrings: its
    listings and its notebook show them to the reader. They are the page's problems, not the
    run's: the lesson still runs, so every other number is checked too. And the numbers in its
    experiments' titles, the notebook's headings, where no binding can be written."""
    texts = _texts(root, files)
    found = [p for rel, text in texts.items() for p in problems(rel, text, evaluate=evaluate)]
    init = f"{lesson.folder}/__init__.py"
    source = texts.get(init, "")
    for name, title in lesson.experiments:  # the notebook's headings
        numbers = [t.text for t in guard.claims(title)]
        if numbers:
            at = source.find(title)
            found.append(guard.Problem(
                init, source.count("\n", 0, at) + 1 if at >= 0 else 1,
                f"实验 {name} 的标题「{title}」里有 {'、'.join(numbers)}：标题是笔记本里的小标题，没有地方写绑定，"
                "读者会当成核对过的数；标题里不写数，数写进正文并绑定", numbers[0]))
    return found
