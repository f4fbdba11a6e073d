"""Numbers written in a Python file's comments and docstrings: text a reader sees.

An experiment file (lessons/lNN/*.py) is shown as listings on its lesson's page and as cells of
the lesson's notebook, where its docstring becomes the prose above the cell (coursekit.core.notebook);
a tinylm file is shown whole on its source page (docs/code/*.md). What its comments and docstrings
say, the reader reads as the course's words, and a number there is a claim as it would be in prose
(the guard's rule). The learner's file carries no markup: a lesson binds the numbers of its files'
comments in a data file beside them, BINDINGS (`lessons/l10/comment_numbers.toml`), one table per
file, each entry the comment's words up to the end of the number(s) it binds and the expression,
evaluated in the lesson's namespace:

    ["lessons/l10/attention_2d.py"]
    "三个位置" = "x.shape[0]"          # binds 三 as `三个位置{=x.shape[0]}` would in prose
    "三组" = "示意"                     # marks one number an example

The words are looked for in the file's comments and docstrings: where they stand as written (and
nowhere else), the annotation is put after them and the text is read as the guard reads prose; words
that no longer stand anywhere with their numbers as written, but do stand once with other numbers,
bind there (so a number edited in the comment drifts, as in prose); words found nowhere, or in two
places, are an error at their line of the data file. A file of no lesson has nothing to bind to. A
number that is only an example may also be marked in the file: `# 示意` on the line of a comment,
`（示意）` at the end of a docstring's line.

Read: every comment (a run of whole-line comments is read as one text, as a paragraph), the
docstrings and any other string written as a statement of its own (a bare string is a comment in
all but syntax). Not read: strings the code uses (those it prints are coursekit.core.printed's), and
the snippet markers (`# --8<-- [start:listing]`).

    claims(path, text)                                -> [Claim]          every unbound claim, with its line
    problems(path, text, first=1, last=None)          -> [guard.Problem]  as the guard's problems, for
                                                                          the lines [first, last] shown
    load_bindings(root, folder, files)                -> ([Binding], [guard.Problem])  a lesson's BINDINGS
"""

from __future__ import annotations

import io
import re
import tokenize
import tomllib
from dataclasses import dataclass
from pathlib import Path

from coursekit.core import guard, numbers, pagetext, scan, syntax

BINDINGS = "comment_numbers.toml"  # in a lesson's folder: what its files' comments bind
EXAMPLE = "示意"  # a binding's value marking its number an example, as {示意} does in prose
COMMENT_EXAMPLE = "# 示意"
DOCSTRING_EXAMPLE = re.compile(r"[（(]示意[）)]\s*$")


@dataclass
class Claim:
    line: int
    number: str
    shown: str  # the comment's or docstring's line it is in
    where: str  # "comment" or "docstring"
    words: str = ""  # the comment's words up to the end of the run of numbers it starts: a binding's key


@dataclass(frozen=True)
class Binding:
    """One entry of a lesson's BINDINGS: in `file`, the number(s) the comment's `words` end with are
    bound to `expr` (None: marked an example)."""

    file: str
    words: str
    expr: str | None
    line: int  # of the data file


def bindings_file(folder: str) -> str:
    """The data file of a lesson's folder (lessons/l10) that binds its comments' numbers."""
    return f"{folder}/{BINDINGS}"


def _comments(text: str) -> list[tuple[int, str, bool]]:
    """(first line, text, whole-line) of each comment, a run of whole-line comments joined."""
    found: list[tuple[int, str, bool]] = []
    last = (0, -1)  # (line, column) of the previous whole-line comment
    tokens = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            tokens.append(tok)
    except (tokenize.TokenError, SyntaxError):
        pass  # the comments before the error are still read; running the file reports the error
    lines = text.split("\n")
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        (row, col), body = tok.start, tok.string[1:]
        if "--8<--" in body:
            continue  # a listing's section marker: never shown
        whole = not lines[row - 1][:col].strip()
        if whole and found and found[-1][2] and last == (row - 1, col):
            first, joined, _ = found[-1]
            found[-1] = (first, joined + "\n" + body, True)
        else:
            found.append((row, body, whole))
        last = (row, col) if whole else (0, -1)
    return found


