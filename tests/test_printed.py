"""Numbers typed into what a lesson's code prints (coursekit.core.printed), in process: the page would show
them as if the code had computed them. Each path a typed number can take to the page has a failing
case and a benign neighbour (a computed value, an ordinal or index label, a `# 示意`, a stream the
page does not show). Fixture sources only: what counts as a claim is the guard's (guard.scan_page)."""

from __future__ import annotations

import pytest

from coursekit.core.printed import by_line, describe, fixed_numbers
from coursekit.core.engine import find_lessons
from tests.conftest import ROOT


def numbers(code: str) -> list[str]:
    return [t.number for t in fixed_numbers("lessons/l99/x.py", code)]


@pytest.mark.parametrize("code, typed", [
    # typed into the text
    ('print("直接平均：", vec(a), "（即 [2/3, 4/3]）")', ["2/3", "4/3"]),
    ('print("比例", share, "约 40%")', ["40%"]),
    ('print("sum = %.4f, 约 0.75" % total)', ["0.75"]),
    ('print("第一行 %.4f，约占 50%%" % x)', ["50%"]),  # %% is a percent sign the reader sees
    ('print("{:.4f} 即 1/4".format(x))', ["1/4"]),
    ('print(a, b, sep=" 0.5 ")', ["0.5"]),
    ('print(a, end=" 约 0.5\\n")', ["0.5"]),
    ('print("约 " + "0.5")', ["0.5"]),
    ('print(" | ".join(["0.5", num(x)]))', ["0.5"]),
    # typed values
    ('print(f"约为 {0.4011}")', ["0.4011"]),
    ('print("平均：", [0.6667, 1.3333], 2 / 3, -0.5)', ["0.6667", "1.3333", "2/3", "-0.5"]),
    ('import sys\nsys.stdout.write("平均约 0.4011\\n")', ["0.4011"]),
    ('sys.stdout.writelines(["约 0.5\\n", vec(x)])', ["0.5"]),
    ('pprint.pprint({"比例": "约 0.4011"})', ["0.4011"]),
    ('pprint(0.5)', ["0.5"]),
])
def test_numbers_typed_into_what_a_print_shows_are_found(code, typed):
    assert numbers(code) == typed


@pytest.mark.parametrize("code, typed", [
    ('print(str(0.4011))', ["0.4011"]),
    ('print(repr(0.5))', ["0.5"]),
    ('print(format(0.4011, ".2f"))', ["0.4011"]),  # the spec is code
    ('print(float("0.5"))', ["0.5"]),
    ('print(round(0.4011, 2))', ["0.4011"]),  # the places are code
    ('print(int("3"))', ["3"]),
    ('print(Fraction(2, 3))', ["2/3"]),
    ('print(num(0.4011))', ["0.4011"]),
    ('print(np.float32(0.5))', ["0.5"]),
])
def test_a_conversion_of_a_typed_number_is_still_typed(code, typed):
    assert numbers(code) == typed


@pytest.mark.parametrize("code", [
    'print(str(x))', 'print(float(w[0]))', 'print(round(loss, 4))', 'print(format(p, ".1%"))', 'print(num(x, 2))',
    'print(w.round(4))',  # a method of a computed value: its argument is code
])
def test_a_conversion_of_a_computed_value_is_computed(code):
    assert numbers(code) == []


@pytest.mark.parametrize("code, typed", [
    ('print(torch.tensor([0.5, 0.3]))', ["0.5", "0.3"]),
    ('print(np.array([[1, 2], [3, 4]]))', ["1", "2", "3", "4"]),
    ('print(torch.tensor([0.5, 0.3]).tolist())', ["0.5", "0.3"]),
    ('print("比例：", torch.full((2, 2), 0.5))', ["0.5"]),
    ('print(f"权重 {torch.tensor([0.25, 0.75])}")', ["0.25", "0.75"]),
])
def test_a_tensor_or_array_literal_is_typed(code, typed):
    assert numbers(code) == typed


@pytest.mark.parametrize("code", [
    'print(torch.softmax(torch.tensor([1.0, 2.0]), -1))',  # computed from a typed input: what prints is computed
    'print(torch.tensor(weights))', 'print(np.array(rows) * 2)', 'print(torch.zeros(3, 4))', 'print(math.pi)',
    'print(torch.tensor([0.5, 0.3]))  # 示意',
])
def test_a_tensor_the_code_computes_is_computed(code):
    assert numbers(code) == []


@pytest.mark.parametrize("code, typed", [
    ('print(f"{x:.4f}，约 0.4")', ["0.4"]),  # the text of an f-string
    ('print(f"{name} 共 {3} 个位置")', ["3"]),  # a field holding a literal
    ('print("%d 个" % 3)', ["3"]),
    ('print("{} 个，{n} 行".format(3, n=2))', ["3", "2"]),
])
def test_f_strings_and_templates_show_their_text_and_literal_fields(code, typed):
    assert numbers(code) == typed


@pytest.mark.parametrize("code", [
    'print(f"  缩放 ÷√{d}  {x:.4f} {y!r:>10}", format(p, ".1%"), "%.2f%%" % q)',
    'print(f"{w.sum(dim=-1)=}")',  # a self-documenting field shows its expression as code
    'print(f"| {i} | {num(w)} |")', 'print("| --- | --- |")',
    'print(f"{num(step)}×{num(w)}")',
])
def test_format_specs_and_fields_are_code(code):
    assert numbers(code) == []


