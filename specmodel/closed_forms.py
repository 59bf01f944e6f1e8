"""Closed forms of Leviathan, Kalman & Matias 2023, "Fast Inference from Transformers via
Speculative Decoding" (ICML 2023, arXiv:2211.17192). They assume i.i.d. acceptance α and enough
spare compute to run γ+1 target evaluations in the time of one. All broadcast over arrays.
"""
from __future__ import annotations

import numpy as np


def expected_tokens_per_iteration(alpha, gamma):
    """Eq. 1: the expected number of tokens one iteration emits, (1 − α^(γ+1)) / (1 − α); γ + 1 at α = 1."""
    a = np.asarray(alpha, dtype=float)
    g = np.asarray(gamma, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (1 - a ** (g + 1)) / (1 - a)
    return np.where(a == 1, g + 1, value)


def expected_tokens_ceiling(alpha):
    """The limit of Eq. 1 as γ → ∞: 1 / (1 − α) (infinite at α = 1)."""
    a = np.asarray(alpha, dtype=float)
    with np.errstate(divide="ignore"):
        return 1 / (1 - a)


def walltime_improvement(alpha, gamma, cost_coefficient):
    """Theorem 3.8: (1 − α^(γ+1)) / ((1 − α)(γc + 1)), c = draft time / target time per pass."""
    return expected_tokens_per_iteration(alpha, gamma) / (np.asarray(gamma) * np.asarray(cost_coefficient) + 1)


def arithmetic_increase(alpha, gamma, flops_coefficient):
    """Theorem 3.11: (1 − α)(γĉ + γ + 1) / (1 − α^(γ+1)), ĉ = draft FLOPs / target FLOPs per token."""
    g = np.asarray(gamma, dtype=float)
    return (g * np.asarray(flops_coefficient) + g + 1) / expected_tokens_per_iteration(alpha, gamma)


def acceptance_rate(target_probs, draft_probs):
    """Corollary 3.6 (with Definition 3.3): α = Σ_x min(p(x), q(x)) = 1 − D_LK(p, q).

    target_probs, draft_probs: probability vectors over the vocabulary (last axis).
    """
    return np.minimum(np.asarray(target_probs, float), np.asarray(draft_probs, float)).sum(axis=-1)
