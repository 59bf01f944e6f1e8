"""The readouts of one grid state, looked up in the generated JSON exactly as the page does.

The build writes the simulation's default readouts from here rather than from specmodel
directly, so the build-time text and the text the script writes agree to the last digit.
"""
from __future__ import annotations

from collections.abc import Mapping

from .chart_rows import core_value, shard_value

CORE_READOUTS = (
    "plain_tokens_per_s", "verify_bytes", "verify_flops", "verify_memory_time_s", "verify_compute_time_s",
    "tensor_core_idle_fraction", "target_weight_bytes", "draft_weight_bytes", "target_kv_bytes_per_token",
    "draft_kv_bytes_per_token", "memory_required_bytes",
)
SHARD_READOUTS = ("speedup", "spec_tokens_per_s", "mean_acceptance_length", "draft_time_share", "arithmetic_ratio")


def readouts_at(state: Mapping, manifest: Mapping, core: Mapping, shard: Mapping) -> dict:
    """{readout key: value} at ``state`` (every key of specmodel.READOUT_KEYS)."""
    values = {k: core_value(core, k, manifest, state) for k in CORE_READOUTS}
    values.update({k: shard_value(shard, k, manifest, state) for k in SHARD_READOUTS})
    gamma_index = manifest["axes"]["gamma"].index(state["gamma"])
    values["per_position_acceptance"] = shard["by_gamma"]["per_position_acceptance"][gamma_index]
    values["fits_in_memory"] = bool(core_value(core, "fits_in_memory", manifest, state))
    return values
