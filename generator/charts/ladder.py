"""The ladder: the speedup at every batch size for the current drafter, γ and α, with the other
cost model's value on each rung."""
from __future__ import annotations

import altair as alt

from .common import (formatted, BATCH_LABELS, BLUE, DRAWN_VALUES, ORANGE, REFERENCE, axis, column, current, drawn, field, finish, label_expr,
                     source, title, walk)

NAME = "ladder"
DESCRIPTION = ("Bar chart of the speedup of speculative decoding over plain decoding under the current cost model "
               "for each batch size from 1 to 1024 concurrent sequences, a reference line at 1×, and a tick on "
               "each bar for the other cost model's speedup.")
ROWS = {"table": [walk(["batch"], batch=axis("batch"), speedup=field("speedup"), other_speedup=field("other_speedup"),
                       fits=field("fits_in_memory"), gpu_memory=field("gpu_memory_bytes"), other=field("other_cost_model"),
                       current=current("batch"))]}
COLUMNS = [column("batch", "concurrent sequences", "int"), column("speedup", "speedup", "times"),
           column("other_speedup", "other cost model's speedup", "times"), column("fits", "fits in memory", "yes")]
# A click on a rung (or Enter on its row of the data table) sets the batch.
SELECT = ["batch"]
# (short enough that controls, readouts and the ladder fit a laptop's 800 px tall screen at once)
HEIGHT = 150
OUTCOMES = ["faster", "slower"]
LABEL_ROOM_PX = 18  # a bold 11 px label and its 4 px offset


