"""Plain decoding's throughput at every batch size under both cost models, and as measured."""
from __future__ import annotations

import altair as alt

from ..axes import MEASURED_STUDIES
from .common import (formatted, BATCH_LABELS, BLUE, DRAWN_TITLE_OPACITY, DRAWN_VALUES, PURPLE, TEAL, axis, column, current, drawn, field,
                     finish, label, label_expr, source, title, walk)

NAME = "throughput"
DESCRIPTION = ("Line chart of plain decoding throughput in tokens per second for each batch size from 1 to 1024 "
               "concurrent sequences, under the current cost model (solid) and the other one (dashed), with "
               "throughputs measured in vLLM on an H100 (diamonds) where they were taken near the current context.")
# The drafter whose memory is plain decoding's (specmodel.readouts: weights + B·(P+G)·KV per token of
# target and draft; n-gram lookup has neither draft weights nor a draft cache).
PLAIN_MEMORY_DRAFTER = "ngram"
ROWS = {
    "table": [walk(["batch"], batch=axis("batch"), plain=field("plain_tokens_per_s"),
                   other_plain=field("other_plain_tokens_per_s"), other=field("other_cost_model"),
                   current=current("batch"),
                   # plain decoding's memory is the n-gram drafter's: no draft weights, no draft cache
                   fits=field("fits_in_memory", drafter=PLAIN_MEMORY_DRAFTER), gpu_memory=field("gpu_memory_bytes"),
                   **{f"measured_{study}": field("measured_plain_tokens_per_s", measured_study=study)
                      for study in MEASURED_STUDIES})],
    "measured": [walk(["measured_study", "batch"], study=axis("measured_study"), study_label=label("measured_study"),
                      batch=axis("batch"), tokens_per_s=field("measured_plain_tokens_per_s"),
                      measured_context=field("measured_context_tokens"))],
}
COLUMNS = ([column("batch", "concurrent sequences", "int"), column("plain", "plain tokens/s", "tps"),
            column("other_plain", "plain tokens/s, other cost model", "tps"), column("fits", "plain decoding fits in memory", "yes")]
           + [column(f"measured_{study}", f"measured by {study} (near this context)", "tps")
              for study in MEASURED_STUDIES])
HEIGHT = 190
STUDY_COLOURS = [TEAL, PURPLE]


def _or(contexts: list[int]) -> str:
    """Grid contexts as the caption and the prose write them: 512, 8,192 (found by a cold read: the
    legend's "8k" beside the caption's "8,192")."""
    names = [f"{c:,}" for c in contexts]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def spec(context: dict) -> dict:
    taken = context["measured_contexts"]
    models = context["labels"]["cost_model"]
    studies = context["labels"]["measured_study"]
    base = alt.Chart(source(NAME)).transform_calculate(
        plain_shown=formatted("datum.plain", "tps"),
        # one line: the value and which model gives it (a tooltip's titles are fixed, the other model is not)
        other_plain_shown=formatted("datum.other_plain", "tps") + " + ' (' + " + label_expr(models, "datum.other") + " + ')'",
        memory="(datum.fits ? 'fits in ' : 'does not fit in ') + " + formatted("datum.gpu_memory", "gb"),
    )
    x = alt.X("batch:O", title="concurrent sequences (batch size)", axis=alt.Axis(labelAngle=0, labelExpr=BATCH_LABELS))
    tip = [alt.Tooltip("batch:O", title="concurrent sequences", format=","), alt.Tooltip("plain_shown:N", title="plain decoding"),
           alt.Tooltip("other_plain_shown:N", title="other cost model"), alt.Tooltip("memory:N", title="memory")]
    y = alt.Y("plain:Q", title="plain decoding, tokens/s", scale=alt.Scale(type="log"), axis=alt.Axis(format="~s"))
    # The line through every batch; a dot on each that fits in memory, a hollow one where it does not.
    line = base.mark_line(color=BLUE, strokeWidth=2).encode(x=x, y=y, tooltip=tip)
    dots = base.mark_point(filled=True, color=BLUE, stroke=BLUE, size=30, strokeWidth=1.5, opacity=1).encode(
        x=x, y=y, fillOpacity=alt.condition("datum.fits", alt.value(1), alt.value(0)), tooltip=tip)
    # The current rung: a ring on the line.
    ring = base.transform_filter("datum.current").mark_point(size=160, strokeWidth=2, color=BLUE).encode(
        x=x, y=y, tooltip=tip)
    other = base.mark_line(color="currentColor", opacity=0.5, strokeDash=[4, 3]).encode(
        x=x, y=alt.Y("other_plain:Q"), tooltip=tip)
    measured = alt.Chart(source(NAME, "measured")).transform_filter("isValid(datum.tokens_per_s)").transform_calculate(
        measured_shown=formatted("datum.tokens_per_s", "tps", suffix=False),
        context_shown="format(datum.measured_context, ',.0f') + ' tokens'",
        fitted="'yes: the calibrated model was fitted to it'",
    ).mark_point(shape="diamond", size=80, filled=True,
                 # the data table carries the measurements; an empty layer would be an unnamed graphic
                 aria=False).encode(
        x=x, y=alt.Y("tokens_per_s:Q"),
        color=alt.Color("study:N", title="measured", scale=alt.Scale(domain=list(studies), range=STUDY_COLOURS),
                        # only the studies measured at this context: none at most contexts
                        legend=alt.Legend(orient="top", direction="horizontal", labelExpr=label_expr(studies),
                                          symbolType="diamond", values=DRAWN_VALUES,
                                          titleOpacity=DRAWN_TITLE_OPACITY)),
        opacity=drawn("study:N", list(studies), 0.95),
        tooltip=[alt.Tooltip("study_label:N", title="measured by"), alt.Tooltip("batch:O", title="concurrent sequences", format=","),
                 alt.Tooltip("measured_shown:N", title="plain tokens/s"),
                 alt.Tooltip("context_shown:N", title="context when measured"),
                 alt.Tooltip("fitted:N", title="used in the fit")],
    )
    chart = alt.layer(other, line, dots, ring, measured).properties(
        width="container", height=HEIGHT,
        # every line true of every configuration the spec is drawn for: the measurements are of
        # the opening one only
        title=title("Plain decoding at each batch size", "Solid: the cost model you picked; dashed: the",
                    "other; hollow dots: does not fit in memory.", f"Diamonds, only for {taken['where']}:", f"measured in vLLM at {round(taken['min']):,} to {round(taken['max']):,} tokens of",
                    "context, drawn at the nearest context here:", f"only at {_or(taken['shown_at'])} tokens."),
    )
    # measurements exist at two contexts only: elsewhere the diamonds' layer has no rows
    return finish(chart, NAME, DESCRIPTION, may_be_empty=["tokens_per_s"])
