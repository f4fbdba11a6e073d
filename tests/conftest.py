"""Shared fixtures: the real site built once with --strict, throwaway copies of the repository, and
the course's lessons as they are in the tree (tests parametrized over LESSONS hold for every lesson
that exists, whatever it teaches)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.drive import ROOT, copy_repo, mkdocs_build  # re-exported for the tests
from tests.harness import Lesson, lessons

LESSONS: list[Lesson] = lessons(ROOT)


def lesson_params(lessons=None, having=None):
    """pytest.param for each lesson (id `l10`), or for those for which `having(lesson)` holds."""
    chosen = [lesson for lesson in (LESSONS if lessons is None else lessons) if having is None or having(lesson)]
    return [pytest.param(lesson, id=lesson.id) for lesson in chosen]


def seed_of(lesson: Lesson) -> Path:
    """The author's own text of a lesson, when the author handed one in (tests/data/lessonNN-seed.txt)."""
    return ROOT / f"tests/data/lesson{lesson.number}-seed.txt"


def edit(repo: Path, path: str, old: str, new: str) -> int:
    """Replace `old` by `new` once in repo/path; the line `old` started on."""
    file = repo / path
    text = file.read_text(encoding="utf-8")
    assert old in text, old
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real repository built once with `mkdocs build --strict`."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


@pytest.fixture(scope="session", params=lesson_params())
def lesson_html(request, built_site) -> str:
    """Each lesson's built page, in turn (a test asking for it runs once per lesson)."""
    return request.param.html(built_site)


@pytest.fixture
def repo_copy(tmp_path) -> Path:
    """A copy of the repository with the real one's run cache (keyed by content: never stale)."""
    return copy_repo(tmp_path / "repo", with_cache=True)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, driven by Playwright."""
    from scripts.drive import chromium

    with chromium() as b:
        yield b


@pytest.fixture(scope="session")
def base_url(built_site):
    """The built site on a local port."""
    from scripts.drive import serve

    with serve(built_site) as url:
        yield url
