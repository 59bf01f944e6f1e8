"""The pass priced kernel by kernel: each kernel at its own roofline, the kernels one after another.

A decoder pass is a sequence of kernels, and a GPU runs them one at a time: the attention
kernel's wait on the KV cache cannot hide the MLP's arithmetic, as the whole-pass max assumes.
Per layer (L of them), each at max(bytes / bandwidth, FLOPs / FLOP rate):

- the projections: q, k, v fused (h → (n_q + 2·n_kv)·d) and o (n_q·d → h); the MLP: gate and
  up fused (h → 2I) and down (I → h). A GEMM over T = n·n_pos tokens reads its weights once
  (2·in·out bytes) and does 2·T·in·out FLOPs;
- attention over the KV cache: 2·n_kv·d·2 bytes per cached token per layer, 4·n_q·d FLOPs per
  cached token per scored position (QKᵀ and PV).

Once per pass: the output head (a GEMM, h → V) and the input embedding, which is a row gather
(T rows of 2·h bytes read from the table), not a matmul: an untied model's embedding table is not
streamed. Activations are not charged: a decoding pass's are a few megabytes per layer (T·h·2
bytes is 2 MB at 256 tokens), and they stay in the GPU's L2 cache (50 MB on an H100) from one
kernel to the next, so the norms, RoPE and SiLU-and-mul cost time for their launches (the
calibrated model's launch floor), not for bandwidth. Source of the kernel layout: vLLM's
Qwen3/Llama model code (fused QKV and gate-up).

``PerKernel`` uses the ideal model's constants (the GPU's η_mem and η_flop, every FLOP useful)
and adds no fixed costs: it isolates what per-kernel pricing changes. The calibrated model
(``calibrated.py``) prices the same kernels at fitted rates and adds what engines add.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..architecture import BF16_BYTES, Architecture
from ..hardware import GPU
from .base import (
    ALLREDUCE, ATTENTION, WEIGHTS_AT_BANDWIDTH, WEIGHTS_AT_FLOP_RATE, Affine, CostModel, PassPrice, allreduce_time_s,
)
from .names import PER_KERNEL


@dataclass(frozen=True)
class KernelRates:
    """The rates kernels run at.

    weight_bytes_per_s: weights and activations streamed (B/s). kv_bytes_per_s: the KV cache
    read by attention (B/s). flops_per_s: the achieved FLOP rate of GEMMs and attention (FLOP/s;
    attention's arithmetic never binds in decoding: 4·n_pos FLOPs per byte of cache it reads).
    """

    weight_bytes_per_s: float
    kv_bytes_per_s: float
    flops_per_s: float
    allreduce_s: object = 0.0  # the pass's all-reduces (s; an array over n, n_pos), tensor parallel


class KernelPrice:
    """A pass's kernels, as affine functions of the cached context C.

    gpu_time_s: the kernels' times summed (s). parts_s: that time by part (``base.PASS_PARTS``:
    weights at bandwidth, weights at the FLOP rate, attention), {part: (v0, v1)} with
    time = v0 + v1·C; flops, bytes, memory_time_s, compute_time_s as in PassPrice. The last three
    are summed when first read, from ``weight_terms``: (count, bytes, FLOPs or None) per weight
    kernel, in the order they were priced.
    """

    def __init__(self, gpu_time_s: Affine, parts_s: dict, flops: Affine, weight_terms: list, rates: KernelRates,
                 kv_bytes: np.ndarray, attention_flops: np.ndarray, zero: np.ndarray):
        self.gpu_time_s, self.parts_s, self.flops = gpu_time_s, parts_s, flops
        self._terms, self._rates, self._kv, self._attention_flops, self._zero = (
            weight_terms, rates, kv_bytes, attention_flops, zero)

    @functools.cached_property
    def _sums(self) -> tuple:
        bw, rate = self._rates.weight_bytes_per_s, self._rates.flops_per_s
        bytes_ = memory = compute = 0.0
        for count, moved, work in self._terms:
            bytes_, memory = bytes_ + count * moved, memory + count * moved / bw
            if work is not None:
                compute = compute + count * work / rate
        return bytes_, memory, compute

    @functools.cached_property
    def bytes(self) -> Affine:
        return Affine(self._sums[0] + self._zero, self._kv + self._zero)

    @functools.cached_property
    def memory_time_s(self) -> Affine:
        return Affine(self._sums[1] + self._zero, self._kv / self._rates.kv_bytes_per_s + self._zero)

    @functools.cached_property
    def compute_time_s(self) -> Affine:
        return Affine(self._sums[2] + self._zero, self._attention_flops / self._rates.flops_per_s + self._zero)

    def details(self) -> tuple:
        """(bytes, memory_time_s, compute_time_s): PassPrice's ``details``."""
        return self.bytes, self.memory_time_s, self.compute_time_s


