"""Chart specs (Altair → Vega-Lite), their rows (chart_rows) and static SVG renders (svg)."""

from __future__ import annotations

import copy
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import altair as alt
import numpy as np
import pytest
import vl_convert as vlc

from generator.chart_rows import (
    datasets_for,
    decision_label,
    memory_rows,
    roof_rows,
    rows_for,
    sampler_rows,
    shard_path,
    sig4,
    to_fixed,
)
from generator.charts import CHART_NAMES, build_spec, build_specs, data_urls
from generator.svg import check_vegalite_version, render_svg, spec_vegalite_version, vega_bundle

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data"
ARCHITECTURE_CHARTS = {"ladder", "gamma", "iteration", "roofline", "memory", "acceptance",
                       "closed_form", "decision", "sampler"}

# --- a tiny contract-shaped fixture -------------------------------------------------------
# Every array is built as an N-d NumPy array and flattened with ravel() (row-major), so the
# expected value of a cell is arr[i, j, ...]: an index mix-up in chart_rows reads another,
# distinguishable number.

AXES = {
    "batch": [1, 2, 4],
    "context": [512, 1024],
    "drafter": ["qwen3-0.6b", "qwen3-1.7b", "ngram"],
    "gamma": [1, 2, 3],
    "alpha": [0.5, 0.75],
    "acceptance": ["falling", "same"],
    "workload": ["closed-batch", "steady-state"],
}
GAMMA_CF = [1, 2, 3, 4]
STATE = {"batch": 2, "context": 1024, "drafter": "qwen3-1.7b", "gamma": 2, "alpha": 0.75,
         "acceptance": "falling", "workload": "closed-batch"}
IDX = {k: AXES[k].index(v) for k, v in STATE.items()}


def _grid(dims, offset, scale=1.0):
    shape = tuple(len(AXES[d]) if d != "gamma_cf" else len(GAMMA_CF) for d in dims)
    return offset + scale * np.arange(math.prod(shape), dtype=float).reshape(shape)


def _flat(arr):
    return [float(x) for x in arr.ravel()]


