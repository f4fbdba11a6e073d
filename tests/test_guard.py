"""The drift guard, in process: which numbers a reader sees, how `{=expr}` binds them, the messages."""

from __future__ import annotations

import math

import pytest

from coursekit.core import guard, numbers
from coursekit.core.worker import evaluate

PATH = "docs/lessons/99-t.md"
# A lesson namespace like lesson 10's, as plain numbers (the worker would hold tensors).
NS = {
    "weights": [[0.401112, 0.197776, 0.401112], [0.197776, 0.401112, 0.401112]],
    "row": [0.401112, 0.197776, 0.401112],
    "shape": (3, 3),
    "changed_v2": [3.0, 2.0],
    "total": 5.05623,
    "half": 0.5,
    "share": 0.4,
    "tenth": 0.1987,
    "big": 0.9999,
    "root2": math.sqrt(2),
    "terms": [0.5, 1.0, 0.25, 0.0, 0.25, 1.0, 0.75],
    # lesson 11's masked scores, as masked_fill leaves them: -inf above the diagonal
    "masked_scores": [[0.707107, -math.inf, -math.inf], [0.0, 0.707107, -math.inf], [0.707107, 0.707107, 1.414214]],
    "masked_row": [0.330207, 0.669793, 0.0],
    "name_position": 4,
    "pair": [1, 2],
    "nan": math.nan,
}
INF = math.inf
NAN = math.nan


def check(text: str, ns: dict = NS) -> tuple[list[guard.Problem], list[guard.Bound]]:
    found = guard.scan_page(PATH, text)
    values = {e: evaluate(e, dict(ns)) for e in found.expressions}
    bound = guard.bind(found, values)
    return found.problems, bound


def messages(text: str, ns: dict = NS) -> list[str]:
    return [p.format() for p in check(text, ns)[0]]


# ---- number forms -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written, live, ok",
    [
        ("0.4011", 0.401112, True), ("0.4011", 0.40116, False), ("0.75", 0.7549, True), ("0.75", 0.7551, False),
        ("1", 1.0000001, True), ("1", 1.3, False), ("2/3", 2 / 3, True), ("2/3", 0.6667, False),
        ("−0.5", -0.5, True), ("０．１９８７", 0.1987, True), ("０．１９８７", 0.1978, False),
        (".1987", 0.19871, True), ("2e-1", 0.2, True), ("2e-1", 0.26, False), ("40%", 0.4, True),
        ("40%", 0.41, False), ("40.1%", 0.401112, True),
        # an infinity agrees only with the same infinity, nan only with nan
        ("-inf", -INF, True), ("−∞", -INF, True), ("-∞", -INF, True), ("∞", INF, True), ("+∞", INF, True),
        ("inf", INF, True), ("-inf", INF, False), ("∞", -INF, False), ("-inf", -1e300, False), ("inf", NAN, False),
        ("0.7071", -INF, False), ("0", -INF, False), ("1e308", INF, False),
        ("nan", NAN, True), ("NaN", NAN, True), ("nan", 0.0, False), ("nan", INF, False), ("0", NAN, False),
        ("-inf", NAN, False),
    ],
)
def test_a_written_number_agrees_within_half_a_unit_of_its_last_digit(written, live, ok):
    assert numbers.agrees(written, live) is ok


@pytest.mark.parametrize("text, tokens", [
    ("a₀=[0.4011，0.1978，0.4011]", ["0.4011", "0.1978", "0.4011"]),
    ("第一项 2.0281/5.0562；[2/3, 4/3]；√2；第0坐标", ["一", "2.0281", "5.0562", "2/3", "4/3", "2", "0"]),
    ("约 ０．１９８７ 或 .1987 或 2e-1 或 40% 或 ...0.9999 或 −0.5", ["０．１９８７", ".1987", "2e-1", "40%", "0.9999", "−0.5"]),
    ("q0、v1.2、3D 与 x_2 不是数", []),
    ("[[0.7071, -inf], [−∞, -∞]]、∞、+∞、inf、nan 与 NaN", ["0.7071", "-inf", "−∞", "-∞", "∞", "+∞", "inf", "nan", "NaN"]),
    ("设为−inf时，即 -∞。", ["−inf", "-∞"]),
    ("info、infer、Infinity、infinity、nano、infs、NaNs、math.inf、x_inf、nan_to_num 都不是数", []),
])
def test_numbers_are_read_in_every_form_a_reader_sees(text, tokens):
    assert [t.text for t in guard.scan_page(PATH, text).tokens] == tokens


