"""Where a written number may come from: the lesson's values that agree with it at its written
precision, best first, for the message of an unbound number (`写 {=weights[1]} 绑定？`).

For a run of written numbers (a vector, a row, a shape, one number) the search goes over the
lesson's top-level names, the fields of its objects (`masked.weights`) and simple values derived
from them: the whole value, its rows `x[i]`, columns `x[:, j]`, elements `x[i, j]`, its shape and
the scaling `math.sqrt(x.shape[-1])`, and, where the text speaks of a sum (之和, 加起来), `x.sum()`,
`x[i].sum()` and the row sums `x.sum(dim=-1)` (of the positions it lists, 位置 4、5 合计: `x[i, 4:6].sum()`),
of an average (平均), the mean. A candidate agrees when it has as many values as are written and
each agrees as the guard reads it (coursekit.core.numbers.agrees). A count (两句, 三个位置) is looked for
among sizes only (`len(x)`, `x.shape[k]`, `x.numel()`, sums of a mask, whole numbers), never among a
tensor's elements; a plain number is never a size.

Ranking, best first: how near the page names it (tier −1: the thing a count counts, 两个模型 →
`models`; 0: named in the same paragraph, in code or by one of the course's terms, 读取比例 →
`weights`; 1: assigned in the nearest code the page shows; 2: in its section's other code; 3:
elsewhere in the lesson), then whole values before rows before elements, then shorter expressions.

A candidate is sure (scripts/bound_numbers.py --bind writes it) when `decide` finds no rival: no
other candidate ranks as well, and no other name comes as near in the same kind (the shorter
`len(v)` does not win over `q.shape[0]`: two names, two quantities that happen to agree); and, for
written numbers a coincidence could match (small whole numbers, one or two short decimals: the `2`
of 两个模型 is also `d`, the number of coordinates), it is a name the page uses nearby.

It runs in the lesson's worker, where its values are (`ranked`), and needs no torch outside it.
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Number
from typing import NamedTuple

from coursekit.core import lexicon, numbers

MOST = 3  # candidates shown
SURE = ("", "alike")  # decisions --bind writes: no rival, or cells the text says are one value (_read)
LARGEST = 4096  # values larger than this are searched as a whole only
CLAUSE = -0.5  # the tier of a term in the clause just before a number: nearer than its paragraph, after a count's thing
MORE = 0.01  # how much nearer each further stem of the nearest ones makes a name (_tier)
APART = 4  # added to the tier of a product line whose factors come from two experiment files
COUNTS, NEAR, ELSEWHERE = -1, 2, 3  # tiers; NEAR: the farthest a weakly written number is bound from
SHARED = 6  # decimals at which the row sums of a table are one value (float noise is smaller)
LONG = 10  # the last element of a longer sequence is written x[-1] (the final loss), not x[99]

# The course's words, from its glossary (lessons/glossary.toml, read by coursekit.core.lexicon):
# TERMS, a term in the paragraph brings names made of its stems nearer (读取比例 -> weights);
# CLAUSE_TERMS, too common to count anywhere in a paragraph, only in the clause just before a number;
# COUNTED, what a count counts (两个模型 -> models): such a count binds only to a name of its stems;
# MEASURED, a measure word that counts one thing only (192 道: 题); AXES, what a count of an array's
# size counts (三个位置, 两列).
TERMS = lexicon.LEXICON.stems("terms")
CLAUSE_TERMS = lexicon.LEXICON.stems("clause_terms")
COUNTED = lexicon.LEXICON.stems("counted")
MEASURED = dict(lexicon.LEXICON.measured)
AXES = lexicon.LEXICON.axes()

WHOLE, PART, ELEMENT = 0, 1, 2  # kinds of candidate, in ranking order
AGGREGATE = re.compile(r"\.(?:sum|mean)\(|^sum\(")  # a value made of a whole table: its sum, its mean
EACH = re.compile(r"[\w.]+(?:\[\d+\])?\.unique\(\)|torch\.tensor\([\w.]+\)\.unique\(\)")  # the one value of a vector's cells
SELECTED = re.compile(r"\[~?[A-Za-z_][\w.]*\]\.unique\(\)$")  # x[~mask].unique(): the cells a mask picks (_selected)
ALONG = {"rows": re.compile(r"len\(.*\)|.*\.shape\[0\]"), "columns": re.compile(r".*\.shape\[(?:-1|1)\]")}
READABLE = re.compile(r"[\w.]+(?:\[\d+\])?\.sum\(\)")  # mask[2].sum(): the cells of a row a mask lets be read
ROW0 = -1  # the kind of the row a text names by its index (a₀=[…]), before any whole value


# Words that contain a term without meaning it (数值 is no 值), and terms whose word after another
# term belongs to that one (the 值 of 指数值): both from the glossary.
NOT_TERMS = re.compile(lexicon.alternation(lexicon.LEXICON.not_terms) or "(?!)")
TERM_VALUES = re.compile("|".join(f"(?:{'|'.join(f'(?<={re.escape(o)})' for o in t.stems)}){re.escape(t.word)}"
                                  for t in lexicon.LEXICON.owned) or "(?!)")

def stems(text: str, terms: dict = TERMS) -> set[str]:
    """The name stems the course's terms in `text` stand for."""
    text = NOT_TERMS.sub("", TERM_VALUES.sub("", text))
    return {stem for term, names in terms.items() if term in text for stem in names}


