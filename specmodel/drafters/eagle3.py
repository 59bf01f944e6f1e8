"""EAGLE-3 heads: one small decoder layer per target, fed with the target's hidden states.

An EAGLE-3 head (Li et al. 2025, "EAGLE-3", arXiv 2503.01840) is trained for one target: its fc
layer fuses three of the target's hidden states (low, middle, high layers) into one, a single
decoder layer (q/k/v reading the token's embedding beside it) and its own lm_head over a reduced
draft vocabulary propose the next token; each further draft step feeds back its own output. In
vLLM (``llama_eagle3.py``) it keeps a KV cache for its one layer and shares the target's
embedding. So a draft step is a pass of a one-layer model, priced like a draft model's pass
(draft_model.py) by every cost model; the calibrated model's launch floor then makes it cost
about one layer's launch plus ``pass_launch_s``, which the fit takes from Liu et al.'s profile of
an EAGLE-3 head on Qwen3-8B.

The catalog entry names a head per target (``heads``: target key → the head's model entry); a
target without a published head is not served.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..architecture import Architecture
from ..errors import ModelInputError
from .draft_model import DraftModel


@dataclass(frozen=True)
class Eagle3(DraftModel):
    """An EAGLE-3 head (vLLM method ``eagle3``). ``heads``: target key → head Architecture;
    ``architecture``: the head of the target it is bound to (``for_target``), None until then."""

    heads: dict | None = None

    kind: ClassVar[str] = "eagle3"
    entry_fields: ClassVar[tuple[str, ...]] = ("heads",)

    def __post_init__(self) -> None:
        super(DraftModel, self).__post_init__()  # no architecture until bound to a target
        if not isinstance(self.heads, dict) or not self.heads:
            raise ModelInputError(f"drafter[{self.key}].heads", f"got {self.heads!r}",
                                  "a mapping of target key → head model key")
        for target, head in self.heads.items():
            if not isinstance(head, Architecture) or not head.is_eagle3_head:
                raise ModelInputError(f"drafter[{self.key}].heads[{target}]", "not an EAGLE-3 head",
                                      "a model entry with eagle3_target_hidden_size")

    def serves(self, target) -> bool:
        return target.key in self.heads

    def for_target(self, target) -> "Eagle3":
        if not self.serves(target):
            raise ModelInputError("drafter", f"{self.key} has no published head for {target.key}",
                                  "a target with a head: " + ", ".join(self.heads))
        return replace(self, architecture=self.heads[target.key])

    def _bound(self) -> Architecture:
        if self.architecture is None:
            raise ValueError(f"drafter {self.key} is not bound to a target: use catalog.drafter(key, target)")
        return self.architecture

    @property
    def weight_bytes(self) -> int:
        return self._bound().weight_bytes

    @property
    def kv_bytes_per_token(self) -> int:
        return self._bound().kv_bytes_per_token

    def iteration_extra_s(self, cost, num_seqs):
        # the draft-model path's per-sequence bookkeeping is that path's; a head's overhead per
        # draft step is in its pass (the launch floor's pass_launch_s)
        return 0.0 * super(DraftModel, self).iteration_extra_s(cost, num_seqs)

    def speculative_config(self, gamma: int) -> dict:
        return {"method": "eagle3", "model": self._bound().hf_id, "num_speculative_tokens": gamma}
