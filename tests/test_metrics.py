"""The paste-your-metrics path on the command line: reading vLLM's and llama.cpp's formats, the
acceptance fit, and the advice. tests/data/metrics/ holds texts written from the engines' source
formats; expected.json says, worked by hand, what each must read as. The browser tests feed the
same files to the page (tests/browser/test_metrics.py)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from specmodel import FIELDS, State, evaluate
from specmodel.acceptance import ACCEPTANCE_SHAPES, per_position_acceptance
from specmodel.metrics import MetricsInputError, advise, fit_acceptance, parse_metrics
from specmodel.metrics.advice import batch_schedule
from specmodel.metrics.advice import nearest_batch
from specmodel.metrics.parse import MAX_DRAFT_POSITIONS, MAX_RUNNING_REQUESTS, ImpossibleMetricsError
from specmodel.metrics.report import times
from generator import formats
from specmodel.vllm import engine_log_line, engine_log_window

from cli_run import specmodel

DATA = Path(__file__).parent / "data" / "metrics"
EXPECTED = {k: v for k, v in json.loads((DATA / "expected.json").read_text()).items() if not k.startswith("_")}
IMPOSSIBLE = json.loads((DATA / "impossible.json").read_text())["cases"]


def _cli(*args, stdin=None):
    return specmodel("fit-metrics", *args, stdin=stdin)


def test_the_command_runs_as_a_program():
    """`python -m specmodel fit-metrics` as a reader runs it: what the in-process runs above stand for."""
    path = str(DATA / "v1-ngram.log")
    ran = subprocess.run([sys.executable, "-m", "specmodel", "fit-metrics", path], capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stderr == "" and ran.stdout == _cli(path).stdout
    refused = subprocess.run([sys.executable, "-m", "specmodel", "fit-metrics", "-"], capture_output=True, text=True,
                             input="nothing here")
    assert (refused.returncode, refused.stdout, refused.stderr) == \
        (2, "", _cli("-", stdin="nothing here").stderr)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_format_reads_as_worked_out_by_hand(name):
    want = EXPECTED[name]
    r = parse_metrics((DATA / name).read_text())
    assert r.source == want["source"]
    assert r.gamma == want["gamma"]
    for key in ("num_drafts", "mean_acceptance_length", "running_requests", "v0_draft_acceptance_rate"):
        if key in want:
            got = getattr(r, key)
            assert (got is None) == (want[key] is None), key
            if want[key] is not None:
                assert got == pytest.approx(want[key], abs=1e-6), key
    if "printed_mean_acceptance_length" in want:
        # digit for digit: a cold read found "as printed 2.6" for a line printing 2.60
        assert r.printed_mean_acceptance_length == want["printed_mean_acceptance_length"]
    if want["per_position_acceptance"] is None:
        assert r.per_position_acceptance is None
    else:
        assert r.per_position_acceptance == pytest.approx(want["per_position_acceptance"], abs=1e-6)
    if "note" in want:
        assert any(want["note"] in n for n in r.notes), r.notes
    if "not_note" in want:
        assert not any(want["not_note"] in n for n in r.notes), r.notes
    if want.get("unfittable"):
        with pytest.raises(MetricsInputError):
            fit_acceptance(r)
    else:
        if "shape" in want:
            assert fit_acceptance(r).shape == want["shape"]
        # found by a cold read: rates of 0.000 fitted α = 0.05 unsaid that the grid's end set α
        assert fit_acceptance(r, FIELDS["alpha"].grid).grid_edge == want.get("grid_edge")


def test_text_that_is_not_metrics_is_refused_with_an_example():
    with pytest.raises(MetricsInputError) as e:
        parse_metrics((DATA / "not-metrics.txt").read_text())
    assert "SpecDecoding metrics: Mean acceptance length: 2.16" in str(e.value)
    out = _cli(str(DATA / "not-metrics.txt"))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("specmodel: error: metrics: nothing in the text")


def test_partial_input_says_what_was_read_then_what_is_missing():
    out = _cli(str(DATA / "prometheus-zero-drafts.txt"))
    assert out.returncode == 2
    assert "drafts 0" in out.stdout and "nothing was speculated" not in out.stdout
    assert out.stderr.count("\n") == 1 and "nothing was speculated" in out.stderr


@pytest.mark.parametrize("name", sorted(n for n, want in EXPECTED.items() if want.get("unfittable")))
def test_what_stops_the_fit_is_said_once(name):
    """Found by a cold read: "The counters went down between the scrapes: the server restarted; …"
    printed as a note of what was read and again as the error (the page showed it twice too). (A
    restarted scrape is now read from the scrapes since the restart: expected.json.)"""
    # (after its first letter, which the error writes in lower case after a colon)
    reason = parse_metrics((DATA / name).read_text()).notes[-1].rstrip(".")[1:]
    out = _cli(str(DATA / name))
    assert out.returncode == 2 and reason in out.stderr
    assert (out.stdout + out.stderr).count(reason) == 1, out.stdout
    assert re.search(r"cannot be fitted: [^A-Z]", out.stderr), out.stderr  # lower case after the colon


@pytest.mark.parametrize("hostile", ["", "\x00\x01\x02", "SpecDecoding metrics:", "vllm:spec_decode_num_drafts_total{ 1",
                                     "Per-position acceptance rate: 1e400", "<script>alert(1)</script> SpecDecoding",
                                     "vllm:spec_decode_num_drafts_total 1000\nvllm:spec_decode_num_drafts_total 10",
                                     'vllm:spec_decode_num_drafts_total{engine="0"} banana',
                                     "SpecDecoding metrics: Mean acceptance length: nan, Per-position acceptance rate: nan",
                                     "Speculative metrics: Draft acceptance rate: 0.500, Number of speculative tokens: 0"])
def test_hostile_text_never_raises_anything_but_an_input_error(hostile):
    try:
        r = parse_metrics(hostile)
        fit_acceptance(r)
    except MetricsInputError:
        pass


@pytest.mark.parametrize("case", IMPOSSIBLE, ids=[c["case"] for c in IMPOSSIBLE])
def test_numbers_that_cannot_be_are_refused_naming_the_field(case):
    """Found by a cold read: 500 accepted of 300 drafted fitted α = 0.95 and printed 1.65× and a
    flag; a rate of 1.5 was read and the positions after it dropped; a NaN counter read as no drafts."""
    with pytest.raises(ImpossibleMetricsError) as e:
        parse_metrics(case["text"])
    assert e.value.field == case["field"]
    assert case["allowed"] in e.value.allowed
    assert case.get("problem", "") in e.value.problem
    assert str(e.value).startswith(f"{case['field']}: ") and "\n" not in str(e.value)
    # a count of five digits or more has its separators, outside what the text wrote (quoted)
    # (found by a cold read: "99999 running requests; allowed: at most 65536")
    assert not re.search(r"\d{5}", re.sub(r"'[^']*'", "", f"{e.value.problem}; {e.value.allowed}")), str(e.value)


def test_the_cold_reads_cases_are_refused_with_these_words():
    a, b, c = (next(x["text"] for x in IMPOSSIBLE if x["case"].startswith(p)) for p in ("A:", "B: a mean", "C: a NaN"))
    with pytest.raises(ImpossibleMetricsError, match=r"^vllm:spec_decode_num_accepted_tokens_total: 500 accepted "
                       r"tokens, more than the 300 drafted; allowed: 0 to 300 \(a token is drafted before it is "
                       r"accepted\)$"):
        parse_metrics(a)
    with pytest.raises(ImpossibleMetricsError, match=r"^Mean acceptance length: 'abc' is not a number; allowed: a "
                       r"number from 1 to γ \+ 1$"):
        parse_metrics(b)
    # without the unreadable mean, the first impossible rate
    with pytest.raises(ImpossibleMetricsError, match=r"^Per-position acceptance rate: 1.5 at position 1 is not a rate"):
        parse_metrics(b.replace("Mean acceptance length: abc, ", ""))
    with pytest.raises(ImpossibleMetricsError, match=r"^vllm:spec_decode_num_drafts_total: NaN is not a count; "
                       r"allowed: a number from 0 up \(a count\)$"):
        parse_metrics(c)


def test_a_list_of_rates_is_refused_at_its_first_bad_position():
    """Found by a cold read: "1.750, 0.478, NaN, -0.119" was refused naming position 3's NaN, as
    the positions that are not numbers were checked before the numbers' values."""
    with pytest.raises(ImpossibleMetricsError, match=r"^Per-position acceptance rate: 1.75 at position 1 is not a "
                       r"rate; allowed: a number from 0 to 1"):
        parse_metrics("SpecDecoding metrics: Per-position acceptance rate: 1.750, 0.478, NaN, -0.119")
    # each kind of fault, wherever it is, after good positions: the first is named
    for rates, named in (("0.8, 0.5, NaN, 1.5", "position 3, 'NaN', is not a number"),
                         ("0.8, 0.5, 1.5, NaN", "1.5 at position 3 is not a rate"),
                         ("0.8, nan, 0.9, 1.5", "0.9 at position 3 is more than the 0.8 at position 1"),
                         ("0.8, 0.5, -0.1, 0.6", "-0.1 at position 3 is not a rate")):
        with pytest.raises(ImpossibleMetricsError, match=f"^Per-position acceptance rate: {re.escape(named)};"):
            parse_metrics(f"SpecDecoding metrics: Per-position acceptance rate: {rates}")


