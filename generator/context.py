"""The essay templates' context: named states, constants, closed forms, charts and readouts."""
from __future__ import annotations

import html
import math
import re
from dataclasses import asdict
from importlib import resources

import jinja2
from markupsafe import Markup

from specmodel import FIELDS as SITE_FIELDS
from specmodel import State
from specmodel.break_even import break_even_alpha
from specmodel.architecture import BF16_BYTES
from specmodel.acceptance import FALLING_DECAY, RISING_DECAY, RISING_FIT_DATA, fit_rising_decay
from specmodel.metrics import advise, fit_acceptance, parse_metrics
from specmodel.metrics.advice import DYNAMIC_SD_DOCS
from specmodel.metrics.parse import EXAMPLE as METRICS_EXAMPLE, Reading
from specmodel.claims import SEED_TITLE, claim_words, evaluate_claims
from specmodel.validate_text import engine_name, setting_of
from specmodel.vllm import LOG_WINDOW_ITERATIONS
from specmodel.workloads import ACTIVE_PROBABILITY_FLOOR

from specmodel.calibration.measurements import ONE_POINT_ENGINES, POINTS
from specmodel.calibration.fitted import FITTED
from specmodel.costs import CALIBRATED, ENGINE_CONSTANTS, cost_model
from specmodel.calibration.validate import UNKNOWN_CONTEXT_RANGE, summary as summarise
from specmodel.typical_acceptance import ASSUMED, CARRIED, TASKS

from .axes import STATE_AXES, axes, configurations, site_typical_acceptance
from .chart_rows import table_html
from .charts import CHARTS
from .evidence import citation, figure_settings, measured_plain_points, profiling_context, linked_sources, validation_rows, without_paths
from .contract import FIELDS
from .essay import ClosedForms, Scope, TemplateBuildError, decision_map_summary, state_values, wrap
from .vega_specs import NARROWEST_CHART_WIDTH_PX
from .filters import Quantity
from .essay_states import ESSAY_STATES, PAPER_T5_TABLE
from .filters import FILTERS
from .gpus import starting_state_by_gpu
from .moe import moe_story
from .catalog_context import catalog_values


def _arch_values(arch) -> dict:
    values = asdict(arch)
    values.update(params=arch.params, weight_bytes=arch.weight_bytes, kv_bytes_per_token=arch.kv_bytes_per_token,
                  gemm_weight_bytes=arch.gemm_weight_bytes, embedding_bytes=arch.embedding_bytes)
    return values


def _claims_rows(labels: dict) -> list[dict]:
    rows = evaluate_claims((resources.files("specmodel") / "data" / "essay-claims.csv").read_text(encoding="utf-8"))
    return [{**row, "what": claim_words(row), "state_words": state_in_words(row["state"], labels)} for row in rows]


# How specmodel's claims file names a state ("batch=64;context=8192"), in the page's words.
_STATE_WORDS = {
    "batch": lambda v, _: f"{int(v):,} sequences", "context": lambda v, _: f"{int(v):,} tokens",
    "gamma": lambda v, _: f"γ = {v}", "alpha": lambda v, _: f"α = {v}",
    "drafter": lambda v, labels: labels["drafter"][v],
    "acceptance": lambda v, labels: f"acceptance {labels['acceptance'][v]}",
    "workload": lambda v, labels: labels["workload"][v],
}
_STATE_NAMES = {"(defaults)": "the starting state", "(closed form)": "the closed form"}


def state_in_words(text: str, labels: dict) -> str:
    """A claims-file state as the page writes one: "batch=64;context=8192" → "64 sequences, 8,192
    tokens". KeyError names an unknown field or value: a new kind of state needs its words here."""
    if text in _STATE_NAMES:
        return _STATE_NAMES[text]
    words = []
    for part in text.split(";"):
        key, _, value = part.partition("=")
        words.append(_STATE_WORDS[key.strip()](value.strip(), labels))
    return ", ".join(words)


