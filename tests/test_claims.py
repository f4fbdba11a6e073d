"""The guard's rule: every number a reader sees is a claim, except the documented NON_CLAIMS."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from coursekit.core import guard


@pytest.mark.parametrize("entry", guard.NON_CLAIMS, ids=lambda e: e.kind)
def test_each_documented_non_claim_holds_no_claim_and_its_neighbour_does(entry):
    assert guard.claims(entry.example) == [], entry.example
    assert guard.claims(entry.neighbour), entry.neighbour


RED_TEAM = tomllib.loads((Path(__file__).parent / "data" / "claims_red_team.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", RED_TEAM["breaks"] + RED_TEAM["background"], ids=lambda c: c["why"][:60])
def test_a_red_team_case_reads_as_the_reader_takes_it(case):
    """A number stating a quantity is a claim wherever it stands; one about the world outside is not."""
    assert [t.text for t in guard.scan_page("", case["text"]).tokens if t.claim] == case["claims"], case["text"]


def test_every_pattern_the_guard_exempts_belongs_to_a_documented_row():
    assert guard.EXEMPT == guard._exempt(guard.WORDS)
    assert all(isinstance(p, str) and p for e in guard.NON_CLAIMS for p in e.patterns)
    assert len(guard.EXEMPT) == sum(len(e.patterns) for e in guard.NON_CLAIMS)


@pytest.mark.parametrize("case", RED_TEAM["block_strings"], ids=lambda c: c["why"][:60])
def test_a_number_typed_into_an_executed_blocks_string_is_questioned(case):
    found = guard.typed_in_blocks(guard.Scan("docs/x.md", case["text"], 1))
    assert [p.text for p in found] == case["flagged"][:1] * bool(case["flagged"]), [p.message for p in found]
    assert all(p.line == 2 and "f-string" in p.message for p in found)
