"""A Python-Markdown extension: a soft line break between two Chinese characters adds no space.

Markdown keeps a paragraph's line breaks as newlines, and browsers show a newline as a space, so

    正文里写的每个数，
    都来自同一份代码

reads 「每个数， 都来自」 on the page. This extension removes such a newline (and the indentation
around it) when the characters on both sides are CJK characters or CJK punctuation, wherever they
are: inside one text run or across inline markup (`**粗体**`, links). A break next to a Latin letter,
a digit or inline code stays a space, as Chinese typesetting wants there. Code is never touched.

Full-width punctuation carries its own blank, so a space typed after it before a CJK character is
removed too: `**新东西放进新函数。** 第 11 讲` reads 「新函数。第 11 讲」 (a bold lead-in followed by a
space, as Markdown written for Latin text has it). A space between other characters stays: 「第 10 讲
· 注意力」 keeps its spaces around the middle dot.

It is a Markdown extension, not an MkDocs hook, so any builder that runs the site's Markdown
extensions (MkDocs, Zensical) applies it. Register it as `coursekit.extensions.cjk` in `markdown_extensions`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

# Han, kana, CJK symbols and punctuation, full-width forms, and the quotes and dashes Chinese text uses.
CJK = (
    "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u2018\u2019\u201c\u201d\u2014\u2026\u00b7"
)
# Full-width punctuation: the CJK symbols and punctuation block, and the full-width forms that are not
# letters or digits (，！：（） and the like).
PUNCTUATION = "\u3001-\u3003\u3008-\u3011\u3014-\u301f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
_CJK = re.compile(f"[{CJK}]")
_PUNCTUATION = re.compile(f"[{PUNCTUATION}]")
# A line break with the blanks around it, or a run of blanks on one line.
_BREAK = re.compile(r"[ \t]*\n[ \t]*|[ \t]+")
SKIP = {"code", "pre", "script", "style", "kbd", "samp", "math"}


def _is_cjk(char: str) -> bool:
    return bool(char) and _CJK.match(char) is not None


BLOCKS = {
    "p", "li", "dt", "dd", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div", "blockquote", "ul", "ol",
    "dl", "table", "thead", "tbody", "tfoot", "tr", "details", "summary", "figure", "figcaption", "section",
    "article", "aside", "header", "footer", "nav", "hr", "pre", "form", "fieldset", "legend", "caption",
}


def _runs(el: etree.Element, frozen: bool = False):
    """The texts of `el` in reading order as [element, "text"|"tail", frozen] slots; None where a
    block element starts or ends (no line is joined across it). Text in code is frozen: read, never changed."""
    inside = frozen or el.tag in SKIP
    yield [el, "text", inside]
    for child in el:
        block = child.tag in BLOCKS
        if block:
            yield None
        yield from _runs(child, inside)
        if block:
            yield None
        yield [child, "tail", inside]


def _get(slot) -> str:
    return getattr(slot[0], slot[1]) or ""


def _joined(blank: str, before: str, after: str) -> bool:
    """Whether the blank between the characters `before` and `after` shows as nothing: a line break
    between two CJK characters, or any blank after full-width punctuation before a CJK character."""
    if not _is_cjk(after):
        return False
    return _is_cjk(before) if "\n" in blank else bool(before) and _PUNCTUATION.match(before) is not None


def join_breaks(root: etree.Element) -> None:
    """Remove every line break (with the blanks around it) that has CJK characters on both sides, and
    every blank after full-width punctuation before a CJK character."""
    slots = [s for s in _runs(root) if s is None or _get(s)]
    for i, slot in enumerate(slots):
        if slot is None or slot[2] or not _BREAK.search(_get(slot)):
            continue
        text = _get(slot)

        def neighbour(pos: int, step: int, text: str = text, i: int = i) -> str:
            """The first non-blank character before (step -1) or after (step 1) `pos`, within the block."""
            own = text[:pos].rstrip() if step < 0 else text[pos:].lstrip()
            if own:
                return own[-1] if step < 0 else own[0]
            j = i + step
            while 0 <= j < len(slots) and slots[j] is not None:
                other = _get(slots[j]).strip()
                if other:
                    return other[-1] if step < 0 else other[0]
                j += step
            return ""

        out, last = [], 0
        for m in _BREAK.finditer(text):
            out.append(text[last:m.start()])
            joined = _joined(m.group(0), neighbour(m.start(), -1), neighbour(m.end(), 1))
            out.append("" if joined else m.group(0))
            last = m.end()
        out.append(text[last:])
        setattr(slot[0], slot[1], "".join(out))


class CjkLineJoin(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        join_breaks(root)


class CjkExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # after inline markup is parsed (priority 20), before the tree is serialised
        md.treeprocessors.register(CjkLineJoin(md), "cjk_line_join", 5)


def makeExtension(**kwargs):
    return CjkExtension(**kwargs)
