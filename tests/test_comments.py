"""Numbers claimed in a Python file's comments and docstrings (coursekit.core.comments), in process: listings,
notebooks and source pages show them to the reader. Fixture sources only; what counts as a claim is
the guard's (guard.scan_page)."""

from __future__ import annotations

import textwrap

import pytest

from coursekit.core import comments, guard
from coursekit.core.comments import claims
from tests.conftest import ROOT


def found(code: str) -> list[tuple[int, str]]:
    return [(c.line, c.number) for c in claims("lessons/l99/x.py", textwrap.dedent(code))]


@pytest.mark.parametrize("code, expected", [
    ("x = 1\n# 比例约 0.4011\ny = 2\n", [(2, "0.4011")]),
    ("x = weights[0]  # 约 0.4011\n", [(1, "0.4011")]),
    ("# 共 3 个位置\n", [(1, "3")]),
    ("# 三个位置各有两个坐标\n", [(1, "三"), (1, "两")]),
    ("print(scores)  # [[1,0],[0,1]]\n", [(1, "1"), (1, "0"), (1, "0"), (1, "1")]),
    ("# 每行和为 1\n", [(1, "1")]),
])
def test_a_number_a_comment_claims_is_found_at_its_line(code, expected):
    assert found(code) == expected


@pytest.mark.parametrize("code, expected", [
    ('"""attention：约 0.4011。"""\n', [(1, "0.4011")]),
    ('"""第一行。\n\n结果是 [2/3, 4/3]。\n"""\n', [(3, "2/3"), (3, "4/3")]),
    ('def f():\n    """返回三行。"""\n', [(2, "三")]),
    ('class A:\n    """形状 [2, 3]。"""\n', [(2, "2"), (2, "3")]),
    ('x = 1\n"""一段说明：比例 0.5。"""\n', [(2, "0.5")]),  # a bare string is a comment in all but syntax
])
def test_a_number_a_docstring_claims_is_found_at_its_line(code, expected):
    assert found(code) == expected


@pytest.mark.parametrize("code", [
    "# 第 1 题：看位置 1 的第 0 坐标\n",  # ordinals
    "# 把 weights[0] 与 V[2, 0] 比一比\n",  # indices
    "# 一个向量；torch 2.13；UTF-8；写于 2024年5月\n",
    "x = 1  # 共 3 个位置 # 示意\n",
    "# 比如 0.5（示意）\n",
    "# --8<-- [start:listing]\nx = 1\n# --8<-- [end:listing]\n",
    "label = '约 0.4011'  # 代码用的字符串不是注释\n",
    "scale = 0.5\n",  # code, not a comment
    '"""比如 [0.5, 0.3]（示意）\n\n再说一句。\n"""\n',
    'def f():\n    """返回 weights[0]：位置 0 的读取比例。"""\n',
])
def test_ordinals_indices_code_and_examples_are_no_claims(code):
    assert found(code) == []


def test_a_run_of_comment_lines_is_read_as_one_text():
    # the bracket opened on the first line still holds the numbers of the second
    assert found("# 形状 [\n#   2, 3]\nx = 1\n") == [(2, "2"), (2, "3")]


def test_an_example_mark_covers_only_its_own_line():
    assert found('"""比如 0.5（示意）\n然后约 0.25。\n"""\n') == [(2, "0.25")]
    assert found("# 比如 0.5 # 示意\n# 然后约 0.25\n") == [(2, "0.25")]


def test_a_file_that_does_not_parse_still_has_its_comments_read():
    assert found("# 约 0.5\ndef (:\n") == [(1, "0.5")]


def test_the_claims_follow_the_guard():
    text = "三个位置，weights[0]，第 2 行，2024-05-01，共 3 个，约 0.5"
    assert [c.number for c in claims("x.py", f"# {text}\n")] == [t.text for t in guard.claims(text)]


