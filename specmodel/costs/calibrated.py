"""The calibrated cost model: the kernels at rates a real engine reaches, plus what engines add.

On top of per-kernel pricing (``per_kernel.py``) it has, each constant an engine's (``Engine``,
catalog section ``engines``, every constant with its source):

- separate achieved bandwidths for weights and for the KV cache, and an achieved FLOP rate;
- a launch floor: a pass takes at least ``layer_launch_s`` per layer plus ``pass_launch_s``,
  however few bytes it reads. Its size is fitted; its cause is not measured (the least time each
  of a layer's small kernels takes, gaps between kernels that CUDA graphs do not remove, the
  draft-model path's work around its passes). A large model's pass is longer than its floor,
  which hides behind it; a small draft model's pass is not, which is why a 0.6B draft pass costs
  far more than its bytes;
- ``verify_outside_graph_layer_s``: per layer, added to a pass that scores several positions,
  for engines that leave their CUDA-graph loop to verify (launches that do not overlap);
- per engine step (a plain decoding step or one speculative iteration): ``step_overhead_s`` +
  ``step_overhead_per_token_s``·n·n_pos (scheduling, and per scored position: logits
  processing, sampling, the rejection sampler, bookkeeping);
- n-gram prompt lookup on the CPU: ``ngram_lookup_per_seq_s``·n per iteration;
- ``draft_model_iteration_per_seq_s``·n per iteration on the draft-model path, beyond its passes.

    pass time = max(Σ kernel times, L·layer_launch_s + pass_launch_s) + [n_pos > 1]·L·verify_outside_graph_layer_s
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..architecture import Architecture
from ..hardware import GPU
from .base import LAUNCH_FLOOR, Affine, CostModel, PassPrice, allreduce_time_s
from .names import CALIBRATED
from .per_kernel import KernelRates, kernel_price

# Engine constants and what each means; engines.py validates entries against this list.
ENGINE_CONSTANTS: dict[str, str] = {
    "weight_bandwidth_efficiency": "fraction of the GPU's peak HBM bandwidth at which the GEMMs stream their weights",
    "kv_bandwidth_efficiency": "fraction of the GPU's peak HBM bandwidth at which attention reads the KV cache",
    "flop_efficiency": "fraction of the GPU's peak dense bf16 FLOP/s that GEMMs and attention reach",
    "layer_launch_s": "least time one layer of a pass takes, however few bytes it reads (s)",
    "pass_launch_s": "least time a pass takes beyond its layers' (s)",
    "verify_outside_graph_layer_s": "per layer, added to a pass scoring several positions when it runs outside CUDA graphs (s)",
    "step_overhead_s": "engine time per step outside the passes (s)",
    "step_overhead_per_token_s": "engine time per step per scored position of every sequence (s)",
    "ngram_lookup_per_seq_s": "CPU time of the n-gram prompt lookup per sequence per iteration (s)",
    "draft_model_iteration_per_seq_s": "time per sequence per iteration the draft-model path adds beyond its passes (s)",
    "allreduce_latency_s": "fixed time of one all-reduce between tensor-parallel GPUs, beyond its bytes (s)",
}


@dataclass(frozen=True)
class Calibrated(CostModel):
    """The calibrated model for one engine's constants (``Engine.constants``: name → value)."""

    constants: dict
    name: str = CALIBRATED
    label: str = "calibrated to a real engine"

    def rates(self, gpu: GPU, model: Architecture | None = None, num_seqs=0, num_positions=1) -> KernelRates:
        c = self.constants
        comm = 0.0 if model is None else allreduce_time_s(model, gpu, num_seqs, num_positions,
                                                          c["allreduce_latency_s"])
        return KernelRates(
            c["weight_bandwidth_efficiency"] * gpu.peak_memory_bandwidth_bytes_per_s,
            c["kv_bandwidth_efficiency"] * gpu.peak_memory_bandwidth_bytes_per_s,
            c["flop_efficiency"] * gpu.peak_flops_per_s,
            comm,
        )

    def roof(self, gpu: GPU) -> tuple[float, float]:
        r = self.rates(gpu)
        return r.flops_per_s, r.weight_bytes_per_s

    def launch_floor_s(self, model: Architecture) -> float:
        """The shortest a pass of ``model`` can take, however few bytes it reads (s)."""
        return model.num_hidden_layers * self.constants["layer_launch_s"] + self.constants["pass_launch_s"]

    def outside_graph_s(self, model: Architecture, num_positions) -> np.ndarray:
        """Launch time a multi-position pass adds when it runs outside CUDA graphs (s)."""
        per_layer = self.constants["verify_outside_graph_layer_s"]
        return np.where(np.asarray(num_positions) > 1, model.num_hidden_layers * per_layer, 0.0)

    def price(self, model: Architecture, gpu: GPU, num_seqs, num_positions) -> PassPrice:
        k = kernel_price(model, self.rates(gpu, model, num_seqs, num_positions), num_seqs, num_positions)
        extra = self.outside_graph_s(model, num_positions)
        floor = self.launch_floor_s(model) * (np.asarray(num_seqs) > 0)
        gpu_time = Affine(k.gpu_time_s.v0 + extra, k.gpu_time_s.v1)
        launch = Affine(floor + extra + np.zeros_like(k.gpu_time_s.v0), np.zeros_like(k.gpu_time_s.v1))
        return PassPrice(gpu_time, launch, k.flops, details=k.details)

    def step_overhead_s(self, num_seqs, num_positions=1) -> np.ndarray:
        n = np.asarray(num_seqs, dtype=float)
        tokens = n * np.asarray(num_positions, dtype=float)
        return self.constants["step_overhead_s"] * (n > 0) + self.constants["step_overhead_per_token_s"] * tokens

    def ngram_lookup_s(self, num_seqs) -> np.ndarray:
        return self.constants["ngram_lookup_per_seq_s"] * np.asarray(num_seqs, dtype=float)

    def draft_model_iteration_s(self, num_seqs) -> np.ndarray:
        return self.constants["draft_model_iteration_per_seq_s"] * np.asarray(num_seqs, dtype=float)

    def breakdown(self, model: Architecture, gpu: GPU, num_seqs, context_sum, num_positions) -> dict:
        """The kernel parts, then LAUNCH_FLOOR: what the launch floor adds over the kernels, and
        the launches outside CUDA graphs. They add up to the pass time."""
        k = kernel_price(model, self.rates(gpu, model, num_seqs, num_positions), num_seqs, num_positions)
        c = np.asarray(context_sum, dtype=float)
        parts = {part: v0 + v1 * c for part, (v0, v1) in k.parts_s.items()}
        gpu_time = k.gpu_time_s.at(c)
        floor = self.launch_floor_s(model) * (np.asarray(num_seqs) > 0)
        parts[LAUNCH_FLOOR] = (np.maximum(floor - gpu_time, 0.0)
                               + self.outside_graph_s(model, num_positions) + 0 * gpu_time)
        return parts
