"""Speedup against γ at the current batch size."""
from __future__ import annotations

import altair as alt

from .common import BLUE, ORANGE, REFERENCE, axis, column, current, field, finish, source, title, walk

NAME = "gamma"
DESCRIPTION = ("Line chart of speedup over plain decoding against the number of draft tokens per iteration, "
               "γ from 1 to 10, at the current batch size, with the current γ highlighted.")
ROWS = {"table": [walk(["gamma"], gamma=axis("gamma"), speedup=field("speedup"), current=current("gamma"))]}
COLUMNS = [column("gamma", "γ", "int"), column("speedup", "speedup", "times")]
HEIGHT = 260


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(shown="format(datum.speedup, '.2f') + '×'")
    x = alt.X("gamma:Q", title="draft tokens per iteration, γ", scale=alt.Scale(domain=[1, 10], nice=False),
              axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("speedup:Q", title="speedup over plain decoding (×)", scale=alt.Scale(zero=False))
    line = base.mark_line(color=BLUE, strokeWidth=2).encode(x=x, y=y)
    points = base.mark_point(filled=True).encode(
        x=x, y=y, tooltip=[alt.Tooltip("gamma:Q", title="γ"), alt.Tooltip("shown:N", title="speedup")],
        color=alt.condition("datum.current", alt.value(ORANGE), alt.value(BLUE)),
        size=alt.condition("datum.current", alt.value(160), alt.value(40)),
    )
    one = base.mark_rule(strokeWidth=1.5, strokeDash=[4, 3], color=REFERENCE).encode(y=alt.datum(1))
    label = base.transform_filter("datum.current").transform_calculate(
        text="'γ = ' + datum.gamma + ': ' + datum.shown").mark_text(
        dy=-12, fontWeight="bold", color=ORANGE,
        # near the right edge the label would be cut: it grows leftwards there
        align=alt.expr("datum.gamma > 7 ? 'right' : datum.gamma < 3 ? 'left' : 'center'"),
    ).encode(x=x, y=y, text="text:N")
    chart = alt.layer(one, line, points, label).properties(
        width="container", height=HEIGHT,
        title=title("Speedup against draft length γ", "Speedup against γ at the current batch size;",
                    "dashed: 1×, no gain."),
    )
    return finish(chart, NAME, DESCRIPTION)