def test_the_model_s_limits_are_the_parser_s():
    """Found by a cold read: 40 per-position rates were refused by the command line (γ at most 32)
    but fitted on their first 10 by the page; the limits now live in the parsers, which the page
    and the command line share (impossible.json)."""
    assert MAX_DRAFT_POSITIONS == FIELDS["gamma"].high and MAX_RUNNING_REQUESTS == FIELDS["batch"].high
    rates = ", ".join(["0.5"] * MAX_DRAFT_POSITIONS)
    assert parse_metrics(f"SpecDecoding metrics: Per-position acceptance rate: {rates}").gamma == MAX_DRAFT_POSITIONS
    out = _cli("-", stdin=f"SpecDecoding metrics: Per-position acceptance rate: {rates}, 0.5")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == f"specmodel: error: draft positions: {MAX_DRAFT_POSITIONS + 1} in the text; allowed: " \
                         f"at most {MAX_DRAFT_POSITIONS}\n"


def test_the_command_line_refuses_impossible_numbers_in_one_line_and_prints_no_advice():
    text = next(x["text"] for x in IMPOSSIBLE if x["case"].startswith("A:"))
    out = _cli("-", stdin=text)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("specmodel: error: vllm:spec_decode_num_accepted_tokens_total: 500 accepted tokens, more "
                          "than the 300 drafted; allowed: 0 to 300 (a token is drafted before it is accepted)\n")


def test_possible_edges_are_still_read():
    # every position accepted: mean γ + 1 exactly; a draft of fewer tokens than γ; vLLM's nan for
    # an interval without drafts; the line's next field after the rates
    full = parse_metrics("SpecDecoding metrics: Mean acceptance length: 4.00, Accepted throughput: 30.00 tokens/s, "
                         "Drafted throughput: 30.00 tokens/s, Accepted: 300 tokens, Drafted: 300 tokens, Per-position "
                         "acceptance rate: 1.000, 1.000, 1.000, Avg Draft acceptance rate: 100.0%")
    assert full.gamma == 3 and full.mean_acceptance_length == 4.0 and full.per_position_acceptance == (1.0, 1.0, 1.0)
    short = parse_metrics("vllm:spec_decode_num_drafts_total 100\nvllm:spec_decode_num_draft_tokens_total 150\n"
                          "vllm:spec_decode_num_accepted_tokens_total 150\n"
                          'vllm:spec_decode_num_accepted_tokens_per_pos_total{position="0"} 100\n'
                          'vllm:spec_decode_num_accepted_tokens_per_pos_total{position="1"} 50\n')
    assert short.gamma == 2 and short.mean_acceptance_length == 2.5 and short.per_position_acceptance == (1.0, 0.5)
    empty = parse_metrics("SpecDecoding metrics: Mean acceptance length: nan, Accepted: 0 tokens, Drafted: 0 tokens, "
                          "Per-position acceptance rate: nan, nan")
    assert empty.gamma == 2 and "nothing was speculated" in empty.notes[-1]


def test_a_line_without_token_counts_shows_no_counts():
    # found once: "drafts · draft tokens · accepted 1 · 1 · 2", counts the text never gave
    r = parse_metrics("SpecDecoding metrics: Per-position acceptance rate: 0.500, 0.250")
    assert (r.num_drafts, r.num_draft_tokens, r.num_accepted_tokens) == (None, None, None)
    assert r.gamma == 2 and r.mean_acceptance_length == pytest.approx(1.75)
    assert fit_acceptance(r).gamma == 2


def test_an_oversized_text_is_refused_in_one_sentence():
    with pytest.raises(MetricsInputError, match="more than the 20,000,000 read"):
        parse_metrics("x" * 20_000_001)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ACCEPTANCE_SHAPES), st.sampled_from([a for a in FIELDS["alpha"].grid if 0.3 <= a <= 0.9]),
       st.integers(3, 8), st.sampled_from([1, 16, 128]))
def test_the_models_own_log_line_fits_back_to_its_acceptance(shape, alpha, gamma, batch):
    """specmodel vllm-log writes vLLM's line for a state; reading it back recovers the state's
    shape and α (the per-position rates are printed to 3 decimals, so within 0.01)."""
    state = State(gamma=gamma, alpha=alpha, acceptance=shape, batch=batch)
    line = engine_log_line(engine_log_window(state, evaluate(state)))
    reading = parse_metrics(f"INFO [metrics.py:101] {line}")
    assert reading.gamma == gamma
    fit = fit_acceptance(reading)
    assert fit.alpha == pytest.approx(alpha, abs=0.01)
    # where the shapes nearly coincide (few positions, or a high α under the rising shape) the
    # residuals cannot tell them apart: the chosen one then fits as well as the true one
    true_rms = float(np.sqrt(np.mean((per_position_acceptance(gamma, alpha, shape, gamma)
                                      - reading.per_position_acceptance) ** 2)))
    assert fit.shape == shape or fit.residual <= true_rms + 1e-9
    on_grid = fit_acceptance(reading, FIELDS["alpha"].grid)
    assert on_grid.alpha == alpha


def test_the_schedule_merges_ranges_and_starts_at_one():
    assert batch_schedule([1, 2, 4, 8, 16], [4, 4, 3, 0, 0]) == [[1, 2, 4], [3, 5, 3], [6, 16, 0]]
    assert batch_schedule([1, 2], [0, 0]) == [[1, 2, 0]]


def test_the_schedule_runs_at_every_load_the_gamma_advised_for_that_load():
    """Found by a cold read: 39 running requests were snapped to 32 and advised γ = 3 while the
    schedule printed under it ran 33–64 at 64's γ = 2. At every load up to the last batch that
    fits, the schedule's γ is the one advised at the batch the load snaps to."""
    grid = [int(b) for b in FIELDS["batch"].grid]
    gammas = [5, 4, 4, 3, 3, 3, 2, 2, 1, 0, 0][: len(grid)]
    for last in range(1, len(grid) + 1):
        batches, ks = grid[:last], gammas[:last]
        ranges = batch_schedule(batches, ks)
        assert ranges[0][0] == 1 and ranges[-1][1] == batches[-1]
        assert all(a[1] + 1 == b[0] for a, b in zip(ranges, ranges[1:]))  # no gap, no overlap
        for load in range(1, batches[-1] + 1):
            scheduled = next(g for lo, hi, g in ranges if lo <= load <= hi)
            assert scheduled == ks[batches.index(nearest_batch(load))], (load, ranges)
    assert nearest_batch(39) == 32 and batch_schedule([1, 2, 4, 8, 16, 32, 64, 128], [3] * 6 + [2, 2]) == [[1, 45, 3], [46, 128, 2]]


@pytest.mark.parametrize(("log", "drafter"), [("v0-running-100.log", "qwen3-0.6b"), ("v1-engine-running.log", "eagle3"),
                                              ("prometheus-one.txt", "ngram"), ("v0.log", "qwen3-0.6b")])
def test_the_printed_gamma_by_load_flag_runs_every_load_at_the_gamma_advised_for_it(log, drafter):
    """Found by a cold read: 100 running requests snapped to 128, which does not fit: the advice
    said no γ, while the printed flag (its ranges ending at 64, the last batch that fits) ran 100
    at γ 2, as vLLM carries the last range's γ to every larger load. At every load, past the grid
    too, the flag's γ is the one advised at the batch the load snaps to (0 where none is)."""
    reading = parse_metrics((DATA / log).read_text())
    fit = fit_acceptance(reading, FIELDS["alpha"].grid)
    advice = advise(State(drafter=drafter), fit)
    if advice.dynamic_speculative_config is None:
        assert all(not row["recommended_gamma"] for row in advice.schedule)
        return
    ranges = advice.dynamic_speculative_config["num_speculative_tokens_per_batch_size"]
    advised = {row["batch"]: row["recommended_gamma"] or 0 for row in advice.schedule}
    for load in range(1, 3 * int(FIELDS["batch"].grid[-1])):
        runs = next((g for lo, hi, g in ranges if lo <= load <= hi), ranges[-1][2])  # the last γ carried on
        assert runs == advised[nearest_batch(load)], (load, ranges)


def test_advice_is_the_models_best_gamma_at_every_batch():
    reading = parse_metrics((DATA / "prometheus-one.txt").read_text())
    fit = fit_acceptance(reading, FIELDS["alpha"].grid)
    advice = advise(State(batch=16), fit)
    for row in advice.schedule:
        speedups = {g: evaluate(State(batch=row["batch"], gamma=g, alpha=fit.alpha, acceptance=fit.shape)).speedup
                    for g in FIELDS["gamma"].grid}
        best = max(speedups, key=lambda g: (speedups[g], -g))
        assert row["best_gamma"] == best and row["best_speedup"] == pytest.approx(speedups[best], rel=1e-12)
        # no γ for a load that does not fit in memory
        assert row["recommended_gamma"] == ((best if speedups[best] > 1 else 0) if row["fits_in_memory"] else None)
    first_off = next(r["batch"] for r in advice.schedule if r["recommended_gamma"] == 0 and r["fits_in_memory"])
    assert advice.stops_paying_at_batch == first_off
    assert advice.speculative_config["num_speculative_tokens"] == advice.recommended_gamma
    ranges = advice.dynamic_speculative_config["num_speculative_tokens_per_batch_size"]
    # the schedule covers every batch size, γ 0 past those that fit; vLLM carries the last γ on
    fitting = [r["batch"] for r in advice.schedule if r["fits_in_memory"]]
    assert advice.largest_fitting_batch == fitting[-1] < 1024
    assert ranges[0][0] == 1 and ranges[-1][1] == 1024 and ranges[-1][2] == 0
    assert advice.dynamic_speculative_config["num_speculative_tokens"] == max(r[2] for r in ranges)


