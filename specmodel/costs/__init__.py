"""Cost models: how long a forward pass and an engine step take.

``whole-pass``: the ideal roofline the essay derives (one max per pass). ``per-kernel``: the same
constants, each kernel at its own roofline, summed. ``calibrated``: per-kernel at rates and with
overheads fitted to a real engine (``specmodel calibrate``). ``cost_model(name, engine)`` builds one.
"""
from __future__ import annotations

from .base import Affine, CostModel, PassCost, PassPrice, max_affine_sum
from .calibrated import ENGINE_CONSTANTS, Calibrated
from .names import CALIBRATED, COST_MODELS, DEFAULT_COST_MODEL, PER_KERNEL, WHOLE_PASS
from .per_kernel import PerKernel
from .whole_pass import WholePass


def cost_model(name: str, engine_constants: dict | None = None) -> CostModel:
    """The cost model ``name`` (one of COST_MODELS); the calibrated one needs an engine's constants."""
    if name == WHOLE_PASS:
        return WholePass()
    if name == PER_KERNEL:
        return PerKernel()
    if name == CALIBRATED:
        if engine_constants is None:
            raise ValueError("the calibrated cost model needs an engine's constants")
        return Calibrated(dict(engine_constants))
    raise KeyError(name)


__all__ = [
    "Affine", "CostModel", "PassCost", "PassPrice", "max_affine_sum", "ENGINE_CONSTANTS", "Calibrated",
    "PerKernel", "WholePass", "CALIBRATED", "COST_MODELS", "DEFAULT_COST_MODEL", "PER_KERNEL", "WHOLE_PASS",
    "cost_model",
]
