"""A page's shown code, pasted block after block in page order, runs: a name a block reads that only
an unshown line of its file binds is reported at the block (coursekit.core.pasted), on literal
inputs, on a page read the way the extension reads it, and never on the course's own pages."""

from __future__ import annotations

import textwrap

import pytest

from coursekit.core import pasted, scan
from coursekit.extensions.checks import paste_problems
from tests.conftest import ROOT, lesson_params


def listing(line: int, path: str, source: str, section: str) -> pasted.Listing:
    """The block at page line `line` showing `section` of the file `source` (its text)."""
    lines = source.split("\n")
    start = next(i for i, s in enumerate(lines) if f"[start:{section}]" in s)
    end = next(i for i, s in enumerate(lines) if f"[end:{section}]" in s)
    return pasted.Listing(line, (pasted.Part(path, "\n".join(lines[start + 1 : end]), start + 2, end),))


def missing(*blocks: tuple[str, str], sources: dict[str, str] | None = None) -> list[tuple[str, int, str, int | None]]:
    """(name, page line, file:line, later block's line) for blocks given as (file, section), at page
    lines 10, 20, ... of the files in `sources`."""
    sources = {k: textwrap.dedent(v) for k, v in (sources or {}).items()}
    listings = [listing(10 * (i + 1), path, sources[path], section) for i, (path, section) in enumerate(blocks)]
    return [(m.name, m.listing.line, f"{m.path}:{m.defined}", m.later) for m in pasted.missing(listings, sources)]


A = """\
    import math
    from collections import Counter

    # --8<-- [start:one]
    n = 3
    print(math.sqrt(n))
    # --8<-- [end:one]

    # --8<-- [start:two]
    import math
    print(math.sqrt(n), Counter("ab"))
    # --8<-- [end:two]
    """


def test_an_import_just_outside_the_shown_section_is_reported_at_the_block_with_its_line():
    assert missing(("a.py", "one"), sources={"a.py": A}) == [("math", 10, "a.py:1", None)]


def test_a_name_an_earlier_block_bound_is_no_problem_and_a_later_one_is_named():
    assert missing(("a.py", "two"), ("a.py", "one"), sources={"a.py": A}) == [
        ("Counter", 10, "a.py:2", None), ("n", 10, "a.py:5", 20)]  # math: the block imports it itself


def test_a_block_binding_a_name_another_file_uses_counts_whatever_file_it_shows():
    b = """\
        from a import n

        # --8<-- [start:use]
        print(n * 2)
        # --8<-- [end:use]
        """
    a = "# --8<-- [start:one]\nn = 3\n# --8<-- [end:one]\n"
    assert missing(("a.py", "one"), ("b.py", "use"), sources={"a.py": a, "b.py": b}) == []
    assert missing(("b.py", "use"), sources={"b.py": b}) == [("n", 10, "b.py:1", None)]


FUNCTION = """\
    import statistics

    # --8<-- [start:define]
    def middle(xs):
        ys = sorted(xs)
        return statistics.median(ys)
    # --8<-- [end:define]

    # --8<-- [start:call]
    print(middle([3, 1, 2]))
    # --8<-- [end:call]
    """


def test_a_function_body_reads_its_names_when_it_is_called_not_when_it_is_defined():
    assert missing(("f.py", "define"), sources={"f.py": FUNCTION}) == []
    found = pasted.missing([listing(10, "f.py", textwrap.dedent(FUNCTION), "define"),
                            listing(20, "f.py", textwrap.dedent(FUNCTION), "call")], {"f.py": textwrap.dedent(FUNCTION)})
    assert [(m.name, m.listing.line, m.via) for m in found] == [("statistics", 20, "middle")]
    assert "调用 middle 时用到 statistics，它由 f.py:1 定义，那一行页面上没有展示" in found[0].message()


