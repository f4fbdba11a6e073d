"""The words the guard and the proposer read prose with, as data: the general language in
`language.toml` beside this file, the course's own words in the course's glossary
(`lessons/glossary.toml`). Both load into frozen records; a bad file or entry fails with its path
and line. No rule module holds a word list of its own: they compile what is here.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

LANGUAGE = Path(__file__).with_name("language.toml")
GLOSSARY = Path(__file__).resolve().parents[2] / "lessons" / "glossary.toml"
ROLES = ("place", "axis", "rows", "columns")


class LexiconError(ValueError):
    """A word file the kit can't read: the message names the file and line."""


@dataclass(frozen=True)
class Measure:
    """A measure word: after a number it counts (三个, 7 个字)."""

    word: str
    place: bool  # after 第 N it names a place (第 3 行), not a quantity (第 120 步)
    axis: bool  # a count of it may be any array's size (三个位置)
    along: str = ""  # "rows" or "columns": the axis of a table a count of it measures (两行)


@dataclass(frozen=True)
class Term:
    """A word of the prose and the stems of the names the code gives what it stands for."""

    word: str
    stems: tuple[str, ...]


@dataclass(frozen=True)
class Lexicon:
    measures: tuple[Measure, ...]
    labels: tuple[str, ...]  # a noun before an index: 位置 0, 头 1
    references: tuple[str, ...]  # a noun before a dotted reference: 图 10.1
    word_starts: tuple[str, ...]  # characters after which a word starts (见图 3)
    idioms: tuple[str, ...]
    products: tuple[str, ...]
    software: tuple[str, ...]
    package_families: tuple[str, ...]  # how a package's name starts or ends: mkdocs-…, …-extensions
    functions: tuple[str, ...]  # written without parentheses: sin 1, ln 4
    terms: tuple[Term, ...] = ()
    clause_terms: tuple[Term, ...] = ()
    counted: tuple[Term, ...] = ()
    measured: tuple[tuple[str, str], ...] = ()  # a measure word that counts one thing only: 道 → 题
    not_terms: tuple[str, ...] = ()
    readable: tuple[str, ...] = ()  # words of a count of what a mask lets be read (三个可读位置)
    cues: tuple[Term, ...] = ()  # what the words around a number say it is: a sum, every row, …
    owned: tuple[Term, ...] = ()  # a term (word) after these words (stems) is theirs: 指数值

    def counters(self) -> str:
        """Every measure word as one alternation, longest first (位置 before 位)."""
        return alternation(m.word for m in self.measures)

    def places(self) -> str:
        return alternation(m.word for m in self.measures if m.place)

    def axes(self) -> tuple[str, ...]:
        return tuple(m.word for m in self.measures if m.axis)

    def nouns(self, words) -> str:
        """An alternation of nouns where each stands as a word: a one-character one (图, 头) only
        after no Chinese character or after one of `word_starts`; 第 anywhere (it only prefixes)."""
        starts = "".join(re.escape(c) for c in self.word_starts)
        single = [w for w in words if len(w) == 1 and "\u4e00" <= w <= "\u9fff" and w != "第"]
        rest = alternation(w for w in words if w not in single)
        alone = f"(?:(?<![\u4e00-\u9fff])|(?<=[{starts}]))(?:{alternation(single)})" if single else ""
        return "|".join(x for x in (rest, alone) if x)

    def cue(self, name: str) -> str:
        """The words of one cue (sum, every_row, …) as an alternation; one that matches nothing if absent."""
        return alternation(w for t in self.cues if t.word == name for w in t.stems) or "(?!)"

    def measuring(self, axis: str) -> str:
        """The measure words whose count measures `axis` ("rows": 行) as one alternation."""
        return alternation(m.word for m in self.measures if m.along == axis) or "(?!)"

    def along(self, word: str) -> str:
        return next((m.along for m in self.measures if m.word == word and m.along), "")

    def stems(self, field: str) -> dict[str, tuple[str, ...]]:
        return {t.word: t.stems for t in getattr(self, field)}


def alternation(words) -> str:
    """A regex alternation of `words`, longest first, English words in any case."""
    words = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(f"(?i:{re.escape(w)})" if w.isascii() else re.escape(w) for w in words)


def _line(text: str, key: str) -> int:
    for n, line in enumerate(text.splitlines(), 1):
        if re.match(rf'\s*(?:"?{re.escape(key)}"?\s*=|\[{re.escape(key)}\])', line) or f'"{key}"' in line:
            return n
    return 1


def _read(path: Path) -> tuple[dict, str]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}, ""
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        line = re.search(r"line (\d+)", str(e))
        at = line.group(1) if line else len(text.splitlines()) if "end of document" in str(e) else 1
        raise LexiconError(f"{path}:{at}: {e}") from None


def _strings(path: Path, text: str, key: str, value) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise LexiconError(f"{path}:{_line(text, key)}: {key} must be a list of words, not {value!r}")
    return tuple(value)


def _terms(path: Path, text: str, table) -> tuple[Term, ...]:
    if not isinstance(table, dict):
        raise LexiconError(f"{path}:1: expected a table of word = [stems], not {table!r}")
    return tuple(Term(word, _strings(path, text, word, stems)) for word, stems in table.items())


TABLES = ("terms", "clause_terms", "counted", "cues", "owned")  # tables of word = [words]
KNOWN = {"measure", "words", "measured", *TABLES}
WORDS = {"labels", "references", "word_starts", "package_families", "functions", "idioms", "products", "software", "not_terms",
         "readable"}


def load(language: Path = LANGUAGE, glossary: Path = GLOSSARY) -> Lexicon:
    """The general language and the course's glossary, merged (a glossary only adds words)."""
    parts: dict[str, list] = {f.name: [] for f in fields(Lexicon)}
    for path in (language, glossary):
        data, text = _read(path)
        for key in data:
            if key not in KNOWN:
                raise LexiconError(f"{path}:{_line(text, key)}: unknown table [{key}]; known: {', '.join(sorted(KNOWN))}")
        for word, roles in data.get("measure", {}).items():
            roles = _strings(path, text, word, roles) if roles else ()
            wrong = [r for r in roles if r not in ROLES]
            if wrong:
                raise LexiconError(f"{path}:{_line(text, word)}: {word}: unknown role {wrong[0]!r}; roles: {', '.join(ROLES)}")
            along = next((r for r in roles if r in ("rows", "columns")), "")
            parts["measures"].append(Measure(word, "place" in roles, "axis" in roles, along))
        for key, value in data.get("words", {}).items():
            if key not in WORDS:
                raise LexiconError(f"{path}:{_line(text, key)}: unknown list {key}; known: {', '.join(sorted(WORDS))}")
            parts[key].extend(_strings(path, text, key, value))
        for table in TABLES:
            parts[table].extend(_terms(path, text, data.get(table, {})))
        for word, thing in data.get("measured", {}).items():
            if not isinstance(thing, str):
                raise LexiconError(f"{path}:{_line(text, word)}: {word} must name one thing, not {thing!r}")
            parts["measured"].append((word, thing))
    return Lexicon(**{k: tuple(v) for k, v in parts.items()})


LEXICON = load()
