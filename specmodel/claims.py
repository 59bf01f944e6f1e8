"""The numbers the seed essay quotes, each recomputed by the whole-pass model (its derivation).

``CLAIM_VALUES[id]`` computes our value for a row of ``data/essay-claims.csv``: the row's
``state`` column says where it was quoted and the function says what was read there. Every
state is evaluated under the whole-pass cost model, the model the seed essay's numbers come from.
"""
from __future__ import annotations

import csv
import io
import re
from typing import Callable

from .closed_forms import arithmetic_increase, expected_tokens_ceiling, expected_tokens_per_iteration
from .costs import WHOLE_PASS
from .fields import FIELDS
from .readouts import evaluate
from .state import State
from .vllm import engine_log_window

GIB = 2**30
KIB = 2**10


SEED_COST_MODEL = WHOLE_PASS
# The essay whose published figures the claims file lists: its figures come from one random run of
# its own simulation of the same GPU and models; the pages and the CLI name it by this short title
# (its first words: the whole title would repeat the essay's own words in ours).
SEED_TITLE = "Speculative Decoding Spends Arithmetic"


def parse_state(text: str) -> State | None:
    """The CSV's state column: ``(defaults)``, ``(closed form)`` (None) or ``k=v;k=v``, under
    the whole-pass cost model."""
    if text == "(closed form)":
        return None
    changes = {"cost_model": SEED_COST_MODEL}
    if text != "(defaults)":
        for part in text.split(";"):
            key, value = part.split("=")
            changes[key] = FIELDS[key].parse(value)
    return State(**changes)


def _readout(key: str, scale: float = 1.0) -> Callable[[State], float]:
    return lambda s: getattr(evaluate(s), key) * scale


def _log(key: str) -> Callable[[State], float]:
    return lambda s: getattr(engine_log_window(s, evaluate(s)), key)


def _position(j: int) -> Callable[[State], float]:
    return lambda s: evaluate(s).per_position_acceptance[j - 1]


def _ratio(num: str, den: str) -> Callable[[State], float]:
    def f(s: State) -> float:
        r = evaluate(s)
        return getattr(r, num) / getattr(r, den)

    return f


