"""Algorithm 1 leaves the target distribution unchanged, and accepts at rate Σ min(p, q)."""
import numpy as np
import pytest
from scipy.stats import chisquare

from specmodel.closed_forms import acceptance_rate
from specmodel.sampler import sample_first_tokens, speculative_iteration

DRAWS = 200_000
PAIRS = {
    "close": ([0.5, 0.3, 0.15, 0.05], [0.4, 0.35, 0.15, 0.10]),
    "draft mass where target has none": ([0.6, 0.4, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]),
    "target mass the draft never proposes": ([0.1, 0.2, 0.3, 0.4], [0.5, 0.5, 0.0, 0.0]),
    "far apart": ([0.01, 0.01, 0.01, 0.97], [0.97, 0.01, 0.01, 0.01]),
    "identical": ([0.2, 0.3, 0.5], [0.2, 0.3, 0.5]),
}


@pytest.mark.parametrize("name", PAIRS)
def test_output_follows_the_target(name):
    p, q = (np.array(v) for v in PAIRS[name])
    tokens, _ = sample_first_tokens(p, q, DRAWS, seed=2023)
    observed = np.bincount(tokens, minlength=p.size)
    support = p > 0
    assert observed[~support].sum() == 0  # never emits a token the target gives no mass
    result = chisquare(observed[support], DRAWS * p[support])
    assert result.pvalue > 0.001


@pytest.mark.parametrize("name", PAIRS)
def test_acceptance_rate_is_sum_of_minimum(name):
    p, q = (np.array(v) for v in PAIRS[name])
    _, accepted = sample_first_tokens(p, q, DRAWS, seed=11)
    alpha = float(acceptance_rate(p, q))
    stderr = np.sqrt(max(alpha * (1 - alpha), 1e-12) / DRAWS)
    assert abs(accepted.mean() - alpha) <= 3 * stderr + 1e-12


def test_sampler_is_not_just_the_draft():
    # A broken sampler that returned the draft's tokens would fail the chi-square test above; check
    # the test itself can fail by feeding it the draft's own histogram.
    p, q = (np.array(v) for v in PAIRS["close"])
    rng = np.random.default_rng(0)
    observed = np.bincount(rng.choice(4, size=DRAWS, p=q), minlength=4)
    assert chisquare(observed, DRAWS * p).pvalue < 1e-6


def test_one_iteration_truncates_at_first_rejection():
    rng = np.random.default_rng(5)
    p = np.array([[0.0, 1.0]] * 4)  # the target always wants token 1
    q = np.array([[0.5, 0.5]] * 3)
    for _ in range(50):
        it = speculative_iteration(p, q, rng)
        assert len(it.tokens) == it.num_accepted + 1
        assert it.drafted[: it.num_accepted] == [1] * it.num_accepted
        if it.num_accepted < 3:
            assert it.drafted[it.num_accepted] == 0
        assert it.tokens[-1] == 1


def test_accepted_count_sample_follows_the_distribution_and_extends_with_gamma():
    from specmodel.acceptance import per_position_acceptance
    from specmodel.sampler import sample_accepted_counts

    p4 = per_position_acceptance(4, 0.75, "falling", 4)
    counts = np.bincount(sample_accepted_counts(p4, 100_000, seed=3, max_positions=10), minlength=5)
    expected = 100_000 * (np.concatenate([[1.0], p4]) - np.concatenate([p4, [0.0]]))
    assert chisquare(counts, expected).pvalue > 0.001
    short = sample_accepted_counts(p4, 50, seed=9, max_positions=10)
    long = sample_accepted_counts(per_position_acceptance(10, 0.75, "falling", 10), 50, seed=9, max_positions=10)
    assert all(k10 >= k4 and (k4 == 4 or k10 == k4) for k4, k10 in zip(short, long))
