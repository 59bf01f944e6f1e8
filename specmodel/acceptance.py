"""The acceptance model: how many of γ guesses survive one iteration.

Arrays: ``gamma``, ``alpha`` and ``shape`` broadcast together (shape S); results add a trailing
axis of length ``max_gamma`` (positions) or ``max_gamma + 1`` (accepted counts k = 0 … γ),
zero-padded past each state's γ. ``shape`` is an acceptance shape's name or its index in
ACCEPTANCE_SHAPES (0 falling, 1 same, 2 rising), or an array of either. In every shape α is the
acceptance rate of the first draft position.
"""
from __future__ import annotations

import numpy as np

FALLING = "falling"
SAME = "same"
RISING = "rising"
ACCEPTANCE_SHAPES = (FALLING, SAME, RISING)
# Conditional acceptance decays by this factor per draft position in the `falling` shape: the
# value fitted to the seed essay's per-position vector at α = 0.75 (positions 1 to 4: .751, .477,
# .261, .123).
FALLING_DECAY = 0.85
# In the `rising` shape the conditional *rejection* rate 1 − a_j shrinks by this factor per
# position: a match that has started tends to continue (n-gram and suffix drafters). Fitted by
# least squares, α free per vector, to two vLLM n-gram per-position vectors: vLLM PR #24344
# (prompt lookup on blazedit, γ 5: .81, .74, .70, .68, .66) and a vLLM user's
# unpublished log (γ 3: .543, .357, .264); RMS residuals 0.015 and 0.018 (fit_rising_decay).
RISING_DECAY = 0.65
# The per-position vectors RISING_DECAY was fitted to (fit_rising_decay): (where it was logged, its
# address or None where it has none, rates p_1 … p_γ). The second was never published: the model
# page says so, and what the constant would be without it.
RISING_FIT_DATA = (
    ("vLLM pull request #24344, prompt lookup on code edits", "https://github.com/vllm-project/vllm/pull/24344",
     (0.81, 0.74, 0.70, 0.68, 0.66)),
    ("a vLLM user's n-gram engine log, never published", None, (0.543, 0.357, 0.264)),
)


def shape_code(shape) -> np.ndarray:
    """Index into ACCEPTANCE_SHAPES of each element of ``shape`` (names or indices).

    Raises ValueError naming the allowed shapes for anything else.
    """
    a = np.asarray(shape)
    if a.dtype.kind in "iu":
        if a.size and (a.min() < 0 or a.max() >= len(ACCEPTANCE_SHAPES)):
            raise ValueError(f"acceptance shape index out of range; allowed 0 … {len(ACCEPTANCE_SHAPES) - 1}")
        return a.astype(np.int64)
    if a.dtype.kind in "UO":
        lookup = {name: i for i, name in enumerate(ACCEPTANCE_SHAPES)}
        try:
            return np.vectorize(lookup.__getitem__, otypes=[np.int64])(a) if a.ndim else np.int64(lookup[a.item()])
        except KeyError:
            raise ValueError(f"acceptance shape {shape!r} is not one of {', '.join(ACCEPTANCE_SHAPES)}") from None
    raise ValueError(f"acceptance shape {shape!r} is not one of {', '.join(ACCEPTANCE_SHAPES)}")


def conditional_acceptance(gamma, alpha, shape, max_gamma: int) -> np.ndarray:
    """a_j, the probability draft position j is accepted given positions 1 … j−1 were.

    falling: a_j = α·0.85^(j−1); same (i.i.d., Leviathan et al. 2023 §3.1): a_j = α;
    rising: a_j = 1 − (1 − α)·0.65^(j−1). Shape S + (max_gamma,); zero for j > γ.
    """
    gamma, alpha, code = np.broadcast_arrays(np.asarray(gamma), np.asarray(alpha, float), shape_code(shape))
    j = np.arange(1, max_gamma + 1)
    a = alpha[..., None]
    c = code[..., None]
    value = np.where(c == 0, a * FALLING_DECAY ** (j - 1),
                     np.where(c == 1, a, 1.0 - (1.0 - a) * RISING_DECAY ** (j - 1)))
    return np.where(j <= gamma[..., None], value, 0.0)


def mean_conditional_acceptance(gamma, alpha, shape, max_gamma: int) -> np.ndarray:
    """(a_1 + … + a_γ) / γ: the conditional acceptance averaged over the γ positions, what vLLM
    V0's "Draft acceptance rate" estimates (it counts every draft token that passes its test, even
    after an earlier rejection: vllm/spec_decode/metrics.py, accepted / draft tokens). Shape S."""
    a = conditional_acceptance(gamma, alpha, shape, max_gamma)
    return a.sum(axis=-1) / np.maximum(1, np.broadcast_to(np.asarray(gamma), a.shape[:-1]))


def per_position_acceptance(gamma, alpha, shape, max_gamma: int) -> np.ndarray:
    """p_j = a_1·…·a_j: the share of iterations in which position j reaches the output.

    This is what vLLM logs as "Per-position acceptance rate". Shape S + (max_gamma,).
    """
    return np.cumprod(conditional_acceptance(gamma, alpha, shape, max_gamma), axis=-1)


def accepted_count_distribution(gamma, alpha, shape, max_gamma: int) -> np.ndarray:
    """P(k accepted) = p_k − p_{k+1}, p_0 = 1, p_{γ+1} = 0 (rejection truncates the prefix).

    Shape S + (max_gamma + 1,), k = 0 … max_gamma; sums to 1 over k.
    """
    p = per_position_acceptance(gamma, alpha, shape, max_gamma)
    ones = np.ones(p.shape[:-1] + (1,))
    zeros = np.zeros(p.shape[:-1] + (1,))
    survival = np.concatenate([ones, p], axis=-1)
    return survival - np.concatenate([p, zeros], axis=-1)


def mean_acceptance_length(gamma, alpha, shape, max_gamma: int) -> np.ndarray:
    """E[L] = 1 + Σ_j p_j: tokens one iteration emits on average (bonus/corrected token included)."""
    return 1.0 + per_position_acceptance(gamma, alpha, shape, max_gamma).sum(axis=-1)


def fit_rising_decay(vectors) -> float:
    """The rising shape's decay that fits per-position vectors best: least squares over every
    position of every vector, each vector with its own α (both on grids: decay 0.300 … 0.995 in
    steps of 0.005, α 0.0005 … 0.9995 in steps of 0.0005). ``vectors``: sequences of per-position
    rates p_1 … p_γ. How RISING_DECAY was found (from RISING_FIT_DATA's rates). Raises ValueError
    for no vectors."""
    vectors = [np.asarray(v, dtype=float) for v in vectors]
    if not vectors:
        raise ValueError("fit_rising_decay: no per-position vectors to fit")
    decays = np.round(np.arange(0.300, 0.9951, 0.005), 3)
    alphas = np.arange(1, 2000) * 0.0005
    j = np.arange(max(len(v) for v in vectors))
    # p_j for every decay × α: (decays, alphas, positions)
    p = np.cumprod(1.0 - (1.0 - alphas[None, :, None]) * decays[:, None, None] ** j, axis=-1)
    cost = sum(((p[:, :, : len(v)] - v) ** 2).sum(axis=-1).min(axis=1) for v in vectors)
    return float(decays[int(np.argmin(cost))])
