"""What the text around a written number asks of the lesson's values: the names and the course's
terms nearby (`nearby`) and, for a run of written numbers, the record the candidate search reads
(`query`: a coursekit.core.candidates.Query). Reads the page only; the search runs in the lesson's
worker."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from coursekit.core import candidates, guard, lexicon, numbers, pagetext, scan, syntax

WORDS = lexicon.LEXICON  # the cue words: coursekit/core/language.toml's [cues]
ROW_WORDS = re.compile(WORDS.cue("every_row"))  # with a sum: every row's, not one row's
SUM_WORDS = re.compile(WORDS.cue("sum"))

TOPIC = 2.5  # the tier of the terms of the page's title (掩码: masked.scores before first.scores), before the rest of the lesson

# A difference (多了 2) or a ratio (的 2.0281 倍) is a name the code computes it in, or nothing:
# an element that happens to agree is a coincidence.
DIFFERENCE = re.compile(rf"(?:{WORDS.cue('difference')})\s*$")
RATIO = re.compile(rf"\s*(?:{WORDS.cue('ratio')})")
# A function of a number the text writes (exp(0) = 1): the text computes it itself, no table holds it.
OF_WRITTEN = re.compile(r"[A-Za-z]\w*\(\s*[−\-+]?(?:\d[\d.]*|∞)\s*\)\s*[=≈]\s*$")
SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
# A function the text applies to the number right after it: exp(0), ln(4) (a name, then a parenthesis),
# sin 1, ln 4, √2 (one of the lexicon's functions).
ARGUMENT = re.compile(rf"(?:(?<![A-Za-z_])[A-Za-z]{{2,}}[ \t]*[(（]|(?<![A-Za-z_])(?:{lexicon.alternation(WORDS.functions)}))[ \t]*$")
AVERAGE = re.compile(WORDS.cue("average"))
SHAPE = re.compile(WORDS.cue("shape"))
EACH = re.compile(WORDS.cue("each"))  # 各约 0.3333, 分数全为 0: every cell has the value
POSITION, LISTING, ORDINAL, ROWS = WORDS.cue("position"), WORDS.cue("listing"), WORDS.cue("ordinal"), WORDS.measuring("rows")
SPAN = re.compile(rf"(?:{POSITION})\s*(\d+)((?:\s*(?:{LISTING})\s*\d+)+)")  # 位置 4、5 合计: the cells of positions 4 to 5
SPAN_ANY = re.compile(rf"(?:{POSITION})\s*\d+(?:\s*(?:{LISTING})\s*\d+)*")  # 位置 1、2、3, 位置 0 和 4, 位置 2
SENTENCE = 200  # how far back a sentence is read for the positions it lists


@dataclass(frozen=True)
class _Count:
    """What a count (两句, 三个位置) counts, read from the words after it: 'named' (the stems of the
    course's terms or the Latin name that name it), 'axis' (an array's size) or 'other'; which axis
    a count of 行 or 列 measures; whether it counts what a mask lets be read (三个可读位置)."""

    counted: str
    stems: frozenset[str]
    along: str
    readable: bool


def _count(text: str, token: guard.Token) -> _Count:
    after = re.match(rf"[ \t]*({numbers.COUNTERS})?([^，。；：、,.;:\n]{{0,6}})", text[token.end :])
    counter, rest = after.group(1) or "", after.group(2)
    stems = candidates.stems(after.group(0), {**candidates.COUNTED, **candidates.TERMS})
    if not stems and counter in candidates.MEASURED:  # 192 道: 题
        stems = candidates.stems(candidates.MEASURED[counter], candidates.COUNTED)
    axis = any(w in candidates.AXES for w in (counter, rest[:2], rest[:1]))
    latin = re.match(r"[ \t]*([A-Za-z]\w*)(?![\w(])", rest) if counter else None
    stems |= {latin.group(1).lower()} if latin and not stems else set()  # 三条 K: what it counts is named
    along = WORDS.along(counter) or WORDS.along(rest[:1])  # 两行: rows, never columns
    readable = any(w in after.group(0) for w in WORDS.readable)
    return _Count("named" if stems else "axis" if axis else "other", frozenset(stems), along, readable)


NO_COUNT = _Count("", frozenset(), "", False)
ALONG_A_ROW = re.compile(rf"(?:{WORDS.cue('this_one')})(?:{ROWS})(?:{WORDS.cue('within')})")  # 这一行的三个得分: a count along a row measures the columns
DOT = re.compile(rf"(?<![\w.])([A-Za-z]\w*?)([{SUBSCRIPTS}]+)\s*[·⋅]\s*([A-Za-z]\w*?)([{SUBSCRIPTS}]+)\s*=\s*$")
NAMED_ROW = re.compile(rf"(?<![\w.·⋅])([A-Za-z]\w*?)([{SUBSCRIPTS}]+)\s*=\s*\[?$")  # q₀=[1, 0]: the row q[0]
PLACE = re.compile(rf"(?:{POSITION}|{ORDINAL})\s*(\d+)")  # 位置 0 得到 [0.8, 1.2]: a row 0
CHANGED_ROW = re.compile(rf"(?<![\w.])[A-Za-z]\w*?([{SUBSCRIPTS}]+)(?![\w{SUBSCRIPTS}])")  # 把 q₂ 改成 [0, 0]: a row 2
ROW_NAMED = re.compile(rf"(?:{ORDINAL})\s*(\d+)\s*(?:{ROWS})")  # 第 2 行的分数全为 0
LABELLED = re.compile(rf"(?:{WORDS.nouns(WORDS.labels)})[ \t]*[−-]?\d")  # 位置 0, 头 1, 第 2 行


def query(found: guard.Scan, run: list, names: dict, near: dict) -> candidates.Query:
    """What the lesson's worker is asked for a run (a coursekit.core.candidates.Query): the written
    numbers, the names and term stems nearby, whether they count things and what (`counted`: 'axis'
    for positions, rows, columns, dimensions, the size of an array; 'named' when the course's terms
    name it, then names made of those stems are nearest, and the paragraph's other terms are no help;
    'other': 三组向量, 四选一; a Latin name after the counter, 三条 K, names it), whether the text
    speaks of a sum (之和, 加起来), of every row (每行: `rows` 1 in the sentence before them, 2 in the
    clause just before) or of a shape (形状) in the sentence before them, which positions that
    sentence lists (`listed`: 位置 1、2、3 上) and whether the clause says each has the value
    (`each`: 各约 0.3333, 全为 0; `each_row`: of the row it names, 第 2 行的分数全为 0), whether a count
    counts what a mask lets be read (`readable`: 三个可读位置), whether one number is a difference or a ratio (`derived`: 多了 2, 的 2.0281 倍) or a
    function of a written number (`of_written`: exp(0) = 1), the rows a written dot product names
    before its `=` (`dot`: q₀·k₁ = … is q[0], k[1]) and the row a vector is said to be (`row`:
    q₀=[1, 0] is q[0]; `index`: a₀=[…], 位置 0 … [0.8, 1.2] or 把 q₀ 改成 […] is some table's row
    0), and which axis a count of 行 or 列 measures (`along`; a count within a row, 这一行的三个得分,
    measures the columns).
    The course's terms in the clause just before a number (不进分母，分到的比例也是 0) are nearer
    than the paragraph's (CLAUSE), and so are the names in the clause before an axis count (V 有两列)."""
    text, first = found.text, run[0]
    count = _count(text, first) if len(run) == 1 and guard.counted(text, first) else None
    sentence = re.split(r"[。；;！？\n]", text[max(0, first.start - 40) : first.start])[-1]
    clause = re.split(r"[，,：:、（]|(?<![A-Za-z])\(", sentence)[-1]  # 分到的比例也是 0: the term just before it; exp(−∞) = 0 keeps its exp
    measures = count or NO_COUNT
    along = measures.along or ("columns" if count and ALONG_A_ROW.search(clause) else "")
    if count is None:  # the course's terms and the Latin words of the clause just before it are nearer
        near = {**near, **dict.fromkeys(_clause_stems(clause), candidates.CLAUSE)}
    if measures.counted == "axis":  # V 有两列: the array named just before an axis count is the one it measures
        names = {**names, **{w.lower(): candidates.CLAUSE for w in re.findall(r"(?<![\w.])[A-Za-z]\w*", clause)}}
    line = text[text.rfind("\n", 0, first.start) + 1 : first.start]
    each_row = ROW_NAMED.search(clause)
    return candidates.Query(
        written=tuple(t.text for t in run), names=names, count=count is not None, counted=measures.counted,
        near={**({} if count else near), **dict.fromkeys(measures.stems, candidates.COUNTS)},
        summed=bool(SUM_WORDS.search(sentence)), averaged=bool(AVERAGE.search(clause)), span=tuple(_span(sentence)) or None,
        rows=2 if ROW_WORDS.search(clause) else int(bool(ROW_WORDS.search(sentence))), readable=measures.readable,
        listed=tuple(_listed(text, first)), each=bool(EACH.search(clause)),
        each_row=int(each_row.group(1)) if each_row else None, shaped=bool(SHAPE.search(sentence)),
        derived=len(run) == 1 and not count and bool(DIFFERENCE.search(clause) or RATIO.match(text[first.end :])),
        of_written=bool(OF_WRITTEN.search(clause)), along=along, **_rows_named(line, clause, len(run)),
        argument=len(run) == 1 and bool(ARGUMENT.search(line)), located=_located(sentence, line))


