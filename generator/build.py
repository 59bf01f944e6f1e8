"""``python -m generator build``: compute every generated file in memory, then write them all.

Nothing is written unless everything succeeded: a model error (ModelInputError naming the entry
and field) or a template error (TemplateBuildError naming template, line and value) stops the
build with the docs/ tree untouched.
"""
from __future__ import annotations

import json
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from specmodel import Catalog, default_catalog, evaluate
from specmodel.vllm import engine_log_line, engine_log_window, speculative_config_flag

from . import chart_rows, charts, svg
from .axes import AXES, DEFAULTS, LABELS, shard_path, site_state
from .context import build_context
from .essay import TEMPLATES, Recorder, render_pages
from .readout_lookup import readouts_at
from .rounding import dumps
from .sampler_demo import run_sampler_demo
from .site_data import build_site_data
from .version import model_version

# Generated paths under docs/ (git-ignored); everything else in docs/ is hand-written.
GENERATED_DIRS = ("data", "charts", "vendor")
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
    """Everything but the essay: generated files so far, and what the templates need."""

    files: dict
    chart_info: dict
    sampler_demo: object
    sim: dict


def prepare(catalog: Catalog | None = None, timings: Timings | None = None) -> Prepared:
    """Grid data, chart specs, SVGs and the Vega bundle, as {path relative to docs/: bytes}."""
    catalog = catalog or default_catalog()
    timings = timings or Timings()
    out: dict[str, bytes] = {}
    version = model_version(catalog)
    with timings.stage("grid"):
        data = build_site_data(catalog, version)
    manifest, core = data["manifest.json"], data["core.json"]
    default_shard = data[shard_path(DEFAULTS["acceptance"], DEFAULTS["workload"], AXES["alpha"].index(DEFAULTS["alpha"]))]
    with timings.stage("sampler"):
        demo = run_sampler_demo()
    data["sampler.json"] = {"model_version": version, "rows": demo.rows, "draws": demo.draws}
    for path, doc in data.items():
        out[f"data/{path}"] = dumps(doc)

    with timings.stage("charts"):
        specs = charts.build_specs(LABELS["drafter"])
        chart_info = {}
        for name, spec in specs.items():
            datasets = chart_rows.datasets_for(name, DEFAULTS, manifest, core, default_shard, data["sampler.json"])
            out[f"charts/{name}.vl.json"] = json.dumps(spec, indent=1, sort_keys=True).encode()
            for dataset, url in charts.data_urls(name).items():
                out[url] = dumps(datasets[dataset])
            chart_info[name] = {"description": spec.get("description", name), "rows": datasets["table"],
                                "spec": spec, "datasets": datasets}
    with timings.stage("svg"):
        for name, info in chart_info.items():
            out[f"charts/{name}.svg"] = svg.render_svg(info["spec"], info["datasets"]).encode()
        out["vendor/vega-bundle.js"] = svg.vega_bundle().encode()

    state = site_state()
    readouts = evaluate(state, catalog=catalog)
    sim = {
        "axes": AXES, "labels": LABELS, "defaults": DEFAULTS,
        "readouts": readouts_at(DEFAULTS, manifest, core, default_shard),
        "vllm_config": speculative_config_flag(state, catalog),
        "vllm_log": engine_log_line(engine_log_window(state, readouts)),
        "token_row": default_shard["by_gamma"]["token_row"][AXES["gamma"].index(DEFAULTS["gamma"])],
        "model_version": version, "gpu_memory_bytes": catalog.gpus[state.gpu].memory_capacity_bytes,
    }
    return Prepared(out, chart_info, demo, sim)


def render_essay(prepared: Prepared, catalog: Catalog | None = None, templates: Path = TEMPLATES) -> tuple[dict[str, bytes], dict]:
    """The essay pages (and the record of quoted numbers) as {path: bytes}, plus that record."""
    catalog = catalog or default_catalog()
    recorder = Recorder()
    context = build_context(catalog, prepared.chart_info, prepared.sampler_demo, prepared.sim)
    out = {path: text.encode() for path, text in render_pages(context, recorder, templates).items()}
    out[PROSE_NUMBERS] = dumps(recorder.quoted)
    return out, recorder.quoted


def compute(catalog: Catalog | None = None, timings: Timings | None = None,
            templates: Path = TEMPLATES) -> tuple[dict[str, bytes], dict]:
    """Every generated file as {path relative to docs/: bytes}, and the prose numbers quoted."""
    catalog = catalog or default_catalog()
    timings = timings or Timings()
    prepared = prepare(catalog, timings)
    with timings.stage("essay"):
        pages, quoted = render_essay(prepared, catalog, templates)
    return {**prepared.files, **pages}, quoted


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
        groups.setdefault(key, []).append(len(content))
    print_fn("wrote:")
    for key in sorted(groups):
        sizes = groups[key]
        print_fn(f"  docs/{key:<24} {len(sizes):>4} file{'s' if len(sizes) > 1 else ' '} {sum(sizes) / 1024:>9.1f} KiB"
                 f"  (largest {max(sizes) / 1024:.1f} KiB)")
    print_fn(f"  total {len(files)} files, {sum(len(c) for c in files.values()) / 1024 / 1024:.2f} MiB")
    print_fn("time: " + ", ".join(f"{k} {v:.2f} s" for k, v in timings.stages.items()))
    if changes:
        print_fn(f"numbers quoted in the prose that changed since the previous build ({len(changes)}):")
        for line in changes:
            print_fn("  " + line)
    else:
        print_fn("no number quoted in the prose changed since the previous build")


def build(docs: Path, catalog: Catalog | None = None, print_fn=print, templates: Path = TEMPLATES) -> dict[str, bytes]:
    """Compute everything, then write it under ``docs``; report files, sizes, times and changes."""
    timings = Timings()
    start = time.perf_counter()
    files, quoted = compute(catalog or default_catalog(), timings, templates)
    previous = docs / PROSE_NUMBERS
    old = json.loads(previous.read_text(encoding="utf-8")) if previous.exists() else {}
    with timings.stage("write"):
        write(docs, files)
    timings.stages["total"] = time.perf_counter() - start
    report(files, timings, changed_numbers(old, quoted), print_fn)
    return files
