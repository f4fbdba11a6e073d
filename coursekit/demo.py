"""Data for the lesson's step-through demo and live exercises, computed by tinylm at build time.

The page embeds it as JSON; docs/assets/attention-demo.js only lays it out (the demo) or redoes
the same arithmetic on the reader's edits (the exercises), which the browser tests compare with
`golden_cases()`.
"""

from __future__ import annotations

import json
from html import escape

import torch

from tinylm import attention_steps


def steps(q, k, v) -> dict:
    """Every stage of attention(q, k, v), row by row, as plain lists: tinylm's own numbers."""
    q, k, v = (t.detach().double() for t in (q, k, v))
    s = attention_steps(q, k, v)
    return {
        "q": q.tolist(), "k": k.tolist(), "v": v.tolist(), "d": q.shape[-1],
        "dots": s.dots.tolist(), "scores": s.scores.tolist(), "exps": s.exps.tolist(),
        "sums": s.sums.tolist(), "weights": s.weights.tolist(), "output": s.output.tolist(),
    }


def embed(kind: str, data: dict, fallback: str) -> str:
    """The element the script turns into the demo or the exercise; `fallback` shows without it."""
    payload = escape(json.dumps(data, ensure_ascii=False), quote=True)
    return f'<div class="tl-{kind}" data-attention="{payload}"><p class="tl-fallback">{escape(fallback)}</p></div>'


def golden_cases(q, k, v, randoms: int = 20, seed: int = 10) -> list[dict]:
    """Edits of q₀ and of V's third row with tinylm's answers: the article, both exercises, random."""
    cases = [("原例", q[0], v[2]), ("第 1 题", q[0], torch.tensor([3., 2.])),
             ("第 2 题", torch.zeros(2), v[2])]
    gen = torch.Generator().manual_seed(seed)
    for i in range(randoms):
        rand = (torch.rand(4, generator=gen, dtype=torch.float64) * 8 - 4).round(decimals=3)
        cases.append((f"随机 {i}", rand[:2], rand[2:]))
    out = []
    for name, q0, v2 in cases:
        qq, vv = q.detach().double().clone(), v.detach().double().clone()
        qq[0], vv[2] = q0.double(), v2.double()
        s = steps(qq, k, vv)
        out.append({"name": name, "q0": qq[0].tolist(), "v2": vv[2].tolist(),
                    "weights": s["weights"], "output": s["output"]})
    return out



