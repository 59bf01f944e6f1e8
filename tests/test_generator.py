"""The generator: the grid it writes, round trips to the model, determinism, failure modes, budget."""
import json
import shutil

import numpy as np
import pytest

from generator import build as build_module
from generator import site_data
from generator.axes import AXES, DEFAULTS, shard_path
from generator.build import GENERATED_DIRS, build, compute
from generator.essay import TEMPLATES, TemplateBuildError
from generator.axes import site_state
from specmodel import ModelInputError, evaluate, load_catalog
from specmodel.catalog import MODEL_ENTRIES
from specmodel.vllm import engine_log_line, engine_log_window

BUDGET_BYTES = 250 * 1000


@pytest.fixture(scope="module")
def files():
    out, _ = compute()
    return out


def load(files, path):
    return json.loads(files[f"data/{path}"])


def index(dims, coords):
    i = 0
    for dim in dims:
        i = i * len(AXES[dim]) + AXES[dim].index(coords[dim])
    return i


def test_every_axis_value_is_present(files):
    manifest = load(files, "manifest.json")
    assert manifest["axes"] == AXES
    assert manifest["defaults"] == DEFAULTS
    for acceptance in AXES["acceptance"]:
        for workload in AXES["workload"]:
            for ai, alpha in enumerate(AXES["alpha"]):
                shard = load(files, shard_path(acceptance, workload, ai))
                assert (shard["acceptance"], shard["workload"], shard["alpha"]) == (acceptance, workload, alpha)
                n = 1
                for dim in shard["dims"]:
                    n *= len(AXES[dim])
                assert len(shard["speedup"]) == n == 11 * 7 * 3 * 10
                assert shard["model_version"] == manifest["model_version"]


def rel_close(stored, exact, rel=5.001e-4):
    return abs(stored - exact) <= rel * abs(exact) + 1e-300


def test_json_round_trips_to_the_model(files):
    core = load(files, "core.json")
    rng = np.random.default_rng(42)
    for _ in range(300):
        s = {k: v[int(rng.integers(len(v)))] for k, v in AXES.items()}
        r = evaluate(site_state(**s))
        shard = load(files, shard_path(s["acceptance"], s["workload"], AXES["alpha"].index(s["alpha"])))
        i = index(shard["dims"], s)
        for key in ("speedup", "spec_tokens_per_s", "draft_time_share", "arithmetic_ratio"):
            assert rel_close(shard[key][i], getattr(r, key)), (s, key)
        g = AXES["gamma"].index(s["gamma"])
        assert rel_close(shard["by_gamma"]["mean_acceptance_length"][g], r.mean_acceptance_length)
        for stored, exact in zip(shard["by_gamma"]["per_position_acceptance"][g], r.per_position_acceptance, strict=True):
            assert rel_close(stored, exact)
        v = index(core["verify"]["dims"], s)
        for key in ("verify_bytes", "verify_flops", "verify_memory_time_s", "verify_compute_time_s",
                    "tensor_core_idle_fraction"):
            assert rel_close(core["verify"][key][v], getattr(r, key)), key
        p = index(core["plain"]["dims"], s)
        assert rel_close(core["plain"]["plain_tokens_per_s"][p], r.plain_tokens_per_s)
        m = index(core["memory"]["dims"], s)
        assert rel_close(core["memory"]["memory_required_bytes"][m], r.memory_required_bytes)
        assert core["memory"]["fits_in_memory"][m] == int(r.fits_in_memory)