# ---- what must be bound -----------------------------------------------------------------------

UNBOUND = {
    "a decimal in prose": "比例约为 0.4011。",
    "an exercise statement's vector": "1. 把第三行 V 改为 [5, 2]。位置 1 增加多少？",
    "a shape": "A 的形状是 [3, 4]。",
    "a hand calculation's result": "```text\nq₀·k₀ = 1×1 + 0×0 = 2\n```",
    "a decimal after a bare URL in Chinese prose": "参见https://example.org/a，比例约为0.4011。",
    "a full-width point": "比例约为 ０．１９８７。",
    "a leading-dot decimal": "比例约为 .1987。",
    "scientific notation": "比例约为 2e-1。",
    "a percentage": "约占 40%。",
    "an ellipsis before a decimal": "比例是 ...0.9999。",
    "a title attribute": '<abbr title="约 0.4011">a₀</abbr> 是比例。',
    "an image's alt and title": '![比例 0.4011](fig.png "第一项 0.1978")',
    "a pycon transcript's output": "```pycon\n>>> weights[0, 0]\n0.4011\n```",
    "a console transcript's output": "```console\n$ python -m lessons.l10\n比例 0.4011\n```",
    "a table cell": "| 比例 | 值 |\n| --- | --- |\n| a₀ | 0.4011 |",
    "a heading": "## 为什么是 0.4011？",
    "an English word before a decimal": "训练结束时 loss 0.4012。",
    "a training log in a text block": "```text\nstep 100 loss 0.4012\n```",
    "a decimal with a unit": "大约要 0.8s，约 1.5k 字。",
    "a decimal an example marker further on does not cover": "约 0.5012。比如等上 0.5 秒{示意}。",
    "an ipython transcript's output": "```ipython\nIn [1]: weights[0, 0]\nOut[1]: 0.4011\n```",
    "a masked matrix's infinities": "scores ≈ [[-inf, −∞], [∞, +∞]]",
    "nan in an equation": "结果 = nan",
    "an equation of numbers": "所以 1+1=2。",
    "an equation next to letter arithmetic": "位置 i+1 = 2。",
    "a decimal written with a Markdown escape": "约 0\\.4011，或 \\-0.5。",
    "a bare integer in prose": "输出宽度就仍然是 2。",
    "a count in Chinese numerals": "可读位置从三个增加到十个，V 有两列。",
    "a count in a heading": "## 两道改数题",
    "a count after 位置 (not an ordinal)": "每个位置二维，位置 0 读三个位置。",
}


@pytest.mark.parametrize("kind", UNBOUND)
def test_every_kind_of_number_a_reader_sees_must_be_bound(kind):
    problems = messages(UNBOUND[kind])
    assert problems and all("未绑定的数字" in p for p in problems), problems
    if kind == "a masked matrix's infinities":
        assert [p.split("（")[0].split()[-1] for p in problems] == ["-inf", "−∞", "∞", "+∞"]
    assert all(p.startswith(f"{PATH}:") for p in problems)


HARMLESS = {
    "ordinals": "第 10 讲、第08讲、第 1 题，位置 0 与位置 1、2。",
    "a version": "本页用 torch 2.13 与 torch==2.13.0 构建，Python 3.11。",
    "dates": "写于 2024.05.01，改于 2024-05-02，2024年5月。",
    "a section number": "见 3.2.1 节，或 §3.2。",
    "inline code holding an expression": "代码里写 `weights[0] * 0.5` 就行。",
    "code listings": "```python\nx = 0.4011\n```",
    "link targets": "[第 10 讲](../10-attention.md#0.5)",
    "an example marked as such": "比如等上 0.5 秒{示意}，或 [1, 2]{示意}，或 2×0.5 = 1{示意}。",
    "the snippet marker written out": '标题里也可以写 --8<-- "x.md" 这样的字样。',
    "names with numbers": "文件用 UTF-8 编码，不是 GPT-3.5，按 Ctrl+1。",
    "versions in Chinese word order": "PyTorch（2.13 版），torch 版本 2.13，Python ≥ 3.11，Material v9.5。",
    "numbered headings and sections": "## 3.2 改数题\n\n详见 3.2 小节，写于 2024.05。",
    "arithmetic on letters": "位置 i+1 读位置 t−1 与 n-1，第 2i 个；(i+1)、d/2、2×d、√d/2、x₀+1、top-1 都是式子。",
    "ordinals joined to ordinals": "位置 1-3、第 1 到 2 行，第 -1 个。",
    "Markdown escapes in a heading": "# 12｜torch 2\\.13 与 GPT\\-3\\.5：位置 i\\+1",
}


