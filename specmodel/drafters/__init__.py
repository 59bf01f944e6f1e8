"""Drafter kinds. Adding a kind is one module here and one line in KINDS."""
from __future__ import annotations

from .base import Drafter
from .draft_model import DraftModel
from .ngram import NgramLookup

KINDS: dict[str, type[Drafter]] = {k.kind: k for k in (DraftModel, NgramLookup)}

__all__ = ["Drafter", "DraftModel", "NgramLookup", "KINDS"]
