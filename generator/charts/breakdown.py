"""Where one step's time goes under each cost model: a speculative iteration and a plain step,
split into draft passes, the target's pass by kernel kind and the engine's fixed costs."""
from __future__ import annotations

import altair as alt

from specmodel.breakdown import STEP_PARTS

from .common import BLUE, DRAWN_VALUES, ORANGE, TEAL, axis, column, drawn, duration_text, field, finish, label, \
    label_expr, source, title, walk

NAME = "breakdown"
DESCRIPTION = ("Stacked horizontal bars of one step's time in milliseconds under three cost models (the ideal "
               "whole-pass roofline, the ideal roofline kernel by kernel, and the model calibrated to vLLM): for "
               "each, a speculative iteration and a plain decoding step, split into draft passes, the drafter's "
               "overhead, the target's pass by kernel kind, launch floors and the engine's step overhead.")
ROWS = {"table": [walk(["breakdown_model", "step_kind"], model=axis("breakdown_model"),
                       model_label=label("breakdown_model"), step=axis("step_kind"), step_label=label("step_kind"),
                       total_s=field("step_time_s"), mean_acceptance_length=field("mean_acceptance_length"),
                       **{part: field("part_time_s", part=part) for part in STEP_PARTS})]}
# The legend's and the data table's names for the parts: specmodel's (PART_LABELS), cut short
# where they run on, never renamed: "draft passes" alone would name the kernels here and the
# kernels with their launch floor in the prose. tests/test_charts.py holds each to a word-bounded
# start of its specmodel name.
LEGEND = {
    "draft_passes": "draft passes: kernels",
    "draft_launch_floor": "draft passes: launch floor",
    "drafter_overhead": "drafter's own overhead",
    "target_whole_pass_at_bandwidth": "target pass, whole: memory-bound",
    "target_whole_pass_at_flop_rate": "target pass, whole: compute-bound",
    "target_weights_at_bandwidth": "target pass: weight matmuls at bandwidth",
    "target_weights_at_flop_rate": "target pass: weight matmuls at FLOP rate",
    "target_attention": "target pass: attention",
    "target_allreduce": "target pass: all-reduces",
    "target_launch_floor": "target pass: launch floor",
    "step_overhead": "engine step overhead",
}
# Draft work in warm colours, the target's pass in cool ones, fixed costs in greys.
COLOURS = {
    "draft_passes": ORANGE,
    "draft_launch_floor": "#F2B134",
    "drafter_overhead": "#8C3B12",
    "target_whole_pass_at_bandwidth": BLUE,
    "target_whole_pass_at_flop_rate": "#8E6BC8",
    "target_weights_at_bandwidth": "#5AA9E6",
    "target_weights_at_flop_rate": "#B4589F",
    "target_attention": TEAL,
    "target_allreduce": "#C9A227",
    "target_launch_floor": "#7A6F66",
    "step_overhead": "#A7A9AC",
}
assert tuple(LEGEND) == STEP_PARTS == tuple(COLOURS)
COLUMNS = ([column("model_label", "cost model"), column("step_label", "step"), column("total_s", "total", "ms")]
           + [column(part, LEGEND[part], "ms") for part in STEP_PARTS])
# Pixels right of the bars for a bar's two-line end label ("spec. 16,281.32 ms", "15,476.69 ms/token").
LABEL_ROOM = 100
# The y axis's names, short enough to leave a phone's width to the bars.
SHORT_MODELS = {"whole-pass": "ideal, whole", "per-kernel": "ideal, kernels", "calibrated": "calibrated"}


