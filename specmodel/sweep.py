"""Every readout over a product of field values, in one vectorised evaluation per setting.

``parse_values`` reads a field's values from text: one value, a comma list, or (numbers) an
inclusive range ``start:stop[:step]``. ``sweep`` evaluates the product: batch × context ×
drafter × γ × α × acceptance × workload go through ``evaluate_grid`` at once; the other fields
(cost model, engine, target, GPU, output tokens) take one grid call per combination.
"""
from __future__ import annotations

import itertools
import math
from decimal import Decimal, InvalidOperation

import numpy as np

from .acceptance import shape_code
from .catalog import Catalog
from .errors import ModelInputError
from .fields import FIELDS, FLOAT, INT, Field
from .grid import Triples, evaluate_grid
from .readouts import READOUT_KEYS

MAX_SWEEP_STATES = 1_000_000


def _number(f: Field, text: str) -> Decimal:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise ModelInputError(f.option, f"got {text!r}", f"{f.allowed()}, a comma list or start:stop[:step]") from None
    if not value.is_finite():
        raise ModelInputError(f.option, f"got {text!r}", f.allowed())
    return value


def _range(f: Field, text: str) -> list:
    parts = text.split(":")
    if len(parts) not in (2, 3) or any(not p.strip() for p in parts):
        raise ModelInputError(f.option, f"got {text!r}", "start:stop or start:stop:step")
    start, stop = _number(f, parts[0]), _number(f, parts[1])
    step = _number(f, parts[2]) if len(parts) == 3 else Decimal(1)
    if step <= 0 or stop < start:
        raise ModelInputError(f.option, f"range {text!r} is empty or reversed",
                              "start:stop[:step] with start ≤ stop and step > 0")
    count = int((stop - start) / step) + 1
    if count > MAX_SWEEP_STATES:
        raise ModelInputError(f.option, f"range {text!r} has {count:,} values", f"at most {MAX_SWEEP_STATES:,}")
    return [start + i * step for i in range(count)]


def parse_values(f: Field, text: str | None, catalog: Catalog) -> list:
    """The values ``text`` gives field ``f`` (its default when None), each checked."""
    if text is None:
        return [f.default]
    names = list(catalog.section(f.section)) if f.section else None
    if not text.strip():
        raise ModelInputError(f.option, "empty", f"{f.allowed(names)}, as one value or a comma list")
    values = []
    for item in text.split(","):
        item = item.strip()
        if f.kind in (INT, FLOAT):
            raw = _range(f, item) if ":" in item else [_number(f, item)]
            for d in raw:
                if f.kind == INT and d != d.to_integral_value():
                    raise ModelInputError(f.option, f"got {item!r}", f.allowed())
                try:
                    values.append(f.check(int(d) if f.kind == INT else float(d), where=f.option))
                except ModelInputError as e:
                    # what the reader typed, not its parse (found by a cold read: "got 65537" for
                    # 1:100000:2, a value never written; "got 0.0" for 0)
                    problem = f"range {item!r} reaches {d}" if ":" in item else f"got {item}"
                    raise ModelInputError(f.option, problem, e.allowed) from None
        else:
            values.append(f.check(item, names, where=f.option))
    return list(dict.fromkeys(values))  # repeated values once, in the order given


def _split(catalog: Catalog, gpu: str, target: str) -> int:
    """The GPUs ``evaluate`` and the site give ``target`` on ``gpu`` (Catalog.tensor_parallel_for;
    FIELDS["tp"].default where eight are not enough, as evaluate does)."""
    return catalog.tensor_parallel_for(gpu, target) or FIELDS["tp"].default


