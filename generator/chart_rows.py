"""Each chart's rows of the Vega dataset `table` for one state, from the contract's JSON tables.

This is the Python twin of what the page's JavaScript does when a control moves: look values
up in manifest/core/shard (flat row-major arrays, see ARCHITECTURE.md "Data layout") and
convert units for display.  No model quantity is recomputed here.

Display rounding: after a unit conversion values are rounded to 4 significant digits
(`Number(v.toPrecision(4))` in JS) so that seconds→ms does not leak float noise such as
6.232000000000001; the decision label uses `toFixed(2)` semantics (round half up on the
exact binary value), reproduced with `decimal` so both sides agree byte for byte.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal

GIB = 2**30
KIB = 2**10
# The manifest names the target (`target`); this is the fallback.
TARGET_MODEL = "Qwen3-8B"
AXIS_KEYS = ("batch", "context", "drafter", "gamma", "alpha", "acceptance", "workload")


# --- looking values up -------------------------------------------------------------------

SHARD_DIMS = ("batch", "context", "drafter", "gamma")

# Contract field -> (where generator/site_data.py puts it, dims from ARCHITECTURE.md).
# Dims are fixed by the contract rather than read from the files: some tables mix fields of
# different dims (core `plain`, `closed_form`), and an array whose length disagrees with its
# dims raises instead of silently reading the wrong cell.
CORE_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "verify_bytes": (("verify", "verify_bytes"), ("batch", "context", "gamma")),
    "verify_flops": (("verify", "verify_flops"), ("batch", "context", "gamma")),
    "tensor_core_idle_fraction": (("verify", "tensor_core_idle_fraction"), ("batch", "context", "gamma")),
    "plain_tokens_per_s": (("plain", "plain_tokens_per_s"), ("batch", "context", "workload")),
    "memory_required_bytes": (("memory", "memory_required_bytes"), ("batch", "context", "drafter")),
    "fits_in_memory": (("memory", "fits_in_memory"), ("batch", "context", "drafter")),
    "verify_memory_time_s": (("verify", "verify_memory_time_s"), ("batch", "context", "gamma")),
    "verify_compute_time_s": (("verify", "verify_compute_time_s"), ("batch", "context", "gamma")),
    "verify_arithmetic_intensity": (("verify", "verify_arithmetic_intensity"), ("batch", "context", "gamma")),
    "verify_attained_flops_per_s": (("verify", "verify_attained_flops_per_s"), ("batch", "context", "gamma")),
    "draft_memory_time_s": (("draft", "draft_memory_time_s"), SHARD_DIMS),
    "draft_compute_time_s": (("draft", "draft_compute_time_s"), SHARD_DIMS),
    "plain_pass_memory_time_s": (("plain", "plain_pass_memory_time_s"), ("batch", "context")),
    "plain_pass_compute_time_s": (("plain", "plain_pass_compute_time_s"), ("batch", "context")),
    "draft_weight_bytes": (("drafters", "draft_weight_bytes"), ("drafter",)),
    "draft_kv_bytes_per_token": (("drafters", "draft_kv_bytes_per_token"), ("drafter",)),
    "target_weight_bytes": (("drafters", "target_weight_bytes"), ()),
    "target_kv_bytes_per_token": (("drafters", "target_kv_bytes_per_token"), ()),
    "expected_tokens": (("closed_form", "expected_tokens"), ("alpha", "gamma_cf")),
    "ceiling": (("closed_form", "ceiling"), ("alpha",)),
    "gamma_cf": (("closed_form", "gamma_cf"), ()),
    "peak_flops_per_s": (("roofline", "peak_flops_per_s"), ()),
    "peak_bytes_per_s": (("roofline", "peak_bytes_per_s"), ()),
}
SHARD_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "speedup": (("speedup",), SHARD_DIMS),
    "spec_tokens_per_s": (("spec_tokens_per_s",), SHARD_DIMS),
    "draft_time_share": (("draft_time_share",), SHARD_DIMS),
    "arithmetic_ratio": (("arithmetic_ratio",), SHARD_DIMS),
    "mean_acceptance_length": (("by_gamma", "mean_acceptance_length"), ("gamma",)),
    "per_position_acceptance": (("by_gamma", "per_position_acceptance"), ("gamma",)),
    "best_gamma": (("best_gamma", "gamma"), ("batch", "context", "drafter")),
    "decision_drafter": (("decision", "drafter"), ("batch", "context")),
    "decision_gamma": (("decision", "gamma"), ("batch", "context")),
    "decision_speedup": (("decision", "speedup"), ("batch", "context")),
}


def _raw(doc: Mapping, path: Sequence[str]):
    node = doc
    for key in path:
        node = node[key]
    return node


def _axis(manifest: Mapping, core: Mapping | None, dim: str) -> list:
    # γ of the closed form (1 … 20) is not a grid axis: core.json stores it beside its table.
    if dim == "gamma_cf":
        return list(_raw(core, CORE_FIELDS["gamma_cf"][0]))
    return list(manifest["axes"][dim])


def _position(values: Sequence, value, dim: str) -> int:
    for i, candidate in enumerate(values):
        if candidate == value:
            return i
    # α may arrive as a float that differs from the rounded axis value in the last bit.
    if isinstance(value, float):
        for i, candidate in enumerate(values):
            if isinstance(candidate, (int, float)) and math.isclose(candidate, value, rel_tol=1e-9):
                return i
    raise KeyError(f"{dim}={value!r} is not on the axis {list(values)!r}")


def flat_index(sizes_and_positions: Sequence[tuple[int, int]]) -> int:
    """Row-major index from (axis length, position) pairs, outermost dim first."""
    index = 0
    for size, position in sizes_and_positions:
        index = index * size + position
    return index


def _value(fields: Mapping, doc: Mapping, name: str, manifest: Mapping, coords: Mapping, core: Mapping | None):
    path, dims = fields[name]
    try:
        values = _raw(doc, path)
    except (KeyError, TypeError):
        raise KeyError(f"{name!r} not found at {'.'.join(path)}") from None
    if not dims:
        return values
    axes = [_axis(manifest, core, d) for d in dims]
    expected = math.prod(len(a) for a in axes)
    if len(values) != expected:
        raise ValueError(f"{'.'.join(path)} has {len(values)} values; dims {list(dims)} need {expected}")
    return values[flat_index([(len(a), _position(a, coords[d], d)) for a, d in zip(axes, dims)])]


def core_value(core: Mapping, name: str, manifest: Mapping, coords: Mapping):
    """Field `name` (a CORE_FIELDS key) of core.json at `coords` (`{dim: axis value}`)."""
    return _value(CORE_FIELDS, core, name, manifest, coords, core)


def shard_value(shard: Mapping, name: str, manifest: Mapping, coords: Mapping):
    """Field `name` (a SHARD_FIELDS key) of a shard at `coords` (`{dim: axis value}`)."""
    return _value(SHARD_FIELDS, shard, name, manifest, coords, None)


# --- formatting --------------------------------------------------------------------------


def sig4(x: float) -> float | int:
    """Round to 4 significant digits (JS: `Number(x.toPrecision(4))`); integral results
    become ints, as in the generator's JSON (144, not 144.0)."""
    value = float(f"{x:.4g}")
    return int(value) if value.is_integer() else value


