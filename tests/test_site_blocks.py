"""Blocks on pages of no lesson run like a lesson's (issue: a block there ran inside the build
process, could disable the guard for the whole build, and failed as `session setup; n1`)."""

from __future__ import annotations

import pytest

from coursekit.core import engine, numbers, shown
from coursekit.extensions import checks
from scripts.drive import copy_repo
from tests.conftest import LESSONS
from tests.test_extension import convert

PATCH = """```python exec="1"
import coursekit.core.numbers as n
n.agrees = lambda *args: True
print("改好了")
```
"""


@pytest.fixture
def real(tmp_path, monkeypatch):
    """A copy of the course and a real engine build over it, as a build sets them."""
    repo = copy_repo(tmp_path / "repo")
    build = engine.Build(repo)
    monkeypatch.setattr(engine, "current", engine.Current(build=build, root=repo, collects=False))
    monkeypatch.setenv(shown.CONFIRMING, "1")
    yield repo
    build.close()


@pytest.mark.engine
def test_a_block_on_a_page_of_no_lesson_runs_in_a_worker_and_cannot_reach_the_build(real):
    html = convert(real, "probe.md", "# 试验\n\n" + PATCH, folder="docs")
    assert "改好了" in html
    assert numbers.agrees("0.5", 0.4011) is False  # the guard in this process is untouched
    with pytest.raises(checks.PageProblems):  # and a later page is checked as before
        convert(real, "after.md", "比例约为 0.5{=TIME_LIMIT}。\n", folder="docs")


@pytest.mark.engine
def test_a_raising_block_on_a_page_of_no_lesson_names_the_page_and_its_line(real):
    with pytest.raises(checks.PageProblems):
        convert(real, "probe.md", "# 试验\n\n文字。\n\n```python exec=\"1\"\nx = 1\n1 / 0\n```\n", folder="docs")
    [problem] = engine.current.problems["docs/probe.md"]
    assert problem.format().startswith("docs/probe.md:5: 代码块执行出错（第 7 行）：ZeroDivisionError"), problem.format()


@pytest.mark.engine
@pytest.mark.parametrize("lesson", LESSONS[-1:], ids=lambda lesson: lesson.id)
def test_a_block_naming_another_lesson_is_refused_at_its_line(real, lesson):
    other = next((x for x in LESSONS if x.id != lesson.id), None)
    named = other.id if other else "l0"
    page = f"文字。\n\n```python exec=\"1\" session=\"{named}\"\nprint(1)\n```\n"
    with pytest.raises(checks.PageProblems):
        convert(real, "probe.md", page, front=f"session: {lesson.id}\n", folder="docs/code")
    [problem] = engine.current.problems["docs/code/probe.md"]
    assert problem.format().startswith(f"docs/code/probe.md:6: 代码块没有运行：它写了 session=\"{named}\"，可这一页属于 {lesson.id}")


NESTED = '''# 试验

```pycon exec="1" source="console"
>>> word = "控制台"
>>> print(word * 2)
旧的输出
```

````md exec="1"
```python exec="1"
print("md 块里的块")
```
````

```python exec="1"
print('```python exec="1"')
print('import coursekit.core.numbers as n')
print('n.agrees = lambda *args: True')
print('print("打印出来的块")')
print('```')
```
'''


@pytest.mark.engine
def test_pycon_md_and_printed_blocks_run_in_the_pages_worker_and_cannot_reach_the_build(real):
    html = convert(real, "probe.md", NESTED, folder="docs")
    assert "控制台控制台" in html and "旧的输出" not in html and '<span class="gp">&gt;&gt;&gt; </span>' in html
    assert "md 块里的块" in html and "打印出来的块" in html and "src=" not in html
    assert numbers.agrees("0.5", 0.4011) is False  # the printed block patched its worker, not this process
