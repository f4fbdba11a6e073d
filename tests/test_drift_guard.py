"""The drift guard: numbers written in a lesson must match what its code computes."""

from __future__ import annotations

import re

import pytest

from coursekit import capture, drift, numbers, scan
from tests.conftest import LESSON, ROOT, mkdocs_build

# ---- how written numbers are read and compared ------------------------------------------------


@pytest.mark.parametrize(
    "written, live, ok",
    [
        ("0.4011", 0.401112, True),
        ("0.4011", 0.40116, False),  # more than half a unit of the 4th decimal away
        ("0.75", 0.7549, True),
        ("0.75", 0.7551, False),
        ("1", 1.0000001, True),  # integers are exact (to float noise)
        ("1", 1.3, False),
        ("2/3", 2 / 3, True),
        ("2/3", 0.6667, False),  # a fraction is an exact claim
        ("−0.5", -0.5, True),
    ],
)
def test_a_written_number_agrees_within_half_a_unit_of_its_last_digit(written, live, ok):
    assert numbers.agrees(written, live) is ok


def test_numbers_are_read_as_the_article_writes_them():
    text = "a₀=[0.4011，0.1978，0.4011]；第一项 2.0281/5.0562；[2/3, 4/3]；√2；第0坐标"
    found = [m.group(0) for m in numbers.NUMBER_RE.finditer(text)]
    assert found == ["0.4011", "0.1978", "0.4011", "2.0281", "5.0562", "2/3", "4/3", "2", "0"]


def test_code_blocks_are_not_prose_but_text_blocks_are():
    page = 'a 0.1\n\n```python\nx = 0.2\n```\n\n```text\n[[0.3]]\n```\n\n<!-- 0.4 -->\n'
    masked = scan.prose_mask(page)
    assert "0.1" in masked and "0.3" in masked
    assert "0.2" not in masked and "0.4" not in masked


PAGE = """# 例

比例是 a₀=[0.4011，0.1978，0.4011]，总和约为 1。

```python exec="1" session="t"
check("a₀=[0.4011，0.1978，0.4011]", weights)
check("总和约为 1", total)
```
"""
LIVE = [drift.Binding("a₀=[0.4011，0.1978，0.4011]", [0.401112, 0.197776, 0.401112]),
        drift.Binding("总和约为 1", [1.0])]


def test_a_page_whose_numbers_match_has_no_problem():
    assert drift.check_page(PAGE, LIVE) == []


def test_drift_names_the_line_the_written_text_the_live_value_and_the_expression():
    [problem] = drift.check_page(PAGE.replace("0.1978，", "0.1987，", 1), LIVE)
    assert problem.line == 3
    assert "正文写 0.1987" in problem.message and "代码现算 0.197776" in problem.message
    assert "绑定在第 6 行：weights" in problem.message


def test_editing_the_quote_in_the_binding_alone_fails():
    page = PAGE.replace('check("a₀=[0.4011，0.1978，', 'check("a₀=[0.4011，0.1979，')
    bindings = [drift.Binding("a₀=[0.4011，0.1979，0.4011]", LIVE[0].values), LIVE[1]]
    [problem] = drift.check_page(page, bindings)
    assert problem.line == 6 and "引用写 0.1979" in problem.message


def test_a_quote_that_is_not_in_the_prose_fails():
    [problem] = drift.check_page(PAGE, [*LIVE, drift.Binding("总和恰为 1", [1.0])])
    assert "找不到" in problem.message


def test_a_quote_with_more_numbers_than_values_fails():
    [problem] = drift.check_page(PAGE, [LIVE[0], drift.Binding("总和约为 1", [1.0, 2.0])])
    assert problem.line == 3 and "写了 1 个数" in problem.message


def test_an_unbound_decimal_fails_unless_marked_illustrative():
    page = PAGE.replace("总和约为 1。", "总和约为 1。大约要 0.5 秒。")
    [problem] = drift.check_page(page, LIVE)
    assert problem.line == 3 and "未绑定的数字 0.5" in problem.message
    assert drift.check_page(page, [*LIVE, drift.Binding("大约要 0.5 秒", None)]) == []


# ---- every bound number of the real lesson, changed one at a time --------------------------------


@pytest.fixture(scope="module")
def lesson(tmp_path_factory):
    """The lesson page source and the bindings its code recorded in a real in-process build."""
    pages = capture.build_and_capture(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("site"))
    return pages["lessons/10-attention.md"]


def changed(token: str) -> str:
    """The same number with its last digit changed by 3: always outside the tolerance."""
    return token[:-1] + str((int(token[-1]) + 3) % 10)