@pytest.mark.parametrize("kind", HARMLESS)
def test_numbers_that_are_not_claims_need_no_marking(kind):
    assert messages(HARMLESS[kind]) == []


# ---- binding: written once, reword-safe --------------------------------------------------------

BOUND = "现在对这一行做 Softmax，得到 a₀=[0.4011，0.1978，0.4011]{=row}。总和约为 5.0562{=total}。"


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("[0.4011，0.1978，0.4011]", "[**0.4011**，0.1978，0.4011]"),  # bold
    lambda t: t.replace("0.1978，", "0.1978，\n"),  # a line break
    lambda t: t.replace("，0.1978，", ", 0.1978, "),  # , versus ，
    lambda t: t.replace("现在对这一行做", "接着对这行做"),  # rewording
    lambda t: t.replace("总和约为", "它们的和大约是"),
])
def test_harmless_edits_of_bound_text_change_nothing(edit):
    assert messages(edit(BOUND)) == []


def test_the_annotation_binds_the_numbers_just_before_it():
    _, bound = check(BOUND)
    assert [(b.written, round(b.live, 6), b.expr) for b in bound] == [
        ("0.4011", 0.401112, "row"), ("0.1978", 0.197776, "row"), ("0.4011", 0.401112, "row"),
        ("5.0562", 5.05623, "total")]


def test_a_hand_calculation_binds_every_term_and_its_result():
    text = "```text\n第0坐标：0.5×1 + 0.25×0 + 0.25×1 = 0.75{=terms}\n```"
    assert messages(text) == []
    assert messages(text.replace("= 0.75", "= 0.57")) != []


def test_a_drifted_number_fails_with_file_line_written_live_and_expression():
    [message] = messages("第一行\n\n" + BOUND.replace("0.1978", "0.1987"))
    assert message == (f"{PATH}:3: 数字漂移：正文写 0.1987，代码现算 0.197776"
                       "（「a₀=[0.4011，0.1987，0.4011]。总和约」，表达式 row）")


@pytest.mark.parametrize("text", [
    "1. 固定 Q、K，只把第三行 V 改为 [5, 2]{=changed_v2}。",  # the statement disagrees with the answer's code
    "A 的形状是 [3, 4]{=shape}。",
    "约为 1.4124{=root2}；",
    "约占 41%{=share}。",
    "比例约为 ０．１９７８{=tenth}。",
])
def test_a_bound_claim_that_disagrees_fails(text):
    [message] = messages(text)
    assert "数字漂移" in message


def test_each_occurrence_is_checked_a_duplicated_sentence_with_a_changed_number_fails():
    copy = BOUND + "\n\n" + BOUND.replace("5.0562", "5.0526")
    [message] = messages(copy)
    assert message.startswith(f"{PATH}:3: 数字漂移：正文写 5.0526")
    stripped_copy = BOUND + "\n\n" + BOUND.replace("{=total}", "").replace("{=row}", "")
    assert len(messages(stripped_copy)) == 4  # the copy's numbers are not bound by the first's


def test_one_cause_gives_one_error():
    [message] = messages("得到 a₀=[0.4011，0.1978，0.4011]{=rows}。")
    assert "绑定的表达式 rows 算不出来：NameError" in message


@pytest.mark.parametrize("expr", ["0.4011", "round(0.40111, 4)", "2 / 5", "math.sqrt(2) / 3.5255",
                                  "[x for x in [0.4011]][0]", "(y := 0.4011)", "(lambda z: z)(0.4011)"])
