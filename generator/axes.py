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

from specmodel import FIELDS, Catalog, State
from specmodel.breakdown import PART_LABELS, STEP_PARTS
from specmodel.calibration.measurements import GPUSTACK, SILYBENCH
from specmodel.costs import COST_MODELS
from specmodel.typical_acceptance import TASKS

# The state fields the page varies, in URL order.
STATE_AXES = ("cost_model", "batch", "context", "drafter", "gamma", "alpha", "acceptance", "workload")
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
    "acceptance": {"falling": "falling with position", "same": "the same at every position"},
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


def nearest_on_axis(values, x: float) -> float:
    """The value of a numeric axis nearest ``x`` (ties to the lower)."""
    return min(values, key=lambda v: (abs(v - x), v))


def site_typical_acceptance(catalog: Catalog) -> dict[str, dict[str, tuple[float, str]]]:
    """Each drafter's typical (α, acceptance shape) per task, α on the site's grid (the decision
    map evaluates, and a click on it opens, a state the simulation can show)."""
    grid = FIELDS["alpha"].grid
    return {d: {t: (nearest_on_axis(grid, e.alpha), e.acceptance) for t, e in tasks.items()}
            for d, tasks in catalog.typical_acceptance.items()}


def site_state(**changes) -> State:
    """A state of the site: the defaults, the site's fixed fields, then ``changes``."""
    return State(**{**SITE_BASE, **changes})


def axes(catalog: Catalog) -> dict[str, list]:
    """Every axis the data files are indexed by: the state axes, then the tables' own."""
    values: dict[str, list] = {}
    for name in STATE_AXES:
        if name == "cost_model":
            values[name] = list(SITE_COST_MODELS)
        elif name == "drafter":
            values[name] = list(catalog.drafters)
        else:
            values[name] = list(FIELDS[name].grid)
    values["position"] = list(range(1, max(values["gamma"]) + 1))
    values["gamma_cf"] = list(CLOSED_FORM_GAMMAS)
    values["roof_point"] = [0, 1, 2]
    values["task"] = list(TASKS)
    values["breakdown_model"] = list(BREAKDOWN_MODELS)
    values["step_kind"] = list(STEP_KINDS)
    values["part"] = list(STEP_PARTS)
    values["measured_study"] = list(MEASURED_STUDIES)
    return values


def defaults() -> dict:
    """The opening state, by state axis."""
    state = site_state()
    return {name: getattr(state, name) for name in STATE_AXES}


def labels(catalog: Catalog) -> dict[str, dict]:
    """The names the page shows for the values of each named axis."""
    return {**LABELS, "drafter": {k: d.label for k, d in catalog.drafters.items()}}


def state_keys() -> list[dict]:
    """The state axes as the URL knows them: field name and query key, in URL order."""
    return [{"name": name, "key": FIELDS[name].key} for name in STATE_AXES]


def state_query(state: dict, site_defaults: dict | None = None) -> str:
    """The URL query of a state: only keys that differ from the defaults ("?" for the defaults)."""
    site_defaults = site_defaults or defaults()
    parts = [f"{FIELDS[k].key}={state[k]}" for k in STATE_AXES if k in state and state[k] != site_defaults[k]]
    return "?" + "&".join(parts) if parts else "?"
