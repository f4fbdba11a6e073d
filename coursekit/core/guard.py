"""The drift guard: every number a reader sees on a lesson page is printed by code at build, bound to
a live value, or marked as an example. The author writes each number once, with its expression
right after it:

    现在对这一行做 Softmax，得到 a₀=[0.4011，0.1978，0.4011]{=weights[0]}。
    约为 1.4142{=math.sqrt(d_k)}；比如等上 0.5 秒{示意}。

`{=expr}` binds the numbers just before it: the expression's value is flattened (a tensor, a
shape, a list, a number) and its n values pair with the last n numbers written before the
annotation, in reading order, within the same paragraph or displayed block. Markup, line breaks
and `,`/`，` between them never matter. The expression must read a name from the lesson's code:
`{=0.4011}` or `{=math.sqrt(2)}` would only repeat the number, and is refused. `{示意}` marks the number just before it (and those joined to it
by brackets, separators and operators: [1, 2]{示意}, 2×0.5{示意}) as one no code computes. Both are removed from what the reader sees.

What counts as a number a reader sees, and which of them must be bound, is in `scan_page`.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field

from coursekit.core import lexicon, numbers, scan, syntax

ANNOTATION = re.compile(r"\{(=|示意)")
# Names an expression may use without reading anything the lesson computed.
NOT_FROM_THE_LESSON = set(dir(builtins)) | {"math", "torch", "numpy", "np"}
OPERATORS = set("×*·+=≈/÷−-@√^<>≤≥±")
# Arithmetic joining a number to a letter (位置 i+1, t−1, n-1, d/2, 1/\sqrt{d}) writes a formula, not a value.
ARITHMETIC = set("×*·+/÷−-^")
MULTIPLY = set("×*·")
LETTER_BEFORE = re.compile(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9_₀-₉ᵢⱼₖₗₘₙₜ'′]*[)）]*$")
LETTER_AFTER = re.compile(r"[√(（\\]*[A-Za-zα-ωΑ-Ω]")
FORMULA_REST = re.compile(r"[A-Za-zα-ωΑ-Ω0-9_₀-₉×*·+/÷−\-^ \t()（）√\\{}]*")  # the rest of a formula: 4×d×d
WORDS = lexicon.LEXICON
COUNTER = re.compile(rf"[ \t*_]*(?:{WORDS.counters()})")  # a measure word right after a number: it counts
PLACE = re.compile(rf"[ \t*_]*(?:{WORDS.places()})")  # after 第 N, a word naming a place: 第 3 行
# A label names a place, it states no value: 第 10 讲, 第08讲, 位置 1、2, 头 0, 第 -1 个 (lexicon: labels).
LABEL = re.compile(rf"(?<![A-Za-z])(?P<label>{WORDS.nouns(WORDS.labels)})[ \t*_]*[(（]?[ \t]*$")
ORDINAL_JOIN = re.compile(r"[ \t*_]*(?:[、~～\-–—和与或及到至]|以及)[ \t*_]*")
INTEGER = re.compile(r"[-−]?\d+")
LIST_MARKER = re.compile(r"[ \t>]*(?P<n>\d+)[.)][ \t]")  # an ordered list's 1. 2.: the list's own numbering
FUNCTION_BEFORE = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}\($")  # exp(, ln(: a number inside is the function's argument
# A quotation with its source (a blockquote ending in —— 出处, or a quote/cite admonition): the
# source's words and numbers, not the course's claims.
QUOTED_BLOCK = re.compile(r"(?:^[ \t]*>.*\n?)+", re.M)
ATTRIBUTION = re.compile(r"^[ \t]*>[ \t]*(?:——|—|--)", re.M)
QUOTE_ADMONITION = re.compile(r"^(?P<indent>[ \t]*)(?:!!!|\?\?\?\+?)[ \t]+(?:quote|cite)\b.*\n(?:(?:(?P=indent)[ \t]+.*|[ \t]*)(?:\n|$))*", re.M)


@dataclass(frozen=True)
class NonClaim:
    """One kind of written number that is no claim: what it is, where it shows, a pair of texts the
    tests (and 如何写一讲) read (`example` holds no claim, `neighbour`, its near twin, does), and the
    written forms that make it one. A form is a regex over the text as the reader reads it, where
    `<software>`, `<products>`, `<families>`, `<references>` and `<idioms>` stand for the lexicon's
    lists (coursekit/core/language.toml and the course's glossary); a kind with no forms is decided
    where the scan reads a number (`_ordinal`, `_claim`, `_index`, `scan.visible_mask`)."""

    kind: str
    forms: str
    example: str
    neighbour: str
    patterns: tuple[str, ...] = ()


# The whole list; 如何写一讲 prints it, tests/test_claims.py checks both sides of every entry, and
# its patterns are the guard's (EXEMPT): the table is the rule.
NON_CLAIMS = [
    NonClaim("序数与标号", "第 10 讲、第三行、第08讲、位置 0、位置 1、2、头 0（lexicon 的 labels）；但 第 120 步、位置 2 个 要绑定",
             "第三行的比例", "三行的比例"),
    NonClaim("下标", "weights[1]、V[2, 0] 方括号里的整数", "把 V[2] 改为 V[0]", "把 V 改为 [2, 0]"),
    NonClaim("泛指的“一”", "一个、一次、一行、一讲一讲：汉语的不定冠词；要说恰好一个，写 1 并绑定",
             "一个向量", "两个向量"),
    NonClaim("约数", "两三个、十几个、几个、好几 GB", "两三个位置", "三个位置"),
    NonClaim("日期与时刻", "2024-05-01、2024年5月、2024.05、12:30", "写于 2024年5月", "写了 2024 行", (
        r"(?<![\d.])(?:19|20)\d\d[-/.](?:0[1-9]|1[0-2])(?:[-/.](?:0[1-9]|[12]\d|3[01]))?(?![\d.])",
        r"(?<![\d.])(?:19|20)\d\d[ \t]*年(?:[ \t]*\d{1,2}[ \t]*月(?:[ \t]*\d{1,2}[ \t]*日)?)?",
        r"(?<![\d.:])\d{1,2}:\d\d(?::\d\d)?(?![\d.:])")),
    NonClaim("版本号", "torch 2.13、Python ≥ 3.11、Sphinx 7.4、mkdocs-static-i18n 1.2、PyTorch（2.13 版）、v2.1、3.2.1、"
             "foo==1.2；lexicon 不认识的名字后面的小数是值（cross-entropy 0.2331）",
             "用 Sphinx 7.4 构建", "用时 7.4 秒", (
        r"\d+(?:\.\d+){2,}",
        r"(?<![A-Za-z])(?:<software>)(?:[ \t]*(?:==|>=|<=|~=|≥|≤|@|版本)[ \t]*v?\d+(?:\.\d+)*|(?:[ \t]+|-)v?\d+(?:\.\d+)+)",
        r"(?<![A-Za-z0-9_.-])(?:<families>)[a-z0-9]*(?:-[a-z0-9]+)*[ \t]+v?\d+(?:\.\d+)+(?![\d.])",
        r"(?<![\w.-])[\w.-]+[ \t]*(?:==|>=|<=|~=)[ \t]*\d+(?:\.\d+)*",
        r"(?<![A-Za-z])v\d+(?:\.\d+)+",
        r"\d+(?:\.\d+)+[ \t]*版")),
    NonClaim("名字里的数", "UTF-8、GPT-3.5、float32、q0、d_k、macOS 14、RTX 4090、Ctrl+1、localhost:8000",
             "按 UTF-8 读", "按 8 位读", (
        r"(?<![A-Za-z])(?:[A-Z][A-Za-z]*|utf|iso|latin)-\d+(?:\.\d+)?(?![\d.])",
        r"(?<![A-Za-z])(?:<products>)[ \t]*\d+(?![\d.])",
        r"(?i:Ctrl|Alt|Shift|Cmd|Win)\+\d+",
        r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0):\d+")),
    NonClaim("“零”作名字", "零向量、零矩阵：一类东西的名字，不是个数", "q₀ 改成零向量", "q₀ 改成 0"),
    NonClaim("节号、讲号、列表序号", "§3.2、3.2 节、## 3.2 标题、# 12｜标题、有序列表开头的 1. 2.；## 0.2331 的损失 要绑定",
             "见 3.2 节", "约 3.2", (
        r"\d+(?:\.\d+)+[ \t]*小?(?:节|章)|§[ \t]*\d+(?:\.\d+)*",
        r"^#{1,6}[ \t]+[1-9]\d?(?:\.\d{1,2})*(?![\d.])[ \t]",
        r"^(?:#[ \t]+\d+[ \t]*[｜|]|[\"']?\d+[ \t]*｜)")),
    NonClaim("引用", "图 10.1、式 (10.2.1)、Table 3.2、arXiv:1706.03762、脚注 [^1]", "见图 10.1", "约 10.1", (
        r"(?<![A-Za-z])(?:<references>)[ \t]*[(（]?[ \t]*\d+(?:\.\d+)+[)）]?",
        r"(?<![A-Za-z])(?i:arxiv)[ \t]*[:：]?[ \t]*\d{4}\.\d{4,5}(?:v\d+)?",
        r"\[\^[^\]\s]+\]")),
    NonClaim("引文", "带出处的引文（末行以 —— 开头的引用块）、quote 或 cite 提示框里的数：是出处的话，不是本课的论断",
             "> 原文用了 8 个头。\n>\n> ——《某书》", "> 这里用了 8 个头。"),
    NonClaim("从几数起", "从 0 数起", "位置 4（从 0 数起）", "位置数为 4", (r"从[ \t]*[01][ \t]*(?:开始)?数",)),
    NonClaim("习语", "十字路口、三番五次、二维码、下午三点", "走到十字路口", "走了十个路口", (
        r"<idioms>|(?:上午|下午|晚上|早上)[一二两三四五六七八九十]+点",)),
    NonClaim("字母的算式", "位置 i+1、t−1、2×d、d/2、1/√d、O(1)，函数式 exp(−∞)；但 4×d×d 个、ln(5) 里的数要绑定",
             "读到位置 i+1，exp(−∞) 为零", "读到 1+1，分数为 −∞", (r"(?<![A-Za-z])[OΘΩ][ \t]*\([^()\n]*\)",)),
    NonClaim("代码", "代码块与行内代码（`…`、<code>、<kbd>）里的代码；只写着数、向量或形状的行内代码"
             "（`[3, 2]`、`(3, 4)`、`d_k = 4`）除外；<samp> 是程序的输出，要绑定",
             "写 `x[0] * 2`", "写 `[0, 2]`"),
    NonClaim("构建时打印的数", "执行的代码块与实验打印出来的内容（它们由代码现算）",
             '```python exec="1"\nprint(2)\n```', "```text\n2\n```"),
    NonClaim("文本记号", "写在正文里的片段标记 --8<--", "片段用 --8<-- 引入", "片段用 8 行引入", (r"-+8(?:<|&lt;)-+",)),
]


def _exempt(words: lexicon.Lexicon) -> tuple[re.Pattern, ...]:
    """The non-claims' patterns, their placeholders filled from `words`."""
    filled = {"<software>": lexicon.alternation(words.software), "<products>": lexicon.alternation(words.products),
              "<families>": lexicon.alternation(words.package_families), "<idioms>": lexicon.alternation(words.idioms),
              "<references>": words.nouns(words.references)}
    return tuple(re.compile(re.sub("|".join(filled), lambda m: filled[m.group(0)], pattern), re.M)
                 for entry in NON_CLAIMS for pattern in entry.patterns)


EXEMPT = _exempt(WORDS)


@dataclass
class Token:
    start: int
    end: int
    text: str
    claim: bool  # must be bound or marked when it stands in prose
    segment: int
    ordinal: str = ""  # as written (位置 1, 第 3 行) when it is an ordinal: never bound unless annotated right after
    follows: bool = False  # an ordinal continuing the one before it (the 2 of 位置 1、2)


@dataclass
class Annotation:
    start: int
    end: int
    expr: str | None  # None: {示意}
    segment: int
    refused: bool = False  # already reported; the numbers before it get no second message


@dataclass
class Problem:
    path: str
    line: int
    message: str
    text: str = ""  # written prose to highlight on the served page
    kind: str = "drift"  # what happened: "drift" (numbers), "code" (code failed), "listing" (a shown listing changed),
    # "name" (a name two experiment files define with different values: coursekit.core.names)
    at: int = -1  # of an unbound number: its offset in the scanned text (a proposal is added to it)

    def format(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class Bound:
    """A written number bound to a live value."""

    path: str
    line: int
    start: int
    end: int
    written: str
    live: float
    expr: str
    at: int = 0  # which of the expression's values (flattened) this number is

    @property
    def agrees(self) -> bool:
        return numbers.agrees(self.written, self.live)


@dataclass
class Scan:
    path: str
    text: str
    first_line: int  # line number of the text's first line in the file
    tokens: list[Token] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unbound: list[Token] = field(default_factory=list)  # claims no annotation binds, in order (bind)
    examples: list[list[Token]] = field(default_factory=list)  # the runs {示意} marks, in order (bind)

    def line(self, offset: int) -> int:
        return self.first_line + self.text.count("\n", 0, offset)

    @property
    def expressions(self) -> list[str]:
        """The annotations' expressions to evaluate, each once (not {示意}, not a refused one)."""
        return sorted({a.expr for a in self.annotations if a.expr and not a.refused})

    def context(self, start: int, end: int, pad: int = 12) -> str:
        """The written text around [start, end) on its line, as the reader sees it (no annotations)."""
        line_start = self.text.rfind("\n", 0, start) + 1
        line_end = self.text.find("\n", end)
        line_end = len(self.text) if line_end < 0 else line_end
        keep = [i for i in range(line_start, line_end)
                if not any(a.start <= i < a.end for a in self.annotations)]
        before = [i for i in keep if i < start][-pad:]
        after = [i for i in keep if i >= start][: end - start + pad]
        return "".join(self.text[i] for i in before + after).strip()

    def stripped(self) -> str:
        """The text the reader gets: annotations removed, everything else as written."""
        out, last = [], 0
        for a in self.annotations:
            out.append(self.text[last : a.start])
            last = a.end
        out.append(self.text[last:])
        return "".join(out)


def scan_page(path: str, text: str, first_line: int = 1) -> Scan:
    """Find the numbers a reader sees and the annotations binding them."""
    result = Scan(path, text, first_line)
    visible = scan.visible_mask(text)
    result.annotations = _annotations(text, visible, result)
    hidden = bytearray(visible)
    for a in result.annotations:
        hidden[a.start : a.end] = b"\0" * (a.end - a.start)
    norm = numbers.normalize(text)
    shown = "".join(c if hidden[i] else " " if c != "\n" else "\n" for i, c in enumerate(norm))
    chars = list(shown)
    for m in re.finditer(r"(?<![\w\])）])(!?\[)[^\[\]\n]*(\])(?=[(\[])", norm):  # a link's brackets are markup, not a vector
        for k in (*range(m.start(1), m.end(1)), m.start(2)):
            chars[k] = " "
    shown, where = scan.unescaped(text, "".join(chars))  # 2\.13 reads 2.13; `where` maps back to `text`
    shown, where, ends = scan.as_read(text, shown, where)  # 0&#46;5 reads 0.5; a zero-width space is not there
    shown = re.sub(r"(?<=\d)[xX](?=\d)", "×", shown)  # 3x4 is a shape, like 3×4
    exempt = [(m.start(), m.end()) for p in EXEMPT for m in p.finditer(shown)]
    quoted = _quotations(text)
    segments = scan.segments(text)
    previous_end = 0  # in `shown`, of the number before
    for m in numbers.NUMBER_RE.finditer(shown):
        if any(s <= m.start() and m.end() <= e for s, e in exempt):
            continue
        if numbers.chinese(m.group(0)) and numbers.chinese_value(m.group(0)) is None:
            continue  # 两三个, 一一: an estimate, or no numeral
        start, end = where[m.start()], ends[m.end() - 1]
        segment = segments(start)
        previous = result.tokens[-1] if result.tokens else None
        ordinal, follows = _ordinal(shown, m, previous, previous_end, segment)
        written = "".join(text[where[k]] if ends[k] == where[k] + 1 else shown[k] for k in range(m.start(), m.end()))
        claim = not ordinal and not any(a <= start < b for a, b in quoted) and _claim(shown, m)
        result.tokens.append(Token(start, end, written, claim, segment, ordinal, follows))
        previous_end = m.end()
    for a in result.annotations:
        a.segment = segments(a.start)
    result.problems += typed_in_blocks(result)
    return result


def _printed(tree: ast.AST) -> set[int]:
    """The strings a print() prints as they are (core/printed.py checks those): not through a call."""
    found, stack = set(), [a for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "print"
                           for a in n.args]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Attribute) and node.func.attr == "format"):
            continue
        found.add(id(node))
        stack.extend(ast.iter_child_nodes(node))
    return found


