"""The model: the site's full grid under every cost model, a per-state loop, and the sweep rate."""
from __future__ import annotations

import io
import math
import time

import numpy as np

from generator.axes import axes, site_state
from generator.site_model import _triples
from specmodel import FIELDS, default_catalog, evaluate, evaluate_grid
from specmodel.cli import write_rows
from specmodel.sweep import parse_values, sweep

SAMPLE = 120
GRID_TARGET_S = 3.0


def bench_model(print_fn=print) -> None:
    catalog = default_catalog()
    grid = axes(catalog)
    drafters = [catalog.drafters[k] for k in grid["drafter"]]
    triples = _triples(grid)
    state_axes = ("batch", "context", "drafter", "gamma", "alpha", "acceptance", "workload")
    n_states = math.prod(len(grid[k]) for k in state_axes)
    print_fn("model")
    total = 0.0
    for name in FIELDS["cost_model"].choices:
        cost = catalog.cost_model(name, "vllm")
        start = time.perf_counter()
        evaluate_grid(grid["batch"], grid["context"], drafters, triples, catalog.targets["qwen3-8b"],
                      catalog.gpus["h100-sxm"], 256, cost)
        seconds = time.perf_counter() - start
        total += seconds
        print_fn(f"  full grid, {name:<11} {n_states:,} states in {seconds:.2f} s = {n_states / seconds:,.0f} states/s")
    print_fn(f"  full grid, all three cost models: {total:.2f} s (target ≤ {GRID_TARGET_S:.0f} s on 2 cores; "
             "the first includes the acceptance DP the others reuse)")

    rng = np.random.default_rng(0)
    sample = [site_state(**{k: grid[k][int(rng.integers(len(grid[k])))] for k in state_axes}) for _ in range(SAMPLE)]
    start = time.perf_counter()
    for s in sample:
        evaluate(s)
    loop_s = time.perf_counter() - start
    loop_rate = SAMPLE / loop_s
    grid_rate = n_states * 3 / total
    print_fn(f"  per-state loop (evaluate, one state at a time): {loop_rate:,.0f} states/s")
    print_fn(f"  ratio grid / per-state loop: {grid_rate / loop_rate:,.0f}×")

    args = {"batch": "1:256", "gamma": "1:10", "alpha": "0.5,0.75", "drafter": "qwen3-0.6b,ngram"}
    values = {name: parse_values(f, args.get(name), catalog) for name, f in FIELDS.items()}
    start = time.perf_counter()
    columns = sweep(values, catalog)
    write_rows(columns, "csv", io.StringIO())
    seconds = time.perf_counter() - start
    count = len(columns["speedup"])
    print_fn(f"  specmodel sweep ({count:,} states, CSV written): {count / seconds:,.0f} states/s (target ≥ 10,000)")
