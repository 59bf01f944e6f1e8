"""The measurements the site shows beside the model: plain decoding as measured (the ladder), and
every cost model against every component measurement it can speak to (the validation figure and
the model page's table). Read from specmodel's measurements file through specmodel's own
interpretation of it (``specmodel.calibration``), never retyped.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from specmodel import Catalog
from specmodel.calibration.fitted import FITTED
from specmodel.calibration.measurements import (
    PASS_RATIO, POINTS, STEP_TIME, TIME_SHARES, UNKNOWN, batch_of, measured_values, parse_measurements,
)
from specmodel.calibration.validate import Row, validate

MEASUREMENTS_FILE = "measurements-calibration.csv"


@functools.cache
def measurements() -> dict:
    """The measurements file's rows by id (specmodel/data/measurements-calibration.csv)."""
    text = (resources.files("specmodel") / "data" / MEASUREMENTS_FILE).read_text(encoding="utf-8")
    return parse_measurements(text)


def profiling_context() -> float:
    """The fitted context of Liu et al.'s profiling runs (tokens per sequence)."""
    return FITTED["vllm"]["nuisance"]["profiling_context_tokens"]["value"]


@dataclass(frozen=True)
class MeasuredPlain:
    """Plain decoding measured at one batch: tokens/s over the batch, at a known context."""

    row_id: str
    study: str
    gpu: str
    target: str
    batch: int
    context_tokens: float
    tokens_per_s: float
    read_off_plot: bool


def measured_plain_points(catalog: Catalog) -> list[MeasuredPlain]:
    """Every plain-decoding step time measured in vLLM for the catalog's default target and GPU
    at a stated or implied context, as tokens/s (batch / step time)."""
    rows = measurements()
    out = []
    for point in POINTS.values():
        if (point.quantity != STEP_TIME or point.engine != "vllm" or point.context_tokens is None
                or point.target not in catalog.targets or point.gpu not in catalog.gpus):
            continue
        m = rows[point.id]
        batch = batch_of(point, m)
        (step_s,) = measured_values(point, m)
        out.append(MeasuredPlain(point.id, point.study, point.gpu, point.target, batch, point.context_tokens,
                                 batch / step_s, m.read_off_plot))
    return out


def validation_rows(catalog: Catalog) -> list[Row]:
    """Every row of the measurements file against every cost model (``calibration.validate``)."""
    return validate(measurements(), catalog, profiling_context())


# What each quantity is called on the page.
QUANTITY_LABELS = {STEP_TIME: "plain decoding step", TIME_SHARES: "drafting share of wall time",
                   PASS_RATIO: "draft pass ÷ target pass"}


def figure_rows(catalog: Catalog, cost_models: tuple[str, ...]) -> dict[str, list[dict]]:
    """The validation figures' rows, {"validation": step times, "shares": drafting shares}: one
    row per measurement, with the measured value and each cost model's under the cost model's
    name (the charts fold them into series). Step times in ms, shares in % (the shares rows also
    carry verification's share, measured and calibrated, for the data table). Only vLLM rows the
    model speaks to at a stated, implied or fitted context."""
    out: dict[str, list[dict]] = {"validation": [], "shares": []}
    for row in validation_rows(catalog):
        point = row.point
        if row.reason or point is None or point.context_basis == UNKNOWN or point.engine != "vllm":
            continue
        if point.quantity == STEP_TIME:
            figure, scale = "validation", 1000.0
        elif point.quantity == TIME_SHARES and point.drafter is not None:
            figure, scale = "shares", 100.0
        else:
            continue  # a plain run's drafting share is zero; the pass ratio is in the model page's table
        m = row.measurement
        context = round(row.context_tokens)
        record = {"row": int(point.id), "batch": batch_of(point, m), "drafter": point.drafter or "none",
                  "drafter_label": catalog.drafters[point.drafter].label if point.drafter else "none",
                  "study": point.study, "context": context, "context_basis": point.context_basis,
                  "fitted": point.fit, "read_off_plot": m.read_off_plot, "source": source_line(m),
                  # one line per setting: who measured, which drafter, at which context
                  "setting": f"{point.study}, {point.drafter or 'plain'}, {context}",
                  "measured": row.measured[0] * scale,
                  **{name: row.predicted[name][0] * scale for name in cost_models}}
        if figure == "shares":
            record["measured_verification"] = row.measured[1] * scale
            record["calibrated_verification"] = row.predicted["calibrated"][1] * scale
        out[figure].append(record)
    return out


def source_line(m) -> str:
    """A measurement's source as the file gives it, and where it was published."""
    return f"{m['source']} ({m['url']})" if m["url"] else m["source"]


__all__ = ["MeasuredPlain", "measured_plain_points", "validation_rows", "figure_rows", "QUANTITY_LABELS",
           "profiling_context", "measurements"]