PROSE = re.compile(r"[\u4e00-\u9fff]")  # a string holding Chinese is prose a reader reads
EXAMPLE_COMMENT = re.compile(r"#.*示意")


def typed_in_blocks(result: Scan) -> list[Problem]:
    """The numbers typed into the prose strings of a page's executed Python blocks (a figure's
    caption, the literal text of an f-string): the reader sees them in the block's output, and no
    code computed them. A standalone string prints nothing; what print() prints as it is, core/printed.py
    reads; a line whose comment says 示意 is an example."""
    found = []
    for f in scan.fences(result.text):
        if not (f.executed and f.lang in ("python", "py", "python3")):
            continue
        try:
            tree = syntax.parse("\n".join(f.lines))
        except SyntaxError:
            continue  # the block's run reports it
        standalone = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)} | _printed(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and PROSE.search(node.value)):
                continue
            source = f.lines[node.lineno - 1] if node.lineno <= len(f.lines) else ""
            if id(node) in standalone or EXAMPLE_COMMENT.search(source.split("#", 1)[-1] if "#" in source else ""):
                continue
            typed = [t.text for t in scan_page("", node.value).tokens if t.claim]
            if typed:
                shown = node.value if len(node.value) <= 40 else node.value[:39] + "…"
                found.append(Problem(result.path, result.first_line + f.start + node.lineno - 1,
                                     f"执行的代码块在字符串里写了 {'、'.join(typed)}（「{shown}」）：读者在输出里看到它，"
                                     "却没有代码核对；用 f-string 填入现算的值（如 f\"约 {w[1]:.4f}\"），"
                                     "是举例就在这一行末尾注明 # 示意", typed[0]))
    return found


