"""A Python-Markdown extension: code blocks that a keyboard reaches and whose comments stay readable.

- `tabindex="0"` on each `<code>`: a block that scrolls sideways must take keyboard focus
  (WCAG 2.1.1), and Material only sets that when it mounts the block (its `content.lazy` feature
  in mkdocs.yml mounts a block, copy button and overflow check, only when it comes into view).
  When it mounts a block that needs no scrolling it removes the tab stop;
  docs/assets/code-focus.js then hands the focus to the block's copy button, the block's first
  tab stop once mounted.
- `style="--tl-col: N"` on each comment: the column it starts at (a wide character counts two).
  Code lines keep their lines and scroll sideways; a long comment wraps instead,
  each of its lines starting under its own first character (overrides/course.css), so a Chinese
  end-of-line comment is read whole without scrolling.

A Markdown extension, like coursekit.extensions.cjk, so every page of every builder gets it. Register it as
`coursekit.extensions.codeblocks` in `markdown_extensions`.
"""

from __future__ import annotations

import html
import re
import unicodedata

from markdown import Extension
from markdown.postprocessors import Postprocessor

# `<pre ...>`, Pygments' empty `<span></span>`, the `<code ...>` Material mounts, the code.
_BLOCK = re.compile(r"<pre\b(?P<pre>[^>]*)>(?P<span><span></span>)?<code\b(?P<code>[^>]*)>(?P<body>.*?)</code></pre>", re.S)
# Pygments' comments that end with their line: `#`, `//` and the like, a hashbang, a special comment.
_COMMENT = re.compile(r'<span class="(?:c|c1|ch|cs)">')
_TAG = re.compile(r"<[^>]*>")


def columns(text: str) -> int:
    """How many monospace columns `text` takes (a wide or full-width character two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _comments(line: str) -> str:
    """One line of a block's HTML, each comment marked with the column it starts at."""
    out, last = [], 0
    for m in _COMMENT.finditer(line):
        col = columns(html.unescape(_TAG.sub("", line[:m.start()])))
        out += [line[last:m.start()], m.group(0)[:-1], f' style="--tl-col: {col}">']
        last = m.end()
    return "".join(out) + line[last:]


def _ready(m: re.Match) -> str:
    code, body = m["code"], m["body"]
    if "tabindex=" not in code:
        code = ' tabindex="0"' + code
    body = "\n".join(_comments(line) for line in body.split("\n"))
    return f"<pre{m['pre']}>{m['span'] or ''}<code{code}>{body}</code></pre>"


def ready(html_: str) -> str:
    """The same HTML with each code block's tab stop and each comment's column added."""
    return _BLOCK.sub(_ready, html_)


class CodeBlocks(Postprocessor):
    def run(self, text: str) -> str:
        return ready(text)


class CodeBlocksExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # after the raw-HTML postprocessor (30) has put the highlighted blocks back into the page
        md.postprocessors.register(CodeBlocks(md), "coursekit_codeblocks", 5)


def makeExtension(**kwargs):
    return CodeBlocksExtension(**kwargs)
