"""What the docs say about the guard is what the guard says: its example messages are produced by it;
and the project never leans on its tests."""

import re

from bs4 import BeautifulSoup

from coursekit import pages
from tests.conftest import ROOT


def test_the_readme_quotes_the_guards_own_messages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("These are the guard's own")[1].split("```text\n")[1].split("```")[0]
    assert block.strip().split("\n") == pages.example_messages(ROOT)


def test_the_authoring_page_shows_the_messages_the_build_produced(built_site):
    html = (built_site / "authoring/index.html").read_text(encoding="utf-8")
    text = BeautifulSoup(html, "html.parser").select_one("article").get_text()
    for message in pages.example_messages(ROOT):
        assert message in text, message
    assert not re.search(r"check\(|illustrative\(", text)


def test_nothing_outside_tests_imports_from_tests():
    """Scripts, the build tooling and the course import from the project; only tests import tests."""
    import ast

    offenders = []
    for folder in ("scripts", "coursekit", "lessons", "tinylm", ".github/scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                offenders += [f"{path.relative_to(ROOT)}:{node.lineno}" for n in names if n.split(".")[0] == "tests"]
    assert offenders == []