def _quotations(text: str) -> list[tuple[int, int]]:
    """The spans of quotations with their source: a blockquote with an attribution line (> ——《书名》),
    a quote or cite admonition."""
    spans = [(m.start(), m.end()) for m in QUOTED_BLOCK.finditer(text) if ATTRIBUTION.search(m.group(0))]
    return spans + [(m.start(), m.end()) for m in QUOTE_ADMONITION.finditer(text)]


def _annotations(text: str, visible: bytes, result: Scan) -> list[Annotation]:
    found = []
    for m in ANNOTATION.finditer(text):
        if not visible[m.start()]:
            continue
        end = _closing(text, m.end())
        if end is None:
            result.problems.append(Problem(result.path, result.line(m.start()), "绑定标注缺少配对的 }"))
            continue
        body = text[m.end() : end].strip()
        if m.group(1) == "示意":
            if body:
                result.problems.append(Problem(result.path, result.line(m.start()), "{示意} 里不写别的内容"))
            found.append(Annotation(m.start(), end + 1, None, 0))
        elif not body:
            result.problems.append(Problem(result.path, result.line(m.start()), "{=} 里要写一个表达式，例如 {=weights[0]}"))
        elif _literal(body):
            result.problems.append(Problem(
                result.path, result.line(m.start()),
                f"{{={body}}} 只用到数字面量、Python 内置名字和 math/torch/numpy，不读实验代码里的量，核对不了代码："
                "绑定到实验文件里算出的名字（例如 {=weights[0]}；常数也先在实验文件里算好并起名，如 scale = math.sqrt(d)）。"
                "若它用到的名字是实验文件里的变量，请换个不与 Python 内置函数同名的名字"))
            found.append(Annotation(m.start(), end + 1, body, 0, refused=True))
        else:
            found.append(Annotation(m.start(), end + 1, body, 0))
    return found


