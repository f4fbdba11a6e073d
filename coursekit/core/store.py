"""The build's cache folder (`.cache/coursekit/`): sealed records, and the lessons' runs kept least
recently used first out.

Only the build writes it, and what it reads is verified: each record's first line seals the rest,
an HMAC, under a key kept in the cache folder, of the record's place in the cache and its text.
Lesson code can neither read that folder nor start a process that could (coursekit.core.worker), so
a record it (or anything else) rewrote, moved or cut short does not verify and is run again, never
shown.

Each lesson keeps its last HISTORY runs (`runs/<lesson>/<key>.json`), so a file edited and put back
is a hit again; the whole cache stays under CACHE_BYTES, the least recently used runs pruned first
together with what was kept under their key (the evaluations `evals/<key>.json` and the blocks
`blocks/<key>-…/`). A run this build uses is never pruned under it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import threading
from pathlib import Path

HISTORY = 8  # runs kept per lesson: a file edited and put back finds its earlier run
CACHE_BYTES = 512 * 1024 * 1024  # the whole cache at most; the least recently used runs go first


class Store:
    """One cache folder's records, sealed, and its runs, pruned."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._key: bytes | None = None  # the sealing key, read on first use
        self._key_lock = threading.Lock()
        self._lock = threading.Lock()
        self._in_use: set[str] = set()  # run keys this build uses: never pruned under it

    # ---- sealed records -------------------------------------------------------------------------
    def _seal(self, path: Path, body: str) -> str:
        with self._key_lock:
            if self._key is None:
                self._key = _seal_key(self.folder)
        place = path.relative_to(self.folder).as_posix()
        return hmac.new(self._key, f"{place}\0{body}".encode(), hashlib.sha256).hexdigest()

    def write(self, path: Path, data: dict) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps(data, ensure_ascii=False, sort_keys=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(f"{self._seal(path, body)}\n{body}", encoding="utf-8")
        tmp.replace(path)

    def read(self, path: Path) -> dict:
        """A record the build wrote, or {} when there is none or it does not verify."""
        try:
            seal, _, body = path.read_text(encoding="utf-8").partition("\n")
        except (OSError, ValueError):
            return {}
        if not hmac.compare_digest(seal.encode(), self._seal(path, body).encode()):  # any text, not only hex
            return {}
        try:
            data = json.loads(body)
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    # ---- runs, least recently used out ------------------------------------------------------------
    def runs(self, lesson: str) -> list[Path]:
        """A lesson's recorded runs (by its package, or SITE), most recently used first."""
        return newest_first((self.folder / "runs" / lesson).glob("*.json"))

    def use(self, path: Path) -> None:
        """A recorded run this build uses: the last to be pruned, and never under it."""
        os.utime(path)
        self.keep(path.stem)

    def keep(self, key: str) -> None:
        with self._lock:
            self._in_use.add(key)

    def record(self, lesson: str, key: str, record: dict) -> None:
        """Keep a new run; drop this lesson's runs beyond HISTORY, then, while the cache is over
        CACHE_BYTES, the least recently used runs of any lesson; each with its evaluations and blocks."""
        self.write(self.folder / "runs" / lesson / f"{key}.json", record)
        with self._lock:
            self._in_use.add(key)
            gone = self.runs(lesson)[HISTORY:]
            gone += [p for p in (self.folder / "runs").glob("*.json")]  # the one-record-a-lesson layout of engine.FORMAT 4
            for path in gone:
                self._forget(path)
            records = newest_first((self.folder / "runs").glob("*/*.json"))
            total = sum(_bytes(p) for p in self.folder.rglob("*") if p.is_file())
            for path in reversed(records):  # oldest first
                if total <= CACHE_BYTES:
                    break
                if path.stem not in self._in_use:
                    total -= self._forget(path)

    def _forget(self, record: Path) -> int:
        """Delete a recorded run with what was kept under its key; the bytes freed."""
        key = record.stem
        doomed = [record, self.folder / "evals" / f"{key}.json", *(self.folder / "blocks").glob(f"{key}-*/*.json")]
        freed = sum(_bytes(p) for p in doomed)
        for path in doomed:
            path.unlink(missing_ok=True)
        for folder in (self.folder / "blocks").glob(f"{key}-*"):
            shutil.rmtree(folder, ignore_errors=True)
        return freed


def newest_first(paths) -> list[Path]:
    stamped = []
    for path in paths:
        try:
            stamped.append((path.stat().st_mtime_ns, path.name, path))
        except OSError:  # pruned meanwhile
            pass
    return [p for *_, p in sorted(stamped, reverse=True)]


def _bytes(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _seal_key(cache: Path) -> bytes:
    """The cache's sealing key, made on first use (readable by its owner only)."""
    path = cache / "seal.key"
    try:
        key = path.read_bytes()
        if len(key) == 32:
            return key
    except OSError:
        pass
    cache.mkdir(parents=True, exist_ok=True)
    key = os.urandom(32)
    tmp = cache / f"seal.key.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    try:  # the first of two builds starting at once wins; the other uses its key
        os.link(tmp, path)
    except FileExistsError:
        if len(theirs := path.read_bytes()) == 32:
            key = theirs
        else:  # not a key: replaced
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return key
