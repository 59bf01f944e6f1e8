"""Charts about choosing a drafter: memory footprint and the best choice per batch × context."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt

from .common import CELL_DRAFTER, CELL_NONE, DEFAULT_DRAFTER_LABELS, ORANGE, TEAL, finish, label_expr, table

PANEL_WIDTH = 120


def memory() -> dict:
    """Weights (GiB) and KV cache per token (KiB) per model, two panels;
    rows `{model, role, weight_gib, kv_kib_per_token}` (static)."""
    base = alt.Chart(table("memory"))
    y = alt.Y("model:N", title=None, sort=None)
    colour = alt.Color("role:N", title=None, scale=alt.Scale(domain=["target", "drafter"], range=[ORANGE, TEAL]),
                       legend=alt.Legend(orient="top", direction="horizontal"))
    tooltip = [alt.Tooltip("model:N", title="model"), alt.Tooltip("role:N", title="role"),
               alt.Tooltip("weight_gib:Q", title="weights (GiB)", format=".3~f"),
               alt.Tooltip("kv_kib_per_token:Q", title="KV cache per token (KiB)", format=".4~g")]
    weights = base.mark_bar().encode(
        x=alt.X("weight_gib:Q", title="weights (GiB)"), y=y, color=colour, tooltip=tooltip,
    ).properties(width=PANEL_WIDTH, title="Weights")
    kv = base.mark_bar().encode(
        x=alt.X("kv_kib_per_token:Q", title="KV cache per token (KiB)"),
        y=alt.Y("model:N", title=None, sort=None, axis=alt.Axis(labels=False, ticks=False, domain=False)),
        color=colour, tooltip=tooltip,
    ).properties(width=PANEL_WIDTH, title="KV cache per token")
    # Fixed panel widths: Vega-Lite cannot size concatenated views to the container; two
    # 120 px panels plus model labels still fit a 375 px screen.
    chart = alt.hconcat(weights, kv, spacing=12).resolve_scale(y="shared").properties(
        title=alt.Title(
            "What the draft model costs in memory",
            subtitle="A drafter's weights are small, but its KV cache per token is close to the target's.",
        ),
    )
    return finish(
        chart, "memory",
        "Two bar charts side by side: model weights in GiB and KV cache per token in KiB, for the "
        "Qwen3-8B target and each drafter.",
    )


def decision(labels: Mapping[str, str] | None = None) -> dict:
    """Best drafter and γ per (batch, context) cell, 77 cells;
    rows `{batch, context, drafter, gamma, speedup, label}`; `labels` maps drafter keys to names."""
    labels = dict(labels or DEFAULT_DRAFTER_LABELS)
    drafters = list(labels)
    base = alt.Chart(table("decision"))
    x = alt.X("context:O", title="context length (tokens)", axis=alt.Axis(labelAngle=0, orient="top"))
    y = alt.Y("batch:O", title="concurrent sequences (batch size)")
    cells = base.mark_rect(stroke="#ffffff", strokeWidth=0.5).encode(
        x=x, y=y,
        # Where even the best choice is slower than plain decoding, the cell is grey: don't speculate.
        color=alt.condition(
            "datum.speedup <= 1",
            alt.value(CELL_NONE),
            alt.Color("drafter:N", title="best drafter",
                      scale=alt.Scale(domain=drafters, range=[CELL_DRAFTER.get(d, TEAL) for d in drafters]),
                      legend=alt.Legend(orient="bottom", direction="horizontal", labelExpr=label_expr(labels))),
        ),
        tooltip=[alt.Tooltip("batch:O", title="concurrent sequences"),
                 alt.Tooltip("context:O", title="context (tokens)"),
                 alt.Tooltip("drafter:N", title="best drafter"),
                 alt.Tooltip("gamma:Q", title="best γ"),
                 alt.Tooltip("speedup:Q", title="speedup (×)", format=".3~f")],
    )
    text = base.mark_text(color="#ffffff", fontSize=10, lineBreak="\n").encode(x=x, y=y, text="label:N")
    chart = alt.layer(cells, text).properties(
        width="container",
        height=alt.Step(30),
        title=alt.Title(
            "The best drafter and γ for each batch size and context",
            subtitle="Each cell: the fastest drafter (colour), its γ and speedup. Grey: nothing beats plain decoding.",
        ),
    )
    return finish(
        chart, "decision",
        "Heatmap over batch size and context length; each cell is coloured by the drafter with the "
        "highest speedup and labelled with its best γ and speedup.",
    )
