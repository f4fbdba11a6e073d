"""Numbers a lesson's code would print as typed text.

What a lesson's code prints reaches the page as the code's own output, so the guard takes it as
computed. A number typed into what a print shows (`print("即 [2/3, 4/3]")`, `print(0.4011)`) is
not computed: edit the data and it stays, wrong, on the page. This finds such numbers before the
code runs, in experiment files and page blocks alike.

What reaches the page and the notebook is what the code writes to standard output, and only that:
the worker runs each file and block under `redirect_stdout` (coursekit.core.runner, coursekit.core.worker);
standard error goes to the build's log. So these calls show:

- `print(...)` (with no `file=`, or `file=sys.stdout`/`stdout`/`None`), `pprint`, `pp`,
  `sys.stdout.write`, `sys.stdout.writelines`;
- `logging` calls (`logging.info(...)`, `log.warning(...)`) in a file that sends logging to
  standard output (`basicConfig(stream=sys.stdout)`, `StreamHandler(sys.stdout)`). Logging's default
  goes to standard error, as do `print(file=sys.stderr)`, `sys.stderr.write` and warnings: not shown.

Each such call is rendered as the reader would see it: typed text as written, typed values
(`0.4011`, `2 / 3`, `[0.5, 0.3]`, `-1`) as they print, and anything computed as a placeholder
("…"). Text and typed values pass through what only formats or converts them: f-strings (text and
fields), `"%.4f" % x`, `"{}".format(x)`, `format(x, spec)`, `str`, `repr`, `float`, `int`, `round`,
`Fraction`, `torch.tensor`, `np.array`, the course's `num`/`vec`/`frac`, `+` of strings, ... Format
specs are code, not text, and so is the expression of a self-documenting field (`f"{w.sum()=}"`). A
call that computes (`torch.softmax(torch.tensor([1.0, 2.0]), -1)`, `attention(...)`) prints what
the code computed: a placeholder.

The guard then reads the rendered text as it reads prose (`guard.scan_page`): every token it calls
a claim, in a typed part, is a typed number. So decimals and fractions always are; integers are when
the guard says so (`"每行和 = 1"`, `[1, 2]`), never ordinals (`"第 1 题"`, `"位置 0"`).

A print whose numbers are examples, not results, says so with a `# 示意` comment on its line(s),
as prose does with `{示意}`. Not traced: text built elsewhere and printed through a variable, and
logging configured in another file.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from coursekit.core import guard, syntax

# Replacement fields of the two older templates: `"%.4f" % x` and `"{:.4f}".format(x)`.
_PERCENT = re.compile(r"%%|%(?:\([^)]*\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa]")
_BRACES = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
EXAMPLE = "# 示意"
COMPUTED = "…"  # what a computed value renders as: no digits, no letters (2 × … is a claim; 2 × d is not)

# Calls that show (part of) their argument as it is: (positional arguments shown; None: all).
# Keys are the called name's last part (`torch.tensor` and `tensor` alike).
_SHOWING = {
    **dict.fromkeys(("str", "repr", "ascii", "float", "int", "complex", "abs", "round", "Decimal",
                     "num", "vec", "frac", "fracs", "list", "tuple", "set", "frozenset", "sorted",
                     "tensor", "as_tensor", "Tensor", "FloatTensor", "DoubleTensor", "LongTensor", "IntTensor",
                     "array", "asarray", "float16", "float32", "float64", "int32", "int64", "scalar_tensor",
                     "pformat", "saferepr"), (0,)),
    "Fraction": None,  # Fraction(2, 3) shows 2/3
    "full": (1,),  # torch.full((2, 2), 0.5) shows 0.5
}
# Methods that show the value they are called on (`torch.tensor([0.5]).tolist()`).
_SHOWING_METHODS = {"tolist", "item", "float", "double", "round", "numpy", "clone", "detach", "squeeze",
                    "unsqueeze", "view", "reshape", "flatten", "to", "cpu", "long", "int", "half"}
# Modules whose functions `_SHOWING` names (`w.round(4)` on a value is computed; `torch.tensor(...)` shows).
_MODULES = {"torch", "np", "numpy", "fractions", "decimal", "pprint", "reprlib", "show", "builtins"}
_LOG_LEVELS = {"debug", "info", "warning", "warn", "error", "critical", "exception", "fatal", "log"}
_OPS = {ast.Add: " + ", ast.Sub: " - ", ast.Mult: " * ", ast.Div: "/", ast.FloorDiv: " // ",
        ast.Mod: " % ", ast.Pow: " ** ", ast.MatMult: " @ "}


@dataclass
class Typed:
    line: int
    number: str
    shown: str  # the line of text it is in, as printed (computed parts as …)


@dataclass
class _Piece:
    text: str
    line: int  # the source line of the text's first character
    typed: bool  # written in the code (text or a literal); False: computed, or code shown as code
    node: ast.AST | None = None  # an f-string's text: its line is found in the source (3.11 gives the f-string's)


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _is_number(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex))
            and not isinstance(node.value, bool))


def _computed(node: ast.AST) -> list[_Piece]:
    return [_Piece(COMPUTED, getattr(node, "lineno", 0), False)]


def _name(func: ast.AST) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _stdout(node: ast.AST | None) -> bool:
    """`node` is standard output as the lesson's code sees it (what the page captures)."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return True
    return ((isinstance(node, ast.Attribute) and node.attr == "stdout")
            or (isinstance(node, ast.Name) and node.id == "stdout"))


