"""The specmodel command line that prints a state of the simulation.

The simulation shows it beside the vLLM flags, so a reader can check any state from a terminal
(views/cli.js writes the same text for every state the page reaches). A flag is written where
the state's value is not the site's default, and α always: evaluate's own default α is the
drafter's typical one on chat for the target (``specmodel catalog``), the site's one value for
every drafter, and the two commands would otherwise price different states. A state that does
not fit in the GPUs' memory gets ``--ignore-memory``: evaluate refuses it otherwise, where the
page prices it and says it does not fit.
"""
from __future__ import annotations

from specmodel import FIELDS as MODEL_FIELDS
from specmodel.fields import TENSOR_PARALLEL

from .axes import state_keys

COMMAND = "specmodel evaluate"
ALWAYS = ("alpha",)
IGNORE_MEMORY = "--ignore-memory"


def cli_spec() -> dict:
    """The manifest's "cli": the command, each state field's option (specmodel.FIELDS), the
    fields always written, the flag for a state that does not fit, and the numbers of GPUs the
    command line prices (specmodel.fields.TENSOR_PARALLEL; the site's data hold fewer)."""
    return {"command": COMMAND, "options": {s["name"]: MODEL_FIELDS[s["name"]].option for s in state_keys()},
            "always": list(ALWAYS), "ignore_memory": IGNORE_MEMORY, "tensor_parallel": list(TENSOR_PARALLEL)}


def _written(value) -> str:
    # as JavaScript's String() writes an axis value: 64, not 64.0; 0.75
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def cli_command(state: dict, defaults: dict, fits: bool = True) -> str:
    """``specmodel evaluate --batch 64 --drafter ngram --alpha 0.75`` for `state` (axis values by
    field name, as in the URL); `defaults` is the site's default state; `fits`: whether its
    weights and KV caches fit in the GPUs (else ``--ignore-memory`` ends the command)."""
    options = cli_spec()["options"]
    parts = [COMMAND]
    for s in state_keys():
        name = s["name"]
        if name in ALWAYS or state[name] != defaults[name]:
            parts.append(f"{options[name]} {_written(state[name])}")
    if not fits:
        parts.append(IGNORE_MEMORY)
    return " ".join(parts)
