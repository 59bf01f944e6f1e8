"""The fit: the calibrated model's engine constants, by least squares on component measurements.

Only component timings enter it: plain decoding's step times, the share of wall time each phase
of an iteration takes, and a draft/target pass-time ratio (``measurements.POINTS`` with
``fit=True``). Never a speedup: speedups are what the model predicts, and published speedups
of this setting are what it is judged on.

Each residual is (model − measurement) / σ, σ being the measurement's own uncertainty as the
fit assumes it (``SIGMA``). One parameter is not an engine constant: the context of Liu et
al.'s profiling runs, which they do not state; the fit finds it with the rest. The constants'
standard errors come from the Jacobian at the solution, scaled by the residuals' spread.
SGLang's and TensorRT-LLM's step overheads are then fitted, one each, to their own step time
with vLLM's kernel constants (the same H100, the same kernels: the engines differ in what
they add per step).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import least_squares

from ..catalog import Catalog
from ..costs import Calibrated
from .measurements import (
    GPUSTACK, LIU, ONE_POINT_ENGINES, PASS_RATIO, POINTS, SILYBENCH, STEP_TIME, TIME_SHARES, Measurement, Point,
    batch_of, gamma_of, measured_values,
)
from .fixed import FIXED_CONSTANTS
from .predict import predict

# σ each measurement is assumed to carry: ("rel", fraction of the value) or ("abs", absolute).
SIGMA = {
    (GPUSTACK, STEP_TIME): ("rel", 0.02),  # mean TPOT over 100 requests
    (SILYBENCH, STEP_TIME): ("rel", 0.04),  # median ITL, a pipeline its author does not feature
    (LIU, TIME_SHARES): ("abs", 0.02),  # read off a bar chart by pixel colour (±1 point) and rounded
    (LIU, PASS_RATIO): ("rel", 0.04),  # "~37.5 %" in prose
}


@dataclass(frozen=True)
class Parameter:
    """A fitted parameter: name, bounds, the scale the optimiser sees it at, unit for printing."""

    name: str
    low: float
    high: float
    start: float
    scale: float
    unit: str


# The vLLM constants fitted (ENGINE_CONSTANTS less FIXED), then the profiling runs' context. Efficiencies are
# bounded by what H100 kernels are known to reach (≤ 95 % of peak bandwidth, ≤ 85 % of peak FLOP/s).
PARAMETERS = (
    Parameter("weight_bandwidth_efficiency", 0.3, 0.95, 0.8, 1.0, ""),
    Parameter("kv_bandwidth_efficiency", 0.3, 0.95, 0.8, 1.0, ""),
    Parameter("flop_efficiency", 0.2, 0.85, 0.6, 1.0, ""),
    Parameter("layer_launch_s", 0.0, 300e-6, 60e-6, 1e-6, "µs"),
    Parameter("step_overhead_s", 0.0, 3e-3, 1e-3, 1e-3, "ms"),
    Parameter("step_overhead_per_token_s", 0.0, 50e-6, 3e-6, 1e-6, "µs"),
    Parameter("ngram_lookup_per_seq_s", 0.0, 50e-6, 3e-6, 1e-6, "µs"),
    Parameter("draft_model_iteration_per_seq_s", 0.0, 1e-3, 100e-6, 1e-6, "µs"),
    Parameter("pass_launch_s", 0.0, 2e-3, 500e-6, 1e-6, "µs"),  # the EAGLE-3 rows see it only above the kernels
)
PROFILING_CONTEXT = Parameter("profiling_context_tokens", 64.0, 32768.0, 512.0, 1.0, "tokens")
# pass_launch_s is told apart from layer_launch_s by drafters of different depths on the launch
# floor: the 28-layer Qwen3-0.6B and the one-layer EAGLE-3 head (Liu et al.'s two profiles).
# The constants no measurement here can fix are held at the values fixed.py gives, with why.
FIXED = {name: c["value"] for name, c in FIXED_CONSTANTS.items()}
ENGINE = "vllm"


@dataclass
class Estimate:
    """A fitted value, its standard error (NaN when it sits at a bound), and whether it does."""

    value: float
    stderr: float
    at_bound: bool = False


@dataclass
class Residual:
    """One fitted point: measured and predicted values, and (predicted − measured) / σ."""

    point: Point
    measured: tuple
    predicted: tuple
    normalized: tuple


@dataclass
class FitResult:
    constants: dict  # name → Estimate, every ENGINE_CONSTANTS name of vLLM
    profiling_context: Estimate
    residuals: list
    one_point: dict = field(default_factory=dict)  # engine → Estimate of its step_overhead_s
    dof: int = 0

    @property
    def rms(self) -> float:
        values = [x for r in self.residuals for x in r.normalized]
        return float(np.sqrt(np.mean(np.square(values))))

    def summary(self) -> str:
        n = sum(len(r.normalized) for r in self.residuals)
        studies = sorted({r.point.study for r in self.residuals})
        return (f"least squares over {len(self.residuals)} component measurements ({n} values) of vLLM "
                f"serving Qwen3-8B on an H100: {', '.join(studies)}; RMS normalized residual {self.rms:.2f}")


def _unpack(x: np.ndarray) -> tuple[dict, float]:
    constants = {p.name: float(v) * p.scale for p, v in zip(PARAMETERS, x)}
    constants.update(FIXED)
    return constants, float(np.exp(x[-1]))


def _sigma(point: Point, measured: float) -> float:
    kind, value = SIGMA[(point.study, point.quantity)]
    return value * abs(measured) if kind == "rel" else value


def fit_points(measurements: dict[str, Measurement]) -> list[Point]:
    """The points the fit uses, in file order."""
    return [POINTS[k] for k in measurements if k in POINTS and POINTS[k].fit]


def _residuals(points, measurements, catalog: Catalog, constants: dict, context: float) -> list[Residual]:
    cost = Calibrated(constants)
    out = []
    for point in points:
        row = measurements[point.id]
        measured = measured_values(point, row)
        c = point.context_tokens if point.context_tokens is not None else context
        predicted = tuple(float(v) for v in predict(cost, catalog, point, batch_of(point, row), gamma_of(point, row), c))
        if point.quantity == TIME_SHARES:
            # drafting and verification; the third share is what remains
            used = (0, 1) if point.drafter is not None else (1,)
        else:
            used = (0,)
        out.append(Residual(point, measured, predicted,
                            tuple((predicted[i] - measured[i]) / _sigma(point, measured[i]) for i in used)))
    return out


def fit(measurements: dict[str, Measurement], catalog: Catalog) -> FitResult:
    """Fit the vLLM constants (and the profiling runs' context), then the one-point engines."""
    points = fit_points(measurements)

    def vector(x):
        constants, context = _unpack(x)
        return np.array([v for r in _residuals(points, measurements, catalog, constants, context) for v in r.normalized])

    x0 = np.array([p.start / p.scale for p in PARAMETERS] + [np.log(PROFILING_CONTEXT.start)])
    low = np.array([p.low / p.scale for p in PARAMETERS] + [np.log(PROFILING_CONTEXT.low)])
    high = np.array([p.high / p.scale for p in PARAMETERS] + [np.log(PROFILING_CONTEXT.high)])
    result = least_squares(vector, x0, bounds=(low, high), x_scale="jac", method="trf", xtol=1e-12, ftol=1e-12,
                           gtol=1e-12, max_nfev=5000)
    x = result.x
    at_bound = (np.isclose(x, low, rtol=0, atol=1e-6 * np.maximum(1, abs(low)))
                | np.isclose(x, high, rtol=0, atol=1e-6 * np.maximum(1, abs(high))))
    m, n_free = result.fun.size, int((~at_bound).sum())
    dof = max(m - n_free, 1)
    variance = 2 * result.cost / dof
    stderr = np.full(x.size, np.nan)
    free = ~at_bound
    jac = result.jac[:, free]
    cov = np.linalg.pinv(jac.T @ jac) * variance
    stderr[free] = np.sqrt(np.diag(cov))
    constants, context = _unpack(x)
    estimates = {p.name: Estimate(constants[p.name], float(stderr[i] * p.scale), bool(at_bound[i]))
                 for i, p in enumerate(PARAMETERS)}
    for name, value in FIXED.items():
        estimates[name] = Estimate(value, 0.0)
    # d(context) = context · d(log context)
    context_estimate = Estimate(context, float(stderr[-1] * context), bool(at_bound[-1]))
    residuals = _residuals(points, measurements, catalog, constants, context)
    fitted = FitResult(estimates, context_estimate, residuals, dof=dof)
    fitted.one_point = {engine: _one_point(measurements[point_id], POINTS[point_id], catalog, constants)
                        for engine, point_id in ONE_POINT_ENGINES.items()}
    return fitted


def _one_point(row: Measurement, point: Point, catalog: Catalog, constants: dict) -> Estimate:
    """The step overhead that makes vLLM's kernels give this engine's measured step time."""
    (measured,) = measured_values(point, row)
    without = dict(constants, step_overhead_s=0.0)
    (predicted,) = predict(Calibrated(without), catalog, point, batch_of(point, row), None, point.context_tokens)
    value = measured - float(predicted)
    return Estimate(max(value, 0.0), _sigma(point, measured), value <= 0)


def fitted_module(result: FitResult, data_sha256: str) -> str:
    """The text of ``calibration/fitted.py`` for this result (what ``calibrate --write`` writes).

    Values are written with 6 significant digits: the fit's own uncertainty is far larger, and
    a rerun on the same data reproduces them exactly.
    """
    def estimate(e: Estimate) -> str:
        stderr = "float('nan')" if not np.isfinite(e.stderr) else f"{e.stderr:.3g}"
        return f'{{"value": {e.value:.6g}, "stderr": {stderr}, "at_bound": {e.at_bound}}}'

    lines = [
        '"""Fitted engine constants. Written by ``specmodel calibrate --write``; do not edit by hand.',
        "",
        f"Data: specmodel/data/measurements-calibration.csv, sha256 {data_sha256[:16]}.",
        '"""',
        "",
        "FITTED = {",
        '    "vllm": {',
        '        "constants": {',
    ]
    lines += [f'            "{p.name}": {estimate(result.constants[p.name])},' for p in PARAMETERS]
    lines += [f'            "{name}": {estimate(result.constants[name])},' for name in FIXED]
    lines += [
        "        },",
        f'        "nuisance": {{"{PROFILING_CONTEXT.name}": {estimate(result.profiling_context)}}},',
        f'        "summary": "{result.summary()}",',
        "    },",
    ]
    for engine, e in result.one_point.items():
        point = POINTS[ONE_POINT_ENGINES[engine]]
        lines += [
            f'    "{engine}": {{',
            f'        "constants": {{"step_overhead_s": {estimate(e)}}},',
            # the row as `specmodel validate` numbers it (found by a cold read: "at row 106", a row
            # of a file the reader was not pointed to)
            f'        "summary": "the step overhead that gives {point.study}\'s plain-decoding step time in this engine '
            f'(row {point.id} of specmodel validate) with vLLM\'s other constants",',
            "    },",
        ]
    lines += ["}", ""]
    return "\n".join(lines)
