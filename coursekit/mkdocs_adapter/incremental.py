"""`mkdocs serve` rebuilds only the pages whose inputs changed.

MkDocs rebuilds and re-renders every page on each save, so at 30 lessons a one-word edit waits for
60 pages of templates and search indexing. Under serve this module swaps in a builder that, unless
the site's structure changed (mkdocs.yml, templates, build tooling, the set of pages), runs MkDocs'
own dirty build: a page is rebuilt when its source is newer than its output, and also when its text
or what it shows changed behind it, whatever the times say (coursekit.mkdocs_adapter.watcher sees
such an edit): its lesson's run, a file it includes (`--8<--`, `file=`), a lesson page's reviewed
record (`lessons/lNN/reviewed.json`, which `confirm_shown.py` rewrites: coursekit.core.shown), or another
lesson's title or summary (the home page's table, lesson pages' links: coursekit.extensions.crossref). The search
plugin then indexes only the rebuilt pages; `merge_search_index` puts every other page's entries
back from the previous index. (Material's own dirty merge is not used: it drops the previous
entries of the first rebuilt page only, by URL prefix, so two rebuilt pages were indexed twice and
a rebuilt home page, whose URL is the empty prefix, emptied the rest of the index.)

What of MkDocs 1.6.1 it relies on, pinned and checked by tests/test_contracts.py:
- private: `LiveReloadServer.builder` is replaced (the `on_serve` event hands over the server, not
  a way to choose dirty builds);
- what serve's own builder does to a configuration, copied: `config.site_url` set to the serve
  address and `build(config, serve_url=…, dirty=True)`;
- the function `mkdocs build --dirty` runs, `mkdocs.commands.build.build(config, dirty=True)`, and
  that a dirty build rebuilds a page whose `File.content_string` was set (the setter is public; that
  it marks the file modified is what MkDocs' own `is_modified` says);
- the text of the warning a dirty build logs ("'dirty' build is being performed"), only to keep it
  quiet: nothing here decides from log text.
"""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from coursekit.extensions import crossref
from coursekit.core import pagetext, shown, stamps

FILES = re.compile(r"\bfile=([\"'])(.+?)\1")  # a listing's file="a.py:part b.py" (coursekit.extensions.fence)
STRUCTURE = ("mkdocs.yml", "overrides", "coursekit", "templates")


class _QuietDirtyWarning(logging.Filter):
    """The dirty build's warning about stale navigation: the structure check above rules that out."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "'dirty' build is being performed" not in record.getMessage()


class Builder:
    def __init__(self, full_builder, config, root: Path, run_keys: dict[str, str]) -> None:
        self.full_builder = full_builder
        self.config_file, self.site_dir, self.serve_url = config.config_file_path, config.site_dir, config.site_url
        self.root = root
        self.structure = self._structure()
        self.dirty = False  # whether the build under way is a dirty one
        self._declarations = Declarations(root)  # read once per rebuild
        # page -> fingerprint of what it showed when last built (the first, full build: now)
        self.shown = {p.relative_to(root / "docs").as_posix(): self.fingerprint(p, run_keys)
                      for p in (root / "docs").rglob("*.md")}
        logging.getLogger("mkdocs.commands.build").addFilter(_QuietDirtyWarning())

    def __call__(self, config=None) -> None:
        structure = self._structure()
        self.dirty = structure == self.structure
        if not self.dirty:
            self.structure = structure
            return self.full_builder(config)
        config = load_config(config_file=self.config_file, site_dir=self.site_dir)
        config.site_url = self.serve_url
        build(config, serve_url=self.serve_url, dirty=True)

    def _structure(self) -> str:
        h = hashlib.sha256("\n".join(stamps.tree(self.root, STRUCTURE)).encode())
        for file in sorted((self.root / "docs").rglob("*")):
            h.update(f"{file.relative_to(self.root)}\n".encode())  # pages added or removed
        return h.hexdigest()

    def fingerprint(self, page: Path, run_keys: dict[str, str]) -> str:
        return fingerprint(self.root, page, run_keys, self._declarations)

    def mark_stale(self, files, run_keys: dict[str, str]) -> None:
        """Make MkDocs' dirty build rebuild a page whose inputs changed though its source did not."""
        self._declarations.forget()  # read once per rebuild
        for file in files.documentation_pages():
            if not file.src_uri.endswith(".md") or not file.abs_src_path:
                continue
            key = self.fingerprint(Path(file.abs_src_path), run_keys)
            if self.shown.get(file.src_uri) != key:
                file.content_string = file.content_string  # MkDocs rebuilds a file whose content is set
            self.shown[file.src_uri] = key