def test_an_expression_that_reads_nothing_from_the_lesson_is_refused(expr):
    """`{=0.4011}` would bind the number to itself; the page fails at the annotation's line."""
    [message] = messages(f"第一行\n\n约为 0.4011{{={expr}}}。")
    assert message.startswith(f"{PATH}:3: {{={expr}}} 只用到数字面量、Python 内置名字和 math/torch/numpy"), message
    assert messages("第一行\n\n约为 0.4011{=round(row[0], 4)}。") == []  # reading a lesson name is fine


def test_too_few_numbers_for_the_value_says_how_many_and_which():
    [message] = messages("得到 a₀=[0.4011，0.1978]{=row}。")
    assert "前面只写了 2 个数（0.4011、0.1978），表达式 row 给出 3 个值" in message
    [message] = messages("得到 [" + "，".join(["0.5"] * 12) + "]{=terms + terms}。")
    assert "前面只写了 12 个数（0.5、0.5、0.5、0.5、0.5、…、0.5、0.5、0.5、0.5、0.5），表达式 terms + terms 给出 14 个值" in message
    [message] = messages("什么也没写{=row}。")
    assert "前面只写了 0 个数，表达式 row 给出 3 个值" in message


MASKED = "所以 scores ≈ [[0.7071, -inf, -inf], [0, 0.7071, -inf], [0.7071, 0.7071, 1.4142]]{=masked_scores}。"


@pytest.mark.parametrize("infinity", ["-inf", "−inf", "−∞", "-∞"])
def test_a_masked_matrix_binds_every_cell_its_infinities_included(infinity):
    _, bound = check(MASKED.replace("-inf", infinity))
    assert [b.written for b in bound] == ["0.7071", infinity, infinity, "0", "0.7071", infinity,
                                          "0.7071", "0.7071", "1.4142"]
    assert all(b.agrees for b in bound) and messages(MASKED.replace("-inf", infinity)) == []


def test_a_minus_infinity_moved_into_the_wrong_cell_fails():
    moved = MASKED.replace("[0, 0.7071, -inf]", "[0, -inf, 0.7071]")
    assert messages(moved) == [
        f"{PATH}:1: 数字漂移：正文写 -inf，代码现算 0.707107（「-inf], [0, -inf, 0.7071], [」，表达式 masked_scores）",
        f"{PATH}:1: 数字漂移：正文写 0.7071，代码现算 -inf（「, [0, -inf, 0.7071], [0.7071,」，表达式 masked_scores）"]
    assert messages(MASKED.replace("-inf, -inf]", "-inf, inf]")) == [
        f"{PATH}:1: 数字漂移：正文写 inf，代码现算 -inf（「7071, -inf, inf], [0, 0.707」，表达式 masked_scores）"]
    assert "正文写 nan，代码现算 -inf" in messages(MASKED.replace("-inf]", "nan]", 1))[0]
    assert messages("约为 nan{=nan}。") == [] and "正文写 0，代码现算 nan" in messages("约为 0{=nan}。")[0]


def test_a_count_mismatch_never_borrows_an_ordinal():
    """Three written ordinals and a short run: one message naming what it read, no drift on 位置 1."""
    text = "第 1 行只读位置 0，第 2 行读位置 0、1：[0.3302, 0.6698]{=masked_row}。"
    assert messages(text) == [
        f"{PATH}:1: 「2 行读位置 0、1：[0.3302, 0.6698]。」前面只写了 2 个数（0.3302、0.6698），"
        "表达式 masked_row 给出 3 个值；第 1 行、位置 0、第 2 行、位置 0、1 是序数，不算在内"]
    assert messages(text.replace("0.6698]", "0.6698, 0]")) == []  # written in full, the ordinals stay unpaired
    _, bound = check(text.replace("0.6698]", "0.6698, 0]"))
    assert [b.written for b in bound] == ["0.3302", "0.6698", "0"]


def test_an_ordinal_is_bound_only_by_an_annotation_right_after_it():
    _, bound = check("名字在位置 4{=name_position}（从 0 数起），也就是位置 1、2{=pair} 之后。")
    assert [(b.written, b.live) for b in bound] == [("4", 4.0), ("1", 1.0), ("2", 2.0)]
    assert "正文写 5，代码现算 4" in messages("名字在位置 5{=name_position}。")[0]
    [message] = messages("名字在第 4 个{=name_position}。")
    assert "前面只写了 0 个数，表达式 name_position 给出 1 个值；第 4 个 是序数，不算在内" in message


