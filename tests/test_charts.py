"""Chart specs (Altair → Vega-Lite), their rows (the declarations, read by chart_rows) and static
SVG renders (svg)."""

from __future__ import annotations

import copy
import json
import re

import altair as alt
import numpy as np
import pytest
import vl_convert as vlc

from generator.build import chart_context
from generator.chart_rows import cell_text, chart_datasets, rows
from generator.charts import CHART_NAMES, CHARTS, build_spec, data_urls, datasets
from generator.charts.common import duration_text, finish, formatted, label_expr
from generator.formats import FORMATS, format_value
from generator.sampler_demo import run_sampler_demo
from generator.svg import check_vegalite_version, fills_width, render_svg, spec_vegalite_version, vega_bundle
from specmodel import FIELDS, evaluate
from generator.axes import BREAKDOWN_MODELS, site_state, site_typical_acceptance
from generator.evidence import figure_rows
from generator.moe import moe_story
from specmodel import default_catalog
from paths import ROOT
from specmodel.breakdown import STEP_PARTS, iteration_breakdown, plain_step_breakdown

ARCHITECTURE_CHARTS = {"ladder", "throughput", "gamma", "iteration", "breakdown", "validation", "shares", "roofline",
                       "memory", "moe", "acceptance", "closed_form", "decision", "sampler"}
STATE = {"gpu": "h100-sxm", "target": "qwen3-8b", "tp": 1, "cost_model": "whole-pass", "batch": 64, "context": 8192, "drafter": "qwen3-1.7b", "gamma": 3,
         "alpha": 0.6, "acceptance": "falling", "workload": "steady-state"}


_STATIC = {}


def _static():
    if not _STATIC:
        _STATIC.update({"sampler": run_sampler_demo().rows, **figure_rows(default_catalog(), BREAKDOWN_MODELS),
                        "moe": moe_story(default_catalog()).rows})
    return _STATIC


def _rows(site, chart, state=STATE):
    return chart_datasets(chart, state, site, static_rows=_static())


def _evaluate(**changes):
    return evaluate(site_state(**{**STATE, **changes}))


# --- rows at a state, against the model ------------------------------------------------------


def test_ladder_rows_walk_batch_at_the_state(site):
    table = _rows(site, "ladder")["table"]
    assert [r["batch"] for r in table] == list(FIELDS["batch"].grid)
    for row in table:
        assert row["speedup"] == pytest.approx(_evaluate(batch=row["batch"]).speedup, rel=5e-4)
        assert row["current"] is (row["batch"] == STATE["batch"])


def test_gamma_rows(site):
    table = _rows(site, "gamma")["table"]
    assert [r["gamma"] for r in table] == list(FIELDS["gamma"].grid)
    assert [r["current"] for r in table] == [g == STATE["gamma"] for g in FIELDS["gamma"].grid]
    for row in table:
        assert row["speedup"] == pytest.approx(_evaluate(gamma=row["gamma"]).speedup, rel=5e-4)


def test_iteration_rows_are_seconds_at_state(site):
    table = _rows(site, "iteration")["table"]
    assert [(r["phase"], r["part"]) for r in table] == [(p, q) for p in ("draft", "verify", "plain")
                                                        for q in ("memory", "arithmetic")]
    r = _evaluate()
    verify = {row["part"]: row["time_s"] for row in table if row["phase"] == "verify"}
    assert verify["memory"] == pytest.approx(r.verify_memory_time_s, rel=5e-4)
    assert verify["arithmetic"] == pytest.approx(r.verify_compute_time_s, rel=5e-4)


def test_roofline_rows_and_roof(site):
    found = _rows(site, "roofline")
    table, roof = found["table"], found["roof"]
    for row in table:
        r = _evaluate(batch=row["batch"])
        assert row["arithmetic_intensity"] == pytest.approx(r.verify_flops / r.verify_bytes, rel=5e-4)
        assert row["current"] is (row["batch"] == STATE["batch"])
    xs = [p["arithmetic_intensity"] for p in roof]
    assert xs == sorted(xs) and len(roof) == 3
    assert xs[0] <= min(r["arithmetic_intensity"] for r in table) and xs[-1] >= max(r["arithmetic_intensity"] for r in table)
    assert roof[1]["attainable_flops_per_s"] == roof[2]["attainable_flops_per_s"]  # the flat part of the roof
    assert roof[0]["attainable_flops_per_s"] < roof[1]["attainable_flops_per_s"]


def test_acceptance_rows_cut_at_the_best_paying_gamma(site):
    table = _rows(site, "acceptance")["table"]
    assert [r["position"] for r in table] == list(range(1, 11))
    r = _evaluate(gamma=10)
    assert [row["per_position_acceptance"] for row in table] == pytest.approx(r.per_position_acceptance, rel=5e-4)
    speedups = {g: _evaluate(gamma=g).speedup for g in FIELDS["gamma"].grid}
    best = max(speedups, key=speedups.get)
    assert {row["paying_positions"] for row in table} == {best if speedups[best] > 1 else 0}


def test_closed_form_rows(site):
    table = _rows(site, "closed_form")["table"]
    assert [r["gamma"] for r in table] == list(range(1, 21))
    alpha = STATE["alpha"]
    for row in table:
        assert row["expected_tokens"] == pytest.approx((1 - alpha ** (row["gamma"] + 1)) / (1 - alpha), rel=5e-4)
        assert row["ceiling"] == pytest.approx(1 / (1 - alpha), rel=5e-4)


def test_ladder_marks_the_other_cost_model(site):
    table = _rows(site, "ladder", {**STATE, "cost_model": "calibrated"})["table"]
    for row in table:
        assert row["other"] == "whole-pass"
        assert row["other_speedup"] == pytest.approx(_evaluate(batch=row["batch"]).speedup, rel=5e-4)
        assert row["speedup"] == pytest.approx(_evaluate(batch=row["batch"], cost_model="calibrated").speedup, rel=5e-4)
        assert row["fits"] == int(_evaluate(batch=row["batch"]).fits_in_memory)