def test_where_speculation_pays_is_said_as_the_schedule_has_it():
    """Found by a cold read: "speculation stops paying at batch 4" for Qwen3-30B-A3B on an MI300X,
    where it pays again from 16 to 64 sequences, the reader's own 32 included. A mixture of experts'
    target can stop paying and pay again; the answer names the runs of batch sizes where a γ pays,
    and says "stops paying at" only where every larger load that fits does not pay."""
    out = _cli(str(DATA / "v1-0.8.5.log"), "--site-grid", "--gpu", "mi300x", "--target", "qwen3-30b-a3b",
               "--drafter", "qwen3-4b", "--batch", "32")
    assert out.returncode == 0, out.stderr
    assert ("  speculation pays only at batch 1–2 and 16–64 (at its best γ); at the other batch sizes that fit, "
            "no γ beats plain decoding\n") in out.stdout, out.stdout
    assert "stops paying" not in out.stdout
    # the ranges are the schedule's, over every target on two GPUs, three drafters each and three texts
    from specmodel import default_catalog
    from specmodel.metrics.report import advice_text
    catalog = default_catalog()
    fits = [fit_acceptance(parse_metrics((DATA / name).read_text()), FIELDS["alpha"].grid)
            for name in ("v1-0.8.5.log", "v1-engine-running.log", "prometheus-one.txt")]
    states = [State(gpu=gpu, target=target, drafter=drafter, batch=32, tp=catalog.tensor_parallel_for(gpu, target))
              for target in catalog.targets for gpu in ("h100-sxm", "mi300x") for drafter in catalog.drafters_for(target)[:3]]
    said_every_kind = set()
    for state in states:
        for fit in fits:
            advice = advise(state, fit, catalog)
            fitting = [r for r in advice.schedule if r["fits_in_memory"]]
            paying = [r["batch"] for r in fitting if r["recommended_gamma"]]
            runs = [r["batch"] for lo, hi in advice.paying_batch_ranges for r in fitting if lo <= r["batch"] <= hi]
            assert runs == paying, state
            text = advice_text(advice, catalog)
            stops = re.search(r"stops paying at batch ([\d,]+)", text)
            if stops:
                at = int(stops[1].replace(",", ""))
                assert all((r["batch"] < at) == bool(r["recommended_gamma"]) for r in fitting), text
                said_every_kind.add("stops")
            if "pays only at batch" in text:
                said_every_kind.add("only")
    assert said_every_kind == {"stops", "only"}


def test_cli_json_carries_the_reading_the_fit_and_the_advice():
    out = _cli("-", "--json", "--site-grid", "--drafter", "ngram", stdin=(DATA / "v1-ngram.log").read_text())
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["reading"]["gamma"] == 3 and got["fit"]["shape"] == "rising" and got["fit"]["alpha"] == 0.5
    assert got["advice"]["state"]["drafter"] == "ngram" and got["advice"]["state"]["acceptance"] == "rising"
    assert [r["batch"] for r in got["advice"]["schedule"]] == list(FIELDS["batch"].grid)


def test_cli_takes_the_batch_from_running_requests_and_prints_the_take_away():
    out = _cli(str(DATA / "prometheus-one.txt"))
    assert out.returncode == 0, out.stderr
    assert "batch 12: vllm:num_requests_running" in out.stdout
    assert "predictions of the calibrated cost model, not measurements" in out.stdout
    assert "--speculative-config '{" in out.stdout and "num_speculative_tokens_per_batch_size" in out.stdout
    assert "dynamic_speculative_decoding" in out.stdout


def test_every_flag_the_advice_prints_carries_the_tensor_parallelism():
    # Found once on the page: the per-batch flag had --tensor-parallel-size 4, the flag that
    # changes γ with load did not (a 70B target on one GPU, which does not fit).
    out = _cli("--target", "llama-3.3-70b-instruct", "--tp", "4", "--drafter", "ngram", "--site-grid",
               str(DATA / "v1-ngram.log"))
    assert out.returncode == 0, out.stderr
    flags = [line for line in out.stdout.splitlines() if "--speculative-config" in line]
    assert len(flags) == 2 and all(line.startswith("--tensor-parallel-size 4 --speculative-config '{") for line in flags)


def test_a_fit_no_shape_can_reach_is_called_poor():
    """A scrape without per-position counters gives only a mean length; 4.9 at γ = 4 is beyond what
    the falling shape, assumed, can produce."""
    line = (DATA / "prometheus-no-positions.txt").read_text().replace("} 2360.0", "} 3900.0")
    fit = fit_acceptance(parse_metrics(line))
    assert fit.poor and fit.residual > 0.1
    assert not fit_acceptance(parse_metrics((DATA / "v1-ngram.log").read_text())).poor
    out = _cli("-", stdin=line)
    # from one number the misfit is that no α reaches it, not the shape (the line gives none)
    assert out.returncode == 0 and "no α gives acceptance falling this mean acceptance length at γ = 4" in out.stdout


def test_the_best_gamma_of_a_load_where_none_pays_is_said_to_be_slower():
    """Found by a cold read: at a load where no γ beats plain decoding the page's summary read
    "best γ there 2"; the report's best-γ line now says what the page says (views/metrics.js)."""
    out = _cli(str(DATA / "v1-engine-running.log"), "--site-grid", "--batch", "64")
    assert out.returncode == 0, out.stderr
    assert re.search(r"^  best γ at batch 64: 2 \(0\.\d\d×\), slower than plain decoding$", out.stdout, re.M), out.stdout
    assert "no --speculative-config: at batch 64 no γ beats plain decoding" in out.stdout
    # found by a cold read: "stops paying at batch 64" at the reader's own 64 said it once more
    assert out.stdout.count("no γ beats plain decoding") == 1 and "stops paying at batch 64" not in out.stdout
    # where it stopped at a smaller load than the reader's, that is news, and said
    out = _cli(str(DATA / "v1-engine-running.log"), "--site-grid", "--batch", "128")
    assert "speculation stops paying at batch 64 (no γ beats plain decoding there)" in out.stdout, out.stdout
    # where one pays, the line is as before
    out = _cli(str(DATA / "v1-engine-running.log"), "--site-grid", "--batch", "16")
    assert "  best γ at batch 16: 2 (1.16×)\n" in out.stdout and "slower than plain decoding" not in out.stdout


def test_the_engine_logs_running_count_sets_the_batch_as_the_scrapes_gauge_does():
    """Found by a cold read: two SpecDecoding lines and vLLM's "Engine 000: … Running: 16 reqs"
    priced one sequence at once, though the essay tells readers to read exactly that count. The
    median of the lines (16, not their mean 32), idle lines left out; engines averaged, as the
    gauge is (found by a cold read: data-parallel engines at 30 and 34 priced as one batch of 64)."""
    r = parse_metrics((DATA / "v1-engine-running.log").read_text())
    assert r.running_requests == 16
    assert "the median of the 'Running: N reqs' of 3 engine log lines" in r.notes[0]
    assert "1 line with Running: 0 reqs (idle, nothing drafted) left out" in r.notes[0]
    assert parse_metrics((DATA / "v1-two-engines.log").read_text()).running_requests == (30 + 34) / 2
    # V0's engine line has no engine number; a scrape's own gauge wins over the lines
    v0 = (DATA / "v0.log").read_text() + ("INFO 02-06 03:06:03 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, "
                                          "Avg generation throughput: 310.0 tokens/s, Running: 8 reqs, Swapped: 0 "
                                          "reqs, Pending: 0 reqs, GPU KV cache usage: 4.1%, CPU KV cache usage: 0.0%.\n")
    assert parse_metrics(v0).running_requests == 8
    scrape = (DATA / "prometheus-one.txt").read_text() + "INFO Engine 000: Running: 100 reqs, Waiting: 0 reqs\n"
    assert parse_metrics(scrape).running_requests == 12
    out = _cli(str(DATA / "v1-engine-running.log"), "--site-grid")
    assert out.returncode == 0, out.stderr
    assert "note: batch 16: the engine log lines' Running: N reqs" in out.stdout
    assert "drafter qwen3-0.6b, batch 16," in out.stdout
    # a failed fit still names what is missing, not the load
    with pytest.raises(MetricsInputError, match="no per-position acceptance rates"):
        fit_acceptance(parse_metrics((DATA / "v1-0.8.3.log").read_text() + "Engine 000: Running: 16 reqs\n"))


def test_hundreds_of_positions_are_listed_as_the_first_ones_and_how_many_more():
    """Found by a cold read: 200 per-position rates were printed in full (now refused: more than
    MAX_DRAFT_POSITIONS; as many as it allows still list the first ones)."""
    from specmodel.metrics.report import listed_rates, reading_lines
    n = MAX_DRAFT_POSITIONS
    text = "SpecDecoding metrics: Per-position acceptance rate: " + ", ".join(["0.5"] * n)
    line = reading_lines(parse_metrics(text))[0]
    assert line.endswith("per-position " + ", ".join(["0.500"] * 10) + f", … {n - 10} more")
    assert listed_rates((0.5, 0.25)) == "0.500, 0.250"


def test_a_load_that_does_not_fit_in_memory_gets_no_gamma():
    """Found by a cold read: rows 256 to 1,024 read "use γ 2" beside "fits in memory: no", and a
    batch that does not fit still got its --speculative-config."""
    text = (DATA / "v1-ngram.log").read_text()
    fit = fit_acceptance(parse_metrics(text), FIELDS["alpha"].grid)
    advice = advise(State(batch=1024, drafter="ngram"), fit)
    assert any(not r["fits_in_memory"] for r in advice.schedule)
    for row in advice.schedule:
        assert (row["recommended_gamma"] is None) == (not row["fits_in_memory"]), row
    assert advice.recommended_gamma is None and advice.speculative_config is None
    out = _cli("-", "--drafter", "ngram", "--batch", "1024", "--site-grid", stdin=text)
    assert out.returncode == 0, out.stderr
    rows = [ln.split() for ln in out.stdout.splitlines() if ln.rstrip().endswith((" yes", " no"))]
    assert rows and all((r[4] == "–") == (r[5] == "no") for r in rows), rows
    assert "no --speculative-config: at batch 1024 the weights and KV caches do not fit" in out.stdout


