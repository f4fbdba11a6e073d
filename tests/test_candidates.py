"""Where an unbound number may come from (coursekit.core.candidates): the lesson's values that agree at
the written precision, best first."""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace
import subprocess
import sys

import pytest
import torch

from coursekit.core import candidates
from tests.conftest import LESSONS, copy_repo

SCOPE = {
    "weights": torch.tensor([[0.401112, 0.197776, 0.401112], [0.197776, 0.401112, 0.401112]]),
    "v": torch.tensor([[1.0, 0.0], [0.0, 2.0], [1.0, 2.0]]),
    "total": 5.05623,
    "name": "not a number",
    "helper": len,
}


def query(written, names=None, near=None, count=False, counted="", summed=False, shaped=False, rows=False):
    return candidates.Query(tuple(written), names or {}, near or {}, count, counted, summed, int(rows), shaped=shaped)


def best(written, scope=SCOPE, **kw):
    """(the candidates, best first; why the first is not sure, '' when it is)."""
    found, (why, _) = candidates.answer(query(written, **kw), scope, {})
    return found, why


def test_a_scalar_a_vector_a_row_a_column_and_a_shape_find_their_value():
    assert best(["5.0562"]) == (["total"], "")
    assert best(["0.4011", "0.1978", "0.4011"])[0][0] == "weights[0]"
    assert best(["0", "2", "2"])[0] == ["v[:, 1]"]
    assert best(["3", "2"])[0] == ["v.shape"]
    assert best(["1", "0", "0", "2", "1", "2"])[0] == ["v"]


def test_a_written_product_line_finds_the_stack_of_its_factors_and_its_result():
    scope = {**SCOPE, "torch": torch, "out": 1.203336}
    line = ["0.4011", "1", "0.1978", "0", "0.4011", "1"]  # a₀₀×v₀₀ + a₀₁×v₁₀ + a₀₂×v₂₀
    assert best(line, scope)[0][0] == "torch.stack([weights[0], v[:, 0]], 1)"
    assert best([*line, "1.2033"], scope)[0][0] == "torch.stack([weights[0], v[:, 0]], 1), out"


def test_nothing_agrees_at_the_written_precision():
    assert best(["0.4012"]) == ([], "none") and best(["0.4011", "0.4011", "0.4011"]) == ([], "none")


def test_a_tie_is_never_sure_and_names_its_rivals():
    found, (why, tied) = candidates.answer(query(["1.2345"]), {"a": 1.2345, "b": 1.2345}, {})
    assert found == ["a", "b"] and why == "tie" and tied == ["a", "b"]
    assert best(["0.4011"])[1] == "tie"  # weights[0, 0] or weights[0, 2]: equal only in this example


def test_a_number_a_coincidence_could_match_needs_a_name_nearby():
    assert best(["2"]) == (["v[1, 1]", "v[2, 1]"], "tie")
    assert best(["5"], {"steps": 5, "v": SCOPE["v"]}) == (["steps"], "far")  # nothing on the page names it
    assert best(["5"], {"steps": 5, "v": SCOPE["v"]}, names={"steps": 0}) == (["steps"], "")


def test_names_with_equal_values_are_one_quantity_the_nearest_searched():
    scope = {"q": SCOPE["v"].clone(), "k": SCOPE["v"].clone(), "zero": 0.3333}
    assert best(["1", "0"], scope, names={"q": 0, "k": 0})[0] == ["q[0]"]  # not a tie between q[0] and k[0]
    assert best(["1", "0"], scope, names={"k": 0})[0] == ["k[0]"]


def test_a_count_is_a_size_named_for_what_it_counts():
    scope = {"models": ("a", "b"), "d": 2, "x": torch.zeros(3, 2)}
    found, why = best(["两"], scope, count=True, counted="named", near={"model": candidates.COUNTS})
    assert found[0] == "len(models)" and why == ""  # not d, the number of coordinates
    assert best(["两"], scope, count=True, counted="other")[1] == "unnamed"  # 两组向量: no array's size
    found, why = best(["两"], scope, names={"x": 0}, count=True, counted="axis")  # 两列
    assert found[0] == "x.shape[1]" and why == "" and "x[0, 0]" not in found


def test_sizes_of_one_file_are_the_first_defined_and_of_two_files_a_tie():
    scope = {"x": torch.zeros(3, 2), "q": torch.ones(3, 2), "ratios": torch.zeros(3)}
    near = {"x": 1, "q": 1, "ratios": 1}
    found, (why, _) = candidates.answer(query(["三"], near, count=True, counted="axis"), scope, {"x": 0, "q": 0, "ratios": 0})
    assert found[0] == "len(x)" and why == ""  # q = x @ W has x's rows
    found, (why, tied) = candidates.answer(query(["三"], near, count=True, counted="axis"), scope, {"x": 0, "q": 0, "ratios": 1})
    assert why == "tie" and {"len(x)", "len(ratios)"} <= set(tied)


def test_a_sum_is_proposed_where_the_text_speaks_of_one_and_a_shape_where_of_a_shape():
    assert not any(".sum(" in e for e in best(["5.0562"], {"w": torch.tensor([2.0281, 1.0, 2.0281])})[0])
    assert best(["5.0562"], {"w": torch.tensor([2.0281, 1.0, 2.0281])}, summed=True)[0] == ["w.sum()"]
    assert best(["3", "2"], {**SCOPE, "row": torch.tensor([3., 2.])}, shaped=True)[0] == ["v.shape"]


