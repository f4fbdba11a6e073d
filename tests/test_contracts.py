"""The private or re-implemented parts of other packages the kit relies on, pinned to the versions
they were read from. A version bump fails the pin first, so whoever bumps it reads these again;
each contract below fails if the behaviour it relies on changes."""

from __future__ import annotations

import inspect
import os
import re
from importlib import metadata

import markdown
import pytest

from coursekit.extensions import checks

PINS = {
    "mkdocs": "1.6.1",  # mkdocs_adapter: LiveReloadServer.builder and serve's builder's site_url/serve_url (incremental), polling_interval (speed), the server's observer (watcher), Page.render per page and what it sets, get_toc, mdx_configs, the "mkdocs" logger (hooks, pagecache); extensions.crossref: its "relpath" treeprocessor's priority; core.scan: the front matter rule
    "mkdocs-material": "9.8.1",  # mkdocs_adapter: search_index's entries and file (pagecache, search_index); overrides/: partials/search.html and footer.html, the content.lazy feature
    "mkdocs-jupyter": "0.26.3",  # mkdocs_adapter: lazy_imports; hooks: its on_pre_page sets render before ours and, its cache off, reads no notebook
    "jieba": "0.42.1",  # mkdocs_adapter.segmenter
    "pymdown-extensions": "13.1",  # extensions.checks: the snippets include syntax and what it inserts, re-implemented; snippets' priority
    "markdown-exec": "1.12.6",  # extensions.fence: its validator's options (extra, source, result), base_format (public)
    "zensical": "0.0.73",  # zensical_adapter: its command line and its configuration's keys
    "markdown": "3.11.3",  # extensions: processor priorities; checks: a paragraph of only stashed HTML unwrapped
    "watchdog": "7.1.0",  # mkdocs_adapter.watcher: PollingObserverVFS (public), what its snapshot compares of a stat
    "jinja2": "3.1.6",  # mkdocs_adapter.speed: a BytecodeCache in front of FileSystemBytecodeCache (public)
    "jupytext": "1.19.6",  # mkdocs_adapter.lazy_imports: its module loaded lazily in sys.modules
    "nbconvert": "7.17.2",  # mkdocs_adapter.lazy_imports: likewise
    "Pygments": "2.20.0",  # extensions.codeblocks: its HTML (<pre><span></span><code>); fence: .n/.w spans
}


@pytest.mark.parametrize("package", sorted(PINS))
def test_the_packages_read_are_the_ones_installed(package):
    assert metadata.version(package) == PINS[package]


def test_mkdocs_renders_a_page_through_its_render_attribute():
    """hooks.on_pre_page and the page cache give a page its own `render`; MkDocs must call that."""
    from mkdocs.commands import build

    assert "page.render(config, files)" in inspect.getsource(build)  # _populate_page, for every page


def test_mkdocs_jupyter_with_its_cache_off_reads_no_notebook_before_the_hooks_write_it(tmp_path):
    """hooks write a lesson's notebook in their on_pre_page, which runs after mkdocs-jupyter's: with
    `cache: false` (mkdocs.yml) its on_pre_page must only set the page's render and download
    address, reading nothing (with its cache on it hashes the file there)."""
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File
    from mkdocs.structure.pages import Page
    from mkdocs_jupyter.plugin import Plugin

    from tests.conftest import ROOT
    from tests.harness import site_config

    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"- mkdocs-jupyter:\n(?:      .*\n)*      cache: false\n", text)
    plugin = Plugin()
    settings = next(p["mkdocs-jupyter"] for p in site_config()["plugins"] if isinstance(p, dict) and "mkdocs-jupyter" in p)
    errors, _ = plugin.load_config(settings)
    assert not errors
    plugin.on_pre_build(MkDocsConfig())
    file = File("lessons/98-notebook.ipynb", str(tmp_path / "docs"), str(tmp_path / "site"), True)
    page = Page(None, file, MkDocsConfig())
    before = page.render
    assert plugin.on_pre_page(page, config=MkDocsConfig(), files=None) is page  # the file does not exist
    assert page.render != before and page.nb_url.endswith("98-notebook.ipynb")


