"""The ideal whole-pass roofline: the model the essay derives (docs "The model", "One forward pass").

    bytes  = weight_bytes·[n > 0] + kv_bytes_per_token·C
    flops  = n_pos · (n·2·params + 4·L·n_q·d·C)
    time_s = max(bytes / (η_mem·BW), flops / (η_flop·FLOP/s)) + all-reduces (tensor parallel)

A mixture of experts reads only the experts its tokens touch (``expected_experts_touched``) and
multiplies by its active parameters; with tensor parallelism the group's bandwidth and FLOP rate
are the sum of its GPUs' (``GPU.group``) and the all-reduces' bytes go over the interconnect
(``base.allreduce_time_s``), not overlapped.

One max over the whole pass: memory traffic and arithmetic are assumed to overlap perfectly,
and nothing costs time but bytes and FLOPs. With the GPU's fitted η_mem = 0.80 and
η_flop = 0.75 it reproduces every number of the seed essay (``specmodel claims``).
Sources: Kaplan et al. 2020 (2 FLOPs per parameter per token); Williams, Waterman & Patterson
2009 (the roofline).
"""
from __future__ import annotations

import numpy as np

from ..architecture import Architecture
from ..hardware import GPU
from .base import (
    ALLREDUCE, WHOLE_PASS_AT_BANDWIDTH, WHOLE_PASS_AT_FLOP_RATE, Affine, CostModel, PassPrice, allreduce_time_s,
)
from .names import WHOLE_PASS


class WholePass(CostModel):
    name = WHOLE_PASS
    label = "the ideal roofline of the derivation"

    def price(self, model: Architecture, gpu: GPU, num_seqs, num_positions) -> PassPrice:
        n = np.asarray(num_seqs, dtype=float)
        n_pos = np.asarray(num_positions, dtype=float)
        bw, rate = gpu.achieved_bytes_per_s, gpu.achieved_flops_per_s
        weights = model.weight_bytes * (n > 0)
        if model.is_moe:  # the experts the batch's tokens do not touch are not read
            untouched = model.num_experts - model.expected_experts_touched(n * n_pos)
            weights = weights - model.num_hidden_layers * untouched * model.experts_bytes_per_layer * (n > 0)
        kv = model.kv_bytes_per_token + 0 * n
        flops = Affine(n_pos * n * 2.0 * model.active_params, n_pos * model.attention_flops_per_cached_token)
        nbytes = Affine(weights, kv)
        memory = Affine(weights / bw, kv / bw)
        compute = Affine(flops.v0 / rate, flops.v1 / rate)
        comm = allreduce_time_s(model, gpu, n, n_pos)
        return PassPrice(Affine(memory.v0 + comm, memory.v1), Affine(compute.v0 + comm, compute.v1),
                         flops, nbytes, memory, compute)

    def breakdown(self, model: Architecture, gpu: GPU, num_seqs, context_sum, num_positions) -> dict:
        """The whole pass in one part: WHOLE_PASS_AT_BANDWIDTH when memory bounds it, else
        WHOLE_PASS_AT_FLOP_RATE (the other side is hidden under it)."""
        p = self.forward_pass(model, gpu, num_seqs, context_sum, num_positions)
        memory_bound = p.memory_time_s >= p.compute_time_s
        comm = allreduce_time_s(model, gpu, num_seqs, num_positions) + 0 * p.time_s
        return {WHOLE_PASS_AT_BANDWIDTH: np.where(memory_bound, p.time_s - comm, 0.0),
                WHOLE_PASS_AT_FLOP_RATE: np.where(memory_bound, 0.0, p.time_s - comm),
                ALLREDUCE: comm}