CLAIM_VALUES: dict[str, Callable[[State | None], float]] = {
    "headline_speedup": _readout("speedup"),
    "headline_spec_tps": _readout("spec_tokens_per_s"),
    "headline_plain_tps": _readout("plain_tokens_per_s"),
    "headline_mal": _readout("mean_acceptance_length"),
    "headline_draft_share": _readout("draft_time_share"),
    "headline_arith": _readout("arithmetic_ratio"),
    "gamma10_arith": _readout("arithmetic_ratio"),
    "b64_speedup": _readout("speedup"),
    "b64_mal": _readout("mean_acceptance_length"),
    "b64_arith": _readout("arithmetic_ratio"),
    "b1024_speedup": _readout("speedup"),
    "target_weights_gib": _readout("target_weight_bytes", 1 / GIB),
    "verify_gib": _readout("verify_bytes", 1 / GIB),
    "verify_tflop": _readout("verify_flops", 1e-12),
    "verify_mem_ms": _readout("verify_memory_time_s", 1e3),
    "verify_compute_ms": _readout("verify_compute_time_s", 1e3),
    "idle_b1": _readout("tensor_core_idle_fraction"),
    "idle_b32": _readout("tensor_core_idle_fraction"),
    "idle_b64": _readout("tensor_core_idle_fraction"),
    "idle_b1024": _readout("tensor_core_idle_fraction"),
    "thm311": lambda s: float(arithmetic_increase(0.75, 4, 0.0)),
    "ngram_iid_arith": _readout("arithmetic_ratio"),
    "d17_speedup": _readout("speedup"),
    "d17_a95_speedup": _readout("speedup"),
    "d06_weight_share": _ratio("draft_weight_bytes", "target_weight_bytes"),
    "d06_kv_kib": _readout("draft_kv_bytes_per_token", 1 / KIB),
    "target_kv_kib": _readout("target_kv_bytes_per_token", 1 / KIB),
    "kv_share": _ratio("draft_kv_bytes_per_token", "target_kv_bytes_per_token"),
    "d17_kv_kib": _readout("draft_kv_bytes_per_token", 1 / KIB),
    "c8k_b64_draft_share": _readout("draft_time_share"),
    "c8k_b64_speedup": _readout("speedup"),
    "b1_g1": _readout("speedup"),
    "b1_g3": _readout("speedup"),
    "b1_g4": _readout("speedup"),
    "b1_g6": _readout("speedup"),
    "b1_g10": _readout("speedup"),
    "b32_g1": _readout("speedup"),
    "b32_g2": _readout("speedup"),
    "b32_g4": _readout("speedup"),
    "b32_g5": _readout("speedup"),
    "b32_g10": _readout("speedup"),
    "cf_tokens_g4": lambda s: float(expected_tokens_per_iteration(0.75, 4)),
    "cf_tokens_g10": lambda s: float(expected_tokens_per_iteration(0.75, 10)),
    "cf_tokens_g17": lambda s: float(expected_tokens_per_iteration(0.75, 17)),
    "cf_ceiling": lambda s: float(expected_tokens_ceiling(0.75)),
    "survival_g17": lambda s: 1 / 0.75**17,
    "iid_speedup": _readout("speedup"),
    "iid_mal": _readout("mean_acceptance_length"),
    "pp1": _position(1),
    "pp2": _position(2),
    "pp3": _position(3),
    "pp4": _position(4),
    "log_accepted_tps": _log("accepted_tokens_per_s"),
    "log_drafted_tps": _log("drafted_tokens_per_s"),
    "log_accepted": _log("num_accepted_tokens"),
    "log_drafted": _log("num_draft_tokens"),
    "log_avg_rate": _log("draft_acceptance_rate"),
}


def claim_value(claim_id: str, state_text: str) -> float:
    """Our value for one claim row. Raises KeyError for an unknown id."""
    return float(CLAIM_VALUES[claim_id](parse_state(state_text)))


def evaluate_claims(csv_text: str) -> list[dict]:
    """Every row of the claims CSV (text, as in ``essay_claims.csv``) with our value.

    Each row gains ``expected`` (the CSV's model_value, float: the specified model's value),
    ``tolerance`` (its rel_tolerance, float), ``ours`` (float) and ``ok`` (within that relative
    tolerance of ``expected``).
    """
    rows = []
    for row in csv.DictReader(io.StringIO(csv_text)):
        ours = claim_value(row["id"], row["state"])
        expected, tolerance = float(row["model_value"]), float(row["rel_tolerance"])
        rows.append({**row, "expected": expected, "tolerance": tolerance, "ours": ours,
                     "ok": abs(ours - expected) <= tolerance * abs(expected)})
    return rows


# Descriptions the file writes in ASCII shorthand ("1/(1-alpha)", "c 0", "0.75^17"), in words.
_CLAIM_WORDS = {
    "thm311": "Theorem 3.11's arithmetic factor, α = 0.75, γ = 4, a drafter with no arithmetic (ĉ = 0)",
    "cf_ceiling": "closed-form ceiling 1/(1 − α), α = 0.75",
    "survival_g17": "iterations per 17th guess that survives, 1/0.75¹⁷",
}


def claim_words(row: dict) -> str:
    """A claims row's description (its ``what`` column) in a reader's words: the file spells the
    symbols out ("gamma=10", "alpha .95") and writes large numbers bare ("context 8192")."""
    if row["id"] in _CLAIM_WORDS:
        return _CLAIM_WORDS[row["id"]]
    text = re.sub(r"\bgamma[= ](\d+)", r"γ = \1", row["what"])
    text = re.sub(r"\b(batch|context) (\d{4,})\b", lambda m: f"{m[1]} {int(m[2]):,}", text)
    return re.sub(r"\balpha \.(\d+)", r"α = 0.\1", text)