def test_a_build_lists_the_themes_files_once_through_its_get_env_and_a_dirty_rebuild_reuses_the_list(tmp_path, monkeypatch):
    """speed.keep_theme_listing wraps the theme's get_env: MkDocs must take the build's environment
    from it and list the theme's static files through that environment's list_templates; a rebuild
    told to reuse lists nothing anew and adds the same files, one told not to lists again."""
    import jinja2
    from mkdocs.commands import build
    from mkdocs.config import load_config
    from mkdocs.structure import files as mkdocs_files

    from coursekit.mkdocs_adapter import speed
    from tests.conftest import ROOT

    assert "env = config.theme.get_env()" in inspect.getsource(build.build)
    assert "files.add_files_from_theme(env, config)" in inspect.getsource(build.build)
    assert "env.list_templates(filter_func=filter)" in inspect.getsource(mkdocs_files.Files.add_files_from_theme)
    walks = []
    walk = jinja2.FileSystemLoader.list_templates
    monkeypatch.setattr(jinja2.FileSystemLoader, "list_templates", lambda self: walks.append(1) or walk(self))

    def theme_files(reuse: bool) -> list[str]:
        config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
        speed.keep_theme_listing(config.theme, reuse=reuse)
        found = mkdocs_files.get_files(config)
        found.add_files_from_theme(config.theme.get_env(), config)
        return sorted(f.src_uri for f in found)

    first = theme_files(reuse=False)
    assert walks == [1] and any(f.startswith("assets/javascripts/bundle.") for f in first)
    assert theme_files(reuse=True) == first and walks == [1]
    assert theme_files(reuse=False) == first and walks == [1, 1]


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


