"""Where a written number may come from: the lesson's values that agree with it at its written
precision, best first, for the message of an unbound number (`写 {=weights[1]} 绑定？`).

For a run of written numbers (a vector, a row, a shape, one number) the search goes over the
lesson's top-level names and simple values derived from them: the whole value, its rows `x[i]`,
columns `x[:, j]`, elements `x[i, j]`, its shape and `len(x)`, `x.shape[k]`, sums `x.sum()` and
`x[i].sum()`. A candidate agrees when it has as many values as are written and each agrees as the
guard reads it (coursekit.numbers.agrees). Ranking: names written nearby on the page first, then
whole values before rows before elements, then shorter expressions.

It runs in the lesson's worker, where its values are (`find`), and needs no torch outside it.
"""

from __future__ import annotations

import types
from numbers import Number

from coursekit import numbers

MOST = 3  # candidates shown
LARGEST = 4096  # values larger than this are searched as a whole only


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


def _derived(name: str, t) -> list[tuple[int, str, list[float]]]:
    """(kind, expression, values): kind 0 the whole value, 1 a row, column, shape or sum, 2 an element."""
    out = [(0, name, t.flatten().tolist())]
    if t.dim() == 0:
        return out
    shape = list(t.shape)
    out += [(1, f"{name}.shape", [float(s) for s in shape]), (1, f"len({name})", [float(shape[0])])]
    out += [(1, f"{name}.shape[{k}]", [float(s)]) for k, s in enumerate(shape)] if t.dim() > 1 else []
    if t.numel() > LARGEST:
        return out
    out.append((1, f"{name}.sum()", [t.sum().item()]))
    if t.dim() == 1:
        out += [(2, f"{name}[{i}]", [x]) for i, x in enumerate(t.tolist())]
    elif t.dim() == 2:
        out += [(1, f"{name}[{i}]", row) for i, row in enumerate(t.tolist())]
        out += [(1, f"{name}[:, {j}]", t[:, j].tolist()) for j in range(shape[1])]
        out += [(1, f"{name}[{i}].sum()", [s]) for i, s in enumerate(t.sum(-1).tolist())]
        out += [(2, f"{name}[{i}, {j}]", [x]) for i, row in enumerate(t.tolist()) for j, x in enumerate(row)]
    return out


def find(written: list[str], scope: dict, nearby: frozenset[str] = frozenset(), most: int = MOST) -> list[str]:
    """The best expressions over `scope` whose values agree with the `written` numbers, in order."""
    return [expr for _, expr in ranked(written, scope, nearby)][:most]


def sure(found: list[tuple[tuple, str]]) -> bool:
    """One best candidate by the ranking rules, not a tie with the next."""
    return len(found) == 1 or (len(found) > 1 and found[0][0] != found[1][0])


def ranked(written: list[str], scope: dict, nearby: frozenset[str] = frozenset()) -> list[tuple[tuple, str]]:
    """(rank, expression) of every candidate, best first; equal ranks are a tie. A run of an even
    number of values that no single value matches is read as a written product line
    (a₀×b₀ + a₁×b₁ …): the stack of the two factors' vectors, `torch.stack([a, b], 1)`."""
    found = _direct(written, scope, nearby)
    if found or len(written) < 4 or len(written) % 2 or "torch" not in scope:
        return found
    firsts, seconds = _direct(written[0::2], scope, nearby), _direct(written[1::2], scope, nearby)
    if not firsts or not seconds:
        return []
    pairs = [((max(ra[0], rb[0]), max(ra[1], rb[1]), ra[2] + rb[2]), f"torch.stack([{a}, {b}], 1)")
             for ra, a in firsts for rb, b in seconds]
    return sorted(pairs)


def _direct(written: list[str], scope: dict, nearby: frozenset[str]) -> list[tuple[tuple, str]]:
    found = []
    for name, value in scope.items():
        if name.startswith("_"):
            continue
        t = _table(value)
        if t is None:
            continue
        for kind, expr, values in _derived(name, t):
            if len(values) == len(written) and all(numbers.agrees(w, v) for w, v in zip(written, values)):
                found.append(((name not in nearby, kind, len(expr)), expr))
    return sorted(set(found))
