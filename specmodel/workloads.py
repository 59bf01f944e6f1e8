"""The two workloads' schedules: how many sequences are active in each speculative iteration.

closed-batch (the essay's setting): B sequences must each emit G tokens; finished sequences
leave the batch. Computed exactly in expectation by dynamic programming over one sequence's
token count (docs "The model", "Workloads"). steady-state: a server that refills its batch, so
every iteration has B sequences at context P + G/2.
"""
from __future__ import annotations

import numpy as np

CLOSED_BATCH = "closed-batch"
STEADY_STATE = "steady-state"
WORKLOADS = (CLOSED_BATCH, STEADY_STATE)
# The DP stops once the probability a sequence is still running falls to this (spec constant).
ACTIVE_PROBABILITY_FLOOR = 1e-13


def closed_batch_schedule(accepted_count_probs: np.ndarray, output_tokens: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-iteration activity of one sequence that must emit ``output_tokens`` (G) tokens.

    accepted_count_probs: shape (S, K), P(k accepted) for k = 0 … K−1 (an iteration emits k+1).
    Returns (active_probability, active_token_sum), each shape (S, G):
      active_probability[t] = q_t = Σ_s f_t(s), the probability the sequence is unfinished before
      iteration t+1; active_token_sum[t] = Σ_s s·f_t(s), the expected tokens it already holds,
      counted over unfinished outcomes. Both are 0 once q_t ≤ 1e−13 (where the DP stops). Every
      iteration emits at least one token, so G iterations always suffice.
    """
    probs = np.asarray(accepted_count_probs, dtype=float)
    num_states, num_counts = probs.shape
    g = int(output_tokens)
    f = np.zeros((num_states, g))
    f[:, 0] = 1.0
    tokens = np.arange(g, dtype=float)
    active = np.zeros((num_states, g))
    token_sum = np.zeros((num_states, g))
    for t in range(g):
        active[:, t] = f.sum(axis=1)
        token_sum[:, t] = f @ tokens
        nxt = np.zeros_like(f)
        # every iteration emits at least one token, so before iteration t+1 no mass lies below
        # s = t: the columns left of it hold exact zeros and are skipped
        for k in range(min(num_counts, g - 1 - t)):
            # emitting k+1 tokens moves mass from s to s+k+1; mass reaching G is finished
            nxt[:, t + k + 1 :] += probs[:, k : k + 1] * f[:, t : g - k - 1]
        f = nxt
    stopped = active <= ACTIVE_PROBABILITY_FLOOR
    active[stopped] = 0.0
    token_sum[stopped] = 0.0
    return active, token_sum


def batch_running_probability(active_probability: np.ndarray, batch) -> np.ndarray:
    """r_t = 1 − (1 − q_t)^B: the probability that at least one of B sequences is still running.

    Computed as −expm1(B·log1p(−q)) so tiny q keep their precision. Broadcasts.
    """
    q = np.asarray(active_probability, dtype=float)
    with np.errstate(divide="ignore"):
        return -np.expm1(np.asarray(batch, dtype=float) * np.log1p(-np.minimum(q, 1.0)))
