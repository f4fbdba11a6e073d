"""Each lesson's notebook: its experiment files as cells, with the outputs of the build's own run."""

import json

import nbformat
import pytest
from bs4 import BeautifulSoup

from coursekit.engine import find_lessons
from tests.conftest import ROOT, edit, mkdocs_build
from tests.test_lesson_l10 import run_lesson

LESSONS = find_lessons(ROOT)


@pytest.fixture(scope="module")
def notebook(built_site):
    return nbformat.read(built_site / "lessons/10-notebook/10-notebook.ipynb", as_version=4)


def test_the_notebook_page_shows_every_experiment_with_the_commands_output(built_site):
    soup = BeautifulSoup((built_site / "lessons/10-notebook/index.html").read_text(encoding="utf-8"), "html.parser")
    outputs = [o.get_text() for o in soup.select("article .language-output pre")]
    stdout = run_lesson(ROOT).stdout
    assert len(outputs) == len(LESSONS["l10"].experiments)
    assert all(o.strip() and o.strip() in stdout for o in outputs), outputs
    titles = [h.get_text().strip("¶ ") for h in soup.select("article h2")]
    assert titles == [title for _, title in LESSONS["l10"].experiments]


def test_the_ipynb_can_be_downloaded_and_has_no_timestamps(built_site, notebook):
    page = BeautifulSoup((built_site / "lessons/10-notebook/index.html").read_text(encoding="utf-8"), "html.parser")
    assert page.select_one("a[download]")["href"] == "10-notebook.ipynb"
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert "execution" not in json.dumps([c.metadata for c in code])


def test_notebook_cells_are_the_experiment_files_whole(notebook):
    for cell in notebook.cells:
        file = cell.metadata.get("source_file")
        if not file:
            continue
        source = (ROOT / file).read_text(encoding="utf-8")
        body = "\n".join(line for line in source.split("\n") if "--8<--" not in line)
        assert cell.source in body, file  # the file after its docstring, its imports included


def test_the_downloaded_notebook_runs_on_its_own_and_prints_what_it_shows(notebook, tmp_path):
    from nbclient import NotebookClient

    fresh = nbformat.from_dict(json.loads(json.dumps(notebook)))
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(fresh, timeout=300, resources={"metadata": {"path": str(ROOT / "lessons")}}).execute()
    ran = ["".join(o.get("text", "") for o in c.outputs) for c in fresh.cells if c.cell_type == "code"]
    shown = ["".join(o.get("text", "") for o in c.outputs) for c in notebook.cells if c.cell_type == "code"]
    assert ran == shown


def test_an_experiment_that_raises_fails_the_build_naming_page_file_and_line(repo_copy, tmp_path):
    line = edit(repo_copy, "lessons/l10/projections.py", "pair_k = pair_x @ key_projection.T",
                "pair_k = pair_x @ key_projection.T[:1]")
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    assert f"docs/lessons/10-attention.md:5: 本讲的代码运行失败（lessons/l10/projections.py:{line}）" \
        in result.stderr, result.stderr


def test_the_page_the_notebook_and_the_command_show_one_run(built_site, notebook, lesson_html):
    page = [c.get_text() for c in BeautifulSoup(lesson_html, "html.parser").select("div.language-output pre code")]
    cells = "".join(o.get("text", "") for c in notebook.cells if c.cell_type == "code" for o in c.outputs)
    stdout = run_lesson(ROOT).stdout
    assert page and all(block in cells and block in stdout for block in page)
