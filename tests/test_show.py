"""lessons/show writes numbers the way the page shows them, and the guard reads back what it writes:
infinities and nan included (a masked score is -inf)."""

from __future__ import annotations

import math

import pytest
import torch

from coursekit.core import guard, numbers
from lessons.show import frac, fracs, num, vec

VALUES = [math.inf, -math.inf, math.nan, 0.401112, -0.25, 2.0, -0.0, 1e-5, 1234.5678, 1 / 3]


@pytest.mark.parametrize("x, written", [
    (math.inf, "inf"), (-math.inf, "-inf"), (math.nan, "nan"), (0.401112, "0.4011"), (2.0, "2"), (-0.0, "0"),
    (torch.tensor(-math.inf), "-inf"), (torch.tensor(math.nan), "nan"),
])
def test_num_writes_infinities_and_nan_as_torch_prints_them(x, written):
    assert num(x) == written


def test_vec_frac_and_fracs_write_a_masked_row():
    row = torch.tensor([0.70710678, 0.5, 0.25]).masked_fill(torch.tensor([False, True, True]), -math.inf)
    assert vec(row) == "[0.7071, -inf, -inf]"
    assert str(row) == "tensor([0.7071,   -inf,   -inf])"  # the same words torch prints
    assert frac(math.inf) == "inf" and fracs([0.5, -math.inf, math.nan]) == "[1/2, -inf, nan]"


@pytest.mark.parametrize("x", VALUES, ids=repr)
def test_the_guard_reads_what_num_writes_as_one_number_that_agrees(x):
    written = num(x)
    [token] = guard.scan_page("docs/lessons/99-t.md", f"约为 {written}。").tokens
    assert token.text == written
    assert numbers.agrees(written, round(x, 4) if math.isfinite(x) else x)


def test_the_guard_binds_a_printed_row_cell_by_cell():
    row = [0.70710678, -math.inf, math.nan, 0.0]
    found = guard.scan_page("docs/lessons/99-t.md", "```text\n" + vec(row) + "{=row}\n```")
    bound = guard.bind(found, {"row": {"numbers": row}})
    assert found.problems == [] and [b.written for b in bound] == ["0.7071", "-inf", "nan", "0"]
    assert all(b.agrees for b in bound)