def _comment_example(own: str, source: str) -> bool:
    """A comment marked as an example: `# 示意` on its line (or ending the comment, in brackets or not)."""
    return COMMENT_EXAMPLE in source or bool(re.search(r"[（(]?示意[）)]?\s*$", own))


def _docstring_example(own: str, source: str) -> bool:
    """A docstring's line ending with （示意）."""
    return bool(DOCSTRING_EXAMPLE.search(own))


def _pieces(path: str, text: str) -> list[tuple[int, str, str]]:
    """(first line, text, "comment" or "docstring") of each text the reader reads in `text`."""
    pieces = [(line, body, "comment") for line, body, _ in _comments(text)]
    try:
        tree = syntax.parse(text, path)
    except SyntaxError:
        return pieces
    return pieces + [(node.lineno, node.value, "docstring") for node in scan.standalone_strings(tree)]


# ---- a lesson's bindings: the data file ---------------------------------------------------------

def load_bindings(root: Path, folder: str, files: list[str]) -> tuple[list[Binding], list[guard.Problem]]:
    """The bindings of the lesson in `folder` (none when it has no data file), and a problem, at its
    line of the data file, for each entry that is no binding of one of the lesson's `files`."""
    data = bindings_file(folder)
    try:
        text = (root / data).read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], []
    try:
        tables = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        at = re.search(r"at line (\d+)", str(err))
        return [], [guard.Problem(data, int(at.group(1)) if at else 1, f"不是合法的 TOML：{err}")]
    lines = _entry_lines(text)
    found: list[Binding] = []
    problems: list[guard.Problem] = []
    for file, entries in tables.items():
        line = lines.get((file, None)) or lines.get(("", file), 1)
        if not isinstance(entries, dict):
            problems.append(guard.Problem(data, line, f"{file!r} 要写成一节 [\"{file}\"]，下面每行一个绑定：\"注释里到数为止的字\" = \"表达式\""))
            continue
        if file not in files:
            problems.append(guard.Problem(data, line, f"[\"{file}\"] 不是本讲的文件（{folder}/__init__.py 与 EXPERIMENTS 里的实验文件）："
                                          "这里只绑定本讲文件的注释与文档字符串"))
            continue
        for words, expr in entries.items():
            at = lines.get((file, words), line)
            if not isinstance(expr, str) or not expr.strip() or not words.strip():
                problems.append(guard.Problem(data, at, f"绑定 {words!r} = {expr!r}：键是注释里到数为止的字，值是一个表达式的字符串"
                                              f"（或 \"{EXAMPLE}\"），如 \"三个位置\" = \"x.shape[0]\""))
                continue
            if guard.ANNOTATION.search(words) or guard.ANNOTATION.search(expr):
                problems.append(guard.Problem(data, at, f"绑定 {words!r} 里不写 {{=…}} 或 {{示意}}：键是注释里的字，值只写表达式"))
                continue
            found.append(Binding(file, words, None if expr.strip() == EXAMPLE else expr.strip(), at))
    return found, problems


def _entry_lines(text: str) -> dict[tuple[str, str | None], int]:
    """(table, key) -> the line it is written on; (table, None) -> the table's header line. Each line
    read as TOML of its own: an entry written over several lines is found at its table's line."""
    found: dict[tuple[str, str | None], int] = {}
    table = ""
    for n, line in enumerate(text.split("\n"), start=1):
        try:
            parsed = tomllib.loads(line)
        except tomllib.TOMLDecodeError:
            continue
        if len(parsed) != 1:
            continue
        key, value = next(iter(parsed.items()))
        if line.lstrip().startswith("[") and value == {}:
            table = key
            found.setdefault((table, None), n)
        else:
            found.setdefault((table, key), n)
    return found


