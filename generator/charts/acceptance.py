"""How often each draft position reaches the output, and where drafting stops paying."""
from __future__ import annotations

import altair as alt

from .common import DRAWN_VALUES, GREY, ORANGE, TEAL, axis, column, drawn, field, finish, formatted, source, title, walk

NAME = "acceptance"
DESCRIPTION = ("Bar chart of the acceptance probability of each draft position from 1 to 10, coloured by "
               "whether drafting that position pays, with a dashed cut-off line after the last position that pays "
               "(where none pays, the legend says so).")
ROWS = {"table": [walk(["position"], position=axis("position"), per_position_acceptance=field("position_acceptance"),
                       paying_positions=field("paying_positions"))]}
COLUMNS = [column("position", "draft position", "int"), column("per_position_acceptance", "per-position acceptance", "num3")]
HEIGHT = 240


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(
        pays="datum.position <= datum.paying_positions",
        shown=formatted("datum.per_position_acceptance", "num3"))
    x = alt.X("position:O", title="draft position j", axis=alt.Axis(labelAngle=0))
    bars = base.mark_bar().encode(
        x=x,
        # a probability, as vLLM's engine log and the prose write it ("0.750"), not a percentage
        y=alt.Y("per_position_acceptance:Q", title="per-position acceptance (probability)",
                scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=".1f")),
        color=alt.Color("pays:N", title=None, scale=alt.Scale(domain=[True, False], range=[TEAL, GREY]),
                        legend=alt.Legend(orient="top", direction="horizontal", values=DRAWN_VALUES, labelLimit=300,
                                          # where none pays there is no cut-off to draw, and the
                                          # legend says why (found by a cold read: at 64
                                          # sequences, a subtitle on a cut-off and none drawn)
                                          labelExpr="datum.value ? 'pays for its draft' : "
                                                    f"indexof({DRAWN_VALUES.expr}, true) < 0 ? "
                                                    "'no position pays for its draft here: no cut-off' : 'does not pay'")),
        opacity=drawn("pays:N", [True, False]),
        tooltip=[alt.Tooltip("position:O", title="draft position"), alt.Tooltip("shown:N", title="per-position acceptance")],
    )
    # The cut-off sits on the right edge of the last paying position's band.
    cutoff = base.transform_filter("datum.pays").transform_aggregate(last="max(position)")
    rule = cutoff.mark_rule(color=ORANGE, strokeWidth=2, strokeDash=[6, 3]).encode(x=alt.X("last:O", bandPosition=1))
    # The label hangs on the paying side of the rule, so at the right edge it is not cut; after the
    # first position it would run over the y axis's labels, so it hangs on the other side there.
    label = dict(baseline="top", y=2, color=ORANGE, fontWeight="bold", text="cut-off")
    note = cutoff.transform_filter("datum.last > 1").mark_text(align="right", dx=-4, **label).encode(
        x=alt.X("last:O", bandPosition=1))
    note_first = cutoff.transform_filter("datum.last == 1").mark_text(align="left", dx=4, **label).encode(
        x=alt.X("last:O", bandPosition=1))
    chart = alt.layer(bars, rule, note, note_first).properties(
        width="container", height=HEIGHT,
        # true at every state: at some, no position pays and no cut-off is drawn (found by cold
        # reads: "Positions before the cut-off pay" over a figure without one)
        title=title("Acceptance by draft position", "Drafting a position pays while its acceptance",
                    "is worth its cost; the dashed cut-off follows",
                    "the last position that pays, where one does."),
    )
    return finish(chart, NAME, DESCRIPTION)