def check_live_format(key: str, fmt: str) -> str:
    """A number the script rewrites must be in a format its stored value keeps exact (else the
    page would change under the reader when the script runs). Returns "" (for templates)."""
    if key not in FIELDS:
        raise TemplateBuildError(f"{key!r} is not a field of the data (generator/contract.py)")
    if fmt not in FIELDS[key].formats:
        raise TemplateBuildError(f"{key} shown as {fmt!r}, but the data keep it exact only for "
                                 f"{', '.join(FIELDS[key].formats) or 'no format'} (generator/contract.py)")
    return ""


# The drafter whose log the paste box's example is (specmodel/metrics/parse.py EXAMPLE).
METRICS_EXAMPLE_DRAFTER = "ngram"


def launch_floors(site, bound: dict) -> dict:
    """The calibrated model's launch floor of one pass of the target and of each drafter with
    layers, with the terms of its sum, so that the prose can show the whole arithmetic:
    {key: {"layers", "layer_launch_s", "pass_launch_s", "layers_s", "floor_s"}}."""
    engine = site.catalog.engines[site.base.engine]
    calibrated = cost_model(CALIBRATED, engine.constants)
    models = {"target": site.catalog.targets[site.base.target],
              **{k: d.architecture for k, d in bound.items() if hasattr(d, "architecture")}}
    out = {}
    for key, arch in models.items():
        layer_s, pass_s = engine.constants["layer_launch_s"], engine.constants["pass_launch_s"]
        out[key] = {"layers": arch.num_hidden_layers, "layer_launch_s": layer_s, "pass_launch_s": pass_s,
                    "layers_s": arch.num_hidden_layers * layer_s, "floor_s": calibrated.launch_floor_s(arch)}
    return out


def idle_levels(site) -> dict:
    """Where the tensor-core idle readout stops falling with the batch at the opening state's
    other settings: {"start": at the opening γ, "smallest": at γ = 1}, each {"gamma", "batch" (the
    first batch from which the readout no longer changes), "idle" (its value there, a fraction)}.
    Found by cold reads: "at a smaller γ it levels off higher and later" held at γ = 1 and 2 only,
    and "γ = 1 later" left out γ = 2; the sentence gives γ = 1's figures instead. ValueError where
    a smaller γ does not level off higher (the sentence says it does)."""
    state = dict(site.defaults)
    batches = site.axes["batch"]
    levels = {}
    for gamma in site.axes["gamma"]:
        idle = [site.value("tensor_core_idle_fraction", state, gamma=gamma, batch=b) for b in batches]
        first = next(i for i in range(len(idle)) if all(math.isclose(v, idle[i], rel_tol=1e-9) for v in idle[i:]))
        levels[gamma] = {"gamma": gamma, "batch": batches[first], "idle": idle[first]}
    start = levels[state["gamma"]]
    smaller = [levels[g] for g in sorted(levels) if g < state["gamma"]]
    if any(level["idle"] <= start["idle"] for level in smaller):
        raise ValueError(f"a γ below {state['gamma']} levels off no higher than γ = {state['gamma']}: {smaller}")
    return {"start": start, "smallest": levels[min(levels)]}


# The architecture fields that size a KV cache per token (with the bf16 width and K and V).
CACHE_SHAPE = ("num_hidden_layers", "num_key_value_heads", "head_dim")


def draft_model_shapes(bound: dict) -> list[dict]:
    """The separate draft models of the essay's target, grouped by the shape of their KV cache,
    so a sentence about "the drafters' layers and heads" names each drafter with its own figures:
    [{"labels": [...], "keys": [...], "num_hidden_layers", "num_key_value_heads", "head_dim",
    "num_attention_heads": [distinct query-head counts], "kv_bytes_per_token"}], in catalog order."""
    groups: dict = {}
    for key, d in bound.items():
        if d.kind != "draft_model":
            continue
        arch = d.architecture
        shape = tuple(getattr(arch, f) for f in CACHE_SHAPE)
        g = groups.setdefault(shape, {"labels": [], "keys": [], **dict(zip(CACHE_SHAPE, shape)),
                                      "num_attention_heads": [], "kv_bytes_per_token": d.kv_bytes_per_token})
        g["labels"].append(d.label)
        g["keys"].append(key)
        if arch.num_attention_heads not in g["num_attention_heads"]:
            g["num_attention_heads"].append(arch.num_attention_heads)
    return list(groups.values())


