"""Numbers typed into a print's text (coursekit.printed), in process: the page would show them as
if the code had computed them."""

from __future__ import annotations

import pytest

from coursekit.printed import fixed_numbers
from coursekit.engine import find_lessons
from tests.conftest import ROOT


@pytest.mark.parametrize("code, numbers", [
    ('print("直接平均：", vec(a), "（即 [2/3, 4/3]）")', ["2/3", "4/3"]),
    ('print("比例", share, "约 40%")', ["40%"]),
    ('print("sum = %.4f, 约 0.75" % total)', ["0.75"]),
    ('print("第一行 %.4f，约占 50%%" % x)', ["50%"]),  # %% is a percent sign the reader sees
    ('print("{:.4f} 即 1/4".format(x))', ["1/4"]),
    ('print(label, sep=" 0.5 ")', ["0.5"]),
    ('print(f"约为 {0.4011}")', ["0.4011"]),  # typed values, not text
    ('print("平均：", [0.6667, 1.3333], 2 / 3, -0.5)', ["0.6667", "1.3333", "2 / 3", "-0.5"]),
    ('import sys\nsys.stdout.write("平均约 0.4011\\n")', ["0.4011"]),
    ('pprint.pprint({"比例": "约 0.4011"})', ["0.4011"]),
    # what the reader sees is computed, or names rather than claims
    ('print(f"  缩放 ÷√{d}  {x:.4f} {y!r:>10}", format(p, ".1%"), "%.2f%%" % q)', []),
    ('print("zero_weights[0] =", vec(w), f"{w.sum(dim=-1)=}", "k[0:2]", "每行和 = 1", "3×3 矩阵")', []),
    ('print("位置 0 的一行", "训练 100 步", "第 10 讲", "utf-8", f"{num(step)}×{num(w)}")', []),
    ('print("掩码后", vec(s), num(-math.inf), float("-inf"), math.nan, "设为 -inf，不是 nan")', []),
    ('print("步骤 1/3")  # 示意', []),  # examples say so, as {示意} does in prose
    ('print("调试 0.5", file=sys.stderr)', []),  # not on the page
    ('label = "0.4011"\nlog("0.4011")', []),  # only what a print call itself shows is read
])
def test_numbers_typed_into_what_a_print_shows_are_found(code, numbers):
    assert [t.number for t in fixed_numbers("lessons/l99/x.py", code)] == numbers


def test_a_number_in_a_long_string_is_named_at_its_own_line_with_its_own_line_of_text():
    code = 'x = 1\nprint("""第一行\n  第二行\n  约 0.4011 呢""")\n'
    [typed] = fixed_numbers("lessons/l99/x.py", code)
    assert (typed.line, typed.number, typed.shown) == (4, "0.4011", "约 0.4011 呢")


def test_the_course_prints_no_typed_numbers():
    for lesson in find_lessons(ROOT).values():
        for path in sorted((ROOT / lesson.folder).glob("*.py")):
            assert fixed_numbers(str(path), path.read_text(encoding="utf-8")) == [], path
