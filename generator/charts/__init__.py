"""Altair builders of the site's Vega-Lite specs, one per chart (see ARCHITECTURE.md, "Charts").

Every builder returns a plain Vega-Lite dict whose state-dependent rows come from the Vega
dataset `table` (URL `charts/data/<name>.json`); the roofline also reads `roof`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from . import acceptance as _acceptance
from . import choice as _choice
from . import speed as _speed
from .common import DATA_DIR, ROOF, ROOF_URL, TABLE

BUILDERS: dict[str, Callable[[], dict]] = {
    "ladder": _speed.ladder,
    "gamma": _speed.gamma,
    "iteration": _speed.iteration,
    "roofline": _speed.roofline,
    "memory": _choice.memory,
    "acceptance": _acceptance.acceptance,
    "closed_form": _acceptance.closed_form,
    "decision": _choice.decision,
    "sampler": _acceptance.sampler,
}
CHART_NAMES: tuple[str, ...] = tuple(BUILDERS)


def build_spec(name: str, drafter_labels: Mapping[str, str] | None = None) -> dict:
    """The Vega-Lite spec (dict, data by URL) of chart `name`.

    `drafter_labels` (manifest `labels.drafter`, key → display name) only affects the
    decision chart's legend; the default matches ARCHITECTURE.md.
    """
    if name not in BUILDERS:
        raise KeyError(f"unknown chart {name!r}; known: {', '.join(CHART_NAMES)}")
    if name == "decision":
        return _choice.decision(drafter_labels)
    return BUILDERS[name]()


def build_specs(drafter_labels: Mapping[str, str] | None = None) -> dict[str, dict]:
    """All charts' specs, `{name: spec}`, in the order of ARCHITECTURE.md's table."""
    return {name: build_spec(name, drafter_labels) for name in CHART_NAMES}


def data_urls(name: str) -> dict[str, str]:
    """The named datasets chart `name` loads, `{dataset name: URL relative to the site root}`."""
    urls = {TABLE: f"{DATA_DIR}/{name}.json"}
    if name == "roofline":
        urls[ROOF] = ROOF_URL
    return urls


__all__ = ["BUILDERS", "CHART_NAMES", "build_spec", "build_specs", "data_urls"]
