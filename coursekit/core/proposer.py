"""Bindings proposed for the unbound numbers of a page: for each run of written numbers the lesson's
values that agree with it, best first, and whether the first is sure (coursekit.core.candidates,
asked in the lesson's worker through the engine's general `apply`). Used by
scripts/bound_numbers.py (list, `--bind`) and, through one optional call (`hint`), by the guard's
message for an unbound number while a page converts (`写 {=weights[1]} 绑定？`)."""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from coursekit.core import candidates, engine, guard, queries, scan, variations


@dataclass(frozen=True)
class Proposal:
    line: int
    tokens: tuple  # the written run (guard.Token)
    exprs: tuple[str, ...]  # candidates, best first
    why_not: str  # '' when the first is sure (coursekit.core.candidates.decide), else why not; "same": a settled tie;
    # "alike": tied cells the text says are one value (coursekit.core.candidates._read)
    tied: tuple[str, ...] = ()  # with "tie": the candidates that tie, best first

    @property
    def written(self) -> list[str]:
        return [t.text for t in self.tokens]


def proposals(build: engine.Build, root: Path, lesson_id: str, found: guard.Scan, tiers=None) -> list[Proposal]:
    """A proposal for each run of unbound numbers of a scanned, bound piece of Markdown that binds to
    the lesson `lesson_id`; a run of several numbers that no single value matches is also tried
    number by number. `tiers`: queries.nearby(root, found), when the caller has it."""
    tiers = tiers or queries.nearby(root, found)
    runs = [(run, {**tiers(run[0])[0], **dict.fromkeys(names, 0)}, tiers(run[0])[1])
            for run, names in guard.unbound_runs(found)]
    asked = [queries.query(found, run, names, near) for run, names, near in runs]
    answers = _again_with_bound(build, lesson_id, found, runs, _ask(build, lesson_id, asked))
    singles = [([t], names, near) for (run, names, near), (got, _) in zip(runs, answers)
               if not got and len(run) > 1 for t in run]
    asked += [queries.query(found, run, names, near) for run, names, near in singles]
    every = _by_row([run for run, _, _ in runs + singles], answers + _ask(build, lesson_id, asked[len(runs):]),
                    [q.each_row for q in asked])
    out = [_proposal(found, run, got, why)
           for (run, _, _), (got, why) in zip(runs + singles, every) if got]
    sides = _side_by_side(found)
    for (tokens, _), (got, why) in zip(sides, _ask(build, lesson_id, [q for _, q in sides])):
        if got and why[0] in candidates.SURE:  # the whole display at once, in place of its pieces
            inside = {id(t) for t in tokens}
            out = [p for p in out if not any(id(t) in inside for t in p.tokens)]
            out.append(_proposal(found, tokens, got, why))
    return sorted(out, key=lambda p: p.tokens[0].start)


def _proposal(found: guard.Scan, run: list, got: list[str], why: tuple[str, list[str]]) -> Proposal:
    return Proposal(found.line(run[0].start), tuple(run), tuple(got), why[0], tuple(why[1]))


def _ask(build: engine.Build, lesson_id: str, asked: list[candidates.Query]) -> list[candidates.Answer]:
    """The candidates for each query, searched in the lesson's worker, where its values are."""
    return build.apply(lesson_id, candidates.answers, asked) if asked else []


def _side_by_side(found: guard.Scan) -> list[tuple[list, candidates.Query]]:
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
            out.append((tokens, candidates.Query(tuple(t.text for t in tokens), side_by_side=tuple(n.lower() for n in names))))
    return out


NEIGHBOUR = 0.5  # the tier of a name a sure proposal binds in the paragraph before or after


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
    asked = [queries.query(found, runs[i][0], {**runs[i][1], **{n: min(t, runs[i][1].get(n, 9)) for n, t in around(runs[i][0]).items()}},
                      runs[i][2]) for i in again]
    out = list(answers)
    for i, (got, why) in zip(again, _ask(build, lesson_id, asked)):
        if got and why[0] in candidates.SURE:
            out[i] = (got, why)
    return out


