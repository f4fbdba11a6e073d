"""Build the site in this process and keep what the drift guard checked on each lesson page.

Used by the tests (to change every bound number in turn) and by scripts/bound_numbers.py.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from coursekit import drift


@contextmanager
def _cwd(path: Path):
    old = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def build_and_capture(config_file: Path, site_dir: Path) -> dict[str, tuple[str, list[drift.Binding]]]:
    """{docs-relative path: (page source, bindings)} for every page the guard checked."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    seen: list[tuple[str, list[drift.Binding]]] = []
    real = drift.check_page

    def spy(page: str, bindings: list[drift.Binding]) -> list[drift.Problem]:
        seen.append((page, list(bindings)))
        return real(page, bindings)

    drift.check_page = spy
    try:
        with _cwd(config_file.parent):
            config = load_config(str(config_file), site_dir=str(site_dir), strict=True)
            build(config)
    finally:
        drift.check_page = real
    docs = Path(config.docs_dir)
    by_text = {p.read_text(encoding="utf-8"): p.relative_to(docs).as_posix() for p in docs.rglob("*.md")}
    return {by_text[page]: (page, bindings) for page, bindings in seen}
