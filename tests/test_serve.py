"""`mkdocs serve` while an author writes: edits show up, and drift is shown on the page, not hidden."""

import pytest

from tests.browser import MkdocsServe
from tests.conftest import LESSON
from tests.conftest import edit


@pytest.fixture
def serve(repo_copy):
    server = MkdocsServe(repo_copy)
    yield server
    server.stop()


def test_serve_prints_the_drift_and_marks_it_on_the_served_page(repo_copy, serve):
    serve.wait_for("注意力")
    line = edit(repo_copy, LESSON, "分母是它们的和 5.0562", "分母是它们的和 5.0526")
    html = serve.wait_for("drift-report")
    message = f"{LESSON}:{line}: 数字漂移：正文写 5.0526，代码现算 5.05623"
    assert message in serve.log
    assert message in html
    assert "5.0526" in html.split('<mark class="drift">')[1].split("</mark>")[0]
    edit(repo_copy, LESSON, "分母是它们的和 5.0526", "分母是它们的和 5.0562")
    serve.wait_for("分母是它们的和 5.0562")
    assert "drift-report" not in serve.page()


def test_serve_shows_an_edit_to_tinylm_in_the_page_built_from_it(repo_copy, serve):
    serve.wait_for("注意力")
    edit(repo_copy, "tinylm/attention.py", "# 行选查询位置", "# 每一行对应一个查询位置，行选查询位置")
    serve.wait_for("每一行对应一个查询位置")
    edit(repo_copy, "lessons/l10/attention_2d.py", "wv = torch.tensor([[1., 0.], [0., 2.]]", "wv = torch.tensor([[1., 0.], [0., 3.]]")
    html = serve.wait_for("drift-report")
    assert "代码现算 1.79" in html  # the page ran the edited lesson code, not a stale import