@pytest.mark.parametrize("code, typed", [
    ('print("约 0.5", file=sys.stdout)', ["0.5"]),
    ('from sys import stdout\nprint(0.5, file=stdout)', ["0.5"]),
    ('print("约 0.5", file=None)', ["0.5"]),
    ('import logging, sys\nlogging.basicConfig(stream=sys.stdout, level=logging.INFO)\nlogging.info("约 %s", 0.5)',
     ["0.5"]),
    ('logging.basicConfig(stream=sys.stdout)\nlog = logging.getLogger(__name__)\nlog.warning("共 3 个")', ["3"]),
    ('handler = logging.StreamHandler(sys.stdout)\nlogging.warning("约 0.5")', ["0.5"]),
])
def test_what_reaches_standard_output_is_shown(code, typed):
    assert numbers(code) == typed


@pytest.mark.parametrize("code", [
    'print("调试 0.5", file=sys.stderr)',  # standard error goes to the build's log, not the page
    'sys.stderr.write("调试 0.5\\n")',
    'logging.warning("约 0.5")',  # logging's default handler writes to standard error
    'warnings.warn("约 0.5")',
    'pprint.pprint([0.5], stream=sys.stderr)',
    'print("约 0.5", file=log_file)',
    'label = "0.4011"\nlog("0.4011")',  # only what an output call itself shows is read
])
def test_what_does_not_reach_the_page_is_not_read(code):
    assert numbers(code) == []


@pytest.mark.parametrize("code, typed", [
    ('print("共 3 个位置")', ["3"]),
    ('print("每行和 = 1")', ["1"]),
    ('print("3×3 矩阵")', ["3", "3"]),
    ('print("三个位置")', ["三"]),
    ('print("样本", n, "个（上文 7 个字）")', ["7"]),
])
def test_an_integer_in_a_label_is_typed_when_the_guard_calls_it_a_claim(code, typed):
    assert numbers(code) == typed


@pytest.mark.parametrize("code", [
    'print("第 1 题")', 'print("位置 0 的行", vec(w[0]))', 'print("第 10 讲", "utf-8")',
    'print("weights[0] =", vec(w))', 'print("zero_weights[0] =", vec(w), "k[0:2]")',
    'print("共 " + str(n) + " 个位置")', 'print(f"共 {len(xs)} 个位置")',
    'print("掩码后", vec(s), num(-math.inf), math.nan)',
    'print("步骤 1/3")  # 示意',  # examples say so, as {示意} does in prose
    'print("共 3 个位置")  # 示意',
])
def test_ordinals_indices_and_examples_are_not_typed_numbers(code):
    assert numbers(code) == []


@pytest.mark.parametrize("code, line, number", [
    ('x = 1\nprint("""第一行\n  第二行\n  约 0.4011 呢""")\n', 4, "0.4011"),
    ('x = 1\nprint("a",\n      vec(x),\n      0.5)\n', 4, "0.5"),
    ('print("第一行"\n      "约 0.5")\n', 2, "0.5"),  # strings joined across lines
    ('print(f"{name}："\n      f"共 3 个")\n', 2, "3"),  # f-strings joined across lines
    ('print(\n    torch.tensor([\n        [1, 2],\n        [0.5, 3],\n    ])\n)\n', 4, "0.5"),
    ('def show():\n    print("约 0.5")\n', 2, "0.5"),
    ('import logging, sys\nlogging.basicConfig(stream=sys.stdout)\n\nlogging.error(\n    "约 0.5")\n', 5, "0.5"),
])
def test_a_typed_number_is_named_at_its_own_line(code, line, number):
    found = [t for t in fixed_numbers("lessons/l99/x.py", code) if t.number == number]
    assert [t.line for t in found] == [line]


def test_a_number_in_a_long_string_is_named_with_its_own_line_of_text():
    code = 'x = 1\nprint("""第一行\n  第二行\n  约 0.4011 呢""")\n'
    [typed] = fixed_numbers("lessons/l99/x.py", code)
    assert (typed.line, typed.number, typed.shown) == (4, "0.4011", "约 0.4011 呢")


def test_an_example_mark_covers_every_line_of_its_call():
    assert numbers('print("a",\n      0.5)  # 示意\n') == []
    assert numbers('print("a",  # 示意\n      0.5)\n') == []
    assert numbers('print("a", 0.5)  # 示意\nprint("b", 0.25)\n') == ["0.25"]


def test_the_message_says_what_to_write_instead():
    [line] = by_line(fixed_numbers("lessons/l99/x.py", 'print("约", torch.tensor([0.5, 0.3]))'))
    message = describe(line)
    assert message.startswith("打印的 0.5、0.3 是写死的（「约 [0.5, 0.3]」）")
    assert "num(x)" in message and "# 示意" in message


def test_the_course_prints_no_typed_numbers():
    found = []
    for lesson in find_lessons(ROOT).values():
        for path in sorted((ROOT / lesson.folder).glob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            found += [f"{rel}:{t.line}: {t.number}（{t.shown}）" for t in fixed_numbers(rel, path.read_text(encoding="utf-8"))]
    assert found == []
