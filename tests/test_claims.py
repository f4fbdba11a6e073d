"""The guard's rule: every number a reader sees is a claim, except the documented NON_CLAIMS."""

from __future__ import annotations

import pytest

from coursekit.core import guard


@pytest.mark.parametrize("entry", guard.NON_CLAIMS, ids=lambda e: e.kind)
def test_each_documented_non_claim_holds_no_claim_and_its_neighbour_does(entry):
    assert guard.claims(entry.example) == [], entry.example
    assert guard.claims(entry.neighbour), entry.neighbour
