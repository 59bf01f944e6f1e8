"""A state of the model: every input the readouts depend on, validated."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from .acceptance import ACCEPTANCE_SHAPES, FALLING
from .catalog import CATALOG
from .errors import ModelInputError
from .workloads import CLOSED_BATCH, WORKLOADS

# Bounds keep one evaluation's arrays small; the site's grid sits well inside them.
LIMITS = {
    "batch": (1, 65536),
    "context": (1, 1_048_576),
    "gamma": (1, 32),
    "output_tokens": (1, 16384),
}


def _check_int(name: str, value) -> None:
    low, high = LIMITS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelInputError(name, f"got {value!r}", f"an integer from {low} to {high}")
    if not low <= value <= high:
        raise ModelInputError(name, f"got {value}", f"an integer from {low} to {high}")


def _check_choice(name: str, value, choices) -> None:
    if value not in choices:
        raise ModelInputError(name, f"got {value!r}", ", ".join(choices))


@dataclass(frozen=True)
class State:
    """One point of the model.

    batch: concurrent sequences B. context: prompt tokens already cached per sequence P.
    drafter: a key of CATALOG.drafters. gamma: num_speculative_tokens γ. alpha: acceptance rate α,
    in (0, 1]. acceptance: ``falling`` or ``same``. workload: ``closed-batch`` or ``steady-state``.
    target, gpu: catalog keys. output_tokens: G, tokens each sequence generates.
    Defaults are the seed essay's starting state. Raises ModelInputError naming the field.
    """

    batch: int = 1
    context: int = 2048
    drafter: str = "qwen3-0.6b"
    gamma: int = 4
    alpha: float = 0.75
    acceptance: str = FALLING
    workload: str = CLOSED_BATCH
    target: str = "qwen3-8b"
    gpu: str = "h100-sxm"
    output_tokens: int = 256

    def __post_init__(self) -> None:
        for name in LIMITS:
            _check_int(name, getattr(self, name))
        a = self.alpha
        if isinstance(a, bool) or not isinstance(a, (int, float)) or not math.isfinite(a) or not 0 < a <= 1:
            raise ModelInputError("alpha", f"got {a!r}", "a number in (0, 1]")
        _check_choice("drafter", self.drafter, CATALOG.drafters)
        _check_choice("target", self.target, CATALOG.targets)
        _check_choice("gpu", self.gpu, CATALOG.gpus)
        _check_choice("acceptance", self.acceptance, ACCEPTANCE_SHAPES)
        _check_choice("workload", self.workload, WORKLOADS)

    def replace(self, **changes) -> "State":
        """A copy with some fields changed (validated)."""
        return State(**{**asdict(self), **changes})

    def as_dict(self) -> dict:
        return asdict(self)
