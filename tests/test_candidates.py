"""Where an unbound number may come from (coursekit.candidates): the lesson's values that agree at
the written precision, best first."""

from __future__ import annotations

import re
import subprocess
import sys

import torch

from coursekit import candidates
from tests.conftest import LESSONS, copy_repo

SCOPE = {
    "weights": torch.tensor([[0.401112, 0.197776, 0.401112], [0.197776, 0.401112, 0.401112]]),
    "v": torch.tensor([[1.0, 0.0], [0.0, 2.0], [1.0, 2.0]]),
    "total": 5.05623,
    "name": "not a number",
    "helper": len,
}


def test_a_scalar_a_vector_a_row_a_column_and_a_shape_find_their_value():
    assert candidates.find(["5.0562"], SCOPE) == ["total"]
    assert candidates.find(["0.4011", "0.1978", "0.4011"], SCOPE)[0] == "weights[0]"
    assert candidates.find(["0", "2", "2"], SCOPE) == ["v[:, 1]"]
    assert candidates.find(["3", "2"], SCOPE) == ["v.shape"]
    assert candidates.find(["1", "0", "0", "2", "1", "2"], SCOPE) == ["v"]


def test_ranking_prefers_names_used_nearby_then_whole_values_then_shorter():
    tied = candidates.find(["2"], SCOPE)
    assert tied[0] == "v.shape[1]" and "v[1, 1]" not in tied  # shapes (shorter first) before elements
    assert candidates.find(["2"], SCOPE, frozenset({"v"}))[0].startswith(("v", "len(v)"))


def test_nothing_agrees_at_the_written_precision():
    assert candidates.find(["0.4012"], SCOPE) == [] and candidates.find(["0.4011", "0.4011", "0.4011"], SCOPE) == []


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
    [proposal] = [line for line in result.stdout.splitlines() if "可以绑定到" in line and f" {m.group(1)} " in line]
    assert proposal.strip().startswith(f"{lesson.page}:{text[: m.start()].count(chr(10)) + 1}: ") and "写 {=" in proposal


def test_a_written_product_line_finds_the_stack_of_its_factors():
    scope = {**SCOPE, "torch": torch}
    line = ["0.4011", "1", "0.1978", "0", "0.4011", "1"]  # a₀₀×v₀₀ + a₀₁×v₁₀ + a₀₂×v₂₀
    assert candidates.find(line, scope)[0] == "torch.stack([weights[0], v[:, 0]], 1)"


def test_a_tie_is_never_sure():
    ranked = candidates.ranked(["1"], {"a": 1.0, "b": 1.0})
    assert [e for _, e in ranked] == ["a", "b"] and not candidates.sure(ranked)
    assert candidates.sure(candidates.ranked(["5.0562"], SCOPE))


def test_bind_writes_only_sure_bindings_and_the_page_reads_as_before_and_checks_clean(tmp_path):
    from coursekit import guard, scan

    lesson = LESSONS[0]
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    page = repo / lesson.page
    original = page.read_text(encoding="utf-8")
    stripped = re.sub(r"\{=[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*\}", "", original)  # every {=…} gone, {示意} kept
    page.write_text(stripped, encoding="utf-8")
    bind = subprocess.run([sys.executable, "scripts/bound_numbers.py", "--bind", lesson.page], cwd=repo,
                          capture_output=True, text=True, timeout=600)
    assert bind.returncode == 1 and "唯一最好的候选" in bind.stdout and "不写：候选并列" in bind.stdout, bind.stdout
    bound = page.read_text(encoding="utf-8")
    reader = lambda text: guard.scan_page("", scan.front_matter(text)[2]).stripped()  # noqa: E731
    assert bound != stripped and reader(bound) == reader(original)
    check = subprocess.run([sys.executable, "scripts/bound_numbers.py", lesson.page], cwd=repo,
                           capture_output=True, text=True, timeout=600)
    problems = [line for line in check.stdout.splitlines() if line.startswith(f"  {lesson.page}:") and ": " in line
                and "live" not in line and "可以绑定到" not in line]
    assert problems and all("未绑定的数字" in line for line in problems), problems  # what is left is only unbound