def test_a_line_leaving_out_the_bonus_shows_what_it_prints_and_labels_what_is_derived():
    """Found by a cold read: a line printing 2.61 was shown as "mean acceptance length 3.610" and
    "drafts 617" (numbers the text never prints), and quoted as printing 3.61."""
    out = _cli(str(DATA / "v1-three-means.log"))
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "mean acceptance length as printed 2.61;" in text
    assert "mean acceptance length (derived: the printed 2.61 + 1 for the bonus token) 3.610" in text
    assert "; mean acceptance length 3.610" not in text
    assert "drafts (derived: accepted / the printed mean acceptance length) 617," in text
    assert "the line prints a mean acceptance length of 2.61 (3.61 with 1 added for the bonus token it leaves out)" in text
    # the printed mean against the counts said once; the rates' sum added after it (cold read 19)
    three = [line for line in text.splitlines() if "apart from both" in line]
    assert len(three) == 1 and "3.46" in three[0] and "3.68" not in three[0], three
    assert text.count("3.68") == 1, text
    # a line whose three means agree says nothing of the kind
    assert "three means" not in _cli(str(DATA / "v1-ngram.log")).stdout


def test_a_one_number_fit_says_the_grid_limits_it_not_the_shape():
    """Found by a cold read: a V0 line (one mean length) fitted 0.076 from α = 0.90 on the site's
    grid was called "no acceptance shape describes these numbers well"."""
    reading = parse_metrics((DATA / "prometheus-no-positions.txt").read_text())
    fit = fit_acceptance(reading, FIELDS["alpha"].grid)
    assert fit.residual > 0.05 and not fit.poor and fit.grid_limited
    out = _cli(str(DATA / "prometheus-no-positions.txt"), "--site-grid").stdout
    assert "α = 0.90 is the closest α on the grid: its step limits the match" in out
    assert out.count("tell the shapes apart") + out.count("tell shapes apart") == 1, out
    assert "no acceptance shape describes" not in out
    # finer α: nothing to say
    assert "closest α on the grid" not in _cli(str(DATA / "prometheus-no-positions.txt")).stdout


@pytest.mark.parametrize("name, alpha, end, bound", [("v1-all-rejected.log", "0.05", "starts", "upper"),
                                                     ("prometheus-few-accepted.txt", "0.05", "starts", "upper"),
                                                     ("v1-all-accepted.log", "0.95", "ends", "lower")])
def test_a_fit_the_grids_end_stops_says_so_and_which_way_its_speedups_err(name, alpha, end, bound):
    """Found by a cold read: rates of 0.000 fitted α = 0.05 and rates of 1.000 α = 0.95 on the site's
    grid, with no word that the grid's end, not the text, set α (the second was called a shape
    misfit: at α = 1 the text's rates are exactly the model's)."""
    out = _cli(str(DATA / name), "--site-grid").stdout
    side = "below" if end == "starts" else "above"
    assert (f"note: the measured acceptance lies {side} the α grid, which {end} at {alpha}: the advice prices "
            f"α = {alpha}, so its speedups are {bound} bounds") in out, out
    assert "no acceptance shape describes" not in out and "no α gives" not in out
    # speedups rise with α at every γ ≥ 1: the bound is the right way round
    fit = fit_acceptance(parse_metrics((DATA / name).read_text()), FIELDS["alpha"].grid)
    finer = fit_acceptance(parse_metrics((DATA / name).read_text()))
    assert (finer.alpha < fit.alpha) if bound == "upper" else (finer.alpha > fit.alpha)
    # the command line's own finer grid reaches the text: nothing to say
    assert "α grid, which" not in _cli(str(DATA / name)).stdout


def test_a_v0_rate_no_shape_gives_is_a_poor_fit():
    """Found by a cold read: a V0 line with rate 0.900 whose length every shape gives only at an α
    averaging 0.44–0.65 was fitted and priced without a word."""
    fit = fit_acceptance(parse_metrics((DATA / "v0-rate-misfit.log").read_text()), FIELDS["alpha"].grid)
    assert fit.poor and fit.v0_rate_gap > 0.2
    out = _cli(str(DATA / "v0-rate-misfit.log"), "--site-grid").stdout
    assert ("note: no acceptance shape gives both this mean acceptance length and V0's draft acceptance rate "
            "(0.900 against 0.648 at best): the advice is only as good as this fit") in out, out
    assert not fit_acceptance(parse_metrics((DATA / "v0.log").read_text()), FIELDS["alpha"].grid).poor


def test_with_one_position_the_fit_says_the_shapes_are_one():
    """Found by a cold read: at γ = 1 the three shapes tie and the answer named falling the best."""
    out = _cli(str(DATA / "v1-gamma1.log")).stdout
    assert "(with one position the three shapes are one: only α is fitted)" in out, out
    assert "other shapes" not in out.split("fit:")[1].splitlines()[0]


def test_a_v0_lines_rate_picks_the_shape_its_length_cannot():
    """Found by a cold read: a V0 line (γ 4, length 3.36, rate 0.800) was fitted falling at α 0.90,
    which averages 0.72 over the positions, and the mismatch blamed on the grid's step; the same
    acceptance at every position, α 0.80, gives both its length and its rate."""
    from specmodel.acceptance import mean_conditional_acceptance
    reading = parse_metrics((DATA / "v0.log").read_text())
    fit = fit_acceptance(reading, FIELDS["alpha"].grid)
    assert (fit.shape, fit.alpha) == ("same", 0.8) and not fit.grid_limited and not fit.poor
    assert fit.v0_rates == pytest.approx({s: float(mean_conditional_acceptance(4, fit.alphas[s], s, 4))
                                          for s in ACCEPTANCE_SHAPES})
    assert min(fit.v0_rates, key=lambda s: abs(fit.v0_rates[s] - 0.8)) == "same"
    out = _cli(str(DATA / "v0.log"), "--site-grid").stdout
    assert ("V0's draft acceptance rate, an average over the positions, can: at the α that gives the length, falling "
            "averages 0.717, same averages 0.800, rising averages 0.853, against the text's 0.800; the nearest wins") in out
    assert "closest α on the grid" not in out and "cannot be told" not in out
    # without a rate (a scrape without per-position counters) the default shape is assumed, as before
    fit = fit_acceptance(parse_metrics((DATA / "prometheus-no-positions.txt").read_text()))
    assert fit.shape == "falling" and fit.v0_rates == {} and list(fit.residuals) == ["falling"]


ENGINE = ("(APIServer pid=1) INFO 05-01 12:00:{s} [loggers.py:111] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
          "Avg generation throughput: 1900.0 tokens/s, Running: {n} reqs, Waiting: 0 reqs, GPU KV cache usage: 20.0%, "
          "Prefix cache hit rate: 0.0%\n")
TWO_LOADS = (ENGINE.format(s="00", n=48) + ENGINE.format(s="10", n=64)
             + (DATA / "v1-ngram.log").read_text().strip() + "\n")


def test_site_grid_snaps_the_running_requests_to_the_pages_batch():
    """Found by a cold read: --site-grid fitted "as the page does" but priced 56 running requests
    where the page prices (and says) 64."""
    assert nearest_batch(56) == 64 and nearest_batch(45) == 32 and nearest_batch(48) == 64 and nearest_batch(3) == 4
    site = json.loads(_cli("-", "--site-grid", "--json", stdin=TWO_LOADS).stdout)
    assert site["advice"]["state"]["batch"] == 64
    assert any("56 running requests: the simulation's nearest batch size on its doubling scale is 64, as the page snaps it" in n
               for n in site["notes"]), site["notes"]
    assert json.loads(_cli("-", "--json", stdin=TWO_LOADS).stdout)["advice"]["state"]["batch"] == 56
    assert "snap the running requests to the site's nearest batch size" in " ".join(_cli("--help").stdout.split())


def test_site_grid_prices_only_the_shapes_the_sites_data_hold_for_the_configuration():
    """Found by a cold read: on H200 the page priced the n-gram example at acceptance falling (the
    only shape H200's data hold, which it says) while --site-grid, "as the page does", priced the
    fitted rising: 2.16× against 2.09×, best γ 6 against 10."""
    from generator.axes import configurations
    from specmodel import default_catalog
    from specmodel.fields import site_acceptance_shapes
    # the generator's configurations and the command line read one rule
    for c in configurations(default_catalog()):
        assert c.acceptance == site_acceptance_shapes(c.gpu, c.target, c.tp)
    ngram = (DATA / "v1-ngram.log").read_text()
    site = json.loads(_cli("-", "--site-grid", "--json", "--gpu", "h200", "--drafter", "ngram", stdin=ngram).stdout)
    fit = site["fit"]
    assert fit["shape"] == "rising" and set(fit["alphas"]) == {"falling", "rising", "same"}
    state = site["advice"]["state"]
    assert (state["acceptance"], state["alpha"]) == ("falling", fit["alphas"]["falling"]) and fit["alphas"]["falling"] == 0.65
    # that shape's own best α on the site's grid: no other α fits it closer
    reading = parse_metrics(ngram)
    assert all(fit_acceptance(reading, [a]).residuals["falling"] >= fit["residuals"]["falling"] - 1e-12
               for a in FIELDS["alpha"].grid)
    note = ("this configuration's data hold acceptance falling only: the answer uses that shape's best fit to your "
            f"rates, α = 0.65 (residual {fit['residuals']['falling']:.3f}, against {fit['residual']:.3f} for rising). "
            "specmodel fit-metrics without --site-grid prices your shape on any configuration")
    assert note in site["notes"], site["notes"]
    # without --site-grid, and on the essay's own configuration, the fitted shape is priced
    fine = json.loads(_cli("-", "--json", "--gpu", "h200", "--drafter", "ngram", stdin=ngram).stdout)
    assert fine["advice"]["state"]["acceptance"] == "rising" and not any("data hold" in n for n in fine["notes"])
    home = json.loads(_cli("-", "--site-grid", "--json", "--drafter", "ngram", stdin=ngram).stdout)
    assert home["advice"]["state"]["acceptance"] == "rising" and home["advice"]["state"]["alpha"] == fit["alpha"]
    assert "price only the acceptance shapes the site's data hold" in " ".join(_cli("--help").stdout.split())