def _literal(expr: str) -> bool:
    """True when `expr` reads no name of the lesson's (a syntax error is the evaluator's to report).
    Names the expression binds itself (a comprehension's loop variable, `:=`, a lambda's
    parameters) are not the lesson's either."""
    try:
        tree = syntax.parse(expr, mode="eval")
    except SyntaxError:
        return False
    nodes = list(ast.walk(tree))
    own = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    own |= {a.arg for n in nodes if isinstance(n, ast.Lambda) for a in ast.walk(n.args) if isinstance(a, ast.arg)}
    read = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return not read - own - NOT_FROM_THE_LESSON


def _closing(text: str, i: int) -> int | None:
    """Index of the } closing an annotation whose body starts at i (brackets and strings nest)."""
    depth, quote = 0, None
    while i < len(text) and text[i] != "\n":
        c = text[i]
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i if c == "}" else None
            depth -= 1
        i += 1
    return None


def strip_annotations(text: str) -> str:
    """`text` without its annotations, wherever they stand: what a listing, a source page or a
    notebook shows of a Python file whose comments bind their numbers."""
    out, last = [], 0
    for m in ANNOTATION.finditer(text):
        if m.start() < last:
            continue
        end = _closing(text, m.end())
        if end is None:
            continue
        out.append(text[last : m.start()])
        last = end + 1
    out.append(text[last:])
    return "".join(out)


