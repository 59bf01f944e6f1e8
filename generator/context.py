"""The essay templates' context: named states, constants, closed forms, charts and readouts."""
from __future__ import annotations

import html
from dataclasses import asdict
from importlib import resources

import jinja2
from markupsafe import Markup

from specmodel import Catalog
from specmodel.acceptance import FALLING_DECAY
from specmodel.claims import evaluate_claims
from specmodel.vllm import LOG_WINDOW_ITERATIONS
from specmodel.workloads import ACTIVE_PROBABILITY_FLOOR

from .axes import AXES, LABELS, site_state
from .essay import ClosedForms, Scope, state_values, wrap
from .essay_states import ESSAY_STATES, PAPER_T5_TABLE
from .filters import FILTERS
from .rounding import sig


def _arch_values(arch) -> dict:
    values = asdict(arch)
    values.update(params=arch.params, weight_bytes=arch.weight_bytes, kv_bytes_per_token=arch.kv_bytes_per_token)
    return values


def _claims_rows() -> list[dict]:
    return evaluate_claims((resources.files("specmodel") / "data" / "essay-claims.csv").read_text(encoding="utf-8"))


def _table_html(rows: list[dict], caption: str) -> str:
    """An HTML data table of a chart's rows (the no-JS and screen-reader alternative)."""
    if not rows:
        return ""
    cols = list(rows[0])
    head = "".join(f"<th scope=\"col\">{html.escape(c.replace('_', ' '))}</th>" for c in cols)

    def cell(v):
        if isinstance(v, float):
            v = sig(v)
        return html.escape(str(v))

    body = "".join("<tr>" + "".join(f"<td>{cell(r[c])}</td>" for c in cols) + "</tr>" for r in rows)
    return (f"<details class=\"spec-table\"><summary>Data table: {html.escape(caption)}</summary>"
            f"<div class=\"md-typeset__scrollwrap\"><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div></details>")


def build_context(catalog: Catalog, charts: dict, sampler_demo, sim: dict) -> dict:
    """Template variables.

    charts: {name: {"description": str, "rows": [...]}} at the default state. sim: the simulation
    partial's values (axes, labels, defaults, readouts, vllm_config, vllm_log).
    """
    ctx: dict = {}
    for name, changes in ESSAY_STATES.items():
        ctx[name] = Scope(name, state_values(site_state(**changes), catalog))
    target = catalog.targets[site_state().target]
    gpu = catalog.gpus[site_state().gpu]
    ctx["target"] = Scope("target", _arch_values(target))
    ctx["gpu"] = Scope("gpu", asdict(gpu))
    ctx["drafters"] = Scope("drafters", {
        k: {"label": d.label, "method": d.kind, "weight_bytes": d.weight_bytes,
            "kv_bytes_per_token": d.kv_bytes_per_token,
            **(_arch_values(d.architecture) if hasattr(d, "architecture") else {"prompt_lookup_max": d.prompt_lookup_max})}
        for k, d in catalog.drafters.items()
    })
    ctx["constants"] = Scope("constants", {
        "falling_decay": FALLING_DECAY, "output_tokens": site_state().output_tokens, "grid_states": _grid_size(),
        "active_probability_floor": ACTIVE_PROBABILITY_FLOOR, "log_window_iterations": LOG_WINDOW_ITERATIONS,
        "sampler_vocabulary_size": len(sampler_demo.rows),
    })
    ctx["cf"] = ClosedForms()
    ctx["sampler"] = Scope("sampler", {
        "draws": sampler_demo.draws, "observed_acceptance_rate": sampler_demo.observed_acceptance_rate,
        "expected_acceptance_rate": sampler_demo.expected_acceptance_rate,
        "chi_square_p_value": sampler_demo.chi_square_p_value,
    })
    ctx["claims"] = wrap(_claims_rows(), "claims")
    ctx["paper"] = Scope("paper", {"t5": PAPER_T5_TABLE})
    ctx["axes"] = AXES
    ctx["labels"] = LABELS
    ctx["sim"] = sim

    @jinja2.pass_context
    def chart(template_context, name: str, caption: str = "") -> Markup:
        """The figure of chart ``name``: live div, static SVG inside it, caption, data table."""
        info = charts[name]
        root = template_context.get("root", "")
        desc = html.escape(info["description"])
        return Markup(
            f"<figure class=\"spec-figure\" id=\"figure-{name}\">"
            f"<div class=\"spec-chart\" data-chart=\"{name}\" data-spec=\"{root}charts/{name}.vl.json\">"
            f"<img class=\"spec-chart__static\" src=\"{root}charts/{name}.svg\" alt=\"{desc}\" loading=\"lazy\">"
            f"</div>"
            + (f"<figcaption>{html.escape(str(caption))}</figcaption>" if caption else "")
            + _table_html(info["rows"], caption or info["description"])
            + "</figure>"
        )

    def live(key: str, fmt: str) -> Markup:
        """A number the simulation keeps current; the build writes the default state's value."""
        value = sim["readouts"][key]
        text = FILTERS[fmt](wrap(value, f"sim.{key}"))
        return Markup(f"<span class=\"live\" data-live=\"{html.escape(key)}\" data-fmt=\"{html.escape(fmt)}\">"
                      f"{html.escape(text)}</span>")

    ctx["chart"] = chart
    ctx["live"] = live
    return ctx


def _grid_size() -> int:
    n = 1
    for values in AXES.values():
        n *= len(values)
    return n