def test_problems_name_the_file_and_line_and_say_what_to_write():
    code = 'x = 1\n# 约 0.5，共 3 个\n"""\n形状 [2, 3]\n"""\n'
    problems = comments.problems("tinylm/x.py", code)
    assert [(p.path, p.line, p.text, p.kind) for p in problems] == [
        ("tinylm/x.py", 2, "0.5", "drift"), ("tinylm/x.py", 4, "2", "drift")]
    comment, docstring = (p.message for p in problems)
    assert comment.startswith("注释里写的 0.5、3 没有代码核对（「约 0.5，共 3 个」）")
    assert "{=表达式}" in comment and "不显示标注" in comment and "# 示意" in comment
    assert docstring.startswith("文档字符串里写的 2、3 没有代码核对（「形状 [2, 3]」）")
    assert "（示意）" in docstring


def test_a_comment_binds_its_numbers_like_prose_and_shows_without_the_annotation():
    from coursekit.core import guard
    from coursekit.core.worker import evaluate

    scope = {"x": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]}
    answer = lambda exprs: [evaluate(e, dict(scope)) for e in exprs]  # noqa: E731
    code = "x = f()\n# 三个位置{=len(x)}各有两个坐标{=len(x[0])}\n"
    assert comments.problems("lessons/l98/a.py", code, evaluate=answer) == []
    drifted = code.replace("三个位置", "四个位置")
    [problem] = comments.problems("lessons/l98/a.py", drifted, evaluate=answer)
    assert problem.format().startswith("lessons/l98/a.py:2: 数字漂移：注释写 四，代码现算 3")
    elsewhere = comments.problems("tinylm/x.py", code)  # a file of no lesson has nothing to bind to
    assert len(elsewhere) == 2 and all("不属于哪一讲" in p.message for p in elsewhere)
    assert guard.strip_annotations(code) == "x = f()\n# 三个位置各有两个坐标\n"


def test_problems_keep_to_the_lines_a_page_shows():
    code = "# 约 0.5\nx = 1\n# 约 0.25\n"
    assert [p.line for p in comments.problems("x.py", code, first=2)] == [3]
    assert [p.line for p in comments.problems("x.py", code, first=1, last=2)] == [1]


def test_an_experiment_files_comment_claims_and_titles_are_its_lessons_problems_but_it_still_runs(tmp_path):
    from coursekit.core import engine

    (tmp_path / "lessons/l98").mkdir(parents=True)
    (tmp_path / "lessons/l98/__init__.py").write_text('EXPERIMENTS = [("a", "三个位置")]\n', encoding="utf-8")
    (tmp_path / "lessons/l98/a.py").write_text('"""a：演示。"""\nx = 1\n# 结果约 0.5\nprint(x)\n', encoding="utf-8")
    build = object.__new__(engine.Build)  # only the checks, which read files: no workers, no cache
    build.root = tmp_path
    build.lessons = engine.find_lessons(tmp_path)
    [lesson] = build.lessons.values()
    assert build._fixed_print_numbers(lesson) is None  # nothing stops the run
    problems = build.comment_problems("l98")
    assert [(p.path, p.line) for p in problems] == [("lessons/l98/a.py", 3), ("lessons/l98/__init__.py", 1)]
    assert problems[0].message.startswith("注释里写的 0.5 没有代码核对（「结果约 0.5」）")
    assert "标题「三个位置」里有 三" in problems[1].message
    (tmp_path / "lessons/l98/a.py").write_text('"""a：演示。"""\nx = 1\n# 结果约 0.5 # 示意\nprint(x)\n', encoding="utf-8")
    (tmp_path / "lessons/l98/__init__.py").write_text('EXPERIMENTS = [("a", "构造例子")]\n', encoding="utf-8")
    build.lessons = engine.find_lessons(tmp_path)
    assert build.comment_problems("l98") == []


def test_the_course_sources_claim_no_numbers_in_comments():
    """tinylm, the shared code and the runner every lesson runs through (its source page shows it; a
    lesson's own files are checked, bindings and all, by its build)."""
    found = []
    for path in sorted([*ROOT.glob("lessons/*.py"), *ROOT.glob("tinylm/*.py"), ROOT / "coursekit/core/runner.py"]):
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}:{c.line}: {c.number}（{c.shown}）" for c in claims(rel, path.read_text(encoding="utf-8"))]
    assert found == []
