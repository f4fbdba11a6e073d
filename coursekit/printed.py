"""Numbers an experiment file would print as fixed text.

What a lesson's code prints reaches the page as the code's own output, so the guard takes it as
computed. A number typed into a `print`'s text (`print("即 [2/3, 4/3]")`) is not computed: edit the
data and it stays, wrong, on the page. This finds such numbers before the file runs, by the same
rules the guard applies to prose (decimals, fractions, percentages, and integers in an equation or
a vector must be live); f-string fields and their format specs (`{x:.4f}`) are code, not text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from coursekit import guard


# Replacement fields of the two older templates: `"%.4f" % x` and `"{:.4f}".format(x)`.
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa%]")
_BRACES = re.compile(r"\{[^{}]*\}")


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _texts(node: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of each string under `node` that a print shows as it is written."""
    if _is_text(node):
        yield node.lineno, node.value
    elif isinstance(node, ast.FormattedValue):
        yield from _texts(node.value)  # the field's expression; its format spec is not text
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_text(node.left):
        yield node.left.lineno, _PERCENT.sub(" ", node.left.value)
        yield from _texts(node.right)
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
          and _is_text(node.func.value)):
        yield node.func.value.lineno, _BRACES.sub(" ", node.func.value.value)
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            yield from _texts(arg)
    else:
        for child in ast.iter_child_nodes(node):
            yield from _texts(child)


def fixed_numbers(path: str, source: str) -> list[tuple[int, str, str]]:
    """(line, number, text) for each number a `print` call in `source` writes as fixed text."""
    found = []
    for call in ast.walk(ast.parse(source, path)):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"):
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            for line, text in _texts(arg):
                found += [(line, t.text, text) for t in guard.scan_page(path, text).tokens if t.claim]
    return sorted(found)