def test_throughput_shows_measurements_only_near_their_context(site):
    at_512 = _rows(site, "throughput", {**STATE, "context": 512})["measured"]
    at_2048 = _rows(site, "throughput", {**STATE, "context": 2048})["measured"]
    assert all(r["tokens_per_s"] is None for r in at_2048)
    measured = [r for r in at_512 if r["tokens_per_s"] is not None]
    # GPUStack at 1, 2, 4 and 8 sequences; silybench at 1 to 256 (measurements-calibration.csv)
    assert {(r["study"], r["batch"]) for r in measured} >= {("GPUStack", 1), ("GPUStack", 8), ("silybench", 256)}
    gpustack_1 = next(r for r in measured if r["study"] == "GPUStack" and r["batch"] == 1)
    assert gpustack_1["tokens_per_s"] == pytest.approx(1 / 7.28e-3, rel=1e-3)  # row 102: mean TPOT 7.28 ms
    assert gpustack_1["measured_context"] == pytest.approx(232.6 + 220.6 / 2, abs=1)


def test_breakdown_rows_are_specmodels_step_parts(site):
    table = _rows(site, "breakdown")["table"]
    assert [(r["model"], r["step"]) for r in table] == [(m, k) for m in BREAKDOWN_MODELS for k in ("iteration", "plain")]
    catalog = site.catalog
    target, gpu = catalog.targets["qwen3-8b"], catalog.gpus["h100-sxm"]
    context = STATE["context"] + 128  # the middle of the run: P + G/2
    for row in table:
        cost = catalog.cost_model(row["model"], "vllm")
        parts = (iteration_breakdown(cost, catalog.drafters[STATE["drafter"]], target, gpu, STATE["batch"], context,
                                     STATE["gamma"]) if row["step"] == "iteration"
                 else plain_step_breakdown(cost, target, gpu, STATE["batch"], context))
        for part in STEP_PARTS:
            assert row[part] == pytest.approx(float(parts[part]), rel=5e-4, abs=1e-12)
        assert row["total_s"] == pytest.approx(sum(float(v) for v in parts.values()), rel=5e-4)


def test_validation_rows_carry_measurement_and_every_model():
    rows_ = figure_rows(default_catalog(), BREAKDOWN_MODELS)
    step = {r["row"]: r for r in rows_["validation"]}
    assert step[102]["measured"] == pytest.approx(7.28) and step[102]["study"] == "GPUStack"
    assert step[102]["calibrated"] == pytest.approx(7.27, abs=0.01)  # specmodel validate: 7.27 ms
    assert all(set(BREAKDOWN_MODELS) <= set(r) for r in step.values())
    assert all(r["source"] and r["fitted"] in (True, False) for r in step.values())
    shares = {r["row"]: r for r in rows_["shares"]}
    assert shares[92]["measured"] == 47 and shares[92]["measured_verification"] == 42
    assert shares[92]["read_off_plot"] is True


def test_decision_rows_take_each_drafter_at_its_typical_acceptance(site):
    table = _rows(site, "decision")["table"]
    assert len(table) == len(site.axes["task"]) * len(FIELDS["batch"].grid) * len(FIELDS["context"].grid)
    typical = site_typical_acceptance(site.catalog)
    assert typical["ngram"]["code-editing"] == (0.6, "falling") and typical["ngram"]["chat"] == (0.3, "falling")
    for row in table[::7]:
        candidates = [(d, g) for d in site.axes["drafter"] for g in FIELDS["gamma"].grid]

        def speedup(dg, row=row):
            alpha, shape = typical[dg[0]][row["task"]]
            return site.value("speedup", {**STATE, "batch": row["batch"], "context": row["context"], "drafter": dg[0],
                                          "gamma": dg[1], "alpha": alpha, "acceptance": shape})
        assert (row["drafter"], row["gamma"]) == max(candidates, key=speedup)
        assert (row["alpha"], row["acceptance"]) == typical[row["drafter"]][row["task"]]
        fits = _evaluate(batch=row["batch"], context=row["context"], drafter=row["drafter"]).fits_in_memory
        assert row["fits"] == int(fits)
        assert row["current"] is (row["batch"] == STATE["batch"] and row["context"] == STATE["context"])
    assert {row["fits"] for row in table} == {0, 1}
    # the map does not follow the state's α: each drafter keeps its own
    assert _rows(site, "decision", {**STATE, "alpha": 0.2})["table"] == table


def test_memory_rows_name_each_model(site):
    table = _rows(site, "memory")["table"]
    assert [r["role"] for r in table] == ["target"] + ["drafter"] * len(site.axes["drafter"])
    assert table[0]["model"] == "Qwen3-8B" and table[0]["weight_bytes"] == _evaluate().target_weight_bytes
    assert [r["kv_bytes_per_token"] for r in table[1:]] == [site.catalog.drafter(d, "qwen3-8b").kv_bytes_per_token
                                                            for d in site.axes["drafter"]]


def test_a_row_value_of_an_unknown_kind_is_refused(site):
    with pytest.raises(ValueError, match="unknown row value"):
        rows([{"walk": [], "rows": [{"x": {"nope": 1}}]}], STATE, site)


def test_static_charts_need_their_rows(site):
    with pytest.raises(ValueError, match="static"):
        chart_datasets("sampler", STATE, site)


def test_table_cells_use_the_columns_format():
    assert cell_text(0.8854, "times") == "0.89×" and cell_text(1024, "int") == "1,024"
    assert cell_text(True, "yes") == "yes" and cell_text("ngram", None) == "ngram"
    assert cell_text(16_702_334_976, "gb2") == format_value("gb2", 16_702_334_976) == "16.70\u00a0GB"


