"""`mkdocs serve` while an author writes: edits show up, problems show on the page, nothing a lesson's
code does takes the server down or outlives the fix."""

import re
import time

import pytest

from coursekit.harness import MkdocsServe
from tests.conftest import LESSON, edit

NOTEBOOK = "lessons/10-notebook/"


@pytest.fixture
def serve(repo_copy):
    server = MkdocsServe(repo_copy)
    server.wait_for("注意力")
    yield server
    server.stop()


def test_serve_prints_the_drift_and_marks_it_on_the_served_page(repo_copy, serve):
    line = edit(repo_copy, LESSON, "分母是它们的和 5.0562", "分母是它们的和 5.0526")
    html = serve.wait_for("drift-report")
    message = f"{LESSON}:{line}: 数字漂移：正文写 5.0526，代码现算 5.05623"
    assert message in serve.log
    assert message in html
    assert "5.0526" in html.split('<mark class="drift">')[1].split("</mark>")[0]
    edit(repo_copy, LESSON, "分母是它们的和 5.0526", "分母是它们的和 5.0562")
    serve.wait_for("分母是它们的和 5.0562")
    assert "drift-report" not in serve.page()


def test_serve_shows_an_experiment_edit_in_the_page_and_the_notebook(repo_copy, serve):
    edit(repo_copy, "lessons/l10/projections.py", "# 这是单独的构造实验", "# 改过的注释：这是单独的构造实验")
    serve.wait_for("改过的注释")
    serve.wait_for("改过的注释", path=NOTEBOOK)
    edit(repo_copy, "lessons/l10/attention_2d.py", "wv = torch.tensor([[1., 0.], [0., 2.]]", "wv = torch.tensor([[1., 0.], [0., 3.]]")
    html = serve.wait_for("drift-report")
    assert "代码现算 1.79" in html  # the page ran the edited lesson code, not a stale import


BLOCK = "\n```python exec=\"1\"\n{code}\n```\n"


def add_block(repo, code: str) -> None:
    edit(repo, LESSON, "## 比例能不能由当前输入自己算？", BLOCK.format(code=code) + "\n## 比例能不能由当前输入自己算？")


def remove_block(repo, code: str) -> None:
    edit(repo, LESSON, BLOCK.format(code=code) + "\n", "")


@pytest.mark.parametrize("code, message", [
    ("import sys\nsys.exit(0)", "代码调用了 sys.exit(0)"),
    ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    ("import os\nos._exit(3)", "意外退出（退出码 3）"),
    ("print('x' * 10_000_000)", "打印超过 100000 个字符的上限"),
    ("open('docs/from-a-block.md', 'w').write('# x')", "不能写入受监视的源文件夹"),
])
def test_serve_survives_a_block_that_would_take_it_down_and_recovers_when_it_is_removed(repo_copy, serve, code, message):
    add_block(repo_copy, code)
    html = serve.wait_for("drift-report")
    assert message in html and message in serve.log
    assert f"{LESSON}:" in html
    remove_block(repo_copy, code)
    serve.wait_for("比例能不能由当前输入自己算")
    deadline = time.monotonic() + 30
    while "drift-report" in serve.page() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "drift-report" not in serve.page() and serve.proc.poll() is None
    assert not (repo_copy / "docs/from-a-block.md").exists()


def test_serve_stops_an_endless_loop_at_the_time_limit(repo_copy, serve):
    edit(repo_copy, "lessons/l10/__init__.py", "EXPERIMENTS = [", "TIME_LIMIT = 3\n\nEXPERIMENTS = [")
    start = time.monotonic()
    add_block(repo_copy, "while True:\n    pass")
    html = serve.wait_for("drift-report", seconds=60)
    assert "超过时间上限 3 秒" in html and time.monotonic() - start < 30
    remove_block(repo_copy, "while True:\n    pass")
    serve.wait_for("比例能不能由当前输入自己算")
    deadline = time.monotonic() + 30
    while "drift-report" in serve.page() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "drift-report" not in serve.page()


def test_a_torch_patch_in_a_block_is_gone_once_the_block_is_removed(repo_copy, serve):
    patch = "import torch\ntorch.softmax = lambda s, dim: s * 0"
    probe = "import torch\nprint('probe', torch.softmax(torch.zeros(2), dim=0))"
    add_block(repo_copy, patch)
    add_block(repo_copy, probe)  # lands below the patch
    serve.wait_for("probe tensor([0., 0.])")
    remove_block(repo_copy, patch)
    html = serve.wait_for("probe tensor([0.5000, 0.5000])")
    assert "drift-report" not in html


def search_entries(serve) -> list[dict]:
    import json

    return json.loads(serve.page("search/search_index.json"))["docs"]


# Pages edited in one save: one page; two at once (Material's own merge indexed the second twice);
# the home page, whose URL "" is a prefix of every other (Material's merge emptied the index).
EDITS = {
    "lesson": [(LESSON, "这些数不代表三个中文词的真实语义。", "这些数不代表三个中文词的真实语义（搜索标记甲）。", "lessons/10-attention/")],
    "two pages": [(LESSON, "这些数不代表三个中文词的真实语义。", "这些数不代表三个中文词的真实语义（搜索标记甲）。", "lessons/10-attention/"),
                  ("docs/setup.md", "\n\n", "\n\n搜索标记乙。\n\n", "setup/")],
    "home": [("docs/index.md", "\n\n", "\n\n搜索标记丙。\n\n", "")],
}


@pytest.mark.parametrize("name", EDITS)
def test_after_an_incremental_rebuild_the_search_index_is_whole_and_current(repo_copy, serve, name):
    before = search_entries(serve)
    for path, old, new, _ in EDITS[name]:
        edit(repo_copy, path, old, new)
    for _, _, new, url in EDITS[name]:
        serve.wait_for(new.strip(), path=url)
    marks = [re.search("搜索标记.", new).group(0) for _, _, new, _ in EDITS[name]]
    deadline = time.monotonic() + 10
    while True:
        after = search_entries(serve)
        text = " ".join(e["text"].replace("\u200b", "") for e in after)  # jieba's zero-width spaces
        if all(m in text for m in marks) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert all(m in text for m in marks), marks
    assert sorted(e["location"] for e in after) == sorted(e["location"] for e in before)  # none lost, none twice
