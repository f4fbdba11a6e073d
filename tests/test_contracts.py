"""The private or re-implemented parts of other packages the kit relies on, pinned to the versions
they were read from. A version bump fails the pin first, so whoever bumps it reads these again;
each contract below fails if the behaviour it relies on changes."""

from __future__ import annotations

import inspect
import os
from importlib import metadata

import markdown
import pytest

from coursekit.extensions import checks

PINS = {
    "mkdocs": "1.6.1",  # mkdocs_adapter: LiveReloadServer.builder (incremental) and polling_interval (speed), Page.render per page (hooks, pagecache)
    "mkdocs-material": "9.8.1",  # mkdocs_adapter: search_index's entries and file (pagecache, search_index), partials/search.html
    "mkdocs-jupyter": "0.26.3",  # mkdocs_adapter.lazy_imports
    "jieba": "0.42.1",  # mkdocs_adapter.segmenter
    "pymdown-extensions": "13.1",  # extensions.checks: the snippets include syntax, re-implemented; snippets' priority
    "markdown-exec": "1.12.6",  # extensions.fence: its validator and formatter's signature, base_format (public)
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


def test_a_dirty_build_rebuilds_a_page_whose_content_was_set_and_says_so_in_the_warning_the_kit_quiets(tmp_path):
    """incremental: `build(config, dirty=True)` skips pages whose File is not modified, a File whose
    content_string was set is modified, and the dirty build's warning has the text its filter drops."""
    from mkdocs.commands import build
    from mkdocs.structure.files import File

    source = inspect.getsource(build)
    assert "dirty" in inspect.signature(build.build).parameters
    assert source.count("if dirty and not page.file.is_modified():") == 2  # read, and built
    assert "A 'dirty' build is being performed" in source
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "site").mkdir()
    (tmp_path / "site/a.html").write_text("", encoding="utf-8")
    page = File("a.md", str(tmp_path / "docs"), str(tmp_path / "site"), use_directory_urls=False)
    os.utime(tmp_path / "site/a.html", (os.path.getmtime(tmp_path / "docs/a.md") + 10,) * 2)
    assert not page.is_modified()
    page.content_string = page.content_string  # what incremental.mark_stale does
    assert page.is_modified()


def test_a_pages_render_sets_the_attributes_a_restored_page_gets():
    """pagecache's restore sets what Page.render sets, as render sets it."""
    from mkdocs.structure import pages

    source = inspect.getsource(pages.Page.render)
    for line in ("self._title_from_render = ", "self.present_anchor_ids = ", "self.links_to_anchors = ",
                 "if log.getEffectiveLevel() > logging.DEBUG:"):
        assert line in source, line
    assert pages.log.name == "mkdocs.structure.pages"  # the logger pagecache asks
    assert "return self._title_from_render" in inspect.getsource(pages.Page)  # the title it reads back


def test_snippets_runs_between_the_guard_and_the_tables_and_jieba_has_what_the_segmenter_sets():
    """checks' guard (33) sees the page before pymdownx.snippets, crossref's table (31) after it; the
    segmenter swaps the default tokenizer's FREQ under its lock."""
    import jieba

    from markdown.preprocessors import Preprocessor

    md = markdown.Markdown(extensions=["pymdownx.snippets"])
    md.preprocessors.register(Preprocessor(md), "at_33", 33)
    md.preprocessors.register(Preprocessor(md), "at_31", 31)
    order = [md.preprocessors.get_index_for_name(n) for n in ("at_33", "snippet", "at_31")]
    assert order == sorted(order)
    for name in ("FREQ", "total", "initialized", "lock", "dictionary"):
        assert hasattr(jieba.dt, name), name
    assert hasattr(jieba, "DEFAULT_DICT")


def test_materials_search_writes_the_index_the_kit_rewrites():
    """search_index.compact rewrites search/search_index.json's `docs`; the page cache wraps
    `add_entry_from_context`."""
    from material.plugins.search import plugin

    source = inspect.getsource(plugin)
    assert '"search_index.json"' in source and "def add_entry_from_context" in source and '"docs"' in source
    assert "self.search_index = SearchIndex(" in source  # hooks.on_config reads it from the plugin


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