class Declarations:
    """Other lessons' titles and summaries as one text (crossref.declarations), read when first
    asked; a bad declaration reads as its error, which the page's build reports."""

    def __init__(self, root: Path) -> None:
        self.root, self._text = root, None

    def __call__(self) -> str:
        if self._text is None:
            try:
                self._text = crossref.declarations(self.root)
            except Exception as err:  # reported by the page's build
                self._text = f"error {err}"
        return self._text

    def forget(self) -> None:
        self._text = None


NESTED = 50  # included files read at most, following includes inside included files


def references(text: str) -> list[str]:
    """The files a text includes: pymdownx.snippets' includes as the guard reads them
    (checks.include_at) and listings' `file="a.py:part b.py"`."""
    from coursekit.extensions.checks import include_at

    lines = text.split("\n")
    found = [spec for i in range(len(lines)) if "8<" in lines[i] for spec in (include_at(lines, i) or ([],))[0] if spec]
    return found + [ref for m in FILES.finditer(text) for ref in m.group(2).split()]


_read = stamps.Remembered()  # page -> (its lesson, whether it shows declarations, what it includes)


def _page(root: Path, page: Path) -> tuple[str | None, bool, list[str]]:
    from coursekit.extensions.checks import page_lesson  # the extension imports MkDocs-free modules only

    try:
        text = pagetext.read(page)
    except pagetext.UnreadableText:  # the build names it at its line (hooks._readable)
        return None, False, []
    rel = page.relative_to(root).as_posix()
    # a lesson page, or one naming its lesson (front matter, a block)
    return page_lesson(rel, text, text), crossref.shows_declarations(rel, text), references(text)


def _references(path: Path) -> list[str]:
    """What an included file includes in turn; a file that is not UTF-8 includes nothing here (the
    page's build names it at its line)."""
    try:
        return references(pagetext.read(path))
    except pagetext.UnreadableText:
        return []


def fingerprint(root: Path, page: Path, run_keys: dict[str, str], declarations) -> str:
    """What a page shows: its own text (MkDocs' dirty build compares times only, so an edit that
    put the page's time back would be missed), its lesson's run, the files it includes (and the
    files those include), a lesson page's reviewed record (its box says what differs from it) and,
    where it shows them, other lessons' titles and summaries (`declarations()`, read when needed). Each file is read again only when its stamp says it may
    have changed (coursekit.core.stamps)."""
    lesson_id, shows, todo = _read.get(page, lambda p: _page(root, p), key=(str(root), str(page)))
    h = hashlib.sha256(stamps.digest(page).encode())
    h.update(run_keys.get(lesson_id, "").encode() if lesson_id else b"")
    record = shown.record_path(root, page.as_posix())
    if record is not None:  # what the page is compared with (coursekit.core.shown.compare)
        h.update(b"reviewed\0" + stamps.digest(record).encode())
    if shows:  # other lessons' titles and summaries (links, table)
        h.update(declarations().encode())
    todo, seen = list(todo), set()
    while todo and len(seen) < NESTED:
        ref = todo.pop(0)
        path = root / ref.split(":")[0]
        if path in seen:
            continue
        seen.add(path)
        h.update(ref.encode() + b"\0" + stamps.digest(path).encode() + b"\0")
        if path.is_file():
            todo += _read.get(path, _references, key=(str(path), "includes"))
    return h.hexdigest()


def merge_search_index(entries: list[dict], previous: list[dict] | None, rebuilt: set[str]) -> list[dict]:
    """A dirty build's search entries made whole: the search plugin indexed only the rebuilt pages;
    add the previous index's entries of every page not rebuilt (`rebuilt` holds page URLs, the home
    page's is ""). With `previous` None (a full build) the entries are whole already."""
    if previous is None:
        return entries
    return [e for e in previous if e["location"].split("#")[0] not in rebuilt] + entries