@pytest.mark.parametrize("x", [0.999, 1.003, 0.99951, 1.0, 0.9999999, 1.23456, 0.5, 2.005, 1.00004])
def test_the_command_line_writes_a_speedup_as_the_page_does(x):
    """Found by a cold read: fit-metrics printed "1.00×" where the page writes "0.999×"."""
    assert times(x) == formats.format_value("times", x)


V0_LINE = ("INFO 03-01 10:00:00 metrics.py:467] Speculative metrics: Draft acceptance rate: 0.612, System efficiency: "
           "0.480, Number of speculative tokens: 5, Number of accepted tokens: 30600, Number of draft tokens: 50000, "
           "Number of emitted tokens: 36000.")


def test_the_best_gamma_line_says_where_the_load_does_not_fit():
    """Found by a cold read: at a load that does not fit in memory the best-γ line read "best γ at
    batch 256: 2 (0.78×)" with nothing more, while no γ is advised there; the page's list said the
    same (views/metrics.js bestGammaTail)."""
    from specmodel.metrics.report import NO_ROOM
    out = _cli("-", "--site-grid", "--batch", "256", stdin=V0_LINE)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^  best γ at batch 256: 2 \(0\.\d\d×\), slower than plain decoding, and " + NO_ROOM + "$",
                     out.stdout, re.M), out.stdout
    assert "no --speculative-config: at batch 256 the weights and KV caches do not fit" in out.stdout
    # a best γ that beats plain decoding at a load that does not fit is no advice either
    out = _cli(str(DATA / "v1-ngram.log"), "--site-grid", "--drafter", "ngram", "--batch", "256")
    assert re.search(r"^  best γ at batch 256: 2 \(1\.\d\d×\), but " + NO_ROOM + "$", out.stdout, re.M), out.stdout
    out = _cli(str(DATA / "v1-ngram.log"), "--site-grid", "--drafter", "ngram", "--batch", "128")
    assert re.search(r"^  best γ at batch 128: 2 \(1\.\d\d×\)$", out.stdout, re.M), out.stdout


def test_the_batch_priced_without_a_running_count_is_said_to_be_the_default():
    """Found by a cold read: the page priced the simulation's batch for a text without a running
    count and did not say so; both now give the reason in the same words (report.no_load)."""
    from specmodel.metrics.report import no_load
    out = _cli("-", stdin=V0_LINE)
    assert f"note: batch 1: {no_load(None)}; --batch sets it" in out.stdout, out.stdout
    assert no_load(None) == "the text does not say how many requests were running"
    idle = ("INFO Engine 000: Avg prompt throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs\n"
            + (DATA / "v1-ngram.log").read_text())
    out = _cli("-", stdin=idle)
    assert f"note: batch 1: {no_load(0)}; --batch sets it" in out.stdout, out.stdout
    out = _cli(str(DATA / "prometheus-one.txt"))
    assert no_load(None) not in out.stdout and "(idle)" not in out.stdout


def test_an_unreadable_specdecoding_line_is_not_blamed_on_the_vllm_version():
    """Found by a cold read: "SpecDecoding metrics: garbage" was told that vLLM 0.8.3 and 0.8.4
    print no per-position rates (v1-unreadable.log in expected.json covers one line, the page too)."""
    two = parse_metrics("SpecDecoding metrics: garbage\nSpecDecoding metrics: Mean acceptance length 2\n")
    assert two.notes[-1].startswith("The 2 lines have none of the fields vLLM prints") and "0.8.5" not in two.notes[-1]
    # a line with one field an old vLLM prints, and no per-position rates, keeps the version hint
    for line in ("SpecDecoding metrics: Draft acceptance rate: 62.5%", "SpecDecoding metrics: Accepted: 250 tokens"):
        assert "vLLM 0.8.5 or later" in parse_metrics(line).notes[-1], line
    out = _cli(str(DATA / "v1-unreadable.log"))
    assert out.returncode == 2 and "could not be read" in out.stderr and "0.8.5" not in out.stderr + out.stdout


def test_fit_metrics_prices_a_target_on_the_gpus_the_page_and_evaluate_give_it():
    """Found by a cold read: for Qwen3-32B the paste box priced two H100s (the site's configuration)
    and fit-metrics one, so the two answers differed (1.37× against 1.61×, "pays up to 64" against
    "up to 8"). Without --tp, fit-metrics takes the GPUs evaluate and the page take."""
    from specmodel import default_catalog

    catalog = default_catalog()
    for target in ("qwen3-8b", "qwen3-32b", "llama-3.3-70b-instruct"):
        drafter = ["--drafter", "ngram"]
        advice = json.loads(_cli(str(DATA / "v1-0.8.5.log"), "--site-grid", "--json", "--target", target, *drafter).stdout)
        assert advice["advice"]["state"]["tp"] == catalog.tensor_parallel_for("h100-sxm", target), target
    from specmodel.cli import TP_DEFAULT
    assert f"default {TP_DEFAULT}" in " ".join(_cli("--help").stdout.split())


def test_site_grid_fits_the_positions_the_page_fits_and_says_so_in_its_words():
    """Found by a cold read: for 15 draft positions the page fitted the first 10 (the simulation's γ
    stops there) and said so; `fit-metrics --site-grid` fitted all 15 and priced γ = 15."""
    out = _cli(str(DATA / "v1-fifteen-positions.log"), "--site-grid")
    assert out.returncode == 0, out.stderr
    assert "note: the text has 15 positions; the simulation drafts at most 10, so the fit uses the first 10." in out.stdout
    assert "γ = 10, residual" in out.stdout and "speedup at γ = 10:" in out.stdout
    plain = _cli(str(DATA / "v1-fifteen-positions.log"))
    assert "γ = 15, residual" in plain.stdout and "the first 10" not in plain.stdout


def test_an_acceptance_rate_is_written_as_the_page_writes_it():
    """Found by a cold read: fit-metrics printed "α = 0.5" and "α = 0.9" where the page and the
    essay wrote "α = 0.50" and "α = 0.90" for the same fit: two decimals, more only where the value
    has them (the fine grid's 0.6755)."""
    import contextlib
    import io
    from unittest import mock

    from specmodel.cli import main
    from specmodel.display import alpha_text
    assert [alpha_text(a) for a in (0.5, 0.9, 0.75, 0.6755, 1.0)] == ["0.50", "0.90", "0.75", "0.6755", "1.00"]
    seen = 0
    for path in sorted(DATA.glob("*.log")):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()), \
                mock.patch("sys.stdin", io.StringIO(path.read_text())):
            main(["fit-metrics", "-", "--site-grid"])
        for value in re.findall(r"α = ([\d.]+)", out.getvalue()):
            seen += 1
            assert re.fullmatch(r"\d\.\d\d", value), (path.name, value)
    assert seen > 10


def test_the_gamma_by_load_flag_says_what_it_does_and_vllms_limits():
    """Found by a cold read: "each range the loads nearest one batch size" had no verb, "vLLM ≥ 0.24"
    no source, and vLLM's own limits for the feature (tested with EAGLE, EAGLE-3 and DFlash; off
    under data parallelism) were not said, for a draft model, n-gram and a data-parallel log."""
    from specmodel.metrics.report import DYNAMIC_SD_LIMITS, DYNAMIC_SD_OFF, DYNAMIC_SD_SCHEDULE
    out = _cli(str(DATA / "v1-engine-running.log"), "--site-grid", "--batch", "1").stdout
    flag = next(i for i, line in enumerate(out.splitlines()) if "num_speculative_tokens_per_batch_size" in line)
    said = out.splitlines()[flag - 1]
    assert f"{DYNAMIC_SD_SCHEDULE}; {DYNAMIC_SD_LIMITS}:" in said and "vLLM ≥ 0.24" not in out
    # DFlash, named nowhere else on the site, says what it is (found by a cold read)
    assert "DFlash (a drafter that guesses a whole block of tokens in one pass)" in said
    # a text from several data-parallel engines is not offered the flag vLLM turns off there (found
    # by a cold read: offered beside the note that the scrape came from two engines)
    for name in ("v1-two-engines.log", "prometheus-two.txt"):
        out = _cli(str(DATA / name), "--site-grid").stdout
        assert "data-parallel engines each run their own batch" in out, name
        assert DYNAMIC_SD_OFF in out and "num_speculative_tokens_per_batch_size" not in out, name


