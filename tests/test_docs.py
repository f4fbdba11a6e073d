"""What the docs say about the guard is what the guard says: its example messages are produced by it;
and the project never leans on its tests."""

import re

import pytest
from bs4 import BeautifulSoup

from coursekit.extensions import authoring
from tests.conftest import ROOT


def test_the_example_lesson_is_clean_and_each_example_edit_gets_one_message_at_its_line():
    found, bound, _ = authoring.check_example()
    assert found.problems == [] and len(bound) >= 10 and all(b.agrees for b in bound)
    from coursekit import example

    text = example.PAGE.read_text(encoding="utf-8")
    messages = authoring.example_messages()
    assert len(messages) == len(authoring.EXAMPLE_EDITS)
    for (old, _), message in zip(authoring.EXAMPLE_EDITS, messages):
        line = text[: text.index(old)].count("\n") + 1
        assert message.startswith(f"coursekit/example/lesson.md:{line}: "), message
    drift, unbound, count = messages  # what each edit stands for: drift, a new number, a count mismatch
    assert "数字漂移：正文写 5.0526" in drift and "未绑定的数字 -0.3" in unbound and "表达式 output 给出 6 个值" in count


def test_the_guards_examples_do_not_depend_on_any_lesson(tmp_path):
    """The examples come from the kit's own lesson: a course without lessons gets the same ones."""
    import subprocess
    import sys

    code = "from coursekit.extensions.authoring import example_messages; print('\\n'.join(example_messages()))"
    alone = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.strip().split("\n") == authoring.example_messages()
    assert "docs/lessons/" not in alone.stdout


def test_the_kits_readme_quotes_the_guards_own_messages():
    readme = (ROOT / "coursekit/README.md").read_text(encoding="utf-8")
    block = readme.split("These are the guard's own")[1].split("```text\n")[1].split("```")[0]
    assert block.strip().split("\n") == authoring.example_messages()


def test_the_readme_is_short_and_opens_with_the_two_commands():
    """A newcomer reads it in five minutes: at most 150 lines, none long, the two commands first."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 150 and max(map(len, lines)) <= 110
    fences = re.findall(r"^```\w*\n(.*?)^```$", "\n".join(lines), flags=re.M | re.S)
    assert [f.strip() for f in fences[:2]] == ["bash scripts/serve.sh", "bash scripts/test.sh"]


@pytest.mark.build
def test_the_authoring_page_shows_the_messages_the_build_produced(built_site):
    html = (built_site / "authoring/index.html").read_text(encoding="utf-8")
    text = BeautifulSoup(html, "html.parser").select_one("article").get_text()
    for message in authoring.example_messages():
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
