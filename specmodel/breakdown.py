"""One engine step split into its parts: where the time of a speculative iteration goes.

The step is the one the verify readouts describe: the full batch of n sequences, each holding
the prompt plus half the output (context P + G/2 per sequence; grid.py's ``mid_context``). A
speculative iteration is

    draft passes (γ of them, or the CPU's prompt lookup) + the drafter's own per-iteration cost
    + the verify pass (γ + 1 positions) + the engine's step overhead,

and a plain step is one target pass plus the step overhead. Each pass is split by the cost
model's ``breakdown`` (``costs.PASS_PARTS``): the whole-pass model has one part per pass (the side
of its max that binds); the per-kernel and calibrated models split it into weight GEMMs at
bandwidth, weight GEMMs at the FLOP rate and attention, and the calibrated one adds what the
launch floor adds. The parts add up to the step's time exactly (tests/test_breakdown.py).
"""
from __future__ import annotations

import numpy as np

from .architecture import Architecture
from .costs import CostModel
from .costs.base import LAUNCH_FLOOR
from .drafters import Drafter
from .hardware import GPU

# The parts of a step, in the order a figure stacks them: draft work first, then the target's
# pass, then fixed per-step costs. ``draft_passes`` is every kernel of the draft passes;
# ``target_<part>`` is the target's pass (the verify pass of an iteration, the plain pass of a
# plain step) by ``costs.PASS_PARTS``.
STEP_PARTS = (
    "draft_passes",
    "draft_launch_floor",
    "drafter_overhead",
    "target_whole_pass_at_bandwidth",
    "target_whole_pass_at_flop_rate",
    "target_weights_at_bandwidth",
    "target_weights_at_flop_rate",
    "target_attention",
    "target_allreduce",
    "target_launch_floor",
    "step_overhead",
)

PART_LABELS = {
    "draft_passes": "draft passes: kernels",
    "draft_launch_floor": "draft passes: launch floor",
    "drafter_overhead": "drafter's own overhead (n-gram lookup, draft-model bookkeeping)",
    "target_whole_pass_at_bandwidth": "target pass, whole: memory-bound",
    "target_whole_pass_at_flop_rate": "target pass, whole: compute-bound",
    "target_weights_at_bandwidth": "target pass: weight matmuls at bandwidth",
    "target_weights_at_flop_rate": "target pass: weight matmuls at FLOP rate",
    "target_attention": "target pass: attention over the KV cache",
    "target_allreduce": "target pass: all-reduces between tensor-parallel GPUs",
    "target_launch_floor": "target pass: launch floor",
    "step_overhead": "engine step overhead (scheduling, sampling)",
}


def _zero(shape) -> np.ndarray:
    return np.zeros(shape)


def iteration_breakdown(cost: CostModel, drafter: Drafter, target: Architecture, gpu: GPU, num_seqs,
                        context_tokens, gamma: int) -> dict[str, np.ndarray]:
    """One speculative iteration by part: {part of STEP_PARTS: seconds}, every part present.

    num_seqs (n) and context_tokens (cached tokens per sequence) broadcast together; gamma is one
    γ. Draft pass j runs at context C + j·n (C = n·context_tokens) as ``Drafter.draft_phase``
    prices it; the verify pass scores γ + 1 positions at C.
    """
    n = np.asarray(num_seqs, dtype=float)
    context_sum = n * np.asarray(context_tokens, dtype=float)
    shape = context_sum.shape
    parts = {p: _zero(shape) for p in STEP_PARTS}
    for part, seconds in drafter.draft_pass_breakdown(cost, gpu, n, context_sum, gamma).items():
        key = "draft_launch_floor" if part == LAUNCH_FLOOR else "draft_passes"
        parts[key] = parts[key] + seconds
    # Whatever the draft phase costs beyond its passes on the GPU (the n-gram lookup on the CPU),
    # and what the drafter's path adds per iteration.
    draft_time = drafter.draft_phase(cost, gpu, n, context_sum, gamma).time_s
    off_gpu = draft_time - (parts["draft_passes"] + parts["draft_launch_floor"])
    off_gpu = np.where(np.abs(off_gpu) <= 1e-12 * np.maximum(draft_time, 1e-30), 0.0, off_gpu)
    parts["drafter_overhead"] = parts["drafter_overhead"] + off_gpu + drafter.iteration_extra_s(cost, n)
    _add_target(parts, cost.breakdown(target, gpu, n, context_sum, gamma + 1))
    parts["step_overhead"] = parts["step_overhead"] + cost.step_overhead_s(n, gamma + 1)
    return parts


def plain_step_breakdown(cost: CostModel, target: Architecture, gpu: GPU, num_seqs,
                         context_tokens) -> dict[str, np.ndarray]:
    """One plain decoding step by part: {part of STEP_PARTS: seconds} (the draft parts zero)."""
    n = np.asarray(num_seqs, dtype=float)
    context_sum = n * np.asarray(context_tokens, dtype=float)
    parts = {p: _zero(context_sum.shape) for p in STEP_PARTS}
    _add_target(parts, cost.breakdown(target, gpu, n, context_sum, 1))
    parts["step_overhead"] = parts["step_overhead"] + cost.step_overhead_s(n, 1)
    return parts


def _add_target(parts: dict, pass_parts: dict) -> None:
    for part, seconds in pass_parts.items():
        parts["target_" + part] = parts["target_" + part] + seconds
