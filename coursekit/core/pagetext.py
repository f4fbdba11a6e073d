"""A page's text as a reader gets it, whatever the editor saved: the kit's one way to read a page, a
file it includes or shows, or a lesson's Markdown and notebook text.

MkDocs reads pages as UTF-8 with or without a byte-order mark, and its reading turns CRLF and CR
line ends into LF; the kit reads the same text, so no check finds a file other than the one MkDocs
converts (a BOM once made the guard miss its page: its annotations reached readers unchecked).
Bytes that are not UTF-8 fail at the file's line that holds them, never silently replaced.
"""

from __future__ import annotations

import os
from pathlib import Path

from coursekit.core import CourseError

BOM = "\ufeff"


class UnreadableText(CourseError, ValueError):
    """A file the site shows holds bytes that are not UTF-8: `file:line: message`."""


def normal(text: str) -> str:
    """`text` without a leading byte-order mark, its line ends LF: what a builder that decoded the
    file itself (Python-Markdown's preprocessors get what it passes) should have passed."""
    if text.startswith(BOM):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read(path: Path | str) -> str:
    """The text of the file at `path` as a reader gets it (`normal`); UnreadableText naming the file
    and the line of the first byte that is not UTF-8; OSError when it can't be read at all."""
    data = Path(path).read_bytes()
    try:
        return normal(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise UnreadableText(
            f"{_named(path)}:{line}: 这个文件不是 UTF-8 编码，读不出来（第 {err.start + 1} 个字节 0x{data[err.start]:02x}）："
            f"用 UTF-8 重新保存它（编辑器的“编码”里选 UTF-8）") from None


def _named(path: Path | str) -> str:
    """`path` as a message names it: relative to the working folder (a build's is the repository's)."""
    rel = os.path.relpath(path)
    return Path(path).as_posix() if rel.startswith("..") else Path(rel).as_posix()