@pytest.mark.engine
def test_bound_numbers_proposes_a_binding_for_a_number_whose_annotation_was_removed(tmp_path):
    lesson = LESSONS[0]
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    page = repo / lesson.page
    text = page.read_text(encoding="utf-8")
    m = re.search(r"(?<![\d.])(\d+\.\d+)\{=([^{}\n]+)\}", text)
    page.write_text(text[: m.end(1)] + text[m.end() :], encoding="utf-8")
    result = subprocess.run([sys.executable, "scripts/bound_numbers.py", lesson.page], cwd=repo,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 1
    # the number alone, or in its run (a product line with its result: 0.5×1 + 0.25×0 = 0.75)
    [proposal] = [line for line in result.stdout.splitlines() if "可以绑定到" in line
                  and m.group(1) in line.split(" 可以绑定到")[0].rsplit(": ", 1)[-1].split("、")]
    assert proposal.strip().startswith(f"{lesson.page}:{text[: m.start()].count(chr(10)) + 1}: ") and "写 {=" in proposal


@pytest.mark.engine
def test_bind_writes_only_sure_bindings_and_the_page_reads_as_before_and_checks_clean(tmp_path):
    from coursekit.core import guard, scan, variations

    lesson = LESSONS[0]
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    page = repo / lesson.page
    original = page.read_text(encoding="utf-8")
    stripped = re.sub(r"\{=[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*\}", "", original)  # every {=…} gone, {示意} kept
    page.write_text(stripped, encoding="utf-8")
    bind = subprocess.run([sys.executable, "scripts/bound_numbers.py", "--bind", lesson.page], cwd=repo,
                          capture_output=True, text=True, timeout=600)
    assert bind.returncode == 1 and "唯一最好的候选" in bind.stdout and "不写：并列" in bind.stdout, bind.stdout
    if variations.declared(repo, lesson.folder).input_changes:  # its declared changes tell some ties apart
        assert "在本讲输入改动后仍然相等，是同一个量" in bind.stdout, bind.stdout
    bound = page.read_text(encoding="utf-8")
    reader = lambda text: guard.scan_page("", scan.front_matter(text)[2]).stripped()  # noqa: E731
    assert bound != stripped and reader(bound) == reader(original)
    check = subprocess.run([sys.executable, "scripts/bound_numbers.py", lesson.page], cwd=repo,
                           capture_output=True, text=True, timeout=600)
    problems = [line for line in check.stdout.splitlines() if line.startswith(f"  {lesson.page}:") and ": " in line
                and "live" not in line and "可以绑定到" not in line]
    assert problems and all("未绑定的数字" in line for line in problems), problems  # what is left is only unbound


def test_a_change_of_inputs_whose_text_is_gone_is_an_error_at_its_line_of_the_data_file(tmp_path):
    from coursekit.core import variations

    root = tmp_path / "course"
    for name in variations.NEEDED:
        (root / name).mkdir(parents=True)
    (root / "lessons/l97").mkdir()
    (root / "lessons/l97/__init__.py").write_text('EXPERIMENTS = [("a", "一个实验")]\n', encoding="utf-8")
    (root / "lessons/l97/variations.toml").write_text(
        '# 说明\n\n[[input_changes]]\nfile = "lessons/l97/a.py"\nold = "x = 1"\nnew = "x = 2"\n', encoding="utf-8")
    (root / "lessons/l97/a.py").write_text("y = 1\n", encoding="utf-8")
    with pytest.raises(variations.ChangeError, match=r"lessons/l97/variations.toml:3: \[\[input_changes\]\] .*lessons/l97/a.py.*x = 1"):
        variations.varied(root, "l97", tmp_path / "copy")
    (root / "lessons/l97/variations.toml").unlink()
    assert variations.varied(root, "l97", tmp_path / "copy2") is None  # none declared: nothing to tell ties apart


def test_equal_means_equal_numbers_not_equal_when_rounded():
    from coursekit.core import variations

    assert variations.same([1.0, float("nan")], [1.0, float("nan")])
    assert not variations.same([0.40111], [0.40114]) and not variations.same([1.0], [1.0, 2.0])
    assert not variations.same(None, [1.0])


def test_every_rows_sum_is_the_value_all_row_sums_share_not_one_rows():
    scope = {"w": torch.tensor([[0.4, 0.6], [0.3, 0.7]]), "out": torch.tensor([[1.0, 0.0], [0.5, 2.0]])}
    found, why = best(["1"], scope, near={"w": 0}, summed=True, rows=True)  # 每行之和是 1
    assert found == ["w.sum(dim=-1).round(decimals=6).unique()"] and why == ""
    assert not any(e.endswith(".unique()") for e in best(["1"], scope, near={"w": 0}, summed=True)[0])  # no 每行
    found, (why, tied) = candidates.answer(query(["1"], near={"w": 0, "out": 0}, summed=True, rows=True), scope, {})
    assert why == "tie" and "out[0].sum()" in tied  # a row of another table as near: which one is meant?


def test_a_product_line_multiplies_values_of_one_experiment_file():
    scope = {"torch": torch, "ratios": torch.tensor([0.5, 0.25, 0.25]), "vectors": torch.tensor([[1., 0.], [0., 2.], [1., 2.]]),
             "x": torch.tensor([[1., 5.], [0., 6.], [1., 7.]])}  # x[:, 0] equals vectors[:, 0]
    line = ["0.5", "1", "0.25", "0", "0.25", "1"]
    found, (why, _) = candidates.answer(query(line), scope, {"ratios": 0, "vectors": 0, "x": 1})
    # x[:, 0] equals vectors[:, 0]: the nearer code ranks it first, but nearness never makes two quantities one
    assert found[0] == "torch.stack([ratios, vectors[:, 0]], 1)" and why == "tie"
    assert candidates.answer(query(line), scope, {})[1][0] == "tie"  # where the names come from unknown
    found, (why, _) = candidates.answer(query([*line, "0.75"]), {**scope, "summary": torch.tensor([0.75, 1.]),
                                                                   "other": torch.tensor([0.75, 9.])},
                                        {"ratios": 0, "vectors": 0, "summary": 0, "x": 1, "other": 1})
    assert found[0] == "torch.stack([ratios, vectors[:, 0]], 1), summary[0]" and why == "tie"  # x's column agrees too


def test_a_product_lines_result_after_its_equals_sign_is_in_its_run_a_function_value_is_not():
    from coursekit.core import guard

    def runs(text):
        found = guard.scan_page("", text)
        guard.bind(found, {})
        return [[t.text for t in run] for run, _ in guard.unbound_runs(found)]

    assert ["0.5", "1", "0.25", "0", "0.5"] in runs("第一个坐标：0.5×1 + 0.25×0 = 0.5\n")
    assert ["0.37", "0.5"] not in runs("exp(0.37) = 0.5，照样分到比例。\n")


def test_a_display_has_the_names_of_the_paragraph_introducing_it_and_its_section_heading(tmp_path):
    from coursekit.core import guard
    from coursekit.core import queries

    text = "## 逐坐标汇总 V\n\n第一个输出坐标为：\n\n<div markdown>\n0.4011×1 ≈ 0.8022\n</div>\n\n另一段 0.1978。\n"
    found = guard.scan_page("", text)
    tiers = queries.nearby(tmp_path, found)
    shown = next(t for t in found.tokens if t.text == "0.8022")
    _, near = tiers(shown)
    assert near.get("output") == 0 and near.get("v") == 1  # 输出 from the colon's paragraph, V from the heading
    _, near = tiers(next(t for t in found.tokens if t.text == "0.1978"))
    assert "output" not in near and near.get("v") == 1  # a paragraph of its own: no colon introduces it


def test_a_term_inside_a_word_that_does_not_mean_it_is_no_term():
    assert candidates.stems("把内部数值全部展开") == set() and candidates.stems("平均值") == set()
    assert candidates.stems("汇总值向量") == {"v", "value"}
    assert candidates.stems("分母就是") == {"sum"} and candidates.stems("三个得分的指数") == {"score", "exp"}


def _queries(text):
    """queries.query for each unbound run of a scanned piece of Markdown, with its names and terms nearby."""
    from pathlib import Path

    from coursekit.core import guard
    from coursekit.core import queries

    found = guard.scan_page("", text)
    guard.bind(found, {})
    tiers = queries.nearby(Path("."), found)
    return [queries.query(found, run, *tiers(run[0])) for run, _ in guard.unbound_runs(found)]


def test_a_dot_product_line_that_names_its_rows_binds_them_and_their_product():
    [q] = _queries("```text\nq₀·k₁ = 1×0 + 0×1 = 0\n```\n")
    assert q.dot == ("q[0]", "k[1]") and q.written == ("1", "0", "0", "1", "0")
    scope = {"torch": torch, "q": torch.tensor([[1., 0.], [0., 1.]]), "k": torch.tensor([[1., 0.], [0., 1.]])}
    assert candidates.answer(q, scope, {}) == (["torch.stack([q[0], k[1]], 1), q[0] @ k[1]"], ("", []))
    assert candidates.answer(replace(q, written=("1", "0", "0", "1", "1")), scope, {})[0] != [
        "torch.stack([q[0], k[1]], 1), q[0] @ k[1]"]  # a result the rows do not make: not that line


def test_a_product_lines_result_is_no_element_of_its_factors():
    scope = {"torch": torch, "ratios": torch.tensor([0.5, 0.25, 0.25]), "vectors": torch.tensor([[1., 0.], [0., 2.], [1., 2.]]),
             "summary": torch.tensor([0.75, 1.])}
    line = ["0.5", "0", "0.25", "2", "0.25", "2", "1"]  # 0.5×0 + 0.25×2 + 0.25×2 = 1: vectors[0, 0] is 1 too
    found, (why, _) = candidates.answer(query(line), scope, {"ratios": 0, "vectors": 0, "summary": 0})
    assert found[0] == "torch.stack([ratios, vectors[:, 1]], 1), summary[1]" and why == ""


def test_a_count_before_a_name_counts_it_and_decimal_places_are_a_counted_thing():
    [q] = _queries("分别与三条 K 做点积。\n")
    assert q.counted == "named" and q.near == {"k": candidates.COUNTS}
    [q] = _queries("展示值保留四位小数。\n")
    assert q.counted == "named"
    found, why = candidates.answer(q, {"PLACES": 4, "x": torch.zeros(4)}, {})
    assert found[0] == "PLACES" and why == ("", [])  # not the four elements of x


class _Build:
    """A stand-in for engine.Build whose lesson is `scope`, in this process."""

    def __init__(self, scope, origin=None):
        self.scope, self.origin = scope, origin or {}

    def apply(self, lesson_id, function, argument):
        return function(self.scope, self.origin, argument)


def _proposals(text, scope, origin=None, root=None):
    from pathlib import Path

    from coursekit.core import guard
    from coursekit.core import proposer

    found = guard.scan_page("", text)
    guard.bind(found, {})
    return {" ".join(p.written): (p.exprs[0], p.why_not) for p in proposer.proposals(_Build(scope, origin), Path(root or "."), "l0", found)}


def test_a_count_in_a_paragraph_counts_what_its_sure_proposals_bind():
    scope = {"vectors": torch.tensor([[1., 0.], [0., 2.], [1., 2.]]), "x": torch.tensor([[1., 0.], [0., 1.], [1., 1.]])}
    text = "假设三个位置分别带来二维向量 [1, 0]、[0, 2]、[1, 2]。\n"
    found = _proposals(text, scope, {"vectors": 0, "x": 1})
    assert found["1 0 0 2 1 2"] == ("vectors", "")
    assert found["三"] == ("len(vectors)", "") and found["二"] == ("vectors.shape[1]", "")  # its paragraph binds vectors
    alone = _proposals("假设三个位置分别带来二维向量。\n", scope, {"vectors": 0, "x": 1})
    assert alone["三"][1] == "tie"  # no binding in the paragraph: the rows of vectors or of x
    beside = _proposals("向量是 [1, 0]、[0, 2]、[1, 2]。\n\n三个位置各有一行。\n", scope, {"vectors": 0, "x": 1})
    assert beside["三"] == ("len(vectors)", "tie")  # bound in the paragraph before: a hint, not the page naming it here
    both = _proposals("向量是 [1, 0]、[0, 1]、[1, 1]。\n\n三个位置各有 [1, 0]、[0, 2]、[1, 2]。\n", scope, {"vectors": 0, "x": 1})
    assert both["三"] == ("len(vectors)", "")  # its own paragraph's before the one beside it


def test_matrices_shown_side_by_side_and_named_bind_as_their_concatenation():
    scope = {"torch": torch, "q": torch.tensor([[1., 0.], [0., 1.]]), "k": torch.tensor([[1., 0.], [0., 1.]]),
             "v": torch.tensor([[1., 0.], [0., 2.]])}
    text = "```text\nQ = K = [[1, 0],      V = [[1, 0],\n         [0, 1]]           [0, 2]]\n```\n"
    found = _proposals(text, scope)
    assert found == {"1 0 1 0 0 1 0 2": ("torch.cat([q, v], 1)", "")}  # Q, the first of Q = K, and no pieces
    assert _proposals(text.replace("[0, 2]]", "[0, 3]]"), scope).get("1 0 1 0 0 1 0 3") is None


def test_the_value_every_cell_a_mask_blocks_shares_is_one_candidate():
    mask = torch.tensor([[True, False], [True, True]])
    scope = {"mask": mask, "masked": torch.tensor([[0.7, float("-inf")], [0.1, 0.3]]),
             "other": torch.tensor([[0.5, float("-inf")], [0.2, 0.4]])}
    found, why = best(["−∞"], scope, near={"mask": 0, "score": 0})  # 掩码…分数换成 −∞
    assert found[0] == "masked[~mask].unique()" and why == ""  # not masked[0, 1], one cell of the same table
    found, why = best(["−∞"], scope, near={"score": 0})
    assert why == "tie"  # masked and other block their cells alike: the text names neither more


def test_a_name_made_of_more_of_the_nearest_terms_is_nearer():
    assert candidates._tier("masked.scores", {}, {"mask": 0, "score": 0}) < candidates._tier("first.scores", {}, {"mask": 0, "score": 0})
    assert candidates._tier("masked.scores", {}, {"score": 0}) == candidates._tier("first.scores", {}, {"score": 0}) == 0
    assert candidates._tier("models", {}, {"model": candidates.COUNTS}) == candidates.COUNTS  # a count's tier stays exact


def test_a_term_in_the_clause_just_before_a_number_is_nearer_than_its_paragraphs():
    [q] = _queries("指数为 1.25，分到的比例也是 0.6001。\n")[1:]
    assert q.near["weight"] == candidates.CLAUSE and q.near["exp"] == 0  # 比例 only in its clause
    scope = {"exps": torch.tensor([0.6001, 2.0]), "weights": torch.tensor([0.6001, 0.3999])}
    # 比例 in the clause ranks the weights first; the paragraph names the exponentials too: a tie, not a choice
    assert candidates.answer(q, scope, {}) == (["weights[0]", "exps[0]"], ("tie", ["weights[0]", "exps[0]"]))
    [q] = _queries("按比例分配，指数为 0.6001。\n")
    assert "weight" not in q.near and candidates.answer(q, scope, {})[0][0] == "exps[0]"


def test_a_vector_written_as_a_named_row_binds_that_row():
    [q] = _queries("它的查询向量是 q₀=[1, 0]。\n")
    assert q.row == "q[0]"
    scope = {"q": torch.tensor([[1., 0.], [0., 1.]]), "pair": torch.tensor([[1., 0.], [0., 1.]]) * 1}
    assert candidates.answer(q, scope, {}) == (["q[0]"], ("", []))  # not a tie with pair[0]
    assert candidates.answer(replace(q, written=("0", "1")), scope, {})[0] != ["q[0]"]  # q₀ is not [0, 1]


def test_a_count_of_rows_is_a_length_and_of_columns_the_last_axis():
    [q] = _queries("前两行没有用到它。\n")
    assert q.along == "rows"
    scope = {"q": torch.zeros(3, 2), "pairs": torch.zeros(2, 5)}
    found, _ = candidates.answer(replace(q, names={"q": 0}), scope, {})
    assert "q.shape[1]" not in found and found[0] == "len(pairs)"  # q has two columns, not two rows
    [q] = _queries("V 有两列。\n")
    assert q.along == "columns" and q.names["v"] == candidates.CLAUSE  # the name just before it
    found, why = candidates.answer(q, {"v": torch.zeros(3, 2), "w": torch.zeros(2, 2)}, {"v": 0, "w": 1})
    assert found[0] == "v.shape[1]" and why == ("", [])


def test_a_vector_said_to_be_row_i_is_a_row_i_before_a_whole_vector():
    [q] = _queries("所以位置 0 得到新向量 [0.8022, 1.1978]。\n")
    assert q.index == "0"
    scope = {"output": torch.tensor([[0.8022, 1.1978], [0.5989, 1.6044]]), "first_output": torch.tensor([0.8022, 1.1978])}
    assert candidates.answer(q, scope, {})[0][0] == "output[0]"
    assert candidates.answer(replace(q, index=""), scope, {})[0][0] == "first_output"  # no index: the whole vector first


def test_the_names_of_a_shown_part_of_a_file_are_only_that_parts(tmp_path):
    from coursekit.core import queries
    from coursekit.core import scan

    (tmp_path / "a.py").write_text("# --8<-- [start:one]\nshown = 1\n# --8<-- [end:one]\nlater = 2\n", encoding="utf-8")
    [block] = scan.fences('```python exec="1" file="a.py:one"\n```\n')
    assert queries.assigned(tmp_path, block) == {"shown"}
    [block] = scan.fences('```python exec="1" file="a.py"\n```\n')
    assert queries.assigned(tmp_path, block) == {"shown", "later"}


def test_the_value_of_a_term_is_that_term_not_v():
    assert candidates.stems("三个指数值约为") == {"exp"} and candidates.stems("分数值") == {"score"}
    assert candidates.stems("汇总值") == {"v", "value"}  # a 值 of its own is still V


def test_a_count_within_a_row_counts_its_columns():
    [q] = _queries("这一行的三个得分共同决定它。\n")
    assert q.along == "columns"
    scope = {"scores": torch.zeros(3, 3), "exps": torch.zeros(2, 3)}
    found, why = candidates.answer(replace(q, near={"score": candidates.COUNTS}), scope, {"scores": 0, "exps": 0})
    assert found[0] == "scores.shape[1]" and why == ("", [])
    [q] = _queries("一共三个得分。\n")
    assert q.along == ""


def test_a_difference_or_a_ratio_is_a_computed_name_never_an_element_that_agrees():
    scope = {"v": torch.tensor([[1.0, 0.0], [0.0, 2.0]]), "increase": 2.0}
    [q] = _queries("第 0 坐标多了 2。\n")
    assert q.derived
    assert candidates.answer(q, scope, {})[0] == ["increase"]  # not v[1, 1]
    assert candidates.answer(q, {"v": scope["v"]}, {})[0] == []
    [q] = _queries("位置 1 约是位置 0 的 2.0 倍。\n")
    assert q.derived and candidates.answer(q, {"v": scope["v"]}, {})[0] == []
    [q] = _queries("第 0 坐标是 2。\n")
    assert not q.derived


def test_a_tie_among_rows_is_settled_by_the_one_row_its_paragraph_reads():
    scope = {"exps": torch.tensor([[1.0, 2.0281, 0.0], [2.0281, 1.0, 0.0]]), "sums": torch.tensor([3.0281, 3.0281 + 0.0001])}
    text = "第 1 行的指数是 2.0281，分母是 3.0282。\n"
    found = _proposals(text, scope)
    assert found["3.0282"] == ("sums[1]", "") and found["2.0281"] == ("exps[1, 0]", "")
    alone = _proposals("第 1 行的指数是 2.0281。\n", scope)
    assert alone["2.0281"][1] == "tie"  # no sure neighbour: exps[0, 1] or exps[1, 0]
    two_rows = _proposals("指数是 2.0281，分母是 3.0282 与 3.0281。\n", scope)
    assert two_rows["2.0281"][1] == "tie"  # its paragraph reads rows 0 and 1


def test_a_latin_name_in_the_clause_before_a_number_is_nearer_than_its_paragraphs():
    [q] = _queries("按比例分配：exp(a) = 0.6001。\n")
    assert q.near["exp"] == candidates.CLAUSE
    scope = {"exps": torch.tensor([0.6001, 2.0]), "weights": torch.tensor([0.6001, 0.3999])}
    assert candidates.answer(replace(q, near={**q.near, "weight": 0}), scope, {})[0][0] == "exps[0]"


def test_a_vectors_count_is_its_length_once_not_also_its_numel():
    found, _ = candidates.answer(query(["四"], count=True, counted="axis"), {"shares": torch.full((4,), 0.25)}, {})
    assert found == ["len(shares)"]
    found, _ = candidates.answer(query(["四"], count=True, counted="axis"), {"table": torch.zeros(2, 2)}, {})
    assert found == ["table.numel()"]  # of a table, its cells


def test_a_number_under_a_root_sign_is_the_dimension_d():
    [q] = _queries("每个数都除以 √2。\n")
    assert q.near["d"] == candidates.CLAUSE
    assert candidates.answer(q, {"d": 2, "step": 2.0}, {}) == (["d", "step"], ("", []))
    [q] = _queries("每个数都除以 2。\n")
    assert candidates.answer(q, {"d": 2, "step": 2.0}, {})[1][0] == "tie"


def test_the_same_value_of_a_computation_the_page_shows_farther_off_is_no_rival():
    scope = {"masked": SimpleNamespace(weights=torch.tensor([[1.0, 0.0], [0.3302, 0.6698]])),
             "first": SimpleNamespace(weights=torch.tensor([[1.0, 0.0], [0.5, 0.5]]))}
    near = {"weight": 0}
    assert candidates.answer(query(["1", "0"], names={"masked": 1}, near=near), scope, {}) == (
        ["masked.weights[0]", "first.weights[0]"], ("", []))  # masked's code is the nearest shown
    assert candidates.answer(query(["1", "0"], near=near), scope, {})[1][0] == "tie"  # neither shown nearer
    scope["first"] = SimpleNamespace(scores=torch.tensor([[1.0, 0.0], [0.5, 0.5]]))  # another value: a rival
    assert candidates.answer(query(["1", "0"], names={"masked": 1}, near={"weight": 0, "score": 0}), scope, {})[1][0] == "tie"


def test_the_terms_of_the_pages_title_bring_names_nearer_than_the_rest_of_the_lesson():
    from pathlib import Path

    from coursekit.core import guard
    from coursekit.core import queries

    found = guard.scan_page("", "# 11｜掩码\n\n## 一节\n\n结果是 0.25。\n")
    _, near = queries.nearby(Path("."), found)(next(t for t in found.tokens if t.text == "0.25"))
    assert near["mask"] == queries.TOPIC and queries.TOPIC < candidates.ELSEWHERE


def test_an_infinity_is_no_coincidence():
    assert not candidates.weak(["−∞"]) and candidates.weak(["0"])


def test_a_full_width_comma_outside_brackets_parts_two_clauses():
    from coursekit.core import guard

    def runs(text):
        found = guard.scan_page("", text)
        guard.bind(found, {})
        return [[t.text for t in run] for run, _ in guard.unbound_runs(found)]

    assert runs("exp(a) = 1，0 分照样分到比例。\n") == [["1"], ["0"]]
    assert runs("向量是 [1，0]。\n") == [["1", "0"]] and runs("形状 (3，2)。\n") == [["3", "2"]]
    assert runs("比例是 1、0。\n") == [["1", "0"]]


def test_a_function_of_a_written_number_is_the_texts_own_arithmetic():
    zero, q = _queries("exp(0) = 1.0，照样分到比例。\n")  # the 0 is a claim too: a function's argument (ln 4)
    assert not zero.of_written and q.of_written and candidates.answer(q, {"exps": torch.tensor([1.0, 2.0])}, {}) == ([], ("none", []))
    [q] = _queries("exp(a) = 1.0，照样分到比例。\n")
    assert not q.of_written


def test_a_paragraph_with_sure_bindings_of_its_own_takes_no_names_from_beside_it():
    scope = {"vectors": torch.tensor([[1., 0.], [0., 2.], [1., 2.]]), "x": torch.tensor([[1., 0.], [0., 1.], [1., 1.]]),
             "w": torch.tensor([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]])}
    beside = "向量是 [1, 0]、[0, 2]、[1, 2]。\n\n后面两个位置各读一点。\n"
    assert _proposals(beside, scope, {"vectors": 0, "x": 1, "w": 2})["两"] == ("vectors.shape[1]", "tie")  # x's too
    own = "向量是 [1, 0]、[0, 2]、[1, 2]。\n\n比例是 [0.25, 0.5, 0.25]，后面两个位置各读一点。\n"
    found = _proposals(own, scope, {"vectors": 0, "x": 1, "w": 2})
    assert found["0.25 0.5 0.25"] == ("w[1]", "") and found["两"][1] == "tie"  # not the vectors of the paragraph before


