"""The step breakdown: its parts add up to the step the cost model prices, and it shows the
differences between the ideal and the calibrated model the essay describes."""
import numpy as np
import pytest

from specmodel import default_catalog
from specmodel.breakdown import STEP_PARTS, iteration_breakdown, plain_step_breakdown

CATALOG = default_catalog()
TARGET = CATALOG.targets["qwen3-8b"]
H100 = CATALOG.gpus["h100-sxm"]


def _iteration_time(cost, drafter, n, context, gamma):
    c = n * context
    return (drafter.draft_phase(cost, H100, n, c, gamma).time_s + drafter.iteration_extra_s(cost, n)
            + cost.forward_pass(TARGET, H100, n, c, gamma + 1).time_s + cost.step_overhead_s(n, gamma + 1))


@pytest.mark.parametrize("cost_model", ["whole-pass", "per-kernel", "calibrated"])
@pytest.mark.parametrize("drafter", ["qwen3-0.6b", "qwen3-1.7b", "ngram"])
@pytest.mark.parametrize("gamma", [1, 4, 10])
def test_the_parts_add_up_to_the_iteration(cost_model, drafter, gamma):
    cost = CATALOG.cost_model(cost_model, "vllm")
    d = CATALOG.drafters[drafter]
    n = np.array([1.0, 64.0, 1024.0])[:, None]
    context = np.array([512.0, 2176.0, 32896.0])[None, :]
    parts = iteration_breakdown(cost, d, TARGET, H100, n, context, gamma)
    assert tuple(parts) == STEP_PARTS
    assert all(np.all(v >= 0) for v in parts.values())
    np.testing.assert_allclose(sum(parts.values()), _iteration_time(cost, d, n, context, gamma), rtol=1e-12)


@pytest.mark.parametrize("cost_model", ["whole-pass", "per-kernel", "calibrated"])
def test_the_parts_add_up_to_a_plain_step(cost_model):
    cost = CATALOG.cost_model(cost_model, "vllm")
    n, context = np.array([1.0, 256.0]), 640.0
    parts = plain_step_breakdown(cost, TARGET, H100, n, context)
    total = cost.forward_pass(TARGET, H100, n, n * context, 1).time_s + cost.step_overhead_s(n, 1)
    np.testing.assert_allclose(sum(parts.values()), total, rtol=1e-12)
    assert np.all(parts["draft_passes"] == 0)


def test_the_ideal_model_has_no_fixed_costs_and_the_calibrated_one_does():
    d = CATALOG.drafters["qwen3-0.6b"]
    ideal = iteration_breakdown(CATALOG.cost_model("whole-pass", "vllm"), d, TARGET, H100, 1, 2176, 4)
    real = iteration_breakdown(CATALOG.cost_model("calibrated", "vllm"), d, TARGET, H100, 1, 2176, 4)
    for part in ("draft_launch_floor", "drafter_overhead", "target_launch_floor", "step_overhead"):
        assert float(ideal[part]) == 0
    # at one sequence a 0.6B draft pass is mostly launch floor (its 28 layers at ~83 µs each)
    assert float(real["draft_launch_floor"]) > 2 * float(real["draft_passes"])


def test_the_verify_matmuls_turn_compute_bound_before_the_whole_pass_does():
    # 64 sequences × 5 positions: 320 tokens per weight read, past the GEMMs' ridge; the whole
    # pass still reads the KV cache long enough to stay memory-bound.
    d = CATALOG.drafters["ngram"]
    ideal = iteration_breakdown(CATALOG.cost_model("whole-pass", "vllm"), d, TARGET, H100, 64, 2176, 4)
    kernels = iteration_breakdown(CATALOG.cost_model("per-kernel", "vllm"), d, TARGET, H100, 64, 2176, 4)
    assert float(ideal["target_whole_pass_at_flop_rate"]) == 0
    assert float(ideal["target_whole_pass_at_bandwidth"]) > 0
    assert float(kernels["target_weights_at_flop_rate"]) > float(kernels["target_weights_at_bandwidth"])