def spec(context: dict) -> dict:
    models = context["labels"]["breakdown_model"]
    steps = context["labels"]["step_kind"]
    parts = list(STEP_PARTS)
    base = alt.Chart(source(NAME)).transform_calculate(total_ms="datum.total_s * 1000")
    # A part too short to draw a pixel is left out of the bars, and so out of the legend, which
    # lists what is drawn (found by a cold read: "weight matmuls at bandwidth" listed at 0.016 ms
    # of a 295 ms bar); the data table keeps every part.
    stacked = base.transform_joinaggregate(longest_s="max(total_s)").transform_fold(parts, as_=["part", "seconds"]).transform_filter(
        # (a chart not laid out yet, 0 px wide, keeps every part: an empty stack gave Vega an
        # infinite extent, found by a fresh-clone run's full-page screenshots)
        f"datum.seconds > 0 && (width <= {LABEL_ROOM + 1} || datum.seconds / datum.longest_s * (width - {LABEL_ROOM}) >= 1)"
    ).transform_calculate(
        ms="datum.seconds * 1000", part_name=label_expr(LEGEND, "datum.part"),
        shown=duration_text("datum.seconds"),
        order=" + ".join(f"(datum.part === '{p}' ? {i} : 0)" for i, p in enumerate(parts)),
    )
    y = alt.Y("model:N", title=None, sort=list(models),
              axis=alt.Axis(labelExpr=label_expr(SHORT_MODELS, "datum.value"), labelLimit=100, minExtent=80))
    # a gap between a model's two bars: where drafting adds no part of its own (n-gram under the
    # ideal whole-pass model) the two are one colour, and touching they read as one block (found
    # by a cold read)
    offset = alt.YOffset("step:N", sort=list(steps), scale=alt.Scale(paddingInner=0.25))
    # The bars' end labels get room in pixels, right of the axis: the axis fits the longest bar.
    # (An invisible point at 1.9× the longest bar made room in data units: a 16.8 ms bar on a
    # 34 ms axis.)
    x_scale = alt.Scale(rangeMax=alt.ExprRef(f"width - {LABEL_ROOM}"))
    bars = stacked.mark_bar().encode(
        y=y, yOffset=offset,
        x=alt.X("ms:Q", stack="zero", title="time of one step (ms)", scale=x_scale,
                  # Vega-Lite counts ticks by the whole width; the axis has the width less the room
                  axis=alt.Axis(tickCount=alt.ExprRef(f"ceil((width - {LABEL_ROOM}) / 40)"))),
        color=alt.Color("part:N", title=None, scale=alt.Scale(domain=parts, range=[COLOURS[p] for p in parts]),
                        # only the parts this state's bars have (a draft model has no drafter overhead)
                        legend=alt.Legend(orient="bottom", columns=1, labelExpr=label_expr(LEGEND), labelLimit=260,
                                          symbolType="square", values=DRAWN_VALUES)),
        opacity=drawn("part:N", parts),
        order=alt.Order("order:Q"),
        tooltip=[alt.Tooltip("model_label:N", title="cost model"), alt.Tooltip("step_label:N", title="step"),
                 alt.Tooltip("part_name:N", title="part"), alt.Tooltip("shown:N", title="time")],
    )
    # Each bar says what it is and how long it takes, at its end.
    ends = base.transform_calculate(
        # An iteration emits E[L] tokens, a plain step one: the time per token of each, for comparison.
        # written as the prose writes a step's time
        tag="datum.step === 'iteration' ? 'spec. ' + " + duration_text("datum.total_s") + " + '\\n'"
            " + " + duration_text("datum.total_s / datum.mean_acceptance_length") + " + '/token'"
            " : 'plain ' + " + duration_text("datum.total_s") + " + '\\n(one token)'").mark_text(
        align="left", dx=4, fontSize=9, lineBreak="\n", baseline="middle", dy=-5).encode(
        y=y, yOffset=offset, x=alt.X("total_ms:Q", scale=x_scale), text="tag:N", color=alt.value("currentColor"))
    # No frame round the view: the axis stops short of its right edge (the labels' room), and a
    # frame would run on past the last tick.
    chart = alt.layer(bars, ends).properties(
        width="container", height=270, view=alt.ViewBackground(stroke=None),
        # The bars' per-token times are one step's, mid-run; the speedup readout averages the
        # whole run, which in a closed batch ends as the batch drains: the two may differ.
        title=title("Where one step's time goes", "Each cost model: a speculative iteration (spec.),",
                    "then a plain decoding step (plain), at the middle",
                    # (said of a closed batch only: in steady state the ratio is the readout,
                    # found by a cold read)
                    "of the run. A closed batch's speedup readout",
                    "averages the run as it drains, so it can differ."),
    )
    return finish(chart, NAME, DESCRIPTION)
