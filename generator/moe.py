"""Speculation on a mixture of experts beside dense targets of the same class: the rows of the
``moe`` figure and the values the essay quotes about it, straight from specmodel.

The comparison: EAGLE-3 heads at γ = 2 and their measured chat acceptance (AngelSlim's vLLM
benchmark, where the acceptance of both heads was measured at that γ; α rounded to the
simulation's grid), at 2,048 tokens of
context, on H100s, each target on the GPUs the site gives it (``axes.tensor_parallel_for``).
"""
from __future__ import annotations

from dataclasses import dataclass

from specmodel import FIELDS, Catalog, State, evaluate

from .axes import nearest_on_axis, tensor_parallel_for

MOE_TARGET = "qwen3-30b-a3b"
DENSE_TARGETS = ("qwen3-32b", "qwen3-8b")  # the same total size; the same GPU class of dense model
GPU = "h100-sxm"
DRAFTER = "eagle3"
GAMMA = 2
CONTEXT = 2048
BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256)


# What practitioners measured, quoted (not computed) beside the model: AngelSlim issue #163
# (Qwen3-30B-A3B, EAGLE-3 trees in SGLang, 4 H100s) and Red Hat's gpt-oss-120B study (vLLM).
REPORTS = {
    "sglang_tree": {"candidates_min": 4, "candidates_max": 64, "slower_from": 1, "slower_to": 32,
                    "faster_batch": 64, "faster_by": 0.06},
    "gpt_oss": {"concurrency": 200},
}
DENSE_RISE_TARGET = "qwen3-8b"
HIGH_BATCH = 64  # a batch at which a plain step of the MoE target reads nearly every expert


@dataclass(frozen=True)
class MoeStory:
    rows: list[dict]  # one per (target, batch), the figure's table
    values: dict  # what the prose quotes


def _state(catalog: Catalog, target: str, batch: int, cost_model: str = "calibrated") -> State:
    # α on the simulation's grid, as the decision map takes it: the figure's Qwen3-8B points are
    # then the simulation's numbers at the same settings, not a second decimal away from them
    alpha = nearest_on_axis(FIELDS["alpha"].grid, catalog.typical_acceptance[DRAFTER][target]["chat"].alpha)
    return State(gpu=GPU, target=target, tp=tensor_parallel_for(catalog, GPU, target), drafter=DRAFTER, gamma=GAMMA,
                 alpha=alpha, batch=batch, context=CONTEXT, cost_model=cost_model)


def moe_story(catalog: Catalog) -> MoeStory:
    moe = catalog.targets[MOE_TARGET]
    rows = []
    speedups: dict[str, dict[int, float]] = {}
    for target in (MOE_TARGET, *DENSE_TARGETS):
        arch = catalog.targets[target]
        speedups[target] = {}
        for batch in BATCHES:
            state = _state(catalog, target, batch)
            r = evaluate(state, catalog=catalog)
            ideal = evaluate(state.replace(cost_model="whole-pass"), catalog=catalog)
            speedups[target][batch] = r.speedup
            rows.append({
                "target": target, "label": arch.label, "tp": state.tp, "alpha": state.alpha, "moe": arch.is_moe,
                "batch": batch,
                "speedup": r.speedup, "ideal_speedup": ideal.speedup, "fits": r.fits_in_memory,
                "experts_plain": float(arch.expected_experts_touched(batch)) if arch.is_moe else None,
                "experts_verify": float(arch.expected_experts_touched(batch * (GAMMA + 1))) if arch.is_moe else None,
                "mean_acceptance_length": r.mean_acceptance_length,
            })
    moe_speedups = speedups[MOE_TARGET]
    low = min((b for b in BATCHES if b > 1), key=lambda b: moe_speedups[b])
    # The dense 8B line rises before it falls: from its lowest point past one sequence to its peak,
    # and the batch after the peak (the prose says why, with the draft share at both ends).
    dense = speedups[DENSE_RISE_TARGET]
    peak = max((b for b in BATCHES if b > 1), key=lambda b: dense[b])
    trough = min((b for b in BATCHES if 1 < b < peak), key=lambda b: dense[b], default=peak)
    after = BATCHES[BATCHES.index(peak) + 1] if peak != BATCHES[-1] else peak
    draft_share = {b: evaluate(_state(catalog, DENSE_RISE_TARGET, b), catalog=catalog).draft_time_share
                   for b in (trough, peak)}
    typical = catalog.typical_acceptance[DRAFTER][MOE_TARGET]["chat"]
    values = {
        "gamma": GAMMA, "positions": GAMMA + 1, "context": CONTEXT, "gpu_label": catalog.gpus[GPU].label,
        "num_experts": moe.num_experts, "experts_per_token": moe.num_experts_per_tok,
        "active_params": moe.active_params, "params": moe.params,
        "tp": {t: tensor_parallel_for(catalog, GPU, t) for t in (MOE_TARGET, *DENSE_TARGETS)},
        "alpha": {t: _state(catalog, t, 1).alpha for t in (MOE_TARGET, *DENSE_TARGETS)},
        "labels": {t: catalog.targets[t].label for t in (MOE_TARGET, *DENSE_TARGETS)},
        "measured_length": typical.mean_acceptance_length,
        "experts": {b: {"plain": float(moe.expected_experts_touched(b)),
                        "verify": float(moe.expected_experts_touched(b * (GAMMA + 1)))} for b in BATCHES},
        "speedup": {t: speedups[t] for t in speedups},
        "ideal_speedup": {t: {r["batch"]: r["ideal_speedup"] for r in rows if r["target"] == t} for t in speedups},
        # SGLang's tree of 16 candidates per sequence (AngelSlim issue #163) at 4 sequences
        "tree": {"sequences": 4, "candidates": 16, "experts": float(moe.expected_experts_touched(4 * 16)),
                 "plain": float(moe.expected_experts_touched(4))},
        "low_batch": low,
        "dense_rise": {"label": catalog.targets[DENSE_RISE_TARGET].label, "trough": trough, "peak": peak,
                       "after": after, "speedup": {b: dense[b] for b in (trough, peak, after)},
                       "draft_time_share": draft_share},
        "high_batch": HIGH_BATCH,
        "reports": REPORTS,  # where speculation on the MoE target pays least, beyond batch 1
        # the points the figure leaves out: their weights and KV caches do not fit on the GPUs
        "not_fitting": [{"label": r["label"], "tp": r["tp"], "batch": r["batch"]} for r in rows if not r["fits"]],
    }
    return MoeStory(rows, values)
