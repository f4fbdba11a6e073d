"""What a lesson page shows that code produced, held to a reviewed record beside the lesson.

A lesson page's listings (`file="…"`), what they printed, and what its executed blocks put on the
page (figures, demos) come from shared code: `tinylm`, earlier lessons, the kit. When a later
lesson changes that code, an earlier page would change under prose that no longer fits it. So each
lesson keeps `lessons/lNN/reviewed.json`: every such block of its page, in page order, as a
reviewer last confirmed it. A build compares what the page shows now with that record; each
difference is a problem at the block's line (kind "listing"), naming the block and the first
changed line, until the author has read the page and runs

    python scripts/confirm_shown.py docs/lessons/NN-slug.md

which rebuilds and writes what the page shows now into the record (a diff a reviewer sees in the
pull request). A lesson with no record fails too: `new_lesson.py` copies one for the template.

Builder-neutral: the Markdown extension and the fence call it; no MkDocs here.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from coursekit.core import engine, guard

RECORD = "reviewed.json"
# Set by scripts/confirm_shown.py for the build whose result it records: the comparison is skipped
# and the page's current blocks are written under the cache instead.
CONFIRMING = "COURSEKIT_CONFIRMING"
CONFIRM = "python scripts/confirm_shown.py"
CONTEXT = 24  # characters shown either side of the first difference in a line


@dataclass
class Shown:
    line: int  # the block's line on the page
    block: str  # "lessons/l10/attention_2d.py:listing", or "执行的代码块" for a block that runs
    code: str  # the code shown (a listing) or run (an executed block)
    output: str  # what it printed, as the page shows it (text, Markdown or HTML)

    @property
    def key(self) -> str:
        """What names the block across edits of the prose: its file and section, or its own code."""
        return self.block if self.block != EXECUTED else f"{EXECUTED}\n{self.code}"

    def entry(self) -> dict:
        return {"block": self.block, "code": self.code, "output": self.output}

    @classmethod
    def from_entry(cls, entry: dict) -> Shown:
        """A block as the record holds it (its line is not recorded: prose edits move it)."""
        return cls(0, entry["block"], entry["code"], entry["output"])


EXECUTED = "执行的代码块"


def record_path(root: Path, page: str) -> Path | None:
    lesson = engine.lesson_of(page)
    return None if lesson is None else root / "lessons" / lesson / RECORD


def current_path(root: Path, page: str) -> Path:
    """Where a confirming build leaves what the page shows now."""
    return root / ".cache/coursekit/shown" / f"{engine.lesson_of(page)}.json"


def as_record(page: str, shown: list[Shown]) -> str:
    """The record's text: deterministic, one block per entry, readable in a diff."""
    data = {"page": page, "shown": [s.entry() for s in shown]}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def finish(root: Path, page: str, shown: list[Shown]) -> list[guard.Problem]:
    """At the end of a lesson page: the problems against its record, or (confirming) save it."""
    if os.environ.get(CONFIRMING):
        path = current_path(root, page)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(as_record(page, shown), encoding="utf-8")
        return []
    return compare(root, page, shown)


def compare(root: Path, page: str, shown: list[Shown]) -> list[guard.Problem]:
    path = record_path(root, page)
    if path is None:
        return []
    confirm = f"看过这一页的正文后，运行 {CONFIRM} {page} 确认"
    rel = path.relative_to(root).as_posix()
    if not path.is_file():
        return [guard.Problem(page, 1, f"这一讲还没有确认过的清单记录 {rel}：{confirm}", kind="listing")]
    try:
        recorded = [Shown.from_entry(e) for e in json.loads(path.read_text(encoding="utf-8"))["shown"]]
    except (ValueError, KeyError, TypeError) as err:
        return [guard.Problem(rel, 1, f"清单记录读不了（{err}）：运行 {CONFIRM} {page} 重新生成", kind="listing")]
    problems = []
    unmatched = recorded
    for now in shown:
        was = next((r for r in unmatched if r.key == now.key), None)
        if was is None:
            problems.append(guard.Problem(page, now.line, f"{_name(now)}是新的，还没有确认：{confirm}", kind="listing"))
            continue
        unmatched.remove(was)
        for part, old, new in (("代码", was.code, now.code), ("输出", was.output, now.output)):
            if old != new:
                problems.append(guard.Problem(
                    page, now.line, f"{_name(now)}的{part}与确认过的记录不同（{difference(old, new)}）：{confirm}",
                    kind="listing"))
    for gone in unmatched:
        problems.append(guard.Problem(page, 1, f"{_name(gone)}已不在页面上（记录在 {rel} 里）：{confirm}", kind="listing"))
    return problems


def _name(s: Shown) -> str:
    if s.block == EXECUTED:
        first = next((line for line in s.code.split("\n") if line.strip()), "")
        return f"执行的代码块「{first.strip()[:40]}」"
    return f"代码清单 {s.block} "


def difference(old: str, new: str) -> str:
    """The first line that differs, old → new, cut to the part around the first changed character."""
    a, b = old.split("\n"), new.split("\n")
    n = next((i for i in range(max(len(a), len(b))) if i >= len(a) or i >= len(b) or a[i] != b[i]), 0)
    before = a[n] if n < len(a) else "（没有这一行）"
    after = b[n] if n < len(b) else "（没有这一行）"
    at = next((i for i, (x, y) in enumerate(zip(before, after)) if x != y), min(len(before), len(after)))
    start = max(0, at - CONTEXT)

    def cut(s: str) -> str:
        piece = s[start:at + CONTEXT]
        return ("…" if start else "") + piece + ("…" if len(s) > at + CONTEXT else "")

    total = abs(len(a) - len(b))
    more = f"，行数 {len(a)} → {len(b)}" if total else ""
    return f"第 {n + 1} 行「{cut(before)}」→「{cut(after)}」{more}"
