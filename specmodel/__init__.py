"""specmodel: cost models of speculative decoding on a GPU.

Public API:
  State, evaluate(state, catalog=…, **changes) -> Readouts, READOUT_KEYS
  evaluate_grid / Triples (vectorised), load_catalog / default_catalog / Catalog
  FIELDS: every input, with its bounds, default and site grid
  costs: the cost models (whole-pass, per-kernel, calibrated); calibration: the fit
  closed_forms (Leviathan et al. 2023), sampler (their Algorithm 1), vllm (config + log line)
  ModelInputError: every bad input, naming the field and what it accepts.
The model is documented on the site's page "The model" (generator/templates/model.md.j2).
"""
from .catalog import Catalog, default_catalog, load_catalog
from .errors import ModelInputError
from .fields import FIELDS
from .grid import GridResult, Triples, evaluate_grid
from .readouts import READOUT_KEYS, Readouts, evaluate
from .state import State

__all__ = [
    "Catalog", "default_catalog", "load_catalog", "ModelInputError", "FIELDS", "GridResult", "Triples",
    "evaluate_grid", "READOUT_KEYS", "Readouts", "evaluate", "State",
]
