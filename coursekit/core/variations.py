"""How a lesson's inputs may vary, as its data file declares (`lessons/lNN/variations.toml`,
VARIATIONS, beside its code: test and tool settings, not what the lesson is), and the lesson run
again with them changed.

The data file holds three lists of tables, each optional:

- `[[input_changes]]` (`file` in the repository, `old` text, `new` text): two expressions that agree
  in the lesson and still agree after the change stand for one quantity: `len(q)` and `len(v)` both
  count the positions, while `weights[0, 0]` and `weights[0, 2]` are equal only in this example.
  scripts/bound_numbers.py --bind uses them to settle a tie between such candidates, and
  scripts/bench_bind.py to check a proposal against the author's own expression;
- `[[check_changes]]`, the same, only for the bench's check (--bind never sees them);
- `[[widget_cases]]` (`name`, and `q0`, `v2`: the exercise widget's q₀ and third row of V after the
  edit, either left out when unchanged): the edits the browser tests try on the lesson's exercise.

Each is read into a frozen record; an entry that is no such record is an error naming the data file
and the entry's line. The changed lesson runs in a throwaway copy of the tree with its asserts off
(they check the lesson's own numbers).
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from coursekit.core import engine

NEEDED = ("lessons", "tinylm", "coursekit", "docs")  # what a lesson run reads
VARIATIONS = "variations.toml"  # in a lesson's folder


class ChangeError(ValueError):
    """A declared variation that is no record, or a change that can't be made: `file:line: message`."""


@dataclass(frozen=True)
class Change:
    """Replace the first `old` in `file` (a path in the repository) by `new`."""

    file: str
    old: str
    new: str
    line: int  # of the data file


@dataclass(frozen=True)
class WidgetCase:
    """An edit of the exercise widget: q₀ and V's third row after it (None: left as it is)."""

    name: str
    q0: tuple[float, ...] | None
    v2: tuple[float, ...] | None
    line: int


@dataclass(frozen=True)
class Declared:
    input_changes: tuple[Change, ...] = ()
    check_changes: tuple[Change, ...] = ()
    widget_cases: tuple[WidgetCase, ...] = ()


KINDS = {"input_changes": ("file", "old", "new"), "check_changes": ("file", "old", "new"),
         "widget_cases": ("name", "q0", "v2")}


def variations_file(folder: str) -> str:
    return f"{folder}/{VARIATIONS}"


def declared(root: Path, folder: str) -> Declared:
    """What the lesson in `folder` (lessons/l10) declares in its data file: nothing without one."""
    data = variations_file(folder)
    try:
        text = (root / data).read_text(encoding="utf-8")
    except FileNotFoundError:
        return Declared()
    try:
        tables = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        at = re.search(r"at line (\d+)", str(err))
        raise ChangeError(f"{data}:{at.group(1) if at else 1}: 不是合法的 TOML（{err}）") from None
    headers = _headers(text)
    for kind in tables:
        if kind not in KINDS:
            raise ChangeError(f"{data}:{_first_line(text, kind)}: 不认得 {kind}：只写 "
                              + "、".join(f"[[{k}]]" for k in KINDS))
    found: dict[str, tuple] = {}
    for kind, fields in KINDS.items():
        entries = tables.get(kind, [])
        lines = headers.get(kind, [])
        if not isinstance(entries, list) or len(lines) != len(entries):
            raise ChangeError(f"{data}:{_first_line(text, kind)}: {kind} 每一项写成一节 [[{kind}]]，下面每行一个字段："
                              + "、".join(fields))
        found[kind] = tuple(_record(kind, entry, line, data) for entry, line in zip(entries, lines))
    return Declared(**found)


def _record(kind: str, entry: dict, line: int, data: str) -> Change | WidgetCase:
    fields = KINDS[kind]
    where = f"{data}:{line}: [[{kind}]]"
    odd = sorted(set(entry) - set(fields))
    if odd:
        raise ChangeError(f"{where} 里不认得 {'、'.join(odd)}：只写 {'、'.join(fields)}")
    if kind == "widget_cases":
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ChangeError(f"{where} 要有 name（题名，如 \"第 1 题\"）")
        vectors = {}
        for key in ("q0", "v2"):
            value = entry.get(key)
            if value is not None and not (isinstance(value, list) and value
                                          and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)):
                raise ChangeError(f"{where} 的 {key} 要写成一串数，如 [3.0, 2.0]（不改就不写）")
            vectors[key] = tuple(float(x) for x in value) if value is not None else None
        if vectors["q0"] is None and vectors["v2"] is None:
            raise ChangeError(f"{where} 「{name}」什么都没改：写 q0 或 v2")
        return WidgetCase(name, vectors["q0"], vectors["v2"], line)
    bad = [f for f in fields if not isinstance(entry.get(f), str) or (f != "new" and not entry[f])]
    if bad:
        raise ChangeError(f"{where} 的 {'、'.join(bad)} 要写成字符串（file 是仓库里的文件，old 是原文，new 是改后）")
    return Change(entry["file"], entry["old"], entry["new"], line)


def _headers(text: str) -> dict[str, list[int]]:
    """kind -> the line of each of its [[kind]] headers, in order."""
    found: dict[str, list[int]] = {}
    for n, line in enumerate(text.split("\n"), start=1):
        m = re.match(r"\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]\s*(?:#.*)?$", line)
        if m:
            found.setdefault(m.group(1), []).append(n)
    return found


def _first_line(text: str, kind: str) -> int:
    """The first line naming `kind`, as a header ([[kind]]) or a key (kind = …)."""
    name = re.compile(rf"\s*(?:\[\[?\s*{re.escape(kind)}\s*\]|{re.escape(kind)}\s*=)")
    return next((n for n, line in enumerate(text.split("\n"), start=1) if name.match(line)), 1)


def varied(root: Path, lesson_id: str, dest: Path, declared_as: str = "input_changes") -> engine.Build | None:
    """A build over a copy of `root` at `dest` with the lesson's input_changes made (or its
    check_changes, the bench's own, which --bind never sees), or None when it declares none. A change
    whose text is not in its file is an error naming its line of the data file."""
    lesson = engine.find_lessons(root)[lesson_id]
    changes = getattr(declared(root, lesson.folder), declared_as)
    if not changes:
        return None
    for name in NEEDED:
        shutil.copytree(root / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for change in changes:
        path = dest / change.file
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if change.old not in text:
            raise ChangeError(f"{variations_file(lesson.folder)}:{change.line}: [[{declared_as}]] 要改的原文在 "
                              f"{change.file} 里找不到：{change.old}")
        path.write_text(text.replace(change.old, change.new, 1), encoding="utf-8")
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
