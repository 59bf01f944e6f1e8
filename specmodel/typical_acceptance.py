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
summarisation ↔ CNN/DailyMail, code editing ↔ InstructCoder. An EAGLE-3 head's acceptance is its
target's (one head per target); a draft model's and prompt lookup's are taken to hold for every
target they serve.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .acceptance import ACCEPTANCE_SHAPES, FALLING, mean_acceptance_length
from .errors import ModelInputError

TASKS: dict[str, dict] = {
    "chat": {"label": "chat", "dataset": "ShareGPT"},
    "summarisation": {"label": "summarisation", "dataset": "CNN/DailyMail"},
    "code-editing": {"label": "code editing", "dataset": "InstructCoder"},
}

MEASURED, ASSUMED = "measured", "assumed"
# measured with another target's drafter (a head trained for the 8B model, carried to the 70B)
CARRIED = "measured on another target"
ANY_TARGET = "*"  # an entry that holds for every target the drafter serves

_LIU_TRACES = ("Liu, Yu, Park, Stoica & Cheung 2026, \"Speculative Decoding: Performance or Illusion?\" "
               "(arXiv 2601.11580): mean acceptance length at γ = 3 from the per-token acceptance traces "
               "they publish with their simulator (github.com/SpecDecode-Bench/simulator, "
               "data/llama3.1-8B/combined_{dataset}.jsonl), {dataset_name}; measured with "
               "Llama-3.1-8B-Instruct on an H100, taken to carry over to the other targets")
_NO_PAIR_MEASUREMENT = ("assumed: no published acceptance for this draft model with these targets was found; "
                        "the simulation's default α, the same for every task")
_ANGELSLIM = ("AngelSlim's vLLM benchmark of its EAGLE-3 heads (Tencent/AngelSlim, "
              "docs/source/performance/speculative_decoding/benchmarks.md, commit dfaf45e): vLLM 0.11.2, one H20, "
              "γ = 2, batch 1; {what}")
_VLLM_20780 = ("vLLM issue #20780: EAGLE-3 (yuhuili/EAGLE3-LLaMA3.1-Instruct-8B) on Llama-3.1-8B, batch 1, γ = 3, "
               "MT-bench; only a chat measurement was published, so it stands for every kind of traffic")


def _liu(dataset: str, name: str) -> str:
    return _LIU_TRACES.replace("{dataset}", dataset).replace("{dataset_name}", name)


def _measured(length: float, gamma: int, source: str, dataset: str) -> dict:
    return {"basis": MEASURED, "mean_acceptance_length": length, "measured_gamma": gamma, "acceptance": FALLING,
            "source": source, "dataset": dataset}


def _angelslim(mt_bench: float, mean: float, humaneval: float) -> dict:
    return {"chat": _measured(mt_bench, 2, _ANGELSLIM.replace("{what}", "MT-bench"), "MT-bench"),
            "summarisation": _measured(mean, 2, _ANGELSLIM.replace(
                "{what}", "no summarisation set: the mean over GSM8K, Alpaca, HumanEval and MT-bench"),
                "mean of GSM8K, Alpaca, HumanEval, MT-bench"),
            "code-editing": _measured(humaneval, 2, _ANGELSLIM.replace(
                "{what}", "HumanEval, code generation: the nearest to code editing published"), "HumanEval")}


_ASSUMED = {task: {"basis": ASSUMED, "alpha": 0.75, "acceptance": FALLING, "source": _NO_PAIR_MEASUREMENT}
            for task in TASKS}

# drafter key → target key (or ANY_TARGET) → task → entry. Every acceptance is modelled with the
# falling shape, its α matched to the measured mean acceptance length at the measured γ.
TYPICAL_ACCEPTANCE_ENTRIES: dict[str, dict[str, dict[str, dict]]] = {
    "ngram": {ANY_TARGET: {
        "chat": _measured(1.40, 3, _liu("sharegpt", "ShareGPT"), "ShareGPT"),
        "summarisation": _measured(1.33, 3, _liu("cnn", "CNN/DailyMail"), "CNN/DailyMail"),
        "code-editing": _measured(2.04, 3, _liu("instructcoder", "InstructCoder"), "InstructCoder"),
    }},
    **{key: {ANY_TARGET: _ASSUMED} for key in ("qwen3-0.6b", "qwen3-1.7b", "qwen3-4b", "llama-3.2-1b")},
    "eagle3": {
        "qwen3-8b": _angelslim(1.97, 1.99, 1.97),
        "qwen3-14b": _angelslim(1.74, 1.79, 1.76),
        "qwen3-32b": _angelslim(1.86, 1.91, 1.86),
        "qwen3-30b-a3b": _angelslim(2.01, 2.04, 2.02),
        "llama-3.1-8b-instruct": {task: _measured(2.79, 3, _VLLM_20780, "MT-bench") for task in TASKS},
        "llama-3.3-70b-instruct": {task: {**_measured(2.79, 3, _VLLM_20780 + "; measured on the 8B model's head, "
                                                      "assumed to carry over to the 70B's", "MT-bench"),
                                          "basis": CARRIED} for task in TASKS},
    },
}


