"""The guard's reach (issue: every number a reader sees, on every page, in every form): for each
class of text a reader sees, a drift or an unbound number fails naming file and line, and a benign
neighbour passes. In process: the guard on text, or the Markdown extension with a stand-in engine."""

from __future__ import annotations

import pytest

from coursekit.core import engine, guard, numbers
from coursekit.extensions import checks
from tests.test_extension import convert, site  # noqa: F401 - the fixture
from tests.test_guard import messages

NS_COUNTS = {"positions": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], "row": [0.401112, 0.197776, 0.401112]}

# (class, drifted or unbound text, the message it must give at line 1 or 2, benign neighbour)
CLASSES = [
    ("a count in digits", "共 4 个位置{=len(positions)}。", "数字漂移：正文写 4，代码现算 3", "共 3 个位置{=len(positions)}。"),
    ("a count in Chinese numerals", "用四个位置{=len(positions)}。", "数字漂移：正文写 四，代码现算 3", "用三个位置{=len(positions)}。"),
    ("an unbound Chinese count", "V 有两列。", "未绑定的数字 两", "V 有两列{=len(positions[0])}。"),
    ("几分之几", "各占三分之一{=1 / len(positions[0])}。", "数字漂移：正文写 三分之一，代码现算 0.5",
     "各占二分之一{=1 / len(positions[0])}。"),
    ("百分之几", "约百分之三十{=row[0]}。", "数字漂移：正文写 百分之三十，代码现算 0.401112", "约百分之四十{=row[0]}。"),
    ("a shape as a tuple", "形状是 (3, 3)。", "未绑定的数字 3", "形状是 (3, 2){=len(positions), len(positions[0])}。"),
    ("a shape written a×b", "一个 3×3 的矩阵。", "未绑定的数字 3", "一个 3×2{=len(positions), len(positions[0])} 的矩阵。"),
    ("a value in inline code", "形状是 `(3, 3)`。", "未绑定的数字 3", "调用 `x[0] * 2` 即可。"),
    ("a fence title", '```{.python title="约 0.4011 的一行"}\nx = 1\n```', "未绑定的数字 0.4011",
     '```{.python title="tinylm/attention.py"}\nx = 1\n```'),
    ("an unexecuted block of output", "```output\n比例 0.4011\n```", "未绑定的数字 0.4011", "```output\n比例 0.4011{=row[0]}\n```"),
    ("a comment of a shown code block", "```python\nx = f(q)  # 约为 0.4011\n```", "未绑定的数字 0.4011",
     "```python\nx = 0.4011\n```"),
    ("a footnote's text", "正文[^1]。\n\n[^1]: 约为 0.4011。", "未绑定的数字 0.4011", "正文[^1]。\n\n[^1]: 见第 3 行。"),
    ("a form value", '<input value="0.4011">', "未绑定的数字 0.4011", '<input style="width: 0.5em">'),
]


@pytest.mark.parametrize("kind, bad, said, good", CLASSES, ids=[c[0] for c in CLASSES])
def test_each_class_fails_with_file_and_line_and_its_neighbour_passes(kind, bad, said, good):
    from tests.test_guard import NS

    ns = {**NS, **NS_COUNTS}
    problems = messages(bad, ns)
    assert any(said in p and p.startswith("docs/lessons/99-t.md:") for p in problems), problems
    assert messages(good, ns) == []


FALSE_ALARMS = {
    "a style element": "<style>.tl { width: 0.5em; }</style>正文。",
    "an attribute list": "![图](a.png){ width=\"0.5\" }",
    "HTML code": "写 <code>0.5 * x</code> 就行。",
    "an indented code block": "正文。\n\n    x = 0.4011\n    y = 2\n\n正文。",
    "a version after a name the guard doesn't know": "用 Sphinx 7.4 与 MyST-NB 1.4 构建，jupyter-cache 1.0。",
    "a string a shown code block uses, not a docstring": '```python\n"约 0.4011".join(parts)\n```',
}


@pytest.mark.parametrize("kind", FALSE_ALARMS)
def test_no_false_alarm(kind):
    assert messages(FALSE_ALARMS[kind]) == []