def to_fixed(x: float, digits: int) -> str:
    """JS `x.toFixed(digits)` for |x| < 1e21: round half up on the exact binary value."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def decision_label(gamma: int, speedup: float) -> str:
    """The decision cell's text: `γ<gamma>` and the speedup, on two lines (split on "\\n")."""
    return f"γ{gamma}\n{to_fixed(speedup, 2)}×"


# --- rows per chart ----------------------------------------------------------------------


def rows_for(chart: str, state: Mapping, manifest: Mapping, core: Mapping, shard: Mapping) -> list[dict]:
    """Rows of chart `chart`'s `table` dataset at `state`.

    state: the 7 axis keys (batch, context, drafter, gamma, alpha, acceptance, workload) as
    axis values, not indices.  `shard` must be the shard of state's (acceptance, workload,
    alpha) — see `shard_path`.  Row formats: ARCHITECTURE.md "Charts".  `memory` is static
    (state unused); `sampler` needs sampler.json, see `sampler_rows`.
    """
    missing = [k for k in AXIS_KEYS if k not in state]
    if missing:
        raise KeyError(f"state lacks {', '.join(missing)}")
    for key in AXIS_KEYS:
        _position(manifest["axes"][key], state[key], key)
    if chart == "memory":
        return memory_rows(manifest, core)
    _check_shard(shard, state)
    if chart == "sampler":
        raise ValueError("the sampler chart's rows come from sampler.json: use sampler_rows(sampler)")
    builders = {
        "ladder": _ladder, "gamma": _gamma, "iteration": _iteration, "roofline": _roofline,
        "acceptance": _acceptance, "closed_form": _closed_form, "decision": _decision,
    }
    if chart not in builders:
        raise KeyError(f"unknown chart {chart!r}")
    return builders[chart](dict(state), manifest, core, shard)


