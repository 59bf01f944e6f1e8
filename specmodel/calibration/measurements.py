"""Public measurements of real engines, and what each one measured in the model's terms.

The file (``specmodel/data/measurements-calibration.csv``, copied from the project's reference
material with its source columns) holds component timings: plain decoding's step times, the
share of wall time each phase of a speculative iteration takes, a draft/target pass-time ratio.
Speedups are not in it on purpose: they are what the model predicts.

``POINTS`` says, for each row the model can speak to, which quantity it is, at which state
(batch, context, drafter, γ) and engine, where its context comes from, and whether the fit
uses it. Values are read from the row (its ``metric_note`` or a numeric column), never retyped.
Rows the model cannot speak to (another model, GPU or precision) are listed with the reason.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from ..errors import ModelInputError

COLUMNS = ("id", "source", "url", "hardware", "target", "drafter", "method", "batch", "context",
           "num_spec_tokens", "acceptance_length", "acceptance_rate", "baseline_tok_s", "spec_tok_s",
           "speedup", "metric_note", "approx")

STEP_TIME = "step_time_s"  # one plain decoding step (s)
TIME_SHARES = "time_shares"  # (drafting, verification, sampling + overhead) fractions of wall time
PASS_RATIO = "pass_ratio"  # one draft pass / one target decoding pass

STATED, IMPLIED, FITTED, UNKNOWN = "stated", "implied", "fitted", "unknown"

# What the done criteria hold each kind of point to (relative error, or percentage points).
GPUSTACK, SILYBENCH, LIU = "GPUStack", "silybench", "Liu et al. 2026"


@dataclass(frozen=True)
class Measurement:
    """One row of the measurements file, as text (every column of COLUMNS) plus ``approx``."""

    row: dict

    def __getitem__(self, key: str) -> str:
        return self.row[key]

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def read_off_plot(self) -> bool:
        return self.row["approx"].strip().lower() == "yes"


@dataclass(frozen=True)
class Point:
    """A measurement in the model's terms.

    quantity: STEP_TIME, TIME_SHARES or PASS_RATIO. study: GPUSTACK, SILYBENCH or LIU (who
    measured it). engine, target, gpu, drafter (None: plain decoding): the state; batch and γ
    are read from the row (``batch``, ``num_spec_tokens``) unless ``batch`` is given here
    (the row does not state it).
    context_tokens: average cached tokens per sequence while it was measured (None when fitted
    or unknown); context_basis: STATED, IMPLIED (derived from stated input and output lengths),
    FITTED (a parameter of the fit: the measurement does not state it) or UNKNOWN (shown over a
    range, held to nothing). how: the sentence that says where the context comes from.
    extract: the regular expression that reads the value(s) from ``metric_note``, or the name
    of a numeric column. fit: whether the fit uses it. tolerance: (kind, value), kind "rel"
    (relative error) or "pp" (percentage points), or None (shown, not held).
    """

    id: str
    quantity: str
    study: str
    engine: str
    context_tokens: float | None
    context_basis: str
    how: str
    extract: str
    drafter: str | None = None
    batch: int | None = None
    target: str = "qwen3-8b"
    gpu: str = "h100-sxm"
    fit: bool = False
    tolerance: tuple | None = None


_TPOT = r"(?:mean TPOT|median ITL) ([0-9.]+) ms"
_SHARES = r"drafting (\d+)%, verification (\d+)%, sampling (\d+)%, overhead (\d+)%"
_RATIO = r"takes ~([0-9.]+)% of the target forward-pass time on 8B"
_GPUSTACK_CONTEXT = "implied: mean input 232.6 tokens plus half the mean output of 220.6"
_SILY_CONTEXT = "implied: input 128 tokens plus half the output of 1,024"
_PROFILING_CONTEXT = "fitted: the profiling runs do not state their context"
_REASONING_CONTEXT = "unknown: long reasoning outputs, up to 32k tokens"


def _points() -> dict[str, Point]:
    points = []
    gpustack = 232.6 + 220.6 / 2
    for i in (102, 103, 104, 105):
        points.append(Point(str(i), STEP_TIME, GPUSTACK, "vllm", gpustack, IMPLIED, _GPUSTACK_CONTEXT, _TPOT,
                            fit=True, tolerance=("rel", 0.05)))
    points.append(Point("106", STEP_TIME, GPUSTACK, "sglang", gpustack, IMPLIED, _GPUSTACK_CONTEXT, _TPOT))
    points.append(Point("107", STEP_TIME, GPUSTACK, "tensorrt-llm", gpustack, IMPLIED, _GPUSTACK_CONTEXT, _TPOT))
    for i in range(115, 122):
        points.append(Point(str(i), STEP_TIME, SILYBENCH, "vllm", 128 + 1024 / 2, IMPLIED, _SILY_CONTEXT, _TPOT,
                            fit=True, tolerance=("rel", 0.10)))
    points.append(Point("122", STEP_TIME, SILYBENCH, "vllm", 8192 + 512 / 2, IMPLIED,
                        "implied: input 8,192 tokens plus half the output of 512", _TPOT, fit=True,
                        tolerance=("rel", 0.10)))
    for i in (67, 69, 71, 73, 75, 77, 79, 81):
        points.append(Point(str(i), STEP_TIME, LIU, "vllm", None, UNKNOWN, _REASONING_CONTEXT, "baseline_tok_s"))
    for i in (89, 90, 91):
        points.append(Point(str(i), TIME_SHARES, LIU, "vllm", None, FITTED, _PROFILING_CONTEXT, _SHARES,
                            fit=True, tolerance=("pp", 5)))
    for i in (92, 93, 94, 95):
        points.append(Point(str(i), TIME_SHARES, LIU, "vllm", None, FITTED, _PROFILING_CONTEXT, _SHARES,
                            drafter="qwen3-0.6b", fit=True, tolerance=("pp", 5)))
    for i in (96, 97):
        points.append(Point(str(i), TIME_SHARES, LIU, "vllm", None, FITTED, _PROFILING_CONTEXT, _SHARES,
                            drafter="eagle3", fit=True, tolerance=("pp", 5)))
    for i in (98, 99):
        points.append(Point(str(i), TIME_SHARES, LIU, "vllm", None, FITTED, _PROFILING_CONTEXT, _SHARES,
                            drafter="ngram", fit=True, tolerance=("pp", 5)))
    points.append(Point("100", PASS_RATIO, LIU, "vllm", None, FITTED,
                        "fitted: the ratio's batch and context are not stated; taken at one sequence and "
                        "the profiling runs' context", _RATIO, drafter="qwen3-0.6b", batch=1, fit=True,
                        tolerance=("rel", 0.10)))
    return {p.id: p for p in points}


POINTS: dict[str, Point] = _points()

# The engines besides vLLM, each with the one step time its step overhead is fitted to (fit.py:
# vLLM's kernel constants, this engine's overhead alone), so the calibrated model meets that row.
ONE_POINT_ENGINES: dict[str, str] = {"sglang": "106", "tensorrt-llm": "107"}

# Rows the model cannot speak to, and why.
NOT_MODELLED: dict[str, str] = {
    "108": "its weights are FP8, and the catalog models bf16 only",
    "123": "its weights are FP8, and the catalog models bf16 only",
    "124": "the batch size is not stated (6.32 ms per token holds only if it was one stream)",
    **{str(i): "DeepSeek-R1 on 8×B200 is not in the catalog" for i in range(133, 140)},
    "144": "Llama-3-8B in vLLM before v0.6, a CPU-bound engine the model has no constants for",
    "145": "Llama-3-8B is not a target in the catalog, and the concurrency is not stated",
    "146": "Llama-3-8B on an A100 is not in the catalog",
}


def parse_measurements(text: str) -> dict[str, Measurement]:
    """The measurements file's rows by id. Raises ModelInputError naming row and field for a
    missing column, a duplicate or missing id, or an unreadable value of a row POINTS uses."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise ModelInputError(f"measurements.{missing[0]}", "column missing", "the columns " + ", ".join(COLUMNS))
    rows: dict[str, Measurement] = {}
    for number, row in enumerate(reader, start=2):
        key = (row.get("id") or "").strip()
        if not key:
            raise ModelInputError(f"measurements line {number}.id", "empty", "a row id")
        if key in rows:
            raise ModelInputError(f"measurements[{key}].id", "appears twice", "one row per id")
        if None in row.values() or None in row:
            raise ModelInputError(f"measurements[{key}]", "has a different number of fields than the header",
                                  f"{len(COLUMNS)} fields")
        rows[key] = Measurement({k: (v or "").strip() for k, v in row.items()})
    for point in POINTS.values():
        if point.id not in rows:
            raise ModelInputError(f"measurements[{point.id}]", "row missing", "every row the fit and the validation use")
        measured_values(point, rows[point.id])
        batch_of(point, rows[point.id])
        gamma_of(point, rows[point.id])
    return rows


