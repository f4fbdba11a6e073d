"""A lesson page file checked outside a build (by scripts/bound_numbers.py and the tests): its
numbers scanned, its annotations evaluated by the engine, every written number paired with its
live value. What is proposed for the numbers left unbound is coursekit.core.proposer's."""

from __future__ import annotations

from pathlib import Path

from coursekit.core import engine, guard, pagetext, scan
from coursekit.extensions import checks, facts
from coursekit.extensions.facts import EXAMPLE_EDITS


def lesson_pages(root: Path) -> list[Path]:
    return sorted((root / "docs/lessons").glob("[0-9]*.md"))


def site_pages(root: Path) -> list[Path]:
    """Every Markdown page of the site: lessons first, then the rest."""
    lessons = lesson_pages(root)
    return lessons + sorted(p for p in (root / "docs").rglob("*.md") if p not in lessons)


Checked = tuple[guard.Scan, list[guard.Bound], int]


def check(build: engine.Build, root: Path, path: Path, text: str | None = None) -> Checked:
    """(scan with its problems, bound numbers, offset of the body in the file) of one page: a
    lesson's page binds to its lesson, another page to the lesson it names or to the kit's numbers."""
    rel = path.relative_to(root).as_posix()
    text = pagetext.read(path) if text is None else text
    lesson_id = lesson(build, root, path, text)
    if lesson_id is None:
        return _bind(rel, text, facts.evaluate)
    return _bind(rel, text, lambda exprs: build.evaluate(lesson_id, exprs))


def lesson(build: engine.Build, root: Path, path: Path, text: str | None = None) -> str | None:
    """The lesson a page file (or `text` in its place) binds to: its own, or the one its front matter
    names, if the course has it."""
    text = pagetext.read(path) if text is None else text
    fm, _, body = scan.front_matter(text)
    lesson_id = checks.page_lesson(path.relative_to(root).as_posix(), body, fm)
    return lesson_id if lesson_id in build.lessons else None


def _bind(rel: str, text: str, evaluate_all) -> Checked:
    """The page at `rel` with source `text`: scanned, its expressions evaluated by `evaluate_all`, bound."""
    _, fm_lines, body = scan.front_matter(text)
    found = guard.scan_page(rel, body, fm_lines + 1)
    exprs = found.expressions
    values = dict(zip(exprs, evaluate_all(exprs))) if exprs else {}
    return found, guard.bind(found, values), len(text) - len(body)


def check_example(text: str | None = None) -> Checked:
    """check() for the example lesson: its page (or `text` in its place) against its experiments,
    run here in plain Python."""
    import contextlib
    import io
    import runpy

    from coursekit import example
    from coursekit.core.worker import evaluate

    root = Path(example.__file__).resolve().parents[2]
    text = pagetext.read(example.PAGE) if text is None else text
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for name, _ in example.EXPERIMENTS:
            scope.update(runpy.run_path(str(example.PAGE.with_name(f"{name}.py"))))
    return _bind(example.PAGE.relative_to(root).as_posix(), text, lambda exprs: [evaluate(e, scope) for e in exprs])


def example_messages() -> list[str]:
    """The guard's messages for EXAMPLE_EDITS of the example lesson (the kit's own, whatever lessons
    the course has)."""
    from coursekit import example

    text = pagetext.read(example.PAGE)
    out = []
    for old, new in EXAMPLE_EDITS:
        if old not in text:
            raise ValueError(f"示例改动找不到原文：{old}")
        found, _, _ = check_example(text.replace(old, new, 1))
        out += [p.format() for p in found.problems]
    return out
