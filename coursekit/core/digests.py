"""Digests the cache is keyed by: a file's text to the letter, or a module's code as it behaves (its
syntax tree without docstrings), remembered per file until its stamp says it may have changed
(coursekit.core.stamps); and the chain of a page's blocks."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from coursekit.core import stamps, syntax


def behaviour(text: str) -> str:
    """A module's syntax tree without docstrings: equal for two files that differ only in words."""
    tree = syntax.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def sha(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


_hashes = stamps.Remembered()  # (path, to the letter) -> hash


def file_hash(root: Path, rel: str, lesson) -> str:
    """Own files count to the letter (the page and notebook show them), and data files too;
    imported modules by behaviour. Remembered per file until it may have changed (coursekit.core.stamps)."""
    path = root / rel
    letter = rel.startswith(lesson.folder + "/") or not rel.endswith(".py")
    return _hashes.get(path, lambda p: _digest(p, letter), key=(str(path), letter))


def kit_file(path: Path) -> str:
    """A kit file's hash: its code as it behaves, or the letter of a file that is not Python."""
    letter = path.suffix != ".py"
    return _hashes.get(path, lambda p: _digest(p, letter), key=(str(path), letter))


def _digest(path: Path, letter: bool) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "missing"
    try:
        return sha(text) if letter else sha(behaviour(text))
    except SyntaxError:
        return sha(text)



def chain(previous: str, code: str) -> str:
    """The key of a page's block after the blocks before it (`previous`: their chain)."""
    return sha(previous, code)