def _stringy(node: ast.AST) -> bool:
    """An expression that makes text (so `+` joins text rather than adding numbers)."""
    if _is_text(node) or isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return ((isinstance(node.op, ast.Mod) and _is_text(node.left))
                or (isinstance(node.op, ast.Add) and (_stringy(node.left) or _stringy(node.right))))
    if isinstance(node, ast.Call):
        f = node.func
        return ((isinstance(f, ast.Name) and f.id in ("str", "repr", "format", "num", "vec", "frac", "fracs"))
                or (isinstance(f, ast.Attribute) and f.attr in ("format", "join") and _is_text(f.value)))
    return False


def _fill(template: str, line: int, fields: re.Pattern, args: list[ast.AST],
          kwargs: dict[str, ast.AST]) -> list[_Piece]:
    """A %- or {}-template with its fields replaced by what their arguments render as."""
    pieces: list[_Piece] = []
    last, position = 0, 0
    for m in fields.finditer(template):
        text = template[last : m.start()]
        pieces.append(_Piece(text, line + template.count("\n", 0, last), True))
        last = m.end()
        field = m.group(0)
        if field in ("%%", "{{", "}}"):
            pieces.append(_Piece(field[0], line + template.count("\n", 0, m.start()), True))
            continue
        if field.startswith("%(") or (field.startswith("{") and re.match(r"\{[A-Za-z_]", field)):
            key = re.match(r"[%{]\(?([A-Za-z_]\w*)", field).group(1)
            arg = kwargs.get(key)
        elif field.startswith("{") and re.match(r"\{\d+", field):
            index = int(re.match(r"\{(\d+)", field).group(1))
            arg = args[index] if index < len(args) else None
        else:
            arg = args[position] if position < len(args) else None
            position += 1
        if arg is None or (re.search(r"[.\[]", field.split(":")[0][1:]) and field.startswith("{")):
            pieces.append(_Piece(COMPUTED, line, False))  # {0.attr}, {x[1]}, or an argument not in sight
        else:
            pieces += _render(arg)
    pieces.append(_Piece(template[last:], line + template.count("\n", 0, last), True))
    return pieces


def _joined(node: ast.JoinedStr) -> list[_Piece]:
    pieces: list[_Piece] = []
    parts = node.values
    for i, part in enumerate(parts):
        if isinstance(part, ast.FormattedValue):
            pieces += _render(part.value)  # its format spec is code, not text
            continue
        text = part.value
        following = parts[i + 1] if i + 1 < len(parts) else None
        code = ""
        if isinstance(following, ast.FormattedValue):  # f"{w.sum(dim=-1)=}": the expression is code
            expr = re.sub(r"\s", "", ast.unparse(following.value))
            m = re.search(r"\s*".join(map(re.escape, expr)) + r"\s*=\s*$", text)
            if m:
                text, code = text[: m.start()], text[m.start() :]
        pieces.append(_Piece(text, node.lineno, True, node))
        if code:
            pieces.append(_Piece(code, node.lineno, False))
    return pieces


