"""A Python-Markdown extension: code blocks ready to be laid out and mounted late.

A lesson page holds about seven times a plain page's elements, nearly all of them the highlighting
of its listings. Two things keep it as fast as a plain page (scripts/bench_page.py): the browser
skips style and layout of a listing until it comes near the screen (`content-visibility` in
overrides/course.css), and Material mounts a code block (its copy button, its overflow check)
only when it comes into view (its `content.lazy` feature in mkdocs.yml). This extension gives
each `<pre><code>` what that needs:

- its number of lines, as `style="--tl-lines: N"` on the `<pre>`: the stylesheet turns it into
  the block's height before it is laid out (code lines do not wrap), so the page is as long as it
  will be and a link, Back or a reload lands where it should;
- `tabindex="0"` on the `<code>`: a block that scrolls sideways must take keyboard focus
  (WCAG 2.1.1), and Material only sets that when it mounts the block. When it mounts a block
  that needs no scrolling it removes the tab stop; docs/assets/code-focus.js then hands the
  focus to the block's copy button, the block's first tab stop once mounted.

A Markdown extension, like coursekit.extensions.cjk, so every page of every builder gets it. Register it as
`coursekit.extensions.codeblocks` in `markdown_extensions`.
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

# `<pre ...>`, Pygments' empty `<span></span>`, the `<code ...>` Material mounts, the code.
_BLOCK = re.compile(r"<pre\b(?P<pre>[^>]*)>(?P<span><span></span>)?<code\b(?P<code>[^>]*)>(?P<body>.*?)</code></pre>", re.S)


def lines(body: str) -> int:
    """How many lines a code element's HTML shows (Pygments ends the last line with a newline)."""
    return body.count("\n") + (0 if body.endswith("\n") or not body else 1)


def _ready(m: re.Match) -> str:
    pre, code = m["pre"], m["code"]
    if "style=" not in pre:
        pre += f' style="--tl-lines: {lines(m["body"])}"'
    if "tabindex=" not in code:
        code = ' tabindex="0"' + code
    return f"<pre{pre}>{m['span'] or ''}<code{code}>{m['body']}</code></pre>"


def ready(html: str) -> str:
    """The same HTML with each code block's line count and tab stop added."""
    return _BLOCK.sub(_ready, html)


class CodeBlocks(Postprocessor):
    def run(self, text: str) -> str:
        return ready(text)


class CodeBlocksExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # after the raw-HTML postprocessor (30) has put the highlighted blocks back into the page
        md.postprocessors.register(CodeBlocks(md), "coursekit_codeblocks", 5)


def makeExtension(**kwargs):
    return CodeBlocksExtension(**kwargs)
