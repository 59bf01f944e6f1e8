"""One forward pass on the roofline: bytes moved, FLOPs, and the time the slower of the two takes.

Every function broadcasts over NumPy arrays: pass arrays of any mutually broadcastable shape.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .architecture import Architecture
from .hardware import GPU


@dataclass(frozen=True)
class PassCost:
    """Cost of one forward pass; every field has the broadcast shape of the inputs.

    bytes: weights read once (if any sequence is in the pass) + the KV cache read once (B).
    flops: FLOP count. memory_time_s, compute_time_s: bytes / achieved bandwidth and
    flops / achieved FLOP rate (s). time_s: their maximum, the roofline time (s).
    """

    bytes: np.ndarray
    flops: np.ndarray
    memory_time_s: np.ndarray
    compute_time_s: np.ndarray
    time_s: np.ndarray

    @property
    def arithmetic_intensity(self) -> np.ndarray:
        """FLOPs per byte moved."""
        return self.flops / self.bytes

    @property
    def tensor_core_idle_fraction(self) -> np.ndarray:
        """1 − compute time / pass time: the share of the pass the tensor cores wait on memory."""
        return 1.0 - self.compute_time_s / self.time_s


def forward_pass(model: Architecture, gpu: GPU, num_seqs, context_sum, num_positions) -> PassCost:
    """Roofline cost of one pass of ``model`` on ``gpu``.

    num_seqs: sequences in the pass (n, may be fractional: an expectation). context_sum: the sum
    of their cached context lengths (C, tokens). num_positions: new positions scored per sequence
    (n_pos; 1 for decoding, γ+1 for a verify pass).

        bytes  = weight_bytes·[n > 0] + kv_bytes_per_token·C
        flops  = n_pos · (n·2·params + 4·L·n_q·d·C)
        time_s = max(bytes / (η_mem·BW), flops / (η_flop·FLOP/s))

    The weights and the cache are read once whatever n_pos is (one cache read serves every query
    position); every weight costs 2 FLOPs per position, attention 4·L·n_q·d per cached token per
    position (QKᵀ and PV). Source: docs "The model"; Kaplan et al. 2020 for 2 FLOPs/parameter.
    """
    n = np.asarray(num_seqs, dtype=float)
    c = np.asarray(context_sum, dtype=float)
    n_pos = np.asarray(num_positions, dtype=float)
    nbytes = model.weight_bytes * (n > 0) + model.kv_bytes_per_token * c
    flops = n_pos * (n * (2.0 * model.params) + model.attention_flops_per_cached_token * c)
    memory_time_s = nbytes / gpu.achieved_bytes_per_s
    compute_time_s = flops / gpu.achieved_flops_per_s
    return PassCost(nbytes, flops, memory_time_s, compute_time_s, np.maximum(memory_time_s, compute_time_s))