def _call(node: ast.Call) -> list[_Piece]:
    f = node.func
    name = _name(f)
    if isinstance(f, ast.Attribute) and _is_text(f.value):
        if f.attr == "format":
            return _fill(f.value.value, f.value.lineno, _BRACES, node.args,
                         {k.arg: k.value for k in node.keywords if k.arg})
        if f.attr == "join":
            sep = _Piece(f.value.value, f.value.lineno, True)
            arg = node.args[0] if node.args else None
            if isinstance(arg, (ast.List, ast.Tuple)):
                pieces: list[_Piece] = []
                for i, item in enumerate(arg.elts):
                    pieces += ([sep] if i else []) + _render(item)
                return pieces
            return [*_computed(node), sep, *_computed(node)]
    if isinstance(f, ast.Name) and name == "format":
        return _render(node.args[0]) if node.args else []  # format(x, ".1%"): the spec is code
    if isinstance(f, ast.Attribute) and name in _SHOWING_METHODS and not isinstance(f.value, ast.Name):
        return _render(f.value)  # torch.tensor([0.5]).tolist(); on a name, it is that name's value
    if name in _SHOWING and (isinstance(f, ast.Name) or (isinstance(f.value, ast.Name) and f.value.id in _MODULES)):
        shown = _SHOWING[name]
        args = [a for i, a in enumerate(node.args) if shown is None or i in shown]
        pieces = []
        for i, arg in enumerate(args):
            pieces += ([_Piece("/", arg.lineno, True)] if i else []) + _render(arg, nested=name not in ("str", "float", "int", "Decimal", "Fraction", "complex"))
        return pieces or _computed(node)
    return _computed(node)


def _render(node: ast.AST, nested: bool = False) -> list[_Piece]:
    """What `node` prints as: text and literals as written, computed values as placeholders.
    `nested`: inside a container, where text prints with its quotes. One rule per kind of node
    (_RENDERS); any other node is computed."""
    rule = _RENDERS.get(type(node))
    return rule(node, nested) if rule is not None else _computed(node)


def _constant(node: ast.Constant, nested: bool) -> list[_Piece]:
    if _is_text(node):
        return [_Piece(repr(node.value) if nested else node.value, node.lineno, True, node)]
    if _is_number(node):
        return [_Piece(str(node.value), node.lineno, True)]
    return [_Piece(str(node.value), node.lineno, False)]  # True, None, b"...", Ellipsis


def _signed(node: ast.UnaryOp, nested: bool) -> list[_Piece]:
    if isinstance(node.op, (ast.USub, ast.UAdd)) and _is_number(node.operand):
        sign = "-" if isinstance(node.op, ast.USub) else ""
        return [_Piece(sign + str(node.operand.value), node.lineno, True)]
    return _computed(node)


def _operation(node: ast.BinOp, nested: bool) -> list[_Piece]:
    if isinstance(node.op, ast.Mod) and _is_text(node.left):
        args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        kwargs = ({k.value: v for k, v in zip(node.right.keys, node.right.values) if k is not None and _is_text(k)}
                  if isinstance(node.right, ast.Dict) else {})
        return _fill(node.left.value, node.left.lineno, _PERCENT, args, kwargs)
    if isinstance(node.op, ast.Add) and (_stringy(node.left) or _stringy(node.right)):
        return _render(node.left) + _render(node.right)
    if _literal(node):  # arithmetic on typed numbers only: 2 / 3, 0.5 * 2
        return _render(node.left, nested) + [_Piece(_OPS.get(type(node.op), " ? "), node.lineno, True)] \
            + _render(node.right, nested)
    return _computed(node)


def _sequence(node: ast.List | ast.Tuple | ast.Set, nested: bool) -> list[_Piece]:
    opening, closing = {ast.List: "[]", ast.Tuple: "()", ast.Set: "{}"}[type(node)]
    pieces = [_Piece(opening, node.lineno, False)]
    for i, item in enumerate(node.elts):
        pieces += ([_Piece(", ", node.lineno, False)] if i else []) + _render(item, nested=True)
    if isinstance(node, ast.Tuple) and len(node.elts) == 1:
        pieces.append(_Piece(",", node.lineno, False))
    return pieces + [_Piece(closing, node.end_lineno or node.lineno, False)]


def _mapping(node: ast.Dict, nested: bool) -> list[_Piece]:
    pieces = [_Piece("{", node.lineno, False)]
    for i, (key, value) in enumerate(zip(node.keys, node.values)):
        pieces += [_Piece(", ", node.lineno, False)] if i else []
        pieces += (_render(key, nested=True) + [_Piece(": ", node.lineno, False)]) if key is not None else []
        pieces += _render(value, nested=True)
    return pieces + [_Piece("}", node.end_lineno or node.lineno, False)]


_RENDERS = {
    ast.Constant: _constant, ast.UnaryOp: _signed, ast.BinOp: _operation, ast.Dict: _mapping,
    ast.List: _sequence, ast.Tuple: _sequence, ast.Set: _sequence,
    ast.JoinedStr: lambda node, nested: _joined(node), ast.FormattedValue: lambda node, nested: _render(node.value),
    ast.Starred: lambda node, nested: _render(node.value, nested), ast.Call: lambda node, nested: _call(node),
}


