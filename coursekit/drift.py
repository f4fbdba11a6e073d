"""The drift guard: every number a lesson writes is compared with the value its code computes.

Authors bind prose to code in hidden executed blocks of the page:

    check("a₀=[0.4011，0.1978，0.4011]", weights[0])   # the numbers of the quote, left to right
    illustrative("约 0.5 秒")                          # a number that is only an example

`check` quotes the text as the page writes it and gives the live values of its numbers. The guard
finds the quote in the prose (the numbers may differ, the words may not), and fails when a written
number is further from its live value than half a unit of its last written digit (integers and
fractions must be exact), when the quote is not in the page, or when a decimal in the prose is
neither checked nor marked illustrative.
"""

from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass, field

from coursekit import numbers, scan


@dataclass
class Binding:
    quote: str
    values: list[float] | None  # None: illustrative
    error: str = ""  # set when the values could not be read


@dataclass
class Problem:
    line: int
    message: str
    text: str = ""  # the written prose involved, for highlighting on the served page

    def format(self, path: str) -> str:
        return f"{path}:{self.line}: {self.message}"


_recorded: list[Binding] = []


def check(quote: str, *values) -> None:
    """Bind the numbers written in `quote` (left to right) to these live values."""
    try:
        _recorded.append(Binding(quote, numbers.flatten(*values)))
    except TypeError as err:
        _recorded.append(Binding(quote, [], error=str(err)))


def illustrative(quote: str) -> None:
    """Mark the numbers in `quote` as examples that no code computes."""
    _recorded.append(Binding(quote, None))


def interleave(*rows) -> list[float]:
    """a₀, b₀, a₁, b₁, …: the numbers of a written sum of products such as 0.5×1 + 0.25×0."""
    columns = [numbers.flatten(r) for r in rows]
    if len({len(c) for c in columns}) != 1:
        raise ValueError(f"interleave needs rows of one length, got {[len(c) for c in columns]}")
    return [x for group in zip(*columns) for x in group]


def take_recorded() -> list[Binding]:
    """The bindings recorded since the last call (one page's worth during a build)."""
    taken = list(_recorded)
    _recorded.clear()
    return taken


@dataclass
class Match:
    """One place in the prose that a binding quotes."""

    start: int
    end: int
    tokens: list[tuple[str, int]] = field(default_factory=list)  # (written number, offset)

    def text(self, page: str) -> str:
        return page[self.start : self.end]


@dataclass
class BoundNumber:
    line: int
    offset: int
    written: str
    live: float


def _skeleton(quote: str) -> re.Pattern:
    """The quote as a pattern: its words literal, any number where it has a number."""
    parts, last = [], 0
    for m in numbers.NUMBER_RE.finditer(quote):
        parts.append(_literal(quote[last : m.start()]))
        parts.append(f"({numbers.NUMBER})")
        last = m.end()
    parts.append(_literal(quote[last:]))
    return re.compile("".join(parts))


def _literal(s: str) -> str:
    return r"\s+".join(re.escape(piece) for piece in re.split(r"\s+", s))


def locate(quote: str, masked: str) -> list[Match]:
    """Where the prose says what `quote` says: exact places, else the closest one(s)."""
    return _best(quote, _occurrences(quote, masked), masked)


def bound_numbers(page: str, bindings: list[Binding]) -> list[BoundNumber]:
    """Every number of the page that a check() binds, with its live value, in page order."""
    masked = scan.prose_mask(page)
    out = []
    for b in bindings:
        if not b.values:
            continue
        for occ in locate(b.quote, masked):
            if len(occ.tokens) == len(b.values):
                out += [
                    BoundNumber(scan.line_of(page, off), off, written, live)
                    for (written, off), live in zip(occ.tokens, b.values)
                ]
    return sorted(out, key=lambda n: n.offset)


def _occurrences(quote: str, masked: str) -> list[Match]:
    found = []
    for m in _skeleton(quote).finditer(masked):
        occ = Match(m.start(), m.end())
        occ.tokens = [(m.group(i), m.start(i)) for i in range(1, (m.lastindex or 0) + 1)]
        found.append(occ)
    return found


def _best(quote: str, occs: list[Match], masked: str) -> list[Match]:
    """Exact occurrences if any; else the one closest to the quote (fewest numbers changed)."""
    exact = [o for o in occs if re.sub(r"\s+", " ", o.text(masked)) == re.sub(r"\s+", " ", quote)]
    if exact or not occs:
        return exact
    written = [t for t, _ in numbers_in(quote)]
    score = lambda o: sum(a == b for a, (b, _) in zip(written, o.tokens))  # noqa: E731
    top = max(score(o) for o in occs)
    return [o for o in occs if score(o) == top]


def numbers_in(text: str) -> list[tuple[str, int]]:
    return [(m.group(0), m.start()) for m in numbers.NUMBER_RE.finditer(text)]