def always_a_claim(token: str) -> bool:
    """Decimals, fractions, percentages and scientific notation: a claim wherever they are written."""
    return re.search(r"[./%eE]", token.lstrip("-−")) is not None


def claims(text: str) -> list[Token]:
    """The numbers in `text` that must be bound, as the guard reads them on a page. A page title has
    no room for an annotation, so the guard fails a title holding one (scripts/new_lesson.py refuses it)."""
    return [t for t in scan_page("", text).tokens if t.claim]


def _ordinal(shown: str, m: re.Match, previous: Token | None, previous_end: int, segment: int) -> tuple[str, bool]:
    """(the label as written, whether it continues the one before) for an integer that names a
    place (第 3 行, 位置 1, 头 0, and the 2 of 位置 1、2); ('', False) for any other number. A measure
    word after the index makes it a count (位置 2 个), and after 第 only a word naming a place keeps it
    a label (第 120 步 says how far a run went); 第 and a Chinese numeral enumerate prose (第二步)."""
    if numbers.chinese(m.group(0)):  # 第三行; but 每个位置二维 counts dimensions
        word = re.search(r"第[ \t*_]*$", shown[max(0, m.start() - 4) : m.start()])
        unit = PLACE.match(shown, m.end()) or COUNTER.match(shown, m.end())
        return ("第" + m.group(0) + (unit.group(0).strip() if unit else "") if word else ""), False
    if not INTEGER.fullmatch(m.group(0)):
        return "", False
    word = LABEL.search(shown, max(0, m.start() - 40), m.start())
    if word:
        unit = COUNTER.match(shown, m.end())
        if unit and not (word.group("label") == "第" and PLACE.match(shown, m.end())):
            return "", False
        end = unit.end() if unit else m.end()
        return " ".join(shown[word.start() : end].replace("*", " ").replace("_", " ").split()), False
    right = shown[m.end() :].lstrip(" \t")
    if (previous and previous.ordinal and previous.segment == segment and ORDINAL_JOIN.fullmatch(shown, previous_end, m.start())
            and not (right and right[0] in OPERATORS)):
        return m.group(0), True
    return "", False