def rising_fit() -> list[dict]:
    """The vectors the rising shape's constant was fitted to, each with the rising shape's
    residual (α free) and the shape the paste box's fit would choose for it."""
    out = []
    for source, url, rates in RISING_FIT_DATA:
        fit = fit_acceptance(Reading(source=source, records=1, per_position_acceptance=rates))
        out.append({"source": source, "url": url, "rates": list(rates), "gamma": len(rates),
                    "rms": fit.residuals["rising"], "shape_chosen": fit.shape})
    return out


def metrics_example(site) -> dict:
    """The paste box's example, and what the page shows for it at the site's starting state with
    the n-gram drafter: the reading, the fit on the site's α grid and the model's advice."""
    reading = parse_metrics(METRICS_EXAMPLE)
    fit = fit_acceptance(reading, SITE_FIELDS["alpha"].grid)
    advice = advise(site.base.replace(drafter=METRICS_EXAMPLE_DRAFTER), fit, site.catalog)
    return {"example": METRICS_EXAMPLE, "example_drafter": METRICS_EXAMPLE_DRAFTER, "dynamic_docs": DYNAMIC_SD_DOCS,
            "reading": reading.as_dict(), "fit": fit.as_dict(), "fit_free": fit_acceptance(reading).as_dict(),
            "advice": advice.as_dict()}


