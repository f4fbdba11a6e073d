"""Numbers claimed in a Python file's comments and docstrings (coursekit.core.comments), in process: listings,
notebooks and source pages show them to the reader. Fixture sources only; what counts as a claim is
the guard's (guard.scan_page)."""

from __future__ import annotations

import re
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
    problems = comments.problems("tinylm/x.py", code)  # a file of no lesson: nothing to bind to
    assert [(p.path, p.line, p.text, p.kind) for p in problems] == [
        ("tinylm/x.py", 2, "0.5", "drift"), ("tinylm/x.py", 4, "2", "drift")]
    comment, docstring = (p.message for p in problems)
    assert comment.startswith("注释里写的 0.5、3 没有代码核对（「约 0.5，共 3 个」）")
    assert "不属于哪一讲" in comment and "算出来打印" in comment and "# 示意" in comment
    assert docstring.startswith("文档字符串里写的 2、3 没有代码核对（「形状 [2, 3]」）")
    assert "（示意）" in docstring


DATA = "lessons/l98/comment_numbers.toml"


def test_an_unbound_number_of_a_lessons_file_says_where_to_write_its_binding():
    code = "x = f()\n# 三个位置各有两个坐标\nprint(x)  # [[1,0],[0,1]]\n"
    first, second = comments.problems("lessons/l98/a.py", code, bindings=[], data=DATA)
    assert (first.path, first.line, second.line) == ("lessons/l98/a.py", 2, 3)
    assert f'在 {DATA} 里绑定它：["lessons/l98/a.py"] 一节下写一行 "三个" = "表达式"' in first.message
    assert '写一行 "[[1,0],[0,1]]" = "表达式"' in second.message  # the whole run of numbers, its brackets closed


SCOPE = {"x": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]}
CODE = "x = f()\n# 三个位置各有两个坐标；共 6 个数\nprint(x)  # [[1,0],[0,1],[1,1]]\n"
ALL = {"三个位置": "len(x)", "各有两个坐标": "len(x[0])", "共 6": "sum(len(r) for r in x)", "[[1,0],[0,1],[1,1]]": "x"}


def bound(entries: dict[str, str], code: str = CODE, scope: dict = SCOPE) -> list:
    """The problems of lessons/l98/a.py with `entries` (words -> expression) as its bindings, each
    written at its place among them in the data file, from line 2 on; evaluated in `scope`."""
    from coursekit.core.worker import evaluate

    bindings = [comments.Binding("lessons/l98/a.py", w, None if e == "示意" else e, n)
                for n, (w, e) in enumerate(entries.items(), start=2)]
    answer = lambda exprs: [evaluate(e, dict(scope)) for e in exprs]  # noqa: E731
    return comments.problems("lessons/l98/a.py", code, evaluate=answer, bindings=bindings, data=DATA)


def test_the_data_file_binds_a_comments_numbers_like_prose():
    assert bound(ALL) == []
    assert bound({**ALL, "共 6": "示意"}) == []  # marked an example, as {示意}
    left = bound({k: v for k, v in ALL.items() if k != "共 6"})
    assert [(p.line, p.text) for p in left] == [(2, "6")]  # unbound again


def test_a_drifted_comment_number_fails_whether_the_data_or_the_code_changed():
    [by_data] = bound({**ALL, "三个位置": "len(x) + 1"})
    assert by_data.format().startswith("lessons/l98/a.py:2: 数字漂移：注释写 三，代码现算 4")
    [by_comment] = bound(ALL, CODE.replace("三个位置", "四个位置"))  # its words found with the number edited
    assert by_comment.format().startswith("lessons/l98/a.py:2: 数字漂移：注释写 四，代码现算 3")
    [in_a_run] = bound(ALL, CODE.replace("[1,1]]", "[1,2]]"))
    assert in_a_run.format().startswith("lessons/l98/a.py:3: 数字漂移：注释写 2，代码现算 1")
    by_code = bound(ALL, scope={"x": [[1.0, 0.0], [0.0, 1.0]]})  # the code changed: two positions now
    assert {p.line for p in by_code} == {2, 3} and "注释写 三，代码现算 2" in by_code[0].message


def test_a_binding_whose_words_are_gone_or_stand_twice_is_an_error_at_its_line_of_the_data_file():
    two = {"三个位置": "len(x)", "各有两个坐标": "len(x[0])"}
    gone = [p for p in bound(two, CODE.replace("各有两个坐标", "每个两维")) if p.path == DATA]
    assert [p.line for p in gone] == [3] and "「各有两个坐标」在 lessons/l98/a.py 的注释和文档字符串里找不到" in gone[0].message
    twice = [p for p in bound(two, CODE + "# 各有两个坐标\n") if p.path == DATA]
    assert [p.line for p in twice] == [3] and "对得上 2 处（第 2 行、第 4 行）" in twice[0].message
    same = [p for p in bound({"三个位置": "len(x)", "个位置": "len(x)"}) if p.path == DATA]
    assert [p.line for p in same] == [3] and "落在 lessons/l98/a.py 的同一处" in same[0].message
    [outdated] = bound({"三个位置": "len(x)", "各有两个坐标": "len(x[0])", "共 7": "sum(len(r) for r in x)",
                         "[[1,0],[0,1],[1,1]]": "x"})
    assert (outdated.path, outdated.line) == (DATA, 4) and '把键改成 "共 6"' in outdated.message  # the comment agrees


