"""A lesson page file checked outside a build (by scripts/bound_numbers.py and the tests): its
numbers scanned, its annotations evaluated by the engine, every written number paired with its
live value."""

from __future__ import annotations

from pathlib import Path

from coursekit import engine, guard, scan


def lesson_pages(root: Path) -> list[Path]:
    return sorted((root / "docs/lessons").glob("[0-9]*.md"))


def check(build: engine.Build, root: Path, path: Path, text: str | None = None) -> tuple[guard.Scan, list[guard.Bound], int]:
    """(scan with its problems, bound numbers, offset of the body in the file) of one lesson page."""
    text = path.read_text(encoding="utf-8") if text is None else text
    _, fm_lines = scan.front_matter(text)
    offset = len("\n".join(text.split("\n")[:fm_lines])) + 1 if fm_lines else 0
    found = guard.scan_page(path.relative_to(root).as_posix(), text[offset:], fm_lines + 1)
    session = "l" + path.name.split("-")[0]
    exprs = sorted({a.expr for a in found.annotations if a.expr})
    values = dict(zip(exprs, build.evaluate(session, exprs))) if exprs else {}
    return found, guard.bind(found, values), offset