def build_context(site, charts: dict, sampler_demo, sim: dict) -> dict:
    """Template variables.

    site: the SiteModel. charts: {name: {"description", "rows"}} at the default state. sim: the
    simulation partial's values (axes, labels, defaults, readouts, vllm_config, vllm_log, …).
    """
    catalog = site.catalog
    ctx: dict = {}
    for name, changes in ESSAY_STATES.items():
        ctx[name] = Scope(name, state_values(changes, site))
    # the decision map at the starting state, as the text after the figure describes it
    ctx["decision_map"] = Scope("decision_map", decision_map_summary(site, dict(site.defaults)))
    target = catalog.targets[site.base.target]
    gpu = catalog.gpus[site.base.gpu]
    ctx["target"] = Scope("target", _arch_values(target))
    ctx["gpu"] = Scope("gpu", asdict(gpu))
    bound = {k: catalog.drafter(k, site.base.target) for k in site.axes["drafter"]}
    ctx["drafters"] = Scope("drafters", {
        k: {"label": d.label, "method": d.kind, "weight_bytes": d.weight_bytes,
            "kv_bytes_per_token": d.kv_bytes_per_token,
            **(_arch_values(d.architecture) if hasattr(d, "architecture") else {"prompt_lookup_max": d.prompt_lookup_max})}
        for k, d in bound.items()
    })
    ctx["launch_floor"] = Scope("launch_floor", launch_floors(site, bound))
    ctx["idle_levels"] = Scope("idle_levels", idle_levels(site))
    # every draft model of the catalog no measurement times (found by a cold read: the model page
    # named the Qwen3-1.7B alone, where the 4B and Llama-3.2-1B are as unmeasured)
    timed = {p.drafter for p in POINTS.values() if p.drafter}
    ctx["unmeasured_draft_models"] = [d.label for k, d in catalog.drafters.items()
                                      if d.kind == "draft_model" and k not in timed]
    ctx["draft_model_shapes"] = wrap(draft_model_shapes(bound), "draft_model_shapes")
    ctx["constants"] = Scope("constants", {
        "falling_decay": FALLING_DECAY, "rising_decay": RISING_DECAY, "rising_fit": rising_fit(), "rising_decay_refit": fit_rising_decay([r for _, _, r in RISING_FIT_DATA]), "rising_decay_published": fit_rising_decay([r for _, url, r in RISING_FIT_DATA if url]), "max_gamma": max(SITE_FIELDS["gamma"].grid), "output_tokens": site.base.output_tokens, "grid_states": site_states(site), "all_grid_states": all_site_states(site.catalog), "configurations": len(configurations(site.catalog)),
        "active_probability_floor": ACTIVE_PROBABILITY_FLOOR, "log_window_iterations": LOG_WINDOW_ITERATIONS,
        "sampler_vocabulary_size": len(sampler_demo.rows), "token_row_passes": len(sim["token_row"]),
        "bf16_bytes": BF16_BYTES,
    })
    ctx["moe"] = Scope("moe", moe_story(catalog).values)
    ctx["gpus"] = Scope("gpus", starting_state_by_gpu(catalog))
    ctx["catalog"] = Scope("catalog", catalog_values(catalog))
    ctx["cf"] = ClosedForms()
    # what the validation figures' points were measured on, from their own rows
    ctx["figures"] = Scope("figures", figure_settings({name: charts[name]["rows"] for name in ("validation", "shares")}))
    ctx["sampler"] = Scope("sampler", {
        "draws": sampler_demo.draws, "observed_acceptance_rate": sampler_demo.observed_acceptance_rate,
        "expected_acceptance_rate": sampler_demo.expected_acceptance_rate,
        "chi_square_p_value": sampler_demo.chi_square_p_value,
    })
    ctx["claims"] = wrap(_claims_rows(site.labels), "claims")
    # the essay those rows quote, by its title
    ctx["claims_source"] = Scope("claims_source", {"title": SEED_TITLE})
    ctx["paper"] = Scope("paper", {"t5": PAPER_T5_TABLE})
    ctx["axes"] = site.axes
    ctx["labels"] = site.labels
    ctx["sim"] = sim
    ctx["metrics"] = Scope("metrics", metrics_example(site))

    @jinja2.pass_context
    def chart(template_context, name: str, caption: str = "") -> Markup:
        """The figure of chart ``name``: live div, static SVG inside it, caption, data table; a
        chart that follows the state also says when that state does not fit in the GPU."""
        info = charts[name]
        root = template_context.get("root", "")
        desc = html.escape(info["description"])
        size = f' width="{info["size"][0]}" height="{info["size"][1]}"' if info.get("size") else ""
        # a chart as wide as its column keeps its drawn height at any width (spec.css)
        fill = info.get("fills_width") and info.get("size")
        if fill:
            # its drawn height, and its shape where a column narrower than the narrowest it is
            # drawn at scales it down
            size += (f' style="--picture-height: {info["size"][1]}px; '
                     f'--picture-aspect: {NARROWEST_CHART_WIDTH_PX} / {info["size"][1]}"')
        follows = CHARTS[name].ROWS is not None and getattr(CHARTS[name], "FOLLOWS_STATE", True)
        says_fit = follows and getattr(CHARTS[name], "SAYS_IF_IT_FITS", True)
        fits = sim["readouts"]["fits_in_memory"]
        fit_note = (
            f'<p class="spec-figure__fit" data-fit-note data-search-exclude{"" if not fits else " hidden"}>At these settings the '
            # count-neutral: the script rewrites the numbers, not the words, and the memory may be
            # one GPU's or a tensor-parallel group's
            f"weights and KV caches need {live('memory_required_bytes', 'gb_needed')}, more than the "
            f"{live('gpu_memory_bytes', 'gb')} of GPU memory: a real server would run fewer sequences.</p>"
            if says_fit else "")
        return Markup(
            f"<figure class=\"spec-figure\" id=\"figure-{name}\">"
            f"<div class=\"spec-chart\" data-chart=\"{name}\" data-spec=\"{root}charts/{name}.vg.json\""
            f"{' data-follows-state' if follows else ''}>"
            f"<img class=\"spec-chart__static{' spec-chart__static--fill' if fill else ''}\" src=\"{root}charts/{name}.svg\" alt=\"{desc}\"{size} loading=\"lazy\">"
            f"</div>"
            + fit_note
            + (f"<figcaption>{html.escape(str(caption))}</figcaption>" if caption else "")
            + table_html(name, info["rows"], info["spec"]["title"]["text"])
            + "</figure>"
        )

    def live(key: str, fmt: str) -> Markup:
        """A number the simulation keeps current; the build writes the default state's value."""
        check_live_format(key, fmt)
        text = FILTERS[fmt](wrap(sim["readouts"][key], f"sim.{key}"))
        return Markup(f"<span class=\"live\" data-live=\"{html.escape(key)}\" data-fmt=\"{html.escape(fmt)}\">"
                      f"{html.escape(text)}</span>")

    def plain_values(values: dict) -> dict:
        # the templates' named numbers (Count, Quantity) as plain ones, for the model
        return {k: (int(v) if isinstance(v, int) else float(v) if isinstance(v, float) else str(v))
                for k, v in values.items()}

    def state(**changes) -> Scope:
        """A state of the grid that ESSAY_STATES does not name (``gamma=start.best_gamma``)."""
        plain = plain_values(changes)
        return Scope("state(" + ", ".join(f"{k}={v}" for k, v in sorted(plain.items())) + ")",
                     state_values(plain, site))

    def require(condition, claim: str) -> str:
        """Stop the build when a qualitative claim of the prose ("the only state", "at every
        batch size") is no longer what the model says: the sentence must be rewritten."""
        if not condition:
            raise TemplateBuildError(f"the prose claims {claim!r}, and the model no longer says so: "
                                     "rewrite the sentence (generator/templates)")
        return ""

    def breakeven_alpha(**changes) -> Scope | None:
        """At the state ``changes`` (every other field at its default), the α at which some γ of
        the simulation's range first beats plain decoding: ``exact`` from the model
        (specmodel.break_even_alpha) and ``grid``, the smallest α of the site's grid that does
        (what the reader can set), ``gamma``, the γ that beats it there (the best; found by a cold
        read: "that is 0.85" read at the starting γ, still a loss), ``grid_speedup``, its
        speedup, and ``grid_step``, the grid's step. None if no α does."""
        coords = {**site.defaults, **changes}
        name = "breakeven_alpha(" + ", ".join(f"{k}={v}" for k, v in sorted(changes.items())) + ")"
        exact = break_even_alpha(State(**plain_values(coords)), [int(g) for g in site.axes["gamma"]], site.catalog)
        grid = next((alpha for alpha in site.axes["alpha"]
                     if max(site.value("speedup", coords, alpha=alpha, gamma=g) for g in site.axes["gamma"]) > 1), None)
        if exact is None or grid is None:
            return None
        alphas = site.axes["alpha"]
        speedups = {int(g): site.value("speedup", coords, alpha=grid, gamma=g) for g in site.axes["gamma"]}
        gamma = max(speedups, key=speedups.get)
        return Scope(name, {"exact": exact, "grid": grid, "grid_step": round(alphas[1] - alphas[0], 6), "gamma": gamma,
                            "grid_speedup": speedups[gamma]})

    ctx["chart"] = chart
    ctx["live"] = live
    ctx["breakeven_alpha"] = breakeven_alpha
    ctx["state"] = state
    ctx["require"] = require
    ctx["check_live_format"] = check_live_format
    ctx.update(evidence_context(site))
    return ctx


