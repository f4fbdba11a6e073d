"""What a reader copies from a lesson runs: its first listing on its own, and every listing pasted in
the order the page shows them; the page shows each listing exactly as the file that runs has it.

A listing is a code block the page shows, taken from the file that runs (`file="path:section"` on a
block with `source=`). Each is run as a reader would: pasted into one file and run with `python`
from the repository root.
"""

import os
import re
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup

from coursekit.core import scan
from tests.conftest import ROOT, lesson_params

MARKER = re.compile(r"^\s*# --8<-- \[(start|end):(\w+)\]\s*$")


def snippet(ref: str) -> str:
    """The text pymdownx.snippets puts on the page for "path" or "path:section", marker lines left out."""
    path, _, section = ref.partition(":")
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    if section:
        starts = [i for i, line in enumerate(lines) if line.strip() == f"# --8<-- [start:{section}]"]
        ends = [i for i, line in enumerate(lines) if line.strip() == f"# --8<-- [end:{section}]"]
        assert len(starts) == len(ends) == 1 and starts[0] < ends[0], f"section {ref} not found once"
        lines = lines[starts[0] + 1:ends[0]]
    return "\n".join(line for line in lines if not MARKER.match(line))


def run_pasted(code: str) -> subprocess.CompletedProcess:
    """`python pasted.py` from the repository root: the code goes in through stdin, cwd is the root."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-"], input=code, cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


def listing_fences(markdown: str) -> list[tuple[scan.Fence, list[str]]]:
    """Each block the page *shows* from files, with its `path:section` refs: `file="..."` and `source=`."""
    found = []
    for fence in scan.fences(markdown):
        shown = re.search(r'\bfile="([^"]+)"', fence.info)
        if shown and "source=" in fence.info:
            found.append((fence, shown[1].split()))
    return found


def page_listings(markdown: str) -> list[str]:
    """The `path:section` of every listing the page shows, in page order."""
    return [ref for _, refs in listing_fences(markdown) for ref in refs]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params())
def test_every_listing_pasted_one_after_another_runs_and_prints_what_the_page_shows(lesson, built_site):
    markdown = lesson.markdown()
    result = run_pasted("\n\n".join(snippet(ref) for ref in page_listings(markdown)))
    assert result.returncode == 0, result.stderr
    assert "grad_fn" not in result.stdout  # printed tensors show their values, not autograd's bookkeeping
    # the output box under each listing from a lesson file is what the pasted listings print too
    outputs = iter(c.get_text() for c in BeautifulSoup(lesson.html(built_site), "html.parser")
                   .select("article div.language-output pre code"))
    fences = [f for f in scan.fences(markdown) if 'exec="1"' in f.info and 'result="output"' in f.info]
    shown = [(f, next(outputs)) for f in fences]
    listed = [out for f, out in shown if re.search(r'\bfile="', f.info) and "source=" in f.info]
    assert listed
    missing = [out for out in listed if out.strip() not in result.stdout]
    assert missing == []


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params())
def test_the_page_shows_each_listing_as_its_file_has_it(lesson, built_site):
    article = BeautifulSoup(lesson.html(built_site), "html.parser").select_one("article")
    shown = {squash(block.get_text()) for block in article.select("div.language-python pre code")}
    fences = listing_fences(lesson.markdown())
    assert fences
    for fence, refs in fences:
        expected = squash("\n".join(snippet(ref) for ref in refs))
        assert expected in shown, (fence.start, refs)
        assert "--8<--" not in expected


def test_a_listing_that_leaves_out_what_it_needs_is_caught():
    # the bug these tests guard against: a page once showed a function without the helper it calls
    code = snippet("tests/data/listings.py:uses_helper")
    assert "def check_positive" not in code
    result = run_pasted(code)
    assert result.returncode != 0 and "NameError: name 'check_positive' is not defined" in result.stderr
    whole = run_pasted((ROOT / "tests/data/listings.py").read_text(encoding="utf-8"))
    assert whole.returncode == 0 and "加倍： 4" in whole.stdout


def test_a_section_named_twice_or_not_at_all_is_refused():
    with pytest.raises(AssertionError, match="not found once"):
        snippet("tests/data/listings.py:no_such_section")