# The words by which a caption names each of the simulation's settings, and another value of
# each on the site's grid.
SETTING_WORDS = {"batch": "batch", "context": "context", "drafter": "drafter", "gamma": "γ", "alpha": "α",
                 "acceptance": "acceptance shape", "workload": "workload", "cost_model": "cost model"}
OTHER_VALUES = {"batch": [1, 256], "context": [512, 2048], "drafter": ["ngram", "qwen3-0.6b"], "gamma": [1, 7],
                "alpha": [0.45, 0.9], "acceptance": ["same", "rising"], "workload": ["closed-batch"],
                "cost_model": ["calibrated"]}


# A caption that says it follows every setting names none of them.
EVERY_SETTING = ("the current settings", "the simulation's settings")
LIVE_CHARTS = [name for name in CHART_NAMES
               if CHARTS[name].ROWS is not None and getattr(CHARTS[name], "FOLLOWS_STATE", True)]


@pytest.fixture(scope="module")
def other_sites():
    """The site's numbers for another GPU (H200) and for another target (Qwen3-14B), by the
    setting changed: what follows each."""
    from generator.axes import configurations
    from generator.site_model import SiteModel

    catalog = default_catalog()
    at = lambda gpu, target: SiteModel(catalog, next(c for c in configurations(catalog) if (c.gpu, c.target) == (gpu, target)))
    return {"gpu": at("h200", "qwen3-8b"), "target": at("h100-sxm", "qwen3-14b")}


@pytest.mark.parametrize("chart", LIVE_CHARTS)
def test_a_caption_names_every_setting_its_chart_follows(site, other_sites, rendered_pages, chart):
    """Found by cold reads: the ladder's and the γ chart's captions listed the settings they
    follow and left out the acceptance shape, which moves both; the decision map followed the
    simulation's GPU and target, and its caption said nothing of it, under a table of another
    target's acceptance. The settings a chart follows are those whose change changes its rows
    (besides the axes it walks), at a few states and on another GPU and target."""
    [caption] = re.findall(rf'id="figure-{chart}".*?<figcaption>(.*?)</figcaption>', rendered_pages["index.md"],
                           flags=re.S)
    walked = {d for blocks in CHARTS[chart].ROWS.values() for block in blocks for d in block["walk"]}
    followed = set()
    for base in (STATE, {**STATE, "batch": 1, "cost_model": "calibrated", "workload": "closed-batch", "gamma": 4}):
        before = _rows(site, chart, base)
        followed |= {key for key, values in OTHER_VALUES.items() for value in values
                     if key not in walked and value != base[key] and _rows(site, chart, {**base, key: value}) != before}
    # the other configurations have the calibrated model and the closed batch only
    calibrated = {**STATE, "cost_model": "calibrated", "workload": "closed-batch"}
    for key, other in other_sites.items():
        config = other.config
        if _rows(other, chart, {**calibrated, "gpu": config.gpu, "target": config.target, "tp": config.tp}) != _rows(site, chart, calibrated):
            followed.add(key)
    words = {**SETTING_WORDS, "gpu": "GPU", "target": "target"}
    if chart in ("ladder", "gamma", "breakdown", "decision"):  # (the check checks something)
        assert {"gpu", "target"} <= followed and len(followed) >= 4, followed
    if not any(phrase in caption for phrase in EVERY_SETTING):
        assert [words[key] for key in sorted(followed) if words[key] not in caption] == [], caption


# --- specs --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def specs(site):
    context = chart_context(site)
    return {name: build_spec(name, context) for name in CHART_NAMES}


def _walk(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,), value
            yield from _walk(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, path + (i,))


def test_every_architecture_chart_has_a_module():
    assert set(CHART_NAMES) == ARCHITECTURE_CHARTS
    for name, module in CHARTS.items():
        assert module.DESCRIPTION.endswith(".") and module.COLUMNS, name


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_spec_validates_against_the_vegalite_schema(specs, name):
    alt.TopLevelSpec.validate(specs[name])
    kind = {"hconcat": alt.HConcatChart, "layer": alt.LayerChart, "facet": alt.FacetChart}
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
    assert not any(path[-2:] == ("data", "values") for path, _ in _walk(spec)), "published specs never inline rows"
    vega = vlc.vegalite_to_vega(spec)
    sources = {d["name"]: d.get("url") for d in vega["data"] if "source" not in d}
    assert sources == urls, "the page swaps rows with view.data(name, …): the names must survive compilation"


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_spec_has_title_description_font_and_no_theme_colours(specs, name):
    spec = specs[name]
    assert spec["title"]["text"]
    assert spec["description"].endswith(".") and spec["usermeta"]["description"] == spec["description"]
    assert "system-ui" in spec["config"]["font"]
    theme_colours = [path for path, _ in _walk(spec["config"]) if re.search(r"(?i)colou?r|fill|stroke|background", str(path[-1]))]
    assert theme_colours == []
    if "hconcat" not in spec and "facet" not in spec:
        assert spec["width"] == "container"
    # Every drawn continuous axis carries a title (units are in the titles, e.g. "time (ms)").
    vega = vlc.vegalite_to_vega(spec)
    scales = {sc["name"]: sc.get("type", "linear") for path, value in _walk(vega) if path[-1] == "scales"
              for sc in value}
    axes = [axis for path, value in _walk(vega) if path[-1] == "axes" for axis in value
            if axis.get("labels", True) is not False and scales[axis["scale"]] in ("linear", "log")]
    assert (axes or name == "decision") and all(axis.get("title") for axis in axes), axes


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_titles_count_tokens_and_sequences_in_whole_numbers(specs, name):
    """Found once: a subtitle spoke of "342.9 to 8,448.0 tokens of context" (the measurements'
    mean contexts, unrounded)."""
    texts = [value for path, value in _walk(specs[name]) if path and path[-1] in ("text", "subtitle", "title")
             for value in (value if isinstance(value, list) else [value]) if isinstance(value, str)]
    assert texts
    assert [t for t in texts if re.search(r"\d\.\d+\s*(tokens|sequences)", t)] == []


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_every_tooltip_line_has_a_title(specs, name):
    # Vega-Lite shows an untitled field by its raw key, and the mark's description as ": value".
    tips = [tip for path, value in _walk(specs[name]) if path[-1] == "tooltip" and isinstance(value, list)
            for tip in value]
    assert tips and all(str(tip.get("title", "")).strip() for tip in tips), tips
    # the other cost model: its value and its name on one line, not "which is: ideal roofline"
    assert not [tip for tip in tips if tip["title"] in ("which is", "which")]


