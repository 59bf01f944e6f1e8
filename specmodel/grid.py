"""Vectorised evaluation of many states at once.

The closed-batch dynamic program depends only on (γ, α, acceptance shape), so it runs once per
such triple and its result is broadcast over batch, context and drafter. Every readout comes
back as an array of shape (batch, context, drafter, triple) — see ``GridResult``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .acceptance import accepted_count_distribution, mean_acceptance_length, per_position_acceptance
from .architecture import Architecture
from .drafters import Drafter
from .hardware import GPU
from .roofline import forward_pass
from .workloads import CLOSED_BATCH, STEADY_STATE, batch_running_probability, closed_batch_schedule


@dataclass(frozen=True)
class Triples:
    """The acceptance settings of S states: γ (int), α in (0, 1], falling (bool), each shape (S,)."""

    gamma: np.ndarray
    alpha: np.ndarray
    falling: np.ndarray

    @property
    def max_gamma(self) -> int:
        return int(self.gamma.max())


@dataclass
class GridResult:
    """Readouts over a grid.

    ``per_workload[w][key]`` has shape (batch, context, drafter, triple) for the keys
    speedup, spec_tokens_per_s, draft_time_share, arithmetic_ratio, and
    (batch, context, 1, 1) for plain_tokens_per_s. ``acceptance[key]`` has shape (triple,)
    (mean_acceptance_length) or (triple, max_gamma) (per_position_acceptance, zero-padded).
    ``verify`` holds the verify pass at full batch, context P + G/2, shape
    (batch, context, 1, triple); ``draft`` the γ draft passes of that iteration, shape
    (batch, context, drafter, triple); ``plain_pass`` one plain decode pass, (batch, context, 1, 1);
    ``memory_required_bytes`` (batch, context, drafter, 1).
    """

    per_workload: dict
    acceptance: dict
    verify: dict
    draft: dict
    plain_pass: dict
    memory_required_bytes: np.ndarray


def _draft_passes(drafter: Drafter, gpu: GPU, num_seqs, context_sum, gamma, max_gamma: int):
    """Σ over the γ draft passes j = 0 … γ−1 of pass(draft, n, C + j·n, 1).

    Returns (time_s, flops, memory_time_s, compute_time_s), broadcast shape of the inputs; all
    zero for n-gram lookup, which has no draft pass.
    """
    shape = np.broadcast_shapes(np.shape(num_seqs), np.shape(context_sum), np.shape(gamma))
    totals = [np.zeros(shape) for _ in range(4)]
    if drafter.is_ngram:
        return tuple(totals)
    for j in range(max_gamma):
        cost = forward_pass(drafter.architecture, gpu, num_seqs, context_sum + j * num_seqs, 1)
        used = j < gamma
        for total, part in zip(totals, (cost.time_s, cost.flops, cost.memory_time_s, cost.compute_time_s)):
            total += np.where(used, part, 0.0)
    return tuple(totals)


def evaluate_grid(
    batch,
    context,
    drafters: list[Drafter],
    triples: Triples,
    target: Architecture,
    gpu: GPU,
    output_tokens: int,
) -> GridResult:
    """Every readout for every combination of batch × context × drafter × triple.

    batch, context: 1-D integer arrays (sequences, tokens). Formulas: docs "The model"
    (one pass, one speculative iteration, workloads, readouts).
    """
    g_out = int(output_tokens)
    b = np.asarray(batch, dtype=float)[:, None, None, None]
    p = np.asarray(context, dtype=float)[None, :, None, None]
    gamma = triples.gamma[None, None, None, :]
    max_gamma = triples.max_gamma
    el = mean_acceptance_length(triples.gamma, triples.alpha, triples.falling, max_gamma)
    acceptance = {
        "mean_acceptance_length": el,
        "per_position_acceptance": per_position_acceptance(triples.gamma, triples.alpha, triples.falling, max_gamma),
    }
    el4 = el[None, None, None, :]

    # --- plain decoding: G passes at growing context
    i = np.arange(g_out, dtype=float)
    plain_run = forward_pass(target, gpu, b[..., 0:1], b[..., 0:1] * (p[..., 0:1] + i), 1)  # (B, P, 1, G)
    plain_time = plain_run.time_s.sum(axis=-1, keepdims=True)
    plain_flops = plain_run.flops.sum(axis=-1, keepdims=True)

    # --- steady state (and the verify readouts): full batch at context P + G/2
    mid_context = b * (p + g_out / 2)
    verify = forward_pass(target, gpu, b, mid_context, gamma + 1)
    plain_pass = forward_pass(target, gpu, b, mid_context, 1)
    steady = {}
    draft_full = {k: [] for k in ("time_s", "flops", "memory_time_s", "compute_time_s")}
    for d in drafters:
        parts = _draft_passes(d, gpu, b, mid_context, gamma, max_gamma)
        for key, part in zip(draft_full, parts):
            draft_full[key].append(np.broadcast_to(part, verify.time_s.shape))
    draft_full = {k: np.concatenate(v, axis=2) for k, v in draft_full.items()}
    iter_time = verify.time_s + draft_full["time_s"]
    iter_flops = verify.flops + draft_full["flops"]
    steady["speedup"] = el4 * plain_pass.time_s / iter_time
    steady["spec_tokens_per_s"] = b * el4 / iter_time
    steady["plain_tokens_per_s"] = b / plain_pass.time_s
    steady["draft_time_share"] = draft_full["time_s"] / iter_time
    steady["arithmetic_ratio"] = iter_flops / (el4 * plain_pass.flops)

    # --- closed batch: the DP per triple, broadcast over batch × context × drafter
    probs = accepted_count_distribution(triples.gamma, triples.alpha, triples.falling, max_gamma)
    active, token_sum = closed_batch_schedule(probs, g_out)  # (S, T)
    q = active[None, None, :, :]
    running = batch_running_probability(q, b[..., None])  # (B, 1, S, T)
    safe = np.where(running > 0, running, 1.0)
    n_t = np.where(running > 0, b[..., None] * q / safe, 0.0)
    c_t = np.where(running > 0, b[..., None] * (p[..., None] * q + token_sum[None, None]) / safe, 0.0)
    gamma_t = gamma[..., None]
    v = forward_pass(target, gpu, n_t, c_t, gamma_t + 1)
    weight = running
    spec_time = [(weight * v.time_s).sum(axis=-1)]
    spec_flops = [(weight * v.flops).sum(axis=-1)]
    verify_time = spec_time[0]
    verify_flops = spec_flops[0]
    draft_time, draft_flops = [], []
    for d in drafters:
        t_d, f_d, _, _ = _draft_passes(d, gpu, n_t, c_t, gamma_t, max_gamma)
        draft_time.append((weight * t_d).sum(axis=-1))
        draft_flops.append((weight * f_d).sum(axis=-1))
    draft_time = np.concatenate(draft_time, axis=2)
    draft_flops = np.concatenate(draft_flops, axis=2)
    spec_time = verify_time + draft_time
    spec_flops = verify_flops + draft_flops
    delivered = b * g_out
    closed = {
        "speedup": plain_time / spec_time,
        "spec_tokens_per_s": delivered / spec_time,
        "plain_tokens_per_s": delivered / plain_time,
        "draft_time_share": draft_time / spec_time,
        "arithmetic_ratio": spec_flops / plain_flops,
    }

    draft_weights = np.array([d.weight_bytes for d in drafters], dtype=float)[None, None, :, None]
    draft_kv = np.array([d.kv_bytes_per_token for d in drafters], dtype=float)[None, None, :, None]
    memory = target.weight_bytes + draft_weights + b * (p + g_out) * (target.kv_bytes_per_token + draft_kv)

    return GridResult(
        per_workload={CLOSED_BATCH: closed, STEADY_STATE: steady},
        acceptance=acceptance,
        verify={
            "verify_bytes": verify.bytes,
            "verify_flops": verify.flops,
            "verify_memory_time_s": verify.memory_time_s,
            "verify_compute_time_s": verify.compute_time_s,
            "tensor_core_idle_fraction": verify.tensor_core_idle_fraction,
            "verify_arithmetic_intensity": verify.arithmetic_intensity,
            "verify_time_s": verify.time_s,
        },
        draft=draft_full,
        plain_pass={
            "memory_time_s": plain_pass.memory_time_s,
            "compute_time_s": plain_pass.compute_time_s,
            "time_s": plain_pass.time_s,
        },
        memory_required_bytes=memory,
    )
