"""The Markdown extension in process (as markdown-exec's own tests do it): a page is checked while it
is converted, whichever builder converts it; the engine is replaced by a stand-in."""

from __future__ import annotations

import os
from pathlib import Path

import markdown
from typing import ClassVar

import pytest

from coursekit.core import digests, engine, shown
from coursekit.extensions import checks, fence
from coursekit.core.worker import evaluate
from tests.test_guard import NS


class StandIn:
    """What the extension asks of an engine build, answered from NS without any process."""

    lessons: ClassVar[dict] = {"l99": None}

    def __init__(self, failing: str = "") -> None:
        self.failing, self.executed, self.contexts = failing, [], []

    def run(self, lesson_id):
        return engine.Run(lesson=None, key="k", files=[])

    def evaluate(self, lesson_id, exprs):
        return [evaluate(e, dict(NS)) for e in exprs]

    def execute(self, lesson_id, page, chain, code, where, context=None):
        self.executed.append(where)
        self.contexts.append((chain, context))
        if self.failing and self.failing in code:
            return {"error": {"type": "RuntimeError", "message": "shapes cannot be multiplied", "where": None}}
        return {"output": f"printed {where}\n"}

    def done_with(self, lesson_id):
        pass

    def comment_problems(self, lesson_id):
        return []

    def apply(self, lesson_id, function, argument):
        return function(dict(NS), {}, argument)


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A docs/ tree and the engine state a build would set, restored afterwards."""
    (tmp_path / "docs/lessons").mkdir(parents=True)
    monkeypatch.setattr(engine, "current", engine.Current(build=StandIn(), root=tmp_path, collects=False))
    # Not about the reviewed record (tests/test_shown.py is): convert as confirm_shown.py's build does.
    monkeypatch.setenv(shown.CONFIRMING, "1")
    return tmp_path


def convert(root: Path, name: str, page: str, front: str = "", folder: str = "docs/lessons", **config) -> str:
    path = root / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text((f"---\n{front}---\n" if front else "") + page, encoding="utf-8")
    md = markdown.Markdown(extensions=[
        checks.CourseExtension(**config), "pymdownx.snippets",
        "pymdownx.superfences"], extension_configs={
        "pymdownx.snippets": {"base_path": [str(root)], "check_paths": True},
        "pymdownx.superfences": {"custom_fences": [  # as mkdocs.yml registers them
            {"name": n, "class": n, "validator": fence.validator, "format": fence.formatter} for n in fence.LANGUAGES]}})
    return md.convert(page)


def test_a_clean_page_converts_without_its_annotations(site):
    html = convert(site, "99-t.md", "比例 a₀=[0.4011，0.1978，0.4011]{=row}。\n")
    assert "0.4011，0.1978，0.4011]。" in html and "{=" not in html


def test_a_drifted_page_fails_naming_file_and_line_after_the_front_matter(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", "一\n\n比例 a₀=[0.4011，0.1987，0.4011]{=row}。\n", front="title: 测试\n")
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith("docs/lessons/99-t.md:6: 数字漂移：正文写 0.1987")


def test_an_unbound_number_is_told_where_it_may_come_from(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", "比例 a₀=[0.4011，0.1978，0.4011]，分母是 5.0562。\n")
    messages = [p.message for p in engine.current.problems["docs/lessons/99-t.md"]]
    # 比例 just before it names the weights: their row, before the whole `row` no term names
    assert any(m.startswith("未绑定的数字 0.4011") and m.endswith("写 {=weights[0]} 绑定？（写在 0.4011，0.1978，0.4011 后面，绑定这 3 个数）")
               for m in messages), messages
    assert any(m.startswith("未绑定的数字 5.0562") and m.endswith("写 {=total} 绑定？") for m in messages), messages


def test_without_hints_an_unbound_number_is_reported_and_nothing_is_searched(site, monkeypatch):
    monkeypatch.setattr(StandIn, "apply", None)  # the lesson's worker is asked nothing
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", "分母是 5.0562。\n", hints=False)
    [message] = [p.message for p in engine.current.problems["docs/lessons/99-t.md"]]
    assert message.startswith("未绑定的数字 5.0562") and "绑定？" not in message and "候选" not in message


def test_the_front_matter_title_is_checked(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", "正文。\n", front="title: 比例约为 0.4011 的一讲\n")
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith("docs/lessons/99-t.md:2: 未绑定的数字 0.4011")


def test_markdown_included_from_a_snippet_is_checked_as_its_own_file(site):
    (site / "snippets").mkdir()
    (site / "snippets/shared.md").write_text("总和约为 5.0526{=total}。\n", encoding="utf-8")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", '正文。\n\n--8<-- "snippets/shared.md"\n')
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith("snippets/shared.md:1: 数字漂移：正文写 5.0526，代码现算 5.05623")
    (site / "snippets/shared.md").write_text("总和约为 5.0562{=total}。\n", encoding="utf-8")
    html = convert(site, "99-t.md", '正文。\n\n--8<-- "snippets/shared.md"\n')
    assert "总和约为 5.0562。" in html


@pytest.mark.parametrize("spec, said", [
    ("snippets/shared.md:1:1,3:3", "这种行号写法（几段行号、从末尾数的行号）检查工具读不了，拆成几行 --8<--"),
    ("snippets/shared.md:part", "不存在：snippets/shared.md 里没有 [start:part] 与 [end:part] 标出的一段"),
    ("snippets/gone.md", "不存在：找不到文件 snippets/gone.md"),
])
def test_an_include_the_guard_cannot_read_fails_at_its_line_saying_what_to_write(site, spec, said):
    (site / "snippets").mkdir()
    (site / "snippets/shared.md").write_text("一\n二\n三\n", encoding="utf-8")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", f'正文。\n\n--8<-- "{spec}"\n')
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith(f"docs/lessons/99-t.md:3: --8<-- 引入的 {spec}") and said in problem.format()


def test_every_failing_block_of_a_page_is_named_and_every_other_block_still_shows(site):
    """Three failing blocks, the second named by its id and the third by its title: each is reported
    at its line, and the blocks between and after them run and show what they printed."""
    engine.current.build = StandIn(failing="boom")
    fence_ = '```python exec="1"{}\n{}\n```\n\n'
    page = "a\n\n" + "".join(fence_.format(info, code) for info, code in [
        ("", "boom()"), ("", "print('ok')"), (' id="second"', "boom()"), ("", "print('ok')"),
        (' title="third.py" source="above"', "boom()"), ("", "print('ok')")])
    engine.current.collects = True  # as under the MkDocs hooks: the page is converted, then reported
    html = convert(site, "99-t.md", page)
    said = [p.format() for p in engine.current.problems["docs/lessons/99-t.md"]]
    assert said == ["docs/lessons/99-t.md:3: 代码块执行出错：RuntimeError: shapes cannot be multiplied",
                    "docs/lessons/99-t.md:11: 代码块「second」执行出错：RuntimeError: shapes cannot be multiplied",
                    "docs/lessons/99-t.md:19: 代码块「third.py」执行出错：RuntimeError: shapes cannot be multiplied"]
    assert engine.current.build.executed == [f"docs/lessons/99-t.md:{n}" for n in (3, 7, 11, 15, 19, 23)]
    for n in (7, 15, 23):
        assert f"printed docs/lessons/99-t.md:{n}" in html
    assert html.count("shapes cannot be multiplied") == 3  # each failing block shows its own failure


def test_a_page_block_that_prints_a_typed_number_fails_at_that_line_and_does_not_run(site):
    page = 'a\n\n```python exec="1"\nx = 1\nprint("约为 0.4011")\n```\n'
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", page)
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith("docs/lessons/99-t.md:3: 代码块没有运行（第 5 行）：打印的 0.4011 是写死的（「约为 0.4011」）")
    assert engine.current.build.executed == []


def test_under_mkdocs_the_hooks_report_instead_of_the_extension(site):
    engine.current.collects = True
    convert(site, "99-t.md", "比例约为 0.4011。\n")
    assert len(engine.current.problems["docs/lessons/99-t.md"]) == 1


@pytest.mark.parametrize("include, line", [
    ('--8<-- "snippets/shared.md"', 2),
    ("--8<-- 'snippets/shared.md'", 2),
    ('--8<-- "snippets/shared.md:2:2"', 2),
    ('--8<-- "snippets/shared.md:note"', 2),
    ('--8<--\nsnippets/shared.md\n--8<--', 2),
])
def test_every_form_of_include_is_checked_as_its_own_file(site, include, line):
    (site / "snippets").mkdir()
    (site / "snippets/shared.md").write_text("<!-- --8<-- [start:note] -->\n比例约 0.4012。\n<!-- --8<-- [end:note] -->\n",
                                             encoding="utf-8")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", f"正文。\n\n{include}\n")
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith(f"snippets/shared.md:{line}: 未绑定的数字 0.4012")


def test_a_block_whose_formatting_raises_fails_the_page_instead_of_showing_its_source(site, monkeypatch):
    """superfences shows a block's source as text when its formatter raises, and goes on: under
    Zensical the authoring page's tables were published that way. The formatter fails the page."""
    def broken(*args, **kwargs):
        raise AttributeError("'NoneType' object has no attribute 'execute'")

    monkeypatch.setattr(engine.current.build, "execute", broken)
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", '正文。\n\n```python exec="1"\nprint("打印")\n```\n')
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.line == 3 and "代码块没有运行" in problem.message and "AttributeError" in problem.message


