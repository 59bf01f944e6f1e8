"""Speedup against γ at the simulation's other settings."""
from __future__ import annotations

import altair as alt

from .common import formatted, BLUE, ORANGE, REFERENCE, axis, column, current, field, finish, source, title, walk

NAME = "gamma"
DESCRIPTION = ("Line chart of speedup over plain decoding against the number of draft tokens per iteration, "
               "γ from 1 to 10, at the simulation's other settings, with the current γ highlighted.")
ROWS = {"table": [walk(["gamma"], gamma=axis("gamma"), speedup=field("speedup"), current=current("gamma"))]}
COLUMNS = [column("gamma", "γ", "int"), column("speedup", "speedup", "times")]
HEIGHT = 260

# Where the current point's label goes, so the curve does not strike through it ("γ = 4: 1.14×"
# sat on a falling line): beside the point, on the side with room where the curve is lower, and
# above every point of the curve under the label's span (the line is straight between points, so
# the highest point in the span bounds it). SPAN: points on each side the label may reach, enough
# on a phone (~31 px per γ); wider screens only lift the label more than it needs.
SPAN = 3
FONT_SIZE = 11
LABEL_WIDTH = 84  # px: "γ = 10: 0.33×" in bold at FONT_SIZE, and a margin
PX, PY, RULE = "scale('x', datum.gamma)", "scale('y', datum.speedup)", "scale('y', 1)"
ROOM_RIGHT, ROOM_LEFT = f"({PX} + 8 + {LABEL_WIDTH} <= width)", f"({PX} - 8 - {LABEL_WIDTH} >= 0)"
RIGHT = f"({ROOM_RIGHT} && (!{ROOM_LEFT} || datum.right_max <= datum.left_max))"
SIDE_MAX, SIDE_MIN = (f"({RIGHT} ? datum.right_max : datum.left_max)", f"({RIGHT} ? datum.right_min : datum.left_min)")
# The label's bottom: 6 px over the point, or 4 px over the highest point under it; where that
# leaves the plot (the point at the top of the axis), under the lowest point instead. (A scale's
# padding would make room, but left Vega's layout stale by a few pixels after a data swap: the
# title ran off the top.)
ABOVE = f"min({PY} - 6, scale('y', {SIDE_MAX}) - 4)"
BELOW = f"max({PY} + 6, scale('y', {SIDE_MIN}) + 4) + {FONT_SIZE}"
UP = f"(({ABOVE}) - {FONT_SIZE} - 2 >= 0)"
BOTTOM = f"({UP} ? {ABOVE} : {BELOW})"
# If the 1× rule would cross the label, the label moves past it, further the same way (still
# clear of the curve).
CROSSED = f"(({RULE}) <= {BOTTOM} + 2 && ({RULE}) >= {BOTTOM} - {FONT_SIZE} - 4)"
DY = (f"({CROSSED} ? ({UP} ? min({BOTTOM}, {RULE} - 4) : max({BOTTOM}, {RULE} + 4 + {FONT_SIZE})) : {BOTTOM})"
      f" - {PY}")


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(shown=formatted("datum.speedup", "times"))
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
    by_gamma = [alt.SortField("gamma")]
    label = base.transform_window(
        left_max="max(speedup)", left_min="min(speedup)", frame=[-SPAN, 0], sort=by_gamma,
    ).transform_window(right_max="max(speedup)", right_min="min(speedup)", frame=[0, SPAN], sort=by_gamma).transform_filter("datum.current").transform_calculate(
        text="'γ = ' + datum.gamma + ': ' + datum.shown",
    ).mark_text(
        fontWeight="bold", color=ORANGE, fontSize=FONT_SIZE, baseline="bottom",
        align=alt.expr(f"{RIGHT} ? 'left' : 'right'"), dx=alt.expr(f"{RIGHT} ? 8 : -8"), dy=alt.expr(DY),
    ).encode(x=x, y=y, text="text:N")
    chart = alt.layer(one, line, points, label).properties(
        width="container", height=HEIGHT,
        title=title("Speedup against draft length γ", "At the simulation's other settings;",
                    "dashed: 1×, no gain."),
    )
    return finish(chart, NAME, DESCRIPTION)