def _wildcard(words: str) -> re.Pattern:
    """`words` with each number it holds standing for any number: the same words, the numbers edited."""
    tokens = _number_spans(words)
    parts, last = [], 0
    for start, end in tokens:
        parts += [re.escape(words[last:start]), f"(?:{numbers.NUMBER_RE.pattern})"]
        last = end
    parts.append(re.escape(words[last:]))
    return re.compile("".join(parts))


def _number_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each number the guard reads in `text`."""
    return [(t.start, t.end) for t in guard.scan_page("", text).tokens]


def _places(bindings: list[Binding], pieces: list[tuple[int, str, str]], data: str
            ) -> tuple[dict[int, list[tuple[int, Binding, str | None]]], list[guard.Problem]]:
    """Where in the file's pieces each binding stands: piece index -> [(offset after its words,
    binding, the words as the comment now writes them when its numbers were edited there, else None)],
    and a problem, at the binding's line of `data`, for words found nowhere or in two places."""
    def lines_of(hits):
        return "、".join(f"第 {pieces[i][0] + pieces[i][1].count(chr(10), 0, end)} 行" for i, end, _ in hits)

    exact = {b: [(i, m.end(), None) for i, (_, body, _) in enumerate(pieces)
                 for m in re.finditer(re.escape(b.words), body)] for b in bindings}
    taken = {hit[:2] for hits in exact.values() if len(hits) == 1 for hit in hits}
    places: dict[int, list[tuple[int, Binding, str | None]]] = {}
    problems: list[guard.Problem] = []
    used: dict[tuple[int, int], Binding] = {}
    for b in bindings:
        hits = exact[b]
        if not hits:  # its numbers edited in the comment: bound there all the same, so they drift
            pattern = _wildcard(b.words)
            hits = [(i, m.end(), m.group()) for i, (_, body, _) in enumerate(pieces) for m in pattern.finditer(body)
                    if (i, m.end()) not in taken]
        if not hits:
            problems.append(guard.Problem(data, b.line, (
                f"绑定「{b.words}」在 {b.file} 的注释和文档字符串里找不到（改写或删掉了？）："
                "照注释现在的写法改这一项的键，或删掉这一项")))
            continue
        if len(hits) > 1:
            problems.append(guard.Problem(data, b.line, (
                f"绑定「{b.words}」在 {b.file} 里对得上 {len(hits)} 处（{lines_of(hits)}）：键多写几个字，让它只对得上一处")))
            continue
        piece, end, now = hits[0]
        if (piece, end) in used:
            other = used[(piece, end)]
            problems.append(guard.Problem(data, b.line, (
                f"绑定「{b.words}」和第 {other.line} 行的「{other.words}」落在 {b.file} 的同一处（{lines_of(hits)}）：删掉一项")))
            continue
        used[(piece, end)] = b
        places.setdefault(piece, []).append((end, b, now))
    return places, problems


def _annotated(body: str, at: list[tuple[int, Binding, str | None]]) -> str:
    """The piece's text with each binding's annotation after its words, as prose would write it."""
    for end, b, _ in sorted(at, key=lambda x: -x[0]):
        body = body[:end] + ("{示意}" if b.expr is None else f"{{={b.expr}}}") + body[end:]
    return body


# ---- the checks ---------------------------------------------------------------------------------