def test_an_example_mark_on_a_number_the_lesson_surely_computes_is_questioned(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", "分母是 5.0562{示意}。\n")
    [message] = [p.message for p in engine.current.problems["docs/lessons/99-t.md"]]
    assert message.startswith("5.0562 标了 {示意}，可本讲的代码正好算出它：{=total}"), message
    convert(site, "99-t.md", "比如等上 7.5 秒{示意}。\n")  # no value of the lesson: an example, as marked
    assert not engine.current.problems.get("docs/lessons/99-t.md")


def test_a_static_svg_the_page_shows_is_read_for_the_numbers_its_text_states(site):
    (site / "docs/lessons/fig.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="2">k₁ 约 0.1987</text><text>位置 0</text></svg>',
        encoding="utf-8")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", "正文。\n\n![读取比例](fig.svg)\n")
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith("docs/lessons/99-t.md:3: 图 fig.svg 里写着 0.1987（「k₁ 约 0.1987」）"), problem.format()
    (site / "docs/lessons/fig.svg").write_text('<svg><!-- 示意 --><text>0.1987</text></svg>', encoding="utf-8")
    convert(site, "99-t.md", "正文。\n\n![读取比例](fig.svg)\n\n`![x](gone.svg)` 是写法。\n")  # marked; in code: not drawn
    assert not engine.current.problems.get("docs/lessons/99-t.md")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", "![x](missing.svg)\n")
    assert "读不出来" in engine.current.problems["docs/lessons/99-t.md"][0].message


def _blocks(*fences: tuple[str, str]) -> str:
    return "# 试验\n\n" + "".join(f'```python exec="1"{info}\n{code}\n```\n\n' for info, code in fences)


def test_on_a_page_of_no_lesson_blocks_are_isolated_and_one_session_name_shares_a_namespace(site):
    """As markdown-exec has it: without `session` each block starts from nothing, the blocks of one
    session name (any name) run one after another in one namespace; each runs as markdown-exec's
    module name for it."""
    page = _blocks(("", "a = 'x'"), ("", "print(a)"), (' session="demo"', "b = 'y'"),
                   (' session="demo"', "print(b)"), (' session="other" id="last"', "print('z')"))
    convert(site, "probe.md", page, folder="docs")
    assert engine.current.problems["docs/probe.md"] == []
    (first, one), (second, two), (third, three), (fourth, four), (fifth, five) = engine.current.build.contexts
    assert [first, second, third, fifth] == ["", "", "", ""]  # nothing before them in their namespace
    assert fourth == digests.chain("", "b = 'y'")  # after the first block of its session
    assert len({one.space, two.space, three.space, five.space}) == 4 and four.space == three.space
    assert [c.name for c in (one, two, three, four, five)] == [
        "_code_block_n1_", "_code_block_n2_", "_code_block_session_demo_n1_", "_code_block_session_demo_n2_",
        "_code_block_id_last_"]


def test_on_a_lesson_page_every_block_runs_in_the_lessons_namespace(site):
    page = _blocks(("", "a = 'x'"), (' session="l99"', "print(a)"), ("", "print(a)"))
    convert(site, "99-t.md", page)
    contexts = [c for _, c in engine.current.build.contexts]
    assert {c.space for c in contexts} == {"docs/lessons/99-t.md"}
    assert [c.name for c in contexts] == ["_code_block_n1_", "_code_block_session_l99_n1_", "_code_block_n2_"]


def test_workdir_and_width_reach_the_block_and_leave_the_build_process_alone(site, monkeypatch):
    """markdown-exec sets them around the block in the process that runs it: here the worker, never
    the build's own process (its threads share one working directory)."""
    (site / "docs/data").mkdir(parents=True)
    monkeypatch.delenv("COLUMNS", raising=False)
    seen = []
    build = engine.current.build
    execute = build.execute

    def watching(*args, **kwargs):
        seen.append((Path.cwd(), os.environ.get("COLUMNS")))
        return execute(*args, **kwargs)

    monkeypatch.setattr(build, "execute", watching)
    here = Path.cwd()
    convert(site, "probe.md", _blocks((' workdir="docs/data" width="72"', "print('ok')")), folder="docs")
    assert engine.current.problems["docs/probe.md"] == []
    [(_, context)] = build.contexts
    assert (context.workdir, context.width) == ("docs/data", 72)
    assert seen == [(here, None)]


def test_a_workdir_that_is_no_folder_of_the_repository_is_refused_at_its_line(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "probe.md", _blocks((' workdir="nowhere"', "print('ok')")), folder="docs")
    [problem] = engine.current.problems["docs/probe.md"]
    assert problem.format() == ('docs/probe.md:3: 代码块没有运行：workdir="nowhere" 不是仓库里的文件夹：'
                                '写相对于仓库根目录的文件夹，如 workdir="docs"')
    assert engine.current.build.executed == []


@pytest.mark.parametrize("option, said", [
    ('width="wide"', 'width="wide" 不是整数：写终端的列数，如 width="80"'),
    ('returncode="x"', 'returncode="x" 不是整数：写期望的退出码，如 returncode="1"'),
])
def test_a_number_option_that_is_no_number_is_refused_at_its_line(site, option, said):
    """markdown-exec's own int() fails on it and superfences then shows the block as plain code."""
    with pytest.raises(checks.PageProblems):
        convert(site, "probe.md", _blocks((f" {option}", "print('ok')")), folder="docs")
    [problem] = engine.current.problems["docs/probe.md"]
    assert problem.format() == f"docs/probe.md:3: 代码块没有运行：{said}"
    assert engine.current.build.executed == []


def test_a_lessons_run_plans_its_pages_blocks_as_the_page_runs_them(site):
    """The run prepares its page's blocks (engine.Build._prepare_page) under the contexts the page
    will ask for: else each would run again, in a worker of its own."""
    page = _blocks(("", "a = 'x'"), (' id="named"', "print(a)"), (' session="l99" title="t.py"', "print(a)"),
                   (' workdir="docs" width="90"', "print(a)"), ("", "print(a)"))
    convert(site, "99-t.md", page)
    planned = checks.plan(site, engine.Lesson("lessons.l99", "99", "测试", []))
    assert [(b.code, b.where, b.context) for b in planned.blocks] == [
        (code, where, context) for (_, context), code, where in zip(
            engine.current.build.contexts, ["a = 'x'", *["print(a)"] * 4], engine.current.build.executed)]