def _letter_arithmetic(shown: str, m: re.Match) -> bool:
    """A number joined by arithmetic to a letter: part of a formula (i+1, t−1, 2×d), not a value; but
    a product a measure word follows counts copies (4×d×d 个), and its coefficient is a claim (n-1 个
    位置 stays a formula: an offset shifts a place)."""
    left = shown[: m.start()].rstrip(" \t")
    right = shown[m.end() :].lstrip(" \t")
    if not ((left and left[-1] in ARITHMETIC and LETTER_BEFORE.search(left[:-1].rstrip(" \t")))
            or (right and right[0] in ARITHMETIC and LETTER_AFTER.match(right[1:].lstrip(" \t")))):
        return False
    times = (left and left[-1] in MULTIPLY) or (right and right[0] in MULTIPLY)
    return not (times and COUNTER.match(shown, FORMULA_REST.match(shown, m.end()).end()))


def _claim(shown: str, m: re.Match) -> bool:
    """Every number is a claim, but for the kinds in NON_CLAIMS that the scan can't exempt by pattern."""
    token = m.group(0)
    if numbers.chinese(token):
        return token not in ("一", "零", "〇")  # 一个, 一次: the article; 零向量: a name (NON_CLAIMS)
    if always_a_claim(token):
        return True
    if _letter_arithmetic(shown, m):
        return False  # i+1, 2×d: a formula
    if numbers.special(token):  # exp(−∞): a limit in a function's notation; 设成 −∞, 算出 nan: a value
        return not FUNCTION_BEFORE.search(shown[: m.start()].rstrip(" \t"))
    return not (_index(shown, m.start()) or _list_number(shown, m))


def _list_number(shown: str, m: re.Match) -> bool:
    marker = LIST_MARKER.match(shown, shown.rfind("\n", 0, m.start()) + 1)
    return bool(marker) and marker.end("n") == m.end()


def _index(shown: str, at: int) -> bool:
    """A number inside the brackets of a subscript: weights[1], V[2, 0], x[:, 0] (a name or a closing
    bracket right before the `[`), not a vector [1, 2] or a[0]=[3, 2]'s value."""
    depth, i = 0, at - 1
    line_start = shown.rfind("\n", 0, at)
    while i > line_start:
        c = shown[i]
        if c == "]":
            depth += 1
        elif c == "[":
            if depth == 0:
                return i > 0 and (shown[i - 1].isalnum() or shown[i - 1] in "_])）₀₁₂₃₄₅₆₇₈₉ᵀ")
            depth -= 1
        i -= 1
    return False