def test_tooltip_without_a_title_is_refused():
    chart = alt.Chart(alt.Data(values=[{"a": 1}])).mark_point().encode(x="a:Q", tooltip=[alt.Tooltip("a:Q", title="")])
    with pytest.raises(ValueError, match="no title"):
        finish(chart, "x", "A test.")


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_tooltips_never_show_raw_booleans_or_unrounded_floats(specs, name):
    # Tooltips speak the reader's language: a formatted text field, or a quantitative one with a format.
    for path, value in _walk(specs[name]):
        if path[-1] == "tooltip" and isinstance(value, list):
            for tip in value:
                assert tip.get("type") != "nominal" or tip["field"] not in ("current", "fits", "pays"), tip
                if tip.get("type") == "quantitative" and tip["field"] not in ("gamma", "batch", "context", "position",
                                                                                  "row"):
                    assert tip.get("format"), f"{name}: {tip} shows an unrounded float"


def test_roofline_axes_are_log_log(specs):
    scales = [value["scale"]["type"] for path, value in _walk(specs["roofline"])
              if path[-1] in ("x", "y") and isinstance(value, dict) and "scale" in value]
    assert scales and set(scales) == {"log"}


def test_decision_legend_uses_the_catalogs_labels_and_colours(site):
    context = {"labels": {**site.labels, "drafter": {"qwen3-0.6b": "Small", "ngram": "Lookup"}},
               "colours": {"drafter": {"qwen3-0.6b": "#123456", "ngram": "#654321"}}, "gpu_memory": "80 GB"}
    text = json.dumps(build_spec("decision", context))
    assert "'Small'" in text and "'Lookup'" in text and "#123456" in text
    with pytest.raises(KeyError):
        build_spec("nope", context)


# --- SVG and bundle -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_render_svg_is_labelled_deterministic_and_leaves_spec_alone(specs, site, name):
    spec = specs[name]
    before = json.dumps(spec, sort_keys=True)
    found = _rows(site, name)
    assert set(found) == set(datasets(name))
    svg = render_svg(spec, found)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<title>" in svg[:2000] and 'aria-label="' in svg[: svg.find(">")]
    assert len(re.findall(r'role="graphics-symbol"', svg)) >= 1, "no data marks drawn"
    assert render_svg(spec, found) == svg
    assert json.dumps(spec, sort_keys=True) == before


def _contrast_on_white(colour: str) -> float:
    rgb = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)] if len(colour) == 7 else [
        int(c * 2, 16) / 255 for c in colour.lstrip("#")]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 1.05 / (0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2] + 0.05)


def test_the_static_pictures_text_reads_on_white():
    # Found once on the live page: values in their series' colour at 3.1–3.8:1. The pictures
    # shown before the script (and without it) are on white: every text 4.5:1 or more.
    texts = 0
    for picture in sorted((ROOT / "docs" / "charts").glob("*.svg")):
        for fill in re.findall(r'<text\b[^>]*\bfill="(#[0-9A-Fa-f]{3,6})"', picture.read_text()):
            texts += 1
            if fill.lower() != "#ffffff":  # the decision map's cells, held to their fills elsewhere
                assert _contrast_on_white(fill) >= 4.5, (picture.name, fill)
    assert texts > 100


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_render_fits_a_phone(specs, site, name):
    # width=None keeps "container": vl-convert then lays out for a 300 px container.
    svg = render_svg(specs[name], _rows(site, name), width=None)
    width = float(re.search(r'<svg[^>]* width="([0-9.]+)"', svg).group(1))
    assert width <= 343, f"{name} is {width} px wide: too wide for a 375 px screen"


def test_fills_width_finds_a_container_width_in_any_view(specs):
    # the page boxes such a chart's picture to its drawn height (spec.css): a wrong answer moves text
    assert fills_width(specs["ladder"]) and fills_width(specs["breakdown"])
    assert not fills_width(specs["decision"]) and not fills_width(specs["memory"])
    assert fills_width({"vconcat": [{"width": 300}, {"layer": [{"width": "container"}]}]})
    assert not fills_width({"width": 300, "config": {"view": {"width": "container"}}})


def test_render_svg_draws_the_given_rows(specs, site):
    found = _rows(site, "ladder")
    one = render_svg(specs["ladder"], found)
    found["table"][0]["speedup"] = 1.4321
    assert render_svg(specs["ladder"], found) != one
    with pytest.raises(KeyError, match="roof"):
        render_svg(specs["roofline"], {"table": _rows(site, "roofline")["table"]})


def test_version_check(specs):
    assert spec_vegalite_version(specs["ladder"]) == ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    check_vegalite_version(specs["ladder"])
    old = dict(specs["ladder"], **{"$schema": "https://vega.github.io/schema/vega-lite/v5.20.1.json"})
    with pytest.raises(ValueError, match="v5.20"):
        check_vegalite_version(old)
    with pytest.raises(ValueError, match="v5.20"):
        render_svg(old, {"table": []})


