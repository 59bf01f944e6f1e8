"""Where one iteration's time goes in the ideal whole-pass model (the one the essay derives): the
draft passes, the verify pass, a plain step, each as memory time and arithmetic time."""
from __future__ import annotations

import altair as alt

from .common import BLUE, ORANGE, column, duration_text, field, finish, label_expr, literal, source, title

NAME = "iteration"
DESCRIPTION = ("Grouped bar chart of one speculative iteration's time in milliseconds in the ideal whole-pass "
               "model, split into the draft passes, the verify pass and, for comparison, one plain decoding "
               "step, each shown as memory time and arithmetic time.")
PHASES = {"draft": ("ideal_draft_memory_time_s", "ideal_draft_compute_time_s"),
          "verify": ("ideal_verify_memory_time_s", "ideal_verify_compute_time_s"),
          "plain": ("ideal_plain_pass_memory_time_s", "ideal_plain_pass_compute_time_s")}
ROWS = {"table": [{"walk": [], "rows": [
    {"phase": literal(phase), "part": literal(part), "time_s": field(name)}
    for phase, names in PHASES.items() for part, name in zip(("memory", "arithmetic"), names)
]}]}
COLUMNS = [column("phase", "phase"), column("part", "part"), column("time_s", "time", "ms")]
PHASE_LABELS = {"draft": "draft (all γ passes)", "verify": "verify (target)", "plain": "plain decode step"}
PARTS = ["memory", "arithmetic"]
# Pixels right of the axis for a bar's value label ("6.23 ms", "9.12 µs").
LABEL_ROOM = 52
TICK_SPACING_PX = 55  # a tick per this many px: room for a label such as "9,000" and a gap


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(
        time_ms="datum.time_s * 1000", phase_name=label_expr(PHASE_LABELS, "datum.phase"), shown=duration_text("datum.time_s"))
    # minExtent: the labels come from labelExpr, which the layout does not measure; reserve room
    y = alt.Y("phase:N", title=None, sort=list(PHASES),
              axis=alt.Axis(labelExpr=label_expr(PHASE_LABELS), labelLimit=160, minExtent=120))
    # The bars' value labels get room in pixels, right of the axis, so the axis fits the longest
    # bar (room made in data units, past the longest bar, stretched the axis beyond the data).
    x = alt.X("time_ms:Q", title="time (ms)", scale=alt.Scale(nice=True, rangeMax=alt.ExprRef(f"width - {LABEL_ROOM}")),
              axis=alt.Axis(tickCount=alt.ExprRef(f"ceil((width - {LABEL_ROOM}) / {TICK_SPACING_PX})")))
    colour = alt.Color("part:N", title=None, scale=alt.Scale(domain=PARTS, range=[BLUE, ORANGE]),
                       legend=alt.Legend(orient="top", direction="horizontal", symbolType="square", columns=1,
                                         labelLimit=0, labelExpr="datum.label === 'memory' ? 'memory (bytes ÷ bandwidth)'"
                                                                 " : 'arithmetic (FLOP ÷ FLOP/s)'"))
    bars = base.mark_bar().encode(
        x=x, y=y, yOffset=alt.YOffset("part:N", sort=PARTS), color=colour,
        tooltip=[alt.Tooltip("phase_name:N", title="phase"), alt.Tooltip("part:N", title="part"),
                 alt.Tooltip("shown:N", title="time")],
    )
    values = base.mark_text(align="left", dx=3, fontSize=10).encode(
        x=x, y=y, yOffset=alt.YOffset("part:N", sort=PARTS), color=colour, text="shown:N")
    chart = alt.layer(bars, values).properties(
        width="container", height=200,
        title=title("One iteration in the ideal model", "A pass needs memory time and arithmetic time",
                    "and takes the larger of the two (roofline).", "A plain decoding step for comparison."),
    )
    return finish(chart, NAME, DESCRIPTION)
