"""The rejection-sampler demonstration: one (target, draft) pair over a six-token vocabulary, run
through Algorithm 1 many times at a fixed seed, so the essay can show the output histogram lying
on the target distribution."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import chisquare

from specmodel.closed_forms import acceptance_rate
from specmodel.sampler import sample_first_tokens

TOKENS = ["the", "a", "cat", "dog", "sat", "ran"]
# The draft spreads mass onto "ran", which the target never picks, and under-weights "sat".
TARGET = np.array([0.35, 0.25, 0.15, 0.10, 0.15, 0.00])
DRAFT = np.array([0.30, 0.20, 0.20, 0.10, 0.05, 0.15])
DRAWS = 200_000
SEED = 2023


@dataclass(frozen=True)
class SamplerDemo:
    draws: int
    observed_acceptance_rate: float
    expected_acceptance_rate: float
    chi_square_p_value: float
    rows: list  # the sampler chart's rows


def run_sampler_demo() -> SamplerDemo:
    """Run the demonstration (deterministic: fixed seed)."""
    tokens, accepted = sample_first_tokens(TARGET, DRAFT, DRAWS, SEED)
    counts = np.bincount(tokens, minlength=len(TOKENS))
    support = TARGET > 0
    p_value = float(chisquare(counts[support], DRAWS * TARGET[support]).pvalue)
    rows = [
        {"token": t, "target_probability": float(p), "draft_probability": float(q),
         "sampled_frequency": round(float(c) / DRAWS, 5)}
        for t, p, q, c in zip(TOKENS, TARGET, DRAFT, counts)
    ]
    return SamplerDemo(DRAWS, float(accepted.mean()), float(acceptance_rate(TARGET, DRAFT)), p_value, rows)