def test_a_vector_a_subscripted_name_is_changed_to_is_a_row_of_that_index():
    [q] = _queries("只把 q₂ 改成 [0, 0]，`change` 不变。\n")
    assert q.index == "2"
    scope = {"zero_q": torch.tensor([[1., 0.], [0., 1.], [0., 0.]]), "change": torch.tensor([[0., 0.], [0., 0.], [1., 1.]])}
    assert candidates.answer(q, scope, {}) == (["zero_q[2]", "change[0]", "change[1]"],  # the row named first,
                                               ("tie", ["zero_q[2]", "change[0]", "change[1]"]))  # yet change's agree
    assert candidates.answer(replace(q, index=""), scope, {})[1][0] == "tie"  # rows 0 and 1 of change as near


def test_the_cells_of_a_row_before_its_blocked_ones_are_one_candidate():
    inf = float("-inf")
    scope = {"scores": torch.tensor([[0.7071, inf, inf], [0.0, 0.7071, inf], [0.7071, 0.7071, 1.4142]])}
    assert best(["0", "0.7071"], scope) == (["scores[1, :2]"], "")
    assert best(["0.7071", "0.7071"], scope) == ([], "none")  # row 2 blocks nothing: no slice of it


def test_an_average_in_the_clause_before_a_number_is_a_mean_of_a_list_or_a_tensor():
    [q] = _queries("比下限的平均 0.3301 还低。\n")
    assert q.averaged
    floor = [0.0, 0.4621, 0.4621, 0.4621, 0.0, 0.4621, 0.4621]  # a list: sum(x) / len(x), no .mean()
    assert candidates.answer(q, {"floor": floor}, {}) == (["sum(floor) / len(floor)"], ("", []))
    assert candidates.answer(q, {"floor": torch.tensor(floor)}, {})[0] == ["floor.mean()"]
    [q] = _queries("比下限 0.3301 还低。\n")
    assert not q.averaged and candidates.answer(q, {"floor": floor}, {})[0] == []