@pytest.mark.parametrize("name", ["prometheus-zero-drafts.txt", "v1-0.8.3.log", "v1-unreadable.log"])
def test_a_text_read_but_not_fittable_says_what_to_give_not_every_kind_it_reads(name):
    """Found by a cold read: the error for a text of a kind fit-metrics reads ended with "allowed:"
    and the list of every kind it reads, with a whole example line; and told a command-line user to
    "paste" (the page and the command line share the words: "give")."""
    err = _cli(str(DATA / name), "--site-grid").stderr
    assert err.startswith("specmodel: error: metrics: the ") and "cannot be fitted" in err, err
    assert "allowed:" not in err and "for example" not in err and "paste" not in err, err
    nothing = _cli(str(DATA / "not-metrics.txt")).stderr
    assert "allowed:" in nothing and "for example" in nothing  # a text of no kind it reads: the kinds


def test_every_note_of_the_command_line_begins_in_one_case():
    """Found by a cold read: "note: One scrape: …" beside "note: batch 64: …". The command line's
    notes begin in lower case (report.note_text), however the page sets them; names stay."""
    from specmodel.metrics.report import note_text
    assert note_text("One scrape: its counters") == "one scrape: its counters"
    assert [note_text(n) for n in ("V0 prints", "vLLM V0", "γ changed", "EAGLE-3 heads", "Prometheus text")] == [
        "V0 prints", "vLLM V0", "γ changed", "EAGLE-3 heads", "Prometheus text"]
    for path in sorted(DATA.glob("*.log")) + sorted(DATA.glob("*.txt")):
        if path.name == "not-metrics.txt":
            continue
        out = _cli(str(path), "--site-grid")
        notes = re.findall(r"note: (\S+)", out.stdout)
        assert [w for w in notes if re.fullmatch(r"[A-Z][a-z]+:?", w)] == [], (path.name, notes)


def test_a_gain_smaller_than_the_models_step_time_error_is_said_to_be():
    """Found by a cold read: "speculation pays at every batch size that fits in memory, up to 64"
    where it gains 0.3% at 64, inside the calibrated model's median error on measured step times
    (2.8%). The answer names such loads, and the error, from the measurements."""
    from specmodel import default_catalog
    from specmodel.cli import _step_time_errors
    from specmodel.metrics.report import thin_gains_text
    out = json.loads(_cli(str(DATA / "v0.log"), "--site-grid", "--json").stdout)
    error = out["step_time_error"]
    assert error == _step_time_errors(default_catalog())["calibrated"] and 0.01 < error < 0.05
    schedule = {r["batch"]: r for r in out["advice"]["schedule"]}
    assert out["thin_gain_batches"] == [b for b, r in schedule.items()
                                        if r["fits_in_memory"] and r["recommended_gamma"] and r["best_speedup"] < 1 + error]
    assert out["thin_gain_batches"] == [64] and 1 < schedule[64]["best_speedup"] < 1.01
    text = _cli(str(DATA / "v0.log"), "--site-grid").stdout
    assert f"  {thin_gains_text([64], error)}\n" in text
    assert thin_gains_text([64], error).startswith("at batch 64 speculation gains less than 2.8%,")
    assert thin_gains_text([1, 2, 4], error).startswith("at batch 1, 2 and 4 speculation")
    # a wide margin says nothing
    text = _cli(str(DATA / "v1-ngram.log"), "--site-grid", "--drafter", "ngram").stdout
    assert "gains less than" not in text


RUNNING_2000 = ((DATA / "v1-engine-running.log").read_text().replace("Running: 16 reqs", "Running: 2000 reqs")
                .replace("Running: 0 reqs", "Running: 2000 reqs"))


def test_a_running_count_is_written_with_its_thousands_separator():
    """Found by a cold read: "2000 running requests: the simulation's nearest batch size is 1024"
    beside "1,024 sequences" in the same answer. Page and command line group it (parse.grouped)."""
    out = _cli("-", "--site-grid", stdin=RUNNING_2000).stdout
    assert "2000" not in out and "running requests: 2,000, the median" in out, out
    assert "2,000 running requests: the simulation's nearest batch size on its doubling scale is 1,024" in out, out
    # one idle line is "it", not "them"
    idle = (DATA / "v1-ngram.log").read_text() + "INFO Engine 000: Avg prompt throughput: 0.0 tokens/s, Running: 0 reqs\n"
    out = _cli("-", stdin=idle).stdout
    assert "Running: 0 reqs (idle): the load cannot be told from it." in out, out


def test_at_the_first_load_that_does_not_pay_the_answer_says_where_it_does():
    """Found by a cold read: at 32 running requests, the first batch size at which no γ pays, the
    answer said it does not pay there and nothing of the 1.24× … 1.10× the table shows at 1–16."""
    out = _cli(str(DATA / "prometheus-restarted.txt"), "--site-grid")
    assert out.returncode == 0, out.stderr
    assert "  speculation pays only at batch 1–16 (at its best γ)\n" in out.stdout, out.stdout
    assert "stops paying" not in out.stdout


def test_a_gamma_the_answer_does_not_recommend_gets_no_caution_to_measure_it():
    """Found by a cold read: at 64 sequences "best γ … 2 (0.9x×), slower than plain decoding",
    "use γ 0", and still "measure before trusting γ = 2". The caution is for a γ the answer
    recommends."""
    from specmodel.metrics.report import advice_text
    from specmodel import default_catalog
    fit = fit_acceptance(parse_metrics((DATA / "v1-gamma1.log").read_text()), FIELDS["alpha"].grid)
    said = {}
    for batch in FIELDS["batch"].grid:
        advice = advise(State(batch=batch), fit)
        text = advice_text(advice, default_catalog())
        if advice.best_gamma > fit.gamma:
            said[batch] = ("measure before trusting" in text, bool(advice.recommended_gamma))
    assert said and all(caution == recommended for caution, recommended in said.values()), said
    assert {recommended for _, recommended in said.values()} == {True, False}, said


def test_a_scrape_naming_a_model_is_priced_on_it_where_the_catalog_has_it_and_says_so():
    """Found by cold reads: a scrape whose samples name meta-llama/Llama-3.3-70B-Instruct (vLLM's
    model_name label) was priced as Qwen3-8B, the default target, first unsaid, then with a note
    telling the reader to set the target the text had named. A model the catalog has is priced
    (--target overrides it, with a note); one it lacks is priced as the default, said so."""
    from specmodel import default_catalog
    other = (DATA / "prometheus-another-model.txt").read_text()
    assert parse_metrics(other).model_names == ("meta-llama/Llama-3.3-70B-Instruct",)
    state = json.loads(_cli("-", "--json", stdin=other).stdout)["advice"]["state"]
    # on the GPUs the site gives it, with a drafter of its family
    assert state["target"] == "llama-3.3-70b-instruct"
    assert state["tp"] == default_catalog().tensor_parallel_for("h100-sxm", "llama-3.3-70b-instruct") > 1
    assert state["drafter"] == default_catalog().default_drafter_for("llama-3.3-70b-instruct")
    assert ("note: target llama-3.3-70b-instruct: the text names it, 'meta-llama/Llama-3.3-70B-Instruct' (its model_name "
            "label); --target sets the target priced") in _cli("-", stdin=other).stdout
    note = ("note: target qwen3-8b: the text names the model 'meta-llama/Llama-3.3-70B-Instruct' (its model_name label), "
            "not Qwen3-8B; --target sets the target priced")
    assert note in _cli("-", "--target", "qwen3-8b", stdin=other).stdout
    assert "model_name" not in _cli("-", "--target", "llama-3.3-70b-instruct", stdin=other).stdout
    # a model the catalog lacks: the default target, said
    mistral = other.replace("meta-llama/Llama-3.3-70B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3")
    assert ("note: target qwen3-8b: the text names the model 'mistralai/Mistral-7B-Instruct-v0.3' (its model_name "
            "label), not Qwen3-8B") in _cli("-", stdin=mistral).stdout
    assert parse_metrics((DATA / "prometheus-one.txt").read_text()).model_names == ("Qwen/Qwen3-8B",)
    assert "not Qwen3-8B" not in _cli(str(DATA / "prometheus-one.txt")).stdout
    assert parse_metrics((DATA / "v1-ngram.log").read_text()).model_names == ()
    assert "target qwen3-8b" not in _cli(str(DATA / "v1-ngram.log")).stdout
    # a served name without its organisation, in another case, is the model's too; a long one is cut
    assert "target qwen3-14b: the text names it, 'qwen3-14B'" in _cli(
        "-", stdin=other.replace("meta-llama/Llama-3.3-70B-Instruct", "qwen3-14B")).stdout
    long = "x" * 80
    assert f"the model '{'x' * 60}…' (its" in _cli("-", stdin=other.replace("meta-llama/Llama-3.3-70B-Instruct", long)).stdout
    # two models are two servers (found by a cold read: their counts and loads were added up as
    # one): the first's samples are read and priced, the other's left out, said
    two = other + other.replace("meta-llama/Llama-3.3-70B-Instruct", "Qwen/Qwen3-14B").replace('engine="0"', 'engine="1"')
    reading = parse_metrics(two)
    assert reading.model_names == ("meta-llama/Llama-3.3-70B-Instruct",)
    assert (reading.running_requests, reading.num_drafts) == (parse_metrics(other).running_requests, parse_metrics(other).num_drafts)
    assert reading.notes[0] == ("The text holds the metrics of 2 models (their model_name labels), so of as many servers: "
                                "only those of 'meta-llama/Llama-3.3-70B-Instruct', the first, were read, and those of "
                                "'Qwen/Qwen3-14B' left out; give one server's scrapes.")
    assert json.loads(_cli("-", "--json", stdin=two).stdout)["advice"]["state"]["target"] == "llama-3.3-70b-instruct"


