"""What a reader copies from lesson 10 runs: the first listing on its own, and every listing pasted in order.

A listing is a code block the page shows, taken from the file that runs (`file="path:section"`).
LISTINGS is the order the page shows them in (HANDOFF-model.md); each is run as a reader would: pasted
into one file and run with `python` from the repository root.
"""

import os
import re
import subprocess
import sys


from coursekit import scan
from tests.conftest import LESSON, ROOT

LISTINGS = [
    "lessons/l10/attention_2d.py:listing",  # the author's listing, three fused lines
    "tinylm/attention.py:attention",         # tinylm's four labelled lines
    "lessons/l10/component.py:listing",
    "lessons/l10/projections.py:listing",
    "lessons/l10/intervention.py:listing",
    "lessons/l10/two_models.py:data",
    "lessons/l10/two_models.py:train",
    "lessons/l10/two_models.py:table",
    "lessons/l10/two_models.py:weights",
    "lessons/l10/exercises.py:first",
    "lessons/l10/exercises.py:second",
]
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
                          text=True, timeout=300)


def test_the_first_listing_runs_on_its_own_with_its_imports():
    code = snippet(LISTINGS[0])
    assert code.startswith("import math\nimport torch\n")
    result = run_pasted(code)
    assert result.returncode == 0, result.stderr
    assert "grad_fn" not in result.stdout
    assert "tensor([[0.8022, 1.1978]," in result.stdout


def test_the_first_listing_keeps_the_authors_code_lines_in_order():
    seed = (ROOT / "tests/data/lesson10-seed.txt").read_text(encoding="utf-8").splitlines()
    begin, end = seed.index("import math"), seed.index("assert torch.allclose(weights.sum(dim=-1), torch.ones(3))")
    listing = iter(snippet(LISTINGS[0]).splitlines())
    missing = [line for line in seed[begin:end + 1] if line.strip() and not any(line == got for got in listing)]
    assert missing == []


def test_every_listing_pasted_one_after_another_runs():
    code = "\n\n".join(snippet(ref) for ref in LISTINGS)
    result = run_pasted(code)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "grad_fn" not in out
    for printed in ("读取比例 a₀  [0.4011, 0.1978, 0.4011]", "| 加上自注意力的模型 |", "第一行比例： [0.3333, 0.3333, 0.3333]"):
        assert printed in out


def test_a_listing_that_leaves_out_what_it_needs_is_caught():
    # the bug this file guards against: the page showed `attention` without its helper `check_shapes`
    code = snippet(LISTINGS[0]) + "\n\n" + snippet("tinylm/attention.py:attention").split("\n\ndef check_shapes")[0]
    code += "\n\nattention(q, k, v)\n"
    result = run_pasted(code)
    assert result.returncode != 0 and "NameError: name 'check_shapes' is not defined" in result.stderr


def page_listings(markdown: str) -> list[str]:
    """The `path:section` of every code block the page *shows*: `file="..."` on a block with `source=`."""
    refs = []
    for fence in scan.fences(markdown):
        shown = re.search(r'\bfile="([^"]+)"', fence.info)
        if shown and "source=" in fence.info:
            refs += shown[1].split()
    return refs


def test_the_page_shows_exactly_these_listings_in_this_order():
    assert page_listings((ROOT / LESSON).read_text(encoding="utf-8")) == LISTINGS