def test_engine_log_fields_match_the_cli_line(files):
    for s in (site_state(batch=64), site_state(drafter="ngram", gamma=3, alpha=0.35, batch=8, acceptance="same")):
        line = engine_log_line(engine_log_window(s, evaluate(s)))
        shard = load(files, shard_path(s.acceptance, s.workload, AXES["alpha"].index(s.alpha)))
        i = index(shard["dims"], s.as_dict())
        bg = shard["by_batch_gamma"]
        j = index(bg["dims"], s.as_dict())
        g = AXES["gamma"].index(s.gamma)
        rebuilt = (
            f"SpecDecoding metrics: Mean acceptance length: {bg['log_mean_acceptance_length_text'][j]}, "
            f"Accepted throughput: {shard['log_accepted_throughput_text'][i]} tokens/s, "
            f"Drafted throughput: {shard['log_drafted_throughput_text'][i]} tokens/s, "
            f"Accepted: {bg['log_accepted_tokens'][j]} tokens, Drafted: {bg['log_drafted_tokens'][j]} tokens, "
            f"Per-position acceptance rate: {shard['by_gamma']['per_position_text'][g]}, "
            f"Avg Draft acceptance rate: {bg['log_draft_acceptance_rate_text'][j]}%")
        assert rebuilt == line


def test_decision_map_is_the_best_of_the_shard(files):
    shard = load(files, shard_path("falling", "closed-batch", AXES["alpha"].index(0.75)))
    speedup = np.array(shard["speedup"]).reshape(11, 7, 3, 10)
    best = speedup.reshape(11, 7, 30).max(axis=-1).ravel()
    assert np.allclose(shard["decision"]["speedup"], best, rtol=5e-4)


def test_shard_budget(files):
    manifest = load(files, "manifest.json")
    shards = [k for k in files if k.startswith("data/shards/")]
    assert len(shards) == 2 * 2 * 19
    assert max(len(files[k]) for k in shards) <= BUDGET_BYTES
    default_shard = "data/" + shard_path(DEFAULTS["acceptance"], DEFAULTS["workload"], AXES["alpha"].index(DEFAULTS["alpha"]))
    chart_data = [k for k in files if k.startswith("charts/data/")]
    first_view = ["data/manifest.json", "data/" + manifest["core"], default_shard, "data/sampler.json", *chart_data]
    assert sum(len(files[k]) for k in first_view) <= BUDGET_BYTES


def test_builds_are_byte_identical(files):
    again, _ = compute()
    assert again.keys() == files.keys()
    for path in files:
        assert again[path] == files[path], path


def _snapshot(docs):
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in docs.rglob("*") if p.is_file()}


@pytest.fixture
def docs(tmp_path):
    d = tmp_path / "docs"
    (d / "data").mkdir(parents=True)
    (d / "data" / "old.json").write_text("{}")
    (d / "index.md").write_text("previous build")
    return d


def test_broken_template_stops_the_build_with_nothing_written(docs, tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    page = templates / "index.md.j2"
    lines = page.read_text().splitlines()
    lines.append("The speedup is {{ start.no_such_readout | times }}.")
    page.write_text("\n".join(lines))
    before = _snapshot(docs)
    with pytest.raises(TemplateBuildError) as e:
        build(docs, templates=templates, print_fn=lambda *_: None)
    assert f"index.md.j2:{len(lines)}" in str(e.value) and "no_such_readout" in str(e.value)
    assert _snapshot(docs) == before


def test_failing_model_stops_the_build_with_nothing_written(docs, monkeypatch):
    def broken(*args, **kwargs):
        raise FloatingPointError("model failed")

    monkeypatch.setattr(site_data, "evaluate_grid", broken)
    before = _snapshot(docs)
    with pytest.raises(FloatingPointError):
        build(docs, print_fn=lambda *_: None)
    assert _snapshot(docs) == before


def test_malformed_entry_stops_the_build_before_anything(docs):
    entries = {k: dict(v) for k, v in MODEL_ENTRIES.items()}
    entries["qwen3-8b"]["num_key_value_heads"] = 5
    before = _snapshot(docs)
    with pytest.raises(ModelInputError, match=r"model\[qwen3-8b\]\.num_key_value_heads"):
        build(docs, catalog=load_catalog(model_entries=entries), print_fn=lambda *_: None)
    assert _snapshot(docs) == before


def test_generated_dirs_are_the_only_ones_replaced():
    assert set(GENERATED_DIRS) == {"data", "charts", "vendor"}
    assert build_module.GENERATED_FILES == ("index.md", "model.md")
