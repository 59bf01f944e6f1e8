"""The site's axes: every value a reader can pick, the defaults, and the names the page shows.

The state fields, their ranges and defaults come from specmodel's field table
(``specmodel.FIELDS``); this module only says which of them the site varies, and with which
values. More axes index tables without being state: ``position`` (draft position j),
``gamma_cf`` (γ of the closed-form chart, which runs past the simulation's range) and
``roof_point`` (the three points that draw the roofline's roof).
"""
from __future__ import annotations

from specmodel import FIELDS, Catalog, State

# The state fields the page varies, in URL order.
STATE_AXES = ("cost_model", "batch", "context", "drafter", "gamma", "alpha", "acceptance", "workload")
# The cost models the site offers.
SITE_COST_MODELS = ("whole-pass",)
# Fields the site opens at other than their model defaults: until the site offers the calibrated
# model, it shows the ideal one its essay derives.
SITE_BASE: dict = {"cost_model": "whole-pass"}
CLOSED_FORM_GAMMAS = tuple(range(1, 21))
TOKEN_ROW_PASSES = 8

LABELS = {
    "cost_model": {"calibrated": "calibrated to vLLM on an H100", "per-kernel": "the roofline kernel by kernel",
                   "whole-pass": "the ideal roofline of the derivation"},
    "acceptance": {"falling": "falling with position", "same": "the same at every position"},
    "workload": {"closed-batch": "closed batch (each sequence emits its tokens, then leaves)",
                 "steady-state": "steady state (the server refills its batch)"},
}


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
