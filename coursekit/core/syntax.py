"""The kit's one door to `ast.parse`.

CPython 3.11 builds syntax trees with one recursion counter per interpreter: two threads parsing at
once (a lesson's run hashing what it imported while the main thread converts a page) may fail with a
spurious "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905). Every
parse of the kit goes through here, one at a time; tests/test_layers.py refuses `ast.parse` elsewhere.
"""

from __future__ import annotations

import ast
import threading

_PARSING = threading.Lock()


def parse(source: str, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    with _PARSING:
        return ast.parse(source, filename, mode)
