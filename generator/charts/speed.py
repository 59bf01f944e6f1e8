"""Charts about time: the batch ladder, the γ sweep, one iteration's phases, the roofline."""

from __future__ import annotations

import altair as alt

from .common import BLUE, DEEP_TEAL, ORANGE, REFERENCE, TEAL, finish, label_expr, roof, table, title

HEIGHT = 260

# The n-gram drafter gets its own (teal) pair so it is recognisable on the ladder;
# faster/slower also differ by direction, as bars grow up or down from 1×.
LADDER_SERIES = ["faster", "slower", "faster (n-gram)", "slower (n-gram)"]
LADDER_COLOURS = [BLUE, ORANGE, TEAL, DEEP_TEAL]
LADDER_SERIES_EXPR = "datum.drafter === 'ngram' ? datum.outcome + ' (n-gram)' : datum.outcome"


def ladder() -> dict:
    """Speedup per batch size at the current context/drafter/γ; rows `{batch, speedup, drafter, outcome, current}`."""
    base = alt.Chart(table("ladder")).transform_calculate(series=LADDER_SERIES_EXPR)
    colour = alt.Color(
        "series:N",
        title=None,
        scale=alt.Scale(domain=LADDER_SERIES, range=LADDER_COLOURS),
        legend=alt.Legend(orient="top", direction="horizontal", columns=2, symbolType="square"),
    )
    bars = (
        base.mark_bar()
        .encode(
            x=alt.X("batch:O", title="concurrent sequences (batch size)", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("speedup:Q", title="speedup over plain decoding (×)", scale=alt.Scale(zero=False)),
            # Bars start at 1×, so a slowdown hangs below the line instead of just being shorter.
            y2=alt.datum(1),
            color=colour,
            opacity=alt.condition("datum.current", alt.value(1.0), alt.value(0.55)),
            tooltip=[
                alt.Tooltip("batch:O", title="concurrent sequences"),
                alt.Tooltip("speedup:Q", title="speedup (×)", format=".3~f"),
                alt.Tooltip("outcome:N", title="outcome"),
                alt.Tooltip("drafter:N", title="drafter"),
            ],
        )
    )
    one = base.mark_rule(strokeWidth=1.5, strokeDash=[4, 3], color=REFERENCE).encode(y=alt.datum(1))
    # The current bar is also labelled with its value, so the highlight does not rely on
    # opacity alone; one layer per direction keeps the label off the bar's end.
    above = base.mark_text(
        dy=-4, fontWeight="bold", baseline="bottom",
        text=alt.expr("datum.current && datum.speedup > 1 ? format(datum.speedup, '.2f') + '×' : ''"),
    ).encode(x="batch:O", y="speedup:Q", color=colour)
    below = base.mark_text(
        dy=4, fontWeight="bold", baseline="top",
        text=alt.expr("datum.current && datum.speedup <= 1 ? format(datum.speedup, '.2f') + '×' : ''"),
    ).encode(x="batch:O", y="speedup:Q", color=colour)
    chart = alt.layer(bars, one, above, below).properties(
        width="container",
        height=HEIGHT,
        title=title(
            # Titles are static while rows change, so they name the chart rather than a finding
            # that some settings would contradict.
            "Speedup at each batch size",
            "Speedup over plain decoding per batch size:",
            "above 1× is faster, below is slower.",
        ),
    )
    return finish(
        chart, "ladder",
        "Bar chart of the speedup of speculative decoding over plain decoding for each batch size "
        "from 1 to 1024 concurrent sequences, with a reference line at 1×.",
    )


def gamma() -> dict:
    """Speedup vs γ (1…10) at the current batch; rows `{gamma, speedup, current}`."""
    base = alt.Chart(table("gamma"))
    x = alt.X("gamma:Q", title="draft tokens per iteration, γ", scale=alt.Scale(domain=[1, 10], nice=False),
              axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("speedup:Q", title="speedup over plain decoding (×)", scale=alt.Scale(zero=False))
    tooltip = [alt.Tooltip("gamma:Q", title="γ"), alt.Tooltip("speedup:Q", title="speedup (×)", format=".3~f")]
    line = base.mark_line(color=BLUE, strokeWidth=2).encode(x=x, y=y)
    points = base.mark_point(filled=True).encode(
        x=x, y=y, tooltip=tooltip,
        color=alt.condition("datum.current", alt.value(ORANGE), alt.value(BLUE)),
        size=alt.condition("datum.current", alt.value(160), alt.value(40)),
    )
    one = base.mark_rule(strokeWidth=1.5, strokeDash=[4, 3], color=REFERENCE).encode(y=alt.datum(1))
    current = base.mark_text(
        dy=-12, fontWeight="bold", color=ORANGE,
        text=alt.expr("datum.current ? 'γ = ' + datum.gamma + ': ' + format(datum.speedup, '.2f') + '×' : ''"),
    ).encode(x=x, y=y)
    chart = alt.layer(one, line, points, current).properties(
        width="container",
        height=HEIGHT,
        title=title(
            "Speedup against draft length γ",
            "Speedup against γ at the current batch size;",
            "dashed: 1×, no gain.",
        ),
    )
    return finish(
        chart, "gamma",
        "Line chart of speedup over plain decoding against the number of draft tokens per iteration, "
        "γ from 1 to 10, at the current batch size, with the current γ highlighted.",
    )


PHASES = ["draft", "verify", "plain"]
PHASE_LABELS = {"draft": "draft (all γ passes)", "verify": "verify (target)", "plain": "plain decode step"}
PARTS = ["memory", "arithmetic"]


def iteration() -> dict:
    """One iteration's phases, each as memory vs arithmetic time; rows `{phase, part, time_ms}`."""
    base = alt.Chart(table("iteration"))
    # minExtent: the labels come from labelExpr, which the layout does not measure; reserve room
    y = alt.Y("phase:N", title=None, sort=PHASES,
              axis=alt.Axis(labelExpr=label_expr(PHASE_LABELS), labelLimit=160, minExtent=120))
    x = alt.X("time_ms:Q", title="time (ms)")
    colour = alt.Color("part:N", title=None, scale=alt.Scale(domain=PARTS, range=[BLUE, ORANGE]),
                       legend=alt.Legend(orient="top", direction="horizontal", symbolType="square",
                                         columns=1, labelLimit=0, labelExpr="datum.label === 'memory' ? 'memory (bytes ÷ bandwidth)'"
                                                              " : 'arithmetic (FLOP ÷ peak FLOP/s)'"))
    bars = base.mark_bar().encode(
        x=x, y=y, yOffset=alt.YOffset("part:N", sort=PARTS), color=colour,
        tooltip=[alt.Tooltip("phase:N", title="phase"), alt.Tooltip("part:N", title="part"),
                 alt.Tooltip("time_ms:Q", title="time (ms)", format=".4~g")],
    )
    values = base.mark_text(align="left", dx=3, fontSize=10).encode(
        x=x, y=y, yOffset=alt.YOffset("part:N", sort=PARTS), color=colour,
        text=alt.Text("time_ms:Q", format=".3~g"),
    )
    chart = alt.layer(bars, values).properties(
        width="container",
        height=200,
        title=title(
            "Where one iteration's time goes",
            "A pass needs memory time and arithmetic time",
            "and takes the larger of the two (roofline).",
            "A plain decoding step for comparison.",
        ),
    )
    return finish(
        chart, "iteration",
        "Grouped bar chart of one speculative iteration's time in milliseconds, split into the draft "
        "passes, the verify pass and, for comparison, one plain decoding step, each shown as memory "
        "time and arithmetic time.",
    )


def roofline() -> dict:
    """Verify pass per batch size on a log-log roofline; rows `{batch, arithmetic_intensity,
    attained_flops_per_s, current}`, roof from dataset `roof` `{arithmetic_intensity, attainable_flops_per_s}`."""
    x_scale = alt.Scale(type="log")
    y_scale = alt.Scale(type="log")
    x_title = "arithmetic intensity (FLOP/byte, log scale)"
    y_title = "attained FLOP/s (log scale)"
    roof_line = alt.Chart(roof()).mark_line(color=REFERENCE, strokeWidth=2).encode(
        x=alt.X("arithmetic_intensity:Q", scale=x_scale, title=x_title),
        y=alt.Y("attainable_flops_per_s:Q", scale=y_scale, title=y_title, axis=alt.Axis(format="~s")),
        tooltip=[alt.Tooltip("arithmetic_intensity:Q", title="FLOP/byte", format=".4~g"),
                 alt.Tooltip("attainable_flops_per_s:Q", title="attainable FLOP/s", format=".3~s")],
    )
    base = alt.Chart(table("roofline"))
    x = alt.X("arithmetic_intensity:Q", scale=x_scale, title=x_title)
    y = alt.Y("attained_flops_per_s:Q", scale=y_scale, title=y_title, axis=alt.Axis(format="~s"))
    points = base.mark_point(filled=True).encode(
        x=x, y=y,
        color=alt.condition("datum.current", alt.value(ORANGE), alt.value(BLUE)),
        size=alt.condition("datum.current", alt.value(160), alt.value(50)),
        tooltip=[alt.Tooltip("batch:O", title="concurrent sequences"),
                 alt.Tooltip("arithmetic_intensity:Q", title="FLOP/byte", format=".4~g"),
                 alt.Tooltip("attained_flops_per_s:Q", title="attained FLOP/s", format=".3~s")],
    )
    label = base.mark_text(
        align="right", dx=-10, dy=-6, fontWeight="bold", color=ORANGE,
        text=alt.expr("datum.current ? 'batch ' + datum.batch : ''"),
    ).encode(x=x, y=y)
    chart = alt.layer(roof_line, points, label).properties(
        width="container",
        height=HEIGHT,
        title=title(
            "The verify pass on the roofline",
            "Grey: the most FLOP/s reachable at each",
            "intensity. Dots: the verify pass per batch size.",
        ),
    )
    return finish(
        chart, "roofline",
        "Log-log roofline chart of attained FLOP per second against arithmetic intensity in FLOP per "
        "byte, showing the GPU's roof and the verify pass at each batch size, with the current batch labelled.",
    )