def test_the_serve_server_watches_through_the_observer_made_in_init_which_tells_a_file_by_its_stat(tmp_path):
    """watcher.watch_by_content replaces LiveReloadServer's `observer` after __init__, before `watch`
    schedules paths on it; watchdog's snapshot tells a modified file by its stat's st_mtime and st_size,
    so the stat the watcher gives (the time with the digest of the bytes) tells an edit that kept both."""
    from mkdocs import livereload
    from watchdog.utils.dirsnapshot import DirectorySnapshot, DirectorySnapshotDiff

    from coursekit.mkdocs_adapter import speed, watcher

    assert "self.observer.schedule(" in inspect.getsource(livereload.LiveReloadServer.watch)
    assert "self.observer.start()" in inspect.getsource(livereload.LiveReloadServer.serve)
    speed.poll_sooner()
    watcher.watch_by_content()
    server = livereload.LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=".")
    try:
        assert server.observer.timeout == speed.POLL_SECONDS
        server.watch(str(tmp_path))
    finally:
        server.server_close()
    data = tmp_path / "data.txt"
    data.write_text("1 2 4\n", encoding="utf-8")
    before = data.stat()
    by_time, by_content = DirectorySnapshot(str(tmp_path)), DirectorySnapshot(str(tmp_path), stat=watcher.content_stat)
    data.write_text("1 2 5\n", encoding="utf-8")
    os.utime(data, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert not DirectorySnapshotDiff(by_time, DirectorySnapshot(str(tmp_path))).files_modified  # MkDocs' own: missed
    assert DirectorySnapshotDiff(by_content, DirectorySnapshot(str(tmp_path), stat=watcher.content_stat)).files_modified


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


PIECE = "第一行 1\n# --8<-- [start:part]\n第三行 3\n# -8<- [ end : part ]\n第五行 5\n# ---8<--- [start:tail]\n第七行 7\n"


def _snippets(lines: list[str], root) -> list[str]:
    md = markdown.Markdown(extensions=["pymdownx.snippets"],
                           extension_configs={"pymdownx.snippets": {"base_path": [str(root)], "check_paths": True}})
    return [s.rstrip() for s in md.preprocessors["snippet"].run(lines)]


def _guard_inlines(lines: list[str], root) -> list[str] | None:
    """The page as the guard leaves it for snippets: each include it reads put in place
    (checks.include_at, checks._included); None if it refuses one (it reports that at its line)."""
    out, i = [], 0
    while i < len(lines):
        found = checks.include_at(lines, i)
        if not found:
            out.append(lines[i])
            i += 1
            continue
        specs, indent, end = found
        pieces = [checks._included(root, spec) for spec in specs]
        if None in pieces:
            return None
        out += [indent + s for _, body, _ in pieces for s in body.split("\n")]
        i = end + 1
    return out


@pytest.mark.parametrize("text", [
    '--8<-- "piece.md"', "--8<-- 'piece.md'", '-8<- "piece.md"', '----8<---- "piece.md"', '    --8<-- "piece.md"',
    '--8<-- "piece.md:1:1"', '--8<-- "piece.md:3"', '--8<-- "piece.md::3"', '--8<-- "piece.md:part"',
    '--8<-- "piece.md:tail"',
    ';--8<-- "piece.md"',  # escaped: shown as written
    'text --8<-- "piece.md"',  # not an include
    "--8<--\npiece.md\n--8<--", "--8<--\n; piece.md\n--8<--", "--8<--\npiece.md:part\n\nother.md\n; x.md\n--8<--",
])
def test_what_the_guard_puts_in_place_of_an_include_is_what_snippets_inserts(tmp_path, text):
    """The guard reads included text itself (its own line numbers in messages) and puts it in place
    before snippets runs: the page must come out as snippets alone makes it."""
    (tmp_path / "piece.md").write_text(PIECE, encoding="utf-8")
    (tmp_path / "other.md").write_text("另一个文件 2\n", encoding="utf-8")
    lines = ["前一段", *text.split("\n"), "后一段"]
    ours = _guard_inlines(lines, tmp_path)
    assert ours is not None
    assert _snippets(ours, tmp_path) == _snippets(lines, tmp_path)


@pytest.mark.parametrize("spec", ["piece.md:1:1,3:3", "piece.md:-2", "piece.md:nowhere", "gone.md"])
def test_an_include_the_guard_does_not_read_is_refused_not_misread(tmp_path, spec):
    """Several ranges and lines counted from the end are snippets' too, but the guard can't give
    their lines a number each: it refuses them (checks._missing names the line and what to write)."""
    (tmp_path / "piece.md").write_text(PIECE, encoding="utf-8")
    assert _guard_inlines([f'--8<-- "{spec}"'], tmp_path) is None


def test_serve_sets_the_configuration_as_the_incremental_builder_copies_it():
    """incremental.Builder rebuilds as serve's own builder does: site_url set to the serve address,
    then build(config, serve_url=…, dirty=…)."""
    from mkdocs.commands import serve

    source = inspect.getsource(serve)
    assert "config.site_url = serve_url" in source
    assert "build(config, serve_url=None if is_clean else serve_url, dirty=is_dirty)" in source


def test_the_conversion_settings_the_page_cache_keys_on_are_where_mkdocs_keeps_them(tmp_path):
    """pagecache._configured reads `mdx_configs`: the extensions' settings, by extension."""
    from mkdocs.config import load_config

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions:\n  - toc:\n      permalink: true\n",
                                         encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    assert config["mdx_configs"]["toc"] == {"permalink": True}


def test_the_crossref_links_run_before_mkdocs_reads_them():
    """crossref's LinkTreeprocessor (7) runs before MkDocs' relpath treeprocessor, registered at 0."""
    from mkdocs.structure import pages

    assert 'register(self, "relpath", 0)' in inspect.getsource(pages)


@pytest.mark.parametrize("text", ["---\ntitle: 甲\n---\n正文\n", "---\ntitle: 甲\n...\n正文\n", "---  \na: 1\n---\t\n正文\n",
                                  "正文\n---\na: 1\n---\n", "---\n---\n正文\n", "# 标题\n"])
def test_the_core_splits_front_matter_as_mkdocs_does(text):
    from mkdocs.utils import meta

    from coursekit.core import scan

    body, data = meta.get_data(text)
    front, _, rest = scan.front_matter(text)
    assert rest == body
    assert (yaml_load(front) if front else {}) == data


def yaml_load(text: str):
    import yaml

    return yaml.safe_load(text) or {}


def test_markdown_exec_fills_the_options_a_listing_sets():
    import markdown_exec

    options: dict = {}
    assert markdown_exec.validator("python", {"exec": "1", "title": "t", "source": "above"}, options, {}, None)
    assert options["extra"] == {"title": "t"} and options["source"] == "above" and "result" in options
    assert {"source", "result"} <= set(inspect.signature(markdown_exec.base_format).parameters)


def test_the_footer_override_differs_from_materials_only_by_the_section_in_the_titles():
    """overrides/partials/footer.html is Material's 9.8.1 partial with `titled(p)` (the section's
    title before the page's) in place of `p.title`: put back, it is Material's."""
    import re
    from pathlib import Path

    import material

    from tests.conftest import ROOT

    upstream = (Path(material.__file__).parent / "templates/partials/footer.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides/partials/footer.html").read_text(encoding="utf-8")
    body = lambda t: t.split("-#}", 1)[1].strip()  # noqa: E731  (the comment header differs)
    plain = re.sub(r"\{% macro titled\(p\) -%\}.*?\{%- endmacro %\}\n", "", body(ours), flags=re.S)
    plain = re.sub(r"titled\((page\.\w+)\) \| striptags", r"\1.title", plain)
    plain = re.sub(r"titled\((page\.\w+)\)", r"\1.title", plain)
    assert plain == body(upstream)


@pytest.mark.parametrize("source", ["", "console", "above"])
def test_a_pycon_block_runs_and_renders_as_markdown_execs_pycon_formatter(source):
    """fence.runnable and fence._pycon_source take a console session as markdown-exec's pycon formatter
    (its `_transform_source`, private) does: the same HTML, for what the same code printed."""
    import io
    from contextlib import redirect_stdout

    import markdown
    import markdown_exec

    from coursekit.extensions import fence

    session = '>>> name = "Baron"\n>>> for c in name[:2]:\n...     print(c)\n旧的输出\n>>>\n>>> print(name)\nBaron'
    md = markdown.Markdown(extensions=["pymdownx.superfences"])
    theirs = markdown_exec.formatter(session, "pycon", "pycon", markdown_exec_options(source), md)

    def run(code: str, **_) -> str:
        out = io.StringIO()
        with redirect_stdout(out):
            exec(compile(code, "docs/p.md", "exec"), {})
        return out.getvalue()

    ours = markdown_exec.base_format(language="pycon", run=run, code=session, md=md,
                                     transform_source=fence._pycon_source, **markdown_exec_options(source))
    assert str(ours) == str(theirs) and "B\na" in str(ours).replace("<span class=\"go\">", "").replace("</span>", "")


def markdown_exec_options(source: str) -> dict:
    import markdown_exec

    options: dict = {}
    assert markdown_exec.validator("pycon", {"exec": "1", "source": source}, options, {}, None)
    return options


@pytest.mark.parametrize("value", ["1", "true", "yes", "on", "On", "x", "0", "no", "off", "false", "False", ""])
def test_the_kit_reads_exec_as_markdown_exec_reads_it(value):
    import markdown_exec

    from coursekit.extensions import fence

    assert "python" not in markdown_exec.MARKDOWN_EXEC_AUTO  # what markdown-exec decides alone
    assert fence._truthy(value) == markdown_exec.validator("python", {"exec": value}, {}, {}, None)