# Who measured a typical acceptance, as the essay's table cites them (its footnotes, or a link),
# and with which target, by the start of the catalog's source sentence
# (specmodel/typical_acceptance.py); None: with the target of the row.
TYPICAL_CITATIONS = {
    "Liu, Yu, Park, Stoica & Cheung 2026": ("by Liu et al.[^liu]", "Llama-3.1-8B"),
    "AngelSlim's vLLM benchmark": ("by AngelSlim[^angelslim]", None),
    "vLLM issue #20780": ("in [vLLM issue #20780](https://github.com/vllm-project/vllm/issues/20780)", "Llama-3.1-8B"),
}


def typical_citation(e, target_label: str) -> str:
    """The source column of the essay's typical-acceptance table for entry ``e`` (a
    TypicalAcceptance) on the target labelled ``target_label``: "assumed", or where and by whom it
    was measured, and whether it was carried over from another target's drafter. ValueError for a
    source TYPICAL_CITATIONS does not know (add how the essay cites it)."""
    if e.basis == ASSUMED:
        return "assumed"
    for start, (who, measured_on) in TYPICAL_CITATIONS.items():
        if e.source.startswith(start):
            carried = ", taken to carry over" if e.basis == CARRIED else ""
            return f"measured on {measured_on or target_label} {who}{carried}"
    raise ValueError(f"typical acceptance source {e.source[:60]!r}…: the essay has no citation for it; "
                     f"add one to generator/context.py TYPICAL_CITATIONS (known: {', '.join(TYPICAL_CITATIONS)})")


