"""Where a lesson's Markdown holds prose (numbers to check) and where it holds code."""

from __future__ import annotations

import re
from dataclasses import dataclass

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# Fenced blocks whose content is displayed numbers, checked like prose.
DISPLAY_LANGS = {"", "text", "txt"}
# Parts of a line that are not prose: comments, snippet lines, link targets, URLs, attribute lists.
NOT_PROSE = [
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"^[ \t]*-{1,}8<-{1,}.*$", re.M),
    re.compile(r"\]\([^)]*\)"),
    re.compile(r"https?://\S+"),
    re.compile(r"\{[:#.][^}\n]*\}"),
    re.compile(r"<[A-Za-z/][^>\n]*>"),
]


@dataclass
class Fence:
    start: int  # line number of the opening fence, 1-based
    end: int  # line number of the closing fence
    info: str
    lines: list[str]

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
        found.append(Fence(i + 1, j + 1, m["info"], body))
        i = j + 1
    return found


def front_matter_end(text: str) -> int:
    """Line count of a leading YAML front matter block (0 when there is none)."""
    m = re.match(r"---\n.*?\n---\n", text, re.S)
    return m.group(0).count("\n") if m else 0


def prose_mask(text: str) -> str:
    """The page with everything that is not prose blanked to spaces, offsets and lines kept."""
    chars = list(text)
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def blank(start: int, end: int) -> None:
        for p in range(start, min(end, len(chars))):
            if chars[p] != "\n":
                chars[p] = " "

    def line_span(first: int, last: int) -> tuple[int, int]:
        end = line_starts[last] if last < len(line_starts) else len(text)
        return line_starts[first - 1], end

    fm = front_matter_end(text)
    if fm:
        blank(*line_span(1, fm))
    for f in fences(text):
        if f.lang in DISPLAY_LANGS and not f.executed:
            blank(*line_span(f.start, f.start))  # the fence lines only
            blank(*line_span(f.end, f.end))
        else:
            blank(*line_span(f.start, f.end))
    masked = "".join(chars)
    for pattern in NOT_PROSE:
        for m in pattern.finditer(masked):
            blank(m.start(), m.end())
        masked = "".join(chars)
    return masked


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