def test_a_log_whose_start_up_line_names_its_target_and_drafter_is_priced_on_them():
    """Found by cold reads: a vLLM log whose start-up line names meta-llama/Llama-3.1-8B-Instruct
    and its EAGLE-3 head was answered "The text does not say which drafter produced it" and priced
    Qwen3-8B with a Qwen3-0.6B draft model, unsaid; then told to set the deployment it had named.
    The start-up line is read and the catalog's target and drafter it names are priced, said so;
    where options price others, the notes say what the text named."""
    from specmodel import default_catalog
    path = DATA / "v1-startup-eagle3.log"
    text = path.read_text()
    assert parse_metrics(text).startup == {"model": "meta-llama/Llama-3.1-8B-Instruct", "method": "eagle3",
                                           "draft_model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                                           "tensor_parallel_size": 1, "num_speculative_tokens": 3,
                                           "said_in": "vLLM's start-up line", "method_given": True, "served_model_name": None}
    out = _cli(str(path)).stdout
    assert ("note: target llama-3.1-8b-instruct: the text names it, 'meta-llama/Llama-3.1-8B-Instruct' (vLLM's "
            "start-up line); --target sets the target priced") in out
    assert ("note: drafter eagle3: the text names it, method 'eagle3', model 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B' "
            "(vLLM's start-up line); --drafter sets the drafter priced") in out
    assert json.loads(_cli(str(path), "--json").stdout)["advice"]["state"]["drafter"] == "eagle3"
    others = _cli(str(path), "--target", "qwen3-8b", "--drafter", "qwen3-0.6b").stdout
    assert ("note: drafter qwen3-0.6b: the text names the drafter method 'eagle3', model "
            "'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B' (vLLM's start-up line); --drafter sets the drafter priced") in others
    assert ("note: target qwen3-8b: the text names the model 'meta-llama/Llama-3.1-8B-Instruct' (vLLM's start-up "
            "line), not Qwen3-8B; --target sets the target priced") in others
    own = _cli(str(path), "--target", "llama-3.1-8b-instruct", "--drafter", "eagle3", "--tp", "1").stdout
    assert "start-up line" not in own
    # the head the text names is the Llama target's: on another target the catalog's head for it
    # is priced, and said (found by a cold read: "the text names it" of AngelSlim's Qwen3-14B head)
    qwen = _cli(str(path), "--target", "qwen3-14b").stdout
    assert ("note: drafter eagle3: the text names the drafter method 'eagle3', model 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B' "
            "(vLLM's start-up line); this prices the catalog's EAGLE-3 head for Qwen3-14B, 'AngelSlim/Qwen3-14B_eagle3'; "
            "--drafter sets the drafter priced") in qwen
    assert "drafter eagle3: the text names it" not in qwen and "AngelSlim/Qwen3-14B_eagle3" in qwen
    # the GPUs the line names are priced, said (found by a cold read: a log on 2 GPUs priced on
    # the site's 1, unsaid); --tp prices others, said; a number the model does not price, said
    two = text.replace("tensor_parallel_size=1", "tensor_parallel_size=2")
    assert json.loads(_cli("-", "--json", stdin=two).stdout)["advice"]["state"]["tp"] == 2
    assert ("note: tp 2: the text names it, tensor_parallel_size=2 (vLLM's start-up line); --tp sets the GPUs "
            "priced") in _cli("-", stdin=two).stdout
    assert ("note: tp 4: the text names tensor_parallel_size=2 (vLLM's start-up line); --tp sets the GPUs "
            "priced") in _cli("-", "--tp", "4", stdin=two).stdout
    sixteen = _cli("-", stdin=text.replace("tensor_parallel_size=1", "tensor_parallel_size=16")).stdout
    assert ("note: tp 1: the text names tensor_parallel_size=16 (vLLM's start-up line); the model prices 1, 2, 4 or "
            "8 GPUs, so this prices Llama-3.1-8B-Instruct on 1 GPU, as the site does; --tp sets the GPUs priced") in sixteen
    # a count for the text's own target, not for another the reader asks about (found by a cold read)
    assert "tensor_parallel_size" not in _cli("-", "--target", "llama-3.3-70b-instruct", stdin=two).stdout
    assert json.loads(_cli("-", "--json", "--target", "llama-3.3-70b-instruct", stdin=two).stdout)["advice"]["state"]["tp"] == 4
    # a variant of a catalog target (a later release, a quantisation): the nearest, said (found by a
    # cold read: Qwen3-30B-A3B-Instruct-2507 with the catalog's head for Qwen3-30B-A3B priced Qwen3-8B)
    moe = text.replace("model='meta-llama/Llama-3.1-8B-Instruct'", "model='Qwen/Qwen3-30B-A3B-Instruct-2507'").replace(
        "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'", "model='AngelSlim/Qwen3-a3B_eagle3'")
    out = _cli("-", stdin=moe).stdout
    assert ("note: target qwen3-30b-a3b: the text names 'Qwen/Qwen3-30B-A3B-Instruct-2507' (vLLM's start-up line), the "
            "nearest the catalog has being Qwen3-30B-A3B, 'Qwen/Qwen3-30B-A3B'; --target sets the target priced") in out
    assert "drafter eagle3: the text names it" in out
    # a base checkpoint of a catalog draft model: that one, its checkpoint said
    base = text.replace("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'",
                        "method='draft_model', model='meta-llama/Llama-3.2-1B'")
    assert ("drafter llama-3.2-1b: the text names the drafter method 'draft_model', model 'meta-llama/Llama-3.2-1B' (vLLM's "
            "start-up line); this prices the catalog's Llama-3.2-1B draft model for Llama-3.1-8B-Instruct, "
            "'meta-llama/Llama-3.2-1B-Instruct'") in _cli("-", stdin=base).stdout
    # a log from before Meta renamed the repository names the target by its former id (found by a
    # cold read: meta-llama/Meta-Llama-3.1-8B-Instruct refused)
    former = text.replace("model='meta-llama/Llama-3.1-8B-Instruct'", "model='meta-llama/Meta-Llama-3.1-8B-Instruct'")
    assert ("note: target llama-3.1-8b-instruct: the text names it, 'meta-llama/Meta-Llama-3.1-8B-Instruct' (vLLM's "
            "start-up line)") in _cli("-", stdin=former).stdout
    # n-gram's line names no draft model; a draft model is named by its id's last part
    ngram = text.replace("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'", "method='ngram', model=None")
    assert parse_metrics(ngram).startup["draft_model"] is None
    assert "drafter ngram: the text names it, method 'ngram' (vLLM's start-up line)" in _cli("-", stdin=ngram).stdout
    assert "the text names the drafter method 'ngram' (vLLM's start-up line)" in _cli("-", "--drafter", "eagle3", stdin=ngram).stdout
    # a line shortened by hand to its method (found by a cold read: read as naming no drafter)
    suffix = text.replace("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'", "method='suffix'")
    assert parse_metrics(suffix).startup["method"] == "suffix" and parse_metrics(suffix).startup["draft_model"] is None
    assert "the text names the drafter method 'suffix' (vLLM's start-up line)" in _cli("-", stdin=suffix).stdout
    draft = text.replace("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'",
                         "method='draft_model', model='meta-llama/Llama-3.2-1B-Instruct'")
    assert json.loads(_cli("-", "--json", stdin=draft).stdout)["advice"]["state"]["drafter"] == "llama-3.2-1b"
    assert "the text names the drafter" not in _cli("-", "--drafter", "llama-3.2-1b", stdin=draft).stdout
    # a drafter the named target cannot take is not priced, and said
    qwen_draft = text.replace("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'",
                              "method='draft_model', model='Qwen/Qwen3-0.6B'")
    out = json.loads(_cli("-", "--json", stdin=qwen_draft).stdout)
    assert out["advice"]["state"]["drafter"] == default_catalog().default_drafter_for("llama-3.1-8b-instruct")
    assert any("the text names the drafter method 'draft_model', model 'Qwen/Qwen3-0.6B' (vLLM's start-up line); the "
               "catalog's Qwen3-0.6B draft model cannot draft for Llama-3.1-8B-Instruct (another model family)" in n
               for n in out["notes"]), out["notes"]
    assert parse_metrics((DATA / "v1-ngram.log").read_text()).startup is None
    # vLLM's other start-up line, "non-default args: {…}", and one cut before "with config:" (found
    # by a cold read: both answered "The text does not say which drafter produced it")
    args = parse_metrics((DATA / "v1-non-default-args.log").read_text()).startup
    assert args == {"model": "Qwen/Qwen3-14B", "method": "eagle3", "draft_model": "AngelSlim/Qwen3-14B_eagle3",
                    "tensor_parallel_size": 2, "num_speculative_tokens": 3, "said_in": "vLLM's start-up line",
                    "method_given": True, "served_model_name": None}
    out = _cli("-", stdin=(DATA / "v1-non-default-args.log").read_text()).stdout
    assert "target qwen3-14b: the text names it, 'Qwen/Qwen3-14B' (vLLM's start-up line)" in out
    assert "drafter eagle3: the text names it, method 'eagle3', model 'AngelSlim/Qwen3-14B_eagle3'" in out
    cut = text.replace("Initializing a V1 LLM engine (v0.10.1) with config: ", "")
    assert parse_metrics(cut).startup == parse_metrics(text).startup


