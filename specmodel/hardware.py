"""Accelerator specifications: peak rates, achieved fractions and memory capacity."""
from __future__ import annotations

from dataclasses import dataclass, replace

from .entries import check_fields, from_dict
from .errors import ModelInputError


@dataclass(frozen=True)
class GPU:
    """One accelerator as the roofline model sees it.

    Fields (all SI units):
      key: the CLI / URL name, e.g. ``h100-sxm``.
      label: human name.
      source: the datasheet (or other document) the peak figures come from.
      source_url: where a reader finds it (an https:// address).
      peak_memory_bandwidth_bytes_per_s: datasheet HBM bandwidth (B/s).
      peak_flops_per_s: datasheet dense bf16 tensor throughput (FLOP/s).
      memory_capacity_bytes: HBM capacity (B, decimal: 80e9 for "80 GB").
      memory_efficiency: achieved fraction of the bandwidth, η_mem, in (0, 1].
      compute_efficiency: achieved fraction of the FLOP rate, η_flop, in (0, 1].
      interconnect_bytes_per_s: what one GPU can send to the others of its tensor-parallel group,
        one direction (B/s): NVLink's per-direction bandwidth, PCIe's for a card without it.
      tensor_parallel: how many of these GPUs serve the model together (1 for an entry; ``group``
        makes the group).

    Raises ModelInputError naming ``gpu[<key>].<field>`` for a missing, mistyped or
    non-positive value, or an efficiency above 1.
    """

    key: str
    label: str
    source: str
    source_url: str
    peak_memory_bandwidth_bytes_per_s: float
    peak_flops_per_s: float
    memory_capacity_bytes: float
    memory_efficiency: float
    compute_efficiency: float
    interconnect_bytes_per_s: float
    tensor_parallel: int = 1

    def __post_init__(self) -> None:
        check_fields(self, "gpu")
        if not self.source_url.startswith("https://"):
            raise ModelInputError(f"gpu[{self.key}].source_url", f"got {self.source_url!r}", "an https:// address")
        for name in ("memory_efficiency", "compute_efficiency"):
            if getattr(self, name) > 1:
                raise ModelInputError(f"gpu[{self.key}].{name}", f"got {getattr(self, name)!r}", "a fraction in (0, 1]")

    @property
    def achieved_bytes_per_s(self) -> float:
        """η_mem · peak bandwidth (B/s): the rate a memory-bound pass actually streams at."""
        return self.memory_efficiency * self.peak_memory_bandwidth_bytes_per_s

    @property
    def achieved_flops_per_s(self) -> float:
        """η_flop · peak FLOP rate (FLOP/s): the rate a compute-bound pass actually reaches."""
        return self.compute_efficiency * self.peak_flops_per_s

    def group(self, tensor_parallel: int) -> "GPU":
        """``tensor_parallel`` of these GPUs serving one model (Megatron-style tensor parallelism):
        every weight matrix and the KV cache split across them, so the group streams and computes
        ``tensor_parallel`` times as fast and holds that many times the memory. What it costs, the
        all-reduces between the GPUs, is priced by the cost models (``costs.base.allreduce``).
        An assumption, stated: the split is even (every model here has at least as many key-value
        heads as the largest group it is run with) and each GPU keeps its achieved fractions."""
        if tensor_parallel == 1:
            return self
        return replace(
            self,
            label=f"{tensor_parallel} × {self.label}",
            peak_memory_bandwidth_bytes_per_s=self.peak_memory_bandwidth_bytes_per_s * tensor_parallel,
            peak_flops_per_s=self.peak_flops_per_s * tensor_parallel,
            memory_capacity_bytes=self.memory_capacity_bytes * tensor_parallel,
            tensor_parallel=tensor_parallel,
        )

    @classmethod
    def from_dict(cls, key: str, entry: dict) -> "GPU":
        """Build from a plain dict (as in ``catalog.GPU_ENTRIES``); a missing or unknown field is an error."""
        return from_dict(cls, "gpu", key, entry)

