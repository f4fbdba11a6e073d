"""A do-nothing MkDocs plugin, listed before mkdocs-jupyter, that makes its heavy imports lazy.

mkdocs-jupyter imports nbconvert (through its `convert` module) and jupytext when MkDocs loads it,
about 0.35 s of every build. This site needs neither: coursekit renders the notebook pages itself
(coursekit/mkdocs_adapter/notebook_page.py), and mkdocs-jupyter reads jupytext only for Markdown notebooks, which
`ignore: ["*.md"]` in mkdocs.yml rules out. MkDocs loads plugins in the order `plugins:` lists
them, so importing this module first hands mkdocs-jupyter the two as modules that load on first
use (the standard library's importlib.util.LazyLoader); if anything does use them, they load then.

One private API, pinned with mkdocs-jupyter 0.26.3 and tested (tests/test_warm.py): that its plugin
module binds `convert` and `jupytext` at import and uses them only when it converts.
"""

from __future__ import annotations

import importlib.util
import sys

from mkdocs.plugins import BasePlugin

LAZY = ("mkdocs_jupyter.convert", "jupytext")


def _lazy(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)


for _name in LAZY:
    _lazy(_name)


class Plugin(BasePlugin):
    """Its work is done on import."""