@pytest.fixture(scope="module")
def contract():
    """(manifest, core, shard, arrays) following ARCHITECTURE.md / generator.site_data."""
    bc, bcg, bcdg = ["batch", "context"], ["batch", "context", "gamma"], ["batch", "context", "drafter", "gamma"]
    arrays = {
        "verify_memory_time_s": _grid(bcg, 0.001, 1e-5),
        "verify_compute_time_s": _grid(bcg, 0.0001, 1e-6),
        "verify_arithmetic_intensity": _grid(bcg, 5.0, 3.0),
        "verify_attained_flops_per_s": _grid(bcg, 1e13, 1e12),
        "draft_memory_time_s": _grid(bcdg, 0.002, 1e-5),
        "draft_compute_time_s": _grid(bcdg, 0.0002, 1e-6),
        "plain_pass_memory_time_s": _grid(bc, 0.003, 1e-5),
        "plain_pass_compute_time_s": _grid(bc, 0.0003, 1e-6),
        "expected_tokens": _grid(["alpha", "gamma_cf"], 1.0, 0.1),
        "ceiling": _grid(["alpha"], 2.0, 2.0),
        # speedup runs 0.5 … 1.5 so both outcomes occur
        "speedup": _grid(bcdg, 0.5, 1.0 / 54),
        "best_gamma": np.array([[[1, 2, 3], [3, 2, 1]], [[2, 3, 1], [1, 3, 2]], [[3, 1, 2], [2, 1, 3]]]),
        "decision_drafter": np.array([[0, 1], [2, 0], [1, 2]]),
        "decision_gamma": np.array([[1, 2], [3, 1], [2, 3]]),
        "decision_speedup": np.array([[2.125, 1.5], [0.995, 1.0], [0.75, 3.0]]),
        # a checkerboard over batch × context × drafter, so a wrong index flips the answer
        "fits_in_memory": np.indices((len(AXES["batch"]), len(AXES["context"]), len(AXES["drafter"]))).sum(axis=0) % 2,
    }
    manifest = {
        "model_version": "test", "axes": AXES,
        "defaults": {**STATE, "batch": 1, "context": 512, "drafter": "qwen3-0.6b"},
        "labels": {"drafter": {"qwen3-0.6b": "Qwen3-0.6B", "qwen3-1.7b": "Qwen3-1.7B", "ngram": "n-gram"}},
        "shards": {"by": ["acceptance", "workload", "alpha"],
                   "pattern": "shards/{acceptance}-{workload}-a{alpha_index}.json",
                   "dims": ["batch", "context", "drafter", "gamma"]},
        "core": "core.json", "gpu_memory_bytes": 80_000_000_000, "output_tokens": 256, "target": "Qwen3-8B",
    }
    core = {
        "model_version": "test",
        "verify": {"dims": bcg, **{k: _flat(arrays[k]) for k in arrays if k.startswith("verify_")}},
        "draft": {"dims": bcdg, **{k: _flat(arrays[k]) for k in arrays if k.startswith("draft_")}},
        "plain": {"dims": ["batch", "context", "workload"], "plain_tokens_per_s": _flat(_grid(["batch", "context", "workload"], 100.0)),
                  "pass_dims": bc, **{k: _flat(arrays[k]) for k in arrays if k.startswith("plain_pass")}},
        "drafters": {"dims": ["drafter"], "draft_weight_bytes": [2**30, 3 * 2**29, 0],
                     "draft_kv_bytes_per_token": [114688, 2**17, 0],
                     "target_weight_bytes": 16_381_470_720, "target_kv_bytes_per_token": 147456},
        "closed_form": {"dims": ["alpha", "gamma_cf"], "gamma_cf": GAMMA_CF,
                        "expected_tokens": _flat(arrays["expected_tokens"]), "ceiling": _flat(arrays["ceiling"])},
        "roofline": {"peak_flops_per_s": 741_800_000_000_000, "peak_bytes_per_s": 2_680_000_000_000},
        "memory": {"dims": ["batch", "context", "drafter"],
                   "fits_in_memory": [int(x) for x in arrays["fits_in_memory"].ravel()]},
    }
    p = [0.9, 0.6, 0.3]
    shard = {
        "model_version": "test", "acceptance": "falling", "workload": "closed-batch", "alpha": 0.75,
        "dims": bcdg, "speedup": _flat(arrays["speedup"]),
        "by_gamma": {"per_position_acceptance": [p[:g] for g in AXES["gamma"]]},
        "best_gamma": {"dims": ["batch", "context", "drafter"], "gamma": [int(x) for x in arrays["best_gamma"].ravel()]},
        "decision": {"dims": bc, "drafter": [int(x) for x in arrays["decision_drafter"].ravel()],
                     "gamma": [int(x) for x in arrays["decision_gamma"].ravel()],
                     "speedup": _flat(arrays["decision_speedup"])},
    }
    return manifest, core, shard, arrays


def _rows(contract, chart, **changes):
    manifest, core, shard, _ = contract
    return rows_for(chart, {**STATE, **changes}, manifest, core, shard)


# --- rows_for on the fixture ------------------------------------------------------------


def test_ladder_rows_index_batch_at_state(contract):
    arrays = contract[3]
    rows = _rows(contract, "ladder")
    assert [r["batch"] for r in rows] == AXES["batch"]
    for ib, row in enumerate(rows):
        expected = arrays["speedup"][ib, IDX["context"], IDX["drafter"], IDX["gamma"]]
        assert row["speedup"] == expected
        assert row["outcome"] == ("faster" if expected > 1 else "slower")
        assert row["drafter"] == "qwen3-1.7b"
        assert row["current"] is (row["batch"] == STATE["batch"])
    assert {r["outcome"] for r in rows} == {"faster", "slower"}


