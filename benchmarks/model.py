"""The vectorised grid against a plain per-state loop over a sample of the same states."""
from __future__ import annotations

import time

import numpy as np

from generator.axes import AXES
from generator.site_data import _triples
from specmodel import CATALOG, State, evaluate, evaluate_grid

SAMPLE = 120


def bench_model(print_fn=print) -> None:
    drafters = [CATALOG.drafters[k] for k in AXES["drafter"]]
    triples = _triples()
    start = time.perf_counter()
    evaluate_grid(AXES["batch"], AXES["context"], drafters, triples, CATALOG.targets["qwen3-8b"],
                  CATALOG.gpus["h100-sxm"], 256)
    grid_s = time.perf_counter() - start
    n_states = 1
    for v in AXES.values():
        n_states *= len(v)

    rng = np.random.default_rng(0)
    sample = [State(**{k: v[int(rng.integers(len(v)))] for k, v in AXES.items()}) for _ in range(SAMPLE)]
    start = time.perf_counter()
    for s in sample:
        evaluate(s)
    loop_s = time.perf_counter() - start

    grid_rate = n_states / grid_s
    loop_rate = SAMPLE / loop_s
    print_fn("model")
    print_fn(f"  full grid: {n_states:,} states in {grid_s:.2f} s = {grid_rate:,.0f} states/s")
    print_fn(f"  per-state loop: {SAMPLE} states in {loop_s:.2f} s = {loop_rate:,.0f} states/s")
    print_fn(f"  ratio grid / loop: {grid_rate / loop_rate:,.0f}×")