def _finite_or_none(x):
    return x if x is not None and math.isfinite(x) and x > 0 else None


def evidence_context(site) -> dict:
    """What the prose says about the calibrated model and its evidence: the engine's constants
    with their sources, the typical acceptance per drafter and task, the validation summary."""
    catalog = site.catalog
    engine = catalog.engines[site.base.engine]
    fitted = FITTED[site.base.engine]
    # The page prints each time in µs, so the meaning drops the unit specmodel's text names
    # ("(s)"): a unit is said once, beside the value it belongs to.
    constants = {name: {"value": value, "source": linked_sources(engine.sources[name]),
                        "meaning": re.sub(r"\s*\((?:s|µs|ms)\)$", "", ENGINE_CONSTANTS[name]),
                        # none for a constant fixed, not fitted, or fitted at a bound (NaN)
                        "stderr": _finite_or_none(fitted["constants"].get(name, {}).get("stderr"))}
                 for name, value in engine.constants.items()}
    def entry(d: str, target: str, t: str, e) -> dict:
        on_grid = site_typical_acceptance(catalog, target)[d][t][0]
        return {"drafter": d, "basis": e.basis, "alpha": e.alpha, "alpha_on_grid": on_grid, "acceptance": e.acceptance,
                "mean_acceptance_length": e.mean_acceptance_length, "measured_gamma": e.measured_gamma,
                "source": without_paths(e.source), "label": site.labels["drafter"][d], "task_label": site.labels["task"][t],
                "dataset": e.dataset or "", "target_label": site.labels["target"][target]}

    # the essay's target's, by drafter and task; every target's, as rows (the model page)
    target = site.base.target
    acceptance = {d: {t: entry(d, target, t, e) for t, e in blocks[target].items()}
                  for d, blocks in catalog.typical_acceptance.items() if target in blocks}
    typical_all = []
    for d, blocks in catalog.typical_acceptance.items():
        entries = [entry(d, tk, t, e) for tk, tasks in blocks.items() for t, e in tasks.items()]
        targets = list(dict.fromkeys(e["target_label"] for e in entries))
        # One row for what holds alike on several targets (prompt lookup's traces, a head measured
        # on one target and taken to carry over, an assumption): the model page once listed the
        # same figures forty times over, target by target.
        groups: dict = {}
        for e in entries:
            groups.setdefault(tuple((k, v) for k, v in e.items() if k != "target_label"), []).append(e)
        rows = []
        for alike in groups.values():
            named = [e["target_label"] for e in alike]
            label = ("every target it drafts for" if len(named) == len(targets) > 1 else ", ".join(named))
            rows.append({**alike[0], "target_label": label})
        # ... and for what holds alike on every kind of traffic (one measurement standing for all
        # three, or an assumption)
        tasks = len(dict.fromkeys(e["task_label"] for e in rows))
        by_traffic: dict = {}
        for e in rows:
            by_traffic.setdefault(tuple((k, v) for k, v in e.items() if k not in ("task_label", "dataset")), []).append(e)
        for alike in by_traffic.values():
            if len(alike) == tasks > 1 and len({e["dataset"] for e in alike}) == 1:
                typical_all.append({**alike[0], "task_label": "every kind"})
            else:
                typical_all.extend(alike)
    # The essay's table, one for each target the simulation offers: the decision map is drawn for
    # the simulation's target, each of its drafters at its typical acceptance with that target
    # (found by a cold read: the table stayed on the starting target's while the map followed
    # another). One row per drafter and task, or one for a drafter whose figure is the same on
    # every kind of traffic (an assumption, or one measurement standing for all three).
    def essay_rows(target: str) -> list[dict]:
        rows = []
        for d, blocks in catalog.typical_acceptance.items():
            if target not in blocks:
                continue
            entries = [{**entry(d, target, t, e), "cite": typical_citation(e, site.labels["target"][target])}
                       for t, e in blocks[target].items()]
            if len(entries) > 1 and len({tuple((k, v) for k, v in e.items() if k != "task_label") for e in entries}) == 1:
                rows.append({**entries[0], "task_label": "every kind"})
            else:
                rows.extend(entries)
        return rows

    typical_tables = [{"target": t, "label": site.labels["target"][t], "rows": essay_rows(t), "start": t == target}
                      for t in dict.fromkeys(c.target for c in configurations(catalog))]
    # The command line's other engine presets (--engine), each by the constants it sets otherwise
    # than the site's engine (found by a cold read: "eager" and its estimated 200 µs a layer were
    # on no page, though the page says it states every constant).
    others = [{"key": key, "label": other.label,
               "constants": [{"name": name, "value": value,
                              "stderr": _finite_or_none(FITTED.get(key, {}).get("constants", {}).get(name, {}).get("stderr")),
                              "source": linked_sources(re.sub(r"\s*\(± [^()]*\)$", "", other.sources[name]))}
                             for name, value in other.constants.items() if value != engine.constants[name]]}
              for key, other in catalog.engines.items() if key != site.base.engine]
    rows = validation_rows(catalog)
    summary = summarise(rows)
    return {
        "measured_batches": wrap(sorted({p.batch for p in measured_plain_points(catalog)}), "measured_batches"),
        # the contexts a row of unknown context is predicted over (found by a cold read: said
        # nowhere on the page, where `specmodel validate` gives them)
        "unknown_context_range": wrap(list(UNKNOWN_CONTEXT_RANGE), "unknown_context_range"),
        "engine": Scope("engine", {"label": engine.label, "calibrated_on": engine.calibrated_on,
                                   "summary": fitted["summary"], "constants": constants,
                                   "fitted_count": sum(1 for c in constants.values() if c["source"].startswith("fitted")),
                                   "profiling_context_tokens": profiling_context(), "others": others}),
        "typical": Scope("typical", acceptance),
        "typical_tables": wrap(typical_tables, "typical_tables"),
        "typical_all": wrap(typical_all, "typical_all"),
        "validation": Scope("validation", {"rows": [validation_row(r, catalog) for r in rows],
                                           "by_id": {r.measurement.id: validation_row(r, catalog) for r in rows},
                                           "fitted_count": sum(1 for r in rows if r.point and r.point.fit),
                                           # the other engines whose step overhead one row each fixes
                                           "alone_engines": [engine_name(catalog, e) for e in ONE_POINT_ENGINES],
                                           "summary": {m: {q: {"count": c, "median": med, "worst": worst}
                                                           for q, (c, med, worst) in per.items()}
                                                       for m, per in summary.items()}}),
    }


