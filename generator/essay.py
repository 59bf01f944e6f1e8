"""Render the essay pages from Jinja2 templates, every number a template expression over model
outputs.

The context wraps model outputs in ``Quantity``/``Count`` values that know their names; the
environment's ``finalize`` records every value the prose prints (so a rebuild can report what
changed) and refuses a float printed without a named format filter.
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from specmodel import closed_forms as cf
from specmodel.readouts import READOUT_KEYS, Readouts
from specmodel.vllm import engine_log_line, engine_log_window

from .axes import site_state, state_query
from .contract import FIELDS
from .filters import FILTERS, Quantity, Quoted
from .site_model import full_dims
from .typography import keep_together

TEMPLATES = Path(__file__).parent / "templates"
PAGES = {"index.md.j2": ("index.md", ""), "model.md.j2": ("model.md", "../")}


class TemplateBuildError(RuntimeError):
    """A template failed: the message names the template, the line and the value."""


class Count(int):
    """An integer model value (batch, γ, token counts) that knows its name."""

    def __new__(cls, value: int, path: str):
        c = super().__new__(cls, value)
        c.path = path
        return c


def wrap(value, path: str):
    """Give a context value its name: numbers become Quantity/Count, containers are wrapped."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return Count(value, path)
    if isinstance(value, float):
        return Quantity(value, path)
    if isinstance(value, dict):
        return Scope(path, value)
    if isinstance(value, (list, tuple)):
        return [wrap(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


class Scope:
    """Attribute and item access over a dict of model values; unknown names are undefined
    (StrictUndefined turns that into an error naming the value)."""

    def __init__(self, path: str, values: dict):
        self._path = path
        self._values = values

    def __getattr__(self, key: str):
        if key.startswith("_") or key not in self._values:
            raise AttributeError(key)
        return wrap(self._values[key], f"{self._path}.{key}")

    def __getitem__(self, key):
        if key not in self._values:
            raise KeyError(key)
        return wrap(self._values[key], f"{self._path}[{key!r}]")

    def __iter__(self):
        return iter(self._values)

    def items(self):
        return [(k, self[k]) for k in self._values]

    def values(self):
        return [self[k] for k in self._values]


class ClosedForms:
    """Leviathan et al. 2023's closed forms, callable from templates, results named by call."""

    @staticmethod
    def _q(name: str, value, *args) -> Quantity:
        return Quantity(float(value), f"cf.{name}({', '.join(str(float(a)) for a in args)})")

    def expected_tokens(self, alpha, gamma):
        return self._q("expected_tokens", cf.expected_tokens_per_iteration(float(alpha), float(gamma)), alpha, gamma)

    def ceiling(self, alpha):
        return self._q("ceiling", cf.expected_tokens_ceiling(float(alpha)), alpha)

    def arithmetic_increase(self, alpha, gamma, c_hat):
        return self._q("arithmetic_increase", cf.arithmetic_increase(float(alpha), float(gamma), float(c_hat)), alpha, gamma, c_hat)

    def walltime_improvement(self, alpha, gamma, c):
        return self._q("walltime_improvement", cf.walltime_improvement(float(alpha), float(gamma), float(c)), alpha, gamma, c)

    def survival_odds(self, alpha, gamma):
        return self._q("survival_odds", 1 / float(alpha) ** float(gamma), alpha, gamma)


def state_values(changes: dict, site) -> dict:
    """Everything the prose may quote about one state of the site's grid (``changes`` from the
    defaults), from the SiteModel: its fields (every contract field the state alone indexes),
    its readouts, its engine-log line, its step broken into parts under every cost model
    (``parts[model][step kind][part]``, ``step_time[model][step kind]``, seconds), and its
    speedup along each numeric axis (``speedup_by_batch`` …: {axis value: speedup})."""
    state = site_state(**changes)
    coords = {**site.defaults, **changes}
    readouts = site.readouts(coords)
    fields = {f: site.value(f, coords) for f in FIELDS if set(full_dims(f)) <= set(coords)}
    values = {**state.as_dict(), **fields, **readouts}
    ax = site.axes
    values["parts"] = {m: {k: {p: site.value("part_time_s", coords, breakdown_model=m, step_kind=k, part=p)
                               for p in ax["part"]} for k in ax["step_kind"]} for m in ax["breakdown_model"]}
    values["step_time"] = {m: {k: site.value("step_time_s", coords, breakdown_model=m, step_kind=k)
                               for k in ax["step_kind"]} for m in ax["breakdown_model"]}
    for dim in ("batch", "context", "gamma"):
        values[f"speedup_by_{dim}"] = {v: site.value("speedup", coords, **{dim: v}) for v in ax[dim]}
    window = engine_log_window(state, Readouts(**{k: readouts[k] for k in READOUT_KEYS}))
    values["log_line"] = engine_log_line(window)
    values["log_draft_acceptance_rate"] = window.draft_acceptance_rate
    values["config_flag"] = site.value("speculative_config", coords)
    values["drafter_label"] = site.labels["drafter"][state.drafter]
    values["acceptance_label"] = site.labels["acceptance"][state.acceptance]
    values["query"] = state_query(coords, site.defaults)
    # the decision map at this state's batch, context and workload, per kind of traffic
    values["decision"] = {t: {k: site.value(f"decision_{k}", coords, task=t)
                              for k in ("drafter", "gamma", "alpha", "acceptance", "speedup", "fits")}
                          for t in site.axes["task"]}
    return values


def decision_map_summary(site, coords: dict) -> dict:
    """The decision map at state ``coords``'s configuration and workload (the grid's coordinates,
    every state axis), as the prose describes it:
    ``cells`` (batch × context, an int), ``wins[task][drafter]`` (cells that drafter wins;
    plain decoding as "plain"), ``wins_that_fit[task][drafter]`` (those of them whose state fits
    in the GPU's memory: the map fades the others) and ``alike``, the groups of kinds of traffic
    whose maps agree cell for cell (drafter, γ and speedup as the map prints them), each a list
    of task keys."""
    ax = site.axes
    maps = {}
    for task in ax["task"]:
        cells = []
        for b in ax["batch"]:
            for p in ax["context"]:
                at = {"task": task, "batch": b, "context": p}
                speedup = site.value("decision_speedup", coords, **at)
                cells.append((site.value("decision_drafter", coords, **at) if speedup > 1 else "plain",
                              site.value("decision_gamma", coords, **at), round(speedup, 2),
                              bool(site.value("decision_fits", coords, **at))))
        maps[task] = cells
    wins = {t: {d: sum(1 for c in cells if c[0] == d) for d in dict.fromkeys(c[0] for c in cells)}
            for t, cells in maps.items()}
    wins_that_fit = {t: {d: sum(1 for c in cells if c[0] == d and c[3]) for d in wins[t]}
                     for t, cells in maps.items()}
    alike = []
    for task in ax["task"]:
        group = next((g for g in alike if maps[g[0]] == maps[task]), None)
        if group is None:
            alike.append([task])
        else:
            group.append(task)
    return {"cells": len(ax["batch"]) * len(ax["context"]), "wins": wins, "wins_that_fit": wins_that_fit,
            "alike": [g for g in alike if len(g) > 1]}


@dataclass
class Recorder:
    """Every value the prose printed, by page: {page: {value name: [texts, in order]}}."""

    quoted: dict = field(default_factory=dict)
    page: str = ""
    # every number a filter wrote, by page: {page: [(value, text), …]}, model output or not
    written: dict = field(default_factory=dict)

    def finalize(self, value):
        path = getattr(value, "path", None)
        if isinstance(value, Quoted) and value.value is not None and not getattr(value, "published", False):
            self.written.setdefault(self.page, []).append((value.value, str(value)))
        if isinstance(value, Quantity) and not isinstance(value, Quoted):
            raise TemplateBuildError(f"{path} = {float(value)!r} printed without a format filter (times, pct, gb, …)")
        if path is not None:
            # one value may be quoted in several formats (2.07× and 2.1×): keep each
            texts = self.quoted.setdefault(self.page, {}).setdefault(path, [])
            if str(value) not in texts:
                texts.append(str(value))
        return "" if value is None else value


def make_environment(recorder: Recorder, templates: Path = TEMPLATES) -> jinja2.Environment:
    """Jinja2 with StrictUndefined, the named number filters, and ``recorder`` as finalize."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        undefined=jinja2.StrictUndefined,
        finalize=recorder.finalize,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(FILTERS)
    return env


def _where(exc: BaseException) -> str:
    """template:line of the innermost template frame of a traceback."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".j2")]
    if getattr(exc, "lineno", None) and getattr(exc, "name", None):
        return f"{exc.name}:{exc.lineno}"
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"


def render_pages(context: dict, recorder: Recorder, templates: Path = TEMPLATES) -> dict[str, str]:
    """Render every page; {output path relative to docs/: Markdown}. Raises TemplateBuildError."""
    env = make_environment(recorder, templates)
    out = {}
    for template_name, (path, root) in PAGES.items():
        recorder.page = path
        try:
            out[path] = keep_together(env.get_template(template_name).render(**context, root=root))
        except TemplateBuildError as e:
            raise TemplateBuildError(f"{template_name}: {e}") from None
        except jinja2.TemplateError as e:
            raise TemplateBuildError(f"{_where(e)}: {e.message or e}") from None
        except Exception as e:  # a context function failed: still say where
            raise TemplateBuildError(f"{_where(e)}: {type(e).__name__}: {e}") from None
    return out