def _literal(node: ast.AST) -> bool:
    """Arithmetic on number literals only."""
    if _is_number(node):
        return True
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    return isinstance(node, ast.BinOp) and _literal(node.left) and _literal(node.right)


def _loggers(tree: ast.AST) -> set[str] | None:
    """Names logging calls go through, when this source sends logging to standard output; else None."""
    to_stdout = any(
        isinstance(n, ast.Call) and _name(n.func) in ("basicConfig", "StreamHandler")
        and any(_stdout(a) for a in [*n.args, *(k.value for k in n.keywords)] if not isinstance(a, ast.Constant))
        for n in ast.walk(tree))
    if not to_stdout:
        return None
    names = {"logging"}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and _name(n.value.func) == "getLogger":
            names |= {t.id for t in n.targets if isinstance(t, ast.Name)}
    return names


def _shown(call: ast.Call, loggers: set[str] | None) -> list[_Piece] | None:
    """What a call writes to standard output, rendered; None for a call that writes nothing there."""
    f = call.func
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    name = _name(f)
    if isinstance(f, ast.Name) and name == "print":
        if not _stdout(keywords.get("file")):
            return None  # print(..., file=sys.stderr) goes to the build's log
        sep = keywords.get("sep")
        pieces: list[_Piece] = []
        for i, arg in enumerate(call.args):
            if i:
                pieces += _render(sep) if sep is not None else [_Piece(" ", arg.lineno, False)]
            pieces += _render(arg)
        if "end" in keywords:
            pieces += _render(keywords["end"])
        return pieces
    if name in ("pprint", "pp") and (isinstance(f, ast.Name) or (isinstance(f.value, ast.Name) and f.value.id == "pprint")):
        stream = keywords.get("stream", call.args[1] if len(call.args) > 1 else None)
        if not _stdout(stream):
            return None
        return _render(call.args[0], nested=True) if call.args else []
    if isinstance(f, ast.Attribute) and name in ("write", "writelines") and _stdout(f.value):
        pieces = []
        for arg in call.args:
            items = arg.elts if name == "writelines" and isinstance(arg, (ast.List, ast.Tuple)) else [arg]
            for item in items:
                pieces += _render(item)
        return pieces
    if (loggers and isinstance(f, ast.Attribute) and name in _LOG_LEVELS
            and isinstance(f.value, ast.Name) and f.value.id in loggers):
        args = call.args[1:] if name == "log" else call.args
        if not args:
            return []
        if _is_text(args[0]) and len(args) > 1:
            return _fill(args[0].value, args[0].lineno, _PERCENT, args[1:], {})
        return _render(args[0])
    return None


def _line_of(piece: _Piece, offset: int, lines: list[str], token: str) -> int:
    """The source line of `token` at `offset` in the piece's text."""
    line = piece.line + piece.text.count("\n", 0, offset)
    node = piece.node
    if node is None or not node.end_lineno or node.end_lineno == node.lineno:
        return line
    # Strings joined across lines ("a" "b", or f-strings: 3.11 gives each text part the f-string's
    # first line) do not count their lines in their value: find the text in the source.
    start = piece.text.rfind("\n", 0, offset) + 1
    end = piece.text.find("\n", offset)
    context = piece.text[start : end if end >= 0 else None]
    for needle in (context.strip(), piece.text[max(start, offset - 6) : offset + len(token)].strip(), token):
        if not needle:
            continue
        if 0 < line <= len(lines) and needle in lines[line - 1]:
            return line
        hits = [n for n in range(node.lineno, min(node.end_lineno, len(lines)) + 1) if needle in lines[n - 1]]
        if hits:
            return hits[0]
    return line


def fixed_numbers(path: str, source: str) -> list[Typed]:
    """Each number a call in `source` writes to standard output as typed text or a typed value."""
    lines = source.splitlines()
    tree = syntax.parse(source, path)
    loggers = _loggers(tree)
    found = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        pieces = _shown(call, loggers)
        if not pieces:
            continue
        if any(EXAMPLE in line for line in lines[call.lineno - 1 : call.end_lineno]):
            continue
        text, starts = "", []
        for piece in pieces:
            starts.append(len(text))
            text += piece.text
        for token in guard.scan_page(path, text).tokens:
            if not token.claim:
                continue
            i = max(k for k, s in enumerate(starts) if s <= token.start)
            piece = pieces[i]
            if not piece.typed:
                continue
            where = _line_of(piece, token.start - starts[i], lines, token.text)
            start = text.rfind("\n", 0, token.start) + 1
            end = text.find("\n", token.end)
            found.append(Typed(where, token.text, text[start : end if end >= 0 else None].strip()))
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
