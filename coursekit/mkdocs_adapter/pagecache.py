"""A one-shot `mkdocs build` converts only the pages whose inputs changed.

MkDocs converts every page's Markdown on every build, and Material's search segments every page's
Chinese with jieba (its dictionary alone takes about 0.4 s to load). Both results depend on inputs
this kit can name, so they are kept in `.cache/coursekit`, sealed like every record there:

- A page's conversion (what `Page.render` sets: its HTML, table of contents, title, anchors and
  links, with what the guard recorded for the manifest) is kept under a key of everything the
  conversion reads: the page's source; what it shows besides its text (its lesson's run, the files
  it includes, other lessons' titles: `incremental.fingerprint`); the site's structure (mkdocs.yml,
  overrides, templates, this kit's code, snippets, the reviewed records, the list of files);
  the conversion's configuration; the versions of the libraries that convert. Paths in the key are
  relative to the repository, so a copy of it elsewhere (another clone, a restored CI cache) with
  its `.cache/coursekit` converts nothing it need not. A page whose blocks
  ran keeps the files of `tinylm` and `lessons` they had imported or read (`coursekit.core.blocks.PageBlocks.page_deps`),
  and is restored only while those read as they did. Only a conversion without problems is kept,
  so a failing page is converted, and reported, every time.
- A page's search entries are kept under a digest of exactly what the search plugin reads: the
  page's final HTML, table of contents, address, title and metadata, and the plugin's settings.

Everything after conversion (plugins' and hooks' page events, templates, the footer, the sitemap)
runs as always, so a build from the cache writes the same bytes as one without it (tests/test_warm.py).

Private APIs, pinned (Material 9.8.1, MkDocs 1.6.1) and checked by tests/test_contracts.py and by
behaviour in tests/test_warm.py: Material's search plugin's `search_index` has its
`add_entry_from_context` wrapped (Material has no event that hands over a page's entries); a
restored page gets what MkDocs 1.6's `Page.render` sets, which has no public setter:
`_title_from_render` (the title from the page's first heading), `present_anchor_ids`, and
`links_to_anchors` when the `mkdocs.structure.pages` logger is above DEBUG, as `render` decides;
a table of contents is rebuilt from its tokens with `mkdocs.structure.toc.get_toc` (no public
constructor); the conversion's configuration is read from `mdx_configs`, the key MkDocs keeps the
extensions' settings under; a warning of the conversion is one logged on the `mkdocs` logger.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import types
from importlib import metadata
from pathlib import Path

from mkdocs.structure.toc import get_toc

from coursekit.core import engine, stamps, store
from coursekit import KIT
from coursekit.extensions import checks
from coursekit.mkdocs_adapter import incremental

FORMAT = 1
KEEP = 8  # conversions and search entries kept per page (the least recently used go), as runs per lesson
CONVERTERS = ("mkdocs", "markdown", "pymdown-extensions", "mkdocs-material", "pygments", "markdown-exec",
              "mkdocs-jupyter", "nbconvert", "nbformat")
SITE_INPUTS = ("mkdocs.yml", "overrides", "templates", "coursekit", "snippets", "lessons/glossary.toml")  # the glossary: the guard's words
_NONE = object()


def _sha(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()[:32]


def _tree(root: Path, names) -> str:
    return _sha(*stamps.tree(root, names))


def _configured(config, root: Path) -> str:
    """What of the configuration a conversion reads, without the addresses Python gives objects
    and with the docs folder relative to the repository (MkDocs makes it absolute): a copy of the
    repository elsewhere, with its cache, reuses the conversions."""
    keep = {k: config.get(k) for k in ("markdown_extensions", "mdx_configs", "use_directory_urls", "site_url",
                                       "docs_dir", "extra", "validation")}
    keep["docs_dir"] = os.path.relpath(keep["docs_dir"] or "docs", root)
    return re.sub(r" at 0x[0-9a-f]+", "", repr(sorted(keep.items())))


@functools.cache
def _versions(names: tuple[str, ...]) -> str:
    out = []
    for name in names:
        try:
            out.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            out.append(f"{name} -")
    return ";".join(out)


def _tokens(items) -> list[dict]:
    """A table of contents as the toc extension's tokens (what mkdocs.structure.toc.get_toc reads)."""
    return [{"level": a.level, "id": a.id, "name": a.title, "children": _tokens(a.children)} for a in items]


