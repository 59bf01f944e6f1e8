"""What the model predicts for a reader's deployment once its acceptance is known.

Every number here is a prediction of the chosen cost model (the calibrated one by default), at
the fitted acceptance, not a measurement. The γ schedule covers the site's batch sizes
(``FIELDS["batch"].grid``) and γ 1 … 10 (``FIELDS["gamma"].grid``); γ = 0 means "do not draft".

vLLM's setting that changes γ with load is ``num_speculative_tokens_per_batch_size`` in
``--speculative-config`` ("Dynamic speculative decoding",
https://docs.vllm.ai/en/latest/features/speculative_decoding/dynamic_speculative_decoding/): a
list of ``[first batch, last batch, γ]`` with inclusive ranges starting at 1, γ 0 allowed, the
last γ carried past the last range; ``num_speculative_tokens`` stays the largest γ.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..catalog import Catalog, default_catalog
from ..fields import FIELDS
from ..grid import Triples, evaluate_grid
from ..acceptance import shape_code
from ..state import State
from .fit import AcceptanceFit

DYNAMIC_SD_DOCS = "https://docs.vllm.ai/en/latest/features/speculative_decoding/dynamic_speculative_decoding/"


@dataclass(frozen=True)
class Advice:
    """The model's answer at ``state`` (α, shape and γ from the fit).

    ``speedup``: at the state; ``schedule``: one row per batch size of the site's grid, with
    ``best_gamma``, ``best_speedup``, ``speedup_at_fitted_gamma``, ``fits_in_memory`` and
    ``recommended_gamma`` (the best γ where it beats plain decoding, else 0; None where the
    weights and KV caches do not fit in the GPUs: no γ is recommended for a load that cannot run);
    ``largest_fitting_batch``: the largest of those batch sizes whose weights and KV caches fit in
    the GPUs (None: none fits); ``stops_paying_at_batch``: the first batch size that fits at which no
    γ beats plain decoding (None: it pays at every one that fits); ``paying_batch_ranges``: the runs
    of neighbouring batch sizes of the grid that fit and at which a γ beats plain decoding, each
    ``[first, last]``, in order (a mixture of experts' target can stop paying and pay again at a
    larger batch); ``recommended_gamma``: at the
    state's batch size (None: it does not fit). The γ-by-load schedule covers every batch size of the grid, γ 0 where
    ``recommended_gamma`` is 0 or None (vLLM carries the last range's γ beyond it).
    """

    state: State
    speedup: float
    best_gamma: int
    best_speedup: float
    recommended_gamma: int | None
    largest_fitting_batch: int | None
    stops_paying_at_batch: int | None
    paying_batch_ranges: list
    schedule: list
    speculative_config: dict | None
    dynamic_speculative_config: dict | None

    def as_dict(self) -> dict:
        return {"state": self.state.as_dict(), "speedup": self.speedup, "best_gamma": self.best_gamma,
                "best_speedup": self.best_speedup, "recommended_gamma": self.recommended_gamma,
                "largest_fitting_batch": self.largest_fitting_batch, "stops_paying_at_batch": self.stops_paying_at_batch,
                "paying_batch_ranges": self.paying_batch_ranges, "schedule": self.schedule,
                "speculative_config": self.speculative_config,
                "dynamic_speculative_config": self.dynamic_speculative_config}


def nearest_batch(running: float) -> int:
    """The site's batch size (``FIELDS["batch"].grid``, powers of two) nearest ``running`` (> 0)
    on a log scale, ties to the smaller: the page's snap (docs/javascripts/core/url-state.js), so
    that --site-grid prices the batch the page does (found once: 56 priced by the CLI, 64 by the page)."""
    return min(FIELDS["batch"].grid, key=lambda b: (abs(math.log(b / running)), b))


def batch_schedule(batches, gammas) -> list[list[int]]:
    """vLLM's ``num_speculative_tokens_per_batch_size`` for γ ``gammas[i]`` at grid batch
    ``batches[i]``: batch b_i's γ holds for every load whose nearest grid batch (nearest_batch,
    the rule the page and fit-metrics snap a running count by) is b_i, so the schedule runs the γ
    the advice gives for the reader's load (found once: 39 running requests were advised the γ of
    32 while the schedule ran 33–64 at the γ of 64); the first range from 1, the last to the last
    batch; equal neighbours merged. Shapes: two equal-length sequences, grid batches rising from 1.
    """
    ranges: list[list[int]] = []
    start = 1
    for i, (b, g) in enumerate(zip(batches, gammas)):
        end = int(b) if i == len(batches) - 1 else max(
            n for n in range(int(b), int(batches[i + 1])) if nearest_batch(n) == b)
        if ranges and ranges[-1][2] == g:
            ranges[-1][1] = end
        else:
            ranges.append([start, end, int(g)])
        start = end + 1
    return ranges


def held_shape(fit: AcceptanceFit, shapes) -> str:
    """The acceptance shape to price ``fit`` at where only ``shapes`` can be shown (the site's data
    for a configuration, fields.site_acceptance_shapes): the fit's own where held, else the held
    shape with the smallest residual, the first in ``shapes`` on a tie (views/metrics.js adjust)."""
    held = [s for s in shapes if s in fit.alphas]
    if not held or fit.shape in held:
        return fit.shape
    return min(held, key=lambda s: fit.residuals[s])


def advise(state: State, fit: AcceptanceFit, catalog: Catalog | None = None, acceptance: str | None = None) -> Advice:
    """The calibrated (or ``state.cost_model``) prediction at ``state`` with the fitted acceptance.

    ``state``'s α, acceptance and γ are replaced by the fit's; everything else (GPU, target, tp,
    drafter, batch, context, workload) is the reader's. ``acceptance``: price this shape at its own
    best α (``fit.alphas``) instead of the fit's best shape (held_shape). Raises ModelInputError for a
    state the catalog rejects (catalog.check_state), KeyError for a shape the fit did not try.
    """
    catalog = catalog or default_catalog()
    shape = acceptance or fit.shape
    state = state.replace(alpha=fit.alphas[shape], acceptance=shape, gamma=fit.gamma)
    catalog.check_state(state)
    grid_batches = [int(b) for b in FIELDS["batch"].grid]
    batches = sorted(set(grid_batches) | {state.batch})
    gammas = sorted(set(FIELDS["gamma"].grid) | {state.gamma})
    triples = Triples(gamma=np.array(gammas), alpha=np.full(len(gammas), state.alpha),
                      shape=np.full(len(gammas), int(shape_code(state.acceptance))))
    target = catalog.targets[state.target]
    gpu = catalog.gpu_group(state.gpu, state.tp)
    drafter = catalog.drafter(state.drafter, state.target)
    cost = catalog.cost_model(state.cost_model, state.engine)
    r = evaluate_grid(batches, [state.context], [drafter], triples, target, gpu, state.output_tokens, cost)
    speedup = r.per_workload[state.workload]["speedup"][:, 0, 0, :]  # (batch, γ)
    fits = r.memory_required_bytes[:, 0, 0, 0] <= gpu.memory_capacity_bytes
    on_grid = np.isin(gammas, FIELDS["gamma"].grid)
    best_i = np.where(on_grid, speedup, -np.inf).argmax(axis=1)
    g = np.array(gammas)
    rows = []
    for i, b in enumerate(batches):
        best = float(speedup[i, best_i[i]])
        rows.append({"batch": b, "best_gamma": int(g[best_i[i]]), "best_speedup": best,
                     "speedup_at_fitted_gamma": float(speedup[i, gammas.index(state.gamma)]),
                     "fits_in_memory": bool(fits[i]),
                     "recommended_gamma": (int(g[best_i[i]]) if best > 1 else 0) if fits[i] else None})
    at = rows[batches.index(state.batch)]
    schedule = [row for row in rows if row["batch"] in grid_batches]
    fitting = [row for row in schedule if row["fits_in_memory"]]
    stops = next((row["batch"] for row in fitting if row["recommended_gamma"] == 0), None)
    ranges: list[list[int]] = []
    for i, row in enumerate(fitting):
        if row["recommended_gamma"]:
            if ranges and fitting[i - 1]["recommended_gamma"]:
                ranges[-1][1] = row["batch"]
            else:
                ranges.append([row["batch"], row["batch"]])
    config = drafter.speculative_config(at["recommended_gamma"]) if at["recommended_gamma"] else None
    # every grid batch, γ 0 where none pays or the load does not fit: vLLM carries the last
    # range's γ to every larger load (found once: a schedule ending at the last batch that fits
    # drafted at γ 2 for a reader's 100 requests, where the advice says no γ)
    ks = [row["recommended_gamma"] or 0 for row in schedule]
    dynamic = None
    if ks and max(ks) > 0:
        dynamic = dict(drafter.speculative_config(max(ks)))
        dynamic["num_speculative_tokens_per_batch_size"] = batch_schedule([row["batch"] for row in schedule], ks)
    return Advice(state, at["speedup_at_fitted_gamma"], at["best_gamma"], at["best_speedup"], at["recommended_gamma"],
                  fitting[-1]["batch"] if fitting else None, stops, ranges, schedule, config, dynamic)
