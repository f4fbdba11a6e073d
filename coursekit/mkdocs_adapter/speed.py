"""Make `mkdocs serve` show an edit sooner. Both changes only touch how fast, never what is built.

- MkDocs polls watched files every 0.5 s (its PollingObserver), so a save waits 0.25 s on average
  before a rebuild starts; the few files here can be polled every 0.1 s at no real cost.
- Every build makes a new Jinja environment and compiles Material's templates again (about
  0.25 s); a bytecode cache kept in this process for the life of `mkdocs serve`, and on disk in
  `.cache/coursekit/templates` for one-shot builds, avoids that (Jinja's own FileSystemBytecodeCache).
  Jinja checks each template's source, and its bytecode carries the Python version, so an edited
  template or another Python compiles anew.

- Every build lists the theme's folders to find its static files: Jinja's list_templates walks
  all 14,511 files of Material's folder, its icons included, and MkDocs matches each against its
  patterns (about 0.14 s). A dirty `mkdocs serve` rebuild, whose configuration and overrides are
  unchanged (coursekit/mkdocs_adapter/incremental.py), takes the last build's list.

Two private APIs, pinned with MkDocs 1.6.1 (tests/test_contracts.py): LiveReloadServer.__init__
takes `polling_interval`, but `mkdocs serve` offers no option for it, so poll_sooner wraps __init__;
a build lists the theme's static files through `config.theme.get_env()` and that environment's
list_templates, called once, so keep_theme_listing wraps the theme's get_env.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

POLL_SECONDS = 0.1


class _RememberedBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory, in front of a folder that outlives the process."""

    def __init__(self) -> None:
        self._store: dict[str, bytes] = {}
        self.disk: jinja2.FileSystemBytecodeCache | None = None
        self.folder: Path | None = None  # the disk cache's folder

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._store:
            bucket.bytecode_from_string(self._store[bucket.key])
        elif self.disk is not None:
            self.disk.load_bytecode(bucket)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._store[bucket.key] = bucket.bytecode_to_string()
        if self.disk is not None:
            self.disk.dump_bytecode(bucket)


_templates = _RememberedBytecodeCache()


def reuse_compiled_templates(env: jinja2.Environment, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if _templates.disk is None or _templates.folder != folder:
        _templates.disk, _templates.folder = jinja2.FileSystemBytecodeCache(str(folder)), folder
    env.bytecode_cache = _templates


def extend_server(mark: str, extend) -> None:
    """Wrap the __init__ of the server `mkdocs serve` is about to start, once per `mark`:
    extend(original, server, args, kwargs) runs in its place (marks carry over from one wrapper to
    the next, so each extension is applied once however many are stacked)."""
    from mkdocs import livereload

    server = livereload.LiveReloadServer
    original, marks = server.__init__, getattr(server.__init__, "_coursekit", frozenset())
    if mark in marks:
        return

    def __init__(self, *args, **kwargs):
        extend(original, self, args, kwargs)

    __init__._coursekit = marks | {mark}
    server.__init__ = __init__


def poll_sooner() -> None:
    """Have the server that `mkdocs serve` is about to start poll every POLL_SECONDS."""

    def extend(original, server, args, kwargs):
        original(server, *args, **{**kwargs, "polling_interval": POLL_SECONDS})

    extend_server("polls_sooner", extend)


_listed: dict[tuple, list[str]] = {}  # (the theme's folders, the filter's code) -> what list_templates gave


def keep_theme_listing(theme, reuse: bool) -> None:
    """Have this build's Jinja environment list the theme's templates as the last build did when
    `reuse` (a dirty rebuild: the same configuration, the same overrides), else anew."""
    make_env, folders = theme.get_env, tuple(theme.dirs)
    if not reuse:
        for key in [k for k in _listed if k[0] == folders]:
            del _listed[key]

    def get_env() -> jinja2.Environment:
        env = make_env()
        list_templates = env.list_templates

        def listed(extensions=None, filter_func=None) -> list[str]:
            if extensions is not None:
                return list_templates(extensions, filter_func)
            key = (folders, getattr(filter_func, "__code__", None))
            if key not in _listed:
                _listed[key] = list_templates(filter_func=filter_func)
            return list(_listed[key])

        env.list_templates = listed
        return env

    theme.get_env = get_env
