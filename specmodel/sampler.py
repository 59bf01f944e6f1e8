"""Algorithm 1 of Leviathan et al. 2023 (speculative sampling) as a real rejection sampler over
explicit probability vectors, seeded, so the site can show that its output follows the target
distribution exactly (their Theorem / Appendix A.1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import ModelInputError


def _check_distribution(name: str, probs: np.ndarray) -> np.ndarray:
    probs = np.asarray(probs, dtype=float)
    if probs.ndim < 1 or probs.shape[-1] < 1 or not np.all(np.isfinite(probs)) or np.any(probs < 0):
        raise ModelInputError(name, "not a vector of non-negative finite numbers", "a probability vector")
    if not np.allclose(probs.sum(axis=-1), 1.0, atol=1e-9):
        raise ModelInputError(name, f"sums to {probs.sum(axis=-1)}", "a probability vector summing to 1")
    return probs


def residual_distribution(target_probs, draft_probs) -> np.ndarray:
    """norm(max(0, p − q)): what a rejected position is resampled from (Algorithm 1, last step).

    When p = q nothing is ever rejected and the residual is undefined; p is returned then.
    """
    p = _check_distribution("target_probs", target_probs)
    q = _check_distribution("draft_probs", draft_probs)
    excess = np.maximum(p - q, 0.0)
    total = excess.sum(axis=-1, keepdims=True)
    return np.where(total > 0, excess / np.where(total > 0, total, 1.0), p)


@dataclass(frozen=True)
class Iteration:
    """One speculative iteration: ``drafted`` γ guesses, ``num_accepted`` n of them kept (a prefix),
    and ``tokens``, the n accepted guesses plus the corrected (n < γ) or bonus (n = γ) token."""

    drafted: list
    num_accepted: int
    tokens: list


def speculative_iteration(target_probs, draft_probs, rng: np.random.Generator) -> Iteration:
    """Run Algorithm 1 once.

    target_probs: shape (γ+1, V), p_i for positions 1 … γ+1. draft_probs: shape (γ, V), q_i.
    (With explicit vectors the per-position distributions are given rather than computed from a
    prefix; the algorithm is otherwise the paper's, line for line.)
    """
    p = _check_distribution("target_probs", np.atleast_2d(target_probs))
    q = _check_distribution("draft_probs", np.atleast_2d(draft_probs))
    gamma = q.shape[0]
    if p.shape != (gamma + 1, q.shape[1]):
        raise ModelInputError("target_probs", f"shape {p.shape}", f"shape (γ+1, V) = {(gamma + 1, q.shape[1])}")
    vocab = np.arange(q.shape[1])
    drafted = [int(rng.choice(vocab, p=q[i])) for i in range(gamma)]
    r = rng.random(gamma)
    n = gamma
    for i, x in enumerate(drafted):
        if r[i] > p[i, x] / q[i, x]:
            n = i
            break
    final = p[n] if n == gamma else residual_distribution(p[n], q[n])
    t = int(rng.choice(vocab, p=final))
    return Iteration(drafted=drafted, num_accepted=n, tokens=drafted[:n] + [t])


def sample_first_tokens(target_probs, draft_probs, num_draws: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised Algorithm 1 at one position (γ = 1), ``num_draws`` independent times.

    Draw x ~ q; keep it if r ≤ p(x)/q(x) with r ~ U(0, 1); otherwise emit a token drawn from
    norm(max(0, p − q)). Returns (tokens, accepted): int array and bool array, shape (num_draws,).
    The emitted tokens are distributed exactly as p; the acceptance rate is Σ min(p, q).
    """
    p = _check_distribution("target_probs", target_probs)
    q = _check_distribution("draft_probs", draft_probs)
    if p.shape != q.shape or p.ndim != 1:
        raise ModelInputError("draft_probs", f"shape {q.shape}", f"a vector of the target's shape {p.shape}")
    rng = np.random.default_rng(seed)
    drafted = rng.choice(p.size, size=num_draws, p=q)
    accepted = rng.random(num_draws) <= p[drafted] / q[drafted]
    corrected = rng.choice(p.size, size=num_draws, p=residual_distribution(p, q))
    return np.where(accepted, drafted, corrected), accepted


def sample_accepted_counts(per_position_acceptance, num_iterations: int, seed: int,
                           max_positions: int | None = None) -> list[int]:
    """A seeded sample of accepted counts k for ``num_iterations`` iterations.

    per_position_acceptance: [p_1 … p_γ]; position j is accepted, given the ones before it
    were, with probability a_j = p_j / p_{j−1}, so P(k) = p_k − p_{k+1}. Each iteration draws
    one uniform per position up to ``max_positions`` (default γ) and accepts the leading run
    with u_j ≤ a_j: with the same seed and ``max_positions``, a larger γ only extends each
    iteration's run, so samples for different γ tell one consistent story. Used for the page's
    token row. Returns a list of ints in 0 … γ.
    """
    p = np.asarray(per_position_acceptance, dtype=float)
    gamma = p.size
    width = max(gamma, max_positions or gamma)
    previous = np.concatenate([[1.0], p[:-1]])
    with np.errstate(divide="ignore", invalid="ignore"):
        conditional = np.where(previous > 0, p / np.where(previous > 0, previous, 1.0), 0.0)
    u = np.random.default_rng(seed).random((num_iterations, width))[:, :gamma]
    accepted = np.cumprod(u <= conditional, axis=1)
    return [int(k) for k in accepted.sum(axis=1)]
