"""Where a page's Markdown holds what a reader sees (numbers to check) and where it holds code."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# Fenced blocks a reader reads as displayed numbers: checked like prose.
DISPLAY_LANGS = {"", "text", "txt", "plain"}
# Transcripts: the prompt lines are code, the lines after them are what the program printed.
TRANSCRIPTS = {"pycon": re.compile(r"^\s*(>>>|\.\.\.)( |$)"), "python-repl": re.compile(r"^\s*(>>>|\.\.\.)( |$)"),
               "ipython": re.compile(r"^\s*(In \[\d*\]:|\.\.\.:)"),
               "console": re.compile(r"^\s*[$#] "), "shell-session": re.compile(r"^\s*[$#] ")}
# Text a reader sees inside markup: titles (tooltips), image alt text, labels.
SEEN_ATTRIBUTES = re.compile(r"""\b(?:title|alt|aria-label|placeholder)\s*=\s*(["'])(.*?)\1""", re.S)
HIDDEN = [
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"^[ \t]*;?-{1,}8<-{1,}.*$", re.M),  # snippet lines
    re.compile(r"https?://[!-~]+"),  # a bare URL ends where ASCII does
    re.compile(r"(?<=\])\([^)\s]*"),  # a link's target (its "title" stays visible)
    re.compile(r"^\s*\[[^\]]+\]:\s*\S+", re.M),  # a reference definition's target
    re.compile(r"\{:?\s*[#.:][^}\n]*\}"),  # attribute lists
    re.compile(r"</?[A-Za-z][^>]*>", re.S),  # HTML tags (attributes a reader sees are put back)
]


@dataclass
class Fence:
    start: int  # line number of the opening fence, 1-based
    end: int  # line number of the closing fence
    info: str
    lines: list[str]
    indent: int = 0

    @property
    def lang(self) -> str:
        first = self.info.strip().lstrip("{").split()[:1]
        return first[0].lstrip(".") if first else ""

    @property
    def executed(self) -> bool:
        return bool(re.search(r"\bexec=", self.info))


def fences(text: str) -> list[Fence]:
    """Fenced code blocks, top-level or indented (in admonitions, lists)."""
    lines = text.split("\n")
    found, i = [], 0
    while i < len(lines):
        m = FENCE_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        fence, indent = m["fence"], len(m["indent"].expandtabs(4))
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        body = [line[indent:] if line[:indent].strip() == "" else line for line in lines[i + 1 : j]]
        found.append(Fence(i + 1, j + 1, m["info"], body, indent))
        i = j + 1
    return found


def line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer(r"\n", text)]


def visible_mask(text: str) -> bytearray:
    """1 for each character a reader sees as text (prose, displayed blocks, transcript output,
    tooltips and alt text), 0 for code, markup and hidden text."""
    seen = bytearray(b"\1" * len(text))
    starts = line_starts(text)

    def hide(a: int, b: int) -> None:
        seen[a:b] = b"\0" * (max(0, min(b, len(text)) - a))

    def line_span(n: int) -> tuple[int, int]:
        return starts[n - 1], (starts[n] if n < len(starts) else len(text))

    for f in fences(text):
        hide(line_span(f.start)[0], line_span(f.start)[1])
        if f.end <= len(starts):
            hide(*line_span(f.end))
        prompt = TRANSCRIPTS.get(f.lang)
        for n in range(f.start + 1, f.end):
            a, b = line_span(n)
            if f.executed or not (f.lang in DISPLAY_LANGS or prompt):
                hide(a, b)
            elif prompt and prompt.match(text[a:b]):
                hide(a, b)
    for m in re.finditer(r"(`+)(.+?)\1", text, re.S):  # inline code is code, unless it is just a number
        if seen[m.start()] and not re.fullmatch(r"\s*[-−]?[\d.]+%?\s*", m.group(2)):
            hide(m.start(), m.end())
    for pattern in HIDDEN:
        for m in pattern.finditer(text):
            if not seen[m.start()]:
                continue
            hide(m.start(), m.end())
            for a in SEEN_ATTRIBUTES.finditer(m.group(0)):
                seen[m.start() + a.start(2) : m.start() + a.end(2)] = b"\1" * (a.end(2) - a.start(2))
    return seen


# What a backslash escapes in the Markdown this site is written in (Python-Markdown's set, with the
# tables extension's |): `2\.13` shows 2.13. In a code block a backslash is a backslash.
ESCAPABLE = set("\\`*_{}[]()>#+-.!|")


def unescaped(text: str, shown: str) -> tuple[str, list[int]]:
    """`shown` (a view of `text`, one character for one) without the backslashes of Markdown escapes
    outside code blocks, as the reader reads it; and for each of its characters, and its end, the
    offset in `text`."""
    if "\\" not in shown:
        return shown, list(range(len(shown) + 1))
    starts = line_starts(text)
    literal = [(starts[f.start - 1], starts[f.end - 1] if f.end - 1 < len(starts) else len(text)) for f in fences(text)]
    out, where, i = [], [], 0
    while i < len(shown):
        if (shown[i] == "\\" and i + 1 < len(shown) and shown[i + 1] == text[i + 1] in ESCAPABLE
                and not any(a <= i < b for a, b in literal)):
            i += 1
        out.append(shown[i])
        where.append(i)
        i += 1
    return "".join(out), where + [len(shown)]


def segments(text: str):
    """offset -> the paragraph or displayed block it belongs to (annotations bind within one)."""
    bounds = [m.end() for m in re.finditer(r"\n[ \t]*\n", text)]
    for f in fences(text):
        starts = line_starts(text)
        a = starts[f.start - 1]
        b = starts[f.end - 1] if f.end - 1 < len(starts) else len(text)
        bounds = [x for x in bounds if not a < x < b] + [a, b]
    bounds.sort()
    return lambda offset: bisect_right(bounds, offset)


def front_matter(text: str) -> tuple[str, int, str]:
    """(the YAML front matter, its line count, the page after it) of a page file; ('', 0, text) without."""
    m = re.match(r"---[ \t]*\n(.*?\n)---[ \t]*\n", text, re.S)
    return (m.group(1), m.group(0).count("\n"), text[m.end():]) if m else ("", 0, text)
