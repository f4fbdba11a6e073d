"""scripts/bound_numbers.py lists the bound numbers of the pages it is given (every lesson page by default)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, lesson_params


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/bound_numbers.py", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("lesson", lesson_params())
def test_a_named_page_lists_only_its_own_numbers(lesson):
    result = _run(lesson.page)
    assert result.returncode == 0, result.stderr
    pages = {line.split(":", 1)[0].strip() for line in result.stdout.splitlines() if line.strip()}
    assert pages == {lesson.page} and "bound numbers from" in result.stdout.splitlines()[0]


def test_a_page_that_is_not_a_lesson_page_is_refused():
    result = _run("docs/index.md")
    assert result.returncode == 2 and "不是讲义页" in result.stderr and "docs/index.md" in result.stderr