def _check_shard(shard: Mapping, state: Mapping) -> None:
    # Shards name their own (acceptance, workload, α); reading the wrong one is a silent error.
    mismatched = [k for k in ("acceptance", "workload", "alpha")
                  if k in shard and not _same(shard[k], state[k])]
    if mismatched:
        found = ", ".join(f"{k}={shard[k]!r}" for k in mismatched)
        raise ValueError(f"the shard is for {found}, not the state's {', '.join(f'{k}={state[k]!r}' for k in mismatched)}")


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9)
    return a == b


def _ladder(state, manifest, core, shard):
    rows = []
    for batch in manifest["axes"]["batch"]:
        speedup = shard_value(shard, "speedup", manifest, {**state, "batch": batch})
        rows.append({
            "batch": batch, "speedup": speedup, "drafter": state["drafter"],
            "outcome": "faster" if speedup > 1 else "slower", "current": batch == state["batch"],
        })
    return rows


def _gamma(state, manifest, core, shard):
    return [
        {"gamma": g, "speedup": shard_value(shard, "speedup", manifest, {**state, "gamma": g}),
         "current": g == state["gamma"]}
        for g in manifest["axes"]["gamma"]
    ]


def _iteration(state, manifest, core, shard):
    fields = {
        "draft": ("draft_memory_time_s", "draft_compute_time_s"),
        "verify": ("verify_memory_time_s", "verify_compute_time_s"),
        "plain": ("plain_pass_memory_time_s", "plain_pass_compute_time_s"),
    }
    rows = []
    for phase, (memory, arithmetic) in fields.items():
        for part, name in (("memory", memory), ("arithmetic", arithmetic)):
            seconds = core_value(core, name, manifest, state)
            rows.append({"phase": phase, "part": part, "time_ms": sig4(seconds * 1000)})
    return rows


def _roofline(state, manifest, core, shard):
    rows = []
    for batch in manifest["axes"]["batch"]:
        coords = {**state, "batch": batch}
        rows.append({
            "batch": batch,
            "arithmetic_intensity": core_value(core, "verify_arithmetic_intensity", manifest, coords),
            "attained_flops_per_s": core_value(core, "verify_attained_flops_per_s", manifest, coords),
            "current": batch == state["batch"],
        })
    return rows


def _acceptance(state, manifest, core, shard):
    # p_j does not depend on γ (a prefix product), so the longest list (γ = max) has all 10.
    gammas = manifest["axes"]["gamma"]
    longest = max(gammas)
    p = shard_value(shard, "per_position_acceptance", manifest, {**state, "gamma": longest})
    # "Pays" = inside the best γ for this batch/context/drafter, and only if speculating at
    # that γ beats plain decoding at all.
    best = shard_value(shard, "best_gamma", manifest, state)
    best_speedup = shard_value(shard, "speedup", manifest, {**state, "gamma": best})
    cutoff = best if best_speedup > 1 else 0
    return [
        {"position": j, "per_position_acceptance": p[j - 1], "pays": j <= cutoff}
        for j in range(1, longest + 1)
    ]


def _closed_form(state, manifest, core, shard):
    ceiling = core_value(core, "ceiling", manifest, state)
    return [
        {"gamma": g, "expected_tokens": core_value(core, "expected_tokens", manifest, {**state, "gamma_cf": g}),
         "ceiling": ceiling}
        for g in _axis(manifest, core, "gamma_cf")
    ]


def _decision(state, manifest, core, shard):
    drafters = manifest["axes"]["drafter"]
    rows = []
    for batch in manifest["axes"]["batch"]:
        for context in manifest["axes"]["context"]:
            coords = {**state, "batch": batch, "context": context}
            gamma = shard_value(shard, "decision_gamma", manifest, coords)
            speedup = shard_value(shard, "decision_speedup", manifest, coords)
            drafter = drafters[shard_value(shard, "decision_drafter", manifest, coords)]
            rows.append({
                "batch": batch, "context": context, "drafter": drafter,
                "gamma": gamma, "speedup": speedup, "label": decision_label(gamma, speedup),
                # the best choice's weights and caches against the card's memory
                "fits": bool(core_value(core, "fits_in_memory", manifest, {**coords, "drafter": drafter})),
            })
    return rows