ROW = re.compile(r"([A-Za-z_][\w.]*)\[(\d+)\b")  # x[1], x[1, 0], x[1].sum(): (x, 1)


def _by_row(runs: list, answers: list, named: list[int | None]) -> list:
    """The answers, with each tie among rows or elements of tables settled where the sure answers of
    its paragraph read one row: the only tied candidate in that row of a table they read (分母是
    3.0281{=sums[1]} … the 2.0281 of exps[1, 1], not of exps[0, 0]), or, where the text names that row
    (`named`: 第 1 行的指数是 2.0281), the only one in that row of any table. The same index of another
    table is no reason by itself (the 四分之一 of a list of shares is no row of a table of chances);
    a paragraph whose sure answers read two rows settles nothing."""
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
        tried = [read, {(name, row) for e in why[1] for name, _ in ROW.findall(e)}] if named[i] == int(row) else [read]
        for pairs in tried:
            hits = [e for e in why[1] if ROW.findall(e) and set(ROW.findall(e)) <= pairs]
            if len(hits) == 1:
                out[i] = ([hits[0], *[e for e in got if e != hits[0]]], ("", []))
                break
            if hits:
                break
    return out


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


def offer(p: Proposal, text: str) -> str:
    """What the unbound-number message adds for a proposal: `写 {=weights[1]} 绑定？`, or the
    candidates and why none is sure. `text`: the scanned page, to quote a run of several numbers
    whole (写在 3×3 后面: its last number alone, 3, could be either). Cells the text says are alike
    are offered as candidates: only --bind's change of the inputs (settle_ties) makes them sure."""
    if p.why_not in WRITTEN and p.why_not != "alike":
        run = text[p.tokens[0].start : p.tokens[-1].end]
        run = run if len(run) <= 24 and "\n" not in run else f"…{p.tokens[-1].text}"
        where = f"（写在 {run} 后面，绑定这 {len(p.tokens)} 个数）" if len(p.tokens) > 1 else ""
        return f"；写 {{={p.exprs[0]}}} 绑定？{where}"
    return "；候选：" + "、".join(f"{{={e}}}" for e in p.exprs) + f"（{NOT_SURE[p.why_not]}{WHAT_TO_DO.get(p.why_not, '')}）"


# Why a proposal is not sure: the build's hint (offer) and --bind's decisions (bind_sure) say the same.
NOT_SURE = {
    "tie": "并列：几个量今天碰巧同值，说的可能是其中一个，也可能都不是",
    "far": "这样的数很常见，可能只是巧合（它不在这一段或附近的代码里）",
    "unnamed": "代码里没有叫这个东西的量，候选只是大小碰巧相同",
    "cell": "只有表里的一格碰巧同值，正文没说是哪一格",
    "alike": "正文说这几格一样；是不是同一个量，要改一改本讲的输入才知道：--bind 会改了再看",
}
WHAT_TO_DO = {  # the hint's advice after the reason
    "unnamed": "：说的就是它就照写，不是就写 {示意}",
    "cell": "（写上 位置 0、坐标 1 这样的标号，或直接绑定）",
}


def hint(build: engine.Build, root: Path, lesson_id: str, found: guard.Scan) -> None:
    """Add to each unbound-number problem of `found` its proposal (offer), when it has one; and
    question each number marked {示意} that the lesson surely computes (questioned)."""
    by_start = {p.at: p for p in found.problems if p.at >= 0}
    tiers = queries.nearby(root, found)  # what the page names where: read once for both
    for proposal in proposals(build, root, lesson_id, found, tiers) if found.unbound else []:
        problem = by_start.get(proposal.tokens[0].start)
        if problem is not None:
            problem.message += offer(proposal, found.text)
    found.problems += questioned(build, lesson_id, found, tiers)
    found.problems.sort(key=lambda p: p.line)


