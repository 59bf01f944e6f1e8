"""How well each drafter guesses on a named kind of traffic, and where that figure comes from.

Acceptance is a property of a drafter *and* the text: prompt lookup guesses well only where
the output repeats the prompt (code edits), a draft model about as well everywhere. So drafters
are compared each at its own acceptance for a named task (the decision map), never at one shared
α. Each entry is either

- ``measured``: a mean acceptance length τ (tokens per target pass, bonus token included)
  published at γ = ``measured_gamma``, turned into the α at which the entry's acceptance shape
  gives that τ (``solve_alpha``); or
- ``assumed``: an α with no measurement behind it, said to be a guess wherever it is shown.

The tasks stand for public datasets (Liu et al. 2026 use the same three): chat ↔ ShareGPT,
summarisation ↔ CNN/DailyMail, code editing ↔ InstructCoder.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .acceptance import ACCEPTANCE_SHAPES, FALLING, SAME, mean_acceptance_length
from .errors import ModelInputError

TASKS: dict[str, dict] = {
    "chat": {"label": "chat", "dataset": "ShareGPT"},
    "summarisation": {"label": "summarisation", "dataset": "CNN/DailyMail"},
    "code-editing": {"label": "code editing", "dataset": "InstructCoder"},
}

MEASURED, ASSUMED = "measured", "assumed"

_LIU_TRACES = ("Liu, Yu, Park, Stoica & Cheung 2026, \"Speculative Decoding: Performance or Illusion?\" "
               "(arXiv 2601.11580): mean acceptance length at γ = 3 from the per-token acceptance traces "
               "they publish with their simulator (github.com/SpecDecode-Bench/simulator, "
               "data/llama3.1-8B/combined_{dataset}.jsonl), {dataset_name}; measured with "
               "Llama-3.1-8B-Instruct on an H100, taken to carry over to Qwen3-8B")
_NO_PAIR_MEASUREMENT = ("assumed: no published acceptance for this draft model with Qwen3-8B was found; "
                        "the simulation's default α, the same for every task")


def _liu(dataset: str, name: str) -> str:
    return _LIU_TRACES.replace("{dataset}", dataset).replace("{dataset_name}", name)


# drafter key → task → entry. An n-gram drafter's acceptance is matched with i.i.d. acceptance
# (the shape its single-position and three-position τ fit best of the two).
TYPICAL_ACCEPTANCE_ENTRIES: dict[str, dict[str, dict]] = {
    "ngram": {
        "chat": {"basis": MEASURED, "mean_acceptance_length": 1.40, "measured_gamma": 3, "acceptance": SAME,
                 "source": _liu("sharegpt", "ShareGPT")},
        "summarisation": {"basis": MEASURED, "mean_acceptance_length": 1.33, "measured_gamma": 3, "acceptance": SAME,
                          "source": _liu("cnn", "CNN/DailyMail")},
        "code-editing": {"basis": MEASURED, "mean_acceptance_length": 2.04, "measured_gamma": 3, "acceptance": SAME,
                         "source": _liu("instructcoder", "InstructCoder")},
    },
    **{key: {task: {"basis": ASSUMED, "alpha": 0.75, "acceptance": FALLING, "source": _NO_PAIR_MEASUREMENT}
             for task in TASKS}
       for key in ("qwen3-0.6b", "qwen3-1.7b")},
}


@dataclass(frozen=True)
class TypicalAcceptance:
    """One drafter's acceptance on one task.

    basis: MEASURED or ASSUMED. alpha: α of the acceptance shape ``acceptance`` (solved from
    the measurement, or assumed). mean_acceptance_length, measured_gamma: the measurement (None
    when assumed). source: where the figure comes from, in a sentence.
    """

    drafter: str
    task: str
    basis: str
    alpha: float
    acceptance: str
    source: str
    mean_acceptance_length: float | None = None
    measured_gamma: int | None = None


def solve_alpha(mean_length: float, gamma: int, acceptance: str) -> float:
    """The α at which acceptance shape ``acceptance`` gives mean acceptance length ``mean_length``
    at γ (``acceptance.mean_acceptance_length``, bonus token included). E[L] rises with α from 1
    to at most γ + 1, so bisection finds the one root. ValueError outside 1 < E[L] < γ + 1."""
    if not 1 < mean_length < gamma + 1:
        raise ValueError(f"a mean acceptance length at γ = {gamma} lies strictly between 1 and {gamma + 1}")
    falling = acceptance == FALLING
    top = float(mean_acceptance_length(gamma, 1.0, falling, gamma))
    if mean_length >= top:
        raise ValueError(f"the {acceptance} shape reaches at most {top:.3f} at γ = {gamma}")
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if float(mean_acceptance_length(gamma, mid, falling, gamma)) < mean_length:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def load_typical_acceptance(entries: dict, drafters) -> dict[str, dict[str, TypicalAcceptance]]:
    """Validate ``entries`` (drafter → task → entry) against the catalog's ``drafters``.

    Every drafter needs an entry for every task of TASKS. Raises ModelInputError naming
    ``typical_acceptance[drafter][task].field`` and what it accepts."""
    out: dict[str, dict[str, TypicalAcceptance]] = {}
    for drafter in drafters:
        if drafter not in entries:
            raise ModelInputError(f"typical_acceptance[{drafter}]", "missing",
                                  "an entry for every drafter, for each task: " + ", ".join(TASKS))
    for drafter, tasks in entries.items():
        if drafter not in drafters:
            raise ModelInputError(f"typical_acceptance[{drafter}]", "not a drafter of the catalog", ", ".join(drafters))
        if not isinstance(tasks, dict):
            raise ModelInputError(f"typical_acceptance[{drafter}]", f"got {type(tasks).__name__}", "task → entry")
        unknown = sorted(set(tasks) - set(TASKS))
        if unknown:
            raise ModelInputError(f"typical_acceptance[{drafter}][{unknown[0]}]", "not a task", ", ".join(TASKS))
        out[drafter] = {}
        for task in TASKS:
            where = f"typical_acceptance[{drafter}][{task}]"
            if task not in tasks:
                raise ModelInputError(where, "missing", "an entry for every task: " + ", ".join(TASKS))
            out[drafter][task] = _entry(where, drafter, task, tasks[task])
    return out


def _entry(where: str, drafter: str, task: str, e) -> TypicalAcceptance:
    if not isinstance(e, dict):
        raise ModelInputError(where, f"got {type(e).__name__}", "a mapping of field → value")
    basis = e.get("basis")
    allowed = {MEASURED: ("basis", "mean_acceptance_length", "measured_gamma", "acceptance", "source"),
               ASSUMED: ("basis", "alpha", "acceptance", "source")}
    if basis not in allowed:
        raise ModelInputError(f"{where}.basis", f"got {basis!r}", f"{MEASURED} or {ASSUMED}")
    for name in allowed[basis]:
        if name not in e:
            raise ModelInputError(f"{where}.{name}", "missing", "every field of: " + ", ".join(allowed[basis]))
    unknown = sorted(set(e) - set(allowed[basis]))
    if unknown:
        raise ModelInputError(f"{where}.{unknown[0]}", "unknown field", ", ".join(allowed[basis]))
    if e["acceptance"] not in ACCEPTANCE_SHAPES:
        raise ModelInputError(f"{where}.acceptance", f"got {e['acceptance']!r}", ", ".join(ACCEPTANCE_SHAPES))
    if not isinstance(e["source"], str) or not e["source"]:
        raise ModelInputError(f"{where}.source", f"got {e['source']!r}", "a sentence saying where the figure comes from")
    if basis == ASSUMED:
        alpha = e["alpha"]
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
            raise ModelInputError(f"{where}.alpha", f"got {alpha!r}", "a number between 0 and 1")
        return TypicalAcceptance(drafter, task, basis, float(alpha), e["acceptance"], e["source"])
    gamma = e["measured_gamma"]
    if isinstance(gamma, bool) or not isinstance(gamma, int) or gamma < 1:
        raise ModelInputError(f"{where}.measured_gamma", f"got {gamma!r}", "a whole number ≥ 1")
    length = e["mean_acceptance_length"]
    if isinstance(length, bool) or not isinstance(length, (int, float)) or not np.isfinite(length):
        raise ModelInputError(f"{where}.mean_acceptance_length", f"got {length!r}", "a number")
    try:
        alpha = solve_alpha(float(length), gamma, e["acceptance"])
    except ValueError as err:
        raise ModelInputError(f"{where}.mean_acceptance_length", f"got {length!r}", str(err)) from None
    return TypicalAcceptance(drafter, task, basis, alpha, e["acceptance"], e["source"], float(length), gamma)
