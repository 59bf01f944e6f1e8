"""Properties of the model over its whole domain (hypothesis), and the grid against a literal
transcription of the spec."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_model import closed_batch
from specmodel import FIELDS, State, Triples, default_catalog, evaluate, evaluate_grid
from specmodel.acceptance import ACCEPTANCE_SHAPES, RISING_FIT_DATA, conditional_acceptance, per_position_acceptance
from specmodel.closed_forms import expected_tokens_per_iteration

alphas = st.floats(min_value=0.01, max_value=1.0)
gammas = st.integers(min_value=1, max_value=12)
CATALOG = default_catalog()


@st.composite
def states(draw):
    """Any state of the model: every target on every GPU, alone or split, with a drafter that
    drafts for it (whether it fits in memory or not: the model prices both)."""
    target = draw(st.sampled_from(list(CATALOG.targets)))
    return State(
        gpu=draw(st.sampled_from(list(CATALOG.gpus))),
        target=target,
        tp=draw(st.sampled_from(FIELDS["tp"].grid)),
        batch=draw(st.sampled_from([1, 3, 16, 64, 300, 1024])),
        context=draw(st.sampled_from([1, 512, 2048, 9000, 32768])),
        drafter=draw(st.sampled_from(CATALOG.drafters_for(target))),
        cost_model=draw(st.sampled_from(FIELDS["cost_model"].choices)),
        gamma=draw(gammas),
        alpha=draw(alphas),
        acceptance=draw(st.sampled_from(["falling", "same", "rising"])),
        workload=draw(st.sampled_from(["closed-batch", "steady-state"])),
        output_tokens=draw(st.sampled_from([1, 7, 64, 256])),
    )


SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(states())
def test_mean_acceptance_length_bounds(s):
    el = evaluate(s).mean_acceptance_length
    assert 1 - 1e-12 <= el <= s.gamma + 1 + 1e-12


@SETTINGS
@given(gammas, alphas, alphas, st.sampled_from(ACCEPTANCE_SHAPES))
def test_mean_acceptance_length_rises_with_alpha(gamma, a1, a2, shape):
    lo, hi = sorted((a1, a2))
    assert evaluate(gamma=gamma, alpha=lo, acceptance=shape).mean_acceptance_length <= \
        evaluate(gamma=gamma, alpha=hi, acceptance=shape).mean_acceptance_length + 1e-12


@SETTINGS
@given(gammas, alphas, st.sampled_from(ACCEPTANCE_SHAPES))
def test_per_position_never_rises(gamma, alpha, shape):
    p = per_position_acceptance(gamma, alpha, shape, gamma)
    assert np.all(np.diff(p) <= 1e-15)


@SETTINGS
@given(gammas, alphas)
def test_conditional_acceptance_orders_the_shapes(gamma, alpha):
    """Same α at position 1; after it rising ≥ same ≥ falling, and each shape moves its way."""
    a = {s: conditional_acceptance(gamma, alpha, s, gamma) for s in ACCEPTANCE_SHAPES}
    assert a["falling"][0] == a["same"][0] == pytest.approx(a["rising"][0])
    assert np.all(a["rising"] >= a["same"] - 1e-12) and np.all(a["same"] >= a["falling"] - 1e-12)
    assert np.all(np.diff(a["rising"]) >= -1e-12) and np.all(np.diff(a["falling"]) <= 1e-12)
    assert np.all(a["rising"] <= 1)


def test_rising_shape_reproduces_the_ngram_reports():
    """The rising shape's constant reproduces both vLLM n-gram per-position vectors it was fitted to
    within 0.02 RMS (α free per vector)."""
    for _, _, measured in RISING_FIT_DATA:
        k = len(measured)
        rms = min(float(np.sqrt(np.mean((per_position_acceptance(k, a, "rising", k) - measured) ** 2)))
                  for a in np.linspace(0.01, 1, 991))
        assert rms < 0.02


@SETTINGS
@given(gammas, alphas)
def test_same_acceptance_matches_eq1(gamma, alpha):
    el = evaluate(gamma=gamma, alpha=alpha, acceptance="same").mean_acceptance_length
    # rel 1e-9: the closed form loses digits to cancellation as α → 1; the sum does not
    assert el == pytest.approx(float(expected_tokens_per_iteration(alpha, gamma)), rel=1e-9)


@SETTINGS
@given(states())
def test_ngram_speedup_at_least_draft_model(s):
    # at the same α and γ a drafter that costs nothing beyond the verify pass wins
    ngram = evaluate(s.replace(drafter="ngram")).speedup
    for d in CATALOG.drafters_for(s.target):
        if CATALOG.drafter(d, s.target).kind == "draft-model":
            assert ngram >= evaluate(s.replace(drafter=d)).speedup - 1e-12


@SETTINGS
@given(states())
def test_arithmetic_ratio_at_least_one(s):
    # At α = 1 nothing is wasted, and a verify pass prices its positions' attention at the
    # context before the pass (the spec's formula), a hair under plain decoding's: ≥ 1 − 1e-4.
    assert evaluate(s).arithmetic_ratio >= 1 - 1e-4


@SETTINGS
@given(states())
def test_ngram_draft_share_is_zero_in_the_ideal_models_and_small_in_the_calibrated_one(s):
    _ngram_share_is_small(s)


@pytest.mark.parametrize("target, tp, gpu", [("qwen3-30b-a3b", 8, "h100-sxm"), ("qwen3-8b", 8, "h100-sxm"),
                                              ("qwen3-8b", 1, "h100-sxm"), ("llama-3.1-8b-instruct", 1, "b200")])
def test_ngram_draft_share_at_its_largest(target, tp, gpu):
    """The corners the property's draws may miss: the most sequences, the shortest context, γ = 1."""
    _ngram_share_is_small(State(batch=1024, context=1, drafter="ngram", gamma=1, alpha=1.0, acceptance="falling",
                                workload="closed-batch", cost_model="calibrated", engine="vllm", target=target,
                                gpu=gpu, tp=tp, output_tokens=1))


