"""Where the guesses come from: a separate draft model, or n-gram prompt lookup."""
from __future__ import annotations

from dataclasses import dataclass

from .architecture import Architecture
from .entries import check_string
from .errors import ModelInputError

DRAFT_MODEL = "draft_model"
NGRAM = "ngram"


@dataclass(frozen=True)
class Drafter:
    """A drafter.

    ``method`` is vLLM's ``--speculative-config`` method: ``draft_model`` (then ``architecture``
    is the draft model) or ``ngram`` (prompt lookup: no weights, no KV cache, no draft pass;
    ``prompt_lookup_max`` is the longest n-gram it matches, vLLM's option of that name).
    """

    key: str
    label: str
    method: str
    architecture: Architecture | None = None
    prompt_lookup_max: int | None = None

    def __post_init__(self) -> None:
        check_string(f"drafter[{self.key}].label", self.label)
        if self.method not in (DRAFT_MODEL, NGRAM):
            raise ModelInputError(f"drafter[{self.key}].method", f"got {self.method!r}", f"{DRAFT_MODEL}, {NGRAM}")
        if self.method == DRAFT_MODEL and not isinstance(self.architecture, Architecture):
            raise ModelInputError(f"drafter[{self.key}].architecture", "missing", "an Architecture for a draft model")
        if self.method == NGRAM and self.architecture is not None:
            raise ModelInputError(f"drafter[{self.key}].architecture", "given for ngram", "none: n-gram lookup has no model")

    @property
    def is_ngram(self) -> bool:
        return self.method == NGRAM

    @property
    def weight_bytes(self) -> int:
        """Draft weights in bf16 (0 for n-gram)."""
        return 0 if self.architecture is None else self.architecture.weight_bytes

    @property
    def kv_bytes_per_token(self) -> int:
        """Draft KV-cache bytes per token (0 for n-gram)."""
        return 0 if self.architecture is None else self.architecture.kv_bytes_per_token