def _slug(uri: str) -> str:
    return re.sub(r"[^\w.-]", "_", uri) or "_"


class PageCache:
    """One build's cache of conversions and search entries (made in on_files: it knows the files)."""

    def __init__(self, build: engine.Build, root: Path, config, files) -> None:
        self.build, self.root = build, root
        self.folder = build.cache / "converted"
        self.restored: set[str] = set()  # pages this build took from the cache
        self.converted: set[str] = set()  # pages it converted
        self._declarations = incremental.Declarations(root)
        reviewed = sorted(root.glob("lessons/*/reviewed.json"))
        self.site = _sha(str(FORMAT), _tree(root, SITE_INPUTS), _tree(KIT.parent, [KIT.name]),
                         _tree(root, [p.relative_to(root) for p in reviewed]), _configured(config, root), os.path.relpath(os.getcwd(), root),
                         _versions(CONVERTERS), json.dumps(build.versions, sort_keys=True),
                         *sorted(f.src_uri for f in files))  # the working folder, relative: snippets' base_path is "."

    # ---- conversions ------------------------------------------------------------------------------
    def key(self, page) -> str:
        # a page serve marked stale has its text set, not a source path (incremental.mark_stale)
        source = Path(page.file.abs_src_path or self.root / "docs" / page.file.src_uri)
        text = page.file.content_string
        rel = source.relative_to(self.root).as_posix() if source.is_relative_to(self.root) else page.file.src_uri
        shown = ""
        if rel.endswith(".md"):
            # a lesson page, or a page naming a lesson in its front matter or on a block, as the guard reads it
            lesson_id = checks.page_lesson(rel, text, text)
            runs = {lesson_id: self.build.run(lesson_id).key} if lesson_id in self.build.lessons else {}
            shown = incremental.fingerprint(self.root, source, runs, self._declarations)
            shown += lesson_id or ""
        return _sha(self.site, rel, text, shown)

    def _blocks_hold(self, blocks) -> bool:
        """What the page's blocks read (None: it ran none) reads as it did: a block may import or
        read a file of tinylm or lessons that its lesson's run did not."""
        if blocks is None:
            return True
        if not (isinstance(blocks, list) and len(blocks) == 2 and isinstance(blocks[1], dict)):
            return False
        lesson_id, deps = blocks
        return (lesson_id == engine.SITE or lesson_id in self.build.lessons) and self.build.unchanged(lesson_id, deps)

    def _path(self, page, key: str) -> Path:
        return self.folder / _slug(page.file.src_uri) / f"{key}.json"

    def wrap(self, page, files) -> None:
        """Give `page` a render that restores its kept conversion, or converts and keeps it."""
        key = self.key(page)
        path = self._path(page, key)
        kept = self.build.store.read(path)
        convert = page.render
        shown = f"docs/{page.file.src_uri}"

        def restore(self_page, config, files):
            if kept["markdown"] is not None:
                self_page.markdown = kept["markdown"]
            self_page.meta.update(kept["meta"])
            self_page.content = kept["content"]
            self_page.toc = get_toc(kept["toc"])
            self_page._title_from_render = kept["title"]
            self_page.present_anchor_ids = set(kept["anchors"])
            if logging.getLogger("mkdocs.structure.pages").getEffectiveLevel() > logging.DEBUG:
                self_page.links_to_anchors = {files.get_file_from_path(uri): links
                                              for uri, links in kept["links"].items()}
            engine.current.problems[shown] = []
            if kept["record"] is not None:
                engine.current.records[shown] = kept["record"]

        def render(self_page, config, files):
            markdown, meta = self_page.markdown, json.dumps(self_page.meta, sort_keys=True, default=repr)
            warned = _Warnings()
            logging.getLogger("mkdocs").addHandler(warned)
            try:
                convert(config, files)
            finally:
                logging.getLogger("mkdocs").removeHandler(warned)
            problems = engine.current.problems.get(shown)
            if problems or warned.seen:
                return  # converted, and reported (a warning fails --strict), every time until it is fixed
            changed = {k: v for k, v in self_page.meta.items() if json.loads(meta).get(k, _NONE) != v}
            try:  # what render set of the page's metadata (a notebook's title), as it set it
                if json.loads(json.dumps(changed)) != changed:
                    return
            except (TypeError, ValueError):
                return  # not kept: restored, it would not be what render set
            links = {f.src_uri: v for f, v in (getattr(self_page, "links_to_anchors", None) or {}).items()}
            self.build.store.write(path, {
                "markdown": self_page.markdown if self_page.markdown != markdown else None, "meta": changed,
                "content": self_page.content, "toc": _tokens(self_page.toc), "title": self_page._title_from_render,
                "anchors": sorted(self_page.present_anchor_ids or ()), "links": links,
                "record": engine.current.records.get(shown), "blocks": self.build.blocks.page_deps.get(shown)})
            _prune(path.parent)

        if kept.get("content") is not None and isinstance(kept.get("toc"), list) and isinstance(kept.get("meta"), dict) \
                and self._blocks_hold(kept.get("blocks", _NONE)):
            self.restored.add(page.file.src_uri)
            page.render = types.MethodType(restore, page)
            _used(path)
        else:
            self.converted.add(page.file.src_uri)
            page.render = types.MethodType(render, page)

    def summary(self) -> str:
        """The build log's line on conversions."""
        return f"页面转换：沿用上次的 {len(self.restored)} 页，转换 {len(self.converted)} 页" + (
            "（" + "、".join(sorted(self.converted)[:5]) + ("……" if len(self.converted) > 5 else "") + "）"
            if self.converted else "")

    # ---- search entries ---------------------------------------------------------------------------
    def remember_search(self, plugin) -> None:
        """Keep each page's search entries under a digest of what the search plugin reads of it."""
        index = plugin.search_index
        index_page = index.add_entry_from_context
        settings = re.sub(r" at 0x[0-9a-f]+", "", repr(sorted(dict(plugin.config).items())))
        for name in ("jieba_dict", "jieba_dict_user"):  # the dictionaries themselves, not only their names
            if plugin.config.get(name):
                settings += stamps.digest(Path(plugin.config[name]))

        def add_entry_from_context(page):
            digest = _sha(str(FORMAT), _versions(("mkdocs-material", "jieba")), settings, page.content or "",
                          json.dumps(_tokens(page.toc), ensure_ascii=False), page.url, str(page.title),
                          json.dumps(page.meta, ensure_ascii=False, sort_keys=True, default=str))
            path = self.build.cache / "search" / _slug(page.file.src_uri) / f"{digest}.json"
            kept = self.build.store.read(path)
            if isinstance(kept.get("entries"), list):
                index.entries.extend(dict(pairs) for pairs in kept["entries"])
                _used(path)
                return
            before = len(index.entries)
            index_page(page)
            # as pairs: the record is written with sorted keys, the index keeps the plugin's order
            self.build.store.write(path, {"entries": [list(e.items()) for e in index.entries[before:]]})
            _prune(path.parent)

        index.add_entry_from_context = add_entry_from_context


class _Warnings(logging.Handler):
    """Whether a conversion logged a warning (a dead link, say): such a conversion is not kept."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen = False

    def emit(self, record: logging.LogRecord) -> None:
        self.seen = True


def _used(path: Path) -> None:
    """A kept record just used is the last to be pruned (as a lesson's runs are): going back and
    forth between two versions of a page keeps both, however many others came between."""
    try:
        os.utime(path)
    except OSError:
        pass


def _prune(folder: Path) -> None:
    for old in store.newest_first(folder.glob("*.json"))[KEEP:]:
        old.unlink(missing_ok=True)