def _integer(point: Point, row: Measurement, column: str) -> int:
    try:
        value = int(row[column])
    except ValueError:
        raise ModelInputError(f"measurements[{point.id}].{column}", f"got {row[column]!r}", "a whole number") from None
    if value < 1:
        raise ModelInputError(f"measurements[{point.id}].{column}", f"got {value}", "a whole number ≥ 1")
    return value


def batch_of(point: Point, row: Measurement) -> int:
    """The point's batch: the row's ``batch`` column, unless the point states it."""
    return point.batch if point.batch is not None else _integer(point, row, "batch")


def gamma_of(point: Point, row: Measurement) -> int | None:
    """The point's γ (the row's ``num_spec_tokens``), or None for plain decoding."""
    return None if point.drafter is None else _integer(point, row, "num_spec_tokens")


def measured_values(point: Point, row: Measurement) -> tuple[float, ...]:
    """The values ``point`` measured, read from its row: (seconds,) for a step time,
    (drafting, verification, other) fractions for time shares, (ratio,) for a pass ratio."""
    if point.extract in COLUMNS:  # a numeric column: an aggregate throughput (tokens/s)
        field = f"measurements[{point.id}].{point.extract}"
        try:
            tokens_per_s = float(row[point.extract])
        except ValueError:
            raise ModelInputError(field, f"got {row[point.extract]!r}", "a number of tokens/s") from None
        if not tokens_per_s > 0:
            raise ModelInputError(field, f"got {tokens_per_s!r}", "a positive number of tokens/s")
        return (batch_of(point, row) / tokens_per_s,)
    match = re.search(point.extract, row["metric_note"])
    if not match:
        raise ModelInputError(f"measurements[{point.id}].metric_note", "does not state the value",
                              f"text matching {point.extract!r}")
    numbers = [float(x) for x in match.groups()]
    if point.quantity == STEP_TIME:
        return (numbers[0] / 1e3,)
    if point.quantity == TIME_SHARES:
        drafting, verification, sampling, overhead = (x / 100 for x in numbers)
        return drafting, verification, sampling + overhead
    return (numbers[0] / 100,)
