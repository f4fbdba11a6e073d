"""A lesson page file checked outside a build (by scripts/bound_numbers.py and the tests): its
numbers scanned, its annotations evaluated by the engine, every written number paired with its
live value."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from coursekit import engine, guard, scan


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
    from coursekit import facts

    rel = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8") if text is None else text
    session = _lesson(build, rel, text)
    if session is None:
        return _bind(rel, text, facts.evaluate)
    return _bind(rel, text, lambda exprs: build.evaluate(session, exprs))


def _lesson(build: engine.Build, rel: str, text: str) -> str | None:
    """The lesson a page file binds to (its own, or the one its front matter names), if the course has it."""
    from coursekit import extension

    fm, _, body = scan.front_matter(text)
    session = extension._session(rel, body, fm)
    return session if session in build.lessons else None


@dataclass
class Proposal:
    line: int
    tokens: list  # the written run (guard.Token)
    exprs: list[str]  # candidates, best first
    sure: bool  # the first is the single best by the ranking rules

    @property
    def written(self) -> list[str]:
        return [t.text for t in self.tokens]


def proposals(build: engine.Build, root: Path, path: Path, found: guard.Scan) -> list[Proposal]:
    """A proposal for each run of unbound numbers of a checked page that binds to a lesson
    (coursekit.candidates); a run of several numbers that no single value matches is also tried
    number by number."""
    session = _lesson(build, path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"))
    if session is None:
        return []
    runs = guard.unbound_runs(found)
    queries = [([t.text for t in run], names) for run, names in runs]
    answers = build.candidates(session, queries)
    singles = [(t, names) for (run, names), (got, _) in zip(runs, answers) if not got and len(run) > 1 for t in run]
    single_answers = build.candidates(session, [([t.text], names) for t, names in singles])
    out = [Proposal(found.line(run[0].start), run, got, ok) for (run, _), (got, ok) in zip(runs, answers) if got]
    out += [Proposal(found.line(t.start), [t], got, ok) for (t, _), (got, ok) in zip(singles, single_answers) if got]
    return sorted(out, key=lambda p: p.tokens[0].start)


def _cuts(found: guard.Scan, p: Proposal) -> bool:
    """Whether an annotation after `p`'s run would take from the next annotation of its paragraph
    numbers that one binds now (an annotation pairs with the numbers back to the previous one)."""
    end, segment = p.tokens[-1].end, p.tokens[-1].segment
    later = [a for a in found.annotations if a.segment == segment and a.start >= end]
    if not later:
        return False
    nxt = min(later, key=lambda a: a.start)
    floor = max((a.end for a in found.annotations if a.segment == segment and a.end <= end), default=-1)
    unbound = {id(t) for t in found.unbound}
    return any(floor <= t.start < end and t.segment == segment and t.claim and id(t) not in unbound
               for t in found.tokens if t.start < nxt.start)


def bind_sure(text: str, offset: int, found: guard.Scan, chosen: list[Proposal]) -> tuple[str, list[tuple[Proposal, str]]]:
    """`text` (a page file; its body starts at `offset`) with `{=expr}` written after each sure
    proposal's run, and (proposal, why) for each decision. A binding that would change what the
    reader sees (an annotation inside inline code, a title, an attribute) is not written."""
    decisions, shown = [], guard.scan_page("", text[offset:]).stripped()
    for p in sorted(chosen, key=lambda p: -p.tokens[-1].end):
        if not p.sure:
            decisions.append((p, "不写：候选并列，" + "、".join(f"{{={e}}}" for e in p.exprs[:2]) + " 排名相同"))
            continue
        if _cuts(found, p):
            decisions.append((p, "不写：写在这里会把后面那个标注要配的数截断"))
            continue
        at = offset + p.tokens[-1].end
        trial = text[:at] + f"{{={p.exprs[0]}}}" + text[at:]
        if guard.scan_page("", trial[offset:]).stripped() != shown:
            decisions.append((p, "不写：写在这里会改变页面显示的内容"))
            continue
        text = trial
        decisions.append((p, f"写 {{={p.exprs[0]}}}：唯一最好的候选"))
    return text, decisions[::-1]


def _bind(rel: str, text: str, evaluate_all) -> Checked:
    """The page at `rel` with source `text`: scanned, its expressions evaluated by `evaluate_all`, bound."""
    _, fm_lines, body = scan.front_matter(text)
    found = guard.scan_page(rel, body, fm_lines + 1)
    exprs = found.expressions
    values = dict(zip(exprs, evaluate_all(exprs))) if exprs else {}
    return found, guard.bind(found, values), len(text) - len(body)


# Edits an author might make to a lesson, made to the kit's own example lesson (coursekit/example),
# and what the guard says about them: README and 如何写一讲 show these messages, produced by the guard
# itself (the page runs this; a test compares the README).
EXAMPLE_EDITS = [
    ("分母是它们的和 5.0562{=", "分母是它们的和 5.0526{="),  # a number changed in the prose
    ("负得分也是允许的", "负得分（比如 -0.3）也是允许的"),  # a new number that nothing binds
    ("位置 0 得到新向量 [0.8022, 1.1978]{=output[0]}", "位置 0 得到新向量 [0.8022, 1.1978]{=output}"),
]


def check_example(text: str | None = None) -> Checked:
    """check() for the example lesson: its page (or `text` in its place) against its experiments,
    run here in plain Python."""
    import contextlib
    import io
    import runpy

    from coursekit import example
    from coursekit.worker import evaluate

    root = Path(example.__file__).resolve().parents[2]
    text = example.PAGE.read_text(encoding="utf-8") if text is None else text
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for name, _ in example.EXPERIMENTS:
            scope.update(runpy.run_path(str(example.PAGE.with_name(f"{name}.py"))))
    return _bind(example.PAGE.relative_to(root).as_posix(), text, lambda exprs: [evaluate(e, scope) for e in exprs])


def example_messages() -> list[str]:
    """The guard's messages for EXAMPLE_EDITS of the example lesson (the kit's own, whatever lessons
    the course has)."""
    from coursekit import example

    text = example.PAGE.read_text(encoding="utf-8")
    out = []
    for old, new in EXAMPLE_EDITS:
        if old not in text:
            raise ValueError(f"示例改动找不到原文：{old}")
        found, _, _ = check_example(text.replace(old, new, 1))
        out += [p.format() for p in found.problems]
    return out
