"""The site's grid: every value a reader can pick, and the defaults (the essay's opening state).

The values come from specmodel's field table (``specmodel.FIELDS``); the site varies these
fields and holds the others at ``SITE_BASE``.
"""
from __future__ import annotations

from specmodel import FIELDS, State, default_catalog

# Until the site offers the cost-model control, it shows the ideal model its essay derives.
SITE_BASE = {"cost_model": "whole-pass"}
SITE_AXES = ("batch", "context", "drafter", "gamma", "alpha", "acceptance", "workload")

AXES: dict[str, list] = {
    k: list(default_catalog().drafters) if k == "drafter" else list(FIELDS[k].grid) for k in SITE_AXES
}
# Closed-form chart (Eq. 1) runs γ past the simulation's range to show the ceiling.
CLOSED_FORM_GAMMAS = list(range(1, 21))
SHARD_BY = ("acceptance", "workload", "alpha")
SHARD_DIMS = ("batch", "context", "drafter", "gamma")
SHARD_PATTERN = "shards/{acceptance}-{workload}-a{alpha_index}.json"
TOKEN_ROW_ITERATIONS = 6


def site_state(**changes) -> State:
    """A state of the site: the defaults, the site's fixed fields, then ``changes``."""
    return State(**{**SITE_BASE, **changes})


_d = site_state()
DEFAULTS = {k: getattr(_d, k) for k in AXES}

LABELS = {
    "drafter": {k: d.label for k, d in default_catalog().drafters.items()},
    "acceptance": {"falling": "falling with position", "same": "the same at every position"},
    "workload": {"closed-batch": "closed batch (each sequence emits its tokens, then leaves)",
                 "steady-state": "steady state (the server refills its batch)"},
}


def shard_path(acceptance: str, workload: str, alpha_index: int) -> str:
    """Path of a shard, relative to docs/data/."""
    return SHARD_PATTERN.format(acceptance=acceptance, workload=workload, alpha_index=alpha_index)


def state_query(state: dict) -> str:
    """The URL query of a state: only keys that differ from the defaults ("" for the defaults)."""
    parts = [f"{k}={state[k]}" for k in AXES if k in state and state[k] != DEFAULTS[k]]
    return "?" + "&".join(parts) if parts else "?"
