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


# rows where our value follows vLLM's own arithmetic rather than the specification's formula, each
# named in the claims legend (found once: log_avg_rate printed 0.401641 against 0.401635 unexplained)
VLLM_ARITHMETIC = {"log_avg_rate": "accepted / drafted of whole-token counts"}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_claim_equals_the_specified_value_to_its_digits_or_says_why(row):
    ours = claim_value(row["id"], row["state"])
    same = float(format(ours, ".6g")) == float(row["model_value"])
    assert same != (row["id"] in VLLM_ARITHMETIC), (row["id"], ours, row["model_value"])


def test_the_claims_legend_names_where_ours_follows_vllm():
    from specmodel.cli import CLAIMS_CHECK_LEGEND
    for why in VLLM_ARITHMETIC.values():
        assert why in CLAIMS_CHECK_LEGEND
