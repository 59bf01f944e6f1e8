"""The verify pass at every batch size, under the GPU's roof (log-log), in the ideal whole-pass
model the essay derives."""
from __future__ import annotations

import altair as alt

from .common import BLUE, ORANGE, REFERENCE, axis, column, current, field, finish, formatted, source, title, walk

NAME = "roofline"
DESCRIPTION = ("Log-log roofline chart of attained FLOP per second against arithmetic intensity in FLOP per "
               "byte in the ideal whole-pass model, showing the GPU's roof and the verify pass at each batch size, "
               "with the current batch labelled.")
ROWS = {
    "table": [walk(["batch"], batch=axis("batch"), arithmetic_intensity=field("ideal_verify_arithmetic_intensity"),
                   attained_flops_per_s=field("ideal_verify_attained_flops_per_s"), current=current("batch"),
                   fits=field("fits_in_memory"), gpu_memory=field("gpu_memory_bytes"))],
    "roof": [walk(["roof_point"], arithmetic_intensity=field("ideal_roof_intensity"),
                  attainable_flops_per_s=field("ideal_roof_flops_per_s"))],
}
COLUMNS = [column("batch", "concurrent sequences", "int"),
           column("arithmetic_intensity", "FLOP per byte", "num1"),
           column("attained_flops_per_s", "attained FLOP/s", "tflops"), column("fits", "fits in memory", "yes")]
HEIGHT = 260
LABEL_WIDTH = 74  # px: "batch 1,024" in bold, and a margin


def spec(context: dict) -> dict:
    x_title, y_title = "arithmetic intensity (FLOP/byte, log scale)", "attained FLOP/s (log scale)"
    log = alt.Scale(type="log")
    roof_line = alt.Chart(source(NAME, "roof")).mark_line(color=REFERENCE, strokeWidth=2).encode(
        x=alt.X("arithmetic_intensity:Q", scale=log, title=x_title),
        y=alt.Y("attainable_flops_per_s:Q", scale=log, title=y_title, axis=alt.Axis(format="~s")),
        tooltip=[alt.Tooltip("intensity_shown:N", title="FLOP/byte"),
                 alt.Tooltip("flops_shown:N", title="attainable FLOP/s")],
    ).transform_calculate(
        # as the data table and the prose write them
        intensity_shown=formatted("datum.arithmetic_intensity", "num1"),
        flops_shown=formatted("datum.attainable_flops_per_s", "tflops"),
    )
    base = alt.Chart(source(NAME)).transform_calculate(
        intensity_shown=formatted("datum.arithmetic_intensity", "num1"),
        flops_shown=formatted("datum.attained_flops_per_s", "tflops"),
        memory="(datum.fits ? 'fits in ' : 'does not fit in ') + " + formatted("datum.gpu_memory", "gb"),
    )
    x = alt.X("arithmetic_intensity:Q", scale=log, title=x_title)
    y = alt.Y("attained_flops_per_s:Q", scale=log, title=y_title, axis=alt.Axis(format="~s"))
    # A batch that does not fit in the GPU's memory: a hollow dot (the ladder's rungs are faint).
    points = base.mark_point(filled=True, strokeWidth=1.5).encode(
        x=x, y=y,
        color=alt.condition("datum.current", alt.value(ORANGE), alt.value(BLUE)),
        stroke=alt.condition("datum.current", alt.value(ORANGE), alt.value(BLUE)),
        fillOpacity=alt.condition("datum.fits", alt.value(1), alt.value(0)),
        size=alt.condition("datum.current", alt.value(160), alt.value(50)),
        tooltip=[alt.Tooltip("batch:O", title="concurrent sequences", format=","),
                 alt.Tooltip("intensity_shown:N", title="FLOP/byte"),
                 alt.Tooltip("flops_shown:N", title="attained FLOP/s"),
                 alt.Tooltip("memory:N", title="memory")],
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
    ).encode(x=x, y=y, text=alt.Text("label:N")).transform_calculate(label="'batch ' + format(datum.batch, ',')")
    chart = alt.layer(roof_line, points, label).properties(
        width="container", height=HEIGHT,
        # (which settings the dots follow: found by a cold read, 2.1 FLOP/byte at ?gamma=1 beside
        # the prose's 5.3, unexplained)
        title=title("The verify pass on the ideal roofline", "Grey: the most FLOP/s reachable at each",
                    "intensity. Dots: the verify pass per batch size", "at the simulation's other settings; hollow:",
                    "the batch does not fit in memory."),
    )
    return finish(chart, NAME, DESCRIPTION)
