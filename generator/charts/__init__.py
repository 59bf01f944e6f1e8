"""The site's figures, one module each: its Vega-Lite spec (Altair), the rows of its datasets as
a declaration the page and the build both interpret (``chart_rows``), its data table's columns.

A module has NAME, DESCRIPTION, ROWS ({dataset: blocks}, or None for rows the build writes from
elsewhere), COLUMNS, optionally FOLLOWS_STATE = False (its rows never change with the state),
optionally SAYS_IF_IT_FITS = False (its rows follow the state but not what decides whether it fits
in memory, batch and context: a "does not fit" note there would be about nothing it shows; or
each of its marks says whether its own state fits, as the decision map's cells do),
and ``spec(context)`` → Vega-Lite dict; ``context`` carries the manifest's labels and colours.
Every dataset is fetched by URL under its name (``table``, and the roofline's ``roof``); the page
swaps a dataset's rows with ``view.data(name, rows)``.
"""
from __future__ import annotations

from types import ModuleType

from . import (
    acceptance, breakdown, closed_form, decision, gamma, iteration, ladder, memory, moe, roofline, sampler, shares,
    throughput, validation,
)
from .common import TABLE, data_url

CHARTS: dict[str, ModuleType] = {m.NAME: m for m in (ladder, throughput, gamma, iteration, breakdown, validation,
                                                      shares, roofline, memory, moe, acceptance, closed_form,
                                                      decision, sampler)}
CHART_NAMES: tuple[str, ...] = tuple(CHARTS)


def build_spec(name: str, context: dict) -> dict:
    """The Vega-Lite spec of chart ``name`` (KeyError naming the known charts otherwise)."""
    if name not in CHARTS:
        raise KeyError(f"unknown chart {name!r}; known: {', '.join(CHART_NAMES)}")
    return CHARTS[name].spec(context)


def datasets(name: str) -> tuple[str, ...]:
    """The named datasets chart ``name`` reads."""
    rows = CHARTS[name].ROWS
    return tuple(rows) if rows else (TABLE,)


def data_urls(name: str) -> dict[str, str]:
    """{dataset: URL relative to the site root} of chart ``name``."""
    return {d: data_url(name, d) for d in datasets(name)}


__all__ = ["CHARTS", "CHART_NAMES", "build_spec", "datasets", "data_urls"]
