"""The private or re-implemented parts of other packages the kit relies on, pinned to the versions
they were read from. A version bump fails the pin first, so whoever bumps it reads these again;
each contract below fails if the behaviour it relies on changes."""

from __future__ import annotations

import inspect
from importlib import metadata

import markdown
import pytest

from coursekit.extensions import checks

PINS = {
    "mkdocs": "1.6.1",  # mkdocs_adapter: LiveReloadServer.builder (incremental) and polling_interval (speed), Page.render per page (hooks, pagecache)
    "mkdocs-material": "9.8.1",  # mkdocs_adapter: search_index's entries and file (pagecache, search_index), partials/search.html
    "mkdocs-jupyter": "0.26.3",  # mkdocs_adapter.lazy_imports
    "jieba": "0.42.1",  # mkdocs_adapter.segmenter
    "pymdown-extensions": "13.1",  # extensions.checks: the snippets include syntax, re-implemented
    "zensical": "0.0.73",  # zensical_adapter: its command line and its configuration's keys
}


@pytest.mark.parametrize("package", sorted(PINS))
def test_the_packages_read_are_the_ones_installed(package):
    assert metadata.version(package) == PINS[package]


def test_mkdocs_renders_a_page_through_its_render_attribute():
    """hooks.on_pre_page and the page cache give a page its own `render`; MkDocs must call that."""
    from mkdocs.commands import build

    assert "page.render(config, files)" in inspect.getsource(build)  # _populate_page, for every page


def test_the_serve_server_rebuilds_through_its_builder_and_polls_at_the_interval_it_is_given():
    """incremental swaps `server.builder` in on_serve; speed.poll_sooner passes `polling_interval`
    to LiveReloadServer.__init__. The server must call that attribute to rebuild (not a copy taken
    at __init__) and hand that interval to its file observer."""
    from mkdocs import livereload

    from coursekit.mkdocs_adapter import speed

    assert "self.builder()" in inspect.getsource(livereload.LiveReloadServer._build_loop)
    assert "polling_interval" in inspect.signature(livereload.LiveReloadServer.__init__).parameters
    speed.poll_sooner()
    server = livereload.LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=".")
    try:
        assert server.observer.timeout == speed.POLL_SECONDS
    finally:
        server.server_close()


def test_materials_search_writes_the_index_the_kit_rewrites():
    """search_index.compact rewrites search/search_index.json's `docs`; the page cache wraps
    `add_entry_from_context`."""
    from material.plugins.search import plugin

    source = inspect.getsource(plugin)
    assert '"search_index.json"' in source and "def add_entry_from_context" in source and '"docs"' in source


@pytest.mark.parametrize("text, included", [
    ('--8<-- "piece.md"', True),
    ("--8<-- 'piece.md'", True),
    ('-8<- "piece.md"', True),
    ('----8<---- "piece.md"', True),
    ('    --8<-- "piece.md"', True),
    ('--8<-- "piece.md:1:1"', True),
    (';--8<-- "piece.md"', False),  # escaped: shown as written
    ('text --8<-- "piece.md"', False),
    ("--8<--\npiece.md\n--8<--", True),
    ("--8<--\n; piece.md\n--8<--", False),
])
def test_the_include_lines_the_guard_reads_are_the_ones_snippets_includes(tmp_path, text, included):
    (tmp_path / "piece.md").write_text("被引入的一段", encoding="utf-8")
    html = markdown.markdown(text, extensions=["pymdownx.snippets"],
                             extension_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)]}})
    assert ("被引入的一段" in html) is included
    lines = text.split("\n")
    ours = bool(checks.INCLUDE.match(lines[0])) or (
        len(lines) == 3 and bool(checks.BLOCK.match(lines[0])) and not lines[1].lstrip().startswith(";"))
    assert ours is included
