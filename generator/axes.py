"""The site's grid: every value a reader can pick, and the defaults (the essay's opening state)."""
from __future__ import annotations

from specmodel import CATALOG, State
from specmodel.acceptance import ACCEPTANCE_SHAPES
from specmodel.workloads import WORKLOADS

AXES: dict[str, list] = {
    "batch": [2**i for i in range(11)],
    "context": [512, 1024, 2048, 4096, 8192, 16384, 32768],
    "drafter": list(CATALOG.drafters),
    "gamma": list(range(1, 11)),
    # α in steps of 0.05, written as decimals so 0.15 is 0.15 (not 0.15000000000000002)
    "alpha": [round(0.05 * i, 2) for i in range(1, 20)],
    "acceptance": list(ACCEPTANCE_SHAPES),
    "workload": list(WORKLOADS),
}
# Closed-form chart (Eq. 1) runs γ past the simulation's range to show the ceiling.
CLOSED_FORM_GAMMAS = list(range(1, 21))
SHARD_BY = ("acceptance", "workload", "alpha")
SHARD_DIMS = ("batch", "context", "drafter", "gamma")
SHARD_PATTERN = "shards/{acceptance}-{workload}-a{alpha_index}.json"
TOKEN_ROW_ITERATIONS = 6

_d = State()
DEFAULTS = {k: getattr(_d, k) for k in AXES}

LABELS = {
    "drafter": {k: d.label for k, d in CATALOG.drafters.items()},
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