# --- static rows -------------------------------------------------------------------------


def memory_rows(manifest: Mapping, core: Mapping) -> list[dict]:
    """Static memory rows `{model, role, weight_gib, kv_kib_per_token}`: the target, then each
    drafter in axis order (GiB = 2^30 bytes, KiB = 2^10 bytes, 4 significant digits)."""
    labels = manifest.get("labels", {}).get("drafter", {})
    rows = [{
        "model": manifest.get("target", TARGET_MODEL), "role": "target",
        "weight_gib": sig4(core_value(core, "target_weight_bytes", manifest, {}) / GIB),
        "kv_kib_per_token": sig4(core_value(core, "target_kv_bytes_per_token", manifest, {}) / KIB),
    }]
    for drafter in manifest["axes"]["drafter"]:
        coords = {"drafter": drafter}
        rows.append({
            "model": labels.get(drafter, drafter), "role": "drafter",
            "weight_gib": sig4(core_value(core, "draft_weight_bytes", manifest, coords) / GIB),
            "kv_kib_per_token": sig4(core_value(core, "draft_kv_bytes_per_token", manifest, coords) / KIB),
        })
    return rows


SAMPLER_FIELDS = ("target_probability", "draft_probability", "sampled_frequency")


def sampler_rows(sampler: Mapping) -> list[dict]:
    """Static sampler rows `{token, target_probability, draft_probability, sampled_frequency}`.

    Accepts sampler.json either as ready rows (`rows`) or as parallel arrays (`tokens` or
    `token`, plus the three probability fields).
    """
    if "rows" in sampler:
        return [{k: row[k] for k in ("token", *SAMPLER_FIELDS)} for row in sampler["rows"]]
    tokens = sampler["tokens"] if "tokens" in sampler else sampler["token"]
    return [
        {"token": token, **{k: sampler[k][i] for k in SAMPLER_FIELDS}}
        for i, token in enumerate(tokens)
    ]


def roof_rows(core: Mapping) -> list[dict]:
    """The roofline's roof `{arithmetic_intensity, attainable_flops_per_s}` (FLOP/byte, FLOP/s).

    min(peak FLOP/s, intensity × peak bytes/s) is a straight line on log-log axes on each
    side of the ridge, so three points draw it exactly: the ridge and decade bounds that
    enclose every verify pass in core.json.
    """
    peak_flops = _raw(core, CORE_FIELDS["peak_flops_per_s"][0])
    peak_bytes = _raw(core, CORE_FIELDS["peak_bytes_per_s"][0])
    ridge = peak_flops / peak_bytes
    intensities = [x for x in _raw(core, CORE_FIELDS["verify_arithmetic_intensity"][0]) if x > 0] or [ridge]
    low = 10 ** math.floor(math.log10(min(min(intensities), ridge)))
    high = 10 ** math.ceil(math.log10(max(max(intensities), ridge)))
    if high <= ridge:
        high *= 10
    return [
        {"arithmetic_intensity": sig4(x), "attainable_flops_per_s": sig4(min(peak_flops, x * peak_bytes))}
        for x in (low, ridge, high)
    ]


# --- helpers for the build ---------------------------------------------------------------


def shard_path(manifest: Mapping, state: Mapping) -> str:
    """The shard file (relative to docs/data/) holding `state`'s (acceptance, workload, α)."""
    alpha_index = _position(manifest["axes"]["alpha"], state["alpha"], "alpha")
    return manifest["shards"]["pattern"].format(
        acceptance=state["acceptance"], workload=state["workload"], alpha_index=alpha_index,
    )


def datasets_for(chart: str, state: Mapping, manifest: Mapping, core: Mapping, shard: Mapping,
                 sampler: Mapping | None = None) -> dict[str, list[dict]]:
    """Every named dataset chart `chart` reads, `{dataset name: rows}` (`table`, plus `roof`)."""
    if chart == "sampler":
        if sampler is None:
            raise ValueError("the sampler chart needs sampler.json")
        return {"table": sampler_rows(sampler)}
    datasets = {"table": rows_for(chart, state, manifest, core, shard)}
    if chart == "roofline":
        datasets["roof"] = roof_rows(core)
    return datasets
