"""The starting state on every GPU the site offers with the starting target: the essay's section
on other GPUs quotes it (generator/templates/index.md.j2)."""
from __future__ import annotations

from specmodel import FIELDS, State, evaluate
from specmodel.catalog import Catalog

from .axes import configurations, site_state, state_query


def starting_state_by_gpu(catalog: Catalog) -> dict[str, dict]:
    """{gpu key: values} for each configuration of the starting target (the starting GPU's
    first, then the catalog's order): ``label``, ``tp``, ``bandwidth_bytes_per_s`` (the
    datasheet's peak, catalog), and at the starting state on that GPU under the calibrated model
    (specmodel.evaluate): ``speedup``, ``draft_time_share`` (of an iteration's wall time),
    ``fits``, and ``best_gamma`` (on the simulation's γ grid) with ``best_speedup``; ``query`` and
    ``best_query``, the two states' URL queries."""
    target = State().target
    out = {}
    for config in configurations(catalog):
        if config.target != target:
            continue
        state = site_state(gpu=config.gpu, tp=config.tp)
        result = evaluate(state, catalog=catalog)
        by_gamma = {g: evaluate(state.replace(gamma=g), catalog=catalog).speedup for g in FIELDS["gamma"].grid}
        best = max(by_gamma, key=by_gamma.get)
        gpu = catalog.gpus[config.gpu]
        out[config.gpu] = {"label": gpu.label, "tp": config.tp,
                           "bandwidth_bytes_per_s": gpu.peak_memory_bandwidth_bytes_per_s,
                           "speedup": result.speedup, "draft_time_share": result.draft_time_share,
                           "fits": result.fits_in_memory, "best_gamma": best, "best_speedup": by_gamma[best],
                           "query": state_query({"gpu": config.gpu, "tp": config.tp}),
                           "best_query": state_query({"gpu": config.gpu, "tp": config.tp, "gamma": best})}
    return out