@dataclass(frozen=True)
class TypicalAcceptance:
    """One drafter's acceptance on one task.

    basis: MEASURED, CARRIED (measured with the drafter of another target) or ASSUMED. alpha: α of the acceptance shape ``acceptance`` (solved from
    the measurement, or assumed). mean_acceptance_length, measured_gamma: the measurement (None
    when assumed). source: where the figure comes from, in a sentence; dataset: the set measured on.
    """

    drafter: str
    task: str
    basis: str
    alpha: float
    acceptance: str
    source: str
    mean_acceptance_length: float | None = None
    measured_gamma: int | None = None
    dataset: str | None = None


def solve_alpha(mean_length: float, gamma: int, acceptance: str) -> float:
    """The α at which acceptance shape ``acceptance`` gives mean acceptance length ``mean_length``
    at γ (``acceptance.mean_acceptance_length``, bonus token included). E[L] rises with α from 1
    to at most γ + 1, so bisection finds the one root. ValueError outside 1 < E[L] < γ + 1."""
    if not 1 < mean_length < gamma + 1:
        raise ValueError(f"a mean acceptance length at γ = {gamma} lies strictly between 1 and {gamma + 1}")
    top = float(mean_acceptance_length(gamma, 1.0, acceptance, gamma))
    if mean_length >= top:
        raise ValueError(f"the {acceptance} shape reaches at most {top:.3f} at γ = {gamma}")
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if float(mean_acceptance_length(gamma, mid, acceptance, gamma)) < mean_length:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def load_typical_acceptance(entries: dict, drafters: dict, targets: dict) -> dict[str, dict[str, dict]]:
    """Validate ``entries`` (drafter → target or ANY_TARGET → task → entry) against the catalog.

    Every drafter needs, for every target it serves (``Drafter.serves``), an entry for every task
    of TASKS, from that target's block or the ANY_TARGET one. Returns drafter → target → task →
    TypicalAcceptance, one block per served target. Raises ModelInputError naming
    ``typical_acceptance[drafter][target][task].field`` and what it accepts."""
    out: dict[str, dict[str, dict]] = {}
    for drafter in entries:
        if drafter not in drafters:
            raise ModelInputError(f"typical_acceptance[{drafter}]", "not a drafter of the catalog", ", ".join(drafters))
    for key, drafter in drafters.items():
        blocks = entries.get(key)
        if not isinstance(blocks, dict):
            raise ModelInputError(f"typical_acceptance[{key}]", "missing" if blocks is None else f"got {blocks!r}",
                                  "target (or '*') → task → entry")
        for target in blocks:
            if target != ANY_TARGET and target not in targets:
                raise ModelInputError(f"typical_acceptance[{key}][{target}]", "not a target of the catalog",
                                      ", ".join([ANY_TARGET, *targets]))
        out[key] = {}
        for target_key, target in targets.items():
            if not drafter.serves(target):
                continue
            block = target_key if target_key in blocks else ANY_TARGET
            tasks = blocks.get(block)
            # name the block the entry is written in, so the error points at the line to fix
            where = f"typical_acceptance[{key}][{target_key if tasks is None else block}]"
            if tasks is None:
                raise ModelInputError(where, "missing", "an entry for every target the drafter serves (or '*')")
            if not isinstance(tasks, dict):
                raise ModelInputError(where, f"got {type(tasks).__name__}", "task → entry")
            unknown = sorted(set(tasks) - set(TASKS))
            if unknown:
                raise ModelInputError(f"{where}[{unknown[0]}]", "not a task", ", ".join(TASKS))
            out[key][target_key] = {}
            for task in TASKS:
                if task not in tasks:
                    raise ModelInputError(f"{where}[{task}]", "missing", "an entry for every task: " + ", ".join(TASKS))
                out[key][target_key][task] = _entry(f"{where}[{task}]", key, task, tasks[task])
    return out


def _entry(where: str, drafter: str, task: str, e) -> TypicalAcceptance:
    if not isinstance(e, dict):
        raise ModelInputError(where, f"got {type(e).__name__}", "a mapping of field → value")
    basis = e.get("basis")
    measured = ("basis", "mean_acceptance_length", "measured_gamma", "acceptance", "source", "dataset")
    allowed = {MEASURED: measured, CARRIED: measured, ASSUMED: ("basis", "alpha", "acceptance", "source")}
    if basis not in allowed:
        raise ModelInputError(f"{where}.basis", f"got {basis!r}", f"{MEASURED}, {CARRIED} or {ASSUMED}")
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
    dataset = e["dataset"]
    if not isinstance(dataset, str) or not dataset:
        raise ModelInputError(f"{where}.dataset", f"got {dataset!r}", "the name of the set the length was measured on")
    return TypicalAcceptance(drafter, task, basis, alpha, e["acceptance"], e["source"], float(length), gamma, dataset)
