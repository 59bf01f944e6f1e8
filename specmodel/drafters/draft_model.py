"""A separate, smaller model that drafts: γ passes of its own, each reading its own KV cache."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..architecture import Architecture
from ..costs import CostModel, PassCost
from ..errors import ModelInputError
from ..hardware import GPU
from .base import Drafter


@dataclass(frozen=True)
class DraftModel(Drafter):
    """A draft model (vLLM method ``draft_model``); ``architecture`` is its config.

    Draft pass j = 0 … γ−1 scores one position per sequence at context C + j·n: its cache
    grows by one token per sequence per pass (docs "The model", "One speculative iteration").
    """

    architecture: Architecture | None = None

    kind: ClassVar[str] = "draft_model"
    entry_fields: ClassVar[tuple[str, ...]] = ("model",)

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.architecture, Architecture):
            raise ModelInputError(f"drafter[{self.key}].model", "missing", "a key of the catalog's models")

    @property
    def weight_bytes(self) -> int:
        return self.architecture.weight_bytes

    @property
    def kv_bytes_per_token(self) -> int:
        return self.architecture.kv_bytes_per_token

    def serves(self, target) -> bool:
        """A smaller model of the same vocabulary: vLLM requires the draft and target models to
        share their vocabulary (docs, "draft models")."""
        return self.architecture.vocab_size == target.vocab_size and self.architecture.params < target.params

    def for_target(self, target) -> "DraftModel":
        if not self.serves(target):
            raise ModelInputError("drafter", f"{self.key} cannot draft for {target.key} (another vocabulary, "
                                  "or not smaller)", "a drafter of the target's family")
        return self

    def draft_phase(self, cost: CostModel, gpu: GPU, num_seqs, context_sum, gamma) -> PassCost:
        return cost.repeated_passes(self.architecture, gpu, num_seqs, context_sum, num_seqs, gamma)

    def draft_pass_breakdown(self, cost: CostModel, gpu: GPU, num_seqs, context_sum, gamma: int) -> dict:
        n = np.asarray(num_seqs, dtype=float)
        total: dict = {}
        for j in range(int(gamma)):  # pass j at context C + j·n, as draft_phase prices it
            for part, seconds in cost.breakdown(self.architecture, gpu, n, context_sum + j * n, 1).items():
                total[part] = total.get(part, 0.0) + seconds
        return total

    def iteration_extra_s(self, cost: CostModel, num_seqs):
        return cost.draft_model_iteration_s(num_seqs)

    def speculative_config(self, gamma: int) -> dict:
        return {"method": "draft_model", "model": self.architecture.hf_id, "num_speculative_tokens": gamma}
