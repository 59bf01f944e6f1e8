"""The verify pass at every batch size, under the GPU's roof (log-log), in the ideal whole-pass
model the essay derives."""
from __future__ import annotations

import altair as alt

from .common import BLUE, ORANGE, REFERENCE, axis, column, current, field, finish, source, title, walk

NAME = "roofline"
DESCRIPTION = ("Log-log roofline chart of attained FLOP per second against arithmetic intensity in FLOP per "
               "byte in the ideal whole-pass model, showing the GPU's roof and the verify pass at each batch size, "
               "with the current batch labelled.")
ROWS = {
    "table": [walk(["batch"], batch=axis("batch"), arithmetic_intensity=field("ideal_verify_arithmetic_intensity"),
                   attained_flops_per_s=field("ideal_verify_attained_flops_per_s"), current=current("batch"))],
    "roof": [walk(["roof_point"], arithmetic_intensity=field("ideal_roof_intensity"),
                  attainable_flops_per_s=field("ideal_roof_flops_per_s"))],
}
COLUMNS = [column("batch", "concurrent sequences", "int"),
           column("arithmetic_intensity", "FLOP per byte", "num1"),
           column("attained_flops_per_s", "attained FLOP/s", "tflops")]
HEIGHT = 260
LABEL_WIDTH = 70  # px: "batch 1024" in bold, and a margin


def spec(context: dict) -> dict:
    x_title, y_title = "arithmetic intensity (FLOP/byte, log scale)", "attained FLOP/s (log scale)"
    log = alt.Scale(type="log")
    roof_line = alt.Chart(source(NAME, "roof")).mark_line(color=REFERENCE, strokeWidth=2).encode(
        x=alt.X("arithmetic_intensity:Q", scale=log, title=x_title),
        y=alt.Y("attainable_flops_per_s:Q", scale=log, title=y_title, axis=alt.Axis(format="~s")),
        tooltip=[alt.Tooltip("arithmetic_intensity:Q", title="FLOP/byte", format=",.3~r"),
                 alt.Tooltip("attainable_flops_per_s:Q", title="attainable FLOP/s", format=".3~s")],
    )
    base = alt.Chart(source(NAME))
    x = alt.X("arithmetic_intensity:Q", scale=log, title=x_title)
    y = alt.Y("attained_flops_per_s:Q", scale=log, title=y_title, axis=alt.Axis(format="~s"))
    points = base.mark_point(filled=True).encode(
        x=x, y=y,
        color=alt.condition("datum.current", alt.value(ORANGE), alt.value(BLUE)),
        size=alt.condition("datum.current", alt.value(160), alt.value(50)),
        tooltip=[alt.Tooltip("batch:O", title="concurrent sequences", format=","),
                 alt.Tooltip("arithmetic_intensity:Q", title="FLOP/byte", format=",.3~r"),
                 alt.Tooltip("attained_flops_per_s:Q", title="attained FLOP/s", format=".3~s")],
    )
    # The points sit on the roof, which rises to the right and then runs flat: above and to the
    # left of a point the roof is lower, so the label is clear of it there (centred above the
    # point, the roof struck through it). Near the y axis there is no room on the left; below
    # and to the right the roof is higher, so it goes there.
    room_left = f"scale('x', datum.arithmetic_intensity) - 8 - {LABEL_WIDTH} >= 0"
    label = base.transform_filter("datum.current").mark_text(
        fontWeight="bold", color=ORANGE,
        align=alt.expr(f"{room_left} ? 'right' : 'left'"), dx=alt.expr(f"{room_left} ? -8 : 8"),
        baseline=alt.expr(f"{room_left} ? 'bottom' : 'top'"), dy=alt.expr(f"{room_left} ? -8 : 8"),
    ).encode(x=x, y=y, text=alt.Text("label:N")).transform_calculate(label="'batch ' + datum.batch")
    chart = alt.layer(roof_line, points, label).properties(
        width="container", height=HEIGHT,
        title=title("The verify pass on the ideal roofline", "Grey: the most FLOP/s reachable at each",
                    "intensity. Dots: the verify pass per batch size."),
    )
    return finish(chart, NAME, DESCRIPTION)
