"""Make `mkdocs serve` show an edit sooner. Both changes only touch how fast, never what is built.

- MkDocs polls watched files every 0.5 s (its PollingObserver), so a save waits 0.25 s on average
  before a rebuild starts; the few files here can be polled every 0.1 s at no real cost.
- Every build makes a new Jinja environment and compiles Material's templates again (about
  0.25 s); a bytecode cache kept in this process for the life of `mkdocs serve`, and on disk in
  `.cache/coursekit/templates` for one-shot builds, avoids that (Jinja's own FileSystemBytecodeCache).
  Jinja checks each template's source, and its bytecode carries the Python version, so an edited
  template or another Python compiles anew.

One private API, pinned with MkDocs 1.6.1 (tests/test_contracts.py): LiveReloadServer.__init__
takes `polling_interval`, but `mkdocs serve` offers no option for it, so poll_sooner wraps __init__.
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


def poll_sooner() -> None:
    """Have the server that `mkdocs serve` is about to start poll every POLL_SECONDS."""
    from mkdocs import livereload

    server = livereload.LiveReloadServer
    if getattr(server.__init__, "_polls_sooner", False):
        return
    original = server.__init__

    def __init__(self, *args, **kwargs):
        kwargs["polling_interval"] = POLL_SECONDS
        original(self, *args, **kwargs)

    __init__._polls_sooner = True
    server.__init__ = __init__
