"""Fit the acceptance model (α and its shape) to a Reading.

With per-position rates: for each shape of ``acceptance.ACCEPTANCE_SHAPES``, the α that minimises
the root-mean-square difference between the model's per-position acceptance and the measured one
over the γ positions; the shape with the smallest residual wins (ties: the earlier shape).
Without them: for each shape the α that gives the measured mean acceptance length at γ (the
residual is then the difference in mean acceptance length); one length cannot tell the shapes
apart, so the model's default (falling) is assumed, unless the text gives vLLM V0's draft
acceptance rate, an average over positions: then the shape whose average conditional acceptance
at its α is nearest it (acceptance.mean_conditional_acceptance; found by a cold read: falling at
α 0.90 averages 0.72 against a line's 0.800, the same acceptance at every position at 0.80 gives
both its length and its rate).

``alphas`` chooses where α may lie: a fine grid by default (steps of 0.0005), or the site's grid
(``FIELDS["alpha"].grid``) to reproduce what the page does.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..acceptance import (ACCEPTANCE_SHAPES, FALLING, mean_acceptance_length, mean_conditional_acceptance,
                          per_position_acceptance)
from .parse import MetricsInputError, Reading

FINE_ALPHAS = tuple(round(0.0005 * i, 4) for i in range(1, 2001))
PER_POSITION = "per-position rates"
MEAN_LENGTH = "mean acceptance length"
# Above these residuals no shape describes the text well, and the answer says so: an RMS of 0.05
# over per-position rates printed to 3 decimals, or 0.1 tokens of mean acceptance length.
# V0_RATE: a V0 line whose draft acceptance rate is further than this from every shape's average at
# the α that gives its length (found by a cold read: 0.900 against 0.438–0.648, priced unsaid).
V0_RATE = "V0 draft acceptance rate"
POOR_FIT = {PER_POSITION: 0.05, MEAN_LENGTH: 0.1, V0_RATE: 0.05}
# A one-number fit further than this from the text's mean (printed to two decimals) says that
# the α grid's step limits it; a fit at the grid's lowest or highest α whose mean acceptance length
# misses the text's by more than this, in the direction past that end, says that the grid's end does.
GRID_NOTE_RESIDUAL = 0.005
BELOW_GRID = "below"
ABOVE_GRID = "above"


@dataclass(frozen=True)
class AcceptanceFit:
    """The fitted acceptance: shape, α (first-position acceptance rate), γ, and how well it fits.

    ``residual``: RMS of per-position rates (basis PER_POSITION) or |Δ mean acceptance length|
    (basis MEAN_LENGTH). ``residuals``: the best residual of each shape tried, by shape name.
    ``alphas``: each shape's own best α, by shape name (the page prices a configuration whose site
    data lack the best shape at the best of those it holds, views/metrics.js adjust; so does
    ``fit-metrics --site-grid``). ``out_of_range`` (basis MEAN_LENGTH): the text's mean lies
    beyond what the shape gives at any α tried; else a one-number fit's residual is only the α
    grid's step, no sign of a wrong shape (found once: "no acceptance shape describes these numbers
    well" for a V0 line 0.076 from α = 0.9). ``grid_edge``: BELOW_GRID or ABOVE_GRID where α is the
    lowest or highest α tried (the highest below 1) and the text's acceptance lies past it (the
    fitted mean acceptance length misses the text's by more than GRID_NOTE_RESIDUAL on that side),
    else None. Found by a cold read: per-position rates 0.000 fitted α = 0.05 and 1.000 fitted
    α = 0.95 on the site's grid without a word that the grid's end, not the text, set α.
    """

    shape: str
    alpha: float
    gamma: int
    residual: float
    residuals: dict
    alphas: dict
    basis: str
    fitted_per_position: tuple[float, ...]
    fitted_mean_acceptance_length: float
    out_of_range: bool = False
    # basis MEAN_LENGTH with V0's draft acceptance rate: each shape's average conditional acceptance
    # at its own best α, by shape name (what chose the shape); else empty
    v0_rates: dict = field(default_factory=dict)
    measured_v0_rate: float | None = None
    grid_edge: str | None = None

    @property
    def v0_rate_gap(self) -> float | None:
        """How far V0's rate is from the nearest shape's average (None: no V0 rate chose the shape)."""
        return min(abs(r - self.measured_v0_rate) for r in self.v0_rates.values()) if self.v0_rates else None

    @property
    def poor(self) -> bool:
        """No shape describes the text well (residual above POOR_FIT for the basis; from one
        number, only where no α reaches it)."""
        if self.v0_rates and self.v0_rate_gap > POOR_FIT[V0_RATE]:
            return True
        return self.residual > POOR_FIT[self.basis] and (self.basis == PER_POSITION or self.out_of_range)

    @property
    def grid_limited(self) -> bool:
        """A one-number fit whose residual is the step between the α tried, not a misfit."""
        return self.basis == MEAN_LENGTH and not self.out_of_range and self.residual > GRID_NOTE_RESIDUAL

    def as_dict(self) -> dict:
        return {"poor": self.poor, "out_of_range": self.out_of_range, "shape": self.shape, "alpha": self.alpha, "gamma": self.gamma, "residual": self.residual,
                "residuals": dict(self.residuals), "alphas": dict(self.alphas), "basis": self.basis,
                "fitted_per_position": list(self.fitted_per_position),
                "fitted_mean_acceptance_length": self.fitted_mean_acceptance_length, "v0_rates": dict(self.v0_rates),
                "grid_edge": self.grid_edge}


def fit_acceptance(reading: Reading, alphas=FINE_ALPHAS) -> AcceptanceFit:
    """The best (shape, α) for ``reading`` at γ = reading.gamma; α from ``alphas``.

    Raises MetricsInputError when the reading has neither per-position rates nor a mean acceptance
    length with a known γ (what is missing is in the reading's notes).
    """
    a = np.asarray(alphas, dtype=float)
    if reading.per_position_acceptance:
        measured = np.asarray(reading.per_position_acceptance, dtype=float)
        gamma = measured.size
        best = None
        residuals = {}
        best_alphas = {}
        for shape in ACCEPTANCE_SHAPES:
            model = per_position_acceptance(gamma, a, shape, gamma)  # (α, γ)
            rms = np.sqrt(np.mean((model - measured) ** 2, axis=-1))
            i = int(np.argmin(rms))
            residuals[shape] = float(rms[i])
            best_alphas[shape] = float(a[i])
            if best is None or rms[i] < best[2] - 1e-12:
                best = (shape, float(a[i]), float(rms[i]))
        shape, alpha, residual = best
        return _fit(shape, alpha, gamma, residual, residuals, best_alphas, PER_POSITION,
                    measured_mean=1 + float(measured.sum()), alphas_tried=a)
    if reading.mean_acceptance_length is not None and reading.gamma:
        gamma = int(reading.gamma)
        m = reading.mean_acceptance_length
        rate = reading.v0_draft_acceptance_rate
        shapes = ACCEPTANCE_SHAPES if rate is not None and math.isfinite(rate) else (FALLING,)
        residuals, best_alphas, beyond, rates = {}, {}, {}, {}
        for shape in shapes:
            model = mean_acceptance_length(gamma, a, shape, gamma)
            gap = np.abs(model - m)
            i = int(np.argmin(gap))
            residuals[shape], best_alphas[shape] = float(gap[i]), float(a[i])
            beyond[shape] = not model.min() <= m <= model.max()
            if len(shapes) > 1:
                rates[shape] = float(mean_conditional_acceptance(gamma, a[i], shape, gamma))
        # a shape that reaches the length first; among them the rate nearest V0's (ties: the earlier)
        shape = min(shapes, key=lambda s: (beyond[s], abs(rates[s] - rate) if rates else 0.0))
        return _fit(shape, best_alphas[shape], gamma, residuals[shape], residuals, best_alphas, MEAN_LENGTH,
                    beyond[shape], rates, rate if rates else None, measured_mean=m, alphas_tried=a)
    missing = " ".join(reading.notes[-1:]) or "The text gives no mean acceptance length."
    # the note's sentence goes on after a colon: lower case (the page's fit.js does the same)
    missing = missing[0].lower() + missing[1:]
    raise MetricsInputError(f"the {reading.source} text cannot be fitted: {missing.rstrip('.')}", recognised=True)


def _fit(shape: str, alpha: float, gamma: int, residual: float, residuals: dict, alphas: dict, basis: str,
         out_of_range: bool = False, v0_rates: dict | None = None, measured_v0_rate: float | None = None, *,
         measured_mean: float, alphas_tried: np.ndarray) -> AcceptanceFit:
    per_pos = per_position_acceptance(gamma, alpha, shape, gamma)
    fitted_mean = float(1 + per_pos.sum())
    return AcceptanceFit(shape, alpha, gamma, residual, residuals, alphas, basis, tuple(float(p) for p in per_pos),
                         fitted_mean, out_of_range, dict(v0_rates or {}), measured_v0_rate,
                         grid_edge(alpha, alphas_tried, measured_mean - fitted_mean))


def grid_edge(alpha: float, alphas_tried, excess: float) -> str | None:
    """BELOW_GRID or ABOVE_GRID where ``alpha`` is the lowest or highest of ``alphas_tried`` (the
    highest only below 1, beyond which no α lies) and ``excess`` (the text's mean acceptance length
    minus the fit's, tokens) points past it by more than GRID_NOTE_RESIDUAL; else None."""
    if alpha == float(np.min(alphas_tried)) and excess < -GRID_NOTE_RESIDUAL:
        return BELOW_GRID
    if alpha == float(np.max(alphas_tried)) < 1 and excess > GRID_NOTE_RESIDUAL:
        return ABOVE_GRID
    return None


# The decimals residuals are written with, unless more are needed to tell the chosen shape's from
# another's; and the most ever written (past this, two residuals are one for any reader).
RESIDUAL_DECIMALS = 3
MAX_RESIDUAL_DECIMALS = 6


def residual_decimals(fit: AcceptanceFit) -> int:
    """The decimals that write every residual of ``fit``: RESIDUAL_DECIMALS, or as many more (up to
    MAX_RESIDUAL_DECIMALS) as it takes for the chosen shape's residual not to read as another
    shape's where the two differ (found by a cold read: falling 0.029 "(best)" beside the same
    0.029; written 0.02889 and 0.02890). metrics/fit.js residualDecimals agrees."""
    chosen = fit.residuals.get(fit.shape, fit.residual)
    others = [r for s, r in fit.residuals.items() if s != fit.shape and r != chosen]
    d = RESIDUAL_DECIMALS
    while d < MAX_RESIDUAL_DECIMALS and any(f"{r:.{d}f}" == f"{chosen:.{d}f}" for r in others):
        d += 1
    return d