def bind(result: Scan, values: dict[str, dict]) -> list[Bound]:
    """Pair annotations with the numbers before them; record problems on `result`."""
    bound: list[Bound] = []
    taken: set[int] = set()
    previous_end = {}  # segment -> offset after the last annotation in it
    for a in result.annotations:
        floor = previous_end.get(a.segment, -1)
        previous_end[a.segment] = a.end
        near = [t for t in result.tokens if t.segment == a.segment and floor <= t.start < a.start]
        before = _pairable(result, near, a)
        if a.expr is None:
            run = _example_run(result.text, before)
            taken.update(id(t) for t in run)
            result.examples += [[t for t in run if t.claim]] if any(t.claim for t in run) else []
            continue
        if a.refused:
            taken.update(id(t) for t in before)
            continue
        answer = values.get(a.expr, {})
        if "error" in answer:
            result.problems.append(Problem(result.path, result.line(a.start),
                                           f"绑定的表达式 {a.expr} 算不出来：{answer['error']}"))
            taken.update(id(t) for t in before)  # one cause, one message
            continue
        live = answer.get("numbers", [])
        if len(live) > len(before) or not live:
            shown = result.context(before[0].start if before else a.start, a.start)
            why = next((n for n in (_split_note(result, t) for t in before) if n), "")
            ordinals = [t.ordinal for t in near if t.ordinal and t not in before]
            if ordinals:
                why = f"；{'、'.join(ordinals)} 是序数，不算在内{why}"
            result.problems.append(Problem(
                result.path, result.line(a.start),
                f"「{shown}」前面只写了 {len(before)} 个数{_listed(before)}，表达式 {a.expr} 给出 {len(live)} 个值{why}",
                shown))
            taken.update(id(t) for t in before)
            continue
        for at, (token, value) in enumerate(zip(before[len(before) - len(live):], live)):
            taken.add(id(token))
            bound.append(Bound(result.path, result.line(token.start), token.start, token.end, token.text, value,
                               a.expr, at))
    for b in bound:
        if not b.agrees:
            token = next(t for t in result.tokens if t.start == b.start)
            shown = result.context(b.start, b.end)
            result.problems.append(Problem(
                result.path, b.line,
                f"数字漂移：正文写 {b.written}，代码现算 {numbers.show(b.live)}（「{shown}」，表达式 {b.expr}）"
                f"{_split_note(result, token)}", shown))
    for t in result.tokens:
        note = _split_note(result, t)
        if t.claim and id(t) not in taken and not (note and _neighbour_taken(result, t, taken)):
            result.unbound.append(t)
            result.problems.append(Problem(
                result.path, result.line(t.start),
                f"未绑定的数字 {t.text}（「{result.context(t.start, t.end)}」）：{_what_to_write(result.text, t)}{note}",
                t.text, at=t.start))
    result.problems.sort(key=lambda p: p.line)
    return bound


def counted(text: str, t: Token) -> bool:
    """Whether `t` counts things: a Chinese numeral that is no fraction (四分之一 is a share), or a
    whole number before a measure word (7 个字)."""
    return bool((numbers.chinese(t.text) and "分之" not in t.text) or (INTEGER.fullmatch(t.text)
                                            and re.match(rf"[ \t]*(?:{numbers.COUNTERS})", text[t.end :])))


def _what_to_write(text: str, t: Token) -> str:
    """What the author writes after an unbound number: a count is bound to a length or a shape, a
    number inside a written vector with the whole vector."""
    before = text[text.rfind("\n", 0, t.start) + 1 : t.start]
    if before.count("[") > before.count("]") and not counted(text, t):
        return "它在写出的向量里：在整个向量的 ] 后面写 {=表达式} 绑定整个向量（如 [0.5, 0.25]{=weights[0]}），或写 {示意} 标为示例"
    if re.search(r"第[ \t*_]*$", before) and counted(text, t):
        return ("“第 N 步/次/轮”说的是运行走到了哪里，是一个量，不是标号：在它后面写 {=表达式} 绑定代码里的量"
                "（如 {=steps}），或写 {示意} 标为示例")
    if not counted(text, t) and not INTEGER.fullmatch(t.text):
        return "在它后面写 {=表达式} 绑定现算值，或写 {示意} 标为示例"
    unit = re.match(rf"[ \t]*(?:{numbers.COUNTERS})", text[t.end :])
    after = f"「{text[t.start : t.end + unit.end()]}」" if unit else "它"
    return (f"数的是代码里的东西（位置、行、列、维、字、句），就在{after}后面写 {{=表达式}} 绑定它的长度或形状，"
            "如 {=len(names)}、{=x.shape[0]}；没有代码算它（举例、正文自己数的“两件事”、一般的事实），"
            "写 {示意}；是序数，写成“第 N …”")


