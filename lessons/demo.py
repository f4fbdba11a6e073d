"""Data for a lesson's step-through demo and live exercises, computed by tinylm at build time.

The page embeds it as JSON; docs/assets/attention-demo.js only lays it out (the demo) or redoes
the same arithmetic on the reader's edits (the exercises), which the browser tests compare with
`golden_cases()`.

With a mask (`steps(q, k, v, mask)`), the data also carry the mask and the scaled scores before it
(`scaled`); the demo shows the mask as its own stage between 缩放 and Softmax. A masked score is
minus infinity, which JSON cannot hold (`json.dumps` writes `-Infinity`, which `JSON.parse`
rejects): it is written as null, and the script reads it back as minus infinity where the mask
says so.

A lesson page embeds a widget with `widget`, naming the lesson expressions it shows:

    print(widget("demo", "交互演示需要浏览器启用 JavaScript。", q="q", k="k", v="v", mask="mask"))

Like a binding written after a number in the prose, each is an expression of the lesson: the
build evaluates it in the lesson's run namespace before any page block runs (the value the prose
is bound to) and checks that the widget embedded those very numbers (coursekit.core.widgets), so a
widget fed another tensor, or a tensor a page block changed in place, fails the page at the
widget's block. Every widget a block
embeds is noted in `EMBEDDED` for the worker to hand the build; a bare `embed` has no expressions
to check and fails a lesson page the way an unbound number does.
"""

from __future__ import annotations

import json
import sys
from html import escape

import torch

from tinylm import attention_steps

ROLES = ("q", "k", "v", "mask")  # what a widget shows, in the order steps() takes them
# The widgets embedded since the worker last looked: {"kind", "exprs": {role: expression} or None
# (a bare embed), "numbers": {role: the flattened value it embedded}} (coursekit.core.worker hands them on).
EMBEDDED: list[dict] = []


def steps(q, k, v, mask=None) -> dict:
    """Every stage of attention(q, k, v), row by row, as plain lists: tinylm's own numbers.

    `mask` ([query positions, key positions], True = may read, e.g. `tinylm.causal_mask(n)`): the
    stages of `tinylm.masked_attention`, masked scores as null, every row reading at least one position.
    """
    q, k, v = (t.detach().double() for t in (q, k, v))
    s = attention_steps(q, k, v)
    data = {
        "q": q.tolist(), "k": k.tolist(), "v": v.tolist(), "d": q.shape[-1],
        "dots": s.dots.tolist(), "scores": s.scores.tolist(), "exps": s.exps.tolist(),
        "sums": s.sums.tolist(), "weights": s.weights.tolist(), "output": s.output.tolist(),
    }
    if mask is None:
        return data
    mask = torch.as_tensor(mask)
    shape = (q.shape[-2], k.shape[-2])
    if mask.dtype != torch.bool or tuple(mask.shape) != shape:
        raise ValueError(f"steps：mask 应是形状 {list(shape)} 的布尔矩阵（True = 可以读），收到 {mask.dtype} {list(mask.shape)}")
    if not mask.any(dim=-1).all():
        rows = [i for i, row in enumerate(mask.tolist()) if not any(row)]
        raise ValueError(f"steps：mask 的第 {rows} 行一个位置也不许读，Softmax 没有定义")
    m = attention_steps(q, k, v, mask)
    if not (torch.equal(m.dots, s.dots) and torch.equal(m.scores[mask], s.scores[mask])
            and m.scores[~mask].isneginf().all() and (m.weights[~mask] == 0).all()):
        raise ValueError("steps：tinylm 的掩码分数与不加掩码的分数对不上")
    scores = [[x if ok else None for x, ok in zip(row, oks)] for row, oks in zip(m.scores.tolist(), mask.tolist())]
    data.update({"scaled": s.scores.tolist(), "scores": scores, "exps": m.exps.tolist(), "sums": m.sums.tolist(),
                 "weights": m.weights.tolist(), "output": m.output.tolist(), "mask": mask.tolist()})
    return data


def embed(kind: str, data: dict, fallback: str) -> str:
    """The element the script turns into the demo or the exercise; `fallback` shows without it.

    On a lesson page use `widget`: data given here name no expression the build could check."""
    EMBEDDED.append({"kind": kind, "exprs": None, "numbers": {}})
    return _element(kind, data, fallback)


def widget(kind: str, fallback: str, *, q: str, k: str, v: str, mask: str | None = None,
           scope: dict | None = None) -> str:
    """`embed(kind, steps(q, k, v, mask), fallback)` of the lesson expressions named, each evaluated
    in `scope` (by default the namespace of the code calling it: the page's), noted in `EMBEDDED`
    with the numbers it embedded, for the build to check against the lesson's own values."""
    from coursekit.core.numbers import flatten

    scope = sys._getframe(1).f_globals if scope is None else scope
    exprs = {role: e for role, e in zip(ROLES, (q, k, v, mask)) if e is not None}
    values = {role: eval(e, scope) for role, e in exprs.items()}  # the page's own expressions
    html = _element(kind, steps(*(values.get(role) for role in ROLES)), fallback)
    EMBEDDED.append({"kind": kind, "exprs": exprs, "numbers": {role: flatten(x) for role, x in values.items()}})
    return html


def _element(kind: str, data: dict, fallback: str) -> str:
    payload = escape(json.dumps(data, ensure_ascii=False, allow_nan=False), quote=True)
    return f'<div class="tl-{kind}" data-attention="{payload}"><p class="tl-fallback">{escape(fallback)}</p></div>'


def golden_cases(q, k, v, cases=(), *, mask=None, randoms: int = 20, seed: int = 10) -> list[dict]:
    """Edits of q₀ and of V's third row with tinylm's answers, for the exercise widget's test.

    The example itself ("原例"), then the caller's named `cases` — (name, q0, v2), None keeping
    that row as it is, e.g. a lesson's exercises — then `randoms` random edits. `mask` as in `steps`.
    """
    edits = [("原例", None, None), *cases]
    gen = torch.Generator().manual_seed(seed)
    for i in range(randoms):
        rand = (torch.rand(4, generator=gen, dtype=torch.float64) * 8 - 4).round(decimals=3)
        edits.append((f"随机 {i}", rand[:2], rand[2:]))
    out = []
    for name, q0, v2 in edits:
        qq, vv = q.detach().double().clone(), v.detach().double().clone()
        if q0 is not None:
            qq[0] = torch.as_tensor(q0, dtype=torch.float64)
        if v2 is not None:
            vv[2] = torch.as_tensor(v2, dtype=torch.float64)
        s = steps(qq, k, vv, mask)
        out.append({"name": name, "q0": qq[0].tolist(), "v2": vv[2].tolist(),
                    "weights": s["weights"], "output": s["output"]})
    return out