def test_the_lesson_binds_every_number_it_computes(lesson):
    page, bindings = lesson
    assert drift.check_page(page, bindings) == []
    bound = drift.bound_numbers(page, bindings)
    written = {n.written for n in bound}
    for token in ["0.4011", "0.1978", "5.0562", "2.0281", "1.4142", "0.7071", "0.8022", "1.1978",
                  "0.5989", "1.6044", "0.7517", "1.5035", "0.2483", "0.5035", "0.75", "0.25", "2/3", "4/3"]:
        assert token in written, token
    decimals = {m.start() for m in numbers.NON_INTEGER_RE.finditer(scan.prose_mask(page))}
    assert decimals and decimals <= {n.offset for n in bound}


def test_changing_any_bound_number_fails_naming_its_line_and_value(lesson):
    page, bindings = lesson
    bound = drift.bound_numbers(page, bindings)
    for n in bound:
        wrong = changed(n.written)
        mutated = page[: n.offset] + wrong + page[n.offset + len(n.written):]
        problems = drift.check_page(mutated, bindings)
        assert any(p.line == n.line and f"正文写 {wrong}" in p.message for p in problems), (n, problems)


# ---- the real build, end to end --------------------------------------------------------------


def edit(repo, path, old, new):
    file = repo / path
    text = file.read_text(encoding="utf-8")
    assert old in text, old
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.mark.parametrize(
    "old, new",
    [
        ("分母是它们的和 5.0562", "分母是它们的和 5.0526"),  # prose
        ("     [0.2483, 0.2483, 0.5035]]", "     [0.2483, 0.2483, 0.5053]]"),  # displayed matrix
        ("0.4011×0 + 0.1978×2 + 0.4011×2 ≈ 1.1978", "0.4011×0 + 0.1978×2 + 0.4011×2 ≈ 1.1987"),
        ("可以得到 [2/3, 4/3]", "可以得到 [2/3, 5/3]"),
    ],
)
def test_the_build_fails_on_a_changed_number_and_names_file_line_and_value(repo_copy, tmp_path, old, new):
    line = edit(repo_copy, LESSON, old, new)
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    written = [t for t in re.findall(numbers.NUMBER, new) if t not in re.findall(numbers.NUMBER, old)]
    assert re.search(rf"{LESSON}:{line}: 数字漂移：正文写 {re.escape(written[0])}，代码现算", result.stderr), result.stderr


def test_the_build_fails_when_the_code_changes_under_the_prose(repo_copy, tmp_path):
    edit(repo_copy, "lessons/l10/attention_2d.py", "wv = torch.tensor([[1., 0.], [0., 2.]]", "wv = torch.tensor([[1., 0.], [0., 3.]]")
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    # wv[1, 1] = 3: position 0's second coordinate becomes 0.1978×3 + 0.4011×3.
    assert re.search(rf"{LESSON}:150: 数字漂移：正文写 1.1978，代码现算 1.796", result.stderr), result.stderr


def test_the_build_passes_when_only_chinese_wording_changes(repo_copy, tmp_path):
    edit(repo_copy, LESSON, "人名虽然也在输入数组里", "人名其实也在输入数组里")
    edit(repo_copy, LESSON, "为什么缩放？点积累加的项越多", "为何要缩放？点积累加的项越多")
    edit(repo_copy, LESSON, "断言显示比例不变", "断言表明比例不变")
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site/lessons/10-attention/index.html").read_text(encoding="utf-8")
    assert "人名其实也在输入数组里" in html


def test_the_build_fails_on_a_new_unbound_decimal_in_the_prose(repo_copy, tmp_path):
    line = edit(repo_copy, LESSON, "负得分也是允许的", "负得分（比如 -0.3）也是允许的")
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    assert f"{LESSON}:{line}: 未绑定的数字 -0.3" in result.stderr


def test_the_build_fails_when_a_listing_raises_and_names_the_page(repo_copy, tmp_path):
    edit(repo_copy, "lessons/l10/projections.py", "separate_scores = pair_q @ pair_k.T",
         "separate_scores = pair_q @ pair_k.T @ torch.ones(3, 3)")
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    source = (repo_copy / LESSON).read_text(encoding="utf-8").splitlines()
    block = next(i for i, text in enumerate(source, 1) if "projections.py:listing" in text) - 1  # its fence
    assert f"{LESSON}:{block}: 代码块执行出错：RuntimeError" in result.stderr, result.stderr


def test_a_new_lesson_page_is_guarded_without_changing_the_guard(repo_copy, tmp_path):
    page = repo_copy / "docs/lessons/99-guard-fixture.md"
    page.write_text(
        "# 测试讲\n\n```python exec=\"1\" session=\"l99\"\n"
        "--8<-- \"snippets/lesson_preamble.py\"\n```\n\n"
        "一半是 0.5，三分之一约为 0.3333。\n\n"
        "```python exec=\"1\" session=\"l99\"\ncheck(\"一半是 0.5，三分之一约为 0.3333\", 1 / 2, 1 / 4)\n```\n",
        encoding="utf-8",
    )
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode != 0
    assert "docs/lessons/99-guard-fixture.md:7: 数字漂移：正文写 0.3333，代码现算 0.25" in result.stderr
