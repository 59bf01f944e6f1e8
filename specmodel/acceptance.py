"""The acceptance model: how many of γ guesses survive one iteration.

Arrays: ``gamma``, ``alpha`` and ``falling`` broadcast together (shape S); results add a trailing
axis of length ``max_gamma`` (positions) or ``max_gamma + 1`` (accepted counts k = 0 … γ),
zero-padded past each state's γ.
"""
from __future__ import annotations

import numpy as np

FALLING = "falling"
SAME = "same"
ACCEPTANCE_SHAPES = (FALLING, SAME)
# Conditional acceptance decays by this factor per draft position in the `falling` shape: the
# value fitted to the seed essay's per-position vector at α = 0.75 (positions 1 to 4: .751, .477,
# .261, .123).
FALLING_DECAY = 0.85


def conditional_acceptance(gamma, alpha, falling, max_gamma: int) -> np.ndarray:
    """a_j, the probability draft position j is accepted given positions 1 … j−1 were.

    falling: a_j = α·0.85^(j−1); same (i.i.d., Leviathan et al. 2023 §3.1): a_j = α.
    Shape S + (max_gamma,); zero for j > γ.
    """
    gamma, alpha, falling = np.broadcast_arrays(np.asarray(gamma), np.asarray(alpha, float), np.asarray(falling, bool))
    j = np.arange(1, max_gamma + 1)
    decay = np.where(falling[..., None], FALLING_DECAY ** (j - 1), 1.0)
    return np.where(j <= gamma[..., None], alpha[..., None] * decay, 0.0)


def per_position_acceptance(gamma, alpha, falling, max_gamma: int) -> np.ndarray:
    """p_j = a_1·…·a_j: the share of iterations in which position j reaches the output.

    This is what vLLM logs as "Per-position acceptance rate". Shape S + (max_gamma,).
    """
    return np.cumprod(conditional_acceptance(gamma, alpha, falling, max_gamma), axis=-1)


def accepted_count_distribution(gamma, alpha, falling, max_gamma: int) -> np.ndarray:
    """P(k accepted) = p_k − p_{k+1}, p_0 = 1, p_{γ+1} = 0 (rejection truncates the prefix).

    Shape S + (max_gamma + 1,), k = 0 … max_gamma; sums to 1 over k.
    """
    p = per_position_acceptance(gamma, alpha, falling, max_gamma)
    ones = np.ones(p.shape[:-1] + (1,))
    zeros = np.zeros(p.shape[:-1] + (1,))
    survival = np.concatenate([ones, p], axis=-1)
    return survival - np.concatenate([p, zeros], axis=-1)


def mean_acceptance_length(gamma, alpha, falling, max_gamma: int) -> np.ndarray:
    """E[L] = 1 + Σ_j p_j: tokens one iteration emits on average (bonus/corrected token included)."""
    return 1.0 + per_position_acceptance(gamma, alpha, falling, max_gamma).sum(axis=-1)