def _table(value):
    """`value` as a float64 tensor, or None when it is no array of numbers."""
    import torch

    if isinstance(value, (bool, str, bytes, types.ModuleType, types.FunctionType, type)) or callable(value):
        return None
    try:
        if hasattr(value, "detach"):
            t = value.detach()
        elif isinstance(value, Number):
            t = torch.tensor(float(value))
        elif isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
            t = torch.tensor(value.tolist() if hasattr(value, "tolist") else value)
        else:
            return None
        return t.to(torch.float64)
    except (TypeError, ValueError, RuntimeError):
        return None


@dataclass(frozen=True)
class Asks:
    """What the text around a written number asks of its value, beyond agreeing with it: a sum
    (`summed`: 之和, 加起来; else no sum is a candidate), what every row's sum is (`rows`: 每行之和),
    an average (`averaged`: 平均), the sum of the cells of some positions (`span`: 位置 4、5 合计, the
    first and last), the one value each of a vector's cells has (`each`: 各给四分之一, 全为 0), or each of
    the cells of the row the text names (`row`, with `each`: 第 2 行的分数全为 0)."""

    summed: bool = True
    rows: bool = False
    averaged: bool = False
    span: tuple[int, int] | None = None
    each: bool = False
    row: int | None = None


def _values(name: str, value, count: bool, asks: Asks = Asks()) -> list[tuple[int, str, list[float]]]:
    """(kind, expression, values) for `value` named `name`. For a count: its sizes, a whole number,
    the sums of a mask. Where the text speaks of every row's sum (asks.rows), the one value
    all of a table's row sums share, `x.sum(dim=-1).round(decimals=6).unique()`; of an average
    (asks.averaged: 下限的平均 0.3301), the mean of all its values (`x.mean()`, of a list
    `sum(x) / len(x)`); of the cells of some positions (asks.span: 位置 4、5 合计), the sum of
    those columns of each row, `x[i, 4:6].sum()`; of each cell of a vector (asks.each: 每个各给四分之一),
    the one value they all share (`x.unique()`, of a list `torch.tensor(x).unique()`), and of a row
    the text names (asks.row), `x[2].unique()`."""
    t = _table(value)
    sized = isinstance(value, (list, tuple, dict, set, frozenset)) and not isinstance(value, str)
    if t is None:
        return [(PART, f"len({name})", [float(len(value))])] if sized and count else []
    if count:
        return _counts(name, value, t)
    out = [(WHOLE, name, t.flatten().tolist())]
    if t.dim() == 0:
        return out
    out += _asked(name, value, t, asks)
    out += [(PART, f"{name}.shape", [float(s) for s in t.shape])] if t.dim() > 1 else []  # a plain number is no size
    out.append((PART, f"math.sqrt({name}.shape[-1])", [t.shape[-1] ** 0.5]))  # the scaling of attention: √d
    if t.numel() > LARGEST:
        return out
    out.append((PART, f"{name}.sum()", [t.sum().item()]))
    return out + _shared_row_sum(name, t, asks) + _PARTS.get(t.dim(), lambda *_: [])(name, t, asks)


def _asked(name: str, value, t, asks: Asks) -> list[tuple[int, str, list[float]]]:
    """The values only a text's words ask for: the one value of a vector's cells (asks.each) or of a
    named row's (asks.row), the mean (asks.averaged)."""
    out = []
    if asks.each and t.dim() == 1 and len(t) > 1 and len(t.unique()) == 1:
        out.append((PART, f"{name}.unique()" if hasattr(value, "unique") else f"torch.tensor({name}).unique()", [t[0].item()]))
    if asks.each and asks.row is not None and t.dim() == 2 and asks.row < len(t) and t.shape[1] > 1 \
            and len(t[asks.row].unique()) == 1:
        out.append((PART, f"{name}[{asks.row}].unique()", [t[asks.row, 0].item()]))
    if asks.averaged and t.numel() > 1:
        mean = f"{name}.mean()" if hasattr(value, "mean") else f"sum({name}) / len({name})" if t.dim() == 1 else None
        out += [(PART, mean, [t.mean().item()])] if mean else []
    return out


