"""The kit for the next lesson: a lesson made from the template works with no change to the tooling."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup

from tests.conftest import mkdocs_build
from tests.conftest import edit

PAGE = "docs/lessons/99-fixture.md"


def new_lesson(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/new_lesson.py", "99", "fixture", "测试讲：模板能用吗"],
                          cwd=repo, capture_output=True, text=True)


@pytest.fixture(scope="module")
def lesson99(tmp_path_factory):
    """A repository copy with a test-only lesson 99 made from the template, built once."""
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("l99") / "repo")
    made = new_lesson(repo)
    assert made.returncode == 0, made.stderr
    result = mkdocs_build(repo, repo / "site")
    assert result.returncode == 0, result.stderr
    return repo


def test_the_template_lessons_companion_code_runs(lesson99):
    run = subprocess.run([sys.executable, "-m", "lessons.l99"], cwd=lesson99, capture_output=True, text=True)
    assert run.returncode == 0 and "tensor(2.3333)" in run.stdout and "全部核对通过" in run.stdout


def test_the_template_lesson_page_is_executed_at_build(lesson99):
    soup = BeautifulSoup((lesson99 / "site/lessons/99-fixture/index.html").read_text(encoding="utf-8"), "html.parser")
    assert soup.select_one("h1").get_text().startswith("99｜测试讲：模板能用吗")
    assert "tensor(2.3333)" in soup.select_one("div.language-output").get_text()
    assert soup.select_one("aside.tl-repro") is not None


def test_the_template_lessons_notebook_is_built_and_executed(lesson99):
    nb = nbformat.read(lesson99 / "site/lessons/99-notebook/99-notebook.ipynb", as_version=4)
    outputs = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert any("tensor(2.3333)" in o for o in outputs)


def test_the_template_lesson_and_its_notebook_are_in_the_navigation(lesson99):
    soup = BeautifulSoup((lesson99 / "site/index.html").read_text(encoding="utf-8"), "html.parser")
    nav = {a.get_text(" ", strip=True): a.get("href") for a in soup.select("nav.md-nav--primary a.md-nav__link[href]")}
    assert nav.get("正文") and any(h.endswith("lessons/99-fixture/") for h in nav.values())
    assert any(h.endswith("lessons/99-notebook/") for h in nav.values())
    assert "第 99 讲 · 测试讲" in soup.select_one("nav.md-nav--primary").get_text()


def test_the_drift_guard_checks_the_template_lesson(lesson99, tmp_path):
    line = edit(lesson99, PAGE, "平均约为 2.3333", "平均约为 2.3343")
    try:
        result = mkdocs_build(lesson99, tmp_path / "site")
    finally:
        edit(lesson99, PAGE, "平均约为 2.3343", "平均约为 2.3333")
    assert result.returncode != 0
    assert f"{PAGE}:{line}: 数字漂移：正文写 2.3343，代码现算 2.33333" in result.stderr


def test_making_a_lesson_that_exists_refuses_and_changes_nothing(lesson99):
    before = (lesson99 / "mkdocs.yml").read_text(encoding="utf-8")
    again = new_lesson(lesson99)
    assert again.returncode != 0 and "已存在，不覆盖" in again.stderr
    assert (lesson99 / "mkdocs.yml").read_text(encoding="utf-8") == before