def test_the_positions_a_sum_lists_are_the_columns_it_adds():
    [q] = _queries("位置 4、5 合计约 0.9874。\n")
    assert q.summed and q.span == (4, 5)
    weights = torch.tensor([[0.1, 0.1, 0.1, 0.0063, 0.7122, 0.2752, 0.0]] * 2)
    weights[1] = torch.tensor([0.0, 0.0, 0.0126, 0.0, 0.7122, 0.2752, 0.0])
    found, why = candidates.answer(q, {"w": weights}, {})
    assert found[0] == "w[0, 4:6].sum()" and why[0] == "tie"  # rows 0 and 1 add up alike
    assert candidates.answer(replace(q, span=None), {"w": weights[:1]}, {})[0] == []  # no span: no slice
    [q] = _queries("位置 4、6 合计约 0.7122。\n")
    assert q.span is None  # not one run of positions


def test_a_position_in_the_clause_before_a_number_brings_a_by_position_name_near():
    [q] = _queries("按位置看，位置 1 的损失只有约 0.0508。\n")
    assert q.near["position"] == candidates.CLAUSE
    scope = {"open_by_position": torch.tensor([0.0, 0.0508, 0.3]), "other": torch.tensor([0.2, 0.0508])}
    assert candidates.answer(q, scope, {}) == (["open_by_position[1]", "other[1]"], ("", []))
    [q] = _queries("只有约 0.0508。\n")
    assert candidates.answer(q, scope, {})[1][0] in ("tie", "far")