def check(path: str, text: str, evaluate=None, first: int = 1, last: int | None = None,
          bindings: list[Binding] | None = None, data: str | None = None
          ) -> tuple[list[Claim], list[guard.Problem]]:
    """(unbound claims, other problems: drift, a binding that does not hold, markup in the file) of
    the comments and docstrings of Python source `text`, on lines [first, last]. `bindings` are the
    file's entries of its lesson's data file `data` (None: the file is of no lesson), evaluated by
    `evaluate(exprs)` as the engine does; a problem of a binding itself is reported whatever lines
    are shown."""
    lines = text.split("\n")
    raw = _pieces(path, text)
    pieces = [(line, guard.strip_annotations(body), where) for line, body, where in raw]  # markup: reported below
    places, others = _places(bindings or [], pieces, data or "") if data else ({}, [])
    unbound: list[Claim] = []
    for i, (line, body, where) in enumerate(pieces):
        marked = {line + raw[i][1].count("\n", 0, m.start()) for m in guard.ANNOTATION.finditer(raw[i][1])}
        for at in sorted(marked):
            if first <= at and (last is None or at <= last):
                others.append(guard.Problem(path, at, _markup(where, data), kind="drift"))
        found = guard.scan_page(path, _annotated(body, places.get(i, [])), line)
        exprs = found.expressions
        answers = evaluate(exprs) if exprs and evaluate else [{"error": "这一讲没有运行"}] * len(exprs)
        guard.bind(found, dict(zip(exprs, answers)))
        others += _edited_words(found, places.get(i, []), body, line, data or "")
        example = _comment_example if where == "comment" else _docstring_example
        runs = {id(run[0]): run for run, _ in guard.unbound_runs(found)}
        for p in found.problems:
            if p.line < first or (last is not None and p.line > last) or p.line in marked:
                continue
            source = lines[p.line - 1] if 0 < p.line <= len(lines) else ""
            if not p.message.startswith("未绑定的数字"):
                written = "注释写" if where == "comment" else "文档字符串写"
                others.append(guard.Problem(p.path, p.line, p.message.replace("正文写", written, 1), p.text, p.kind))
            elif not example(re.sub(r"""[\s'"]+$""", "", source), source):
                token = next(t for t in found.unbound if t.start == p.at)
                words = _words(found, runs.get(id(token), [token]))
                unbound.append(Claim(p.line, p.text, source.strip().lstrip("#").strip(), where, words))
    return sorted(unbound, key=lambda c: c.line), others


def _edited_words(found: guard.Scan, at: list[tuple[int, Binding, str | None]], body: str, first: int,
                  data: str) -> list[guard.Problem]:
    """A binding found only with its numbers edited in the comment whose numbers all agree with the
    live values: its key is out of date (a drifted number is the problem, reported at its line)."""
    out = []
    for end, b, now in at:
        line = first + body.count("\n", 0, end)
        if now is not None and not any(p.line == line for p in found.problems):
            out.append(guard.Problem(data, b.line, f"绑定「{b.words}」的数与 {b.file}:{line} 现在的写法「{now}」不同"
                                     f"（那里的数与现算值相符）：把键改成 \"{now}\""))
    return out


def _markup(where: str, data: str | None) -> str:
    what = "注释" if where == "comment" else "文档字符串"
    if data:
        return (f"{what}里不写 {{=…}} 或 {{示意}}：这是学员读的文件，标注会原样显示；"
                f"绑定写进 {data}（见 {BINDINGS} 的写法：[\"文件\"] 一节下 \"{what}里到数为止的字\" = \"表达式\"）")
    return (f"{what}里不写 {{=…}} 或 {{示意}}：这是学员读的文件，标注会原样显示；这个文件不属于哪一讲，没有地方绑定："
            "让一讲的代码把数算出来打印，或在这行末尾注明 # 示意")


def _words(found: guard.Scan, run: list) -> str:
    """The key a binding of `run` (unbound numbers joined by brackets) would be written under: a few
    of the comment's words before it, the numbers, and what closes them (a bracket, a measure word)."""
    text, start, end = found.text, run[0].start, run[-1].end
    line_start = text.rfind("\n", 0, start) + 1
    before = [t.end for t in found.tokens if line_start <= t.end <= start]
    begin = max([line_start, start - 8, *before])
    closing = re.match(rf"[\]）)]*(?:[ \t]*(?:{numbers.COUNTERS}))?", text[end:])
    return guard.strip_annotations(text[begin : end + closing.end()]).lstrip(" \t，,；;：:、。")


def claims(path: str, text: str) -> list[Claim]:
    """Each number the comments and docstrings of the Python source `text` claim and no annotation
    binds, in line order. A file that does not parse has only its comments read here."""
    return check(path, text)[0]


