"""Evaluate one state: every readout the site and the CLI show."""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .acceptance import shape_code
from .catalog import Catalog, default_catalog
from .grid import Triples, evaluate_grid
from .state import State

READOUT_KEYS = (
    "speedup",
    "spec_tokens_per_s",
    "plain_tokens_per_s",
    "mean_acceptance_length",
    "per_position_acceptance",
    "draft_time_share",
    "arithmetic_ratio",
    "verify_bytes",
    "verify_flops",
    "verify_time_s",
    "verify_memory_time_s",
    "verify_compute_time_s",
    "tensor_core_idle_fraction",
    "target_weight_bytes",
    "draft_weight_bytes",
    "target_kv_bytes_per_token",
    "draft_kv_bytes_per_token",
    "memory_required_bytes",
    "fits_in_memory",
)


@dataclass(frozen=True)
class Readouts:
    """The readouts of one state (units in the names; bytes are bytes, times seconds).

    speedup: T_plain / T_spec for the same B·G delivered tokens. spec_tokens_per_s,
    plain_tokens_per_s: B·G / T. mean_acceptance_length: E[L]. per_position_acceptance: [p_1 … p_γ].
    draft_time_share: draft-phase time / T_spec. arithmetic_ratio: FLOPs of all draft and verify
    passes / FLOPs of plain decoding. verify_*: one verify pass at full batch, context P + G/2;
    verify_time_s is its time under the state's cost model (whole-pass: the longer of
    verify_memory_time_s and verify_compute_time_s; per-kernel and calibrated: each kernel at its
    own roofline, one after another, and under the calibrated model no shorter than the launch
    floor, so at least the longer of the two; the engine's per-step time is not in it).
    tensor_core_idle_fraction: 1 − compute time / pass time of that verify pass.
    memory_required_bytes: weights + B·(P+G)·KV per token of target and draft; fits_in_memory:
    whether that is ≤ the GPU's capacity.
    """

    speedup: float
    spec_tokens_per_s: float
    plain_tokens_per_s: float
    mean_acceptance_length: float
    per_position_acceptance: list
    draft_time_share: float
    arithmetic_ratio: float
    verify_bytes: float
    verify_flops: float
    verify_time_s: float
    verify_memory_time_s: float
    verify_compute_time_s: float
    tensor_core_idle_fraction: float
    target_weight_bytes: int
    draft_weight_bytes: int
    target_kv_bytes_per_token: int
    draft_kv_bytes_per_token: int
    memory_required_bytes: float
    fits_in_memory: bool

    def as_dict(self) -> dict:
        """Plain dict keyed by READOUT_KEYS (unrounded)."""
        return asdict(self)


def evaluate(state: State | None = None, *, catalog: Catalog | None = None, **changes) -> Readouts:
    """Every readout at ``state`` (default: the essay's starting state), with ``changes`` applied.

    ``evaluate(batch=64)`` is ``evaluate(State(batch=64))``. ``catalog``: the entries to use
    (default: the built-in catalog); every key of the state must be one of its keys. Raises
    ModelInputError for bad input, naming the field.
    """
    state = state or State()
    if changes:
        state = state.replace(**changes)
    catalog = catalog or default_catalog()
    catalog.check_state(state)
    target = catalog.targets[state.target]
    gpu = catalog.gpu_group(state.gpu, state.tp)
    drafter = catalog.drafter(state.drafter, state.target)
    triples = Triples(
        gamma=np.array([state.gamma]),
        alpha=np.array([float(state.alpha)]),
        shape=shape_code([state.acceptance]),
    )
    cost = catalog.cost_model(state.cost_model, state.engine)
    r = evaluate_grid([state.batch], [state.context], [drafter], triples, target, gpu, state.output_tokens, cost)
    w = r.per_workload[state.workload]

    def scalar(a) -> float:
        return float(np.asarray(a).reshape(-1)[0])

    memory = scalar(r.memory_required_bytes)
    return Readouts(
        speedup=scalar(w["speedup"]),
        spec_tokens_per_s=scalar(w["spec_tokens_per_s"]),
        plain_tokens_per_s=scalar(w["plain_tokens_per_s"]),
        mean_acceptance_length=scalar(r.acceptance["mean_acceptance_length"]),
        per_position_acceptance=[float(x) for x in r.acceptance["per_position_acceptance"][0, : state.gamma]],
        draft_time_share=scalar(w["draft_time_share"]),
        arithmetic_ratio=scalar(w["arithmetic_ratio"]),
        verify_bytes=scalar(r.verify["verify_bytes"]),
        verify_flops=scalar(r.verify["verify_flops"]),
        verify_time_s=scalar(r.verify["verify_time_s"]),
        verify_memory_time_s=scalar(r.verify["verify_memory_time_s"]),
        verify_compute_time_s=scalar(r.verify["verify_compute_time_s"]),
        tensor_core_idle_fraction=scalar(r.verify["tensor_core_idle_fraction"]),
        target_weight_bytes=target.weight_bytes,
        draft_weight_bytes=drafter.weight_bytes,
        target_kv_bytes_per_token=target.kv_bytes_per_token,
        draft_kv_bytes_per_token=drafter.kv_bytes_per_token,
        memory_required_bytes=memory,
        fits_in_memory=bool(memory <= gpu.memory_capacity_bytes),
    )
