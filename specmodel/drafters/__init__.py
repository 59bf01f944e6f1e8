"""Drafter kinds. Adding a kind is one module here and one line in KINDS."""
from __future__ import annotations

from .base import Drafter
from .draft_model import DraftModel
from .eagle3 import Eagle3
from .ngram import NgramLookup

KINDS: dict[str, type[Drafter]] = {k.kind: k for k in (DraftModel, Eagle3, NgramLookup)}

__all__ = ["Drafter", "DraftModel", "Eagle3", "NgramLookup", "KINDS"]
