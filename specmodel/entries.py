"""Validation shared by the model's data entries (GPUs, architectures, drafters).

A malformed entry must stop a build with a message naming the entry and the field, so every
check raises ModelInputError with ``<kind>[<key>].<field>``.
"""
from __future__ import annotations

import math
from dataclasses import MISSING, fields

from .errors import ModelInputError


def check_string(where: str, value) -> None:
    """Raise unless ``value`` is a non-empty str."""
    if not isinstance(value, str) or not value:
        raise ModelInputError(where, f"got {value!r}", "a non-empty string")


def check_number(where: str, value, *, integer: bool = False) -> None:
    """Raise unless ``value`` is a positive finite number (an int if ``integer``); bools are refused."""
    kind = "a positive integer" if integer else "a positive finite number"
    if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
        raise ModelInputError(where, f"got {type(value).__name__} {value!r}", kind)
    if not math.isfinite(value) or value <= 0:
        raise ModelInputError(where, f"got {value!r}", kind)


def check_fields(entry, kind: str) -> None:
    """Check every field of dataclass ``entry`` by its annotated type (str, a tuple of str, bool,
    int, float).
    An optional field left at its default (0 for "none": a dense model's experts) is not checked."""
    for f in fields(entry):
        where = f"{kind}[{entry.key}].{f.name}"
        value = getattr(entry, f.name)
        if f.default is not MISSING and value == f.default and not isinstance(value, str):
            continue
        if f.type == "str":
            check_string(where, value)
        elif f.type == "tuple[str, ...]":
            if not isinstance(value, (list, tuple)):
                raise ModelInputError(where, f"got {type(value).__name__} {value!r}", "a list of non-empty strings")
            for i, item in enumerate(value):
                check_string(f"{where}[{i}]", item)
        elif f.type == "bool":
            if not isinstance(value, bool):
                raise ModelInputError(where, f"got {type(value).__name__} {value!r}", "true or false")
        else:
            check_number(where, value, integer=f.type == "int")


def from_dict(cls, kind: str, key: str, entry: dict):
    """Build dataclass ``cls`` from a plain mapping, refusing missing and unknown fields."""
    if not isinstance(entry, dict):
        raise ModelInputError(f"{kind}[{key}]", f"got {type(entry).__name__}", "a mapping of field → value")
    names = [f.name for f in fields(cls) if f.name != "key"]
    for f in fields(cls):
        if f.name != "key" and f.default is MISSING and f.name not in entry:
            raise ModelInputError(f"{kind}[{key}].{f.name}", "missing", "every field of: " + ", ".join(names))
    unknown = sorted(set(entry) - set(names))
    if unknown:
        raise ModelInputError(f"{kind}[{key}].{unknown[0]}", "unknown field", ", ".join(names))
    return cls(key=key, **entry)
