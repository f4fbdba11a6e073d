"""Shared fixtures: the real site built once with --strict, and throwaway copies of the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSON = "docs/lessons/10-attention.md"
SEED = ROOT / "tests/data/lesson10-seed.txt"
COPIED = ["docs", "tinylm", "lessons", "coursekit", "snippets", "overrides", "templates", "scripts", "mkdocs.yml"]


def mkdocs_build(root: Path, site: Path, **env_vars: str) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of the tree at `root`, as an author or CI would run it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env_vars}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )


def copy_repo(dest: Path) -> Path:
    """A copy of what the site is built from, to break on purpose."""
    for name in COPIED:
        src = ROOT / name
        if not src.exists():
            continue
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
        else:
            shutil.copy2(src, dest / name)
    executed = ROOT / ".cache/coursekit/executed"  # content-addressed: a stale entry is never hit
    if executed.is_dir():
        shutil.copytree(executed, dest / ".cache/coursekit/executed")
    return dest


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
    return copy_repo(tmp_path / "repo")


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, driven by Playwright."""
    from tests.browser import chromium

    with chromium() as b:
        yield b


@pytest.fixture(scope="session")
def base_url(built_site):
    """The built site on a local port."""
    from tests.browser import serve

    with serve(built_site) as url:
        yield url
