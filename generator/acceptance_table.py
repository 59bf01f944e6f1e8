"""The acceptance model on the site's α grid, for the page's paste box.

The page fits a reader's pasted per-position rates by choosing the (shape, α) row with the
smallest residual, exactly as ``specmodel.metrics.fit_acceptance`` does with the site's α grid;
it looks the model's values up here instead of computing them.
"""
from __future__ import annotations

from specmodel import FIELDS
from specmodel.acceptance import (ACCEPTANCE_SHAPES, mean_acceptance_length, mean_conditional_acceptance,
                                  per_position_acceptance)
from specmodel.metrics.fit import POOR_FIT

DIGITS = 9  # the fit compares residuals: keep them well below the rates' printed 3 decimals


def acceptance_table() -> dict:
    """{"alphas", "shapes", "poor_fit": basis → the residual above which a fit is poor, "per_position": shape → α → p_1 … p_γmax,
    "mean_acceptance_length": shape → α → E[L] at γ = 1 … γmax, "mean_conditional_acceptance": shape → α → the
    average conditional acceptance at γ = 1 … γmax (what vLLM V0's draft acceptance rate estimates)}."""
    alphas = list(FIELDS["alpha"].grid)
    top = max(FIELDS["gamma"].grid)
    gammas = list(FIELDS["gamma"].grid)
    return {
        "alphas": alphas,
        "shapes": list(ACCEPTANCE_SHAPES),
        "poor_fit": dict(POOR_FIT),
        "per_position": {s: [[round(float(p), DIGITS) for p in per_position_acceptance(top, a, s, top)] for a in alphas]
                         for s in ACCEPTANCE_SHAPES},
        "mean_acceptance_length": {s: [[round(float(mean_acceptance_length(g, a, s, g)), DIGITS) for g in gammas]
                                       for a in alphas] for s in ACCEPTANCE_SHAPES},
        "mean_conditional_acceptance": {s: [[round(float(mean_conditional_acceptance(g, a, s, g)), DIGITS)
                                             for g in gammas] for a in alphas] for s in ACCEPTANCE_SHAPES},
    }
