"""A lesson run again with its inputs changed, as its package declares (INPUT_CHANGES: a list of
(file in the repository, text, what it becomes)). Two expressions that agree in the lesson and
still agree after the change stand for one quantity: `len(q)` and `len(v)` both count the
positions, while `weights[0, 0]` and `weights[0, 2]` are equal only in this example.

scripts/bound_numbers.py --bind uses it to settle a tie between such candidates, and
scripts/bench_bind.py to check a proposal against the author's own expression. The changed lesson
runs in a throwaway copy of the tree with its asserts off (they check the lesson's own numbers).
"""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

from coursekit.core import engine

NEEDED = ("lessons", "tinylm", "coursekit", "docs")  # what a lesson run reads


class ChangeError(ValueError):
    pass


def varied(root: Path, lesson_id: str, dest: Path, declared: str = "INPUT_CHANGES") -> engine.Build | None:
    """A build over a copy of `root` at `dest` with the lesson's INPUT_CHANGES made (or its
    CHECK_CHANGES, the bench's own, which --bind never sees), or None when it declares none. A change
    whose text is not in its file is an error naming the lesson's file."""
    lesson = engine.find_lessons(root)[lesson_id]
    changes = lesson.check_changes if declared == "CHECK_CHANGES" else lesson.input_changes
    if not changes:
        return None
    for name in NEEDED:
        shutil.copytree(root / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for file, old, new in changes:
        path = dest / file
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if old not in text:
            raise ChangeError(f"{lesson.folder}/__init__.py: {declared} 要改的原文在 {file} 里找不到：{old}")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return _Unchecked(dest)


class _Unchecked(engine.Build):
    """A build whose lessons run with their asserts off (python -O): the zygote it starts inherits it."""

    def run(self, lesson_id: str) -> engine.Run:
        before = os.environ.get("PYTHONOPTIMIZE")
        os.environ["PYTHONOPTIMIZE"] = "1"
        try:
            return super().run(lesson_id)
        finally:
            os.environ.pop("PYTHONOPTIMIZE") if before is None else os.environ.__setitem__("PYTHONOPTIMIZE", before)


def values(build: engine.Build, lesson_id: str, exprs: list[str]) -> dict[str, list[float] | None]:
    """Each expression's numbers in `build`'s run of the lesson (None when it fails there)."""
    return {e: v.get("numbers") if "error" not in v else None for e, v in zip(exprs, build.evaluate(lesson_id, exprs))}


def same(a: list[float] | None, b: list[float] | None) -> bool:
    """Equal numbers (NaN equal to NaN), not merely equal when rounded."""
    if a is None or b is None or len(a) != len(b):
        return False
    return all((math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
               for x, y in zip(a, b))
