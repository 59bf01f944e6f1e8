"""Every number the seed essay quotes, recomputed by the whole-pass model, within the spec's tolerance."""
import csv

import pytest

from paths import ROOT
from specmodel.claims import CLAIM_VALUES, claim_value

ROWS = list(csv.DictReader(open(ROOT / "specmodel" / "data" / "essay-claims.csv", encoding="utf-8")))


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_claim_within_tolerance(row):
    ours = claim_value(row["id"], row["state"])
    expected = float(row["model_value"])
    assert ours == pytest.approx(expected, rel=float(row["rel_tolerance"]))


def test_every_row_has_a_computation():
    assert {r["id"] for r in ROWS} == set(CLAIM_VALUES)
