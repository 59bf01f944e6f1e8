"""`specmodel sweep`: every readout over a product of values, as CSV or JSON lines."""
import csv
import io
import json

import pytest

from specmodel import FIELDS, READOUT_KEYS, State, default_catalog, evaluate
from specmodel.fields import FLOAT, INT
from specmodel.sweep import parse_values

from cli_run import specmodel


def run(*args):
    return specmodel("sweep", *args)


def test_csv_has_a_column_per_field_and_readout_and_a_row_per_state():
    out = run("--batch", "1,16,64,128", "--gamma", "1:3", "--cost-model", "calibrated,whole-pass")
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert list(rows[0]) == [*FIELDS, *READOUT_KEYS]
    assert len(rows) == 4 * 3 * 2
    for row in rows[::5]:
        state = State(**{k: (int(row[k]) if FIELDS[k].kind == INT else float(row[k]) if FIELDS[k].kind == FLOAT
                             else row[k]) for k in FIELDS})
        expected = evaluate(state)
        assert float(row["speedup"]) == pytest.approx(expected.speedup, rel=1e-12)
        assert json.loads(row["per_position_acceptance"]) == pytest.approx(expected.per_position_acceptance, rel=1e-12)
        assert row["fits_in_memory"] == str(expected.fits_in_memory)


def test_without_tp_or_drafter_each_target_is_priced_as_evaluate_prices_it():
    """Found once: `sweep --target qwen3-30b-a3b` priced one H100 (0.664×) where `evaluate` and the
    page price the two the site splits it across (0.797×), and a 70B target on one 80 GB card."""
    targets = ["qwen3-8b", "qwen3-30b-a3b", "llama-3.3-70b-instruct"]
    out = run("--target", ",".join(targets), "--gpu", "h100-sxm,l40s", "--alpha", "0.75", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == len(targets) * 2
    for row in rows:
        shown = specmodel("evaluate", "--target", row["target"], "--gpu", row["gpu"], "--alpha", "0.75", "--json",
                          "--ignore-memory")
        assert row["speedup"] == pytest.approx(json.loads(shown.stdout)["speedup"], rel=1e-12), row
        catalog = default_catalog()
        assert row["tp"] == catalog.tensor_parallel_for(row["gpu"], row["target"]), row
        assert row["drafter"] == catalog.default_drafter_for(row["target"]), row
    assert {(r["target"], r["gpu"]): r["tp"] for r in rows}[("llama-3.3-70b-instruct", "h100-sxm")] == 4
    assert {r["target"]: r["drafter"] for r in rows}["llama-3.3-70b-instruct"] == "llama-3.2-1b"
    # a --tp given is the sweep's, as before
    one = json.loads(run("--target", "qwen3-30b-a3b", "--tp", "1", "--format", "jsonl").stdout)
    assert one["tp"] == 1


def test_json_lines_and_float_ranges():
    out = run("--alpha", "0.5:0.9:0.1", "--drafter", "ngram", "--format", "jsonl")
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["alpha"] for r in rows] == [0.5, 0.6, 0.7, 0.8, 0.9]  # decimal steps, no 0.6000000000000001
    assert all(set(r) == {*FIELDS, *READOUT_KEYS} for r in rows)


def test_values_parse_as_the_field_allows():
    catalog = default_catalog()
    assert parse_values(FIELDS["batch"], "1:5:2,64", catalog) == [1, 3, 5, 64]
    assert parse_values(FIELDS["gamma"], None, catalog) == [FIELDS["gamma"].default]
    assert parse_values(FIELDS["drafter"], "ngram, qwen3-0.6b", catalog) == ["ngram", "qwen3-0.6b"]


@pytest.mark.parametrize("args,option", [
    (["--cost-model", "ideal"], "--cost-model"),
    (["--batch", "10:1"], "--batch"),
    (["--batch", "1:4:0"], "--batch"),
    (["--batch", ""], "--batch"),
    (["--batch", "1.5"], "--batch"),
    (["--alpha", "0:1:0.1"], "--alpha"),
    (["--context", "1:10000000"], "--context"),
    (["--batch", "1:1000", "--context", "1:1000", "--gamma", "1:10"], "sweep"),
    (["--drafter", "ngram,medusa"], "--drafter"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(args, option):
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "allowed:" in lines[0]
