"""The essay's prose: its named states, the claims its sentences make about them, and its text.

The prose quotes numbers through template expressions, so they follow the model. But sentences
also make claims the numbers alone do not carry ("γ = 3 beats γ = 4 at one sequence", "that state
does not fit on the card"). Each such claim is checked here against the model, so a change to the
model that would make a sentence false fails a test instead of shipping a wrong sentence.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import parse_qsl

import numpy as np
import pytest

from generator.axes import axes, defaults, site_state
from generator.essay_states import ESSAY_STATES
from specmodel import Triples, default_catalog, evaluate, evaluate_grid
from specmodel.closed_forms import arithmetic_increase

AXES = axes(default_catalog())
DEFAULTS = defaults()
ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "generator" / "templates"
# The seed essay stays outside the repository; its 8-word runs are kept as hashes so the
# own-words check runs in any clone.
SEED_RUN_HASHES = ROOT / "tests" / "data" / "seed-8gram-sha256.txt"
RUN = 8  # words in a row that count as copying


@lru_cache(maxsize=None)
def r(name: str):
    """Readouts of a named state."""
    return evaluate(site_state(**ESSAY_STATES[name]))


def speedup(**changes) -> float:
    return evaluate(site_state(**changes)).speedup


# --- the named states ----------------------------------------------------------------------


def test_every_named_state_is_on_the_site_grid():
    # explorable links set the simulation to the state, so every value must be a control value
    for name, changes in ESSAY_STATES.items():
        for key, value in changes.items():
            assert key in AXES, f"{name}: {key} is not a control"
            assert value in AXES[key], f"{name}: {key}={value} is not on the grid"


def test_state_names_do_not_shadow_other_template_variables():
    reserved = {"target", "gpu", "drafters", "constants", "cf", "sampler", "claims", "paper", "axes",
                "labels", "sim", "chart", "live", "root"}
    assert not reserved & set(ESSAY_STATES)


# --- what the sentences claim ---------------------------------------------------------------


def test_idle_gpu_wins_busy_gpu_loses():
    assert r("start").speedup > 1 > r("busy").speedup
    assert r("b1024").speedup < 1
    # "the acceptance length has not moved, and neither has the arithmetic ratio"
    assert r("busy").mean_acceptance_length == pytest.approx(r("start").mean_acceptance_length)
    assert r("busy").arithmetic_ratio == pytest.approx(r("start").arithmetic_ratio, rel=0.01)
    assert r("g10").arithmetic_ratio > r("start").arithmetic_ratio


def test_idle_tensor_cores_fall_with_batch():
    idle = [r(n).tensor_core_idle_fraction for n in ("start", "b32", "busy", "b1024")]
    assert idle == sorted(idle, reverse=True)


def test_the_verify_pass_is_far_left_of_the_ridge():
    gpu = default_catalog().gpus[site_state().gpu]
    ridge = gpu.achieved_flops_per_s / gpu.achieved_bytes_per_s
    assert r("start").verify_flops / r("start").verify_bytes < ridge / 10


def test_ngram_stays_ahead_except_in_the_one_state_named():
    # "stays above break-even at every batch size" (at the starting context) and "the one state where
    # it falls behind is 1,024 sequences of 512 tokens" (at the starting γ, α and shape)
    default = site_state()
    catalog = default_catalog()
    triples = Triples(gamma=np.array([default.gamma]), alpha=np.array([default.alpha]),
                      falling=np.array([default.acceptance == "falling"]))
    grid = evaluate_grid(AXES["batch"], AXES["context"], [catalog.drafters["ngram"]], triples,
                         catalog.targets[default.target], catalog.gpus[default.gpu], default.output_tokens,
                         catalog.cost_model(default.cost_model, default.engine))
    s = grid.per_workload[default.workload]["speedup"][:, :, 0, 0]
    losing = {(AXES["batch"][i], AXES["context"][j]) for i, j in zip(*np.nonzero(s <= 1))}
    crowded = ESSAY_STATES["ngram_crowded"]
    assert losing == {(crowded["batch"], crowded["context"])}


def test_states_the_prose_says_do_not_fit():
    for name in ("b1024", "b128", "long_busy", "ngram_crowded"):
        assert not r(name).fits_in_memory, name
    for name in ("start", "busy", "ngram_b128", "long4", "b32"):
        assert r(name).fits_in_memory, name
    # "every rung from 128 sequences up with a draft model at this context" does not fit
    for batch in AXES["batch"]:
        fits = evaluate(site_state(batch=batch)).fits_in_memory
        assert fits == (batch < ESSAY_STATES["b128"]["batch"]), batch


def test_theorem_3_11_reproduced_and_not_undercut():
    assumed = site_state(**ESSAY_STATES["assumed"])
    thm = float(arithmetic_increase(assumed.alpha, assumed.gamma, 0.0))  # ĉ = 0: no draft arithmetic
    assert r("assumed_steady").arithmetic_ratio == pytest.approx(thm, rel=1e-6)
    assert r("assumed").arithmetic_ratio >= thm
    # removing either assumption raises the bill; removing both raises it most
    assert r("ngram").arithmetic_ratio > r("assumed").arithmetic_ratio
    assert r("same").arithmetic_ratio > r("assumed").arithmetic_ratio
    assert r("start").arithmetic_ratio > max(r("ngram").arithmetic_ratio, r("same").arithmetic_ratio)


def test_bigger_drafter_is_worse_even_when_it_guesses_better():
    assert r("d17").speedup < r("start").speedup
    assert r("d17a95").speedup < r("start").speedup < r("d06a95").speedup
    assert r("d17").draft_kv_bytes_per_token == r("start").draft_kv_bytes_per_token
    assert r("start").draft_weight_bytes < 0.1 * r("start").target_weight_bytes
    assert r("start").draft_kv_bytes_per_token > 0.5 * r("start").target_kv_bytes_per_token


def test_long_context_drafter_loses_even_at_small_batch():
    assert r("long4").speedup < 1
    assert r("long4").draft_time_share > 0.5


@pytest.mark.parametrize("batch, best_state", [(1, "g3"), (32, "b32g2"), (64, "busy_g1")])
def test_best_gamma_per_batch(batch, best_state):
    gammas = {g: speedup(batch=batch, gamma=g) for g in AXES["gamma"]}
    assert max(gammas, key=gammas.get) == ESSAY_STATES[best_state]["gamma"]


def test_gamma_claims():
    assert r("g3").speedup > r("start").speedup  # "the two are not tied"
    assert r("b32").speedup > 1  # γ = 4 still wins at 32 sequences …
    for g in AXES["gamma"]:
        if g >= ESSAY_STATES["b32g5"]["gamma"]:  # … "from γ = 5 on speculation loses"
            assert speedup(batch=32, gamma=g) < 1, g
    assert r("busy_g1").speedup > 1 > r("busy").speedup


def test_falling_acceptance_costs_speed():
    assert r("same").speedup > r("start").speedup
    assert r("same").mean_acceptance_length > r("start").mean_acceptance_length


def test_a_free_poor_guesser_still_helps():
    assert r("bigram").speedup > 1 and r("bigram_busy").speedup > 1


# --- the text -----------------------------------------------------------------------------


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def run_hash(run: str) -> str:
    return hashlib.sha256(run.encode()).hexdigest()[:16]


SEED_RUNS = {line for line in SEED_RUN_HASHES.read_text().split() if not line.startswith("#") and len(line) == 16}


def copied_runs(text: str) -> list[str]:
    ours = words(text)
    runs = (" ".join(ours[i:i + RUN]) for i in range(len(ours) - RUN + 1))
    return [r for r in runs if run_hash(r) in SEED_RUNS]


@pytest.mark.parametrize("name", ["index.md.j2", "model.md.j2", "simulation.html.j2"])
def test_no_run_of_the_seed_essay(name):
    assert copied_runs((TEMPLATES / name).read_text(encoding="utf-8")) == []


def test_the_own_words_check_can_fail():
    # the seed's opening words (stored reversed, so this file does not repeat them either)
    opening = "work less do model the make not does decoding speculative".split()
    assert copied_runs(" ".join(reversed(opening))) != []


def test_template_references_are_defined():
    text = (TEMPLATES / "index.md.j2").read_text(encoding="utf-8")
    charts = set(re.findall(r'chart\("(\w+)"', text))
    assert charts == {"gamma", "iteration", "roofline", "memory", "acceptance", "closed_form", "decision", "sampler"}
    assert '{% include "simulation.html.j2" %}' in text
    refs = set(re.findall(r"\[\^([\w-]+)\](?!:)", text))
    notes = set(re.findall(r"^\[\^([\w-]+)\]:", text, flags=re.M))
    assert refs == notes


@pytest.fixture(scope="module")
def pages():
    from generator.build import prepare, render_essay

    files, _ = render_essay(prepare())
    return {name: files[name].decode() for name in ("index.md", "model.md")}


def test_rendered_explorable_links_set_grid_states(pages):
    links = re.findall(r"\]\((\?[^)]*)\)\{\.explore\}", pages["index.md"])
    assert len(links) >= 10
    for query in links:
        for key, value in parse_qsl(query[1:]):
            name = {f["key"]: f["name"] for f in __import__("generator.axes", fromlist=["state_keys"]).state_keys()}[key]
            assert value in [str(v) for v in AXES[name]], query
            assert str(DEFAULTS[name]) != value, f"{query}: a default value in a link"


def test_rendered_pages_show_every_chart_and_leave_no_template_syntax(pages):
    for chart in ("gamma", "iteration", "roofline", "memory", "acceptance", "closed_form", "decision", "sampler"):
        assert f'id="figure-{chart}"' in pages["index.md"], chart
    for text in pages.values():
        assert "{{" not in text and "{%" not in text