def test_ladder_outcome_at_the_boundary(contract):
    manifest, core, shard, _ = contract
    edited = copy.deepcopy(shard)
    sizes = [len(AXES[d]) for d in ("batch", "context", "drafter", "gamma")]
    for ib, value in enumerate([0.95, 1.0, 1.001]):
        cell = np.ravel_multi_index((ib, IDX["context"], IDX["drafter"], IDX["gamma"]), sizes)
        edited["speedup"][cell] = value
    rows = rows_for("ladder", STATE, manifest, core, edited)
    assert [r["outcome"] for r in rows] == ["slower", "slower", "faster"]


def test_gamma_rows(contract):
    arrays = contract[3]
    rows = _rows(contract, "gamma", batch=4)
    assert rows == [
        {"gamma": g, "speedup": arrays["speedup"][2, IDX["context"], IDX["drafter"], ig], "current": g == 2}
        for ig, g in enumerate(AXES["gamma"])
    ]


def test_iteration_rows_are_milliseconds_at_state(contract):
    a = contract[3]
    b, c, d, g = IDX["batch"], IDX["context"], IDX["drafter"], IDX["gamma"]
    expected = {
        ("draft", "memory"): a["draft_memory_time_s"][b, c, d, g],
        ("draft", "arithmetic"): a["draft_compute_time_s"][b, c, d, g],
        ("verify", "memory"): a["verify_memory_time_s"][b, c, g],
        ("verify", "arithmetic"): a["verify_compute_time_s"][b, c, g],
        ("plain", "memory"): a["plain_pass_memory_time_s"][b, c],
        ("plain", "arithmetic"): a["plain_pass_compute_time_s"][b, c],
    }
    rows = _rows(contract, "iteration")
    assert [(r["phase"], r["part"]) for r in rows] == list(expected)
    for row in rows:
        assert row["time_ms"] == pytest.approx(expected[row["phase"], row["part"]] * 1000, rel=1e-3)
        assert row["time_ms"] == sig4(row["time_ms"])


def test_roofline_rows_and_roof(contract):
    a = contract[3]
    rows = _rows(contract, "roofline", gamma=3)
    for ib, row in enumerate(rows):
        assert row["arithmetic_intensity"] == a["verify_arithmetic_intensity"][ib, IDX["context"], 2]
        assert row["attained_flops_per_s"] == a["verify_attained_flops_per_s"][ib, IDX["context"], 2]
        assert row["current"] is (ib == IDX["batch"])
    roof = roof_rows(contract[1])
    peak_flops, peak_bytes = 741_800_000_000_000, 2_680_000_000_000
    xs = [r["arithmetic_intensity"] for r in roof]
    assert xs == sorted(xs) and len(roof) == 3
    assert xs[0] <= a["verify_arithmetic_intensity"].min() and xs[-1] >= a["verify_arithmetic_intensity"].max()
    assert xs[1] == sig4(peak_flops / peak_bytes)
    assert roof[0]["attainable_flops_per_s"] == sig4(xs[0] * peak_bytes)
    assert roof[1]["attainable_flops_per_s"] == roof[2]["attainable_flops_per_s"] == sig4(peak_flops)


def test_acceptance_rows_cut_at_best_gamma(contract):
    a = contract[3]
    # best γ at (batch 2, context 1024, qwen3-1.7b) is 3; speedup there decides whether it pays.
    best = a["best_gamma"][IDX["batch"], IDX["context"], IDX["drafter"]]
    assert best == 3
    pays_at_all = a["speedup"][IDX["batch"], IDX["context"], IDX["drafter"], best - 1] > 1
    rows = _rows(contract, "acceptance")
    assert [r["position"] for r in rows] == [1, 2, 3]
    assert [r["per_position_acceptance"] for r in rows] == [0.9, 0.6, 0.3]
    assert [r["pays"] for r in rows] == [j <= best and bool(pays_at_all) for j in (1, 2, 3)]
    # batch 1, context 512, qwen3-0.6b: best γ 1, speedup 0.5 there → nothing pays.
    low = _rows(contract, "acceptance", batch=1, context=512, drafter="qwen3-0.6b")
    assert [r["pays"] for r in low] == [False, False, False]
    # batch 4, context 1024, qwen3-0.6b: best γ 2, speedup > 1 → positions 1 and 2 pay.
    high = _rows(contract, "acceptance", batch=4, context=1024, drafter="qwen3-0.6b")
    assert a["best_gamma"][2, 1, 0] == 2 and a["speedup"][2, 1, 0, 1] > 1
    assert [r["pays"] for r in high] == [True, True, False]


