"""`mkdocs serve` notices an edit by content, not only by time.

MkDocs watches the files with watchdog's PollingObserver, which calls a file modified when its
modification time or size changed: a data file a lesson reads, edited by a tool that keeps
modification times (same size, `os.utime` putting the old time back), showed stale numbers until an
unrelated save, though a one-shot build saw it (the engine's stamps and digests, coursekit.core.stamps).
Here the server polls with the same observer (watchdog's public PollingObserverVFS, at the interval
MkDocs gave its own) and a file's time stands together with the digest of its bytes, read again
only when the file's stamp (mtime, ctime, size, inode) says it may have changed or is too recent
to trust: any edit of a watched file starts a rebuild.

Private, pinned with MkDocs 1.6.1 (tests/test_contracts.py): LiveReloadServer's `observer`,
made in __init__ and scheduled by `watch`, which runs after it; `watch_by_content` wraps __init__
to replace it before any path is watched.
"""

from __future__ import annotations

import os
import stat as st
from typing import NamedTuple

from watchdog.observers.polling import PollingObserverVFS

from coursekit.core import stamps
from coursekit.mkdocs_adapter import speed


class Stat(NamedTuple):
    """What watchdog's snapshot compares of a file (it tells modified files by st_mtime and st_size)."""

    st_ino: int
    st_dev: int
    st_mode: int
    st_mtime: tuple  # (mtime in ns, digest of the bytes)
    st_size: int


def content_stat(path) -> os.stat_result | Stat:
    """os.stat of `path`, a regular file's modification time paired with its digest."""
    s = os.stat(path)
    if not st.S_ISREG(s.st_mode):
        return s
    return Stat(s.st_ino, s.st_dev, s.st_mode, (s.st_mtime_ns, stamps.digest(path)), s.st_size)


def watch_by_content() -> None:
    """Have the server `mkdocs serve` is about to start watch its files by content."""

    def extend(original, server, args, kwargs):
        original(server, *args, **kwargs)
        server.observer = PollingObserverVFS(content_stat, os.scandir, polling_interval=server.observer.timeout)

    speed.extend_server("by_content", extend)
