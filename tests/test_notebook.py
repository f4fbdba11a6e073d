"""Each lesson's notebook: its experiment files as cells, with the outputs of the build's own run."""

import json

import nbformat
import pytest
from bs4 import BeautifulSoup

from tests.conftest import ROOT, copy_repo, lesson_params
from tests.test_lessons import output_fences, printed_by_experiment, stdout_of

pytestmark = [pytest.mark.parametrize("lesson", lesson_params()), pytest.mark.build]


def notebook_of(built_site, lesson):
    return nbformat.read(built_site / lesson.ipynb, as_version=4)


def notebook_page(built_site, lesson):
    return BeautifulSoup((built_site / lesson.notebook_url / "index.html").read_text(encoding="utf-8"), "html.parser")


def test_the_notebook_page_shows_every_experiment_with_the_commands_output(built_site, lesson):
    soup = notebook_page(built_site, lesson)
    outputs = [o.get_text().strip() for o in soup.select("article .language-output pre")]
    printed = printed_by_experiment(lesson)
    assert list(printed) == [f"{lesson.folder}/{name}.py" for name, _ in lesson.experiments]
    assert outputs == [out.strip() for out in printed.values() if out.strip()]  # one box per file that prints
    titles = [h.get_text().strip("¶ ") for h in soup.select("article h2")]
    assert titles == [title for _, title in lesson.experiments]


def test_the_ipynb_can_be_downloaded_and_has_no_timestamps(built_site, lesson):
    page = notebook_page(built_site, lesson)
    assert page.select_one("a[download]")["href"] == lesson.ipynb.rsplit("/", 1)[1]
    notebook = notebook_of(built_site, lesson)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert "execution" not in json.dumps([c.metadata for c in code])


def test_notebook_cells_are_the_experiment_files_whole(built_site, lesson):
    files = []
    for cell in notebook_of(built_site, lesson).cells:
        file = cell.metadata.get("source_file")
        if not file:
            continue
        files.append(file)
        source = (ROOT / file).read_text(encoding="utf-8")
        body = "\n".join(line for line in source.split("\n") if "--8<--" not in line)
        assert cell.source in body, file  # the file after its docstring, its imports included
    assert files == [f"{lesson.folder}/{name}.py" for name, _ in lesson.experiments]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A reader's checkout (no build cache, no site), one for the lessons' notebooks, as a reader has one."""
    return copy_repo(tmp_path_factory.mktemp("reader") / "checkout")


def test_the_downloaded_notebook_runs_on_its_own_in_a_checkout_and_prints_what_it_shows(built_site, lesson, checkout):
    """Jupyter started in the checkout's lessons/ folder."""
    from nbclient import NotebookClient

    notebook = notebook_of(built_site, lesson)
    fresh = nbformat.from_dict(json.loads(json.dumps(notebook)))
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(fresh, timeout=600, resources={"metadata": {"path": str(checkout / "lessons")}}).execute()
    ran = ["".join(o.get("text", "") for o in c.outputs) for c in fresh.cells if c.cell_type == "code"]
    shown = ["".join(o.get("text", "") for o in c.outputs) for c in notebook.cells if c.cell_type == "code"]
    assert ran == shown
    assert any(shown)


def test_the_page_the_notebook_and_the_command_show_one_run(built_site, lesson):
    page = [c.get_text() for c in BeautifulSoup(lesson.html(built_site), "html.parser")
            .select("article div.language-output pre code")]
    fences = output_fences(lesson)
    assert len(page) == len(fences)
    from_files = [block for fence, block in zip(fences, page) if 'file="' in fence.info]
    cells = "".join(o.get("text", "") for c in notebook_of(built_site, lesson).cells if c.cell_type == "code"
                    for o in c.outputs)
    stdout = stdout_of(lesson)
    assert from_files and all(block in cells and block in stdout for block in from_files)