def describe(line: list[Claim], path: str = "", data: str | None = None) -> str:
    """The guard's words for the claims of one line of file `path` (the caller names the file and
    line); `data`: its lesson's data file, where the binding is written (None: a file of no lesson)."""
    shown = line[0].shown if len(line[0].shown) <= 40 else line[0].shown[:39] + "…"
    written = "、".join(c.number for c in line)
    comment = line[0].where == "comment"
    head = (f"{'注释' if comment else '文档字符串'}里写的 {written} 没有代码核对（「{shown}」），"
            "读者在代码清单和笔记本里会当成课程的结论；")
    example = "只是举例的数，在这行末尾注明 # 示意" if comment else "只是举例的数，在这一行末尾写（示意）"
    if data is None:
        return head + f"这个文件不属于哪一讲，没有地方绑定：让一讲的代码把它算出来打印；{example}"
    return (head + f"在 {data} 里绑定它：[\"{path}\"] 一节下写一行 \"{line[0].words}\" = \"表达式\""
            f"（键是{'注释' if comment else '文档字符串'}里到这个数为止的字，页面上不显示），或让代码把它算出来打印；{example}")


def by_line(found: list[Claim]) -> list[list[Claim]]:
    """The claims grouped by the line they are on, in order."""
    groups: dict[int, list[Claim]] = {}
    for c in found:
        groups.setdefault(c.line, []).append(c)
    return list(groups.values())


def problems(path: str, text: str, first: int = 1, last: int | None = None, evaluate=None,
             bindings: list[Binding] | None = None, data: str | None = None) -> list[guard.Problem]:
    """One guard.Problem per line of the Python source `text` (file `path`, as the page names it)
    whose comments or docstrings claim a number nothing binds, and one per drifted or broken
    binding, for the lines [first, last] a page shows (all by default); the rest as in check()."""
    unbound, others = check(path, text, evaluate, first, last, bindings, data)
    return sorted([guard.Problem(path, line[0].line, describe(line, path, data), line[0].number, kind="drift")
                   for line in by_line(unbound)] + others, key=lambda p: (p.path != path, p.line))


def _texts(root: Path, files: list[str]) -> dict[str, str]:
    """The text of each of the lesson's `files` that can be read (running a file reports one that can't)."""
    texts = {}
    for rel in files:
        try:
            texts[rel] = pagetext.read(root / rel)
        except OSError:
            continue
    return texts


def lesson_expressions(root: Path, folder: str, files: list[str]) -> list[str]:
    """Every expression the lesson's data file binds its `files`' comments and docstrings to, in
    order: what lesson_problems will ask its evaluator."""
    return sorted({b.expr for b in load_bindings(root, folder, files)[0] if b.expr})


def lesson_problems(root: Path, lesson, files: list[str], evaluate) -> list:
    """The claims an experiment file of the lesson makes in its comments and docstrings: its
    listings and its notebook show them to the reader; and the entries of its data file that bind
    nothing. They are the page's problems, not the run's: the lesson still runs, so every other
    number is checked too. And the numbers in its experiments' titles, the notebook's headings,
    where no binding can be written."""
    texts = _texts(root, files)
    data = bindings_file(lesson.folder)
    bindings, found = load_bindings(root, lesson.folder, files)
    for rel, text in texts.items():
        found += problems(rel, text, evaluate=evaluate, bindings=[b for b in bindings if b.file == rel], data=data)
    init = f"{lesson.folder}/__init__.py"
    source = texts.get(init, "")
    for name, title in lesson.experiments:  # the notebook's headings
        written = [t.text for t in guard.claims(title)]
        if written:
            at = source.find(title)
            found.append(guard.Problem(
                init, source.count("\n", 0, at) + 1 if at >= 0 else 1,
                f"实验 {name} 的标题「{title}」里有 {'、'.join(written)}：标题是笔记本里的小标题，没有地方写绑定，"
                "读者会当成核对过的数；标题里不写数，数写进正文并绑定", written[0]))
    return found
