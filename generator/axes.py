"""The site's axes: every value a reader can pick, the defaults, and the names the page shows.

The state fields, their ranges and defaults come from specmodel's field table
(``specmodel.FIELDS``); this module only says which of them the site varies, and with which
values. More axes index tables without being state: ``position`` (draft position j),
``gamma_cf`` (γ of the closed-form chart, which runs past the simulation's range),
``roof_point`` (the three points that draw the roofline's roof), ``task`` (the kinds of traffic
the decision map compares drafters on), ``breakdown_model``, ``step_kind`` and ``part`` (the
step breakdown: every cost model side by side) and ``measured_study`` (who measured the plain
decoding throughputs the ladder shows).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from specmodel import FIELDS, Catalog, State
from specmodel.fields import nearest_on_axis  # noqa: F401 - the site's axes use it, and import it from here
from specmodel.breakdown import PART_LABELS, STEP_PARTS
from specmodel.calibration.measurements import GPUSTACK, SILYBENCH
from specmodel.costs import COST_MODELS
from specmodel.fields import site_acceptance_shapes
from specmodel.typical_acceptance import TASKS

# The state fields the page varies, in URL order.
STATE_AXES = ("gpu", "target", "tp", "cost_model", "batch", "context", "drafter", "gamma", "alpha", "acceptance",
              "workload")
# A configuration: a target on a GPU (the tensor-parallel degree follows from the pair).
CONFIG_AXES = ("gpu", "target", "tp")
# The cost models the reader can pick (the default first); the step breakdown shows every one.
SITE_COST_MODELS = ("calibrated", "whole-pass")
BREAKDOWN_MODELS = ("whole-pass", "per-kernel", "calibrated")  # from the ideal to the measured
# Fields the site opens at other than their model defaults.
SITE_BASE: dict = {}
CLOSED_FORM_GAMMAS = tuple(range(1, 21))
TOKEN_ROW_PASSES = 8
STEP_KINDS = ("iteration", "plain")
# Plain decoding measured at a context the grid can show (specmodel/calibration/measurements.py).
MEASURED_STUDIES = (GPUSTACK, SILYBENCH)

LABELS = {
    "cost_model": {"calibrated": "calibrated to vLLM", "per-kernel": "ideal, kernel by kernel",
                   "whole-pass": "ideal roofline"},
    "acceptance": {"falling": "falling with position", "same": "the same at every position",
                   "rising": "rising with position"},
    "workload": {"closed-batch": "closed batch", "steady-state": "steady state"},
    "breakdown_model": {"whole-pass": "ideal, whole pass", "per-kernel": "ideal, kernel by kernel",
                        "calibrated": "calibrated (vLLM)"},
    "step_kind": {"iteration": "speculative iteration", "plain": "plain decoding step"},
    "part": PART_LABELS,
    "task": {k: t["label"] for k, t in TASKS.items()},
    "measured_study": {GPUSTACK: "GPUStack (vLLM 0.11)", SILYBENCH: "silybench (vLLM)"},
}
assert all(m in COST_MODELS for m in SITE_COST_MODELS + BREAKDOWN_MODELS)


def other_cost_model(name: str) -> str:
    """The cost model the page sets beside ``name``: the first other one the site offers."""
    return next(m for m in SITE_COST_MODELS if m != name)


def nearest_on_log_axis(values, x: float) -> float:
    """The value of a geometric axis (batch, context) nearest ``x`` on a log scale."""
    return min(values, key=lambda v: abs(math.log(v / x)))


def site_typical_acceptance(catalog: Catalog, target: str = "qwen3-8b") -> dict[str, dict[str, tuple[float, str]]]:
    """Each drafter's typical (α, acceptance shape) per task for ``target``, α on the site's grid
    (the decision map evaluates, and a click on it opens, a state the simulation can show)."""
    grid = FIELDS["alpha"].grid
    return {d: {t: (nearest_on_axis(grid, e.alpha), e.acceptance) for t, e in blocks[target].items()}
            for d, blocks in catalog.typical_acceptance.items() if target in blocks}


@dataclass(frozen=True)
class Configuration:
    """A target on a GPU as the site offers it, and the values of the other state fields its data
    hold: every value for the default configuration; for the others the calibrated cost model,
    acceptance falling with position and the closed batch only, so that 36 configurations fit the
    site's data budget (the CLI prices any state)."""

    gpu: str
    target: str
    tp: int
    drafters: tuple[str, ...]
    cost_model: tuple[str, ...]
    acceptance: tuple[str, ...]
    workload: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str, int]:
        return self.gpu, self.target, self.tp

    def restricted(self) -> dict[str, list]:
        """The state axes whose values differ from the manifest's (the page offers only these)."""
        return {"drafter": list(self.drafters), "cost_model": list(self.cost_model),
                "acceptance": list(self.acceptance), "workload": list(self.workload)}


