"""The ladder: the speedup at every batch size for the current drafter, γ and α."""
from __future__ import annotations

import altair as alt

from .common import BLUE, ORANGE, REFERENCE, axis, column, current, field, finish, source, title, walk

NAME = "ladder"
DESCRIPTION = ("Bar chart of the speedup of speculative decoding over plain decoding for each batch size "
               "from 1 to 1024 concurrent sequences, with a reference line at 1×.")
ROWS = {"table": [walk(["batch"], batch=axis("batch"), speedup=field("speedup"), current=current("batch"))]}
COLUMNS = [column("batch", "concurrent sequences", "int"), column("speedup", "speedup", "times")]
HEIGHT = 260
OUTCOMES = ["faster", "slower"]


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(
        outcome="datum.speedup > 1 ? 'faster' : 'slower'",
        shown="format(datum.speedup, '.2f') + '×'",
    )
    colour = alt.Color("outcome:N", title=None, scale=alt.Scale(domain=OUTCOMES, range=[BLUE, ORANGE]),
                       legend=alt.Legend(orient="top", direction="horizontal", symbolType="square",
                                         labelExpr="datum.value === 'faster' ? 'faster than plain decoding'"
                                                   " : 'slower than plain decoding'"))
    bars = base.mark_bar().encode(
        x=alt.X("batch:O", title="concurrent sequences (batch size)", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("speedup:Q", title="speedup over plain decoding (×)", scale=alt.Scale(zero=False)),
        # Bars start at 1×, so a slowdown hangs below the line instead of just being shorter.
        y2=alt.datum(1),
        color=colour,
        opacity=alt.condition("datum.current", alt.value(1.0), alt.value(0.55)),
        tooltip=[alt.Tooltip("batch:O", title="concurrent sequences"), alt.Tooltip("shown:N", title="speedup")],
    )
    one = base.mark_rule(strokeWidth=1.5, strokeDash=[4, 3], color=REFERENCE).encode(y=alt.datum(1))
    # The current bar is also labelled with its value, so the highlight does not rely on opacity
    # alone; one layer per direction keeps the label off the bar's end.
    above = base.mark_text(dy=-4, fontWeight="bold", baseline="bottom").encode(
        x="batch:O", y="speedup:Q", color=colour,
        text=alt.condition("datum.current && datum.speedup > 1", "shown:N", alt.value("")))
    below = base.mark_text(dy=4, fontWeight="bold", baseline="top").encode(
        x="batch:O", y="speedup:Q", color=colour,
        text=alt.condition("datum.current && datum.speedup <= 1", "shown:N", alt.value("")))
    chart = alt.layer(bars, one, above, below).properties(
        width="container", height=HEIGHT,
        # Titles are static while rows change: they name the chart, not a finding.
        title=title("Speedup at each batch size", "Speedup over plain decoding per batch size:",
                    "above 1× is faster, below is slower."),
    )
    return finish(chart, NAME, DESCRIPTION)
