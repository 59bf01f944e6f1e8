"""What every drafter kind provides: its memory, its draft phase's cost, its vLLM config, its label.

A kind is one class here; an entry of the catalog names its kind and gives that kind's fields.
Everything that differs between kinds (how drafting is priced, what it holds in memory, how
vLLM is told about it) lives in the kind's class, not in branches elsewhere.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..costs import CostModel, PassCost
from ..entries import check_string
from ..hardware import GPU


@dataclass(frozen=True)
class Drafter:
    """A drafter entry.

    key: the CLI / URL name. label: what the page calls it ("Qwen3-0.6B draft model").
    colour: its colour on the page (CSS hex), dark enough to carry white text.
    """

    key: str
    label: str
    colour: str

    kind: ClassVar[str] = ""  # the catalog's and vLLM's method name
    # The kind's own entry fields beyond key, label and colour (validated by the catalog).
    entry_fields: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        check_string(f"drafter[{self.key}].label", self.label)
        check_string(f"drafter[{self.key}].colour", self.colour)

    @property
    def weight_bytes(self) -> int:
        """Bytes of weights the drafter adds to the GPU's memory."""
        return 0

    @property
    def kv_bytes_per_token(self) -> int:
        """KV-cache bytes the drafter keeps per token of every sequence."""
        return 0

    def serves(self, target) -> bool:
        """Whether this drafter can draft for ``target`` (an Architecture). Any, unless the kind
        says otherwise."""
        return True

    def for_target(self, target) -> "Drafter":
        """This drafter as it drafts for ``target``: itself, unless the kind has one per target
        (an EAGLE-3 head). Raise ModelInputError if it does not serve ``target``."""
        return self

    def draft_phase(self, cost: CostModel, gpu: GPU, num_seqs, context_sum, gamma) -> PassCost:
        """The cost of proposing γ tokens for n sequences whose caches hold C tokens in all."""
        raise NotImplementedError

    def draft_pass_breakdown(self, cost: CostModel, gpu: GPU, num_seqs, context_sum, gamma: int) -> dict:
        """The draft passes of one iteration by part ({part of ``costs.PASS_PARTS``: s}, summed
        over the γ passes); empty for a drafter that runs no passes on the GPU."""
        return {}

    def iteration_extra_s(self, cost: CostModel, num_seqs):
        """Seconds per iteration this drafter's path adds to the engine beyond its draft phase."""
        return np.zeros(np.shape(num_seqs))

    def speculative_config(self, gamma: int) -> dict:
        """vLLM's ``--speculative-config`` object for this drafter at γ (vLLM ≥ 0.10 field names)."""
        raise NotImplementedError
