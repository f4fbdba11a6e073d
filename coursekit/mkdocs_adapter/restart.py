"""Under `mkdocs serve`, an edit of what the kit reads once, at import (the course's words in
lessons/glossary.toml, the general language in coursekit/core/language.toml, the kit's own code),
restarts the serve process in place: a rebuild in the same process would still read the old words.
The process execs itself with the arguments it was started with (same pid, same port, same log);
its zygote and workers see their sockets close and stop."""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

from coursekit.core import digests

READ_ONCE = ("lessons/glossary.toml", "coursekit")  # a file, or a folder of .py and .toml files

log = logging.getLogger("mkdocs.hooks.coursekit")


def digest(root: Path) -> str:
    """One hash of every file read once at import, each to the letter (remembered while its stamp holds)."""
    files = []
    for rel in READ_ONCE:
        path = root / rel
        files += sorted(p for p in path.rglob("*") if p.suffix in (".py", ".toml")) if path.is_dir() else [path]
    return digests.sha(*(f"{p.relative_to(root)}={digests.kit_file(p)}" for p in files))


def if_changed(root: Path, known: str, site_dir: str) -> None:
    """Exec this process anew when `digest(root)` is no longer `known`; first remove serve's
    temporary site folder, which the old process would have removed on exit."""
    now = digest(root)
    if now == known:
        return
    log.warning("课程的词表（lessons/glossary.toml）或 coursekit 改了：只在启动时读取，serve 重新启动")
    for handler in logging.getLogger().handlers + log.handlers:
        handler.flush()
    sys.stdout.flush()
    sys.stderr.flush()
    site = Path(site_dir)
    if site.parent == Path(tempfile.gettempdir()) and site.name.startswith("mkdocs_"):
        shutil.rmtree(site, ignore_errors=True)
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