def test_closed_form_rows(contract):
    manifest, core, shard, a = contract
    rows = rows_for("closed_form", {**STATE, "alpha": 0.5}, manifest, core, dict(shard, alpha=0.5))
    assert rows == [
        {"gamma": g, "expected_tokens": a["expected_tokens"][0, i], "ceiling": a["ceiling"][0]}
        for i, g in enumerate(GAMMA_CF)
    ]


def test_decision_rows(contract):
    a = contract[3]
    rows = _rows(contract, "decision")
    assert len(rows) == len(AXES["batch"]) * len(AXES["context"])
    for row in rows:
        ib, ic = AXES["batch"].index(row["batch"]), AXES["context"].index(row["context"])
        assert row["drafter"] == AXES["drafter"][a["decision_drafter"][ib, ic]]
        assert row["gamma"] == a["decision_gamma"][ib, ic]
        assert row["speedup"] == a["decision_speedup"][ib, ic]
        assert row["label"] == decision_label(row["gamma"], row["speedup"])
        assert row["fits"] == bool(a["fits_in_memory"][ib, ic, AXES["drafter"].index(row["drafter"])])
    assert {row["fits"] for row in rows} == {True, False}
    assert rows[0]["label"] == "γ1\n2.13×"  # 2.125 is an exact binary tie: JS toFixed rounds up


def test_memory_rows_convert_units(contract):
    manifest, core, _, _ = contract
    rows = memory_rows(manifest, core)
    assert rows == [
        {"model": "Qwen3-8B", "role": "target", "weight_gib": 15.26, "kv_kib_per_token": 144},
        {"model": "Qwen3-0.6B", "role": "drafter", "weight_gib": 1, "kv_kib_per_token": 112},
        {"model": "Qwen3-1.7B", "role": "drafter", "weight_gib": 1.5, "kv_kib_per_token": 128},
        {"model": "n-gram", "role": "drafter", "weight_gib": 0, "kv_kib_per_token": 0},
    ]
    assert _rows(contract, "memory") == rows


def test_sampler_rows_accept_rows_or_columns():
    columns = {"tokens": ["a", "b"], "target_probability": [0.7, 0.3], "draft_probability": [0.4, 0.6],
               "sampled_frequency": [0.69, 0.31]}
    expected = [
        {"token": "a", "target_probability": 0.7, "draft_probability": 0.4, "sampled_frequency": 0.69},
        {"token": "b", "target_probability": 0.3, "draft_probability": 0.6, "sampled_frequency": 0.31},
    ]
    assert sampler_rows(columns) == expected
    assert sampler_rows({"rows": [dict(r, extra=1) for r in expected]}) == expected


def test_rows_for_rejects_wrong_shard_and_bad_state(contract):
    manifest, core, shard, _ = contract
    with pytest.raises(ValueError, match="alpha"):
        rows_for("ladder", {**STATE, "alpha": 0.5}, manifest, core, shard)
    with pytest.raises(KeyError, match="state lacks"):
        rows_for("ladder", {k: v for k, v in STATE.items() if k != "workload"}, manifest, core, shard)
    with pytest.raises(KeyError, match="batch=3"):
        rows_for("ladder", {**STATE, "batch": 3}, manifest, core, shard)
    broken = copy.deepcopy(shard)
    broken["speedup"] = broken["speedup"][:-1]
    with pytest.raises(ValueError, match="speedup"):
        rows_for("gamma", STATE, manifest, core, broken)


