"""``python -m generator build``: compute every generated file in memory, version it, write it.

The grid is evaluated once (``SiteModel``); data files, chart rows, pictures, the essay and its
simulation block all read that one evaluation. Every file is then versioned by a hash of what
was emitted (``version.py``). Nothing is written unless everything succeeded: a model error
(ModelInputError naming the entry and field) or a template error (TemplateBuildError naming
template, line and value) stops the build with the docs/ tree untouched.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from specmodel import Catalog, default_catalog
from specmodel.cli import commands
from specmodel.readouts import READOUT_KEYS, Readouts
from specmodel.vllm import engine_log_line, engine_log_window

from . import chart_rows, charts, svg, vega_specs
from .axes import BREAKDOWN_MODELS, manifest_axes, nearest_on_log_axis, site_state
from .charts.common import TABLE
from .cli_command import cli_command
from .context import build_context
from .contract import FIELDS
from .essay import TEMPLATES, Recorder, Scope, render_pages
from .formats import format_value
from .evidence import figure_rows, figure_settings, measured_plain_points
from .jsonfile import dumps
from .sampler_demo import run_sampler_demo
from .moe import moe_story
from .site_data import VERSION_PLACEHOLDER, data_files
from .site_model import SiteModel, full_dims
from .source_archive import FOLDER as DOWNLOADS, source_archive
from .tokens import token_legend_html, token_row_html
from .version import stamp

# Generated paths under docs/ (git-ignored); everything else in docs/ is hand-written.
GENERATED_DIRS = ("data", "charts", "vendor", DOWNLOADS)
GENERATED_FILES = ("index.md", "model.md")
PROSE_NUMBERS = "data/prose-numbers.json"


@dataclass
class Timings:
    stages: dict = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        yield
        self.stages[name] = time.perf_counter() - start


@dataclass
class Prepared:
    """Everything but the essay: the site's numbers, files so far, what the templates need."""

    site: SiteModel
    files: dict
    chart_info: dict
    sampler_demo: object
    sim: dict
    download: dict  # the specmodel archive, as the pages name it


def chart_context(site: SiteModel, figures: dict | None = None) -> dict:
    """What the chart specs are built from: the page's names and colours, and what the validation
    figures' points were measured on (``evidence.figure_settings``; from the catalog's
    measurements where ``figures`` is not given)."""
    gpu = site.catalog.gpus[site.base.gpu]
    # the contexts the opening configuration's plain-decoding measurements were taken at, and the
    # grid contexts they are shown at (the nearest on a log scale, as site_model places them)
    measured = [p.context_tokens for p in measured_plain_points(site.catalog)
                if (p.gpu, p.target) == (site.base.gpu, site.base.target)]
    contexts = site.axes["context"]
    shown_at = sorted({nearest_on_log_axis(contexts, m) for m in measured})
    figures = figures or figure_settings(figure_rows(site.catalog, BREAKDOWN_MODELS))
    return {"labels": site.labels, "figures": figures,
            "colours": {"drafter": {k: d.colour for k, d in site.catalog.drafters.items()}},
            "gpu_memory": format_value("gb", gpu.memory_capacity_bytes),
            "measured_contexts": {"min": min(measured), "max": max(measured), "shown_at": shown_at,
                                  "where": f"{site.catalog.targets[site.base.target].label} on one {gpu.label}"}}


def simulation_values(site: SiteModel) -> dict:
    """The simulation block's values at the opening state (the no-JS page shows these)."""
    state = site.defaults
    readouts = site.readouts(state)
    log = engine_log_line(engine_log_window(site_state(**state), Readouts(**{k: readouts[k] for k in READOUT_KEYS})))
    return {
        # every value a control offers; the ones the opening configuration has data for
        "axes": manifest_axes(site.catalog), "available": site.axes, "labels": site.labels, "defaults": state,
        # every field a live number may show: one with a format, indexed by the state alone
        "readouts": {f: site.value(f, state) for f, spec in FIELDS.items()
                     if spec.formats and set(full_dims(f)) <= set(state)},
        "vllm_config": site.value("speculative_config", state),
        "vllm_log": log,
        "cli_command": cli_command(state, site.defaults, bool(site.value("fits_in_memory", state))),
        "token_row": token_row_html(site.value("token_row", state)),
        "token_legend": token_legend_html(),
        "gpu_memory_bytes": site.value("gpu_memory_bytes", state),
        "gpus": site.catalog.gpu_group(state["gpu"], state["tp"]).label,
    }