def test_a_text_display_is_no_code_the_nearest_code_is_the_listing_before_it(tmp_path):
    from coursekit.core import guard
    from coursekit.core import queries

    text = ('```python exec="1"\nshown = 1\n```\n\n```text\n[[1, 0]]\n```\n\n结果是 0.25。\n')
    found = guard.scan_page("", text)
    names, _ = queries.nearby(tmp_path, found)(next(t for t in found.tokens if t.text == "0.25"))
    assert names.get("shown") == 1  # the listing, not the display between


def test_of_equal_values_the_one_a_paragraph_names_stands_for_them():
    table = torch.tensor([[1.0, 0.0], [0.3302, 0.6698]])
    scope = {"masked": SimpleNamespace(weights=table), "stages": SimpleNamespace(weights=table.clone())}
    near = {"weight": candidates.CLAUSE}  # 比例是 […]: both names equally near by the term
    found, why = candidates.answer(query(["0.3302", "0.6698"], names={"stages": 0}, near=near), scope, {})
    assert found == ["stages.weights[1]"] and why == ("", [])  # the one the paragraph names, not masked, defined first
    assert candidates.answer(query(["0.3302", "0.6698"], near=near), scope, {})[0] == ["masked.weights[1]"]


def test_one_number_of_a_name_its_paragraph_names_still_ties_with_another_name_that_agrees():
    mask = torch.tensor([[True, False], [True, True]])
    scope = {"mask": mask, "masked": SimpleNamespace(weights=torch.tensor([[1.0, 0.0], [0.3, 0.7]])),
             "cut_weights": torch.tensor([[0.6, 0.0], [0.4, 0.6]])}
    near = {"weight": candidates.CLAUSE}  # 分到的比例也是 0
    found, why = candidates.answer(query(["0"], names={"masked": 0}, near=near), scope, {})
    assert found[0] == "masked.weights[~mask].unique()" and why[0] == "tie"  # cut_weights' cell agrees, unnamed
    assert candidates.answer(query(["0"], names={"masked": 1}, near=near), scope, {})[1][0] == "tie"  # only shown nearby
    scope["cut_weights"] = torch.tensor([[0.6, 0.0], [0.3, 0.7]])  # a run: another name's same row still rivals
    assert candidates.answer(query(["0.3", "0.7"], names={"masked": 0}, near=near), scope, {})[1][0] == "tie"


