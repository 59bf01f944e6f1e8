"""Serving engines: the constants the calibrated cost model adds to the kernels, each with its source."""
from __future__ import annotations

import math
from dataclasses import dataclass

from .costs import ENGINE_CONSTANTS
from .entries import check_string
from .errors import ModelInputError

# Constants that are fractions of a peak; the rest are non-negative times or counts.
FRACTIONS = ("weight_bandwidth_efficiency", "kv_bandwidth_efficiency", "flop_efficiency")


@dataclass(frozen=True)
class Engine:
    """One engine preset.

    constants: {name: value} for every name of ``costs.ENGINE_CONSTANTS``. sources: {name: a
    sentence saying where the value comes from: a measurement fitted, a datasheet, a source
    file, or "estimate: …"}. calibrated_on: the hardware and model the fitted constants come from.
    Raises ModelInputError naming ``engine[<key>].<constant>`` for a missing or unknown
    constant, a bad value, or a constant without a source.
    """

    key: str
    label: str
    calibrated_on: str
    constants: dict
    sources: dict

    def __post_init__(self) -> None:
        check_string(f"engine[{self.key}].label", self.label)
        check_string(f"engine[{self.key}].calibrated_on", self.calibrated_on)
        for name in ENGINE_CONSTANTS:
            where = f"engine[{self.key}].{name}"
            if name not in self.constants:
                raise ModelInputError(where, "missing", "every constant of: " + ", ".join(ENGINE_CONSTANTS))
            value = self.constants[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ModelInputError(where, f"got {value!r}", "a finite number ≥ 0")
            if name in FRACTIONS and not 0 < value <= 1:
                raise ModelInputError(where, f"got {value!r}", "a fraction in (0, 1]")
            source = self.sources.get(name)
            if not isinstance(source, str) or not source.strip():
                raise ModelInputError(f"{where}.source", "missing", "a sentence naming where the value comes from")
        unknown = sorted(set(self.constants) - set(ENGINE_CONSTANTS))
        if unknown:
            raise ModelInputError(f"engine[{self.key}].{unknown[0]}", "unknown constant", ", ".join(ENGINE_CONSTANTS))

    @classmethod
    def from_entry(cls, key: str, entry: dict) -> "Engine":
        """From ``{"label", "calibrated_on", "constants": {name: {"value", "source"}}}``."""
        if not isinstance(entry, dict) or not isinstance(entry.get("constants"), dict):
            raise ModelInputError(f"engine[{key}].constants", "missing", "a mapping of constant → {value, source}")
        constants, sources = {}, {}
        for name, spec in entry["constants"].items():
            if not isinstance(spec, dict) or "value" not in spec:
                raise ModelInputError(f"engine[{key}].{name}", f"got {spec!r}", "{\"value\": number, \"source\": text}")
            constants[name] = spec["value"]
            sources[name] = spec.get("source")
        return cls(key=key, label=entry.get("label"), calibrated_on=entry.get("calibrated_on"),
                   constants=constants, sources=sources)
