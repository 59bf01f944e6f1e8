"""Charts about choosing a drafter: memory footprint and the best choice per batch × context."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt

from .common import CELL_DRAFTER, CELL_NONE, DEFAULT_DRAFTER_LABELS, ORANGE, TEAL, finish, label_expr, table, title

PANEL_WIDTH = 120
PANEL_SPACING = 36
ROW_STEP = 34


def memory() -> dict:
    """Weights (GiB) and KV cache per token (KiB) per model, two panels;
    rows `{model, role, weight_gib, kv_kib_per_token}` (static)."""
    base = alt.Chart(table("memory"))
    colour = alt.Color("role:N", title=None, scale=alt.Scale(domain=["target", "drafter"], range=[ORANGE, TEAL]),
                       legend=alt.Legend(orient="top", direction="horizontal", symbolType="square"))
    tooltip = [alt.Tooltip("model:N", title="model"), alt.Tooltip("role:N", title="role"),
               alt.Tooltip("weight_gib:Q", title="weights (GiB)", format=".3~f"),
               alt.Tooltip("kv_kib_per_token:Q", title="KV cache per token (KiB)", format=".4~g")]
    weights = _panel(base, "weight_gib", "weights (GiB)", "Weights", colour, tooltip, names=True)
    kv = _panel(base, "kv_kib_per_token", "KV cache per token (KiB)", "KV cache per token", colour, tooltip)
    # Fixed panel widths: Vega-Lite cannot size concatenated views to the container.  Model
    # names sit above the bars rather than in a y axis, and the spacing takes the overflow of
    # names and values, so both panels fit a 375 px screen.
    chart = alt.hconcat(weights, kv, spacing=PANEL_SPACING).resolve_scale(y="shared").properties(
        title=title(
            "What a drafter costs in memory",
            "Small weights, but a KV cache per token",
            "close to the target's.",
        ),
    )
    return finish(
        chart, "memory",
        "Two bar charts side by side: model weights in GiB and KV cache per token in KiB, for the "
        "Qwen3-8B target and each drafter.",
    )


def _panel(base, field, axis_title, panel_title, colour, tooltip, names=False):
    x = alt.X(f"{field}:Q", title=axis_title)
    y = alt.Y("model:N", title=None, sort=None, axis=None, scale=alt.Scale(paddingInner=0.5, paddingOuter=0.3))
    bars = base.mark_bar().encode(x=x, y=y, color=colour, tooltip=tooltip)
    # Values in words too: the n-gram's zero bars would otherwise be invisible.
    values = base.mark_text(align="left", dx=3, fontSize=10).encode(
        x=x, y=y, color=colour, text=alt.Text(f"{field}:Q", format=".3~g"))
    layers = [bars, values]
    if names:
        layers.append(base.mark_text(align="left", baseline="bottom", dy=-2, fontSize=11).encode(
            x=alt.datum(0), y=alt.Y("model:N", sort=None, bandPosition=0), color=colour, text="model:N"))
    return alt.layer(*layers).properties(width=PANEL_WIDTH, height=alt.Step(ROW_STEP), title=panel_title)


def decision(labels: Mapping[str, str] | None = None) -> dict:
    """Best drafter and γ per (batch, context) cell, 77 cells;
    rows `{batch, context, drafter, gamma, speedup, label, fits}`; `labels` maps drafter keys to names."""
    labels = dict(labels or DEFAULT_DRAFTER_LABELS)
    drafters = list(labels)
    base = alt.Chart(table("decision"))
    # Gaps between cells show the page background, so no separator colour is hard-coded.
    gap = alt.Scale(paddingInner=0.06)
    x = alt.X("context:O", title="context length (tokens, k = 1024)", scale=gap,
              axis=alt.Axis(labelAngle=0, orient="top",
                            labelExpr="datum.value >= 1024 ? datum.value / 1024 + 'k' : datum.value"))
    y = alt.Y("batch:O", title="concurrent sequences (batch size)", scale=gap)
    cells = base.mark_rect().encode(
        x=x, y=y,
        # A choice that does not fit in the GPU's memory is outlined: possible only on paper. An
        # outline keeps the fill, so the white labels stay readable in both palettes.
        stroke=alt.condition("datum.fits", alt.value(None), alt.value(ORANGE)),
        strokeWidth=alt.condition("datum.fits", alt.value(0), alt.value(3)),
        # Where even the best choice is slower than plain decoding, the cell is grey: don't speculate.
        color=alt.condition(
            "datum.speedup <= 1",
            alt.value(CELL_NONE),
            alt.Color("drafter:N", title="best drafter",
                      scale=alt.Scale(domain=drafters, range=[CELL_DRAFTER.get(d, TEAL) for d in drafters]),
                      legend=alt.Legend(orient="bottom", columns=1, labelExpr=label_expr(labels),
                                        symbolStrokeWidth=0)),
        ),
        tooltip=[alt.Tooltip("batch:O", title="concurrent sequences"),
                 alt.Tooltip("context:O", title="context (tokens)"),
                 alt.Tooltip("drafter:N", title="best drafter"),
                 alt.Tooltip("gamma:Q", title="best γ"),
                 alt.Tooltip("speedup:Q", title="speedup (×)", format=".3~f"),
                 alt.Tooltip("fits:N", title="fits in memory")],
    )
    # Two-line label: shift up half a line so the pair is centred in the cell.
    text = base.mark_text(color="#ffffff", fontSize=10, lineBreak="\n", dy=-6).encode(x=x, y=y, text="label:N")
    chart = alt.layer(cells, text).properties(
        width="container",
        height=alt.Step(30),
        title=title(
            "Best drafter and γ per batch and context",
            "Colour: the fastest drafter; text: its γ and",
            "speedup. Grey: plain decoding wins. Outlined:",
            "does not fit in the GPU's memory.",
        ),
    )
    return finish(
        chart, "decision",
        "Heatmap over batch size and context length; each cell is coloured by the drafter with the "
        "highest speedup and labelled with its best γ and speedup.",
    )
