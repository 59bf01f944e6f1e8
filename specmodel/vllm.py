"""What vLLM would show for a state: its ``--speculative-config`` and its engine-log line.

The log line mirrors ``SpecDecodingLogging.log()`` in vLLM's ``vllm/v1/spec_decode/metrics.py``:
same field names, order and number formats. Our numbers are the model's expectation over a
window of 100 iterations with all B sequences active (or ten times as many, as often as it
takes for the whole counts to print the model's mean acceptance length and acceptance rate),
not a capture from a real server.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from .catalog import Catalog, default_catalog
from .readouts import Readouts
from .state import State

LOG_WINDOW_ITERATIONS = 100
# vLLM logs every few seconds, not every 100 iterations: a longer window is as real. 10⁸ iterations
# leave a count-based mean within 10⁻⁸ of the model's.
MAX_LOG_WINDOW_ITERATIONS = 10**8


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
    window_iterations: int


def _printed(x, decimals: int) -> np.ndarray:
    """``x`` as the log line prints it (``%.{decimals}f``), element by element."""
    return np.vectorize(lambda v: "%.*f" % (decimals, v), otypes=[object])(x)


def engine_log_counts(batch, gamma, mean_acceptance_length, spec_tokens_per_s) -> dict:
    """The window's counters for arrays of states (all arguments broadcast).

    drafts = N·B, drafted = N·B·γ, accepted = round(N·B·(E[L] − 1)) (half to even, as Python's
    round), for a window of N = 100 iterations, or 1,000, 10,000 …: the first N whose counts give
    the mean acceptance length and the average draft acceptance rate, computed from them exactly
    as vLLM does (1 + accepted/drafts, accepted/drafted), as the line prints the model's E[L] and
    (E[L] − 1)/γ (found by a cold read: at 2 sequences 100 iterations printed 2.60 beside the
    readout's 2.61). Throughputs spec_tokens_per_s·(E[L] − 1)/E[L] (accepted) and
    spec_tokens_per_s·γ/E[L] (drafted). Returns a dict of arrays keyed like EngineLogWindow's
    fields; window_iterations is N.
    """
    el = np.asarray(mean_acceptance_length, dtype=float)
    tps = np.asarray(spec_tokens_per_s, dtype=float)
    b = np.asarray(batch, dtype=np.int64)
    g = np.asarray(gamma, dtype=np.int64)
    iterations = np.full(np.broadcast(b, g, el).shape, LOG_WINDOW_ITERATIONS, dtype=np.int64)
    while True:
        drafts = iterations * b
        accepted = np.rint(drafts * (el - 1)).astype(np.int64)
        drafted = drafts * g
        off = ((_printed(1 + accepted / drafts, 2) != _printed(el, 2))
               | (_printed(accepted / drafted * 100, 1) != _printed((el - 1) / g * 100, 1)))
        off &= iterations < MAX_LOG_WINDOW_ITERATIONS
        if not off.any():
            break
        iterations = np.where(off, iterations * 10, iterations)
    return {
        "num_drafts": drafts,
        "num_draft_tokens": drafted,
        "num_accepted_tokens": accepted,
        "accepted_tokens_per_s": tps * (el - 1) / el,
        "drafted_tokens_per_s": tps * g / el,
        "mean_acceptance_length": 1 + accepted / drafts,
        "draft_acceptance_rate": accepted / drafted,
        "window_iterations": iterations,
    }


def engine_log_window(state: State, readouts: Readouts) -> EngineLogWindow:
    """The model's expectation of one logging window for one state (engine_log_counts)."""
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