def kernel_price(model: Architecture, rates: KernelRates, num_seqs, num_positions) -> KernelPrice:
    """Every kernel of one pass of ``model`` at ``rates`` (broadcasts over n and n_pos)."""
    n = np.asarray(num_seqs, dtype=float)
    n_pos = np.asarray(num_positions, dtype=float)
    tokens = n * n_pos
    present = (n > 0).astype(float)  # no sequence, no pass: nothing read
    b = float(BF16_BYTES)
    layers = model.num_hidden_layers
    bw, kv_bw = rates.weight_bytes_per_s, rates.kv_bytes_per_s
    rate = rates.flops_per_s

    flops = 0.0
    terms = []  # (count, bytes, FLOPs) per weight kernel
    parts: dict[str, np.ndarray] = {WEIGHTS_AT_BANDWIDTH: 0.0, WEIGHTS_AT_FLOP_RATE: 0.0}
    present_bytes, two_tokens = present * b, 2.0 * tokens

    def gemm(in_f: int, out_f: int, count: int):
        nonlocal flops
        moved = present_bytes * in_f * out_f
        work = two_tokens * in_f * out_f
        # each GEMM is bound by one side: its time goes to that part
        at_bandwidth, at_flop_rate = moved / bw, work / rate
        memory_bound = at_bandwidth >= at_flop_rate
        parts[WEIGHTS_AT_BANDWIDTH] = parts[WEIGHTS_AT_BANDWIDTH] + count * np.where(memory_bound, at_bandwidth, 0.0)
        parts[WEIGHTS_AT_FLOP_RATE] = parts[WEIGHTS_AT_FLOP_RATE] + count * np.where(memory_bound, 0.0, at_flop_rate)
        flops = flops + count * work
        terms.append((count, moved, work))

    for _, in_f, out_f in model.layer_gemms:
        gemm(in_f, out_f, layers)
    for _, in_f, out_f in model.pass_gemms:
        gemm(in_f, out_f, 1)
    if model.is_moe:
        # Each layer's experts as one grouped GEMM: the distinct experts the T tokens touch are
        # read once each; every token multiplies through k of them.
        touched = model.expected_experts_touched(tokens)
        moved = present * touched * model.experts_bytes_per_layer
        work = 2.0 * tokens * model.num_experts_per_tok * model.experts_bytes_per_layer / b
        memory_bound = moved / bw >= work / rate
        parts[WEIGHTS_AT_BANDWIDTH] = parts[WEIGHTS_AT_BANDWIDTH] + layers * np.where(memory_bound, moved / bw, 0.0)
        parts[WEIGHTS_AT_FLOP_RATE] = parts[WEIGHTS_AT_FLOP_RATE] + layers * np.where(memory_bound, 0.0, work / rate)
        flops = flops + layers * work
        terms.append((layers, moved, work))
    # the embedding gather: T rows of the table, at bandwidth
    moved = b * tokens * model.hidden_size
    parts[WEIGHTS_AT_BANDWIDTH] = parts[WEIGHTS_AT_BANDWIDTH] + moved / bw
    terms.append((1, moved, None))

    # attention: proportional to the cached context
    kv_per_token = layers * model.kv_bytes_per_token_per_layer
    attention_flops = model.attention_flops_per_cached_token * n_pos
    attention = np.maximum(kv_per_token / kv_bw, attention_flops / rate) + 0 * n

    zero = np.zeros(np.broadcast_shapes(n.shape, n_pos.shape))
    parts[ALLREDUCE] = rates.allreduce_s + zero
    gpu0 = sum(parts.values()) + zero
    parts_affine = {k: (v + zero, zero) for k, v in parts.items()}
    parts_affine[ATTENTION] = (zero, attention)
    return KernelPrice(Affine(gpu0, attention), parts_affine, Affine(flops + zero, attention_flops + zero),
                       terms, rates, kv_per_token, attention_flops, zero)


class PerKernel(CostModel):
    """Kernel-by-kernel roofline at the ideal model's constants; no fixed costs."""

    name = PER_KERNEL
    label = "the roofline kernel by kernel, ideal constants"

    @staticmethod
    def rates(gpu: GPU, model: Architecture | None = None, num_seqs=0, num_positions=1) -> KernelRates:
        comm = 0.0 if model is None else allreduce_time_s(model, gpu, num_seqs, num_positions)
        return KernelRates(gpu.achieved_bytes_per_s, gpu.achieved_bytes_per_s, gpu.achieved_flops_per_s, comm)

    def price(self, model: Architecture, gpu: GPU, num_seqs, num_positions) -> PassPrice:
        k = kernel_price(model, self.rates(gpu, model, num_seqs, num_positions), num_seqs, num_positions)
        none = Affine(np.zeros_like(k.gpu_time_s.v0), np.zeros_like(k.gpu_time_s.v1))
        return PassPrice(k.gpu_time_s, none, k.flops, details=k.details)

    def breakdown(self, model: Architecture, gpu: GPU, num_seqs, context_sum, num_positions) -> dict:
        k = kernel_price(model, self.rates(gpu, model, num_seqs, num_positions), num_seqs, num_positions)
        c = np.asarray(context_sum, dtype=float)
        return {part: v0 + v1 * c for part, (v0, v1) in k.parts_s.items()}
