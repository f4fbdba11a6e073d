"""markdown-exec's console-session (```pycon) and Markdown (```md) fences on every page, and blocks
in what a block printed (issue 37): each runs in the page's worker (engine.Build.execute, stood in
for here), a failing one fails the page at its line, the kit's tag on a block's first line never
shows on the page, and MARKDOWN_EXEC_AUTO runs nothing."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import markdown_exec
import pytest

from coursekit.core import engine
from scripts.drive import copy_repo
from coursekit.extensions import checks, fence
from tests.harness import ROOT, site_config
from tests.test_extension import StandIn, convert, site  # noqa: F401 - the fixture

PAGE = "docs/lessons/99-t.md"


class Printing(StandIn):
    """A worker whose blocks print what `answers` says for the first word of their code."""

    def __init__(self, answers: dict[str, str], failing: str = "") -> None:
        super().__init__(failing)
        self.answers, self.codes = answers, []

    def execute(self, lesson_id, page, chain, code, where, context=None):
        self.codes.append(code)
        answer = super().execute(lesson_id, page, chain, code, where)
        word = code.strip().split("(")[0]
        return {"output": self.answers[word]} if "output" in answer and word in self.answers else answer


def test_the_site_registers_each_fence_the_kit_runs_with_the_kits_validator_and_formatter():
    [superfences] = [e for e in site_config()["markdown_extensions"] if isinstance(e, dict) and "pymdownx.superfences" in e]
    fences = superfences["pymdownx.superfences"]["custom_fences"]
    assert [f["name"] for f in fences] == list(fence.LANGUAGES)
    assert sorted(fence.LANGUAGES) == sorted(markdown_exec.formatters)  # every fence markdown-exec knows
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")  # the loader above reads tags as nothing
    assert "validator: &validate !!python/name:coursekit.extensions.fence.validator" in config
    assert "format: &format !!python/name:coursekit.extensions.fence.formatter" in config
    assert all(f"{{name: {n}, class: {n}, validator: *validate, format: *format}}" in config for n in fence.LANGUAGES[1:])


@pytest.mark.parametrize("block", ['```pyodide\nprint("你好")\n```', '```pyodide exec="1"\nprint("你好")\n```'])
def test_a_pyodide_block_is_refused_at_its_line_with_or_without_exec(site, block):
    """markdown-exec renders it without exec=, as an editor that loads Python from another host."""
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", f"正文。\n\n{block}\n")
    [problem] = engine.current.problems[PAGE]
    assert problem.line == 3 and "Pyodide" in problem.message and "笔记本" in problem.message
    assert engine.current.build.executed == []


def test_the_py_and_markdown_aliases_run_as_python_and_md_do(site):
    engine.current.build = Printing({"print": "打印了\n"})
    html = convert(site, "99-t.md", '正文。\n\n````markdown exec="1"\n```py exec="1"\nprint(x)\n```\n````\n')
    assert "打印了" in html and "src=" not in html and "```" not in html
    assert engine.current.build.executed == [f"{PAGE}:4"]


def test_a_pycon_block_runs_its_prompt_lines_in_the_worker_and_shows_them_with_what_they_printed(site):
    engine.current.build = Printing({"print": "Baron\n"})
    page = '正文。\n\n```pycon exec="1" source="console"\n>>> name = "Baron"\n>>> print(name)\n旧的输出\n```\n'
    html = convert(site, "99-t.md", page)
    assert engine.current.build.codes == ['name = "Baron"\nprint(name)\n']  # its lines stay the page's lines
    assert engine.current.build.executed == [f"{PAGE}:3"]
    assert '<span class="gp">&gt;&gt;&gt; </span>' in html and "Baron" in html and "旧的输出" not in html
    assert "<blockquote>" not in html and "src=" not in html


def test_a_failing_pycon_block_fails_the_page_at_its_line(site):
    engine.current.build = StandIn(failing="boom")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", '正文。\n\n```pycon exec="1"\n>>> boom()\n```\n')
    [problem] = engine.current.problems[PAGE]
    assert problem.format() == f"{PAGE}:3: 代码块执行出错：RuntimeError: shapes cannot be multiplied"


def test_an_md_block_renders_its_text_and_runs_its_blocks_in_the_worker_at_their_own_lines(site):
    engine.current.build = Printing({"print": "内层的输出\n"})
    page = ('正文。\n\n````md exec="1" source="above"\n一段**文字**。\n\n'
            '```python exec="1"\nprint("内层")\n```\n````\n')
    html = convert(site, "99-t.md", page)
    assert engine.current.build.executed == [f"{PAGE}:6"]
    assert "<strong>文字</strong>" in html and "内层的输出" in html
    assert "src=" not in html  # the source it shows is the author's


def test_a_block_printed_by_a_block_runs_in_the_worker_and_its_failure_fails_the_page(site):
    inner = '```python exec="1"\nboom()\n```\n'
    engine.current.build = Printing({"outer": inner}, failing="boom")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", '正文。\n\n```python exec="1"\nouter()\n```\n')
    assert engine.current.build.codes == ["outer()", "boom()"]
    [problem] = engine.current.problems[PAGE]  # at the block that printed it
    assert problem.format() == f"{PAGE}:3: 代码块执行出错：RuntimeError: shapes cannot be multiplied"


def test_a_block_printed_by_a_block_shows_what_it_printed(site):
    engine.current.build = Printing({"outer": '```python exec="1"\ninner()\n```\n', "inner": "里面那块打印的\n"})
    html = convert(site, "99-t.md", '正文。\n\n```python exec="1"\nouter()\n```\n')
    assert "里面那块打印的" in html and engine.current.build.executed == [f"{PAGE}:3", f"{PAGE}:3"]


def test_a_block_superfences_does_not_read_is_reported_not_shown_as_text(site):
    """Indented by 4 outside a list it is an indented code block: without this check its text, with
    the kit's tag (src="docs/…md:3"), was the page's text."""
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", '正文。\n\n    ```python exec="1"\n    x = 2\n    ```\n')
    [problem] = engine.current.problems[PAGE]
    assert problem.line == 3 and "没被当成代码块读" in problem.message


def test_an_executed_block_of_a_language_the_site_does_not_run_is_refused_at_its_line(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", '正文。\n\n```bash exec="1"\necho 1\n```\n')
    [problem] = engine.current.problems[PAGE]
    assert problem.format().startswith(f"{PAGE}:3: 本站不运行 bash 代码块（exec=）")
    assert engine.current.build.executed == []


@pytest.fixture
def auto(monkeypatch):
    """MARKDOWN_EXEC_AUTO=python, as markdown-exec read it at import (its public list)."""
    monkeypatch.setenv("MARKDOWN_EXEC_AUTO", "python")
    monkeypatch.setattr(fence, "_told", set())
    markdown_exec.MARKDOWN_EXEC_AUTO.append("python")
    yield
    markdown_exec.MARKDOWN_EXEC_AUTO.remove("python")


def test_markdown_exec_auto_runs_no_block_that_does_not_say_exec_and_says_so_once(site, auto, caplog):
    engine.current.build = Printing({"print": "```python\nprint(2)\n```\n"})
    page = ('正文。\n\n```python\nprint("不运行")\n```\n\n```python exec="1" source="above"\nprint("运行")\n```\n'
            '\n```python\nprint("也不运行")\n```\n')
    with caplog.at_level(logging.WARNING, logger="coursekit"):
        html = convert(site, "99-t.md", page)
    assert engine.current.build.codes == ['print("运行")']  # neither plain block, nor its own source, nor its output
    assert html.count('class="highlight"') == 4  # each shown as code
    notices = [r.getMessage() for r in caplog.records if "MARKDOWN_EXEC_AUTO" in r.getMessage()]
    assert len(notices) == 1 and "本站不按它运行代码块" in notices[0]


SCRATCH = """# 试验

