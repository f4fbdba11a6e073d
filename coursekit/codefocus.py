"""A Python-Markdown extension: every code block can take keyboard focus from the moment the page loads.

A code block wider than the screen scrolls sideways, and a keyboard reader scrolls it by focusing it
(WCAG 2.1.1). Material gives such a block `tabindex="0"` when it mounts the block, and with the
`content.lazy` feature (mkdocs.yml) it mounts a block only when the block comes into view: that
spares the page's load a layout of every listing (scripts/bench_page.py), but until then a block
below the fold is not focusable. So the page ships each `<pre><code>` focusable; when Material mounts
the block it keeps `tabindex` where the block scrolls and removes it where nothing needs scrolling.

A Markdown extension, like coursekit.cjk, so every page of every builder gets it. Register it as
`coursekit.codefocus` in `markdown_extensions`.
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

# `<pre ...>`, Pygments' empty `<span></span>`, then the `<code` that Material mounts.
_CODE = re.compile(r"(<pre\b[^>]*>(?:<span></span>)?<code)(?![^>]*\btabindex=)")


def focusable(html: str) -> str:
    """The same HTML with `tabindex="0"` on each code element that is a `<pre>`'s first child."""
    return _CODE.sub(r'\1 tabindex="0"', html)


class CodeFocus(Postprocessor):
    def run(self, text: str) -> str:
        return focusable(text)


class CodeFocusExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # after the raw-HTML postprocessor (30) has put the highlighted blocks back into the page
        md.postprocessors.register(CodeFocus(md), "coursekit_codefocus", 5)


def makeExtension(**kwargs):
    return CodeFocusExtension(**kwargs)