def sweep(values: dict[str, list], catalog: Catalog) -> dict[str, list]:
    """Columns of the swept states: every field of FIELDS, then every readout of READOUT_KEYS,
    one entry per state, the states in product order (the first field varying slowest).

    ``values["tp"]`` and ``values["drafter"]`` may be ``[None]``: each target then gets what
    ``specmodel evaluate`` gives it without --tp or --drafter (the GPUs the site splits it across,
    Catalog.tensor_parallel_for; Catalog.default_drafter_for), and the columns say which.

    Raises ModelInputError when the product has more than MAX_SWEEP_STATES states.
    """
    count = math.prod(len(v) for v in values.values())
    if count > MAX_SWEEP_STATES:
        raise ModelInputError("sweep", f"{count:,} states", f"at most {MAX_SWEEP_STATES:,} states: narrow a list or range")
    names = list(FIELDS)
    fixed = ("cost_model", "engine", "target", "gpu", "tp", "output_tokens")
    results = {}
    for combo in itertools.product(*(values[k] for k in fixed)):
        setting = dict(zip(fixed, combo))
        cost = catalog.cost_model(setting["cost_model"], setting["engine"])
        tp = setting["tp"] if setting["tp"] is not None else _split(catalog, setting["gpu"], setting["target"])
        target, gpu = catalog.targets[setting["target"]], catalog.gpu_group(setting["gpu"], tp)
        drafters = [catalog.drafter(k if k is not None else catalog.default_drafter_for(setting["target"]),
                                    setting["target"]) for k in values["drafter"]]
        g, a, s = np.meshgrid(values["gamma"], values["alpha"], values["acceptance"], indexing="ij")
        triples = Triples(g.ravel().astype(int), a.ravel().astype(float), shape_code(s.ravel()))
        grid = evaluate_grid(values["batch"], values["context"], drafters, triples, target, gpu,
                             setting["output_tokens"], cost)
        results[combo] = (grid, target, gpu, drafters)
    sizes = {k: len(values[k]) for k in ("gamma", "alpha", "acceptance")}
    columns = {k: [] for k in (*names, *READOUT_KEYS)}
    for state in itertools.product(*(values[k] for k in names)):
        s = dict(zip(names, state))
        grid, target, gpu, drafters = results[tuple(s[k] for k in fixed)]
        bi, ci = values["batch"].index(s["batch"]), values["context"].index(s["context"])
        di = values["drafter"].index(s["drafter"])
        ti = ((values["gamma"].index(s["gamma"]) * sizes["alpha"] + values["alpha"].index(s["alpha"]))
              * sizes["acceptance"] + values["acceptance"].index(s["acceptance"]))
        w = grid.per_workload[s["workload"]]
        drafter = drafters[di]
        memory = float(grid.memory_required_bytes[bi, ci, di, 0])
        row = {
            "speedup": w["speedup"][bi, ci, di, ti],
            "spec_tokens_per_s": w["spec_tokens_per_s"][bi, ci, di, ti],
            "plain_tokens_per_s": w["plain_tokens_per_s"][bi, ci, 0, 0],
            "mean_acceptance_length": grid.acceptance["mean_acceptance_length"][ti],
            "per_position_acceptance": [float(x) for x in grid.acceptance["per_position_acceptance"][ti, : s["gamma"]]],
            "draft_time_share": w["draft_time_share"][bi, ci, di, ti],
            "arithmetic_ratio": w["arithmetic_ratio"][bi, ci, di, ti],
            **{k: grid.verify[k][bi, ci, 0, ti] for k in ("verify_bytes", "verify_flops", "verify_time_s",
                                                         "verify_memory_time_s", "verify_compute_time_s",
                                                         "tensor_core_idle_fraction")},
            "target_weight_bytes": target.weight_bytes,
            "draft_weight_bytes": drafter.weight_bytes,
            "target_kv_bytes_per_token": target.kv_bytes_per_token,
            "draft_kv_bytes_per_token": drafter.kv_bytes_per_token,
            "memory_required_bytes": memory,
            "fits_in_memory": memory <= gpu.memory_capacity_bytes,
        }
        s["tp"], s["drafter"] = gpu.tensor_parallel, drafter.key
        for k in names:
            columns[k].append(s[k])
        for k in READOUT_KEYS:
            v = row[k]
            columns[k].append(float(v) if isinstance(v, np.floating) else v)
    return columns
