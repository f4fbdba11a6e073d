"""Where a page's Markdown holds what a reader sees (numbers to check) and where it holds code."""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from dataclasses import dataclass
from coursekit.core import syntax

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# Fenced blocks in a programming or data language hold code: a reader sees their comments as text
# (and, below, a shown block's docstrings). Any other language (text, output, log, none, …) is
# displayed text: checked like prose.
CODE_LANGS = {"python", "py", "python3", "pyodide", "bash", "sh", "shell", "zsh", "js", "javascript", "ts", "typescript",
              "html", "css", "yaml", "yml", "toml", "json", "jsonc", "markdown", "md", "diff", "ini", "cfg",
              "c", "cpp", "rust", "go", "java", "sql", "make", "makefile", "dockerfile", "jinja", "xml",
              "powershell", "ps1", "bat", "r", "julia", "tex", "latex", "mermaid", "svg", "graphql"}
HASH_COMMENTS = {"python", "py", "python3", "pyodide", "bash", "sh", "shell", "zsh", "yaml", "yml", "toml", "ini", "cfg",
                 "make", "makefile", "dockerfile", "r", "julia", "powershell", "ps1"}
SLASH_COMMENTS = {"js", "javascript", "ts", "typescript", "jsonc", "c", "cpp", "rust", "go", "java"}
# Transcripts: the prompt lines are code, the lines after them are what the program printed.
TRANSCRIPTS = {"pycon": re.compile(r"^\s*(>>>|\.\.\.)( |$)"), "python-repl": re.compile(r"^\s*(>>>|\.\.\.)( |$)"),
               "ipython": re.compile(r"^\s*(In \[\d*\]:|\.\.\.:)"),
               "console": re.compile(r"^\s*[$#] "), "shell-session": re.compile(r"^\s*[$#] ")}
# Text a reader sees inside markup: titles (tooltips), image alt text, labels, form values.
SEEN_ATTRIBUTES = re.compile(r"""(?<![\w-])(?:title|alt|aria-label|placeholder|value|label)\s*=\s*(["'])(.*?)\1""", re.S)
FENCE_TITLE = re.compile(r"""\btitle=(["'])(.*?)\1""")
# What an inline code span shows as a value (checked like prose): only numbers, a vector or a shape,
# perhaps after `name =` or `x.shape ==`: `[3, 2]`, `(3, 4)`, `3×4`, `torch.Size([3, 4])`, `d_k = 4`.
INLINE_VALUE = re.compile(
    r"(?P<lhs>\s*[A-Za-z_][\w.\[\], ]*\s*==?\s*)?(?P<value>(?:torch\.Size\(|(?:torch\.|np\.)?(?:tensor|array)\()?"
    r"[\s\d.\-−+\[\](),，×x/%eE∞]*\d[\s\d.\-−+\[\](),，×x/%eE∞]*\)?)\s*")
