"""The kit's own numbers that its pages state (如何写一讲 and other pages outside a lesson): such a page binds
to these names, `最多运行 60 秒{=TIME_LIMIT}`, so the page follows the kit when a limit changes.
A page that belongs to a lesson (front matter `session: l10`) binds to that lesson's names instead."""

from coursekit.example import EXAMPLE_EDITS
from coursekit.extensions.crossref import MAX_SUMMARY
from coursekit.core.engine import OUTPUT_LIMIT, TIME_LIMIT
from coursekit.extensions.fence import RUN

__all__ = ["EXAMPLE_EDITS", "MAX_SUMMARY", "OUTPUT_LIMIT", "RUN", "TIME_LIMIT"]


def evaluate(exprs: list[str]) -> list[dict]:
    """Each expression's value among these names, as the engine answers for a lesson's."""
    from coursekit.core.worker import evaluate as one

    scope = {name: globals()[name] for name in __all__}
    out = []
    for e in exprs:
        answer = one(e, dict(scope))
        if "error" in answer:
            answer = {"error": f"{answer['error']}（这一页不属于哪一讲：表达式在 coursekit/extensions/facts.py 的名字"
                               f"（{'、'.join(__all__)}）里计算；要用某一讲的量，在页面开头的 front matter 写 session: lNN）"}
        out.append(answer)
    return out
