"""What vLLM would show for a state: its ``--speculative-config`` and its engine-log line.

The log line mirrors ``SpecDecodingLogging.log()`` in vLLM's ``vllm/v1/spec_decode/metrics.py``:
same field names, order and number formats. Our numbers are the model's expectation over a
window of 100 iterations with all B sequences active, not a capture from a real server.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from .catalog import CATALOG
from .readouts import Readouts
from .state import State

LOG_WINDOW_ITERATIONS = 100


def speculative_config(state: State) -> dict:
    """The ``--speculative-config`` JSON object for ``state`` (vLLM ≥ 0.10 field names).

    Draft model: {"method": "draft_model", "model": <HF id>, "num_speculative_tokens": γ};
    n-gram: {"method": "ngram", "num_speculative_tokens": γ, "prompt_lookup_max": …}.
    """
    drafter = CATALOG.drafters[state.drafter]
    if drafter.is_ngram:
        return {"method": "ngram", "num_speculative_tokens": state.gamma, "prompt_lookup_max": drafter.prompt_lookup_max}
    return {"method": "draft_model", "model": drafter.architecture.hf_id, "num_speculative_tokens": state.gamma}


def speculative_config_flag(state: State) -> str:
    """The command-line flag as typed: ``--speculative-config '{…}'``."""
    return "--speculative-config '" + json.dumps(speculative_config(state)) + "'"


@dataclass(frozen=True)
class EngineLogWindow:
    """The counters vLLM aggregates between two log lines (units in names)."""

    num_drafts: int
    num_draft_tokens: int
    num_accepted_tokens: int
    accepted_tokens_per_s: float
    drafted_tokens_per_s: float
    mean_acceptance_length: float
    per_position_acceptance: list
    draft_acceptance_rate: float  # a fraction; vLLM prints it ×100 with a % sign


def engine_log_window(state: State, readouts: Readouts) -> EngineLogWindow:
    """The model's expectation of one 100-iteration logging window.

    drafts = 100·B, drafted = 100·B·γ, accepted = round(100·B·(E[L] − 1)); throughputs are
    spec_tokens_per_s·(E[L] − 1)/E[L] (accepted) and spec_tokens_per_s·γ/E[L] (drafted); the mean
    acceptance length and average draft acceptance rate are computed from the counts exactly as
    vLLM does (1 + accepted/drafts, accepted/drafted).
    """
    el = readouts.mean_acceptance_length
    drafts = LOG_WINDOW_ITERATIONS * state.batch
    accepted = round(drafts * (el - 1))
    drafted = drafts * state.gamma
    return EngineLogWindow(
        num_drafts=drafts,
        num_draft_tokens=drafted,
        num_accepted_tokens=accepted,
        accepted_tokens_per_s=readouts.spec_tokens_per_s * (el - 1) / el,
        drafted_tokens_per_s=readouts.spec_tokens_per_s * state.gamma / el,
        mean_acceptance_length=1 + accepted / drafts,
        per_position_acceptance=list(readouts.per_position_acceptance),
        draft_acceptance_rate=accepted / drafted,
    )


def engine_log_line(window: EngineLogWindow) -> str:
    """The exact text ``SpecDecodingLogging.log()`` prints for these counters."""
    rates = ", ".join(f"{p:.3f}" for p in window.per_position_acceptance)
    return (
        "SpecDecoding metrics: "
        "Mean acceptance length: %.2f, "
        "Accepted throughput: %.2f tokens/s, "
        "Drafted throughput: %.2f tokens/s, "
        "Accepted: %d tokens, "
        "Drafted: %d tokens, "
        "Per-position acceptance rate: %s, "
        "Avg Draft acceptance rate: %.1f%%"
    ) % (
        window.mean_acceptance_length,
        window.accepted_tokens_per_s,
        window.drafted_tokens_per_s,
        window.num_accepted_tokens,
        window.num_draft_tokens,
        rates,
        window.draft_acceptance_rate * 100,
    )
