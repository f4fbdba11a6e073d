"""The test harness: a lesson as the tests read it, with what its page asks of the site (its
title, its built HTML, the widgets it embeds and whether they sit in a folded block), so a test
parametrized over the lessons runs for the lessons that need it. What the tests drive (builds,
copies, serve, Chromium) is scripts/drive.py, which the benchmarks drive too."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import yaml

from scripts.drive import ROOT, CourseLesson, course_lessons


@dataclasses.dataclass(frozen=True)
class Lesson(CourseLesson):
    """One lesson of the tree, with what the tests read of its page."""

    @property
    def title(self) -> str:
        """The page's title as its front matter gives it."""
        m = re.search(r"^title:[ \t]*(.+)$", self.markdown().split("\n---", 1)[0], re.M)
        title = m.group(1).strip() if m else ""
        return title[1:-1] if len(title) >= 2 and title[0] == title[-1] and title[0] in "\"'" else title

    def html(self, site: Path) -> str:
        return (site / self.url / "index.html").read_text(encoding="utf-8")

    def embeds(self, kind: str) -> bool:
        """The page embeds a widget of lessons.demo: "demo" (step-through) or "exercise"."""
        return re.search(rf"""\b(?:widget|embed)\(\s*["']{kind}["']""", self.markdown()) is not None

    @property
    def has_demo(self) -> bool:
        return self.embeds("demo")

    def embed_calls(self, kind: str) -> list[tuple[int, str]]:
        """Each `widget("<kind>", …)` (or bare `embed("<kind>", …)`) call in the page's Markdown: the
        line it starts on (0-based) and its text up to its closing parenthesis (the rest of its line
        if that can't be read)."""
        import io
        import tokenize

        text, calls = self.markdown(), []
        for m in re.finditer(rf"""\b(?:widget|embed)\(\s*["']{kind}["']""", text):
            rest, depth, end = text[m.start():], 0, None
            try:
                for tok in tokenize.generate_tokens(io.StringIO(rest).readline):
                    if tok.type == tokenize.OP and tok.string in "([{":
                        depth += 1
                    elif tok.type == tokenize.OP and tok.string in ")]}":
                        depth -= 1
                        if depth == 0:
                            end = tok.end
                            break
            except (tokenize.TokenError, SyntaxError):
                pass
            lines = rest.split("\n")
            call = "\n".join(lines[:end[0] - 1] + [lines[end[0] - 1][:end[1]]]) if end else lines[0]
            calls.append((text.count("\n", 0, m.start()), call))
        return calls

    def embeds_masked(self, kind: str) -> bool:
        """The page embeds a widget of that kind computed with a mask: `widget(kind, …, mask="mask")`,
        or `steps(q, k, v, mask=…)` (or `steps(q, k, v, mask)`) inside an `embed(...)` call itself."""
        import ast

        for _, call in self.embed_calls(kind):
            try:
                tree = ast.parse(call.strip())
            except SyntaxError:
                if re.search(r"\bmask\s*=\s*(?!None\b)", call):
                    return True
                continue
            for node in ast.walk(tree):
                func = getattr(node, "func", None)
                name = getattr(func, "id", getattr(func, "attr", ""))
                if isinstance(node, ast.Call) and name in ("steps", "widget"):
                    given = node.args[3:4] if name == "steps" else []
                    given += [kw.value for kw in node.keywords if kw.arg == "mask"]
                    if any(not (isinstance(g, ast.Constant) and g.value is None) for g in given):
                        return True
        return False

    def folds(self, kind: str) -> bool:
        """A widget of that kind sits in a folded block (`??? …`, not `???+ …`, the nearest block
        around it by indentation), so the page builds it only when the reader opens the block."""
        lines = self.markdown().split("\n")
        for start, _ in self.embed_calls(kind):
            indent = len(lines[start]) - len(lines[start].lstrip())
            for line in reversed(lines[:start]):
                depth = len(line) - len(line.lstrip())
                if not line.strip() or depth >= indent:
                    continue
                if re.match(r"\s*\?\?\?\+?(\s|$)", line):
                    if not line.lstrip().startswith("???+"):
                        return True
                    break
                indent = depth
                if depth == 0:
                    break
        return False


def lessons(root: Path = ROOT) -> list[Lesson]:
    """Every lesson of the tree at `root`, in course order (scripts.drive.course_lessons), as the tests read it."""
    return [Lesson(**{f.name: getattr(found, f.name) for f in dataclasses.fields(found)})
            for found in course_lessons(root)]


class _Tolerant(yaml.SafeLoader):
    """YAML with its tags (mkdocs.yml's !ENV, !!python/name) read as nothing."""


_Tolerant.add_multi_constructor("", lambda loader, suffix, node: None)


def site_config(root: Path = ROOT) -> dict:
    """mkdocs.yml as plain data, its tags read as nothing (MkDocs itself would import the hooks)."""
    return yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Tolerant)