def test_vega_bundle_is_vega_alone_with_what_the_page_uses():
    """views/charts.js builds views from window.vega; the bundle carries neither the Vega-Lite
    compiler (the specs are compiled at build time) nor vega-embed."""
    bundle = vega_bundle()
    assert 300_000 < len(bundle) < 700_000
    tail = bundle[bundle.rindex("window.vega="):]
    name = r"[\w$]+"  # a minified identifier
    assert re.fullmatch(rf"window\.vega=\{{parse:{name},View:{name},loader:{name},expressionInterpreter:{name},"
                        rf"TooltipHandler:{name}\}};\s*", tail), tail
    assert "vegaEmbed" not in bundle and "vega-embed" not in bundle


def test_moe_rows_are_specmodels_speedups_and_expert_counts():
    from specmodel import State

    from generator.axes import nearest_on_axis

    rows = moe_story(default_catalog()).rows
    catalog = default_catalog()
    for row in rows[:: max(1, len(rows) // 9)]:
        # the head's measured α, on the simulation's grid
        alpha = nearest_on_axis(FIELDS["alpha"].grid, catalog.typical_acceptance["eagle3"][row["target"]]["chat"].alpha)
        r = evaluate(State(gpu="h100-sxm", target=row["target"], tp=row["tp"], drafter="eagle3", gamma=2,
                           alpha=alpha, batch=row["batch"], context=2048))
        assert row["speedup"] == pytest.approx(r.speedup, rel=1e-12)
        if row["moe"]:
            arch = catalog.targets[row["target"]]
            assert row["experts_verify"] == pytest.approx(float(arch.expected_experts_touched(3 * row["batch"])))
    assert {r["target"] for r in rows} == {"qwen3-30b-a3b", "qwen3-32b", "qwen3-8b"}


def test_label_expr_reads_inside_a_concatenation():
    # "'70%, ' + k === 'falling' ? …" compared the whole string with the key: the raw key showed.
    chart = alt.Chart(alt.Data(values=[{"k": "falling"}])).transform_calculate(
        shown="'α ' + " + label_expr({"falling": "falling with position"}, "datum.k") + " + '.'").mark_text().encode(
        text="shown:N")
    svg = vlc.vegalite_to_svg(chart.to_dict())
    assert "α falling with position." in svg


@pytest.mark.parametrize("name", sorted(ARCHITECTURE_CHARTS))
def test_no_invisible_marks_stretch_an_axis(specs, name):
    # An invisible mark past the data to make room for labels stretches the axis beyond the data
    # (the breakdown ran to 34 ms for a 16.8 ms bar); room is made in pixels (the scale's rangeMax).
    # An invisible hit area that spans the plot (a ladder rung's column: y by value, in pixels)
    # stretches nothing: only one placed on a quantitative scale can.
    def at(path):
        node = specs[name]
        for key in path:
            node = node[key]
        return node

    def on_a_scale(layer):
        return any(isinstance(enc, dict) and enc.get("type") == "quantitative" and "field" in enc
                   for channel, enc in layer.get("encoding", {}).items() if channel in ("x", "y", "x2", "y2"))

    hidden = [path for path, value in _walk(specs[name]) if path[-1] == "mark" and isinstance(value, dict)
              and value.get("opacity") == 0 and on_a_scale(at(path[:-1]))]
    assert hidden == []


@pytest.mark.parametrize("figure", ["validation", "shares"])
def test_the_measured_figures_say_what_their_points_were_measured_on(specs, rendered_pages, figure):
    """Found by a cold read: the step-time figure named neither the model nor the contexts its
    points were taken at (343 and 640 tokens, one point at 8,448), where the essay works at 2,048
    tokens everywhere else; the shares figure left the target unnamed. Subtitle and caption name
    the model and GPU of the measurements; the step-time caption every context."""
    from specmodel.calibration.measurements import POINTS

    catalog = default_catalog()
    rows = figure_rows(catalog, BREAKDOWN_MODELS)[figure]
    points = [POINTS[str(r["row"])] for r in rows]
    [where] = {f"{catalog.targets[p.target].label} on one {catalog.gpus[p.gpu].label}" for p in points}
    assert " ".join(specs[figure]["title"]["subtitle"]).startswith(where + ". " if figure == "validation" else where)
    [caption] = re.findall(rf'id="figure-{figure}".*?<figcaption>(.*?)</figcaption>', rendered_pages["index.md"],
                           flags=re.S)
    caption = caption.replace("\u00a0", " ")  # (the typography's no-break space in "H100 SXM")
    assert f"by batch size for {where}" in caption, caption
    if figure == "validation":
        contexts = {r["context"] for r in rows}
        assert len(contexts) > 1
        assert [c for c in contexts if f" {c:,}" not in caption] == [], caption
        # the contexts of fewer points say which batches
        for context in contexts:
            batches = sorted(r["batch"] for r in rows if r["context"] == context)
            if len(batches) == 1:
                assert f"{context:,} for its point at batch {batches[0]}" in caption, caption


def test_the_breakdown_says_its_ratio_differs_from_the_readout_in_a_closed_batch_only(specs):
    """Found by a cold read: the subtitle said the readout differs "as a closed batch drains" at
    every state, where in steady state the figure's per-token ratio is the readout."""
    subtitle = " ".join(specs["breakdown"]["title"]["subtitle"])
    assert "A closed batch's speedup readout averages the run as it drains, so it can differ." in subtitle


def test_every_drafter_of_the_shares_chart_has_the_dash_its_subtitle_names(site):
    from generator.charts.shares import DASHES

    drafters = {row["drafter"] for row in _rows(site, "shares")["table"]}
    assert drafters and drafters <= set(DASHES), drafters


def test_a_static_picture_names_only_fonts_of_the_widths_it_was_laid_out_in(built):
    """vl-convert lays a picture out by Liberation Sans's widths; a picture naming the page's
    system-ui stack was drawn in DejaVu Sans on Debian, 17% wider, and the memory chart's second
    panel title ran past the picture's edge ("KV cache per toke"). Every picture names only
    Liberation Sans and the fonts that share its widths."""
    from generator.svg import STATIC_FONT

    files, _ = built
    pictures = {name: text.decode() for name, text in files.items() if name.startswith("charts/") and name.endswith(".svg")}
    assert len(pictures) >= 10
    for name, svg in pictures.items():
        families = set(re.findall(r'font-family="([^"]*)"', svg))
        assert families == {STATIC_FONT.replace("'", "&apos;")} or families == {STATIC_FONT}, (name, families)
    # and vl-convert does measure that stack as Liberation Sans, not as a wider fallback
    def width(font):
        spec = {"data": {"values": [{}]}, "mark": {"type": "text", "text": "KV cache per token " * 3, "font": font,
                "fontSize": 14, "fontWeight": "bold"}, "config": {"view": {"stroke": None}}}
        return float(re.search(r'width="([0-9.]+)"', vlc.vegalite_to_svg(spec))[1])

    assert width(STATIC_FONT) == width("Liberation Sans") < width("DejaVu Sans")


def test_the_throughput_chart_says_where_its_measurements_were_taken(specs, site):
    """Found once: "shown at 512 and 8k tokens of context" over measurements taken at 343, 640
    and 8,448 tokens. The subtitle gives the measured contexts and the grid's nearest, from the data."""
    from generator.evidence import measured_plain_points

    measured = [p.context_tokens for p in measured_plain_points(site.catalog)
                if (p.gpu, p.target) == (site.base.gpu, site.base.target)]
    subtitle = " ".join(specs["throughput"]["title"]["subtitle"])
    assert f"at {round(min(measured)):,} to {round(max(measured)):,} tokens of context" in subtitle
    assert "only at 512 or 8,192 tokens." in subtitle  # 343 and 640 are nearest 512, 8,448 nearest 8,192


def test_every_number_in_a_data_table_has_a_format():
    """Found once: the decision map's table wrote n-gram's α as "0.6" beside EAGLE-3's "0.65" and
    the tooltip's "0.60" (a column with no format writes a number as it is stored). A column of
    numbers names its format, so one quantity reads alike in every row and beside its chart."""
    from pathlib import Path
    docs = Path(__file__).resolve().parents[1] / "docs"
    charts = json.loads((docs / "data" / "manifest.json").read_text())["charts"]
    unformatted = []
    for name, chart in charts.items():
        table = json.loads((docs / "charts" / "data" / f"{name}.json").read_text()) if (
            docs / "charts" / "data" / f"{name}.json").exists() else []
        for col in chart["columns"]:
            if col["format"] is None and any(isinstance(row.get(col["key"]), (int, float))
                                             and not isinstance(row.get(col["key"]), bool) for row in table):
                unformatted.append(f"{name}.{col['key']}")
    assert unformatted == []


# Datasets of measurements: each point was run on a real GPU, so it fitted.
MEASURED_DATASETS = {("throughput", "measured")}


@pytest.mark.parametrize("name", CHART_NAMES)
def test_a_chart_that_draws_other_batches_or_contexts_marks_those_that_do_not_fit(specs, site, name):
    """The note under a figure speaks of the simulation's state only; a chart that draws other
    batch sizes or contexts beside it says of each whether it fits (found once: the plain
    throughput and roofline charts drew 1,024 sequences, 636 GB, like every other point)."""
    if CHARTS[name].ROWS is None:
        return
    state = {**site.defaults, "context": 8192}
    spec_text = json.dumps(specs[name])
    for dataset, table in chart_datasets(name, state, site).items():
        drawn = {(row.get("batch"), row.get("context")) for row in table}
        if len(drawn) <= 1 or (name, dataset) in MEASURED_DATASETS:
            continue
        assert all("fits" in row for row in table), (name, dataset)
        assert {row["fits"] for row in table} == {0, 1}, (name, dataset)  # 8k tokens: 64 and up do not
        assert "datum.fits" in spec_text, name


# --- one quantity, one name and one way of writing it ----------------------------------------


def test_breakdown_names_each_part_as_specmodel_does():
    """Found once: the legend and the data table called the draft passes' kernels "draft passes"
    (2.27 ms) while the prose's "the draft passes take 9.27 ms" counted their launch floor too.
    Each part's name on the chart is specmodel's, at most cut short at a word, never another name."""
    from generator.charts import breakdown
    from specmodel.breakdown import PART_LABELS
    for part in STEP_PARTS:
        shown, full = breakdown.LEGEND[part], PART_LABELS[part]
        assert shown == full or full.startswith(shown + " "), (part, shown, full)
    headers = {c["key"]: c["header"] for c in breakdown.COLUMNS}
    assert all(headers[part] == breakdown.LEGEND[part] for part in STEP_PARTS)


def _template_filters(pattern: str) -> set[str]:
    """The formats the essay's templates write the values matched by ``pattern`` in: `x|pct`,
    `x|num(3)` (num3), `x|map("num", 3)` (num3), `x|num(2)` and `x|num` (num)."""
    text = "".join(p.read_text() for p in (ROOT / "generator" / "templates").glob("*.j2"))
    found = set()
    for m in re.finditer(pattern + r"""\s*\|\s*(?:map\("(\w+)",\s*(\d)\)|(\w+)(?:\((\d)\))?)""", text):
        name, digits = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if name == "num" and digits not in (None, "2"):
            name += digits
        found.add(name)
    return found


def _expression_pattern(helper, name: str) -> re.Pattern:
    """A regex for what ``helper`` (formatted, duration_text) writes for format ``name`` around any
    expression: the same expression wherever it recurs."""
    marker = "@@EXPR@@"
    text = helper(marker, name) if helper is formatted else helper(marker)
    parts = re.escape(text).split(re.escape(marker))
    return re.compile(parts[0] + "(.+?)" + r"(?:\1)".join(parts[1:]))


# (chart, tooltip title, format, the essay's template expressions for the same quantity).
# The format is the prose's: the test checks both the chart's tooltip and the templates.

TOOLTIP_QUANTITIES = [
    # (a published speedup, quoted as its paper gives it, is not the model's: `row.speedup|times1`)
    *[(chart, "speedup", "times", r"(?<!row)\.(?:\w+_)?speedup(?:\[[^\]]*\])*")
      for chart in ("gamma", "ladder", "moe", "decision")],
    ("ladder", "other cost model", "times", None),
    ("acceptance", "per-position acceptance", "num3", r"per_position_acceptance(?:\[[^\]]*\])*"),
    ("shares", "drafting share", "pct", r"draft_time_share(?:\[[^\]]*\])*"),
    ("closed_form", "expected tokens", "num", r"(?:cf\.expected_tokens\([^)]*\)|mean_acceptance_length)"),
    ("closed_form", "ceiling 1/(1−α)", "num", r"cf\.ceiling\([^)]*\)"),
    ("decision", "its typical α", "num", r"(?<![\w.])a"),
    ("throughput", "plain decoding", "tps", None),
    ("validation", "step time", "ms", r"step_time(?:\[[^\]]*\])*"),
    ("breakdown", "time", "ms", None),
    ("iteration", "time", "ms", None),
]


def _calculations(spec) -> list[dict]:
    """Every calculate transform of a spec, wherever it sits (_walk yields no list's items)."""
    if isinstance(spec, dict):
        return ([spec] if "calculate" in spec else []) + [c for v in spec.values() for c in _calculations(v)]
    if isinstance(spec, list):
        return [c for v in spec for c in _calculations(v)]
    return []


def _tooltip_expressions(spec: dict, title: str) -> list[str]:
    """The calculate expressions of the fields the spec's tooltips show under ``title``."""
    fields = {tip["field"] for path, value in _walk(spec) if path[-1] == "tooltip" and isinstance(value, list)
              for tip in value if tip.get("title") == title}
    return [node["calculate"] for node in _calculations(spec) if node.get("as") in fields]


@pytest.mark.parametrize("chart, title, fmt, prose", TOOLTIP_QUANTITIES)
def test_a_tooltip_writes_a_quantity_as_the_prose_does(specs, chart, title, fmt, prose):
    """Found once: per-position acceptance "0.750" in the prose and "75.0%" in a tooltip, a
    drafting share of "48%" and "48.4%", Eq. 1's ceiling "4 tokens" and "4.00". A tooltip's
    quantity is written by the prose's format (formatted, duration_text), and the essay writes
    the same quantity in that format and no other."""
    expressions = _tooltip_expressions(specs[chart], title)
    assert expressions, f"{chart}: no tooltip titled {title!r} with a computed text"
    helper = duration_text if fmt == "ms" else formatted
    pattern = _expression_pattern(helper, fmt)
    assert all(pattern.search(e) for e in expressions), (chart, title, expressions)
    if prose:
        assert _template_filters(prose) == {fmt}, (title, _template_filters(prose))


def test_every_number_a_tooltip_computes_goes_through_the_prose_formats(specs):
    """The kind of the above: a tooltip's number written by hand (`format(x, '.2f') + '×'`) does
    not follow the prose's format when it changes. Counts and labels may be formatted directly."""
    by_hand = []
    for name, spec in specs.items():
        fields = {tip["field"] for path, value in _walk(spec) if path[-1] == "tooltip" and isinstance(value, list)
                  for tip in value}
        for node in _calculations(spec):
            if node.get("as") in fields:
                calc = node["calculate"]
                hand = re.findall(r"format\([^,]+, '([^']*)'\)", calc)
                if any(p not in (",", ",.0f") for p in hand) and "toNumber(" not in calc:
                    by_hand.append((name, node["as"], calc))
    assert by_hand == []


@pytest.mark.parametrize("value, text", [(0.998, "0.998×"), (1.002, "1.002×"), (1.0, "1.00×"), (0.9996, "0.9996×"),
                                         (0.994, "0.99×"), (1.93, "1.93×"), (1 - 1e-12, "1.00×")])
def test_a_speedup_that_is_not_one_never_reads_as_one(value, text):
    """Found once: "falls to 1.00× at 4" for a speedup of 0.998, a loss written as break-even.
    One that rounds to 1 but is not 1 gets more decimals (float noise about 1 excepted); the word
    beside it agrees with the number."""
    from generator.filters import FILTERS
    assert FILTERS["times"](value) == text
    written = float(text.rstrip("×"))
    assert format_value("verdict", value) == ("faster" if written > 1 else "slower" if written < 1 else "no faster")


def test_a_data_table_column_keeps_its_unit():
    """Found once: the breakdown's table wrote "1.07 µs" in a column of "10.12 ms": the prose's
    duration format switches to microseconds below 1 ms, a column does not."""
    assert cell_text(1.07e-6, "ms") == "0.00107\u00a0ms" and cell_text(0.0, "ms") == "0\u00a0ms"
    assert cell_text(0.000912, "ms") == "0.912\u00a0ms" and cell_text(0.01012, "ms") == "10.12\u00a0ms"
    # with the figures the chart's label gives the same value in µs (found by a cold read: "0.01 ms"
    # in the iteration chart's table beside its "9.12 µs")
    for seconds in (9.12e-6, 1.19e-4, 2.38e-5):
        digits = format_value("ms", seconds).split("\u00a0")[0].replace(".", "").lstrip("0")
        assert cell_text(seconds, "ms").split("\u00a0")[0].replace(".", "").lstrip("0") == digits, seconds
    from pathlib import Path
    docs = Path(__file__).resolve().parents[1] / "docs"
    charts = json.loads((docs / "data" / "manifest.json").read_text())["charts"]
    mixed = []
    for name, chart in charts.items():
        path = docs / "charts" / "data" / f"{name}.json"
        table = json.loads(path.read_text()) if path.exists() else []
        for col in chart["columns"]:
            if "decimals" not in FORMATS.get(col["format"] or "", {}):
                continue  # text, or a word (yes, fits)
            units = {re.sub(r"^[<>\s\-–\d.,]+", "", cell_text(row.get(col["key"]), col["format"]))
                     for row in table if isinstance(row.get(col["key"]), (int, float))}
            if len(units) > 1:
                mixed.append((name, col["key"], units))
    assert mixed == []


def test_a_field_a_chart_writes_in_a_format_keeps_that_formats_digits():
    """Found by a cold read: the iteration figure wrote "14,420.00 ms" (a field kept to four
    significant digits) where the model, the breakdown figure and the command line give 14,421.80.
    Every field a chart's data table writes in a format declares that format in the data
    contract, so its stored digits write the value as the unrounded one would."""
    from generator.charts import CHARTS
    from generator.contract import FIELDS
    missing = []
    for name, chart in CHARTS.items():
        formats = {c["key"]: c["format"] for c in chart.COLUMNS if c["format"]}
        for blocks in (chart.ROWS or {}).values():
            for block in blocks:
                for row in block["rows"]:
                    for key, source in row.items():
                        if isinstance(source, dict) and "field" in source and key in formats:
                            spec = FIELDS[source["field"]]
                            if spec.rounding == "sig" and formats[key] not in spec.formats:
                                missing.append(f"{name}.{key}: {source['field']} lacks {formats[key]!r}")
    assert missing == []


def test_a_legend_draws_each_series_as_its_plot_does(specs):
    """Found by a cold read: the shares and validation figures' legends drew a diamond for every
    series, under subtitles saying the diamonds are the measurements. Where a subtitle names the
    diamonds, no legend draws one symbol for all its entries, and the shape scale gives the diamond
    to the measurements alone."""
    problems = []
    for name, spec in specs.items():
        if "Diamonds:" in json.dumps(spec):
            for path, value in _walk(spec):
                if path[-1] == "legend" and isinstance(value, dict) and "symbolType" in value:
                    problems.append(f"{name}: one symbol for every entry at {'.'.join(map(str, path))}")
            shapes = [v for p, v in _walk(spec) if p[-1] == "shape" and isinstance(v, dict) and "scale" in v]
            mapped = {tuple(zip(s["scale"]["domain"], s["scale"]["range"])) for s in shapes}
            if len(mapped) != 1 or [d for d, r in next(iter(mapped)) if r == "diamond"] != ["measured"]:
                problems.append(f"{name}: shapes {mapped}")
    assert {n for n in specs if "Diamonds:" in json.dumps(specs[n])} >= {"shares", "validation"}
    assert problems == [], problems


def test_a_row_buttons_label_reads_each_column_once():
    """Found by a cold read: a ladder row's button read "speedup 1.14×, speedup, other cost model
    1.93×" (views/tables.js joins each column's header and value with ", "): a header with a
    comma in it reads as two columns. The headers of the tables whose rows open states have none."""
    for name, chart in CHARTS.items():
        if getattr(chart, "SELECT", None):
            headers = [c["header"] for c in chart.COLUMNS]
            assert [h for h in headers if "," in h] == [], (name, headers)


def test_the_closed_form_figure_says_how_each_acceptance_shape_compares_with_its_curve(specs, site):
    """Found by a cold read: the subtitle said acceptance falling with position gives less than
    the curve, "(the simulation's readout)", over a simulation set to rising acceptance, whose
    readout is more. What it says of each shape holds at every α and γ of the grid."""
    from specmodel.acceptance import ACCEPTANCE_SHAPES, mean_acceptance_length
    from specmodel.closed_forms import expected_tokens_per_iteration

    subtitle = " ".join(specs["closed_form"]["title"]["subtitle"])
    assert "Past γ = 1, acceptance falling with position gives less, rising more" in subtitle, subtitle
    assert "readout follows the shape it is set to" in subtitle, subtitle
    said = {"falling": np.less, "same": np.isclose, "rising": np.greater}
    assert set(said) == set(ACCEPTANCE_SHAPES) == set(site.axes["acceptance"])
    alpha, gamma = np.meshgrid(np.array(site.axes["alpha"]), np.array(site.axes["gamma"]), indexing="ij")
    curve = expected_tokens_per_iteration(alpha, gamma)
    for shape, compare in said.items():
        readout = mean_acceptance_length(gamma, alpha, shape, int(gamma.max()))
        past_one = gamma > 1
        # (at γ = 1 every shape is α at its one position: the curve itself)
        assert np.allclose(readout[~past_one], curve[~past_one]), shape
        assert compare(readout[past_one], curve[past_one]).all(), shape


def test_the_roofline_labels_its_batch_as_the_page_writes_it(specs, site):
    """Found by a cold read: the roofline figure's dot read "batch 1024" where every other number
    on the page is written 1,024."""
    svg = render_svg(specs["roofline"], _rows(site, "roofline", {**STATE, "batch": 1024}))
    assert "batch 1,024" in svg and "batch 1024" not in svg


def test_the_breakdowns_two_bars_of_a_model_stand_apart(specs):
    """Found by a cold read: under the ideal whole-pass model n-gram's iteration and the plain step
    are one colour, and touching they read as one block. A gap between a model's two bars."""
    layers = specs["breakdown"]["layer"]
    paddings = [layer["encoding"]["yOffset"]["scale"]["paddingInner"] for layer in layers]
    assert paddings and all(p >= 0.2 for p in paddings), paddings


def test_the_roofline_says_which_settings_its_dots_follow(specs):
    """Found by a cold read: the figure's dots follow the simulation (2.1 FLOP/byte at ?gamma=1
    beside the prose's 5.3) and nothing on it said so."""
    assert "at the simulation's other settings" in json.dumps(specs["roofline"]["title"])