def unbound_runs(result: Scan) -> list[tuple[list[Token], list[str]]]:
    """The unbound claims of a bound scan as runs a single value could bind (a vector, a shape, one
    number: joined by brackets and separators only, never by a full-width comma outside brackets; a
    written product line with its result after the `=`), each with the names the annotations of its
    paragraph and the ones around it read."""
    runs: list[list[Token]] = []
    for t in result.unbound:
        last = runs[-1][-1] if runs else None
        between = result.text[last.end : t.start] if last is not None else ""
        if (last is not None and last.segment == t.segment and not _clauses(result.text, last, between)
                and (re.fullmatch(r"[\s,，、;；\[\]()（）×x*·+]*", between)
                     or (re.fullmatch(r"[ \t]*[=≈][ \t]*", between)  # a product line's result: a×b + c×d = e
                         and "×" in result.text[runs[-1][0].end : last.start]))):
            runs[-1].append(t)
        else:
            runs.append([t])
    out = []
    for run in runs:
        near = {run[0].segment - 1, run[0].segment, run[0].segment + 1}
        names = sorted({n.id for a in result.annotations if a.expr and a.segment in near
                        for n in ast.walk(_parsed(a.expr)) if isinstance(n, ast.Name)})
        out.append((run, names))
    return out


def _clauses(text: str, last: Token, between: str) -> bool:
    """Whether a full-width comma outside brackets parts two numbers: two clauses (exp(0) = 1，0 分照样…),
    not one vector ([1，0] is one)."""
    if "，" not in between:
        return False
    before = text[text.rfind("\n", 0, last.end) + 1 : last.end] + between[: between.index("，")]
    return before.count("[") + before.count("(") <= before.count("]") + before.count(")")


def _parsed(expr: str) -> ast.AST:
    try:
        return syntax.parse(expr, mode="eval")
    except SyntaxError:
        return syntax.parse("0", mode="eval")


def _pairable(result: Scan, near: list[Token], a: Annotation) -> list[Token]:
    """The numbers before annotation `a` that its values may pair with: never an ordinal, unless
    the annotation stands right after it (位置 4{=i}; with the ordinals listed with it, 位置 1、2{=ij})."""
    own: list[Token] = []
    if near and near[-1].ordinal and re.fullmatch(r"[\s*_]*", result.text[near[-1].end : a.start]):
        i = len(near) - 1
        while near[i].follows and i > 0 and near[i - 1].ordinal:
            i -= 1
        own = near[i:]
    return [t for t in near if not t.ordinal or t in own]


def _listed(tokens: list[Token], most: int = 10) -> str:
    """（0.7071、-inf、…）: the numbers read, as written; the middle of a long run elided."""
    if not tokens:
        return ""
    texts = [t.text for t in tokens]
    if len(texts) > most:
        texts = texts[: most // 2] + ["…"] + texts[-(most // 2) :]
    return f"（{'、'.join(texts)}）"


def _example_run(text: str, before: list[Token]) -> list[Token]:
    """The numbers a {示意} marks: the one right before it (a unit may follow it, 0.5 秒), and
    those before that joined to it by brackets, separators and operators only ([1, 2], 2×0.5)."""
    run = before[-1:]
    for t in reversed(before[:-1]):
        if not re.fullmatch(r"[\s,，、\[\]()（）×*·+=≈/÷−\-:：;；%]*", text[t.end : run[0].start]):
            break
        run.insert(0, t)
    return run


def _neighbour_taken(result: Scan, token: Token, taken: set[int]) -> bool:
    i = result.tokens.index(token)
    return any(id(t) in taken for t in result.tokens[max(0, i - 1) : i + 2] if t is not token)


def _split_note(result: Scan, token: Token) -> str:
    """Say so when Markdown markup or punctuation cuts a written number in two."""
    i, tokens = result.tokens.index(token), result.tokens
    pairs = ([(tokens[i - 1], token)] if i > 0 else []) + ([(token, tokens[i + 1])] if i + 1 < len(tokens) else [])
    for a, b in pairs:
        between = result.text[a.end : b.start]
        if re.fullmatch(r"[*_~`]+", between):
            return f"；{a.text}{between}{b.text} 被 Markdown 标记拆成了两个数，请把标记放在整个数的两边"
        if between in (",", "，") and re.fullmatch(r"\d{3}", b.text):
            return f"；{a.text}{between}{b.text} 里的逗号把一个数分成了两个，请不要写千位分隔符"
    return ""


def fix(text: str, bound: list[Bound]) -> tuple[str, list[tuple[Bound, str]]]:
    """`text` with every drifted number rewritten at its written precision; and what changed."""
    changes = []
    for b in sorted(bound, key=lambda b: -b.start):
        if b.agrees:
            continue
        new = numbers.rewrite(b.written, b.live)
        if new is None or new == b.written:
            continue
        text = text[: b.start] + new + text[b.end :]
        changes.append((b, new))
    return text, changes[::-1]
