"""The measurements the site shows beside the model: plain decoding as measured (the ladder), and
every cost model against every component measurement it can speak to (the validation figure and
the model page's table). Read from specmodel's measurements file through specmodel's own
interpretation of it (``specmodel.calibration``), never retyped.
"""
from __future__ import annotations

import functools
import re
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
        # (the measurements name no tensor-parallel degree: each was taken on one GPU)
        where = f"{catalog.targets[point.target].label} on one {catalog.gpus[point.gpu].label}"
        context = round(row.context_tokens)
        record = {"row": int(point.id), "batch": batch_of(point, m), "drafter": point.drafter or "none",
                  "drafter_label": catalog.drafters[point.drafter].label if point.drafter else "none",
                  "study": point.study, "where": where, "context": context, "context_basis": point.context_basis,
                  "fitted": point.fit, "read_off_plot": m.read_off_plot,
                  "source": citation(m)["text"], "source_url": citation(m)["url"],
                  # one line per setting: who measured, which drafter, at which context
                  "setting": f"{point.study}, {point.drafter or 'plain'}, {context}",
                  "measured": row.measured[0] * scale,
                  **{name: row.predicted[name][0] * scale for name in cost_models}}
        if figure == "shares":
            record["measured_verification"] = row.measured[1] * scale
            record["calibrated_verification"] = row.predicted["calibrated"][1] * scale
        out[figure].append(record)
    return out


def figure_settings(rows: dict[str, list[dict]]) -> dict[str, dict]:
    """What each validation figure's title and caption say of its points, from ``figure_rows``:
    {"validation" | "shares": {"where": "Qwen3-8B on one H100 SXM", "studies": [{"study": str,
    "contexts": [{"tokens": int, "batches": [int, …]}, …]}, …]}}, each study's contexts the most
    measured first. Found by a cold read: the step-time figure named neither the model nor the
    contexts its points were taken at, where the essay works at another context everywhere else.
    ValueError where a figure's points were taken on more than one model or GPU (its captions
    name one)."""
    out = {}
    for figure, records in rows.items():
        where = sorted({r["where"] for r in records})
        if len(where) != 1:
            raise ValueError(f"the {figure} figure's points were measured on {where}; its captions name one "
                             "model and GPU")
        studies: dict[str, dict[int, list[int]]] = {}
        for r in records:
            studies.setdefault(r["study"], {}).setdefault(r["context"], []).append(r["batch"])
        out[figure] = {"where": where[0], "studies": [
            {"study": study, "contexts": [{"tokens": tokens, "batches": sorted(batches)} for tokens, batches
                                          in sorted(by_context.items(), key=lambda c: -len(c[1]))]}
            for study, by_context in studies.items()]}
    return out


# A repository path: two slashes, or a file name after one ("docs/source/…", "derived/x.csv");
# a unit's "/s", a pair of names ("CNN/DailyMail") and a model id are not paths.
PATH = re.compile(r"[\w.-]+/[\w.-]+/[\w./-]+|[\w.-]+/[\w./-]*\.(?:csv|md|py|png|json|html)\b")
# vLLM's source files, which a sentence may name: linked, not printed.
VLLM_SOURCE = re.compile(r"\((vllm/[\w/]+/(\w+)\.py)\)")


def linked_sources(text: str) -> str:
    """``text`` with "(vllm/…/name.py)" as "(vLLM's name module, main branch)", a Markdown link to
    the file in vLLM's repository (found by a cold read: a link reading "in vLLM's source" was
    taken for a source that names nothing; a cell names no file, test_essay_text)."""
    return VLLM_SOURCE.sub(r"(vLLM's [\2 module](https://github.com/vllm-project/vllm/blob/main/\1), main branch)", text)


def without_paths(text: str) -> str:
    """``text`` without the parentheses that name a path, a file or a commit: the curator's
    notes of where a figure was found, which a reader follows by the link instead."""
    return re.sub(r"\s*\([^()]*\)", lambda p: "" if PATH.search(p[0]) else p[0], text)


def citation(m) -> dict:
    """A measurement's source as a reader cites it, from the file's ``source`` and ``url``
    columns (which also hold the curator's notes: repository paths, which PNG is which figure):
    {"text": who, "title", where, and the figure when the row names one; "work": the text without
    the figure; "short": who, the year and the figure; "url": the first address given, or ""}. "Liu, Yu, Park, Stoica, Cheung, 'Speculative Decoding: …' arXiv
    2601.11580 (2026); blog + figures in github …" becomes "Liu et al., “Speculative Decoding:
    …”, arXiv 2601.11580 (2026), Fig. 3"."""
    text = without_paths(m["source"])
    text = text.split(";")[0].strip()  # what follows ";" says where the curator found it
    quoted = re.match(r"^(?P<who>[^']*?),\s*'(?P<title>[^']+)'(?P<rest>.*)$", text)
    if quoted:
        who = re.sub(r"\s+\d+$", "", quoted["who"].strip())  # "tech blog 1": the curator's numbering
        if who.count(",") >= 2:  # a list of authors
            who = who.split(",")[0].strip() + " et al."
        rest = quoted["rest"].strip(" ,")
        text = f"{who}, '{quoted['title']}'" + ((" " if rest.startswith("(") else ", ") + rest if rest else "")
    text = re.sub(r"'([^']+)'", "“\\1”", text).replace(" - ", ": ")
    work = text
    figure = re.search(r"\bFig\.\s?(\d+(?:\([a-z]\))?)", m["url"] + " " + m["metric_note"])
    if figure:
        text += f", Fig. {figure[1]}"
    url = re.search(r"https?://[^\s()]+", m["url"])
    # for a table's narrow column: who, the year, the figure ("Liu et al. (2026), Fig. 4(c)")
    year = re.search(r"\((\d{4})[-)]", text)
    short = (who if quoted else text.split(",")[0].strip()) + (f" ({year[1]})" if year else "")
    short += f", Fig. {figure[1]}" if figure else ""
    return {"text": text, "work": work, "short": short, "url": url[0] if url else ""}


__all__ = ["MeasuredPlain", "measured_plain_points", "validation_rows", "figure_rows", "figure_settings", "QUANTITY_LABELS",
           "profiling_context", "measurements", "citation", "without_paths", "linked_sources", "PATH"]