def test_a_name_holding_a_tables_mean_has_no_rival_in_that_mean():
    scope = {"numbers": torch.tensor([1.0, 2.0, 4.0]), "mean": torch.tensor(7 / 3)}
    q = replace(query(["2.3333"]), averaged=True)
    assert candidates.answer(q, scope, {}) == (["mean", "numbers.mean()"], ("", []))
    scope["other"] = 2.33331  # another name with that value is still a rival
    assert candidates.answer(q, scope, {})[1][0] == "tie"


def test_a_chinese_fraction_is_a_share_not_a_count():
    scope = {"shares": [0.25, 0.25, 0.25, 0.25], "torch": torch}
    found = _proposals("最好的猜法是每个各给四分之一。\n", scope)
    assert found["四分之一"] == ("torch.tensor(shares).unique()", "")  # a count of 四 would find no 0.25


def test_a_vector_each_of_whose_cells_is_the_number_binds_their_one_value_where_the_text_says_each():
    scope = {"shares": torch.tensor([0.25, 0.25, 0.25, 0.25])}
    assert _proposals("每个各给 0.25。\n", scope)["0.25"] == ("shares.unique()", "")
    assert _proposals("每个给 0.25。\n", scope)["0.25"] == ("shares[0]", "tie")  # no 各: one cell of four, by chance