def spec(context: dict) -> dict:
    models = context["labels"]["cost_model"]
    base = alt.Chart(source(NAME)).transform_calculate(
        outcome="datum.speedup > 1 ? 'faster' : 'slower'",
        shown=formatted("datum.speedup", "times"),
        # one line: the value and which model gives it (a tooltip's titles are fixed, the other model is not)
        other_shown=formatted("datum.other_speedup", "times") + " + ' (' + " + label_expr(models, "datum.other") + " + ')'",
        memory="(datum.fits ? 'fits in ' : 'does not fit in ') + " + formatted("datum.gpu_memory", "gb"),
        # Fill strength by contrast with the page, which reads the same on white and on slate:
        # strongest the current rung, faintest a rung that does not fit ("darkest" was brightest
        # in the dark palette).
        shade="!datum.fits ? 0.3 : datum.current ? 1 : 0.6",
        hi="max(datum.speedup, datum.other_speedup, 1)",
        lo="min(datum.speedup, datum.other_speedup, 1)",
    ).transform_joinaggregate(top="max(hi)", bottom="min(lo)").transform_calculate(
        # the current rung's label goes just above its bar (or the 1× line, for a slower rung),
        # and above its tick only where the tick is in the label's way: placed above a tick far
        # up the plot it read as the tick's value (found by a cold read: "1.14×" over the 1.93× tick)
        # (the label's room and the tick's, over the plot's height less the padding at both ends)
        clear=f"{(LABEL_ROOM_PX + 4) / (HEIGHT - 2 * LABEL_ROOM_PX):.4f} * (datum.top - datum.bottom)",
        label_at="datum.other_speedup <= datum.speedup || datum.other_speedup - datum.speedup > datum.clear"
                 " ? datum.speedup : datum.other_speedup",
        slower_label_at="datum.other_speedup <= 1 || datum.other_speedup - 1 > datum.clear ? 1 : datum.other_speedup",
    )
    # Outer padding leaves room for the first and last rungs' value labels.
    x = alt.X("batch:O", title="concurrent sequences (batch size)", axis=alt.Axis(labelAngle=0, labelExpr=BATCH_LABELS),
              scale=alt.Scale(paddingOuter=0.5))
    outcome_colours = alt.Scale(domain=OUTCOMES, range=[BLUE, ORANGE])
    colour = alt.Color("outcome:N", title=None, scale=outcome_colours,
                       legend=alt.Legend(orient="top", direction="horizontal", symbolType="square", symbolStrokeWidth=0,
                                         values=DRAWN_VALUES,
                                         labelExpr="datum.value === 'faster' ? 'faster than plain'"
                                                   " : 'slower than plain'"))
    tooltip = [alt.Tooltip("batch:O", title="concurrent sequences", format=","), alt.Tooltip("shown:N", title="speedup"),
               alt.Tooltip("other_shown:N", title="other cost model"),
               alt.Tooltip("memory:N", title="memory")]
    # Room above the highest rung (and below the lowest) for the current rung's label: the axis
    # reaches LABEL_ROOM_PX further than the data.
    # (an axis title no longer than the plot is tall)
    y = alt.Y("speedup:Q", title="speedup over plain (×)", scale=alt.Scale(zero=False, padding=LABEL_ROOM_PX))
    bars = base.mark_bar(cursor="pointer").encode(
        x=x, y=y,
        # Bars start at 1×, so a slowdown hangs below the line instead of just being shorter.
        y2=alt.datum(1),
        color=colour,
        # A state that does not fit in the GPU's memory is drawn faint with a dashed edge: possible
        # only on paper. Only the fill fades, so the edge keeps its full colour.
        fillOpacity=alt.FillOpacity("shade:Q", scale=None, legend=None),
        opacity=drawn("outcome:N", OUTCOMES),
        # The current rung is outlined in the ink (black on white, near-white on slate): it stands
        # out in either palette, also where it does not fit and is faint.
        stroke=alt.condition("datum.current", alt.value("currentColor"), alt.Stroke("outcome:N", legend=None, scale=outcome_colours)),
        strokeWidth={"condition": [{"test": "datum.current", "value": 2}, {"test": "!datum.fits", "value": 1}],
                     "value": 0},
        strokeDash=alt.condition("!datum.fits", alt.value([3, 2]), alt.value([1, 0])),
        tooltip=tooltip,
    )
    # Each rung's whole column answers a click or a tap, under the bars: a rung near 1× is a bar
    # a pixel tall, or none (found by a cold read: 0.999× could not be clicked at all). Invisible,
    # and out of the accessibility tree, where the bars already stand for the rungs.
    columns = base.mark_bar(cursor="pointer", opacity=0, aria=False).encode(
        x=x, y=alt.value(0), y2=alt.value({"expr": "height"}), tooltip=tooltip)
    one = base.mark_rule(strokeWidth=1.5, strokeDash=[4, 3], color=REFERENCE).encode(y=alt.datum(1))
    # The other cost model: a short tick on each rung, in the text colour, half-transparent.
    other = base.mark_tick(thickness=2, color="currentColor", opacity=0.7, size=14).encode(
        x=x, y=alt.Y("other_speedup:Q"), tooltip=tooltip)
    # The current bar is also labelled with its value, so the highlight does not rely on opacity
    # alone; one layer per direction keeps the label off the bar's end.
    above = base.mark_text(dy=-4, fontWeight="bold", baseline="bottom").encode(
        x="batch:O", y=alt.Y("label_at:Q"), color=colour,
        text=alt.condition("datum.current && datum.speedup > 1", "shown:N", alt.value("")))
    # A slower rung's label sits just above the 1× line (or its tick): under the bar it would run
    # into the batch labels.
    below = base.mark_text(dy=-4, fontWeight="bold", baseline="bottom").encode(
        x="batch:O", y=alt.Y("slower_label_at:Q"), color=colour,
        text=alt.condition("datum.current && datum.speedup <= 1", "shown:N", alt.value("")))
    speedup = alt.layer(columns, bars, one, other, above, below).properties(
        width="container", height=HEIGHT,
        # Titles are static while rows change: they name the chart, not a finding.
        title=title("Speedup at each batch size", "Ticks: the other cost model. Outlined: the",
                    "current batch. Faint, dashed: does not fit."),
    )

    return finish(speedup, NAME, DESCRIPTION, select=SELECT)