def _ngram_share_is_small(s):
    share = evaluate(s.replace(drafter="ngram")).draft_time_share
    if s.cost_model == "calibrated":
        # the CPU's prompt lookup: measured at most ~2 % on a dense 8B target (Liu et al. 2026); a
        # mixture of experts' pass, or a pass split over GPUs, is cheaper per token while the
        # lookup is not, so its share grows with the batch and as γ shrinks the verify pass: about
        # 17 % at the corner, 1,024 sequences at γ = 1 of the MoE on 8 GPUs (checked below). So is
        # a pass on a GPU faster than the H100 the lookup was measured beside (found once by the
        # property: 5.2 % for a dense 8B on a B200 at 64 sequences)
        h100 = CATALOG.gpus["h100-sxm"].peak_memory_bandwidth_bytes_per_s
        cheaper = (CATALOG.targets[s.target].is_moe or s.tp > 1
                   or CATALOG.gpus[s.gpu].peak_memory_bandwidth_bytes_per_s > h100)
        assert 0 < share < (0.2 if cheaper else 0.05)
    else:
        assert share == 0


@pytest.mark.parametrize("cost_model", FIELDS["cost_model"].choices)
def test_tensor_core_idle_falls_with_batch(cost_model):
    idle = [evaluate(batch=b, cost_model=cost_model).tensor_core_idle_fraction for b in (1, 32, 64, 1024)]
    assert idle == sorted(idle, reverse=True)


SITE_AXES = {k: np.array(FIELDS[k].grid) for k in ("batch", "context", "gamma", "alpha")}
# a dense target on one GPU, a mixture of experts on two, a large dense target on four of another kind
GRID_CONFIGS = [("h100-sxm", "qwen3-8b", 1), ("h100-sxm", "qwen3-30b-a3b", 2), ("mi300x", "llama-3.3-70b-instruct", 4)]
GRID_CASES = [(c, *k) for c in FIELDS["cost_model"].choices for k in GRID_CONFIGS]


def _site_grid(cost_model, gpu, target, tp):
    g, a, f = np.meshgrid(SITE_AXES["gamma"], SITE_AXES["alpha"], [0, 1, 2], indexing="ij")
    triples = Triples(g.ravel(), a.ravel(), f.ravel())
    cost = CATALOG.cost_model(cost_model, "vllm")
    drafters = [CATALOG.drafter(d, target) for d in CATALOG.drafters_for(target)]
    return triples, evaluate_grid(SITE_AXES["batch"], SITE_AXES["context"], drafters, triples,
                                  CATALOG.targets[target], CATALOG.gpu_group(gpu, tp), 256, cost)


@pytest.mark.parametrize("cost_model,gpu,target,tp", GRID_CASES)
def test_no_nan_or_infinity_anywhere_in_the_grid(cost_model, gpu, target, tp):
    _, r = _site_grid(cost_model, gpu, target, tp)
    arrays = [v for w in r.per_workload.values() for v in w.values()]
    arrays += list(r.acceptance.values()) + list(r.verify.values()) + list(r.draft.values())
    arrays += list(r.plain_pass.values()) + [r.memory_required_bytes, r.step_overhead_s, r.path_extra_s]
    for a in arrays:
        assert np.all(np.isfinite(a))


@pytest.mark.parametrize("cost_model,gpu,target,tp", GRID_CASES)
def test_grid_agrees_with_single_state_evaluation(cost_model, gpu, target, tp):
    triples, r = _site_grid(cost_model, gpu, target, tp)
    rng = np.random.default_rng(7)
    drafters = CATALOG.drafters_for(target)
    for _ in range(25):
        sizes = (SITE_AXES["batch"].size, SITE_AXES["context"].size, len(drafters), triples.gamma.size)
        bi, ci, di, si = (int(rng.integers(n)) for n in sizes)
        w = ["closed-batch", "steady-state"][int(rng.integers(2))]
        s = State(gpu=gpu, target=target, tp=tp, batch=int(SITE_AXES["batch"][bi]),
                  context=int(SITE_AXES["context"][ci]), drafter=drafters[di],
                  gamma=int(triples.gamma[si]), alpha=float(triples.alpha[si]),
                  acceptance=ACCEPTANCE_SHAPES[int(triples.shape[si])], workload=w, cost_model=cost_model)
        one = evaluate(s)
        assert r.per_workload[w]["speedup"][bi, ci, di, si] == pytest.approx(one.speedup, rel=1e-12)
        assert r.per_workload[w]["arithmetic_ratio"][bi, ci, di, si] == pytest.approx(one.arithmetic_ratio, rel=1e-12)


@pytest.mark.parametrize("state", [
    dict(batch=1, context=2048, drafter="qwen3-0.6b", gamma=4, alpha=0.75, acceptance="falling"),
    dict(batch=64, context=8192, drafter="qwen3-1.7b", gamma=7, alpha=0.3, acceptance="same"),
    dict(batch=5, context=100, drafter="ngram", gamma=2, alpha=0.95, acceptance="falling"),
    dict(batch=1024, context=512, drafter="qwen3-0.6b", gamma=10, alpha=0.05, acceptance="same"),
])
def test_vectorised_closed_batch_matches_literal_transcription(state):
    ref = closed_batch(**state)
    ours = evaluate(**state, cost_model="whole-pass")
    assert ours.speedup == pytest.approx(ref["speedup"], rel=1e-9)
    assert ours.arithmetic_ratio == pytest.approx(ref["arithmetic_ratio"], rel=1e-9)