def test_shard_path_and_datasets(contract):
    manifest, core, shard, _ = contract
    assert shard_path(manifest, STATE) == "shards/falling-closed-batch-a1.json"
    assert set(datasets_for("roofline", STATE, manifest, core, shard)) == {"table", "roof"}
    assert set(datasets_for("ladder", STATE, manifest, core, shard)) == {"table"}


def test_to_fixed_matches_javascript():
    samples = [2.125, 1.005, 0.885, 1.0, 0.995, 3.0, 12.345, 0.0001, 1.929, 0.65]
    assert [to_fixed(x, 2) for x in samples] == ["2.13", "1.00", "0.89", "1.00", "0.99", "3.00",
                                                 "12.35", "0.00", "1.93", "0.65"]
    node = shutil.which("node")
    if node:
        js = subprocess.run([node, "-e", f"console.log(JSON.stringify({json.dumps(samples)}.map(x => x.toFixed(2))))"],
                            capture_output=True, text=True, check=True)
        assert json.loads(js.stdout) == [to_fixed(x, 2) for x in samples]


# --- specs --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def specs():
    return build_specs()


def _walk(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,), value
            yield from _walk(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, path + (i,))


def test_every_architecture_chart_has_a_builder():
    assert set(CHART_NAMES) == ARCHITECTURE_CHARTS


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_spec_validates_against_the_vegalite_schema(specs, name):
    alt.TopLevelSpec.validate(specs[name])
    kind = {"hconcat": alt.HConcatChart, "layer": alt.LayerChart}
    cls = next((c for key, c in kind.items() if key in specs[name]), alt.Chart)
    assert cls.from_dict(specs[name]).to_dict() == specs[name]


def test_schema_validation_can_fail(specs):
    broken = copy.deepcopy(specs["gamma"])
    broken["layer"][1]["mark"]["type"] = "not-a-mark"
    with pytest.raises(Exception):
        alt.TopLevelSpec.validate(broken)


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_spec_data_is_by_url_and_compiles_to_named_datasets(specs, name):
    spec = specs[name]
    urls = {value["name"]: value["url"] for path, value in _walk(spec)
            if path[-1] == "data" and isinstance(value, dict)}
    assert urls == data_urls(name)
    assert urls["table"] == f"charts/data/{name}.json"
    assert not any(path[-1] == "values" for path, _ in _walk(spec)), "published specs never inline rows"
    vega = vlc.vegalite_to_vega(spec)
    sources = {d["name"]: d.get("url") for d in vega["data"] if "source" not in d}
    assert sources == urls, "the page swaps rows with view.data('table', …): the name must survive compilation"


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_spec_has_title_description_font_and_no_theme_colours(specs, name):
    spec = specs[name]
    assert spec["title"]["text"]
    assert spec["description"].endswith(".") and spec["usermeta"]["description"] == spec["description"]
    assert "system-ui" in spec["config"]["font"]
    theme_colours = [path for path, _ in _walk(spec["config"]) if re.search(r"(?i)colou?r|fill|stroke|background", str(path[-1]))]
    assert theme_colours == []
    if "hconcat" not in spec:
        assert spec["width"] == "container"
    # Every drawn continuous axis carries a title (units are in the titles, e.g. "time (ms)").
    vega = vlc.vegalite_to_vega(spec)
    scales = {sc["name"]: sc.get("type", "linear") for path, value in _walk(vega) if path[-1] == "scales"
              for sc in value}
    axes = [axis for path, value in _walk(vega) if path[-1] == "axes" for axis in value
            if axis.get("labels", True) is not False and scales[axis["scale"]] in ("linear", "log")]
    assert (axes or name == "decision") and all(axis.get("title") for axis in axes), axes


def test_roofline_axes_are_log_log(specs):
    scales = [value["scale"]["type"] for path, value in _walk(specs["roofline"])
              if path[-1] in ("x", "y") and isinstance(value, dict) and "scale" in value]
    assert scales and set(scales) == {"log"}


