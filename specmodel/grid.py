"""Vectorised evaluation of many states at once, under any cost model.

The closed-batch dynamic program depends only on the acceptance settings (γ, α, shape), so it
runs once per such triple; its steps are then laid end to end (a ragged axis: a triple's steps
stop where the probability that a sequence is still running falls below the floor) and priced
for every batch × context at once. Every pass's time is the max of two affine functions of its
cached context (``costs.base``), so the γ draft passes of each step and the G steps of plain
decoding are summed in closed form, not in loops. Every readout comes back with shape
(batch, context, drafter, triple) — see ``GridResult``.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .acceptance import accepted_count_distribution, mean_acceptance_length, per_position_acceptance
from .architecture import Architecture
from .costs import Affine, CostModel, PassCost
from .drafters import Drafter
from .hardware import GPU
from .workloads import CLOSED_BATCH, STEADY_STATE, batch_running_probability, closed_batch_schedule


@dataclass(frozen=True)
class Triples:
    """The acceptance settings of S states: γ (int), α in (0, 1], the acceptance shape (its index
    in ``acceptance.ACCEPTANCE_SHAPES``), each of shape (S,)."""

    gamma: np.ndarray
    alpha: np.ndarray
    shape: np.ndarray

    @property
    def max_gamma(self) -> int:
        return int(self.gamma.max())

    @property
    def key(self) -> tuple:
        """The settings as bytes, for caching what depends only on them."""
        return (np.asarray(self.gamma, dtype=np.int64).tobytes(), np.asarray(self.alpha, dtype=np.float64).tobytes(),
                np.asarray(self.shape, dtype=np.int64).tobytes())


@dataclass
class GridResult:
    """Readouts over a grid.

    ``per_workload[w][key]`` has shape (batch, context, drafter, triple) for the keys speedup,
    spec_tokens_per_s, draft_time_share, arithmetic_ratio, and (batch, context, 1, 1) for
    plain_tokens_per_s. ``acceptance[key]`` has shape (triple,) (mean_acceptance_length) or
    (triple, max_gamma) (per_position_acceptance, zero-padded). ``verify`` holds one verify pass
    at full batch, context P + G/2, shape (batch, context, 1, triple); ``draft`` the draft phase
    of that iteration, (batch, context, drafter, triple); ``plain_pass`` one plain decoding pass
    there, (batch, context, 1, 1); ``step_overhead_s`` the engine's cost per speculative iteration
    at full batch, (batch, 1, 1, triple); ``path_extra_s`` what each drafter's path adds per iteration beyond its
    draft phase at full batch, (batch, 1, drafter, 1); ``memory_required_bytes`` (batch, context, drafter, 1).
    """

    per_workload: dict
    acceptance: dict
    verify: dict
    draft: dict
    plain_pass: dict
    step_overhead_s: np.ndarray
    path_extra_s: np.ndarray
    memory_required_bytes: np.ndarray


@dataclass(frozen=True)
class _Steps:
    """The closed-batch DP's steps of every triple, end to end on one axis of length K.

    active, tokens: q_t and Σ_s s·f_t(s) per step (K,); triple: the triple of each step (K,);
    starts: where each triple's steps begin (S,), for np.add.reduceat.
    """

    active: np.ndarray
    tokens: np.ndarray
    triple: np.ndarray
    starts: np.ndarray

    def chunks(self, max_steps: int) -> list["_Steps"]:
        """The steps cut between triples into runs of at most ``max_steps`` steps (a triple longer
        than that is a run of its own), in order. Small runs keep a batch's arrays in the CPU's
        cache; each run's sums are its own triples'."""
        bounds = [0]
        ends = np.append(self.starts[1:], self.active.size)
        for i in range(1, self.starts.size):
            if ends[i] - self.starts[bounds[-1]] > max_steps:
                bounds.append(i)
        bounds.append(self.starts.size)
        runs = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            first, last = self.starts[lo], ends[hi - 1]
            runs.append(_Steps(self.active[first:last], self.tokens[first:last], self.triple[first:last],
                               self.starts[lo:hi] - first))
        return runs


# Steps per run of the closed-batch sums: a batch's (context × steps) arrays then stay within a
# 2-core machine's L2 cache (measured: about 1.6× faster per step than one run of 100,000 steps).
_STEPS_PER_RUN = 8192


@functools.lru_cache(maxsize=4)
def _cached_steps(key: tuple, output_tokens: int) -> _Steps:
    gamma, alpha, shape = (np.frombuffer(b, dtype=t) for b, t in zip(key, (np.int64, np.float64, np.int64)))
    return _steps(Triples(gamma, alpha, shape), output_tokens)


def _steps(triples: Triples, output_tokens: int) -> _Steps:
    """The DP's steps of every triple (cached: every cost model of a grid shares them)."""
    probs = accepted_count_distribution(triples.gamma, triples.alpha, triples.shape, triples.max_gamma)
    active, token_sum = closed_batch_schedule(probs, output_tokens)
    running = active > 0  # a prefix of each row: the DP stops once a sequence is surely done
    lengths = running.sum(axis=1)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    return _Steps(active[running], token_sum[running], np.repeat(np.arange(lengths.size), lengths), starts)