def test_a_scrape_cut_short_is_said_to_be_and_a_load_from_engine_lines_is_said_to_be_theirs():
    """Found by a cold read: a scrape cut inside its last per-position sample was refused for
    numbers that cannot be (its positions were short of γ); a scrape without the running gauge,
    pasted with engine log lines, was priced at their load and the command line said the load came
    from the gauge."""
    from specmodel.metrics import MetricsInputError
    whole = (DATA / "prometheus-one.txt").read_text()
    cut = whole[:whole.rindex('model_name="Qwen/Qwen3-8B",position="3"') + len("model_name=")]
    with pytest.raises(MetricsInputError, match=r"the scrape is cut off before its end \(its last line ends "
                                                 r"'…s_total\{engine=\"0\",model_name='\); give whole scrapes"):
        parse_metrics(cut)
    assert parse_metrics(whole + "# EOF\n").num_drafts == parse_metrics(whole).num_drafts  # a comment ends it whole
    # cut after the per-position counter's "# TYPE" line: not an older vLLM, which has no such counter
    lines = whole.splitlines(True)
    declared = "".join(lines[:next(i for i, line in enumerate(lines) if 'position="0"' in line)])
    with pytest.raises(MetricsInputError, match=r"the scrape declares \S+_per_pos but holds none of its samples: it "
                                                 r"is cut off before its end"):
        parse_metrics(declared)
    # cut after a whole sample: its positions short of γ, the refusal says it may be cut there
    short = whole[:whole.index('model_name="Qwen/Qwen3-8B",position="2"')].rsplit("\n", 1)[0] + "\n"
    with pytest.raises(MetricsInputError, match=r"4800000 draft tokens in 1200000 drafts \(the scrape ends with "
                                                 r"position 1's sample: if it is cut off there, give whole scrapes\)"):
        parse_metrics(short)
    with pytest.raises(MetricsInputError) as whole_but_wrong:  # not said where the text does not end there
        parse_metrics(short + "# EOF\n")
    assert "cut off" not in str(whole_but_wrong.value)
    out = _cli(str(DATA / "prometheus-engine-running.txt"), "--site-grid").stdout
    assert "note: batch 16: the engine log lines' Running: N reqs (see the note above)" in out
    assert "in the scrape" not in out
    assert "note: batch 16: vllm:num_requests_running in the scrape" in _cli(str(DATA / "prometheus-one.txt"), "--site-grid").stdout


def test_of_several_servers_start_up_lines_the_one_of_the_metrics_gamma_is_read_and_said():
    """Found by a cold read: two servers' logs pasted together (two start-up lines, or one
    server's vllm serve flags and another's start-up line) were priced on the last, whichever
    server the metrics came from, unsaid. The one whose γ is the metrics' positions is read, and a
    note names every server; one server's flags and start-up line are one server."""
    two = parse_metrics((DATA / "v1-two-servers.log").read_text())
    assert (two.startup["model"], two.startup["method"], two.startup["said_in"]) == (
        "meta-llama/Llama-3.1-8B-Instruct", "eagle3", "vLLM's start-up line")
    state = json.loads(_cli(str(DATA / "v1-two-servers.log"), "--json").stdout)["advice"]["state"]
    assert (state["target"], state["drafter"]) == ("llama-3.1-8b-instruct", "eagle3")
    flags = parse_metrics((DATA / "v1-flags-and-other-startup.log").read_text())
    assert flags.startup["said_in"] == "its vllm serve flags" and flags.startup["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    # both of the metrics' γ: the last, said to be a guess; its γ note says it is the one read
    same_gamma = (DATA / "v1-two-servers.log").read_text().replace("num_spec_tokens=5", "num_spec_tokens=3")
    guessed = parse_metrics(same_gamma)
    assert guessed.startup["model"] == "Qwen/Qwen3-8B"
    assert "the second's, the last in the text, as the metrics do not say which server they came from" in guessed.notes[0]
    other = parse_metrics((DATA / "v1-two-servers.log").read_text().replace("num_spec_tokens=3", "num_spec_tokens=4"))
    assert other.notes[1].startswith("The start-up line read sets num_speculative_tokens = 5")
    # a start-up line serving another model than the scrape's label: another server's, not read
    # (found by a cold read: its draft model was priced with the scrape's acceptance, unsaid)
    scrape = (DATA / "prometheus-one.txt").read_text()
    other = (DATA / "prometheus-other-server-startup.txt").read_text()
    assert parse_metrics(other).startup is None
    state = json.loads(_cli(str(DATA / "prometheus-other-server-startup.txt"), "--json").stdout)["advice"]["state"]
    assert (state["target"], state["drafter"]) == ("qwen3-8b", "qwen3-0.6b")
    # the scrape's model among several start-up lines: its own is read, and said to be
    own = other.splitlines(True)[0].replace("Qwen3-14B", "Qwen3-8B").replace("Qwen3-1.7B", "Qwen3-0.6B")
    chosen = parse_metrics(own + other)
    assert (chosen.startup["model"], chosen.startup["draft_model"]) == ("Qwen/Qwen3-8B", "Qwen/Qwen3-0.6B")
    assert "are the first's, whose model is the counters' ('Qwen/Qwen3-8B')" in chosen.notes[0]
    # served under another name (--served-model-name): the label is that name, and it is one server
    alias = other.replace("served_model_name=Qwen/Qwen3-14B", "served_model_name=qwen").replace(
        'model_name="Qwen/Qwen3-8B"', 'model_name="qwen"')
    assert parse_metrics(alias).startup["model"] == "Qwen/Qwen3-14B"
    assert parse_metrics(alias).startup["served_model_name"] == "qwen"
    lookup = json.dumps({"num_speculative_tokens": 4, "method": "ngram"})
    served_as = f"vllm serve Qwen/Qwen3-8B --served-model-name qwen --speculative-config '{lookup}'\n"
    assert parse_metrics(served_as + scrape.replace('model_name="Qwen/Qwen3-8B"', 'model_name="qwen"')
                         ).startup["method"] == "ngram"
    # the model's name without its organisation, as a served name may be given
    assert parse_metrics(other.replace(", served_model_name=Qwen/Qwen3-14B", "").replace(
        'model_name="Qwen/Qwen3-8B"', 'model_name="qwen3-14b"')).startup is not None
    # one server: its flags, its non-default args and its start-up line
    lines = (DATA / "v1-serve-flags.log").read_text().splitlines(True)
    one = "".join(lines[:3]) + (DATA / "v1-startup-eagle3.log").read_text()
    assert not any("servers" in n for n in parse_metrics(one).notes)
    # two commands: each flag's served model is its own command's
    llama = "".join(lines[:3])
    qwen = llama.replace("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-8B").replace("eagle3", "eagle").replace(": 3}", ": 5}")
    both = parse_metrics(qwen + llama + lines[3])
    assert both.startup["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert "'Qwen/Qwen3-8B' (method 'eagle', γ = 5)" in both.notes[0]


def test_a_load_that_moved_between_scrapes_is_said_to_be_the_last_scrapes():
    """Found by a cold read: two scrapes at 12 and 40 running requests were priced at 40, unsaid.
    A gauge that moved by a doubling or more over the window is said; less is not (a gauge moves
    all the time)."""
    moved = parse_metrics((DATA / "prometheus-load-moved.txt").read_text())
    assert moved.running_requests == 40 and "12 in the first of the 2 scrapes and 40 in the last" in moved.notes[0]
    assert "load moved" in _cli(str(DATA / "prometheus-load-moved.txt"), "--site-grid").stdout
    assert not any("load moved" in n for n in parse_metrics((DATA / "prometheus-two.txt").read_text()).notes)


def test_vllm_serve_flags_name_the_drafter_and_target_as_a_start_up_line_does():
    """Found by a cold read: the simulation's own --speculative-config, pasted back with its log
    line, was answered "The text does not say which drafter produced it". `vllm serve` flags name
    the drafter (and the model served, where the command names it), said to be the flags'."""
    flags = parse_metrics((DATA / "v1-speculative-config-only.log").read_text()).startup
    assert flags == {"model": None, "method": "eagle3", "draft_model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                     "tensor_parallel_size": None, "num_speculative_tokens": 3, "said_in": "its vllm serve flags",
                     "method_given": True, "served_model_name": None}
    out = _cli(str(DATA / "v1-speculative-config-only.log")).stdout
    assert "does not say which drafter" not in out
    assert "the text names the drafter method 'eagle3', model 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B' (its vllm serve flags)" in out
    served = parse_metrics((DATA / "v1-serve-flags.log").read_text())
    assert served.startup["model"] == "meta-llama/Llama-3.1-8B-Instruct" and served.startup["tensor_parallel_size"] == 1
    state = json.loads(_cli(str(DATA / "v1-serve-flags.log"), "--json").stdout)["advice"]["state"]
    assert (state["target"], state["drafter"]) == ("llama-3.1-8b-instruct", "eagle3")
    # no method: vLLM's, by the draft model's name (found by a cold read: "does not say which
    # drafter", where the essay says vLLM takes such a config), in the flags and the start-up line
    no_method = parse_metrics((DATA / "v1-serve-flags-no-method.log").read_text())
    assert (no_method.startup["model"], no_method.startup["method"], no_method.startup["method_given"]) == (
        "Qwen/Qwen3-14B", "draft_model", False)
    out = _cli(str(DATA / "v1-serve-flags-no-method.log")).stdout
    assert ("drafter qwen3-1.7b: the text names it, model 'Qwen/Qwen3-1.7B', which vLLM runs as method 'draft_model' "
            "(none given) (its vllm serve flags)") in out
    assert "target qwen3-14b: the text names it, 'Qwen/Qwen3-14B' (its vllm serve flags)" in out
    args = (DATA / "v1-non-default-args.log").read_text().replace("'method': 'eagle3', ", "")
    assert parse_metrics(args).startup["method"] == "eagle3" and not parse_metrics(args).startup["method_given"]
    # not a JSON object, or NaN (which JavaScript's JSON does not read): no flags
    for bad in ("'{method: eagle3}'", "'[1]'", '\'{"method": "eagle3", "num_speculative_tokens": NaN}\''):
        assert parse_metrics(f"--speculative-config {bad}\n" + (DATA / "v1-ngram.log").read_text()).startup is None, bad