def test_markup_that_cuts_a_number_in_two_is_named():
    [message] = messages("约为 0.40**11**{=row[0]}。")
    assert "被 Markdown 标记拆成了两个数" in message


def test_a_number_is_read_as_the_reader_sees_it_through_markdown_escapes():
    """`0\\.4011` shows 0.4011: bound, checked and fixed as that; in a code block the backslash stays."""
    _, [bound] = check("约 0\\.4011{=row[0]}。")
    assert (bound.written, bound.start, bound.end, bound.agrees) == ("0.4011", 2, 9, True)
    assert "正文写 0.4012" in messages("约 0\\.4012{=row[0]}。")[0]
    assert [t.text for t in guard.scan_page(PATH, "```text\n2\\.13\n```").tokens] == ["2", ".13"]


def test_annotations_are_removed_from_what_the_reader_gets():
    found = guard.scan_page(PATH, BOUND + "\n```text\n[[1]]{=shape[:1]}\n```\n比如 0.5 秒{示意}。")
    assert found.stripped() == ("现在对这一行做 Softmax，得到 a₀=[0.4011，0.1978，0.4011]。总和约为 5.0562。"
                                "\n```text\n[[1]]\n```\n比如 0.5 秒。")


# ---- --fix --------------------------------------------------------------------------------------


@pytest.mark.parametrize("written, live, fixed", [
    ("0.5", 0.401112, "0.4"), ("5.0526", 5.05623, "5.0562"), ("41%", 0.4, "40%"), ("−0.51", -0.4011, "−0.40"),
    (".1978", 0.1987, ".1987"), ("3", 2.0, "2"),
    ("0.7071", -INF, "-inf"), ("−0.5", -INF, "−inf"), ("40%", INF, "inf"), ("-inf", INF, "inf"), ("−∞", INF, "∞"),
    ("+∞", -INF, "-∞"), ("nan", -INF, "-inf"), ("0.5", NAN, "nan"), ("NaN", NAN, "NaN"), ("-inf", 2.0, "2"),
    ("-inf", 0.7071, None), ("nan", 0.5, None),
])
def test_fix_rewrites_a_drifted_number_at_its_written_precision(written, live, fixed):
    assert numbers.rewrite(written, live) == fixed


def test_fix_rewrites_only_the_drifted_numbers_of_a_page():
    text = BOUND.replace("0.1978", "0.5").replace("5.0562", "5.0526")
    _, bound = check(text)
    fixed, changes = guard.fix(text, bound)
    assert fixed == BOUND.replace("0.1978", "0.2")  # written with one decimal, fixed with one
    assert [(b.written, new) for b, new in changes] == [("0.5", "0.2"), ("5.0526", "5.0562")]
    assert messages(fixed) == []


def test_fix_handles_infinities_on_the_page():
    """A -inf moved into the wrong cell: --fix writes -inf back where it belongs and says what it
    could not rewrite (a -inf whose live value is 0.7071 has no written precision)."""
    moved = MASKED.replace("[0, 0.7071, -inf]", "[0, -inf, 0.7071]")
    _, bound = check(moved)
    fixed, changes = guard.fix(moved, bound)
    assert [(b.written, new) for b, new in changes] == [("0.7071", "-inf")]
    assert fixed == MASKED.replace("[0, 0.7071, -inf]", "[0, -inf, -inf]")


def test_a_whole_number_inside_a_written_vector_is_never_told_to_bind_a_count():
    vector, count = messages("向量是 [1, 0]。"), messages("一共 3 个位置。")
    assert len(vector) == 2 and all("整个向量" in m and "长度或形状" not in m for m in vector), vector
    assert len(count) == 1 and "长度或形状" in count[0] and "整个向量" not in count[0], count


def test_a_run_step_after_di_is_told_it_is_a_quantity_not_an_ordinal():
    [message] = messages("一直训练到第 120 步。")
    assert "是一个量" in message and "写成“第 N" not in message
