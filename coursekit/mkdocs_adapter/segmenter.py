"""Chinese segmentation for the search index without loading jieba's whole dictionary.

Material's search plugin segments Chinese with jieba, and jieba's first cut loads its dictionary:
about 350,000 words and their prefixes, built into a dict from its cache (0.6 s on this machine).
A build that indexes one edited page pays that for a few paragraphs. So once a build has loaded the
dictionary anyway, `keep` writes it into an SQLite table (one row per word or prefix, its count),
and later builds look words up there one at a time (`lazy`): the same counts, so the same words.

The table sits beside jieba's own cache, per user and per jieba version and dictionary
(`~/.cache/coursekit/`), not in the course's folder: like jieba's, it holds no course content.

One private API, pinned with jieba 0.42.1 and tested (tests/test_warm.py, tests/test_contracts.py):
the default tokenizer's `FREQ`, `total` and `initialized`, which jieba's own `initialize` sets
(under its `lock`, as here), and its `dictionary` against `DEFAULT_DICT` (no user dictionary
loaded); jieba reads `FREQ` only with `in`, `[]` and `.get`.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path


def _jieba():
    try:
        import jieba
    except ImportError:  # Material segments nothing without it
        return None
    return jieba


def table(jieba) -> Path:
    """Where the dictionary's table is: named by jieba's version and its dictionary file."""
    dictionary = Path(jieba.__file__).parent / jieba.DEFAULT_DICT_NAME
    stamp = f"{jieba.__version__} {dictionary.stat().st_size} {dictionary.stat().st_mtime_ns}"
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "coursekit" / f"jieba-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}.sqlite"


class Counts:
    """jieba's FREQ as it reads it (`in`, `[]`, `.get`), looked up in the table and remembered."""

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self._seen: dict[str, int | None] = {}
        self.total = self._db.execute("SELECT total FROM meta").fetchone()[0]

    def _count(self, word: str) -> int | None:
        if word not in self._seen:
            row = self._db.execute("SELECT n FROM freq WHERE w = ?", (word,)).fetchone()
            self._seen[word] = None if row is None else row[0]
        return self._seen[word]

    def __contains__(self, word: str) -> bool:
        return self._count(word) is not None

    def __getitem__(self, word: str) -> int:
        n = self._count(word)
        if n is None:
            raise KeyError(word)
        return n

    def get(self, word: str, default=None):
        n = self._count(word)
        return default if n is None else n


def lazy() -> bool:
    """Have jieba's default tokenizer look words up in the table, if there is one and it has loaded
    no dictionary of its own yet (a user dictionary, say); whether it does."""
    jieba = _jieba()
    if jieba is None or jieba.dt.initialized or jieba.dt.dictionary != jieba.DEFAULT_DICT:
        return False
    path = table(jieba)
    if not path.is_file():
        return False
    try:
        counts = Counts(path)
    except sqlite3.Error:
        return False
    with jieba.dt.lock:
        jieba.dt.FREQ, jieba.dt.total, jieba.dt.initialized = counts, counts.total, True
    return True


def keep() -> None:
    """After jieba loaded its default dictionary in full: write the table, once per version."""
    jieba = _jieba()
    if jieba is None or not jieba.dt.initialized or isinstance(jieba.dt.FREQ, Counts):
        return
    if jieba.dt.dictionary != jieba.DEFAULT_DICT:
        return
    path = table(jieba)
    if path.is_file():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with sqlite3.connect(tmp) as db:
            db.execute("CREATE TABLE freq (w TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID")
            db.executemany("INSERT INTO freq VALUES (?, ?)", jieba.dt.FREQ.items())
            db.execute("CREATE TABLE meta (total INTEGER)")
            db.execute("INSERT INTO meta VALUES (?)", (jieba.dt.total,))
        db.close()
        os.replace(tmp, path)
    except (OSError, sqlite3.Error):  # no table: the next build loads the dictionary as jieba does
        tmp.unlink(missing_ok=True)
