"""Numbers typed into a print's text (coursekit.printed), in process: the page would show them as
if the code had computed them."""

from __future__ import annotations

import pytest

from coursekit.printed import fixed_numbers
from coursekit.engine import find_lessons
from tests.conftest import ROOT


@pytest.mark.parametrize("code, numbers", [
    ('print("直接平均：", vec(a), "（即 [2/3, 4/3]）")', ["2/3", "4/3"]),
    ('print(f"  缩放 ÷√2  {x:.4f}")', ["2"]),  # an integer in a calculation; the field's spec is code
    ('print("比例", 0.5, "约 40%")', ["40%"]),
    ('print("sum = %.4f, 约 0.75" % total)', ["0.75"]),
    ('print("{:.4f} 即 1/4".format(x))', ["1/4"]),
    ('print(label, sep=" 0.5 ")', ["0.5"]),
    ('print("位置 0 的一行", "训练 100 步", "第 10 讲", "utf-8", f"{num(step)}×{num(w)}")', []),
    ('label = "0.4011"\nlog("0.4011")', []),  # only the text written in a print call is read
])
def test_numbers_typed_into_a_prints_text_are_found_by_the_guards_rules(code, numbers):
    assert [n for _, n, _ in fixed_numbers("lessons/l99/x.py", code)] == numbers


def test_the_course_prints_no_typed_numbers():
    for lesson in find_lessons(ROOT).values():
        for name, _ in lesson.experiments:
            path = ROOT / lesson.folder / f"{name}.py"
            assert fixed_numbers(str(path), path.read_text(encoding="utf-8")) == [], path
