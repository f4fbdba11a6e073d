"""A lesson page file checked outside a build (by scripts/bound_numbers.py and the tests): its
numbers scanned, its annotations evaluated by the engine, every written number paired with its
live value."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from coursekit.core import candidates, engine, guard, numbers, scan


def lesson_pages(root: Path) -> list[Path]:
    return sorted((root / "docs/lessons").glob("[0-9]*.md"))


def site_pages(root: Path) -> list[Path]:
    """Every Markdown page of the site: lessons first, then the rest."""
    lessons = lesson_pages(root)
    return lessons + sorted(p for p in (root / "docs").rglob("*.md") if p not in lessons)


ROW_WORDS = re.compile(r"每行|各行|每一行|所有行")  # with a sum: every row's, not one row's
SUM_WORDS = re.compile(r"之和|总和|求和|合计|加起来|相加|行和|和为|和是|和都|和约|和仍|和不")

Checked = tuple[guard.Scan, list[guard.Bound], int]


def check(build: engine.Build, root: Path, path: Path, text: str | None = None) -> Checked:
    """(scan with its problems, bound numbers, offset of the body in the file) of one page: a
    lesson's page binds to its lesson, another page to the lesson it names or to the kit's numbers."""
    from coursekit.extensions import facts

    rel = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8") if text is None else text
    lesson_id = _lesson(build, rel, text)
    if lesson_id is None:
        return _bind(rel, text, facts.evaluate)
    return _bind(rel, text, lambda exprs: build.evaluate(lesson_id, exprs))


def _lesson(build: engine.Build, rel: str, text: str) -> str | None:
    """The lesson a page file binds to (its own, or the one its front matter names), if the course has it."""
    from coursekit.extensions import checks

    fm, _, body = scan.front_matter(text)
    lesson_id = checks.page_lesson(rel, body, fm)
    return lesson_id if lesson_id in build.lessons else None


@dataclass
class Proposal:
    line: int
    tokens: list  # the written run (guard.Token)
    exprs: list[str]  # candidates, best first
    why_not: str  # '' when the first is sure (coursekit.core.candidates.decide), else why not; "same": a settled tie;
    # "alike": tied cells the text says are one value (coursekit.core.candidates._read)
    tied: list[str] = field(default_factory=list)  # with "tie": the candidates that tie, best first

    @property
    def written(self) -> list[str]:
        return [t.text for t in self.tokens]


def proposals(build: engine.Build, root: Path, path: Path, found: guard.Scan,
              text: str | None = None) -> list[Proposal]:
    """A proposal for each run of unbound numbers of a checked page (its file, or `text` in its place)
    that binds to a lesson (coursekit.core.candidates); a run of several numbers that no single value
    matches is also tried number by number."""
    text = path.read_text(encoding="utf-8") if text is None else text
    lesson_id = _lesson(build, path.relative_to(root).as_posix(), text)
    return [] if lesson_id is None else proposals_for(build, root, lesson_id, found)


def proposals_for(build: engine.Build, root: Path, lesson_id: str, found: guard.Scan) -> list[Proposal]:
    """proposals() for a scanned, bound piece of Markdown that binds to the lesson `lesson_id`."""
    tiers = _nearby(root, found)
    runs = [(run, {**tiers(run[0])[0], **dict.fromkeys(names, 0)}, tiers(run[0])[1])
            for run, names in guard.unbound_runs(found)]
    answers = build.candidates(lesson_id, [_query(found, run, names, near) for run, names, near in runs])
    answers = _again_with_bound(build, lesson_id, found, runs, answers)
    singles = [([t], names, near) for (run, names, near), (got, _) in zip(runs, answers)
               if not got and len(run) > 1 for t in run]
    single_answers = build.candidates(lesson_id, [_query(found, run, names, near) for run, names, near in singles])
    every = _by_row([run for run, _, _ in runs + singles], answers + single_answers)
    out = [Proposal(found.line(run[0].start), run, got, *why)
           for (run, _, _), (got, why) in zip(runs + singles, every) if got]
    sides = _side_by_side(found)
    for (tokens, _), (got, why) in zip(sides, build.candidates(lesson_id, [q for _, q in sides])):
        if got and why[0] in candidates.SURE:  # the whole display at once, in place of its pieces
            inside = {id(t) for t in tokens}
            out = [p for p in out if not any(id(t) in inside for t in p.tokens)]
            out.append(Proposal(found.line(tokens[0].start), tokens, got, *why))
    return sorted(out, key=lambda p: p.tokens[0].start)


def _side_by_side(found: guard.Scan) -> list[tuple[list, dict]]:
    """(tokens, query) for each text listing that shows matrices side by side, named on its first
    line (Q = K = [[1, 0],      V = [[1, 0], …): all its numbers, row by row, are looked for as
    `torch.cat([q, v], 1)` of the names written before each `[[` (the first of a chain Q = K =), in
    lower case as the code has them."""
    out = []
    unbound = {id(t) for t in found.unbound}
    for f in scan.fences(found.text):
        chains = re.findall(r"((?:(?<![\w.])[A-Za-z]\w*\s*=\s*)+)\[\[", f.lines[0]) if f.lines and f.lang in ("", "text") else []
        names = [re.match(r"\w+", chain).group(0) for chain in chains]  # Q = K = [[…]]: the first named, Q
        if len(names) < 2:
            continue
        tokens = [t for t in found.tokens if f.start < found.text.count("\n", 0, t.start) + 1 < f.end and t.claim]
        if tokens and all(id(t) in unbound for t in tokens):
            out.append((tokens, {"written": [t.text for t in tokens], "names": {}, "near": {}, "count": False,
                                 "counted": "", "summed": False, "rows": False, "shaped": False, "dot": [],
                                 "side_by_side": [n.lower() for n in names]}))
    return out


NEIGHBOUR = 0.5  # the tier of a name a sure proposal binds in the paragraph before or after
TOPIC = 2.5  # the tier of the terms of the page's title (掩码: masked.scores before first.scores), before the rest of the lesson


def _again_with_bound(build: engine.Build, lesson_id: str, found: guard.Scan, runs: list, answers: list) -> list:
    """The answers, with each run that has no sure candidate asked again with the names its
    paragraph's sure proposals bind as names of the paragraph (as they are once written: 三个位置
    before [1, 0]、[0, 2]{=vectors} counts the rows of vectors), or, when its paragraph has none,
    those of the paragraphs beside it, a little farther (NEIGHBOUR); the new answer is taken only
    when sure."""
    bound: dict[int, set[str]] = {}
    for (run, _, _), (got, why) in zip(runs, answers):
        if got and why[0] in candidates.SURE:
            bound.setdefault(run[0].segment, set()).update(r.split(".")[0] for r in candidates._roots(got[0]))
    def around(run) -> dict[str, float]:  # its paragraph's at tier 0; else the paragraphs beside it, a little farther
        if bound.get(run[0].segment):
            return dict.fromkeys(bound[run[0].segment], 0)
        return {n: NEIGHBOUR for d in (-1, 1) for n in bound.get(run[0].segment + d, ())}

    again = [i for i, ((run, names, _), (got, why)) in enumerate(zip(runs, answers))
             if not (got and why[0] in candidates.SURE) and any(names.get(n, 9) > t for n, t in around(run).items())]
    if not again:
        return answers
    queries = [_query(found, runs[i][0], {**runs[i][1], **{n: min(t, runs[i][1].get(n, 9)) for n, t in around(runs[i][0]).items()}},
                      runs[i][2]) for i in again]
    out = list(answers)
    for i, (got, why) in zip(again, build.candidates(lesson_id, queries)):
        if got and why[0] in candidates.SURE:
            out[i] = (got, why)
    return out


ROW = re.compile(r"([A-Za-z_][\w.]*)\[(\d+)\b")  # x[1], x[1, 0], x[1].sum(): (x, 1)


def _by_row(runs: list, answers: list) -> list:
    """The answers, with each tie among rows or elements of tables settled where the sure answers of
    its paragraph read one row: the only tied candidate in that row of a table they read (第 1 行
    … 分母是 3.0281{=sums[1]}: the 2.0281 of exps[1, 1], not of exps[0, 0]), or else the only one in
    that row of any table. A paragraph whose sure answers read two rows settles nothing."""
    rows: dict[int, set[tuple[str, str]]] = {}
    for run, (got, why) in zip(runs, answers):
        if got and why[0] in candidates.SURE:
            rows.setdefault(run[0].segment, set()).update(ROW.findall(got[0]))
    out = list(answers)
    for i, (run, (got, why)) in enumerate(zip(runs, answers)):
        read = rows.get(run[0].segment, set())
        if why[0] != "tie" or len({r for _, r in read}) != 1:
            continue
        (row,) = {r for _, r in read}
        for pairs in (read, {(name, row) for e in why[1] for name, _ in ROW.findall(e)}):
            hits = [e for e in why[1] if ROW.findall(e) and set(ROW.findall(e)) <= pairs]
            if len(hits) == 1:
                out[i] = ([hits[0], *[e for e in got if e != hits[0]]], ("", []))
                break
            if hits:
                break
    return out


def _query(found: guard.Scan, run: list, names: dict, near: dict) -> dict:
    """What the lesson's worker is asked for a run (coursekit.core.candidates.answer): the written
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
    count = len(run) == 1 and guard.counted(found.text, run[0])
    counted, stems, along, readable = "", set(), "", False
    if count:
        after = re.match(rf"[ \t]*({numbers.COUNTERS})?([^，。；：、,.;:\n]{{0,6}})", found.text[run[0].end :])
        stems = candidates.stems(after.group(0), {**candidates.COUNTED, **candidates.TERMS})
        readable = "可读" in after.group(0)  # 三个可读位置
        if not stems and after.group(1) in candidates.MEASURED:  # 192 道: 题
            stems = candidates.stems(candidates.MEASURED[after.group(1)], candidates.COUNTED)
        axis = any(w in candidates.AXES for w in (after.group(1) or "", after.group(2)[:2], after.group(2)[:1]))
        latin = re.match(r"[ \t]*([A-Za-z]\w*)(?![\w(])", after.group(2)) if after.group(1) else None
        stems |= {latin.group(1).lower()} if latin and not stems else set()  # 三条 K: what it counts is named
        counted = "named" if stems else "axis" if axis else "other"
        words = (after.group(1) or "", after.group(2)[:1])
        along = "rows" if "行" in words else "columns" if "列" in words else ""  # 两行: rows, never columns
    sentence = re.split(r"[。；;！？\n]", found.text[max(0, run[0].start - 40) : run[0].start])[-1]
    clause = re.split(r"[，,：:、（]|(?<![A-Za-z])\(", sentence)[-1]  # 分到的比例也是 0: the term just before it; exp(−∞) = 0 keeps its exp
    if count and not along and re.search(r"[这每同]一?行(?:的|里|中)", clause):  # 这一行的三个得分: along a row
        along = "columns"
    clause_stems = candidates.stems(clause, {**candidates.TERMS, **candidates.CLAUSE_TERMS})
    clause_stems |= {_digits(w).lower() for w in re.findall(r"(?<![\w.])[A-Za-z]\w+", clause)}  # exp(−∞) = 0: exps; q₂: q2
    near = {**near, **dict.fromkeys(clause_stems, candidates.CLAUSE)} if not count else near
    if counted == "axis":  # V 有两列: the array named just before an axis count is the one it measures
        names = {**names, **{w.lower(): candidates.CLAUSE for w in re.findall(r"(?<![\w.])[A-Za-z]\w*", clause)}}
    line = found.text[found.text.rfind("\n", 0, run[0].start) + 1 : run[0].start]
    dot = re.search(rf"(?<![\w.])([A-Za-z]\w*?)([{SUBSCRIPTS}]+)\s*[·⋅]\s*([A-Za-z]\w*?)([{SUBSCRIPTS}]+)\s*=\s*$", line)
    row = re.search(rf"(?<![\w.·⋅])([A-Za-z]\w*?)([{SUBSCRIPTS}]+)\s*=\s*\[?$", line)  # q₀=[1, 0]: the row q[0]
    place = re.search(r"(?:位置|第)\s*(\d+)\s*(?:行|个位置)?", clause)  # 位置 0 得到 [0.8, 1.2]: a row 0
    named_row = re.search(rf"(?<![\w.])[A-Za-z]\w*?([{SUBSCRIPTS}]+)(?![\w{SUBSCRIPTS}])", clause)  # 把 q₂ 改成 [0, 0]: a row 2
    return {"written": [t.text for t in run], "names": names, "count": count, "counted": counted,
            "near": {**({} if count else near), **dict.fromkeys(stems, candidates.COUNTS)},
            "summed": bool(SUM_WORDS.search(sentence)), "averaged": "平均" in clause, "span": _span(sentence), "rows": 2 if ROW_WORDS.search(clause) else int(bool(ROW_WORDS.search(sentence))),
            "readable": readable,
            "listed": _listed(found.text, run[0]), "each": bool(EACH.search(clause)),
            "each_row": int(named.group(1)) if (named := re.search(r"第\s*(\d+)\s*行", clause)) else None,
            "shaped": "形状" in sentence or "shape" in sentence,
            "derived": len(run) == 1 and not count and bool(DIFFERENCE.search(clause) or RATIO.match(found.text[run[0].end :])),
            "of_written": bool(OF_WRITTEN.search(clause)),
            "dot": [f"{dot.group(1)}[{_digits(dot.group(2))}]", f"{dot.group(3)}[{_digits(dot.group(4))}]"] if dot else [],
            "row": f"{row.group(1)}[{_digits(row.group(2))}]" if row and len(run) > 1 else "", "along": along,
            "index": "" if len(run) < 2 else _digits(row.group(2)) if row else place.group(1) if place
            else _digits(named_row.group(1)) if named_row else ""}


# A difference (多了 2) or a ratio (的 2.0281 倍) is a name the code computes it in, or nothing:
# an element that happens to agree is a coincidence.
DIFFERENCE = re.compile(r"(?:多了|少了|多出|增加了?|减少了?|相差|差了?)\s*$")
RATIO = re.compile(r"\s*倍")
# A function of a number the text writes (exp(0) = 1): the text computes it itself, no table holds it.
OF_WRITTEN = re.compile(r"[A-Za-z]\w*\(\s*[−\-+]?(?:\d[\d.]*|∞)\s*\)\s*[=≈]\s*$")
SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
EACH = re.compile(r"各|全为|全是|全都是|都是")  # 各约 0.3333, 分数全为 0: every cell has the value
SPAN = re.compile(r"位置\s*(\d+)((?:\s*[、和与]\s*\d+)+)")  # 位置 4、5 合计: the cells of positions 4 to 5
SPAN_ANY = re.compile(r"位置\s*\d+(?:\s*[、和与]\s*\d+)*")  # 位置 1、2、3, 位置 0 和 4, 位置 2
SENTENCE = 200  # how far back a sentence is read for the positions it lists


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


def _nearby(root: Path, found: guard.Scan):
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
    shown = [(f.start, section(f.start), _assigned(root, f)) for f in blocks if f.lang not in ("", "text")]  # a display is no code
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


def _assigned(root: Path, block: scan.Fence) -> set[str]:
    """The names a shown code block assigns: in its own code and in the files its `file=` names (only
    the part it shows, `file.py:part`)."""
    import ast

    sources = ["\n".join(block.lines)]
    for ref in re.findall(r'file="([^"]*)"', block.info):
        for item in ref.split():
            name, _, part = item.partition(":")
            file = root / name
            text = file.read_text(encoding="utf-8") if file.suffix == ".py" and file.is_file() else ""
            shown = re.search(rf"# --8<-- \[start:{re.escape(part)}\]\n(.*?)# --8<-- \[end:{re.escape(part)}\]", text, re.S) if part else None
            sources += [shown.group(1) if shown else text] if text else []  # the part the page shows
    names: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return names


def _cuts(found: guard.Scan, p: Proposal) -> bool:
    """Whether an annotation after `p`'s run would take from the next annotation of its paragraph
    numbers that one binds now (an annotation pairs with the numbers back to the previous one)."""
    end, segment = p.tokens[-1].end, p.tokens[-1].segment
    later = [a for a in found.annotations if a.segment == segment and a.start >= end]
    if not later:
        return False
    nxt = min(later, key=lambda a: a.start)
    floor = max((a.end for a in found.annotations if a.segment == segment and a.end <= end), default=-1)
    unbound = {id(t) for t in found.unbound}
    return any(floor <= t.start < end and t.segment == segment and t.claim and id(t) not in unbound
               for t in found.tokens if t.start < nxt.start)


WRITTEN = (*candidates.SURE, "same")  # the decisions --bind writes: sure, or a tie settle_ties settled


def offer(p: Proposal) -> str:
    """What the unbound-number message adds for a proposal: `写 {=weights[1]} 绑定？`, or the
    candidates and why none is sure."""
    if p.why_not in WRITTEN:
        where = f"（写在 {p.tokens[-1].text} 后面，绑定这 {len(p.tokens)} 个数）" if len(p.tokens) > 1 else ""
        return f"；写 {{={p.exprs[0]}}} 绑定？{where}"
    why = {"tie": "并列，要自己选", "far": "这样的数很常见，可能只是巧合", "unnamed": "这里数的东西在代码里没有同名的量"}
    return "；候选：" + "、".join(f"{{={e}}}" for e in p.exprs) + f"（{why.get(p.why_not, p.why_not)}）"


def propose(build: engine.Build, root: Path, lesson_id: str, found: guard.Scan) -> None:
    """Add to each unbound-number problem of `found` its proposal (offer), when it has one."""
    by_start = {p.at: p for p in found.problems if p.at >= 0}
    for proposal in proposals_for(build, root, lesson_id, found):
        problem = by_start.get(proposal.tokens[0].start)
        if problem is not None:
            problem.message += offer(proposal)


def settle_ties(build: engine.Build, root: Path, path: Path, chosen: list[Proposal]) -> int:
    """Settle the ties of `chosen` whose candidates stand for one quantity: equal in the lesson, and
    still equal to each other when its inputs change as it declares and they change with them
    (coursekit.core.variations; zeros that stay zero say nothing). Cells the text says are one value
    ("alike") are a tie again when that change makes them differ: they are alike only in this
    example. Returns how many ties it settled."""
    import tempfile

    from coursekit.core import variations

    ties = [p for p in chosen if p.why_not in ("tie", "alike")]
    lesson_id = _lesson(build, path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"))
    if not ties or lesson_id is None:
        return 0
    exprs = sorted({e for p in ties for e in p.tied})
    with tempfile.TemporaryDirectory(prefix="coursekit-varied-") as scratch:
        changed = variations.varied(root, lesson_id, Path(scratch))
        if changed is None:
            return 0
        try:
            before = variations.values(build, lesson_id, exprs)
            try:
                after = variations.values(changed, lesson_id, exprs)
            except engine.LessonError as e:  # a change that breaks the lesson tells nothing apart
                raise variations.ChangeError(f"{variations.variations_file(build.lessons[lesson_id].folder)}: input_changes 改过之后，"
                                             f"这一讲不能运行了（{e}）：改动要一起改它牵动的输入，让这一讲照样能跑") from e
        finally:
            changed.close()
    settled = 0
    for p in ties:
        if p.why_not == "alike":
            if not all(variations.same(after[e], after[p.exprs[0]]) for e in p.tied):
                p.why_not = "tie"
            continue
        first = p.tied[0]
        moved = not variations.same(before[first], after[first])  # a change that does not reach them says nothing
        if moved and all(variations.same(before[e], before[first]) and variations.same(after[e], after[first])
                         for e in p.tied):
            p.why_not, p.exprs, settled = "same", [first, *[e for e in p.exprs if e != first]], settled + 1
    return settled


def bind_sure(text: str, offset: int, found: guard.Scan, chosen: list[Proposal]) -> tuple[str, list[tuple[Proposal, str]]]:
    """`text` (a page file; its body starts at `offset`) with `{=expr}` written after each sure
    proposal's run, and (proposal, why) for each decision. A binding that would change what the
    reader sees (an annotation inside inline code, a title, an attribute) is not written."""
    decisions, shown = [], guard.scan_page("", text[offset:]).stripped()
    for p in sorted(chosen, key=lambda p: -p.tokens[-1].end):
        if p.why_not == "tie":
            decisions.append((p, "不写：候选并列，" + "、".join(f"{{={e}}}" for e in p.exprs[:2]) + " 排名相同"))
            continue
        if p.why_not == "far":
            decisions.append((p, f"不写：这样的数很常见，{{={p.exprs[0]}}} 也许是巧合（它不在这一段或附近的代码里）"))
            continue
        if p.why_not == "unnamed":
            decisions.append((p, f"不写：这里数的东西在代码里没有同名的量，{{={p.exprs[0]}}} 只是碰巧相等"))
            continue
        if p.why_not not in WRITTEN:
            raise ValueError(f"不认识的判断：{p.why_not}")
        if _cuts(found, p):
            decisions.append((p, "不写：写在这里会把后面那个标注要配的数截断"))
            continue
        at = offset + p.tokens[-1].end
        trial = text[:at] + f"{{={p.exprs[0]}}}" + text[at:]
        if guard.scan_page("", trial[offset:]).stripped() != shown:
            decisions.append((p, "不写：写在这里会改变页面显示的内容"))
            continue
        text = trial
        if p.why_not == "alike":
            others = "、".join(f"{{={e}}}" for e in p.tied if e != p.exprs[0])
            decisions.append((p, f"写 {{={p.exprs[0]}}}：与 {others} 同值并列，正文说它们一样（“各”），取第一格"))
        elif p.why_not == "same":
            others = "、".join(f"{{={e}}}" for e in p.tied[1:3])
            decisions.append((p, f"写 {{={p.exprs[0]}}}：与并列的 {others} 在本讲输入改动后仍然相等，是同一个量"))
        else:
            decisions.append((p, f"写 {{={p.exprs[0]}}}：唯一最好的候选"))
    return text, decisions[::-1]


def _bind(rel: str, text: str, evaluate_all) -> Checked:
    """The page at `rel` with source `text`: scanned, its expressions evaluated by `evaluate_all`, bound."""
    _, fm_lines, body = scan.front_matter(text)
    found = guard.scan_page(rel, body, fm_lines + 1)
    exprs = found.expressions
    values = dict(zip(exprs, evaluate_all(exprs))) if exprs else {}
    return found, guard.bind(found, values), len(text) - len(body)


# Edits an author might make to a lesson, made to the kit's own example lesson (coursekit/example),
# and what the guard says about them: coursekit/README.md and 如何写一讲 show these messages, produced by
# the guard itself (the page runs this; a test compares coursekit/README.md).
EXAMPLE_EDITS = [
    ("分母是它们的和 5.0562{=", "分母是它们的和 5.0526{="),  # a number changed in the prose
    ("负得分也是允许的", "负得分（比如 -0.3）也是允许的"),  # a new number that nothing binds
    ("位置 0 得到新向量 [0.8022, 1.1978]{=output[0]}", "位置 0 得到新向量 [0.8022, 1.1978]{=output}"),
]


def check_example(text: str | None = None) -> Checked:
    """check() for the example lesson: its page (or `text` in its place) against its experiments,
    run here in plain Python."""
    import contextlib
    import io
    import runpy

    from coursekit import example
    from coursekit.core.worker import evaluate

    root = Path(example.__file__).resolve().parents[2]
    text = example.PAGE.read_text(encoding="utf-8") if text is None else text
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for name, _ in example.EXPERIMENTS:
            scope.update(runpy.run_path(str(example.PAGE.with_name(f"{name}.py"))))
    return _bind(example.PAGE.relative_to(root).as_posix(), text, lambda exprs: [evaluate(e, scope) for e in exprs])


def example_messages() -> list[str]:
    """The guard's messages for EXAMPLE_EDITS of the example lesson (the kit's own, whatever lessons
    the course has)."""
    from coursekit import example

    text = example.PAGE.read_text(encoding="utf-8")
    out = []
    for old, new in EXAMPLE_EDITS:
        if old not in text:
            raise ValueError(f"示例改动找不到原文：{old}")
        found, _, _ = check_example(text.replace(old, new, 1))
        out += [p.format() for p in found.problems]
    return out
