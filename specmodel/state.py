"""A state of the model: every input the readouts depend on, validated field by field."""
from __future__ import annotations

from dataclasses import asdict, make_dataclass

from .fields import FIELDS, FLOAT, INT

_TYPES = {INT: int, FLOAT: float}


def _check(self) -> None:
    # Catalog keys are checked only for form here; against a catalog by Catalog.check_state.
    for name, f in FIELDS.items():
        f.check(getattr(self, name))


def _replace(self, **changes) -> "State":
    """A copy with some fields changed (validated)."""
    return State(**{**asdict(self), **changes})


def _as_dict(self) -> dict:
    return asdict(self)


State = make_dataclass(
    "State",
    [(name, _TYPES.get(f.kind, str), f.default) for name, f in FIELDS.items()],
    frozen=True,
    namespace={"__post_init__": _check, "replace": _replace, "as_dict": _as_dict,
               "__module__": __name__},
)
State.__doc__ = (
    "One point of the model: a value for every field of ``fields.FIELDS`` (defaults: the essay's "
    "opening state under the default cost model). Raises ModelInputError naming the field."
)