def test_calling_a_class_reads_what_its_methods_read():
    source = """\
        import torch

        # --8<-- [start:model]
        class Model:
            def __init__(self, n):
                self.w = torch.zeros(n)
        # --8<-- [end:model]
        # --8<-- [start:make]
        m = Model(3)
        # --8<-- [end:make]
        """
    assert missing(("m.py", "model"), ("m.py", "make"), sources={"m.py": source}) == [("torch", 20, "m.py:1", None)]


@pytest.mark.parametrize("code", [
    "print(len([1]))",  # a builtin
    "print(unknown_name)",  # bound nowhere in the file: not a line the paste lacks
    "rows = [x * 2 for x in range(3)]\nprint(rows)",  # a comprehension's own name
    "for i in range(3):\n    total = i\n    print(total)",  # bound in a loop, then read in it
    "try:\n    pass\nexcept ValueError as err:\n    print(err)",
    "x = 1\nx += 1",
    "def helper():\n    return never_called",  # defined, never called
    "    indented = 1\n  broken",  # not Python the parser can read: no claim
])
def test_what_a_paste_would_run_is_not_reported(code):
    source = "total = 0\nerr = None\nx = 0\nnever_called = 1\nindented = 0\nrows = []\n\n# --8<-- [start:s]\n" \
             f"{code}\n# --8<-- [end:s]\n"
    assert missing(("s.py", "s"), sources={"s.py": source}) == []


def test_a_name_bound_only_by_a_later_block_names_that_block():
    source = """\
        # --8<-- [start:use]
        print(seen)
        # --8<-- [end:use]
        # --8<-- [start:bind]
        seen = 1
        # --8<-- [end:bind]
        """
    found = pasted.missing([listing(10, "s.py", textwrap.dedent(source), "use"),
                            listing(30, "s.py", textwrap.dedent(source), "bind")], {"s.py": textwrap.dedent(source)})
    assert [(m.name, m.later) for m in found] == [("seen", 30)]
    assert "它在后面第 30 行的代码块里才出现（s.py:5）" in found[0].message()


PAGE = """\
# 一页

```python exec="1" file="pkg/a.py:one" source="above" result="output"
```

```python exec="1" file="pkg/a.py:two" result="output"
```
"""


def test_a_page_is_read_as_the_extension_reads_it_each_problem_at_its_fence(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/a.py").write_text(textwrap.dedent(A), encoding="utf-8")
    _, fm_lines, body = scan.front_matter(PAGE)
    problems = paste_problems(tmp_path, "docs/page.md", body, fm_lines + 1, shows_by_default=False)
    assert [p.format() for p in problems] == [
        "docs/page.md:3: 这段代码按页面顺序粘贴运行会出错：用到 math，它由 pkg/a.py:1 定义，那一行页面上没有展示；"
        "把那一行放进展示的段落，或在前面的代码块里展示它"]
    assert problems[0].kind == "code"
    # a block that shows no code (no source=) is not pasted; on a page of no lesson a listing shows
    # its code without saying so, so the second block's Counter is read there too
    shown_anyway = paste_problems(tmp_path, "docs/page.md", body, fm_lines + 1, shows_by_default=True)
    assert [(p.line, p.message.split("，")[0]) for p in shown_anyway] == [
        (3, "这段代码按页面顺序粘贴运行会出错：用到 math"), (6, "这段代码按页面顺序粘贴运行会出错：用到 Counter")]


def test_a_page_whose_listing_names_no_file_makes_no_claim_after_it(tmp_path):
    text = '```python exec="1" file="pkg/gone.py:one" source="above"\n```\n'
    assert paste_problems(tmp_path, "docs/page.md", text, 1, shows_by_default=True) == []


@pytest.mark.parametrize("lesson", lesson_params())
def test_each_lessons_page_runs_pasted_in_page_order(lesson):
    _, fm_lines, body = scan.front_matter(lesson.markdown())
    assert [p.format() for p in paste_problems(ROOT, lesson.page, body, fm_lines + 1, shows_by_default=False)] == []