def test_an_indented_block_inside_a_list_item_is_prose_not_code():
    assert messages("- 第一项\n\n    约为 0.4011。") != []


def test_a_page_outside_the_lessons_is_checked_and_binds_the_kits_numbers(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "guide.md", "最多运行 61 秒{=TIME_LIMIT}，共 3 处。\n", folder="docs")
    said = [p.format() for p in engine.current.problems["docs/guide.md"]]
    assert said[0].startswith("docs/guide.md:1: 数字漂移：正文写 61，代码现算 60") and "未绑定的数字 3" in said[1]
    html = convert(site, "guide.md", "最多运行 60 秒{=TIME_LIMIT}，共 3 处{示意}。\n", folder="docs")
    assert "最多运行 60 秒，共 3 处。" in html


def test_a_page_naming_its_lesson_binds_that_lessons_numbers(site):
    with pytest.raises(checks.PageProblems):
        convert(site, "code.md", "约 0.4012{=row[0]}。\n", front="session: l99\n", folder="docs/code")
    [problem] = engine.current.problems["docs/code/code.md"]
    assert problem.format().startswith("docs/code/code.md:4: 数字漂移：正文写 0.4012")


def test_a_file_included_into_a_displayed_block_is_checked_as_its_text(site):
    (site / "snippets").mkdir()
    (site / "snippets/out.txt").write_text("比例 0.4012\n", encoding="utf-8")
    with pytest.raises(checks.PageProblems):
        convert(site, "99-t.md", '```text\n--8<-- "snippets/out.txt"\n```\n')
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith("snippets/out.txt:1: 未绑定的数字 0.4012")


def test_a_python_file_a_code_block_includes_has_its_comments_checked(site):
    (site / "tinylm").mkdir()
    (site / "tinylm/f.py").write_text("x = 1\n# 结果约 0.5\n", encoding="utf-8")
    with pytest.raises(checks.PageProblems):
        convert(site, "f.md", '```python\n--8<-- "tinylm/f.py"\n```\n', folder="docs/code")
    [problem] = engine.current.problems["docs/code/f.md"]
    assert problem.format().startswith("tinylm/f.py:2: 注释里写的 0.5")
    (site / "tinylm/f.py").write_text("x = 1\n# 结果是 x\n", encoding="utf-8")
    convert(site, "f.md", '```python\n--8<-- "tinylm/f.py"\n```\n', folder="docs/code")


# What a red-team pass over the rule found, as pairs: these read as claims ...
STILL_CLAIMS = {
    "困惑度 1523.42": ["1523.42"], "共 1024.5 MB": ["1024.5"], "AUC 0.91，Loss 0.42": ["0.91", "0.42"],
    "分数为 −∞，出现 NaN": ["−∞", "NaN"], "掩码把得分设成 −∞（代码里是 -inf）": ["−∞", "-inf"], "形状是 3x4 的矩阵": ["3", "4"], "用 numpy 3 次": ["3"],
    "差值为 –0.5": ["–0.5"], "β2=0.999": ["0.999"], "三通道": ["三"], "千分之三": ["千分之三"],
    "**三**个位置": ["三"], "三到五个": ["三", "五"], "8 | 12": ["8", "12"],
}
# ... and these don't.
NOT_CLAIMS = ["把 weights[0][1] 改成", "2024 年 5 月 1 日发布", "12:30 开始", "见图 3、表 2、公式 (3)、练习 3",
              "几十个、数十个、上百个", "十字路口", "macOS 14 与 Windows 11", "打开 localhost:8000",
              '<div data-value="0.42">正文</div>', "见[参考][3]", "mkdocs-static-i18n 1.2 与 foo==2.1"]


@pytest.mark.parametrize("text", STILL_CLAIMS)
def test_what_a_red_team_found_missing_is_read(text):
    assert [t.text for t in guard.claims(text)] == STILL_CLAIMS[text]


@pytest.mark.parametrize("text", NOT_CLAIMS)
def test_what_a_red_team_found_alarming_is_quiet(text):
    assert guard.claims(text) == []


def test_a_chinese_fraction_of_a_thousand_has_its_value():
    assert numbers.parse("千分之三") == pytest.approx(0.003) and numbers.parse("百分之四十") == pytest.approx(0.4)
