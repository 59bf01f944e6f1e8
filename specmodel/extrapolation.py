"""Where the calibrated model is extrapolated, said in one sentence.

Its constants were fitted to measurements of one engine serving one model on one GPU (Qwen3-8B on
an H100, vLLM). Elsewhere they are carried over by a stated rule: the efficiencies are fractions
of each GPU's datasheet peaks, so they scale with the peaks; the launch, step and per-sequence
costs are CPU and engine time, so they are kept as they are; a tensor-parallel group's all-reduce
latency is an estimate, not a fit (calibration/fixed.py).
"""
from __future__ import annotations

CALIBRATED_GPU = "h100-sxm"
CALIBRATED_TARGET = "qwen3-8b"


def extrapolation_note(state, catalog=None) -> str | None:
    """The sentence for a state whose calibrated numbers are extrapolated, else None. With a
    catalog the GPU and the target go by their labels, else by their keys."""
    if state.cost_model != "calibrated":
        return None
    gpu = catalog.gpus[state.gpu].label if catalog else state.gpu
    target = catalog.targets[state.target].label if catalog else state.target
    # what is carried over, said for what differs (found by a cold read: "for the target … the
    # efficiencies scale with the datasheet peaks", where only the target had changed)
    carried = []
    if state.gpu != CALIBRATED_GPU:
        carried.append(f"on the {gpu} the achieved fractions of the datasheet peaks and the launch, step and "
                       "per-sequence costs are kept")
    if state.target != CALIBRATED_TARGET:
        carried.append(f"{target} is priced from its own bytes and FLOPs with the same constants")
    if state.tp > 1:
        carried.append(f"on {state.tp} GPUs each all-reduce adds an estimated latency")
    if not carried:
        return None
    return ("extrapolated: the calibrated constants were fitted on Qwen3-8B on one H100 in vLLM; "
            + "; ".join(carried))


def extrapolation_rule() -> str:
    """The rule in one paragraph, for the model page."""
    return ("The calibrated constants were fitted to measurements of vLLM serving Qwen3-8B on one H100. "
            "On another GPU, another target or a tensor-parallel group they are carried over by a rule, not "
            "fitted: the achieved fractions of bandwidth and FLOP rate stay fractions of the new GPU's datasheet "
            "peaks; the launch costs per layer and per pass, the step cost and the per-sequence costs are CPU and "
            "engine time and are kept as they are; each all-reduce of a tensor-parallel group adds a fixed "
            "latency that is an estimate, not a fit.")