def questioned(build: engine.Build, lesson_id: str, found: guard.Scan, tiers) -> list[guard.Problem]:
    """A problem for each run marked {示意} whose one sure candidate is a value of the lesson: an
    example is a number no code computes, and {示意} on a computed one is a door no check guards.
    Only for runs a coincidence can't match (not candidates.weak: 这三行{示意} of code, the 2 of √2,
    agree with some size or cell by chance; 0.4011 does not), so only those are asked."""
    runs = [run for run in found.examples if not candidates.weak([t.text for t in run])]
    asked = [queries.query(found, run, *tiers(run[0])) for run in runs]
    out = []
    for run, (got, why) in zip(runs, _ask(build, lesson_id, asked)):
        if got and why[0] in candidates.SURE:
            written = "、".join(t.text for t in run)
            out.append(guard.Problem(
                found.path, found.line(run[0].start),
                f"{written} 标了 {{示意}}，可本讲的代码正好算出它：{{={got[0]}}}（「{found.context(run[0].start, run[-1].end)}」）；"
                f"说的就是这个量，把 {{示意}} 换成 {{={got[0]}}}；真是举例，换一个代码算不出的数", written, at=run[0].start))
    return out


def settle_ties(build: engine.Build, root: Path, lesson_id: str, chosen: list[Proposal]) -> list[Proposal]:
    """`chosen`, with the ties whose candidates stand for one quantity settled ("same"): equal in the
    lesson, and still equal to each other when its inputs change as it declares and they change with
    them (coursekit.core.variations; zeros that stay zero say nothing). Cells the text says are one
    value ("alike") are a tie again when that change makes them differ: they are alike only in this
    example."""
    ties = [p for p in chosen if p.why_not in ("tie", "alike")]
    if not ties:
        return chosen
    exprs = sorted({e for p in ties for e in p.tied})
    with tempfile.TemporaryDirectory(prefix="coursekit-varied-") as scratch:
        changed = variations.varied(root, lesson_id, Path(scratch))
        if changed is None:
            return chosen
        try:
            before = variations.values(build, lesson_id, exprs)
            try:
                after = variations.values(changed, lesson_id, exprs)
            except engine.LessonError as e:  # a change that breaks the lesson tells nothing apart
                raise variations.ChangeError(f"{variations.variations_file(build.lessons[lesson_id].folder)}: input_changes 改过之后，"
                                             f"这一讲不能运行了（{e}）：改动要一起改它牵动的输入，让这一讲照样能跑") from e
        finally:
            changed.close()
    return [_settled(p, before, after) if p.why_not in ("tie", "alike") else p for p in chosen]


def _settled(p: Proposal, before: dict, after: dict) -> Proposal:
    """A tie after the lesson's declared change: alike cells that parted, or that the change does not
    move, are a tie; tied candidates that all moved with the first are one quantity ("same", the first first)."""
    first = p.tied[0]
    moved = not variations.same(before[first], after[first])  # a change that does not reach them says nothing
    if p.why_not == "alike":  # cells that stay put (cos 0 = 1 in two places) may be alike only by chance
        return p if moved and all(variations.same(after[e], after[p.exprs[0]]) for e in p.tied) else replace(p, why_not="tie")
    if moved and all(variations.same(before[e], before[first]) and variations.same(after[e], after[first]) for e in p.tied):
        return replace(p, why_not="same", exprs=(first, *[e for e in p.exprs if e != first]))
    return p


def bind_sure(text: str, offset: int, found: guard.Scan, chosen: list[Proposal]) -> tuple[str, list[tuple[Proposal, str]]]:
    """`text` (a page file; its body starts at `offset`) with `{=expr}` written after each sure
    proposal's run, and (proposal, why) for each decision. A binding that would change what the
    reader sees (an annotation inside inline code, a title, an attribute) is not written."""
    decisions, shown = [], guard.scan_page("", text[offset:]).stripped()
    for p in sorted(chosen, key=lambda p: -p.tokens[-1].end):
        if p.why_not in NOT_SURE and p.why_not not in WRITTEN:
            decisions.append((p, "不写：" + NOT_SURE[p.why_not] + "：" + "、".join(f"{{={e}}}" for e in p.exprs[:2])))
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