def _shared_row_sum(name: str, t, asks: Asks) -> list[tuple[int, str, list[float]]]:
    """Where the text speaks of every row's sum (asks.rows): the one value a table's row sums share."""
    if not (asks.rows and t.dim() == 2):
        return []
    shared = t.sum(-1).round(decimals=SHARED).unique()
    return [(WHOLE, f"{name}.sum(dim=-1).round(decimals={SHARED}).unique()", shared.tolist())] if len(shared) == 1 else []


def _vector_parts(name: str, t, asks: Asks) -> list[tuple[int, str, list[float]]]:
    """A vector's elements; the last of a longer one written x[-1] (LONG)."""
    last = len(t) - 1 if len(t) > LONG else None
    return [(ELEMENT, f"{name}[{-1 if i == last else i}]", [x]) for i, x in enumerate(t.tolist())]


def _table_parts(name: str, t, asks: Asks) -> list[tuple[int, str, list[float]]]:
    """A table's rows, columns, row sums (of the positions the text lists: asks.span), the cells of a
    row before its blocked ones, and its elements."""
    rows, width = t.tolist(), t.shape[1]
    out = [(PART, f"{name}[{i}]", row) for i, row in enumerate(rows)]
    out += [(PART, f"{name}[:, {j}]", t[:, j].tolist()) for j in range(width)]
    out += [(PART, f"{name}[{i}].sum()", [s]) for i, s in enumerate(t.sum(-1).tolist())]
    if asks.span and asks.span[1] < width:
        a, b = asks.span[0], asks.span[1] + 1
        out += [(PART, f"{name}[{i}, {a}:{b}].sum()", [sum(row[a:b])]) for i, row in enumerate(rows)]
    out += [(PART, f"{name}[{i}, :{j}]", row[:j]) for i, row in enumerate(rows) for j in range(2, width)
            if all(x in (0.0, float("-inf")) for x in row[j:])]  # 第 1 行可以读 [0, 0.7071]: the cells before the blocked ones
    out.append((PART, f"{name}.sum(dim=-1)", t.sum(-1).tolist()))
    return out + [(ELEMENT, f"{name}[{i}, {j}]", [x]) for i, row in enumerate(rows) for j, x in enumerate(row)]


_PARTS = {1: _vector_parts, 2: _table_parts}  # an array's parts, by its number of dimensions


def _counts(name: str, value, t) -> list[tuple[int, str, list[float]]]:
    if t.dim() == 0:
        whole = isinstance(value, int) and not isinstance(value, bool)
        return [(PART, name, [float(value)])] if whole else []
    shape = list(t.shape)
    out = [(WHOLE, f"len({name})", [float(shape[0])])]
    out += [(WHOLE, f"{name}.numel()", [float(t.numel())])] if t.dim() > 1 else []  # of a vector, its len
    out += [(WHOLE, f"{name}.shape[{k}]", [float(s)]) for k, s in enumerate(shape)] if t.dim() > 1 else []
    if getattr(value, "dtype", None) is not None and str(value.dtype) == "torch.bool" and t.numel() <= LARGEST:
        out.append((PART, f"{name}.sum()", [t.sum().item()]))
        if t.dim() == 2:
            out += [(PART, f"{name}[{i}].sum()", [s]) for i, s in enumerate(t.sum(-1).tolist())]
    return out


def _named(scope: dict):
    """(name, value) of every top-level name and of each object's fields, one level down."""
    for name, value in scope.items():
        if name.startswith("_") or isinstance(value, (types.ModuleType, type)) or callable(value):
            continue
        yield name, value
        fields = value._asdict() if hasattr(value, "_asdict") else (
            vars(value) if hasattr(value, "__dict__") and not hasattr(value, "detach") else {})
        for key, inner in fields.items():
            if not key.startswith("_") and not callable(inner):
                yield f"{name}.{key}", inner