def _located(sentence: str, line: str) -> bool:
    """Whether the sentence before a number says which cell it is: a label and its index (位置 0 的坐标 1,
    头 1, 第 2 行: the lexicon's labels), a row written with its index (q₀, k₁) or a cell in code (`pe[0, 1]`)."""
    return bool(LABELLED.search(sentence) or CHANGED_ROW.search(sentence) or re.search(r"\w\[\s*\d", line))


def _clause_stems(clause: str) -> set[str]:
    """The stems of the course's terms in a clause (CLAUSE_TERMS too), and its Latin words (exp(−∞) = 0:
    exps; q₂: q2)."""
    stems = candidates.stems(clause, {**candidates.TERMS, **candidates.CLAUSE_TERMS})
    return stems | {_digits(w).lower() for w in re.findall(r"(?<![\w.])[A-Za-z]\w+", clause)}


def _rows_named(line: str, clause: str, written: int) -> dict:
    """The rows a written dot product names before its `=` (`dot`: q₀·k₁ = … is q[0], k[1]); the row a
    run of numbers is said to be (`row`: q₀=[1, 0] is q[0]); the index of the row of some table it is
    (`index`: a₀=[…], 位置 0 … [0.8, 1.2], 把 q₀ 改成 […])."""
    dot, row = DOT.search(line), NAMED_ROW.search(line)
    place, changed = PLACE.search(clause), CHANGED_ROW.search(clause)
    index = _digits(row.group(2)) if row else place.group(1) if place else _digits(changed.group(1)) if changed else ""
    return {"dot": (f"{dot.group(1)}[{_digits(dot.group(2))}]", f"{dot.group(3)}[{_digits(dot.group(4))}]") if dot else (),
            "row": f"{row.group(1)}[{_digits(row.group(2))}]" if row and written > 1 else "",
            "index": index if written > 1 else ""}


