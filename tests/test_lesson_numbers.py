"""Every lesson's numbers against its live code, in process: all bound, and any one changed fails."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

import pytest

from coursekit.core import engine, guard, numbers
from coursekit.extensions import authoring
from tests.conftest import LESSONS, ROOT, lesson_params, seed_of

pytestmark = pytest.mark.build  # reads the built site or builds a copy

PAGES = [pytest.param(lesson.page, id=lesson.id) for lesson in LESSONS]


@pytest.fixture(scope="module")
def build():
    b = engine.Build(ROOT)
    yield b
    b.close()


def checked(build, path: str, text: str) -> tuple[guard.Scan, list[guard.Bound]]:
    found, bound, _ = authoring.check(build, ROOT, ROOT / path, text)
    return found, bound


@pytest.mark.parametrize("path", PAGES)
def test_every_number_of_the_lesson_agrees_with_its_code(build, path):
    found, bound = checked(build, path, (ROOT / path).read_text(encoding="utf-8"))
    assert found.problems == []
    assert bound


def changed(token: str) -> str:
    """The same number with its last digit changed by 3: always outside the tolerance; a value
    written without digits (−∞, inf, nan) becomes 7."""
    if numbers.chinese(token):  # 三 → 六, 四分之一 → 四分之四, 两 → 五, 十 → 三十
        cn = "零一二三四五六七八九"
        i = max((i for i, c in enumerate(token) if c in cn or c == "两"), default=None)
        if i is None:
            return "三" + token
        d = 2 if token[i] == "两" else cn.index(token[i])
        return token[:i] + cn[d + 3 if d + 3 <= 9 else d - 3] + token[i + 1:]  # never 零 or 一: not counts
    digits = [i for i, c in enumerate(token) if c.isdigit()]
    if not digits:
        return "7"
    i = digits[-1]
    return token[:i] + str((int(token[i]) + 3) % 10) + token[i + 1:]


@pytest.mark.parametrize("token, wrong", [("0.4011", "0.4014"), ("40%", "43%"), ("2/3", "2/6"), ("2e-1", "2e-4"),
                                          ("−∞", "7"), ("nan", "7"), ("9", "2"), ("三", "六"), ("两", "五"),
                                          ("四分之一", "四分之四"), ("十", "三十")])
def test_a_changed_number_differs_in_its_last_digit(token, wrong):
    assert changed(token) == wrong


@pytest.mark.parametrize("path", PAGES)
def test_changing_any_bound_number_fails_naming_its_line_and_value(build, path):
    text = (ROOT / path).read_text(encoding="utf-8")
    _, bound, offset = authoring.check(build, ROOT, ROOT / path, text)
    for b in bound:
        wrong = changed(b.written)
        at = offset + b.start
        mutated = text[:at] + wrong + text[at + len(b.written):]
        found, _ = checked(build, path, mutated)
        assert any(p.line == b.line and f"正文写 {wrong}" in p.message for p in found.problems), (b, found.problems)


DECIMALS = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")


@pytest.mark.parametrize("lesson", lesson_params(having=lambda lesson: seed_of(lesson).is_file()))
def test_the_lesson_writes_each_of_the_seeds_decimals_no_more_often_than_the_seed(lesson):
    """A lesson written from an author's text (tests/data/lessonNN-seed.txt) repeats none of its numbers."""
    ours = Counter(DECIMALS.findall(lesson.markdown()))
    seed = Counter(DECIMALS.findall(seed_of(lesson).read_text(encoding="utf-8")))
    assert seed and {d: n for d, n in ours.items() if d in seed and n > seed[d]} == {}


def test_bound_numbers_fix_restores_a_copy_drifted_in_every_lesson_so_that_the_strict_build_passes(build, repo_copy, tmp_path):
    """The first and last bound decimal of every lesson drifted in one copy (that the build names each
    drift is test_lesson_builds'): `--fix` names and restores each, and the strict build passes."""
    from tests.conftest import LESSONS, mkdocs_build

    drifts = {}
    for lesson in LESSONS:
        text = lesson.markdown()
        _, bound, offset = authoring.check(build, ROOT, ROOT / lesson.page, text)
        decimals = [b for b in bound if "." in b.written and b.agrees]
        assert len(decimals) >= 2, f"{lesson.page} binds fewer than two decimals"
        first, last = decimals[0], decimals[-1]
        drifted = text
        for b in (last, first):  # from the end, so that the offsets before it still hold
            at = offset + b.start
            drifted = drifted[:at] + changed(b.written) + drifted[at + len(b.written):]
        (repo_copy / lesson.page).write_text(drifted, encoding="utf-8")
        drifts[lesson] = (text, first, last)
    fixed = subprocess.run([sys.executable, "scripts/bound_numbers.py", "--fix"], cwd=repo_copy,
                           capture_output=True, text=True)
    assert fixed.returncode == 0, fixed.stderr
    for lesson, (text, first, last) in drifts.items():
        for b in (first, last):
            assert f"{lesson.page}:{b.line}: {changed(b.written)} → {b.written}" in fixed.stdout, fixed.stdout
        assert (repo_copy / lesson.page).read_text(encoding="utf-8") == text, lesson.id
    result = mkdocs_build(repo_copy, tmp_path / "site")
    assert result.returncode == 0, result.stderr
