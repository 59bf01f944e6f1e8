"""What each model holds in memory: its weights and its KV cache per token."""
from __future__ import annotations

import altair as alt

from .common import ORANGE, TEAL, axis, column, field, finish, formatted, label, literal, source, title

NAME = "memory"
SAYS_IF_IT_FITS = False  # the same rows at any batch and context
DESCRIPTION = ("Two bar charts side by side: model weights in GB and KV cache per token in kB, for the "
               "target and each drafter.")
ROWS = {"table": [
    {"walk": [], "rows": [{"model": label("target"), "role": literal("target"),
                           "weight_bytes": field("target_weight_bytes"),
                           "kv_bytes_per_token": field("target_kv_bytes_per_token")}]},
    {"walk": ["drafter"], "rows": [{"model": label("drafter"), "role": literal("drafter"),
                                    "weight_bytes": field("draft_weight_bytes"),
                                    "kv_bytes_per_token": field("draft_kv_bytes_per_token")}]},
]}
COLUMNS = [column("model", "model"), column("role", "role"), column("weight_bytes", "weights", "gb2"),
           column("kv_bytes_per_token", "KV cache per token", "kb")]
PANEL_WIDTH = 103
PANEL_SPACING = 42
ROW_STEP = 34


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(
        weight_gb="datum.weight_bytes / 1e9", kv_kb_per_token="datum.kv_bytes_per_token / 1e3",
        # rounded as the prose and the data table round them
        weights_shown=formatted("datum.weight_bytes", "gb2"),
        kv_shown=formatted("datum.kv_bytes_per_token", "kb"),
        # the bars' value labels: numbers only, the unit is in the axis title
        weights_value=formatted("datum.weight_bytes", "gb2", suffix=False),
        kv_value=formatted("datum.kv_bytes_per_token", "kb", suffix=False),
    )
    colour = alt.Color("role:N", title=None, scale=alt.Scale(domain=["target", "drafter"], range=[ORANGE, TEAL]),
                       legend=alt.Legend(orient="top", direction="horizontal", symbolType="square"))
    tooltip = [alt.Tooltip("model:N", title="model"), alt.Tooltip("role:N", title="role"),
               alt.Tooltip("weights_shown:N", title="weights"), alt.Tooltip("kv_shown:N", title="KV cache per token")]
    weights = _panel(base, "weight_gb", "weights_value", "weights (GB)", "Weights", colour, tooltip, names=True)
    kv = _panel(base, "kv_kb_per_token", "kv_value", "kB per token", "KV cache", colour, tooltip)
    # Fixed panel widths: Vega-Lite cannot size concatenated views to the container. Model names
    # sit above the bars rather than in a y axis, and the spacing takes the overflow of names and
    # values, so both panels fit a 320 px screen (a column of 288 px). Flush: the panels placed by
    # their widths, not their text's, which the browser and the picture's renderer measure
    # differently (found at 320 px: the view 350 px wide, its picture 332, scaled to two heights).
    chart = alt.hconcat(weights, kv, spacing=PANEL_SPACING, bounds="flush").resolve_scale(y="shared").properties(
        # true of every target the menus offer: a draft model's cache per token is 78% of
        # Qwen3-8B's, more than the mixture of experts' own, and a tenth of Llama-3.3-70B's
        # (lines no wider than the panels, for the same reason)
        title=title("What a drafter costs in memory", "A draft model's weights are a small",
                    "share of the target's; its KV cache", "per token can be a large one."),
    )
    return finish(chart, NAME, DESCRIPTION)


def _panel(base, value, shown, axis_title, panel_title, colour, tooltip, names=False):
    x = alt.X(f"{value}:Q", title=axis_title)
    # room above the first bar for its name (at 0.3 "Qwen3-8B" sat on the panel's top edge, found
    # by a cold read on a phone)
    y = alt.Y("model:N", title=None, sort=None, axis=None, scale=alt.Scale(paddingInner=0.5, paddingOuter=0.6))
    bars = base.mark_bar().encode(x=x, y=y, color=colour, tooltip=tooltip)
    # Values in words too: the n-gram's zero bars would otherwise be invisible.
    values = base.mark_text(align="left", dx=3, fontSize=10).encode(x=x, y=y, color=colour, text=f"{shown}:N")
    layers = [bars, values]
    if names:
        layers.append(base.mark_text(align="left", baseline="bottom", dy=-2, fontSize=11).encode(
            x=alt.datum(0), y=alt.Y("model:N", sort=None, bandPosition=0), color=colour, text="model:N"))
    return alt.layer(*layers).properties(width=PANEL_WIDTH, height=alt.Step(ROW_STEP), title=panel_title)
