"""n-gram prompt lookup: guesses copied from the prompt, on the CPU, with no model at all."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..costs import CostModel, PassCost
from ..entries import check_number
from ..hardware import GPU
from .base import Drafter


@dataclass(frozen=True)
class NgramLookup(Drafter):
    """Prompt lookup (vLLM method ``ngram``): no weights, no KV cache, no draft pass.

    prompt_lookup_max: the longest n-gram it matches (vLLM's option of that name). Its only
    cost is the CPU's search, which ideal models leave out and the calibrated one prices per
    sequence (``CostModel.ngram_lookup_s``).
    """

    prompt_lookup_max: int = 4

    kind: ClassVar[str] = "ngram"
    entry_fields: ClassVar[tuple[str, ...]] = ("prompt_lookup_max",)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_number(f"drafter[{self.key}].prompt_lookup_max", self.prompt_lookup_max, integer=True)

    def draft_phase(self, cost: CostModel, gpu: GPU, num_seqs, context_sum, gamma) -> PassCost:
        time_s = cost.ngram_lookup_s(num_seqs) * np.ones(np.broadcast_shapes(np.shape(context_sum), np.shape(gamma)))
        zero = np.zeros_like(time_s)
        return PassCost(zero, zero, zero, zero, time_s)

    def speculative_config(self, gamma: int) -> dict:
        return {"method": "ngram", "num_speculative_tokens": gamma, "prompt_lookup_max": self.prompt_lookup_max}
