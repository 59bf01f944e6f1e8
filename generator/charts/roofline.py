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
    # Above the point: to its left it would run into the y axis's labels at small intensities.
    label = base.transform_filter("datum.current").mark_text(
        align="center", dy=-14, fontWeight="bold", color=ORANGE,
    ).encode(x=x, y=y, text=alt.Text("label:N")).transform_calculate(label="'batch ' + datum.batch")
    chart = alt.layer(roof_line, points, label).properties(
        width="container", height=HEIGHT,
        title=title("The verify pass on the ideal roofline", "Grey: the most FLOP/s reachable at each",
                    "intensity. Dots: the verify pass per batch size."),
    )
    return finish(chart, NAME, DESCRIPTION)
