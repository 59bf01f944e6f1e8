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
EARLIER_GRID_STATES = 175_560  # the site's grid when the 3 s target was set (four drafters, two shapes)


def bench_model(print_fn=print, grid: dict | None = None, sample: int = SAMPLE) -> None:
    """Print the timings. ``grid``: the axes to time (the site's default configuration's when None;
    tests pass a small one to check the code runs, never the times)."""
    catalog = default_catalog()
    grid = grid or axes(catalog)
    drafters = [catalog.drafter(k, "qwen3-8b") for k in grid["drafter"]]
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
    print_fn(f"  at this rate, the {EARLIER_GRID_STATES:,}-state grid under all three: "
             f"{total * EARLIER_GRID_STATES / n_states:.2f} s")

    rng = np.random.default_rng(0)
    states = [site_state(**{k: grid[k][int(rng.integers(len(grid[k])))] for k in state_axes}) for _ in range(sample)]
    start = time.perf_counter()
    for s in states:
        evaluate(s)
    loop_s = time.perf_counter() - start
    loop_rate = sample / loop_s
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
