"""specmodel: a roofline cost model of speculative decoding on one GPU.

Public API:
  State, evaluate(state, **changes) -> Readouts, READOUT_KEYS
  evaluate_grid / Triples (vectorised), CATALOG (validated GPUs, models, drafters)
  closed_forms (Leviathan et al. 2023), sampler (their Algorithm 1), vllm (config + log line)
  ModelInputError: every bad input, naming the field and what it accepts.
The model is specified in docs "The model" (generator/templates/model.md.j2).
"""
from .catalog import CATALOG, Catalog, build_catalog
from .errors import ModelInputError
from .grid import GridResult, Triples, evaluate_grid
from .readouts import READOUT_KEYS, Readouts, evaluate
from .state import State

__all__ = [
    "CATALOG", "Catalog", "build_catalog", "ModelInputError", "GridResult", "Triples",
    "evaluate_grid", "READOUT_KEYS", "Readouts", "evaluate", "State",
]