def validation_row(row, catalog) -> dict:
    """One measurement against the models, as the model page's table shows it."""
    m, point = row.measurement, row.point
    cited = citation(m)
    out = {"id": m.id, "setting": setting_of(point, m, catalog), "batch": m["batch"], "num_spec_tokens": m["num_spec_tokens"],
           "source": cited["text"], "source_short": cited["short"], "work": cited["work"], "url": cited["url"], "read_off_plot": m.read_off_plot, "reason": row.reason, "held": row.held,
           "fitted": bool(point and point.fit), "quantity": point.quantity if point else "",
           # SGLang's and TensorRT-LLM's step overheads: each fitted to its one row, which it then
           # matches; the engine's name, or "" for every other row
           "fitted_alone": next((engine_name(catalog, e) for e, i in ONE_POINT_ENGINES.items() if point and point.id == i), ""),
           "context_tokens": row.context_tokens, "context_basis": point.context_basis if point else "",
           "measured": list(row.measured), "predicted": {k: list(v) for k, v in row.predicted.items()},
           "error": dict(row.error), "within": dict(row.within)}
    return out


def site_states(site) -> int:
    """How many states a reader can reach in the default configuration: the product of its state
    axes."""
    return math.prod(len(site.axes[name]) for name in site.defaults)


def all_site_states(catalog) -> int:
    """How many states a reader can reach, every configuration (GPU, target, tensor parallelism)
    the menus offer with the state axes its data hold (generator.axes.axes)."""
    return sum(math.prod(len(values[name]) for name in STATE_AXES)
               for values in (axes(catalog, config) for config in configurations(catalog)))