def test_a_tie_among_cells_of_one_table_is_settled_by_the_position_its_sentence_lists():
    scope = {"floor": torch.tensor([0.0, 0.4621, 0.4621, 0.4621, 0.0])}
    found = _proposals("位置 1、2、3 上，三段上文各有一段是“小”，平摊下来约为 0.4621。\n", scope)
    assert found["0.4621"] == ("floor[1]", "")
    assert _proposals("平摊下来约为 0.4621。\n", scope)["0.4621"][1] == "tie"
    assert _proposals("位置 0 和 4 的下限是 0。\n", scope)["0"] == ("floor[0]", "")


def test_cells_the_text_says_are_alike_are_the_first_and_a_tie_again_if_the_lessons_changes_part_them_or_miss_them(monkeypatch):
    from pathlib import Path

    from coursekit.core import proposer, variations

    scope = {"w": torch.tensor([[1.0, 0.0, 0.0], [1 / 3, 1 / 3, 1 / 3]])}
    found = _proposals("三个位置平分，各约 0.3333。\n", scope)
    assert found["0.3333"] == ("w[1, 0]", "alike")
    assert _proposals("三个位置平分，约 0.3333。\n", scope)["0.3333"][1] == "tie"  # no 各

    def settled(after):
        p = proposer.Proposal(1, [], ["w[1, 0]", "w[1, 1]", "w[1, 2]"], "alike", ["w[1, 0]", "w[1, 1]", "w[1, 2]"])
        monkeypatch.setattr(variations, "varied", lambda *a, **k: SimpleNamespace(close=lambda: None))
        before = {e: [1 / 3] for e in p.tied}
        monkeypatch.setattr(variations, "values",
                            lambda build, lesson, exprs: after if isinstance(build, SimpleNamespace) else before)
        [p] = proposer.settle_ties(object(), Path(__file__).parent, "l0", [p])
        return p.why_not

    assert settled({"w[1, 0]": [0.3], "w[1, 1]": [0.3], "w[1, 2]": [0.3]}) == "alike"
    assert settled({"w[1, 0]": [0.5], "w[1, 1]": [0.3], "w[1, 2]": [0.2]}) == "tie"  # alike only in this example
    assert settled({"w[1, 0]": [1 / 3], "w[1, 1]": [1 / 3], "w[1, 2]": [1 / 3]}) == "tie"  # untested: constant cells


def test_a_tie_is_settled_only_when_every_tied_candidate_moves_with_the_first(monkeypatch):
    from pathlib import Path

    from coursekit.core import proposer, variations

    scope = {f"t{i}": torch.tensor([0.5, float(i)]) for i in range(15)}  # fifteen cells equal to 0.5 today
    found, why = best(["0.5"], scope)
    assert why == "tie" and len({e.split("[")[0] for e in found}) <= 3  # three shown
    tied = candidates.answer(query(["0.5"]), scope, {})[1][1]
    assert len(tied) == 15  # every one handed on: none left out of the test of a change

    def settled(after):
        p = proposer.Proposal(1, [], tied[:3], "tie", list(tied))
        changed, lesson_build = SimpleNamespace(close=lambda: None), object()
        monkeypatch.setattr(variations, "varied", lambda *a, **k: changed)
        before = {e: [0.5] for e in tied}
        monkeypatch.setattr(variations, "values", lambda build, lesson, exprs: after if build is changed else before)
        [p] = proposer.settle_ties(lesson_build, Path(__file__).parent, "l0", [p])
        return p.why_not

    assert settled({e: [0.7] for e in tied}) == "same"  # all move together: one quantity
    assert settled({**{e: [0.7] for e in tied}, tied[-1]: [0.5]}) == "tie"  # the last stays put: two quantities


def test_declared_changes_that_break_the_lesson_are_an_error_naming_its_package(monkeypatch):
    from pathlib import Path

    from coursekit.core import engine, proposer, variations

    changed = SimpleNamespace(close=lambda: None)
    lesson_build = SimpleNamespace(lessons={"l0": SimpleNamespace(folder="lessons/l0")})

    def values(build, lesson, exprs):
        if build is changed:
            raise engine.LessonError("运行 lessons/l0/a.py 出错：RuntimeError: size 5 must match size 4")
        return {e: [0.5] for e in exprs}

    monkeypatch.setattr(variations, "varied", lambda *a, **k: changed)
    monkeypatch.setattr(variations, "values", values)
    p = proposer.Proposal(1, [], ["a[0]", "b[0]"], "tie", ["a[0]", "b[0]"])
    with pytest.raises(variations.ChangeError, match=r"^lessons/l0/variations.toml: input_changes .*lessons/l0/a.py.*size 5"):
        proposer.settle_ties(lesson_build, Path(__file__).parent, "l0", [p])
    assert p.why_not == "tie"  # nothing settled


