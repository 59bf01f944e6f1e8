"""The named states the essay quotes.

Each entry of ``ESSAY_STATES`` becomes a template variable of that name (see generator/context.py):
every State field, every readout, the vLLM log line and config flag, the drafter label and the
explorable-link query. Keys are ``specmodel.State`` fields; anything left out is the default
(the calibrated cost model, batch 1, context 2048, Qwen3-0.6B drafter, γ 4, α 0.75, falling
acceptance, closed batch). ``ideal*`` states are the same settings under the whole-pass roofline
the essay derives.

Every state here sits on the site's grid (generator/axes.py), so each can be an explorable link.
Names say what the prose uses them for; change a value here and the prose follows.
"""
from __future__ import annotations

ESSAY_STATES: dict[str, dict] = {
    # --- the opening and the ladder
    "start": {},  # the simulation's starting state: one sequence, an idle GPU
    "b32": {"batch": 32},
    "busy": {"batch": 64},  # a busy server; also the state of the engine-log line
    "b128": {"batch": 128},  # the first rung where the 0.6B draft and its cache overflow 80 GB
    "b1024": {"batch": 1024},
    # --- n-gram prompt lookup (no weights, no cache, no draft pass)
    "ngram": {"drafter": "ngram"},
    "ngram_busy": {"drafter": "ngram", "batch": 64},
    "ngram_b128": {"drafter": "ngram", "batch": 128},
    "ngram_b256": {"drafter": "ngram", "batch": 256},  # the first rung that does not fit
    # the paper's weakest drafter: a bigram model, α ≈ 0.2 at γ = 3, i.i.d. acceptance
    "bigram": {"drafter": "ngram", "alpha": 0.2, "gamma": 3, "acceptance": "same"},
    "bigram_busy": {"drafter": "ngram", "alpha": 0.2, "gamma": 3, "acceptance": "same", "batch": 64},
    # --- the paper's assumptions: ĉ = 0 (no draft arithmetic) and i.i.d. acceptance
    "assumed": {"drafter": "ngram", "acceptance": "same"},
    "assumed_steady": {"drafter": "ngram", "acceptance": "same", "workload": "steady-state"},
    "same": {"acceptance": "same"},
    # --- bigger drafts
    "d17": {"drafter": "qwen3-1.7b"},
    "d17a95": {"drafter": "qwen3-1.7b", "alpha": 0.95},
    "d06a95": {"alpha": 0.95},
    # --- an EAGLE-3 head at its measured chat acceptance (α on the grid; the essay checks it)
    "eagle": {"drafter": "eagle3", "alpha": 0.65, "gamma": 3},
    "eagle_busy": {"drafter": "eagle3", "alpha": 0.65, "gamma": 2, "batch": 64},
    "eagle_b256": {"drafter": "eagle3", "alpha": 0.65, "gamma": 1, "batch": 256, "context": 512},
    # --- long contexts: the draft's own KV cache
    "long4": {"batch": 4, "context": 32768},
    "long_busy": {"batch": 64, "context": 8192},
    # --- γ at one sequence
    "g1": {"gamma": 1},
    "g2": {"gamma": 2},
    "g3": {"gamma": 3},
    "g5": {"gamma": 5},
    "g6": {"gamma": 6},
    "g10": {"gamma": 10},
    # --- γ at 32 sequences (γ = 4 there is "b32")
    "b32g1": {"batch": 32, "gamma": 1},
    "b32g2": {"batch": 32, "gamma": 2},
    "b32g3": {"batch": 32, "gamma": 3},
    "b32g5": {"batch": 32, "gamma": 5},
    "b32g6": {"batch": 32, "gamma": 6},
    "b32g10": {"batch": 32, "gamma": 10},
    # --- the steady-state workload (a server that refills its batch)
    "busy_steady": {"batch": 64, "workload": "steady-state"},
    # --- more batch sizes and contexts the prose quotes
    "d17_b32": {"drafter": "qwen3-1.7b", "batch": 32},
    "ngram_short": {"drafter": "ngram", "batch": 256, "context": 512},  # hundreds of short sequences
    # --- the same states under the ideal whole-pass roofline the essay derives
    "ideal": {"cost_model": "whole-pass"},
    "ideal_b32": {"cost_model": "whole-pass", "batch": 32},
    "ideal_busy": {"cost_model": "whole-pass", "batch": 64},
    "ideal_b1024": {"cost_model": "whole-pass", "batch": 1024},
    "ideal_d17": {"cost_model": "whole-pass", "drafter": "qwen3-1.7b"},
    "ideal_ngram_busy": {"cost_model": "whole-pass", "drafter": "ngram", "batch": 64},
    "ideal_g3": {"cost_model": "whole-pass", "gamma": 3},
    "ideal_busy_steady": {"cost_model": "whole-pass", "batch": 64, "workload": "steady-state"},
}

# Leviathan, Kalman & Matias 2023, Table 2: English-to-German translation (WMT EnDe) with
# T5-XXL (11B) as the target, temperature 0. Quoted from the paper, not computed by our model.
PAPER_T5_TABLE: list[dict] = [
    {"draft": "T5-small", "draft_params": "77M", "temperature": 0, "alpha": 0.75, "gamma": 7, "speedup": 3.4},
    {"draft": "T5-base", "draft_params": "250M", "temperature": 0, "alpha": 0.80, "gamma": 7, "speedup": 2.8},
    {"draft": "T5-large", "draft_params": "800M", "temperature": 0, "alpha": 0.82, "gamma": 7, "speedup": 1.7},
]
