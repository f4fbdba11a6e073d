"""Real builds, as an author or CI runs them: a lesson that builds on an earlier one, every way a
lesson's code can fail stopping `mkdocs build --strict` with its page and line, and Zensical."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import nbformat
import pytest
from bs4 import BeautifulSoup

from tests.conftest import LESSON, edit, mkdocs_build

L11_PAGE = "docs/lessons/11-reuse.md"
L11_CODE = '''"""reuse：直接用第 10 讲算好的 q、k。"""
from lessons.l10.attention_2d import k, q

# --8<-- [start:listing]
overlap = q @ k.T
print("第 10 讲的 q 与 k 的点积：")
print(overlap)
# --8<-- [end:listing]
'''


@pytest.fixture(scope="module")
def lesson11(tmp_path_factory):
    """A repository copy with a lesson 11 that imports what lesson 10 computed, built once."""
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("l11") / "repo", with_cache=True)
    made = subprocess.run([sys.executable, "scripts/new_lesson.py", "11", "reuse", "复用：接着上一讲算"],
                          cwd=repo, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    (repo / "lessons/l11/example.py").unlink()
    (repo / "lessons/l11/reuse.py").write_text(L11_CODE, encoding="utf-8")
    init = repo / "lessons/l11/__init__.py"
    init.write_text(init.read_text(encoding="utf-8").replace('("example", "示例实验：换成本讲自己的实验")',
                                                               '("reuse", "接着第 10 讲")'), encoding="utf-8")
    (repo / L11_PAGE).write_text(
        "---\ntitle: 11｜复用\n---\n\n# 11｜复用\n\n"
        "q₀ 与 k₂ 的点积是 1{=overlap[0, 2]}，矩阵的形状是 [3, 3]{=overlap.shape}。\n\n"
        '```python exec="1" file="lessons/l11/reuse.py:listing" source="above" result="output"\n```\n',
        encoding="utf-8")
    result = mkdocs_build(repo, repo / "site")
    assert result.returncode == 0, result.stderr
    return repo


def test_a_later_lesson_imports_an_earlier_one_on_the_page(lesson11):
    soup = BeautifulSoup((lesson11 / "site/lessons/11-reuse/index.html").read_text(encoding="utf-8"), "html.parser")
    output = soup.select_one("div.language-output").get_text()
    assert "第 10 讲的 q 与 k 的点积" in output and "匹配分数" not in output  # lesson 10's prints stay out
    assert "q₀ 与 k₂ 的点积是 1，矩阵的形状是 [3, 3]。" in soup.get_text()


def test_a_later_lesson_imports_an_earlier_one_from_the_command_line(lesson11):
    run = subprocess.run([sys.executable, "-m", "lessons.l11"], cwd=lesson11, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "第 10 讲的 q 与 k 的点积" in run.stdout and "匹配分数" not in run.stdout


def test_a_later_lesson_imports_an_earlier_one_in_its_notebook_which_runs_on_its_own(lesson11):
    from nbclient import NotebookClient

    nb = nbformat.read(lesson11 / "site/lessons/11-notebook/11-notebook.ipynb", as_version=4)
    shown = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert any("第 10 讲的 q 与 k 的点积" in o for o in shown) and not any("匹配分数" in o for o in shown)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(nb, timeout=300, resources={"metadata": {"path": str(lesson11)}}).execute()
    assert "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs) == "".join(shown)


BLOCK = '\n```python exec="1"\n{code}\n```\n'
ANCHOR = "## 比例能不能由当前输入自己算？"


@pytest.mark.parametrize("where, code, message, failing_line", [
    ("block", "import sys\nsys.exit(0)", "代码调用了 sys.exit(0)", 2),
    ("block", "raise KeyboardInterrupt", "KeyboardInterrupt", 1),
    ("block", "import os\nos._exit(3)", "意外退出（退出码 3）", None),
    ("block", "print('x' * 10_000_000)", "打印超过 100000 个字符的上限", 1),
    ("block", "while True:\n    pass", "超过时间上限 3 秒", (1, 2)),  # stopped on either line of the loop
    ("module", "import sys\nsys.exit()", "代码调用了 sys.exit(None)", 2),
    ("module", "open('docs/x.md', 'w')", "不能写入受监视的源文件夹", 1),
    ("module", "while True:\n    pass", "超过时间上限 3 秒", (1, 2)),
])
def test_every_way_lesson_code_can_fail_stops_the_strict_build_naming_page_and_line(
        repo_copy, tmp_path, where, code, message, failing_line):
    edit(repo_copy, "lessons/l10/__init__.py", "EXPERIMENTS = [", "TIME_LIMIT = 3\n\nEXPERIMENTS = [")
    offsets = failing_line if isinstance(failing_line, tuple) else (failing_line,)
    if where == "block":
        fence = edit(repo_copy, LESSON, ANCHOR, BLOCK.format(code=code) + "\n" + ANCHOR) + 1
        expected = [[f"{LESSON}:{fence}: 代码块执行出错"]]
        if failing_line:
            expected.append([f"（第 {fence + n} 行）" for n in offsets])
    else:
        line = edit(repo_copy, "lessons/l10/projections.py", "import torch\n", f"import torch\n{code}\n")
        expected = [[f"{LESSON}:5: 本讲的代码运行失败（lessons/l10/projections.py:{line + n}）" for n in offsets]]
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    assert all(any(e in result.stderr for e in alternatives) for alternatives in expected), result.stderr
    assert message in result.stderr, result.stderr
    assert "WARNING" not in result.stderr  # one cause, one error: no second report of the same block
    assert len([x for x in result.stderr.splitlines() if message in x]) == 1


# ---- Zensical -----------------------------------------------------------------------------------


def zensical(repo):
    env = {**os.environ, "PYTHONPATH": str(repo)}
    return subprocess.run([sys.executable, "-m", "zensical", "build", "--clean"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)


def test_zensical_builds_the_site_with_live_values(repo_copy):
    result = zensical(repo_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    html = (repo_copy / "site/lessons/10-attention/index.html").read_text(encoding="utf-8")
    assert "a₀=[0.4011，0.1978，0.4011]" in html and "{=" not in html
    assert "tensor([[0.4011, 0.1978, 0.4011]" in html  # a listing's output, from the run


def test_zensical_fails_on_drift_naming_it(repo_copy):
    line = edit(repo_copy, LESSON, "分母是它们的和 5.0562", "分母是它们的和 5.0526")
    result = zensical(repo_copy)
    assert result.returncode != 0
    assert f"{LESSON}:{line}: 数字漂移：正文写 5.0526，代码现算 5.05623" in result.stdout + result.stderr


def test_zensical_fails_on_a_raising_block_naming_the_page(repo_copy):
    line = edit(repo_copy, LESSON, ANCHOR, BLOCK.format(code="1 / 0") + "\n" + ANCHOR) + 1
    result = zensical(repo_copy)
    assert result.returncode != 0
    assert f"{LESSON}:{line}: 代码块执行出错（第 {line + 1} 行）：ZeroDivisionError" in result.stdout + result.stderr


def test_the_run_cache_is_json_a_person_can_read(lesson11):
    record = json.loads((lesson11 / ".cache/coursekit/runs/lessons.l11.json").read_text(encoding="utf-8"))
    assert "lessons/l10/attention_2d.py" in record["deps"] and record["versions"]["python"]


def test_a_clean_quiet_build_says_nothing(tmp_path):
    """`mkdocs build -q` of the course prints nothing when all is well (jieba's own log is silenced),
    so an author sees only what concerns the lesson."""
    from tests.conftest import ROOT

    result = mkdocs_build(ROOT, tmp_path / "site", "-q")
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stdout + result.stderr