def test_a_row_the_text_names_whose_cells_are_all_the_number_binds_that_rows_one_value():
    scope = {"first": SimpleNamespace(scores=torch.tensor([[0.7, 0.0, 0.0], [0.0, 0.7, 0.0], [0.0, 0.0, 0.0]])),
             "mask": torch.tensor([[True, False, False], [True, True, False], [True, True, True]]),
             "zero_scores": torch.tensor([[0.7, 0.0, 0.0], [0.0, 0.7, 0.0], [0.7, 0.7, 1.4]])}
    assert _proposals("第 2 行的分数全为 0。\n", scope)["0"] == ("first.scores[2].unique()", "")


def test_a_count_of_readable_positions_is_a_sum_of_a_mask():
    scope = {"mask": torch.tensor([[True, False, False], [True, True, False], [True, True, True]]), "k": torch.zeros(3, 2)}
    assert _proposals("三个可读位置平分。\n", scope)["三"] == ("mask[2].sum()", "")


def test_the_one_value_a_mask_selects_has_no_rival_in_one_cell_that_happens_to_agree():
    scope = {"mask": torch.tensor([[True, False], [True, True]]), "zero_scores": torch.tensor([[0.7, 0.0], [0.3, 0.7]]),
             "masked_scores": torch.tensor([[0.7, 5.0], [0.0, 0.7]])}  # masked_scores[1, 0] is 0, and no blocked cell
    assert _proposals("把分数改成 0。\n", scope)["0"] == ("zero_scores[~mask].unique()", "")


def test_every_rows_sum_in_the_numbers_own_clause_has_no_rival_in_one_row_of_another_table():
    scope = {"w": torch.tensor([[0.4, 0.6], [0.3, 0.7]]), "out": torch.tensor([[1.0, 0.0], [0.5, 2.0]])}
    found = _proposals("`w` 与 `out` 都在这里，每行的和仍然是 1。\n", scope)
    assert found["1"] == ("w.sum(dim=-1).round(decimals=6).unique()", "")


def test_a_count_of_dao_counts_questions_and_a_subscripted_name_is_its_rows_table():
    scope = {"inputs": torch.zeros(192, 7), "k": torch.zeros(192, 2)}
    found = _proposals("题目从 192 道变成了 1344 道。\n", scope)
    assert found["192"] == ("len(inputs)", "") and found["1344"] == ("inputs.numel()", "")
    scope = {"zero_q2": torch.tensor([[1., 0.], [0., 1.], [0., 0.]]), "masked_change": torch.zeros(3, 2)}
    # the row q₂ names first; 掩码 names masked_change, whose rows are [0, 0] too: a tie
    assert _proposals("加上掩码，只把 q₂ 改成 [0, 0]。\n", scope)["0 0"] == ("zero_q2[2]", "tie")


def test_a_number_the_text_gives_a_function_binds_a_name_never_a_cell_that_holds_it():
    [q, _] = _queries("位置 1 的第 0 维是 sin 1 ≈ 0.8415。\n")[-2:]
    assert q.argument and q.written == ("1",)
    scope = {"pe": torch.tensor([[0., 1.], [0.8415, 0.5403]]), "angle": 1.0}
    assert candidates.answer(q, {"pe": scope["pe"]}, {})[0] == []  # cos 0 = 1 is a cell, not the angle
    assert candidates.answer(q, scope, {})[0] == ["angle"]
    [q] = [x for x in _queries("每行的和是 1。\n")]
    assert not q.argument
    assert not _queries("最后 loss 0.4012。\n")[0].argument and _queries("ln(4) ≈ 1.3863。\n")[0].argument


@pytest.mark.parametrize("text, located", [
    ("`pe` 的每一对，sin² 加 cos² 都是 1。\n", False),  # no cell is meant: a sum of squares
    ("`pe` 在位置 0 的坐标 1 是 1。\n", True),  # the labels say which cell
    ("`pe` 里 `pe[0, 1]` 是 1。\n", True),
])
def test_a_lone_small_number_binds_one_cell_only_where_the_text_says_which_cell(text, located):
    """cos 0 = 1 sits in a cell under every change of the inputs: a cell that agrees with a lone 1 is
    written only where the sentence names the cell."""
    [q] = [x for x in _queries(text) if x.written == ("1",)][-1:]
    assert q.located is located
    got, (why, _) = candidates.answer(q, {"pe": torch.tensor([[0., 1.], [0.8415, 0.5403]])}, {})
    assert got[0] == "pe[0, 1]" and why == ("" if located else "cell")


def test_a_tie_is_settled_by_the_row_its_paragraph_reads_of_the_same_table_only():
    """第 1 行 … 3.0281{=sums[1]} settles a tie among cells of sums' row 1; the same index of another
    table (a list of shares, all 0.25) is a coincidence of indices and settles nothing."""
    from coursekit.core import proposer

    run = [SimpleNamespace(segment=0)]
    sure = (["chances[2, 1]"], ("", []))
    same_table = (["chances[2, 0]", "chances[3, 0]"], ("tie", ["chances[2, 0]", "chances[3, 0]"]))
    other_table = (["shares[0]", "shares[2]"], ("tie", ["shares[0]", "shares[1]", "shares[2]", "shares[3]"]))
    still_sure, in_its_row, other = proposer._by_row([run, run, run], [sure, same_table, other_table], [None, None, None])
    assert still_sure == sure and other == other_table
    assert in_its_row == (["chances[2, 0]", "chances[3, 0]"], ("", []))
    # where the text names row 2 (第 2 行), that row of any table settles it
    assert proposer._by_row([run, run], [sure, other_table], [None, 2])[1] == (["shares[2]", "shares[0]"], ("", []))


def test_the_builds_hint_offers_cells_said_alike_as_candidates_not_as_certain():
    """Only --bind's change of the inputs makes alike cells sure (cos 0 = 1 in two cells is alike too)."""
    from coursekit.core import proposer

    token = SimpleNamespace(start=0, end=1, text="1")
    alike = proposer.Proposal(1, (token,), ("pe[0, 1]", "pe[0, 3]"), "alike", ("pe[0, 1]", "pe[0, 3]"))
    assert proposer.offer(alike, "1").startswith("；候选：{=pe[0, 1]}、{=pe[0, 3]}（")
    assert proposer.offer(replace(alike, why_not=""), "1") == "；写 {=pe[0, 1]} 绑定？"