# Inline code: `…` in Markdown, <code>…</code> and <kbd>…</kbd> in HTML (<samp>, a program's output, is text).
INLINE_CODE = re.compile(r"(`+)(?P<md>.+?)\1|<(code|kbd)\b[^>]*>(?P<html>.*?)</\3\s*>", re.S | re.I)
HIDDEN = [
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<(style|script|pre)\b[^>]*>.*?</\1\s*>", re.S | re.I),  # styles, scripts, preformatted code
    re.compile(r"^[ \t]*;?-{1,}8<-{1,}.*$", re.M),  # snippet lines
    re.compile(r"https?://[!-~]+"),  # a bare URL ends where ASCII does
    re.compile(r"(?<=\])\([^)\s]*"),  # a link's target (its "title" stays visible)
    re.compile(r"(?<=[^\s\w\]])\]\[[^\]\n]*\]"),  # a reference link's label: [文字][3]
    re.compile(r"^\s*\[(?!\^)[^\]]+\]:\s*\S+", re.M),  # a reference definition's target (not a footnote's text)
    re.compile(r"\{:?\s*(?:[#.:]|[\w-]+=)[^}\n]*\}"),  # attribute lists: {: .cls }, { style="width: 0.5em" }
    re.compile(r"</?[A-Za-z][^>]*>", re.S),  # HTML tags (attributes a reader sees are put back)
]
# A line that opens a Markdown container whose body is indented: a list item, an admonition, a tab,
# a footnote's text. Indented lines under it are its body, not an indented code block.
CONTAINER = re.compile(r"^[ \t]*(?:[-*+][ \t]|\d+[.)][ \t]|!!!|\?\?\?|===|\[\^[^\]]+\]:)")


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

    @property
    def shows_source(self) -> bool:
        """An executed block whose code the reader sees (markdown-exec's `source=` option)."""
        m = re.search(r"""\bsource=["']?([\w-]*)""", self.info)
        return bool(m and m.group(1))


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
    comments of code blocks, fence titles, tooltips, alt text and form values), 0 for code, markup
    and hidden text."""
    seen = bytearray(b"\1" * len(text))
    starts = line_starts(text)

    def hide(a: int, b: int) -> None:
        seen[a:b] = b"\0" * (max(0, min(b, len(text)) - a))

    def line_span(n: int) -> tuple[int, int]:
        return starts[n - 1], (starts[n] if n < len(starts) else len(text))

    found = fences(text)
    for f in found:
        a, b = line_span(f.start)
        hide(a, b)
        title = FENCE_TITLE.search(text, a, b)
        if title:
            seen[title.start(2) : title.end(2)] = b"\1" * (title.end(2) - title.start(2))
        if f.end <= len(starts):
            hide(*line_span(f.end))
        prompt = TRANSCRIPTS.get(f.lang)
        code = f.executed or f.lang in CODE_LANGS
        for n in range(f.start + 1, f.end):
            a, b = line_span(n)
            if code or (prompt and prompt.match(text[a:b])):
                hide(a, b)
        if (not f.executed or f.shows_source) and f.lang not in TRANSCRIPTS:
            for a, b in _comments(text, f, starts):
                seen[a:b] = b"\1" * (b - a)
    _hide_indented_code(text, found, starts, hide)
    for m in INLINE_CODE.finditer(text):  # inline code is code, unless it shows a value
        if not seen[m.start()]:
            continue
        code = "md" if m.group("md") is not None else "html"
        value = INLINE_VALUE.fullmatch(m.group(code))
        hide(m.start(), m.end())
        if value:
            a, b = m.start(code) + value.start("value"), m.start(code) + value.end("value")
            seen[a:b] = b"\1" * (b - a)
    for pattern in HIDDEN:
        for m in pattern.finditer(text):
            if not seen[m.start()]:
                continue
            hide(m.start(), m.end())
            for a in SEEN_ATTRIBUTES.finditer(m.group(0)):
                seen[m.start() + a.start(2) : m.start() + a.end(2)] = b"\1" * (a.end(2) - a.start(2))
    return seen


def _comments(text: str, f: Fence, starts: list[int]) -> list[tuple[int, int]]:
    """Spans of `text` holding the comments (and, in Python, the docstrings) of fenced block `f`."""
    body_start = starts[f.start] if f.start < len(starts) else len(text)
    body_end = starts[f.end - 1] if f.end - 1 < len(starts) else len(text)
    body = text[body_start:body_end]
    if f.lang in ("python", "py", "python3"):
        return [(body_start + a, body_start + b) for a, b in python_text_spans(body)]
    marker = "#" if f.lang in HASH_COMMENTS else "//" if f.lang in SLASH_COMMENTS else None
    if marker is None:
        return []
    spans = []
    for m in re.finditer(rf"(?:^|(?<=\s)){re.escape(marker)}[^\n]*", body, re.M):
        spans.append((body_start + m.start(), body_start + m.end()))
    return spans


def standalone_strings(tree) -> list:
    """The string constants of a Python syntax tree that stand as statements of their own:
    docstrings, and bare strings (a comment in all but syntax). coursekit.core.comments reads the same."""
    import ast

    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]


def python_text_spans(source: str) -> list[tuple[int, int]]:
    """Offsets of the comments and docstrings (standalone_strings) of Python `source`: what a
    reader reads as text in a listing. Source that doesn't parse: its `#` lines."""
    import io
    import tokenize

    offsets = line_starts(source)
    lines = source.split("\n")

    def at(row: int, col: int, in_bytes: bool = False) -> int:
        if row - 1 >= len(offsets):
            return len(source)
        if in_bytes:  # the syntax tree counts columns in UTF-8 bytes
            col = len(lines[row - 1].encode("utf-8")[:col].decode("utf-8", "ignore"))
        return offsets[row - 1] + col

    try:
        comments = [tok for tok in tokenize.generate_tokens(io.StringIO(source).readline) if tok.type == tokenize.COMMENT]
        strings = standalone_strings(syntax.parse(source))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [(m.start(), m.end()) for m in re.finditer(r"(?<![^\s])#[^\n]*", source)]
    spans = [(at(*tok.start), at(*tok.end)) for tok in comments]
    spans += [(at(s.lineno, s.col_offset, True), at(s.end_lineno, s.end_col_offset, True)) for s in strings]
    return sorted(spans)


