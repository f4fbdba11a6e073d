"""Every lesson's numbers against its live code, in process: all bound, and any one changed fails."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

import pytest

from coursekit import engine, guard, pages
from tests.conftest import ROOT, SEED

PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs/lessons").glob("[0-9]*.md"))


@pytest.fixture(scope="module")
def build():
    b = engine.Build(ROOT)
    yield b
    b.close()


def checked(build, path: str, text: str) -> tuple[guard.Scan, list[guard.Bound]]:
    found, bound, _ = pages.check(build, ROOT, ROOT / path, text)
    return found, bound


@pytest.mark.parametrize("path", PAGES)
def test_every_number_of_the_lesson_agrees_with_its_code(build, path):
    found, bound = checked(build, path, (ROOT / path).read_text(encoding="utf-8"))
    assert found.problems == []
    assert bound


def changed(token: str) -> str:
    """The same number with its last digit changed by 3: always outside the tolerance."""
    return token[:-1] + str((int(token[-1]) + 3) % 10)


@pytest.mark.parametrize("path", PAGES)
def test_changing_any_bound_number_fails_naming_its_line_and_value(build, path):
    text = (ROOT / path).read_text(encoding="utf-8")
    _, bound, offset = pages.check(build, ROOT, ROOT / path, text)
    for b in bound:
        wrong = changed(b.written)
        at = offset + b.start
        mutated = text[:at] + wrong + text[at + len(b.written):]
        found, _ = checked(build, path, mutated)
        assert any(p.line == b.line and f"正文写 {wrong}" in p.message for p in found.problems), (b, found.problems)


def test_the_lesson_writes_each_of_the_seeds_decimals_no_more_often_than_the_seed():
    decimals = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")
    ours = Counter(decimals.findall((ROOT / "docs/lessons/10-attention.md").read_text(encoding="utf-8")))
    seed = Counter(decimals.findall(SEED.read_text(encoding="utf-8")))
    assert seed and {d: n for d, n in ours.items() if d in seed and n > seed[d]} == {}


def test_bound_numbers_fix_restores_a_drifted_copy_so_that_the_strict_build_passes(repo_copy, tmp_path):
    from tests.conftest import LESSON, edit, mkdocs_build

    edit(repo_copy, LESSON, "分母是它们的和 5.0562", "分母是它们的和 5.0526")
    edit(repo_copy, LESSON, "a₀=[0.4011，0.1978，", "a₀=[0.5，0.1978，")
    assert mkdocs_build(repo_copy, tmp_path / "broken").returncode != 0
    fixed = subprocess.run([sys.executable, "scripts/bound_numbers.py", "--fix"], cwd=repo_copy,
                           capture_output=True, text=True)
    assert fixed.returncode == 0, fixed.stderr
    assert "5.0526 → 5.0562" in fixed.stdout and "0.5 → 0.4" in fixed.stdout
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode == 0, result.stderr