def tensor_parallel_for(catalog: Catalog, gpu: str, target: str) -> int | None:
    """The GPUs the site gives ``target`` on ``gpu`` (``Catalog.tensor_parallel_for``)."""
    return catalog.tensor_parallel_for(gpu, target)


def configurations(catalog: Catalog) -> list[Configuration]:
    """Every configuration the site offers: each GPU with each target, on the fewest GPUs that
    hold it; the default one first."""
    default = State()
    out = []
    for gpu in catalog.gpus:
        for target in catalog.targets:
            tp = tensor_parallel_for(catalog, gpu, target)
            if tp is None:
                continue
            full = (gpu, target, tp) == (default.gpu, default.target, default.tp)
            out.append(Configuration(
                gpu, target, tp, tuple(catalog.drafters_for(target)),
                tuple(SITE_COST_MODELS) if full else (default.cost_model,),
                site_acceptance_shapes(gpu, target, tp),
                tuple(FIELDS["workload"].grid) if full else (default.workload,)))
    return sorted(out, key=lambda c: c.key != (default.gpu, default.target, default.tp))


def default_configuration(catalog: Catalog) -> Configuration:
    return configurations(catalog)[0]


def site_state(**changes) -> State:
    """A state of the site: the defaults, the site's fixed fields, then ``changes``."""
    return State(**{**SITE_BASE, **changes})


def axes(catalog: Catalog, config: Configuration | None = None) -> dict[str, list]:
    """Every axis the data of ``config`` (default: the default configuration) are indexed by: the
    state axes, then the tables' own. The configuration's own fields have its one value."""
    config = config or default_configuration(catalog)
    restricted = config.restricted()
    values: dict[str, list] = {"gpu": [config.gpu], "target": [config.target], "tp": [config.tp]}
    for name in STATE_AXES:
        if name in CONFIG_AXES:
            continue
        values[name] = restricted[name] if name in restricted else list(FIELDS[name].grid)
    values["position"] = list(range(1, max(values["gamma"]) + 1))
    values["gamma_cf"] = list(CLOSED_FORM_GAMMAS)
    values["roof_point"] = [0, 1, 2]
    values["task"] = list(TASKS)
    values["breakdown_model"] = list(BREAKDOWN_MODELS)
    values["step_kind"] = list(STEP_KINDS)
    values["part"] = list(STEP_PARTS)
    values["measured_study"] = list(MEASURED_STUDIES)
    return values


def manifest_axes(catalog: Catalog) -> dict[str, list]:
    """The axes as the manifest gives them: every value of every state field the site offers
    (each configuration's own subset is in the manifest's ``configurations``)."""
    values = axes(catalog)
    configs = configurations(catalog)
    values["gpu"] = [g for g in catalog.gpus if any(c.gpu == g for c in configs)]
    values["target"] = [t for t in catalog.targets if any(c.target == t for c in configs)]
    values["tp"] = sorted({c.tp for c in configs})
    values["drafter"] = list(catalog.drafters)
    values["cost_model"] = list(SITE_COST_MODELS)
    values["acceptance"] = list(FIELDS["acceptance"].grid)
    values["workload"] = list(FIELDS["workload"].grid)
    return values


def defaults() -> dict:
    """The opening state, by state axis."""
    state = site_state()
    return {name: getattr(state, name) for name in STATE_AXES}


def labels(catalog: Catalog) -> dict[str, dict]:
    """The names the page shows for the values of each named axis."""
    return {**LABELS, "drafter": {k: d.label for k, d in catalog.drafters.items()},
            "gpu": {k: g.label for k, g in catalog.gpus.items()},
            "target": {k: m.label for k, m in catalog.targets.items()},
            "tp": {tp: ("one GPU" if tp == 1 else f"{tp} GPUs") for tp in FIELDS["tp"].grid}}


def state_keys() -> list[dict]:
    """The state axes as the URL knows them: field name and query key, in URL order, and the
    other names a reader may write the key as (the command line's option, vLLM's name): the page
    says which key such a name meant."""
    return [{"name": name, "key": FIELDS[name].key,
             "aliases": [a for a in (FIELDS[name].option.lstrip("-"), FIELDS[name].vllm_name) if a]}
            for name in STATE_AXES]


def state_query(state: dict, site_defaults: dict | None = None) -> str:
    """The URL query of a state: only keys that differ from the defaults ("?" for the defaults)."""
    site_defaults = site_defaults or defaults()
    parts = [f"{FIELDS[k].key}={state[k]}" for k in STATE_AXES if k in state and state[k] != site_defaults[k]]
    return "?" + "&".join(parts) if parts else "?"
