"""Numbers written in a Python file's comments and docstrings: text a reader sees.

An experiment file (lessons/lNN/*.py) is shown as listings on its lesson's page and as cells of
the lesson's notebook, where its docstring becomes the prose above the cell (coursekit.notebook);
a tinylm file is shown whole on its source page (docs/code/*.md). What its comments and docstrings
say, the reader reads as the course's words, and a number there is a claim as it would be in prose
(the guard's rule: `guard.scan_page(...).tokens`, `token.claim`). Unlike prose, a comment cannot
hold a `{=expr}` binding (the listing would show it), so a claim there is either printed by the
code, moved to the page's prose and bound there, or marked as an example: `# 示意` on the line of a
comment, `（示意）` at the end of a docstring's line.

Read: every comment (a run of whole-line comments is read as one text, as a paragraph), the
docstrings and any other string written as a statement of its own (a bare string is a comment in
all but syntax). Not read: strings the code uses (those it prints are coursekit.printed's), and
the snippet markers (`# --8<-- [start:listing]`).

    claims(path, text)                      -> [Claim]           every claim, with its line
    problems(path, text, first=1, last=None) -> [guard.Problem]   the same as the guard's problems,
                                                                  for the lines [first, last] shown
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

from coursekit import guard

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


def _strings(tree: ast.AST) -> list[ast.Constant]:
    """Docstrings, and strings standing as statements of their own."""
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]


def _found(path: str, text: str, first_line: int, where: str, example, shown_lines: list[str]) -> list[Claim]:
    out = []
    for token in guard.scan_page(path, text).tokens:
        if not token.claim:
            continue
        start = text.rfind("\n", 0, token.start) + 1
        end = text.find("\n", token.end)
        own = text[start : end if end >= 0 else None]
        line = first_line + text.count("\n", 0, token.start)
        source = shown_lines[line - 1] if 0 < line <= len(shown_lines) else own
        if example(own, source):
            continue
        out.append(Claim(line, token.text, own.strip(), where))
    return out


def _comment_example(own: str, source: str) -> bool:
    """A comment marked as an example: `# 示意` on its line (or ending the comment, in brackets or not)."""
    return COMMENT_EXAMPLE in source or bool(re.search(r"[（(]?示意[）)]?\s*$", own))


def _docstring_example(own: str, source: str) -> bool:
    """A docstring's line ending with （示意）."""
    return bool(DOCSTRING_EXAMPLE.search(own))


def claims(path: str, text: str) -> list[Claim]:
    """Each number the comments and docstrings of the Python source `text` claim, in line order.
    A file that does not parse has none here (running it reports the error)."""
    lines = text.split("\n")
    found: list[Claim] = []
    for line, body, _ in _comments(text):
        found += _found(path, body, line, "comment", _comment_example, lines)
    try:
        tree = ast.parse(text, path)
    except SyntaxError:
        return sorted(found, key=lambda c: c.line)
    for node in _strings(tree):
        found += _found(path, node.value, node.lineno, "docstring", _docstring_example, lines)
    return sorted(found, key=lambda c: c.line)


def describe(line: list[Claim]) -> str:
    """The guard's words for the claims of one line (the caller names the file and line)."""
    shown = line[0].shown if len(line[0].shown) <= 40 else line[0].shown[:39] + "…"
    numbers = "、".join(c.number for c in line)
    if line[0].where == "comment":
        return (f"注释里写的 {numbers} 没有代码核对（「{shown}」），读者在代码清单和笔记本里会当成课程的结论；"
                "注释里写不了 {=表达式} 绑定（清单会原样显示它）：让代码把它算出来打印，或把这句挪到页面正文里再绑定；"
                "只是举例的数，在这行末尾注明 # 示意")
    return (f"文档字符串里写的 {numbers} 没有代码核对（「{shown}」），读者在代码清单和笔记本里会当成课程的结论；"
            "文档字符串里写不了 {=表达式} 绑定（清单会原样显示它）：让代码把它算出来打印，或把这句挪到页面正文里再绑定；"
            "只是举例的数，在这一行末尾写（示意）")


def by_line(found: list[Claim]) -> list[list[Claim]]:
    """The claims grouped by the line they are on, in order."""
    groups: dict[int, list[Claim]] = {}
    for c in found:
        groups.setdefault(c.line, []).append(c)
    return list(groups.values())


def problems(path: str, text: str, first: int = 1, last: int | None = None) -> list[guard.Problem]:
    """One guard.Problem per line of the Python source `text` (file `path`, as the page names it)
    whose comments or docstrings claim a number, for the lines [first, last] a page shows (all by
    default). Each names `path` and the line in that file; its `text` is the first number, to
    highlight; kind "drift"."""
    shown = [c for c in claims(path, text) if first <= c.line and (last is None or c.line <= last)]
    return [guard.Problem(path, line[0].line, describe(line), line[0].number, kind="drift")
            for line in by_line(shown)]