```python
raise SystemExit("普通的代码块运行了")
```

````md exec="1"
一段文字。

```python exec="1"
1 / 0
```
````
"""


@pytest.mark.build
def test_under_markdown_exec_auto_the_build_ends_runs_no_plain_block_and_a_nested_failure_fails_it(tmp_path):
    """With MARKDOWN_EXEC_AUTO=python the build ran every lesson listing and traceback in its own
    process, again and again, until the kernel stopped it at 22 GB. Now it ends, without --strict,
    failing at the nested block's line, and says once that it ignores the variable."""
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    (repo / "docs/probe97.md").write_text(SCRATCH, encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "MARKDOWN_EXEC_AUTO": "python"}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", str(tmp_path / "site")], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=300)
    log = built.stdout + built.stderr
    assert built.returncode != 0, log
    assert "docs/probe97.md:10: 代码块执行出错（第 11 行）：ZeroDivisionError: division by zero" in log, log
    assert "普通的代码块运行了" not in log and "Traceback" not in log, log
    assert log.count("MARKDOWN_EXEC_AUTO=python：本站不按它运行代码块") == 1, log


class InProcess(StandIn):
    """A worker that runs each block here, as plain markdown-exec does (only for comparing renderings)."""

    def execute(self, lesson_id, page, chain, code, where, context=None):
        import io
        from contextlib import redirect_stdout

        self.executed.append(where)
        out = io.StringIO()
        with redirect_stdout(out):
            exec(compile(code, "docs/p.md", "exec"), {})
        return {"output": out.getvalue()}