def _roots(expr: str) -> set[str]:
    """The names an expression reads: {'masked.weights'} for `len(masked.weights[0])` and for
    `masked.weights[~mask].unique()` (the cells of one table a mask selects)."""
    expr = re.sub(r"\[~?[A-Za-z_][\w.]*\]", "", re.sub(r"\b\w+=(?!=)", "", expr))  # no dim=-1, no [~mask]
    found = re.findall(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", expr)
    return {re.sub(r"(?:\.(?:shape|sum|numel|unique|round))+$", "", n) for n in found
            if n != "len" and n.split(".")[0] not in ("torch", "math")}  # torch.stack, math.sqrt: functions


def _tier(root: str, names: dict[str, int], near: dict[str, int]) -> float:
    """How near the page names `root`: its tier (by name, or by the stems its parts are made of);
    a name made of several of the stems its paragraph or clause has (masked.scores where the text
    says 掩码 and 分数) a little nearer than one made of one (first.scores)."""
    parts = re.split(r"[_.]", root.lower())
    by_stem = {stem: t for stem, t in near.items() if any(p == stem or (len(stem) > 2 and p.startswith(stem)) for p in parts)}
    best = min([_code(root, names), *by_stem.values()])
    if best == COUNTS:
        return best
    made_of = {p for p in parts for stem, t in by_stem.items()
               if t <= max(best, 0) and (p == stem or (len(stem) > 2 and p.startswith(stem)))}
    return best - MORE * max(0, len(made_of) - 1)


@dataclass(frozen=True)
class Query:
    """What the text around a run of written numbers asks of the lesson's values (read from the page
    by coursekit.core.queries.query, answered in the lesson's worker by `answer`): the written
    numbers; the names and term stems nearby, each with its tier; whether they count things and what
    (`counted`: 'axis', 'named' or 'other'); whether the text speaks of a sum (`summed`), of every row
    (`rows`: 1 in the sentence before them, 2 in the clause just before), of an average (`averaged`),
    of the sum of some positions' cells (`span`: the first and last), of a shape (`shaped`); the
    positions its sentence lists (`listed`); whether each cell has the value (`each`; `each_row`: of
    the row it names); whether a count counts what a mask lets be read (`readable`); whether one
    number is a difference or a ratio (`derived`), a function of a written number (`of_written`) or
    the argument the text gives a function (`argument`: sin 1, ln 4, exp(0));
    the rows a written dot product names (`dot`), the row a vector is said to be (`row`) or is row
    `index` of some table; whether its sentence says which cell (`located`); which axis a count of 行 or 列 measures (`along`); the names of matrices
    shown side by side (`side_by_side`)."""

    written: tuple[str, ...]
    names: Mapping[str, float] = field(default_factory=dict)
    near: Mapping[str, float] = field(default_factory=dict)
    count: bool = False
    counted: str = ""
    summed: bool = False
    rows: int = 0
    averaged: bool = False
    span: tuple[int, int] | None = None
    shaped: bool = False
    listed: tuple[int, ...] = ()
    each: bool = False
    each_row: int | None = None
    readable: bool = False
    derived: bool = False
    of_written: bool = False
    argument: bool = False  # one number the text writes as a function's argument: sin 1, ln(4), √2
    located: bool = False  # the sentence says which cell: a label and its index (位置 0、坐标 1, 头 1), q₀·k₁, 第 2 行
    dot: tuple[str, ...] = ()
    row: str = ""
    index: str = ""
    along: str = ""
    side_by_side: tuple[str, ...] = ()


class Decision(NamedTuple):
    """Whether the first candidate is sure (`why` '') or why not, and the candidates tied with it (decide)."""

    why: str
    tied: list[str]


class Answer(NamedTuple):
    """The candidates for a query, best first, and the decision on the first."""

    found: list[str]
    decision: Decision


SURELY = Decision("", [])


def answers(scope: dict, origin: dict[str, int], queries: list[Query]) -> list[Answer]:
    """`answer` for each query, over the lesson's values: what the lesson's worker is asked to apply
    (coursekit.core.engine.Build.apply)."""
    return [answer(q, scope, origin) for q in queries]


def answer(query: Query, scope: dict, origin: dict[str, int]) -> Answer:
    """For a query (coursekit.core.queries.query): the best candidates, and whether the first is sure
    (decide)."""
    named = _display(query, scope)
    if named:  # q₀·k₁ = 1×0 + 0×1 = 0, or Q = [[…]]  V = [[…]]: the display names its values
        return Answer([named], SURELY)
    if query.side_by_side or query.of_written:  # exp(0) = 1: the text's own arithmetic
        return Answer([], Decision("none", []))
    keep = _measured(query)
    if keep:
        found = [(rank, e) for rank, e in _ranked_query(query, scope, origin) if keep.fullmatch(e)]
        return Answer([e for _, e in found[:MOST]], Decision(*decide(found, query.written, query.count, query.counted)))
    asks = _asks(query)
    found = _row_first(query, ranked(query.written, scope, query.names, query.near, query.count, origin, asks))
    found, rivals = _narrowed(query, asks, found)
    why = _decision(query, asks, found, rivals)
    read = _read(why[1], query.listed, query.each) if why[0] == "tie" else None
    if read:  # 位置 1、2、3 上 … 约为 0.4621: the cell it names; 各约 0.3333: cells it says are one value
        cell, settled = read
        return Answer([cell, *[e for _, e in found[:MOST] if e != cell]][:MOST], Decision(settled, [] if settled == "" else why[1]))
    return Answer([e for _, e in found[:MOST]], why)


def _display(query: Query, scope: dict) -> str:
    """The expression a display names for its values (a dot product, matrices side by side, a named
    row), or ''."""
    return _dot(query.written, scope, query.dot) or _beside(query.written, scope, query.side_by_side) \
        or _row(query.written, scope, query.row)


def _measured(query: Query) -> re.Pattern | None:
    """For a count of 行 or 列 the sizes along that axis (两行: len, shape[0]; 两列: the last axis);
    for 三个可读位置 what a mask lets through; else None."""
    return ALONG[query.along] if query.along else READABLE if query.readable else None


def _asks(query: Query) -> Asks:
    one = len(query.written) == 1
    rows = bool(query.rows) and query.summed and one and not query.count
    span = tuple(query.span) if query.span and query.summed else None
    return Asks(query.summed, rows, query.averaged and one, span, query.each and one, query.each_row)


def _row_first(query: Query, found: list[tuple[tuple, str]]) -> list[tuple[tuple, str]]:
    """a₀=[…], 位置 0 得到 […]: a row `index` of a table before a whole vector."""
    if not query.index or len(query.written) < 2:
        return found
    row = re.compile(rf"[\w.]+\[{query.index}\]")
    return sorted(((rank[0], ROW0, *rank[2:]) if row.fullmatch(e) else rank, e) for rank, e in found)


def _every_row(query: Query, found: list[tuple[tuple, str]]) -> tuple[list[tuple[tuple, str]], list[str]]:
    """每行之和都是 1: what every row's sum is, not one row's; one row's sum of another name as near
    is a rival (the text may mean that table, 每行 or not), unless 每行 is in the very clause of the
    number (每行的和仍然是 1: rows 2)."""
    shared = [(rank, e) for rank, e in found if e.endswith(".unique()")]
    rivals = [e for rank, e in found if shared and query.rows != 2 and not e.endswith(".unique()") and ".sum(" in e
              and rank[0] <= shared[0][0][0] and _roots(e) != _roots(shared[0][1])]
    return shared, rivals


def _of_the_row(asks: Asks, rank: tuple, e: str) -> bool:  # 第 2 行…全为 0: that row's cells
    return e.endswith(f"[{asks.row}].unique()")


def _a_shape(asks: Asks, rank: tuple, e: str) -> bool:  # 形状是 [1, 2]: a shape, not the values of a row
    return e.endswith(".shape")


def _a_name(asks: Asks, rank: tuple, e: str) -> bool:  # 多了 2, 的 2.0281 倍: a value the code names, no element of a table
    return rank[1] == WHOLE and "[" not in e


def _a_sum(asks: Asks, rank: tuple, e: str) -> bool:  # 每行之和是 1: a sum
    return ".sum(" in e


# What the words around a number narrow its candidates to, the first rule that holds: (when, keep).
NARROWING = (
    (lambda q, asks, found: asks.row is not None and any(_of_the_row(asks, r, e) for r, e in found), _of_the_row),
    (lambda q, asks, found: q.shaped, _a_shape),
    (lambda q, asks, found: q.derived, _a_name),
    # sin 1, ln 4: the text's own input to a function is a name the code gives it, or nothing; a cell
    # that happens to hold the same value (cos 0 = 1 in a table of sines) is another quantity
    (lambda q, asks, found: q.argument, _a_name),
    (lambda q, asks, found: q.summed and len(q.written) == 1 and not q.count, _a_sum),
)


def _narrowed(query: Query, asks: Asks, found: list[tuple[tuple, str]]) -> tuple[list[tuple[tuple, str]], list[str]]:
    """The candidates the text's words leave (NARROWING), and the rivals of every row's sum."""
    if asks.rows:
        return _every_row(query, found)
    for when, keep in NARROWING:
        if when(query, asks, found):
            return [(rank, e) for rank, e in found if keep(asks, rank, e)], []
    return found, []


def _decision(query: Query, asks: Asks, found: list[tuple[tuple, str]], rivals: list[str]) -> Decision:
    why = Decision(*decide(found, query.written, query.count, query.counted))
    if why[0] == "" and _a_lone_cell(query, found):
        why = Decision("cell", [])
    if why[0] == "far" and asks.each and EACH.fullmatch(found[0][1]):
        why = SURELY  # 各给四分之一: every cell of a vector agrees, no coincidence of one small number
    if rivals and why[0] in ("", "far"):
        why = Decision("tie", [found[0][1], *rivals])
    return why


def _a_lone_cell(query: Query, found: list[tuple[tuple, str]]) -> bool:
    """One small number that only a cell of a table holds, and the text never says which cell: a
    table's cells are 0 and 1 in many places that no change of the inputs moves (cos 0, a mask), so a
    cell that agrees is as likely a coincidence as the quantity meant (sin² + cos² 都是 1 is no cell)."""
    return (len(query.written) == 1 and not query.count and weak(list(query.written)) and found[0][0][1] == ELEMENT
            and not (query.located or query.listed or query.each_row is not None or query.span))


CELL = re.compile(r"([A-Za-z_][\w.]*)\[(\d+(?:, \d+)*)\]")  # floor[1], first.weights[2, 0]


def _read(tied: list[str], listed: list[int], each: bool) -> tuple[str, str] | None:
    """Of tied cells of one table that differ in one index only (floor[1], floor[2], floor[3]), the one
    the text reads, and how sure: at the first position its sentence lists (位置 1、2、3 上 → floor[1]),
    sure (''), as a row the paragraph reads is (coursekit.core.proposer._by_row); where it says
    each has the value (各约 0.3333), the first, 'alike': sure while the lesson's declared changes keep
    them one value (coursekit.core.proposer.settle_ties). None when the tie is of anything else."""
    cells = [CELL.fullmatch(e) for e in tied]
    if not (listed or each) or not all(cells) or len({c.group(1) for c in cells}) != 1:
        return None
    indices = [tuple(int(i) for i in c.group(2).split(", ")) for c in cells]
    varying = [k for k in range(len(indices[0])) if len({ix[k] for ix in indices}) > 1]
    if len({len(ix) for ix in indices}) != 1 or len(varying) != 1:
        return None
    (k,) = varying
    if listed:
        hits = [e for e, ix in zip(tied, indices) if ix[k] == listed[0]]
        return (hits[0], "") if hits else None
    return min(zip(indices, tied))[1], "alike"


def _ranked_query(query: Query, scope: dict, origin: dict[str, int]) -> list[tuple[tuple, str]]:
    return ranked(query.written, scope, query.names, query.near, query.count, origin, Asks(query.summed))


def _dot(written: list[str], scope: dict, rows: list[str]) -> str:
    """For a written dot product whose line names its two factors (q₀·k₁ = 1×0 + 0×1 = 0: rows
    ['q[0]', 'k[1]']): `torch.stack([q[0], k[1]], 1), q[0] @ k[1]` when the written products and
    result agree with those rows of the lesson's names, else ''."""
    found = [_row_of(scope, row) for row in rows]
    if len(rows) != 2 or "torch" not in scope or any(t is None for t in found):
        return ""
    a, b = found
    values = [x for pair in zip(a.tolist(), b.tolist()) for x in pair] + [float(a @ b)]
    agree = len(values) == len(written) and all(numbers.agrees(w, v) for w, v in zip(written, values))
    return f"torch.stack([{rows[0]}, {rows[1]}], 1), {rows[0]} @ {rows[1]}" if agree else ""


def _row_of(scope: dict, row: str):
    """The values of `name[i]` (a row of a table of the lesson), or None."""
    name, index = re.fullmatch(r"(\w+)\[(\d+)\]", row).groups()
    t = _table(scope.get(name)) if name in scope else None
    return t[int(index)] if t is not None and t.dim() == 2 and int(index) < len(t) else None


def _row(written: list[str], scope: dict, row: str) -> str:
    """`q[0]` where the text says q₀=[1, 0] and that row of q agrees, else ''."""
    t = _row_of(scope, row) if row else None
    values = t.tolist() if t is not None else []
    return row if len(values) == len(written) and all(numbers.agrees(w, v) for w, v in zip(written, values)) else ""


def _beside(written: list[str], scope: dict, names: list[str]) -> str:
    """For matrices shown side by side and named (Q = [[…]]  V = [[…]]): `torch.cat([q, v], 1)`
    when their rows, read across, agree with the written numbers, else ''."""
    tables = [_table(scope[n]) if n in scope else None for n in names]
    if len(names) < 2 or "torch" not in scope or any(t is None or t.dim() != 2 for t in tables) \
            or len({len(t) for t in tables}) != 1:
        return ""
    import torch

    values = torch.cat(tables, 1).flatten().tolist()
    agree = len(values) == len(written) and all(numbers.agrees(w, v) for w, v in zip(written, values))
    return f"torch.cat([{', '.join(names)}], 1)" if agree else ""


def ranked(written: list[str], scope: dict, names: dict[str, int] | None = None, near: dict[str, int] | None = None,
           count: bool = False, origin: dict[str, int] | None = None, asks: Asks = Asks()) -> list[tuple[tuple, str]]:
    """(rank, expression) of every candidate, best first; equal ranks are a tie. A run that no
    single value matches and that reads as a written product line (a₀×b₀ + a₁×b₁ …, and its
    result after an `=`) is looked for as the stack of the two factors' vectors,
    `torch.stack([a, b], 1)`, followed by the result. A line multiplies the values of one
    computation: factors from two experiment files rank after any pair from one (APART), and its
    result is no element of the factors' own tables."""
    tiers = (names or {}, near or {})
    found = _direct(written, scope, tiers, count, origin or {}, asks)
    if found or count or len(written) < 4 or "torch" not in scope:
        return found
    if len(written) % 2:
        factors, results = written[:-1], _direct(written[-1:], scope, tiers, False, asks=Asks(asks.summed))
        if not results:
            return []
    else:
        factors, results = written, []
    firsts, seconds = _direct(factors[0::2], scope, tiers, False), _direct(factors[1::2], scope, tiers, False)
    files = lambda *es: {(origin or {}).get(n.split(".")[0], -1) for e in es for n in _roots(e)} - {-1}  # noqa: E731
    lines = [([ra, rb], f"torch.stack([{a}, {b}], 1)", [a, b]) for ra, a in firsts for rb, b in seconds]
    if results:
        lines = [([*ranks, rr], f"{expr}, {r}", [*exprs, r]) for ranks, expr, exprs in lines for rr, r in results
                 if not _roots(r) & _roots(", ".join(exprs))]  # the result is made of the factors, no element of theirs
    return sorted(((max(r[0] for r in ranks) + (APART if len(files(*exprs)) > 1 else 0),
                    *(max(r[i] for r in ranks) for i in range(1, len(ranks[0]) - 1)), sum(r[-1] for r in ranks)), expr)
                  for ranks, expr, exprs in lines)


def _chosen(scope: dict, tiers: tuple[dict, dict]) -> list[tuple[str, object, int]]:
    """(name, value, tier) of each value to search. Names whose values are equal whole arrays (q and k
    when Wq = Wk; v and the component's layer_v; weights and stages.weights) stand for one quantity:
    only the nearest of them is searched (by its tier, then by its own name's nearness, so that the
    name a paragraph binds stands for the group; the first defined, if equally near)."""
    groups: dict = {}
    for order, (name, value) in enumerate(_named(scope)):
        t = _table(value)
        same = (tuple(t.shape), tuple(t.flatten().tolist())) if t is not None and 1 < t.numel() <= LARGEST else name
        groups.setdefault(same, []).append((_tier(name, *tiers), _code(name, tiers[0]), order, name, value))
    chosen = (min(g, key=lambda m: m[:3]) for g in groups.values())
    return sorted(((name, value, tier, order) for tier, _, order, name, value in chosen), key=lambda c: c[3])


def _direct(written: list[str], scope: dict, tiers: tuple[dict, dict], count: bool,
            origin: dict[str, int] | None = None, asks: Asks = Asks()) -> list[tuple[tuple, str]]:
    """Candidates that agree with `written`; a sum only where the text speaks of one (asks.summed), or
    as a count of a mask. Rank: (tier, kind, for a count the file that has the name and the order
    it was defined, length)."""
    found = set()
    for name, value, tier, order in _chosen(scope, tiers):
        for kind, expr, values in _values(name, value, count, asks):
            if not (asks.summed or count) and ".sum(" in expr:
                continue
            if expr.startswith(("math.", "torch.")) and expr.split(".")[0] not in scope:
                continue
            if len(values) == len(written) and all(numbers.agrees(w, v) for w, v in zip(written, values)):
                rank = (tier, kind, (origin or {}).get(name.split(".")[0], -1), order, len(expr)) if count \
                    else (tier, kind, _code(name, tiers[0]), 0, len(expr))
                found.add((rank, expr))
    if len(written) == 1 and not count:
        found |= {((tier, WHOLE, min(_code(r, tiers[0]) for r in _roots(expr)), 0, len(expr)), expr) for tier, expr, value in _selected(scope, tiers)
                  if numbers.agrees(written[0], value)}
    return sorted(found)


def _code(name: str, names: dict[str, int]) -> int:
    """How near the page names `name` by itself (in its paragraph, in the nearest code shown, …), its
    terms aside: what tells apart the same value of two computations (decide)."""
    return names.get(name, names.get(name.split(".")[0], ELSEWHERE))


def _accessor(expr: str) -> str | None:
    """`expr` with the one top-level name it reads left out (`·.weights[0]` for `first.weights[0]`
    and `masked.weights[0]`: the same value of two computations); None when it reads several."""
    roots = {r.split(".")[0] for r in _roots(expr)}
    if len(roots) != 1:
        return None
    (root,) = roots
    return re.sub(rf"(?<![\w.]){re.escape(root)}(?![\w])", "·", expr)


def _selected(scope: dict, tiers: tuple[dict, dict]) -> list[tuple[int, str, float]]:
    """(tier, expression, value) for the one value all the cells a boolean table (a mask) selects,
    or all it leaves, share in a table of its shape: `masked.scores[~mask].unique()`, the −∞ of
    every blocked score."""
    chosen = _chosen(scope, tiers)
    masks = [(n, v) for n, v, _, _ in chosen if str(getattr(v, "dtype", "")) == "torch.bool" and v.dim() == 2]
    out = []
    for m, mask in masks:
        for name, value, tier, _ in chosen:
            t = _table(value)
            if name == m or t is None or tuple(t.shape) != tuple(mask.shape) or str(getattr(value, "dtype", "")) == "torch.bool":
                continue
            for sign, cells in (("", t[mask.detach()]), ("~", t[~mask.detach()])):
                shared = cells.unique()
                if len(cells) and len(shared) == 1:
                    out.append((tier, f"{name}[{sign}{m}].unique()", shared.item()))
    return out


def weak(written: list[str]) -> bool:
    """Written numbers a coincidence could match: at most three significant digits in all, or a run
    of one repeated value. An infinity is none: only a mask or a division by zero makes one."""
    if any("∞" in w or "inf" in w for w in written):
        return False
    digits = sum(len(re.sub(r"^[0.]+|(?<=\d)0+$", "", re.sub(r"[^\d.]", "", w).rstrip(".")).replace(".", ""))
                 for w in written)
    return digits <= 3 or (len(written) > 1 and len(set(written)) == 1)


def decide(found: list[tuple[tuple, str]], written: list[str], count: bool = False,
           counted: str = "") -> tuple[str, list[str]]:
    """('', []) when the first candidate is sure; else why not and the candidates that tie with it:
    'tie' (another ranks as well, or another name agrees at any rank: nearness never makes two
    quantities one; a sum or mean of a table is no rival of a name whose value it is, `mean` beside
    `numbers.mean()`; for a count, the first defined of the sizes of one experiment file wins, since
    sizes pass from its inputs to what it computes from them, and sizes from two files are a tie) or 'far' (numbers a
    coincidence could match, and no candidate the page names nearby; for one plain number, named
    in its paragraph) or 'unnamed' (a count of a thing the course's terms know and no candidate named
    for it, 三组投影; or of a thing that is no array's size, 三组向量)."""
    if not found:
        return "none", []
    if counted == "other" or (counted == "named" and found[0][0][0] != COUNTS):
        return "unnamed", []
    (tier, _, origin, *_), best = found[0]
    # Nearness in code never settles a tie between two quantities: another name that agrees is a rival
    # however far its code is (a change of the lesson's inputs may show they are one,
    # coursekit.core.variations), and so is a size from another experiment file; only the text's own
    # words set one apart: a first the page names (tier 0 or nearer: its paragraph, the course's terms,
    # the clause just before, the thing a count counts) over one it does not name at all.
    def rival(rank: tuple, e: str) -> bool:
        if rank == found[0][0]:
            return True
        if tier <= 0 < rank[0]:  # the page's words name the first, not the other
            return False
        return rank[2] != origin if count else _roots(e) != _roots(best)

    rivals = [e for rank, e in found[1:] if rival(rank, e)]
    if not count:
        code, one = {e: rank[2] for rank, e in found}, len(written) == 1
        kind = {e: rank[1] for rank, e in found}
        named = one and found[0][0][1] == WHOLE and re.fullmatch(r"[\w.]+", best)  # a bare name: `mean`
        selected = one and SELECTED.search(best)  # zero_scores[~mask].unique(): every cell the mask picks

        def no_rival(e: str) -> bool:
            if named and AGGREGATE.search(e):  # mean = numbers.mean(): the name is that value, kept
                return True
            if selected and kind[e] == ELEMENT:  # one cell that happens to agree: no rival of all of them
                return True
            if code[e] <= code[best]:
                return False
            return _accessor(e) is not None and _accessor(e) == _accessor(best)  # the same value, another computation

        rivals = [e for e in rivals if not no_rival(e)]
    if rivals:
        return "tie", [best, *rivals]  # every one: a change must move them all to settle it
    reach = NEAR if count or len(written) > 1 else 0  # one plain small number: named in its paragraph
    return ("far" if weak(written) and tier > reach else ""), []