WORKERS = max(1, min(4, os.cpu_count() or 1))


def prepare(catalog: Catalog | None = None, timings: Timings | None = None, every_configuration: bool = True,
            files: bool = True) -> Prepared:
    """The site's numbers, data files, chart specs, pictures and the Vega bundle.

    every_configuration: False builds the data of the default configuration only (quicker; the
    essay, the charts and the pictures are the default configuration's either way).
    files: False leaves out the data files, the pictures and the bundle, keeping only what the
    essay's words are rendered from (quicker still: for checks of the prose and its numbers; the
    pages then reserve no room for the pictures)."""
    catalog = catalog or default_catalog()
    timings = timings or Timings()
    with timings.stage("grid"):
        site = SiteModel(catalog)
    with timings.stage("data"):
        out = data_files(site, WORKERS, every_configuration) if files else {}
    with timings.stage("sampler"):
        demo = run_sampler_demo()
    out["data/sampler.json"] = dumps({"model_version": VERSION_PLACEHOLDER, "rows": demo.rows, "draws": demo.draws})

    with timings.stage("charts"):
        measured = figure_rows(site.catalog, BREAKDOWN_MODELS[::-1])
        context = chart_context(site, figure_settings(measured))
        static = {"sampler": demo.rows, **measured, "moe": moe_story(site.catalog).rows}
        chart_info = {}
        for name in charts.CHART_NAMES:
            spec = charts.build_spec(name, context)
            datasets = chart_rows.chart_datasets(name, site.defaults, site, static_rows=static)
            # the Vega-Lite spec, for anyone reading or reusing it; the page runs it compiled
            out[f"charts/{name}.vl.json"] = json.dumps(spec, indent=1, sort_keys=True).encode()
            out[f"charts/{name}.vg.json"] = dumps(vega_specs.page_spec(spec))
            for dataset, url in charts.data_urls(name).items():
                out[url] = dumps(datasets[dataset])
            chart_info[name] = {"description": spec.get("description", name), "rows": datasets[TABLE],
                                "spec": spec, "datasets": datasets}
    with timings.stage("svg"):
        for name, info in chart_info.items() if files else ():
            picture = svg.render_svg(info["spec"], info["datasets"])
            out[f"charts/{name}.svg"] = picture.encode()
            # the picture's size, so the page reserves its room before it loads (no layout shift)
            size = re.search(r'<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"', picture)
            info["size"] = (round(float(size[1])), round(float(size[2]))) if size else None
            info["fills_width"] = svg.fills_width(info["spec"])
        if files:
            out["vendor/vega-bundle.js"] = svg.vega_bundle().encode()
    with timings.stage("archive"):
        archive = source_archive()
    out[archive.path] = archive.data
    return Prepared(site, out, chart_info, demo, simulation_values(site), archive.context())


def render_essay(prepared: Prepared, templates: Path = TEMPLATES, recorder: Recorder | None = None
                 ) -> tuple[dict[str, bytes], dict]:
    """The essay pages (and the record of quoted numbers) as {path: bytes}, plus that record.
    ``recorder`` (a new one if None) keeps every number the pages write (Recorder.written)."""
    recorder = recorder if recorder is not None else Recorder()
    context = build_context(prepared.site, prepared.chart_info, prepared.sampler_demo, prepared.sim)
    context["model_version"] = VERSION_PLACEHOLDER
    context["download"] = Scope("download", prepared.download)
    # each command's --help line, its options set as code
    context["cli_commands"] = [(name, re.sub(r"(--[\w-]+)", r"`\1`", help))
                               for name, help in commands(prepared.site.catalog)]
    out = {path: text.encode() for path, text in render_pages(context, recorder, templates).items()}
    return out, recorder.quoted