# markdown-exec's own examples (its docs/usage pages), on a page of no lesson
EXAMPLES = {
    "markdown": '````md exec="1" source="tabbed-left" tabs="Markdown|Rendered"\n系统信息：\n\n'
                '```python exec="true"\nimport platform\n\nprint(f"- 平台：**{platform.system()}**")\n'
                'print(f"- Python：**{platform.python_version()}**")\n```\n````\n',
    "pycon": '````md exec="1" source="tabbed-left" tabs="Markdown|Rendered"\n```pycon exec="1" source="console"\n'
             '>>> name = "Baron"\n>>> print(name)\nBaron\n>>> age = "???"\n>>> print(age)\n???\n```\n````\n',
    "tree": '````md exec="1" source="tabbed-left" tabs="Markdown|Rendered"\n```tree\nroot1\n    file1\n    dir1/\n'
            '        file\n    file2\n```\n````\n',
    "py and markdown": '````markdown exec="1"\n```py exec="1" source="above"\nprint("**粗体**")\n```\n````\n',
    "printed": '```python exec="1"\nprint("```python exec=\\"1\\"")\nprint("print(\\"## 生成的标题\\")")\nprint("```")\n```\n',
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_markdown_execs_examples_show_the_same_text_as_under_plain_markdown_exec(site, name):
    import re

    import markdown

    def md(kit: bool):
        formats = (fence.validator, fence.formatter) if kit else (markdown_exec.validator, markdown_exec.formatter)
        return markdown.Markdown(extensions=([checks.CourseExtension()] if kit else []) + [
            "pymdownx.superfences", "pymdownx.tabbed", "md_in_html", "toc"], extension_configs={
            "pymdownx.tabbed": {"alternate_style": True},
            "pymdownx.superfences": {"custom_fences": [
                {"name": n, "class": n, "validator": formats[0], "format": formats[1]} for n in fence.LANGUAGES]}})

    def text(html: str) -> str:
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()

    engine.current.build = InProcess()
    (site / "docs/p.md").write_text(EXAMPLES[name], encoding="utf-8")
    ours, theirs = md(True), md(False)
    assert text(ours.convert(EXAMPLES[name])) == text(theirs.convert(EXAMPLES[name]))
    assert (engine.current.build.executed or name == "tree") and [t["name"] for t in ours.toc_tokens] == [t["name"] for t in theirs.toc_tokens]