def _hide_indented_code(text: str, found: list[Fence], starts: list[int], hide) -> None:
    """Hide indented code blocks: after a blank line, lines indented 4 more than the nearest line
    above that is not inside a container's body (list item, admonition, tab, footnote)."""
    lines = text.split("\n")
    in_fence = {n for f in found for n in range(f.start, f.end + 1)}
    code_floor = None  # indent below which the current indented code block ends
    for i, line in enumerate(lines):
        n = i + 1
        if n in in_fence or not line.strip():
            continue
        indent = _indent(line)
        if code_floor is not None and indent >= code_floor:
            hide(starts[i], starts[i] + len(line))
            continue
        code_floor = None
        if indent < 4 or i == 0 or lines[i - 1].strip():
            continue
        parent = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip() and (j + 1) not in in_fence
                       and _indent(lines[j]) <= indent - 4), None)
        if parent is not None and CONTAINER.match(parent):
            continue
        code_floor = (_indent(parent) if parent is not None else 0) + 4
        hide(starts[i], starts[i] + len(line))


def _indent(line: str) -> int:
    line = line.expandtabs(4)
    return len(line) - len(line.lstrip())


# What a backslash escapes in the Markdown this site is written in (Python-Markdown's set, with the
# tables extension's |): `2\.13` shows 2.13. In a code block a backslash is a backslash.
ESCAPABLE = set("\\`*_{}[]()>#+-.!|")


def unescaped(text: str, shown: str) -> tuple[str, list[int]]:
    """`shown` (a view of `text`, one character for one) without the backslashes of Markdown escapes
    outside code blocks, as the reader reads it; and for each of its characters, and its end, the
    offset in `text`."""
    if "\\" not in shown:
        return shown, list(range(len(shown) + 1))
    literal = fence_spans(text)
    out, where, i = [], [], 0
    while i < len(shown):
        if (shown[i] == "\\" and i + 1 < len(shown) and shown[i + 1] == text[i + 1] in ESCAPABLE
                and not any(a <= i < b for a, b in literal)):
            i += 1
        out.append(shown[i])
        where.append(i)
        i += 1
    return "".join(out), where + [len(shown)]


# What the reader's browser shows for a character reference, and characters it shows as nothing.
ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z]{2,8});")
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"


def as_read(text: str, shown: str, where: list[int]) -> tuple[str, list[int], list[int]]:
    """`shown` as the reader reads it: a character reference is the character it stands for
    (0&#46;5 is 0.5), a zero-width space or soft hyphen is not there. For each character, its
    offset in `text` and where in `text` it ends (after the whole reference)."""
    ends = [w + 1 for w in where]
    if "&" not in shown and not any(c in shown for c in INVISIBLE):
        return shown, where, ends
    out, at, until, i = [], [], [], 0
    while i < len(shown):
        entity = ENTITY.match(shown, i) if shown[i] == "&" else None
        value = html.unescape(entity.group(0)) if entity else ""
        if entity and len(value) == 1:
            out.append(value)
            at.append(where[i])
            until.append(where[entity.end() - 1] + 1)
            i = entity.end()
            continue
        if shown[i] not in INVISIBLE:
            out.append(shown[i])
            at.append(where[i])
            until.append(ends[i])
        i += 1
    return "".join(out), at + [where[len(shown)]], until


def fence_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) in `text` of each fenced block, from its opening line to the start of its closing one."""
    starts = line_starts(text)
    return [(starts[f.start - 1], starts[f.end - 1] if f.end - 1 < len(starts) else len(text)) for f in fences(text)]


def segments(text: str):
    """offset -> the paragraph or displayed block it belongs to (annotations bind within one)."""
    bounds = [m.end() for m in re.finditer(r"\n[ \t]*\n", text)]
    for a, b in fence_spans(text):
        bounds = [x for x in bounds if not a < x < b] + [a, b]
    bounds.sort()
    return lambda offset: bisect_right(bounds, offset)


def front_matter(text: str) -> tuple[str, int, str]:
    """(the YAML front matter, its line count, the page after it) of a page file; ('', 0, text) without.
    MkDocs' rule (mkdocs.utils.meta, 1.6.1), re-implemented for the builder-neutral core and compared
    with it in tests/test_contracts.py: `---` first, then `---` or `...` closing it."""
    m = re.match(r"---[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", text, re.S)
    return (m.group(1), m.group(0).count("\n"), text[m.end():]) if m else ("", 0, text)
