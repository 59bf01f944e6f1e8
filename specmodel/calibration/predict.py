"""What a cost model predicts for a measurement (``measurements.Point``) at a given context."""
from __future__ import annotations

import numpy as np

from ..catalog import Catalog
from ..costs import CostModel
from .measurements import PASS_RATIO, STEP_TIME, TIME_SHARES, Point


def iteration_parts(cost: CostModel, catalog: Catalog, point: Point, batch: int, gamma: int | None,
                    context_tokens) -> dict:
    """One engine step with ``batch`` sequences of ``context_tokens`` cached tokens each, in seconds:
    {"drafting", "verification", "other"} (a plain step when the point has no drafter).

    "verification" is the target's pass plus what the drafter's path adds to it (Liu et al.'s
    profiling counts that with verification); "other" is the engine's step overhead.
    """
    target = catalog.targets[point.target]
    gpu = catalog.gpus[point.gpu]
    context_sum = batch * np.asarray(context_tokens, dtype=float)
    if point.drafter is None:
        other = cost.step_overhead_s(batch)
        verification = cost.forward_pass(target, gpu, batch, context_sum, 1).time_s
        return {"drafting": 0.0 * verification, "verification": verification, "other": other + 0.0 * verification}
    other = cost.step_overhead_s(batch, gamma + 1)
    drafter = catalog.drafter(point.drafter, point.target)
    drafting = drafter.draft_phase(cost, gpu, batch, context_sum, gamma).time_s
    verification = (cost.forward_pass(target, gpu, batch, context_sum, gamma + 1).time_s
                    + drafter.iteration_extra_s(cost, batch))
    return {"drafting": drafting, "verification": verification, "other": other + 0.0 * verification}


def predict(cost: CostModel, catalog: Catalog, point: Point, batch: int, gamma: int | None, context_tokens) -> tuple:
    """The model's values of the quantity ``point`` measured, shaped as ``measured_values`` gives them."""
    if point.quantity == STEP_TIME:
        parts = iteration_parts(cost, catalog, point, batch, None, context_tokens)
        return (parts["verification"] + parts["other"],)
    if point.quantity == TIME_SHARES:
        parts = iteration_parts(cost, catalog, point, batch, gamma, context_tokens)
        total = parts["drafting"] + parts["verification"] + parts["other"]
        return tuple(parts[k] / total for k in ("drafting", "verification", "other"))
    if point.quantity == PASS_RATIO:
        target = catalog.targets[point.target]
        gpu = catalog.gpus[point.gpu]
        draft = catalog.drafter(point.drafter, point.target).architecture
        context_sum = batch * np.asarray(context_tokens, dtype=float)
        return (cost.forward_pass(draft, gpu, batch, context_sum, 1).time_s
                / cost.forward_pass(target, gpu, batch, context_sum, 1).time_s,)
    raise ValueError(point.quantity)
