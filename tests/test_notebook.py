"""The lesson's notebook: made from the experiment files, executed at build, cached, downloadable."""

import json
import re
import shutil

import nbformat
from bs4 import BeautifulSoup

from tests.conftest import ROOT, mkdocs_build
from tests.test_drift_guard import edit
from tests.test_lesson_l10 import run_lesson


def test_the_notebook_page_shows_every_experiment_with_its_live_output(built_site):
    html = (built_site / "lessons/10-notebook/index.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    outputs = [o.get_text() for o in soup.select("article .language-output pre")]
    stdout = run_lesson(ROOT).stdout
    assert len(outputs) == 4 and all(o.strip() and o.strip() in stdout for o in outputs), outputs
    titles = [h.get_text().strip("¶ ") for h in soup.select("article h2")]
    assert titles == ["三个位置、二维的构造例子：分数、比例、输出", "Q 与 K 分开投影：分数可以不对称",
                      "固定 Q/K，只改第三行 V", "两道改数题"]


def test_the_ipynb_can_be_downloaded_and_holds_the_executed_cells(built_site):
    page = BeautifulSoup((built_site / "lessons/10-notebook/index.html").read_text(encoding="utf-8"), "html.parser")
    link = page.select_one("a[download]")
    nb = nbformat.read(built_site / "lessons/10-notebook" / link["href"], as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert not any(o.output_type == "error" for c in code for o in c.outputs)


def test_notebook_cells_are_the_experiment_files_not_a_copy(built_site):
    nb = nbformat.read(built_site / "lessons/10-notebook/10-notebook.ipynb", as_version=4)
    for cell in nb.cells:
        file = cell.metadata.get("source_file")
        if not file:
            continue
        source = (ROOT / file).read_text(encoding="utf-8").split("\n")
        lines = [line for line in cell.source.split("\n") if line.strip()]
        it = iter(source)
        assert all(any(line == s for s in it) for line in lines), file  # every line, in the file's order


def test_the_lesson_page_links_to_its_notebook(lesson_html):
    soup = BeautifulSoup(lesson_html, "html.parser")
    assert soup.select_one('article a[href="../10-notebook/"]') is not None


def test_an_experiment_that_raises_fails_the_build_naming_notebook_and_file(repo_copy, tmp_path):
    edit(repo_copy, "lessons/l10/projections.py", "pair_k = pair_x @ key_projection.T", "pair_k = pair_x @ key_projection.T[:1]")
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    assert "docs/lessons/10-notebook.ipynb：笔记本执行出错（lessons/l10/projections.py）：RuntimeError" in result.stderr


def test_the_notebook_runs_again_only_when_what_it_runs_changes(repo_copy, tmp_path):
    shutil.rmtree(repo_copy / ".cache", ignore_errors=True)
    first = mkdocs_build(repo_copy, tmp_path / "a")
    again = mkdocs_build(repo_copy, tmp_path / "b")
    assert "笔记本已重新执行" in first.stderr and "笔记本未变，取缓存" in again.stderr
    edit(repo_copy, "tinylm/attention.py", "# 行选查询位置", "# 行选的是查询位置")  # words only
    reworded = mkdocs_build(repo_copy, tmp_path / "c")
    assert reworded.returncode == 0 and "笔记本未变，取缓存" in reworded.stderr
    edit(repo_copy, "tinylm/attention.py", "math.sqrt(q.shape[-1])", "math.sqrt(q.shape[-1]) * 1")  # what it does
    changed = mkdocs_build(repo_copy, tmp_path / "d")
    assert changed.returncode == 0 and "笔记本已重新执行" in changed.stderr
    nb = json.loads((tmp_path / "d/lessons/10-notebook/10-notebook.ipynb").read_text(encoding="utf-8"))
    assert re.search(r"tensor\(\[\[0\.7071", json.dumps(nb, ensure_ascii=False))