def _listed(text: str, token: guard.Token) -> list[int]:
    """The positions the sentence before `token` lists last (位置 1、2、3 上，…约为 0.4621: [1, 2, 3]),
    however far back in the sentence; [] when it lists none."""
    sentence = re.split(r"[。；;！？\n]", text[max(0, token.start - SENTENCE) : token.start])[-1]
    found = SPAN_ANY.findall(sentence)
    return [int(n) for n in re.findall(r"\d+", found[-1])] if found else []


def _span(sentence: str) -> list[int]:
    """[first, last] of the positions a sentence lists (位置 4、5), when they run on one by one; else []."""
    found = SPAN.findall(sentence)
    if not found:
        return []
    first, rest = found[-1]
    listed = [int(first), *map(int, re.findall(r"\d+", rest))]
    return [listed[0], listed[-1]] if listed == list(range(listed[0], listed[-1] + 1)) else []


def _digits(subscript: str) -> str:
    return subscript.translate(str.maketrans(SUBSCRIPTS, "0123456789"))

def nearby(root: Path, found: guard.Scan):
    """token -> ({name: tier}, {term stem: tier}) of the names the page uses near it: tier 0 for
    names written in its paragraph (inline code, Latin words: `weights`, and as stems: V for v and
    changed_v, Wv for wv) and for the stems of the course's terms there (coursekit.core.candidates.TERMS),
    1 for names assigned in the nearest code the page shows before it (the files of a block's
    `file=`, a block's own code; the first one after it when its section has none before), 2 for
    those of its section's other code. A display (a listing, a formula) that a paragraph ending with
    a colon introduces has that paragraph's names and terms too; the terms and Latin words of the
    section's heading (用这行比例，逐坐标汇总 V) are stems at tier 1, and those of the page's title
    at TOPIC, nearer than the rest of the lesson."""
    from bisect import bisect_left, bisect_right

    body = found.text
    starts = scan.line_starts(body)
    blocks = scan.fences(body)
    inside = {n for f in blocks for n in range(f.start, f.end + 1)}
    headings = [i + 1 for i, line in enumerate(body.split("\n")) if i + 1 not in inside and re.match(r"#{1,6} ", line)]
    section = lambda line: bisect_right(headings, line)  # noqa: E731
    shown = [(f.start, section(f.start), assigned(root, f)) for f in blocks if f.lang not in ("", "text")]  # a display is no code
    segments, words, terms, prose = scan.segments(body), {}, {}, {}
    lines_of, first = body.split("\n"), {}
    for i, line in enumerate(lines_of):
        first.setdefault(segments(starts[i]), i)
        if i + 1 not in inside:
            prose.setdefault(segments(starts[i]), []).append(line)
    for segment, lines in prose.items():
        text = "\n".join(lines)
        words[segment] = {m.group(0) for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text)}
        terms[segment] = candidates.stems(text) | {w.lower() for w in words[segment]}
    bare = {n: re.sub(r"\{[^{}\n]*\}", "", lines_of[n - 1]) for n in headings}  # a heading without its annotations
    titled = {n: candidates.stems(t) | {w.lower() for w in re.findall(r"[A-Za-z_]\w*", t)} for n, t in bare.items()}
    topic = next((titled[n] for n in headings if lines_of[n - 1].startswith("# ")), set())  # the page's title

    def intro(segment: int) -> int | None:
        """The paragraph that introduces a display (a listing, a formula): the prose just before it,
        ending with a colon (第一个输出坐标为：)."""
        i = first.get(segment, 0) - 1
        while i >= 0 and not lines_of[i].strip():
            i -= 1
        before = segments(starts[i]) if i >= 0 else None
        if before is None or before == segment or i + 1 in inside or not re.search(r"[：:]\s*$", lines_of[i]):
            return None
        return before

    def tiers(token: guard.Token) -> tuple[dict[str, int], dict[str, int]]:
        line = bisect_right(starts, token.start)
        mine = [b for b in shown if b[1] == section(line)]
        split = bisect_left([b[0] for b in mine], line)
        nearest = mine[split - 1 : split] or mine[split : split + 1]
        names = {n: 2 for b in mine for n in b[2]}
        names.update({n: 1 for b in nearest for n in b[2]})
        shown_with = intro(token.segment)
        names.update(dict.fromkeys(words.get(token.segment, set()) | words.get(shown_with, set()), 0))
        heading = headings[section(line) - 1] if section(line) else None
        near = dict.fromkeys(topic, TOPIC)
        near.update(dict.fromkeys(titled.get(heading, ()), 1))
        near.update(dict.fromkeys(terms.get(token.segment, set()) | terms.get(shown_with, set()), 0))
        return names, near

    return tiers


def assigned(root: Path, block: scan.Fence) -> set[str]:
    """The names a shown code block assigns: in its own code and in the files its `file=` names (only
    the part it shows, `file.py:part`)."""
    import ast

    sources = ["\n".join(block.lines)]
    for ref in re.findall(r'file="([^"]*)"', block.info):
        for item in ref.split():
            name, _, part = item.partition(":")
            file = root / name
            text = pagetext.read(file) if file.suffix == ".py" and file.is_file() else ""
            shown = re.search(rf"# --8<-- \[start:{re.escape(part)}\]\n(.*?)# --8<-- \[end:{re.escape(part)}\]", text, re.S) if part else None
            sources += [shown.group(1) if shown else text] if text else []  # the part the page shows
    names: set[str] = set()
    for source in sources:
        try:
            tree = syntax.parse(source)
        except SyntaxError:
            continue
        names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return names
