"""Numbers a lesson's code would print as typed text.

What a lesson's code prints reaches the page as the code's own output, so the guard takes it as
computed. A number typed into what a print shows (`print("即 [2/3, 4/3]")`, `print(0.4011)`) is
not computed: edit the data and it stays, wrong, on the page. This finds such numbers before the
code runs, in every `print`, `pprint` and `sys.stdout.write` call of a lesson's package:

- in the call's text: decimals, fractions, percentages and scientific notation, read as the guard
  reads prose. Integers are not: a label such as `"weights[0] ="` or `"第 1 题"` names, it does not
  claim. f-string fields and format specs (`{x:.4f}`, `"%.4f" %`, `.format`) are code, not text;
- as a value: an argument (or an f-string field, or an item of a list or tuple argument) that reads
  no name and holds a non-integer number, such as `0.4011`, `2 / 3` or `[0.6667, 1.3333]`.

A print whose numbers are examples, not results, says so with a `# 示意` comment on its line(s),
as prose does with `{示意}`. Not traced: text built elsewhere and printed through a variable.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from coursekit import guard

# Replacement fields of the two older templates: `"%.4f" % x` and `"{:.4f}".format(x)`.
_PERCENT = re.compile(r"%%|%(?:\([^)]*\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa]")
_BRACES = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
EXAMPLE = "# 示意"


@dataclass
class Typed:
    line: int
    number: str
    shown: str  # the line of text it is in, or the expression


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _template(text: str, pattern: re.Pattern) -> str:
    return pattern.sub(lambda m: m.group(0)[0] if m.group(0) in ("%%", "{{", "}}") else " ", text)


def _texts(node: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of each string under `node` that a print shows as it is written."""
    if _is_text(node):
        yield node.lineno, node.value
    elif isinstance(node, ast.FormattedValue):
        yield from _texts(node.value)  # the field's expression; its format spec is not text
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_text(node.left):
        yield node.left.lineno, _template(node.left.value, _PERCENT)
        yield from _texts(node.right)
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
          and _is_text(node.func.value)):
        yield node.func.value.lineno, _template(node.func.value.value, _BRACES)
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            yield from _texts(arg)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "format":
        yield from _texts(node.args[0]) if node.args else iter(())  # format(x, ".1%"): the spec is code
    else:
        for child in ast.iter_child_nodes(node):
            yield from _texts(child)


def _values(node: ast.AST) -> Iterator[ast.expr]:
    """The expressions a print shows as values: its arguments, f-string fields, items of displays."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        for item in node.elts:
            yield from _values(item)
    elif isinstance(node, ast.JoinedStr):
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                yield from _values(part.value)
    elif isinstance(node, ast.Starred):
        yield from _values(node.value)
    elif not _is_text(node):
        yield node


def _typed_value(node: ast.expr) -> bool:
    """An expression that reads no name and holds a number that is not a whole one."""
    if any(isinstance(n, ast.Name) for n in ast.walk(node)):
        return False
    return any(isinstance(n, ast.Constant) and isinstance(n.value, (float, complex)) or
               isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(node))


def _shows(call: ast.Call) -> bool:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id in ("print", "pprint")
    if isinstance(f, ast.Attribute):
        if f.attr == "pprint":
            return True
        return f.attr == "write" and isinstance(f.value, ast.Attribute) and f.value.attr == "stdout"
    return False


def fixed_numbers(path: str, source: str) -> list[Typed]:
    """Each number a print-like call in `source` shows as typed text or a typed value."""
    lines = source.splitlines()
    found = []
    for call in ast.walk(ast.parse(source, path)):
        if not (isinstance(call, ast.Call) and _shows(call)) or any(k.arg == "file" for k in call.keywords):
            continue  # not a print, or one that writes elsewhere than the page (file=sys.stderr)
        if any(EXAMPLE in line for line in lines[call.lineno - 1 : call.end_lineno]):
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            for line, text in _texts(arg):
                for token in guard.scan_page(path, text).tokens:
                    if guard.always_a_claim(token.text):
                        where = line + text.count("\n", 0, token.start)
                        start = text.rfind("\n", 0, token.start) + 1
                        end = text.find("\n", token.end)
                        found.append(Typed(where, token.text, text[start : end if end >= 0 else None].strip()))
            for value in _values(arg):
                if _typed_value(value):
                    found.append(Typed(value.lineno, ast.unparse(value), f"print 的值 {ast.unparse(value)}"))
    return sorted(found, key=lambda t: t.line)


def by_line(found: list[Typed]) -> list[list[Typed]]:
    """The typed numbers grouped by the line they are on, in order."""
    groups: dict[int, list[Typed]] = {}
    for t in found:
        groups.setdefault(t.line, []).append(t)
    return list(groups.values())


def describe(line: list[Typed]) -> str:
    """The guard's words for the typed numbers of one line (the caller names the file and line)."""
    shown = line[0].shown if len(line[0].shown) <= 40 else line[0].shown[:39] + "…"
    return (f"打印的 {'、'.join(t.number for t in line)} 是写死的（「{shown}」），读者会当成代码现算的："
            "改成由代码算出再打印，例如 num(x)、vec(x)、fracs(x)；只是举例的数，在这行末尾注明 # 示意")