def compute(catalog: Catalog | None = None, timings: Timings | None = None,
            templates: Path = TEMPLATES, every_configuration: bool = True) -> tuple[dict[str, bytes], dict]:
    """Every generated file as {path relative to docs/: bytes}, versioned, and the prose numbers quoted."""
    timings = timings or Timings()
    return assemble(prepare(catalog, timings, every_configuration), templates, timings)


def assemble(prepared: Prepared, templates: Path = TEMPLATES, timings: Timings | None = None
             ) -> tuple[dict[str, bytes], dict]:
    """``compute`` from a ``Prepared``: the essay rendered on it, every file versioned. (The
    tests build on one Prepared where only the templates differ.)"""
    timings = timings or Timings()
    with timings.stage("essay"):
        pages, quoted = render_essay(prepared, templates)
    files = {**prepared.files, **pages}
    # the record of quoted numbers is not part of the site: it does not enter the version
    files, _ = stamp(files, VERSION_PLACEHOLDER)
    files[PROSE_NUMBERS] = dumps(quoted)
    return files, quoted


def changed_numbers(old: dict, new: dict) -> list[str]:
    """Lines ``page: name: old → new`` for every quoted number whose text changed."""
    lines = []
    for page, values in new.items():
        for name, texts in values.items():
            before = old.get(page, {}).get(name)
            if isinstance(before, str):  # a record written before values kept every format
                before = [before]
            if before is not None and before != texts:
                lines.append(f"{page}: {name}: {' / '.join(before)} → {' / '.join(texts)}")
    return lines


def write(docs: Path, files: dict[str, bytes]) -> None:
    """Replace the generated part of ``docs`` with ``files`` (stale generated files removed)."""
    for d in GENERATED_DIRS:
        shutil.rmtree(docs / d, ignore_errors=True)
    for name in GENERATED_FILES:
        (docs / name).unlink(missing_ok=True)
    for rel, content in sorted(files.items()):
        path = docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def report(files: dict[str, bytes], timings: Timings, changes: list[str], print_fn=print) -> None:
    groups: dict[str, list[int]] = {}
    for rel, content in files.items():
        key = rel.rsplit("/", 1)[0] + "/" if "/" in rel else rel
        parts = key.split("/")
        if parts[0] == "data" and len(parts) > 4:  # one line per kind of file over every configuration
            key = "/".join(["data", "{gpu}", "{target}", "{tp}", *parts[4:]])
        groups.setdefault(key, []).append(len(content))
    print_fn("wrote:")
    for key in sorted(groups):
        sizes = groups[key]
        print_fn(f"  docs/{key:<48} {len(sizes):>5} file{'s' if len(sizes) > 1 else ' '} {sum(sizes) / 1024:>9.1f} KiB"
                 f"  (largest {max(sizes) / 1024:.1f} KiB)")
    print_fn(f"  total {len(files)} files, {sum(len(c) for c in files.values()) / 1024 / 1024:.2f} MiB")
    print_fn("time: " + ", ".join(f"{k} {v:.2f} s" for k, v in timings.stages.items()))
    if changes:
        print_fn(f"numbers quoted in the prose that changed since the previous build ({len(changes)}):")
        for line in changes:
            print_fn("  " + line)
    else:
        print_fn("no number quoted in the prose changed since the previous build")


def build(docs: Path, catalog: Catalog | None = None, print_fn=print, templates: Path = TEMPLATES,
          every_configuration: bool = True) -> dict[str, bytes]:
    """Compute everything, then write it under ``docs``; report files, sizes, times and changes."""
    timings = Timings()
    start = time.perf_counter()
    files, quoted = compute(catalog, timings, templates, every_configuration)
    previous = docs / PROSE_NUMBERS
    old = json.loads(previous.read_text(encoding="utf-8")) if previous.exists() else {}
    with timings.stage("write"):
        write(docs, files)
    timings.stages["total"] = time.perf_counter() - start
    report(files, timings, changed_numbers(old, quoted), print_fn)
    return files