def _per_triple(weighted: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sum each triple's steps (the last axis) → one value per triple."""
    return np.add.reduceat(weighted, starts, axis=-1)


def _closed_batch(steps: _Steps, batch: float, context, triples: Triples, drafters, target, gpu, cost):
    """One batch size's closed-batch sums over the DP steps: verify time and FLOPs (P, S), step
    overhead (1, S), draft-phase time and FLOPs and path extras (P, D, S) (1, D, S)."""
    q = steps.active[None, :]  # (1, K)
    running = batch_running_probability(q, batch)  # r_t
    n_t = batch * q / running  # active sequences given the batch runs
    gamma_t = triples.gamma[steps.triple][None, :]
    context_offset = batch * steps.tokens[None, :] / running  # their context: n_t·P + this
    c_t = n_t * context + context_offset  # (P, K)

    def summed_flops(flops: Affine) -> np.ndarray:
        # FLOPs are affine in the context, so Σ_t r_t·f(c_t) needs two sums over steps, not one per context
        at_no_context = _per_triple(running * flops.at(context_offset), steps.starts)
        per_context_token = _per_triple(running * (flops.v1 * n_t), steps.starts)
        return at_no_context + per_context_token * context

    v = cost.forward_pass(target, gpu, n_t, c_t, gamma_t + 1)
    verify_time = _per_triple(running * v.time_s, steps.starts)
    verify_flops = summed_flops(v.flops_in_context())
    step_time = _per_triple(running * cost.step_overhead_s(n_t, gamma_t + 1), steps.starts)
    draft_time, draft_flops, extra_time = [], [], []
    for d in drafters:
        phase = d.draft_phase(cost, gpu, n_t, c_t, gamma_t)
        draft_time.append(_per_triple(running * phase.time_s, steps.starts))
        draft_flops.append(summed_flops(phase.flops_in_context()))
        extra_time.append(_per_triple(running * d.iteration_extra_s(cost, n_t), steps.starts))
    stack = lambda parts: np.stack(np.broadcast_arrays(*parts), axis=-2)  # noqa: E731
    return verify_time, verify_flops, step_time, stack(draft_time), stack(draft_flops), stack(extra_time)


def evaluate_grid(
    batch,
    context,
    drafters: list[Drafter],
    triples: Triples,
    target: Architecture,
    gpu: GPU,
    output_tokens: int,
    cost: CostModel,
) -> GridResult:
    """Every readout for every combination of batch × context × drafter × triple under ``cost``.

    batch, context: 1-D integer arrays (sequences, tokens). Formulas: docs "The model" (one
    pass, one speculative iteration, workloads, readouts); the pass prices: ``costs``.
    """
    g_out = int(output_tokens)
    b = np.asarray(batch, dtype=float)[:, None, None, None]
    p = np.asarray(context, dtype=float)[None, :, None, None]
    gamma = triples.gamma[None, None, None, :]
    max_gamma = triples.max_gamma
    el = mean_acceptance_length(triples.gamma, triples.alpha, triples.shape, max_gamma)
    acceptance = {
        "mean_acceptance_length": el,
        "per_position_acceptance": per_position_acceptance(triples.gamma, triples.alpha, triples.shape, max_gamma),
    }
    el4 = el[None, None, None, :]

    # --- plain decoding: G passes at contexts B·(P + i), i = 0 … G−1
    b3, p3 = b[..., 0], p[..., 0]  # (B, 1, 1), (1, P, 1)
    plain_run = cost.repeated_passes(target, gpu, b3, b3 * p3, b3, g_out)
    plain_overhead = cost.step_overhead_s(b3)
    plain_time = (plain_run.time_s + g_out * plain_overhead)[..., None]  # (B, P, 1, 1)
    plain_flops = plain_run.flops[..., None]

    # --- one iteration with the full batch at context P + G/2: the steady state and the readouts
    mid_context = b * (p + g_out / 2)
    overhead = cost.step_overhead_s(b, gamma + 1)  # (B, 1, 1, S)
    plain_step_overhead = cost.step_overhead_s(b)
    verify = cost.forward_pass(target, gpu, b, mid_context, gamma + 1)  # (B, P, 1, S)
    plain_pass = cost.forward_pass(target, gpu, b, mid_context, 1)  # (B, P, 1, 1)
    draft_full = [d.draft_phase(cost, gpu, b, mid_context, gamma) for d in drafters]
    draft = {k: np.concatenate([np.broadcast_to(getattr(x, k), verify.time_s.shape) for x in draft_full], axis=2)
             for k in ("time_s", "flops", "memory_time_s", "compute_time_s")}
    path_extra = np.concatenate([np.broadcast_to(d.iteration_extra_s(cost, b), b.shape) for d in drafters], axis=2)
    iter_time = verify.time_s + draft["time_s"] + path_extra + overhead
    iter_flops = verify.flops + draft["flops"]
    steady = {
        "speedup": el4 * (plain_pass.time_s + plain_step_overhead) / iter_time,
        "spec_tokens_per_s": b * el4 / iter_time,
        "plain_tokens_per_s": b / (plain_pass.time_s + plain_step_overhead),
        "draft_time_share": draft["time_s"] / iter_time,
        "arithmetic_ratio": iter_flops / (el4 * plain_pass.flops),
    }

    # --- closed batch: each triple's DP steps, priced for every context at once, one batch and
    # one run of triples at a time (arrays of contexts × steps stay small enough to stay in cache)
    runs = _cached_steps(triples.key, g_out).chunks(_STEPS_PER_RUN)
    per_batch = [[np.concatenate(parts, axis=-1) for parts in zip(*(
        _closed_batch(run, float(bv), p3[0], triples, drafters, target, gpu, cost) for run in runs))]
        for bv in b.ravel()]
    verify_time, verify_flops, step_time, draft_time, draft_flops, extra_time = (
        np.stack(parts) for parts in zip(*per_batch))  # (B, P, S), (B, P, S), (B, 1, S), (B, P, D, S) × 3
    spec_time = verify_time[:, :, None, :] + draft_time + extra_time + step_time[:, :, None, :]
    spec_flops = verify_flops[:, :, None, :] + draft_flops
    delivered = b * g_out
    closed = {
        "speedup": plain_time / spec_time,
        "spec_tokens_per_s": delivered / spec_time,
        "plain_tokens_per_s": delivered / plain_time,
        "draft_time_share": draft_time / spec_time,
        "arithmetic_ratio": spec_flops / plain_flops,
    }

    verify_shape = (b.size, p.size, 1, triples.gamma.size)
    draft_weights = np.array([d.weight_bytes for d in drafters], dtype=float)[None, None, :, None]
    draft_kv = np.array([d.kv_bytes_per_token for d in drafters], dtype=float)[None, None, :, None]
    memory = target.weight_bytes + draft_weights + b * (p + g_out) * (target.kv_bytes_per_token + draft_kv)

    return GridResult(
        per_workload={CLOSED_BATCH: closed, STEADY_STATE: steady},
        acceptance=acceptance,
        verify={k: np.broadcast_to(v, verify_shape) for k, v in {
            "verify_bytes": verify.bytes,
            "verify_flops": verify.flops,
            "verify_memory_time_s": verify.memory_time_s,
            "verify_compute_time_s": verify.compute_time_s,
            "tensor_core_idle_fraction": verify.tensor_core_idle_fraction,
            "verify_arithmetic_intensity": verify.arithmetic_intensity,
            "verify_time_s": verify.time_s,
        }.items()},
        draft=draft,
        plain_pass={"memory_time_s": plain_pass.memory_time_s, "compute_time_s": plain_pass.compute_time_s,
                    "time_s": plain_pass.time_s, "flops": plain_pass.flops},
        step_overhead_s=overhead,
        path_extra_s=path_extra,
        memory_required_bytes=memory,
    )


__all__ = ["Triples", "GridResult", "evaluate_grid", "PassCost"]
