"""Shared fixtures: the real site built once with --strict, and throwaway copies of the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from coursekit.harness import ROOT, copy_repo, mkdocs_build  # noqa: F401 - re-exported for the tests

LESSON = "docs/lessons/10-attention.md"
SEED = ROOT / "tests/data/lesson10-seed.txt"


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


@pytest.fixture(scope="session")
def lesson_html(built_site) -> str:
    return (built_site / "lessons/10-attention/index.html").read_text(encoding="utf-8")


@pytest.fixture
def repo_copy(tmp_path) -> Path:
    """A copy of the repository with the real one's run cache (keyed by content: never stale)."""
    return copy_repo(tmp_path / "repo", with_cache=True)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, driven by Playwright."""
    from coursekit.harness import chromium

    with chromium() as b:
        yield b


@pytest.fixture
def lesson_page(browser, base_url):
    """Lesson 10 open in Chromium at a laptop's width; the test fails on any script error."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base_url}/lessons/10-attention/")
    yield page
    assert errors == []
    page.close()


@pytest.fixture(scope="session")
def base_url(built_site):
    """The built site on a local port."""
    from coursekit.harness import serve

    with serve(built_site) as url:
        yield url
