"""What vLLM would show for a state: its ``--speculative-config`` and its engine-log line.

The log line mirrors ``SpecDecodingLogging.log()`` in vLLM's ``vllm/v1/spec_decode/metrics.py``:
same field names, order and number formats. Our numbers are the model's expectation over a
window of 100 iterations with all B sequences active, not a capture from a real server.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from .catalog import Catalog, default_catalog
from .readouts import Readouts
from .state import State

LOG_WINDOW_ITERATIONS = 100


def speculative_config(state: State, catalog: Catalog | None = None) -> dict:
    """The ``--speculative-config`` JSON object for ``state`` (vLLM ≥ 0.10 field names): the
    drafter kind's (``Drafter.speculative_config``)."""
    return (catalog or default_catalog()).drafter(state.drafter, state.target).speculative_config(state.gamma)


def speculative_config_flag(state: State, catalog: Catalog | None = None) -> str:
    """The command-line flags as typed: ``--speculative-config '{…}'``, after
    ``--tensor-parallel-size N`` for a state on N > 1 GPUs (vLLM's engine argument; the cost
    model shards every pass over them)."""
    return tensor_parallel_flag(state) + "--speculative-config '" + json.dumps(speculative_config(state, catalog)) + "'"


def tensor_parallel_flag(state: State) -> str:
    """``--tensor-parallel-size N `` (with its trailing space) for a state on N > 1 GPUs, else ""."""
    return f"--tensor-parallel-size {state.tp} " if state.tp > 1 else ""


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


def engine_log_counts(batch, gamma, mean_acceptance_length, spec_tokens_per_s) -> dict:
    """The window's counters for arrays of states (all arguments broadcast).

    drafts = 100·B, drafted = 100·B·γ, accepted = round(100·B·(E[L] − 1)) (half to even, as
    Python's round); throughputs spec_tokens_per_s·(E[L] − 1)/E[L] (accepted) and
    spec_tokens_per_s·γ/E[L] (drafted); the mean acceptance length and the average draft
    acceptance rate are computed from the counts exactly as vLLM does (1 + accepted/drafts,
    accepted/drafted). Returns a dict of arrays keyed like EngineLogWindow's fields.
    """
    el = np.asarray(mean_acceptance_length, dtype=float)
    tps = np.asarray(spec_tokens_per_s, dtype=float)
    drafts = LOG_WINDOW_ITERATIONS * np.asarray(batch, dtype=np.int64)
    accepted = np.rint(drafts * (el - 1)).astype(np.int64)
    drafted = drafts * np.asarray(gamma, dtype=np.int64)
    return {
        "num_drafts": drafts,
        "num_draft_tokens": drafted,
        "num_accepted_tokens": accepted,
        "accepted_tokens_per_s": tps * (el - 1) / el,
        "drafted_tokens_per_s": tps * np.asarray(gamma) / el,
        "mean_acceptance_length": 1 + accepted / drafts,
        "draft_acceptance_rate": accepted / drafted,
    }


def engine_log_window(state: State, readouts: Readouts) -> EngineLogWindow:
    """The model's expectation of one 100-iteration logging window for one state."""
    counts = engine_log_counts(state.batch, state.gamma, readouts.mean_acceptance_length, readouts.spec_tokens_per_s)
    scalars = {k: v.item() for k, v in counts.items()}
    return EngineLogWindow(per_position_acceptance=list(readouts.per_position_acceptance), **scalars)


def format_per_position(per_position_acceptance) -> str:
    """The log's per-position list: each rate as %.3f, comma-separated (vLLM's ``rates_str``)."""
    return ", ".join(f"{p:.3f}" for p in per_position_acceptance)


def engine_log_line(window: EngineLogWindow) -> str:
    """The exact text ``SpecDecodingLogging.log()`` prints for these counters."""
    rates = format_per_position(window.per_position_acceptance)
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