def test_markup_in_a_learners_file_is_refused_where_it_stands():
    [lesson] = bound({}, "x = f()\n# 三个位置{=len(x)}\n")
    assert lesson.line == 2 and lesson.message.startswith("注释里不写 {=…} 或 {示意}") and DATA in lesson.message
    [other] = comments.problems("tinylm/x.py", '"""三个{示意}位置。"""\n')
    assert other.message.startswith("文档字符串里不写") and "不属于哪一讲" in other.message


def test_no_learners_file_carries_guard_markup():
    """What learners read (tinylm, the lessons, the template's and the unseen lessons' code) is shown
    as written: the numbers of its comments are bound in each lesson's data file."""
    files = [*ROOT.glob("tinylm/**/*.py"), *ROOT.glob("lessons/**/*.py"), *ROOT.glob("templates/lesson/**/*.py"),
             *ROOT.glob("scripts/unseen/*/lesson/*.py")]
    marked = [f"{p.relative_to(ROOT)}:{n}" for p in files
              for n, line in enumerate(p.read_text(encoding="utf-8").split("\n"), start=1) if re.search(r"\{=|\{示意\}", line)]
    assert len(files) > 20 and marked == []


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


def test_the_data_file_is_read_into_bindings_and_a_bad_entry_is_named_at_its_line(tmp_path):
    folder = tmp_path / "lessons/l98"
    folder.mkdir(parents=True)
    data = folder / "comment_numbers.toml"
    files = ["lessons/l98/__init__.py", "lessons/l98/a.py"]
    assert comments.load_bindings(tmp_path, "lessons/l98", files) == ([], [])  # no data file: nothing bound
    data.write_text('# 说明\n\n["lessons/l98/a.py"]\n"三个位置" = "len(x)"\n"三组" = "示意"\n"两个" = 2\n'
                    '\n["tinylm/x.py"]\n"a" = "b"\n\n["lessons/l98/__init__.py"]\n"共 {=n}" = "n"\n', encoding="utf-8")
    bindings, problems = comments.load_bindings(tmp_path, "lessons/l98", files)
    assert bindings == [comments.Binding("lessons/l98/a.py", "三个位置", "len(x)", 4),
                        comments.Binding("lessons/l98/a.py", "三组", None, 5)]
    assert [(p.path, p.line) for p in problems] == [("lessons/l98/comment_numbers.toml", n) for n in (6, 8, 12)]
    assert "值是一个表达式的字符串" in problems[0].message and "不是本讲的文件" in problems[1].message
    assert "不写 {=…} 或 {示意}" in problems[2].message
    data.write_text('"lessons/l98/a.py" = "len(x)"\n', encoding="utf-8")
    [flat] = comments.load_bindings(tmp_path, "lessons/l98", files)[1]
    assert flat.line == 1 and "要写成一节" in flat.message
    data.write_text('["lessons/l98/a.py"]\n"三个位置" = len(x)\n', encoding="utf-8")
    [broken] = comments.load_bindings(tmp_path, "lessons/l98", files)[1]
    assert (broken.path, broken.line, broken.message.split("：")[0]) == (str(data.relative_to(tmp_path)), 2, "不是合法的 TOML")


def test_a_lessons_stale_binding_is_its_pages_problem(tmp_path):
    from coursekit.core import engine

    (tmp_path / "lessons/l98").mkdir(parents=True)
    (tmp_path / "lessons/l98/__init__.py").write_text('EXPERIMENTS = [("a", "构造例子")]\n', encoding="utf-8")
    (tmp_path / "lessons/l98/a.py").write_text('"""a：演示。"""\nx = [1, 2, 3]\n# 三个位置\n', encoding="utf-8")
    (tmp_path / "lessons/l98/comment_numbers.toml").write_text('["lessons/l98/a.py"]\n"四个数" = "len(x)"\n',
                                                                  encoding="utf-8")
    build = object.__new__(engine.Build)  # only the checks, which read files: nothing is evaluated
    build.root = tmp_path
    build.lessons = engine.find_lessons(tmp_path)
    unbound, stale = build.comment_problems("l98")
    assert stale.format().startswith("lessons/l98/comment_numbers.toml:2: 绑定「四个数」在 lessons/l98/a.py 的注释")
    assert unbound.format().startswith("lessons/l98/a.py:3: 注释里写的 三 没有代码核对")
