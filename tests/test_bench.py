"""`make bench` runs: its model benchmark on a tiny grid (the code paths, never the times; timing
belongs to `make bench`, not to a test)."""
from benchmarks.model import bench_model
from generator.axes import axes
from specmodel import default_catalog


def test_the_model_benchmark_runs_over_every_drafter_kind():
    full = axes(default_catalog())
    small = {**full, "batch": full["batch"][:2], "context": full["context"][:1], "gamma": full["gamma"][:2],
             "alpha": full["alpha"][:2]}
    lines = []
    bench_model(lines.append, grid=small, sample=3)
    assert lines[0] == "model" and any("states/s" in line for line in lines)
    assert any(line.startswith("  ratio grid / per-state loop") for line in lines)