def _call_site(page: str, quote: str) -> tuple[int, str]:
    """The line of the check()/illustrative() call quoting `quote`, and its value expression."""
    head = quote.split("\n")[0][:16]
    for f in scan.fences(page):
        if not f.executed:
            continue
        for i, line in enumerate(f.lines):
            if head and head in line and re.search(r"\b(check|illustrative)\(", line):
                return f.start + 1 + i, _expression(f.lines[i : i + 10])
    return 0, ""


def _expression(lines: list[str]) -> str:
    """The value arguments of the call that starts on the first line (it may run on)."""
    for n in range(1, len(lines) + 1):
        try:
            call = ast.parse("\n".join(lines[:n]).strip()).body[0].value
        except SyntaxError:
            continue
        except (AttributeError, IndexError):
            break
        return ", ".join(ast.unparse(a) for a in getattr(call, "args", [])[1:])
    return ""


def check_page(page: str, bindings: list[Binding]) -> list[Problem]:
    """All drift problems of one page, given the bindings its code recorded."""
    masked = scan.prose_mask(page)
    problems: list[Problem] = []
    covered: list[tuple[int, int]] = []
    for b in bindings:
        call_line, expr = _call_site(page, b.quote)
        where = f"（绑定在第 {call_line} 行：{expr}）" if expr else f"（绑定在第 {call_line} 行）"
        if b.error:
            problems.append(Problem(call_line, f"绑定的值读不出数：{b.error}"))
            continue
        occs = locate(b.quote, masked)
        if not occs:
            problems.append(Problem(call_line, f"引用的原文在页面正文里找不到：「{b.quote}」"))
            continue
        for occ in occs:
            covered.append((occ.start, occ.end))
            problems += _compare(page, occ, b, where)
        if b.values is not None:
            problems += _compare_quote(b, call_line, where)
    problems += _unbound(page, masked, covered)
    return sorted(problems, key=lambda p: p.line)


def _compare(page: str, occ: Match, b: Binding, where: str) -> list[Problem]:
    line = scan.line_of(page, occ.start)
    if b.values is None:
        if re.sub(r"\s+", " ", occ.text(page)) != re.sub(r"\s+", " ", b.quote):
            return [Problem(line, f"正文「{_squash(occ.text(page))}」与示意标记「{b.quote}」不一致{where}")]
        return []
    if len(occ.tokens) != len(b.values):
        return [
            Problem(
                line,
                f"「{_squash(occ.text(page))}」写了 {len(occ.tokens)} 个数，"
                f"绑定的表达式给出 {len(b.values)} 个值{where}",
                occ.text(page),
            )
        ]
    out = []
    for (written, offset), live in zip(occ.tokens, b.values):
        if not numbers.agrees(written, live):
            out.append(
                Problem(
                    scan.line_of(page, offset),
                    f"数字漂移：正文写 {written}，代码现算 {numbers.show(live)}"
                    f"（所在文字「{_squash(occ.text(page))}」）{where}",
                    occ.text(page),
                )
            )
    return out


def _compare_quote(b: Binding, call_line: int, where: str) -> list[Problem]:
    written = numbers_in(b.quote)
    if len(written) != len(b.values):
        return []  # already reported against the prose
    return [
        Problem(call_line, f"绑定里的引用写 {w}，代码现算 {numbers.show(live)}{where}")
        for (w, _), live in zip(written, b.values)
        if not numbers.agrees(w, live)
    ]


def _unbound(page: str, masked: str, covered: list[tuple[int, int]]) -> list[Problem]:
    out = []
    for m in numbers.NON_INTEGER_RE.finditer(masked):
        if not any(s <= m.start() and m.end() <= e for s, e in covered):
            out.append(
                Problem(
                    scan.line_of(page, m.start()),
                    f"未绑定的数字 {m.group(0)}：用 check(\"…\", 表达式) 绑定现算值，"
                    f"或用 illustrative(\"…\") 标为示意",
                )
            )
    return out


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def banner(path: str, problems: list[Problem]) -> str:
    """The red box `mkdocs serve` puts at the top of a page with problems."""
    items = "".join(f"<li><code>{html.escape(p.format(path))}</code></li>" for p in problems)
    return (
        '<div class="admonition danger drift-report" role="alert">'
        f'<p class="admonition-title">本页有 {len(problems)} 处数字或代码与现算结果不符</p>'
        f"<ul>{items}</ul></div>"
    )


def highlight(page_html: str, problems: list[Problem]) -> str:
    """Mark the prose a problem names, where it stands verbatim in the page's HTML."""
    for text in {p.text for p in problems if p.text}:
        escaped = html.escape(text, quote=False)
        page_html = page_html.replace(escaped, f'<mark class="drift">{escaped}</mark>', 1)
    return page_html