def test_decision_legend_uses_manifest_labels():
    spec = build_spec("decision", {"qwen3-0.6b": "Small", "ngram": "Lookup"})
    text = json.dumps(spec)
    assert "'Small'" in text and "'Lookup'" in text
    with pytest.raises(KeyError):
        build_spec("nope")


# --- SVG and bundle -------------------------------------------------------------------------

SAMPLER = {"tokens": ["the", "a", "cat"], "target_probability": [0.5, 0.3, 0.2],
           "draft_probability": [0.6, 0.2, 0.2], "sampled_frequency": [0.49, 0.31, 0.2]}


def _datasets(contract, name):
    manifest, core, shard, _ = contract
    return datasets_for(name, STATE, manifest, core, shard, SAMPLER)


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_render_svg_is_labelled_deterministic_and_leaves_spec_alone(specs, contract, name):
    spec = specs[name]
    before = json.dumps(spec, sort_keys=True)
    datasets = _datasets(contract, name)
    svg = render_svg(spec, datasets)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<title>" in svg[:2000] and 'aria-label="' in svg[: svg.find(">")]
    assert len(re.findall(r'role="graphics-symbol"', svg)) >= 1, "no data marks drawn"
    assert render_svg(spec, datasets) == svg
    assert json.dumps(spec, sort_keys=True) == before


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_render_fits_a_phone(specs, contract, name):
    # width=None keeps "container": vl-convert then lays out for a 300 px container.
    svg = render_svg(specs[name], _datasets(contract, name), width=None)
    width = float(re.search(r'<svg[^>]* width="([0-9.]+)"', svg).group(1))
    assert width <= 343, f"{name} is {width} px wide: too wide for a 375 px screen"


def test_render_svg_draws_the_given_rows(specs, contract):
    datasets = _datasets(contract, "ladder")
    one = render_svg(specs["ladder"], datasets)
    datasets["table"][0]["speedup"] = 1.4321
    assert render_svg(specs["ladder"], datasets) != one
    with pytest.raises(KeyError, match="roof"):
        render_svg(specs["roofline"], {"table": _datasets(contract, "roofline")["table"]})


def test_version_check(specs):
    assert spec_vegalite_version(specs["ladder"]) == ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    check_vegalite_version(specs["ladder"])
    old = dict(specs["ladder"], **{"$schema": "https://vega.github.io/schema/vega-lite/v5.20.1.json"})
    with pytest.raises(ValueError, match="v5.20"):
        check_vegalite_version(old)
    with pytest.raises(ValueError, match="v5.20"):
        render_svg(old, {"table": []})


def test_vega_bundle_sets_globals():
    bundle = vega_bundle()
    assert len(bundle) > 100_000
    for name in ("vegaEmbed", "vegaLite", "vega"):
        assert name in bundle


# --- the real data, once the generator has written it -----------------------------------

real = pytest.mark.skipif(not (DATA / "manifest.json").exists(), reason="docs/data not built yet")


@real
def test_rows_for_on_the_generated_data():
    manifest = json.loads((DATA / "manifest.json").read_text())
    core = json.loads((DATA / manifest["core"]).read_text())
    state = dict(manifest["defaults"])
    shard = json.loads((DATA / shard_path(manifest, state)).read_text())
    sizes = [len(manifest["axes"][d]) for d in manifest["shards"]["dims"]]
    speedup = np.array(shard["speedup"]).reshape(sizes)
    pos = {d: manifest["axes"][d].index(state[d]) for d in manifest["shards"]["dims"]}
    ladder = rows_for("ladder", state, manifest, core, shard)
    assert [r["speedup"] for r in ladder] == list(speedup[:, pos["context"], pos["drafter"], pos["gamma"]])
    expected_counts = {"ladder": 11, "gamma": 10, "iteration": 6, "roofline": 11, "memory": 4,
                       "acceptance": 10, "closed_form": 20, "decision": 77}
    for name, count in expected_counts.items():
        assert len(rows_for(name, state, manifest, core, shard)) == count, name
    sampler_file = DATA / "sampler.json"
    if sampler_file.exists():
        assert sampler_rows(json.loads(sampler_file.read_text()))
