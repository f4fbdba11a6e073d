"""scripts/bound_numbers.py lists the bound numbers of the pages it is given (every lesson page by default)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, lesson_params


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/bound_numbers.py", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.engine
@pytest.mark.parametrize("lesson", lesson_params())
def test_a_named_page_lists_only_its_own_numbers(lesson):
    result = _run(lesson.page)
    assert result.returncode == 0, result.stderr
    pages = {line.split(":", 1)[0].strip() for line in result.stdout.splitlines() if line.strip()}
    assert pages == {lesson.page} and "bound numbers from" in result.stdout.splitlines()[0]


@pytest.mark.engine
def test_a_file_that_is_not_a_page_of_the_site_is_refused():
    result = _run("README.md")
    assert result.returncode == 2 and "不是网站的页面" in result.stderr and "README.md" in result.stderr
