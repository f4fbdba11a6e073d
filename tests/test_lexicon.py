"""The words the kit reads prose with are data: the general language beside the kit, the course's
words in the course's glossary. A new term is a line of data; a bad line fails at its file and line."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coursekit.core import lexicon

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import ast
import json
import re
from coursekit.core import candidates, guard
claims = [t.text for t in guard.scan_page("", "块 3 的输出和块 4 的输出。").tokens if t.claim]
print(json.dumps({"claims": claims, "stems": sorted(candidates.stems("把块的输出拼起来"))}))
"""


def _probe(tmp_path: Path, glossary: str) -> dict:
    """Run PROBE against a copy of the kit beside a course glossary holding `glossary`."""
    shutil.copytree(ROOT / "coursekit", tmp_path / "coursekit", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "glossary.toml").write_text(glossary, encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin"},
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_new_term_and_a_new_label_need_only_a_line_of_the_courses_glossary(tmp_path):
    glossary = (ROOT / "lessons" / "glossary.toml").read_text(encoding="utf-8")
    added = glossary.replace("[terms]\n", '[terms]\n"块" = ["block"]\n', 1).replace('labels = ["', 'labels = ["块", "', 1)
    assert added.count("块") == 2
    assert _probe(tmp_path / "before", glossary) == {"claims": ["3", "4"], "stems": ["output"]}
    assert _probe(tmp_path / "after", added) == {"claims": [], "stems": ["block", "output"]}  # 块 3: a label, as 头 0 is


BAD = [
    ('[measure]\n"个" = ["plaice"]\n', 2, "unknown role 'plaice'"),
    ('[words]\nlabels = "头"\n', 2, "labels must be a list of words"),
    ('[terms]\n"查询" = ["q"\n', 2, ""),
    ('\n[vocabulary]\n"x" = 1\n', 2, "unknown table [vocabulary]"),
    ('[words]\nlabel = ["头"]\n', 2, "unknown list label"),
]


@pytest.mark.parametrize("text, line, says", BAD, ids=[b[2] or "syntax" for b in BAD])
def test_a_bad_glossary_line_fails_naming_its_file_and_line(tmp_path, text, line, says):
    glossary = tmp_path / "glossary.toml"
    glossary.write_text(text, encoding="utf-8")
    with pytest.raises(lexicon.LexiconError) as err:
        lexicon.load(glossary=glossary)
    assert str(err.value).startswith(f"{glossary}:{line}: ") and says in str(err.value)


def test_the_three_lists_of_measure_words_are_one():
    words = lexicon.LEXICON
    measures = {m.word for m in words.measures}
    assert {m.word for m in words.measures if m.place} <= measures and set(words.axes()) <= measures
    assert "步" in measures and not next(m for m in words.measures if m.word == "步").place  # 第 120 步 states a quantity


SENTENCE = re.compile(r"[，。：；、！？]|\{[=示]")  # a message's or a page's text, not a rule


def _rule_strings(tree: ast.AST):
    """The strings a kit module reads prose with: regex patterns, members of collections of words,
    and strings tested with `in` (messages, docstrings, f-strings and page text are not rules)."""
    for node in _rule_nodes(tree):
        if isinstance(node.value, str) and not SENTENCE.search(node.value):
            yield node


def _rule_nodes(tree: ast.AST):
    calls = {"compile", "search", "match", "fullmatch", "findall", "finditer", "split", "sub"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in calls and node.args:
            yield from (n for n in ast.walk(node.args[0]) if isinstance(n, ast.Constant))
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(n, ast.Constant) for n in node.elts):
            yield from node.elts
        elif isinstance(node, ast.Dict):
            yield from (n for n in (*node.keys, *node.values) if isinstance(n, ast.Constant))
        elif isinstance(node, ast.Compare) and any(isinstance(o, (ast.In, ast.NotIn)) for o in node.ops):
            yield from (n for n in [node.left, *node.comparators] if isinstance(n, ast.Constant))


def test_no_word_of_the_course_is_in_the_kits_rules():
    """The course's own words (its glossary, less what the general language has too) are data: no
    regex, word list or `in` test of the kit holds one."""
    course = lexicon.load(language=ROOT / "no-language.toml")  # the glossary alone
    general = lexicon.load(glossary=ROOT / "no-glossary.toml")
    words = {t.word for f in ("terms", "clause_terms", "counted") for t in getattr(course, f)}
    words |= set(course.labels) | set(course.readable) | set(course.not_terms) | {w for w, _ in course.measured}
    words -= {m.word for m in general.measures} | set(general.labels) | {w for t in general.cues for w in t.stems}
    words = {w for w in words if re.search(r"[\u4e00-\u9fff]", w)}
    assert {"可读", "查询", "读取比例"} <= words
    found = [f"{p.relative_to(ROOT)}:{n.lineno}: {n.value!r} holds {w}"
             for p in sorted((ROOT / "coursekit").rglob("*.py")) if "example" not in p.parts  # a lesson of its own
             for n in _rule_strings(ast.parse(p.read_text(encoding="utf-8")))
             for w in words if w in n.value]
    assert found == []


def test_how_the_text_around_a_number_is_read_holds_no_word_of_its_own():
    """The words queries.py reads around a number (位置 1、2 和 3, 第 2 行, 这一行的) come from the
    lexicon's cues and measure words: no pattern in it spells a Chinese word."""
    path = ROOT / "coursekit/core/queries.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"{path.name}:{node.lineno}: {c.value!r}" for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in {"compile", "search", "match", "fullmatch", "split", "findall"}
             for arg in node.args[:1] for c in ast.walk(arg)
             if isinstance(c, ast.Constant) and isinstance(c.value, str) and re.search(r"[\u4e00-\u9fff]", c.value)]
    assert found == []
