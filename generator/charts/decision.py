"""The decision map: for each kind of traffic, the fastest drafter and γ at every batch size ×
context, each drafter at its own typical acceptance for that traffic. A click sets the simulation."""
from __future__ import annotations

import altair as alt

from .common import (formatted, BATCH_NUMBER, DRAWN_VALUES, IN_K, GREY, axis, column, current, drawn, field, field_label, finish, label,
                     label_expr, source, title, walk)

NAME = "decision"
DESCRIPTION = ("Three heatmaps, one per kind of traffic (chat, summarisation, code editing), over batch size and "
               "context length; each cell is coloured by the drafter with the highest speedup at its typical "
               "acceptance for that traffic and labelled with its best γ and speedup.")
ROWS = {"table": [walk(["task", "batch", "context"], task=axis("task"), task_label=label("task"),
                       batch=axis("batch"), context=axis("context"),
                       drafter=field("decision_drafter"), drafter_label=field_label("drafter", "decision_drafter"),
                       gamma=field("decision_gamma"),
                       alpha=field("decision_alpha"), acceptance=field("decision_acceptance"),
                       speedup=field("decision_speedup"), fits=field("decision_fits"),
                       gpu_memory=field("gpu_memory_bytes"), current=current("batch", "context"))]}
COLUMNS = [column("task_label", "traffic"), column("batch", "concurrent sequences", "int"),
           column("context", "context (tokens)", "int"), column("drafter_label", "best drafter"),
           column("gamma", "best γ", "int"), column("alpha", "its α", "num"), column("speedup", "speedup", "times"),
           column("fits", "fits in memory", "yes")]
CELL_NONE = GREY
# A cell where even the best choice is slower than plain decoding is coloured as this key.
PLAIN_WINS = "plain"
PLAIN_WINS_LABEL = "none: plain decoding is faster"
# px per context column, per batch row, as a phone draws them (a wider column scales the map up).
# A cell is a tap target: at 26 a row's cells were 23 px tall (found by a cold read on a phone);
# at 28 they are 24.6, WCAG 2.2's minimum target size (success criterion 2.5.8) each way.
STEP_X, STEP_Y = 37, 28
RING_WIDTH, RING_HEIGHT = STEP_X + 3, STEP_Y + 3  # round the cell, over the gaps between cells
RING_STROKE_PX = 2
# How far the ring reaches past the band of an edge cell, with room to spare (Vega pads a mark's
# bounds): the cell is (1 - CELL_GAP) of a step, the ring a step and 3 px, half its stroke outside.
# At 0.06 the 2 px between cells did not part their white labels on a phone (a row read as
# "1.70×1.70×1.71×"); 0.12 shows the page through 4 px.
CELL_GAP = 0.12
RING_OVERSHOOT_PX = 1.5 + RING_STROKE_PX / 2 + 2
LABEL = "#ffffff"  # the cells' text: every drafter colour and the grey are picked to hold it
# A cell whose best choice does not fit in the GPU's memory is faded to this much of its colour,
# and its text is in the page's ink: pale as the ladder's rungs that do not fit are.
NO_FIT_OPACITY = 0.45  # at 0.3 a faded teal and a faded grey were hard to tell apart on slate
CELL_FONT_PX = 10
# A speedup within a hair of 1× takes four decimals to say which side of 1 it is on ("1.0004×",
# formats.py beside_one): at CELL_FONT_PX it is wider than its cell and ran into the next cell's
# label on a phone (found by a cold read, L40S with Llama-3.3-70B); longer labels than this many
# characters are set smaller, as wide as a three-decimal one at CELL_FONT_PX.
CELL_LABEL_CHARS = 6
CELL_SMALL_FONT_PX = 8
# No note under the map when the simulation's state does not fit: each cell is faded when its own
# best choice does not (the simulation's drafter and γ are not what the map shows).
SAYS_IF_IT_FITS = False
# What a click on a cell sets: the cell's batch and context, and its drafter at its best γ and
# its typical acceptance for the traffic.
SELECT = ["batch", "context", "drafter", "gamma", "alpha", "acceptance"]


def spec(context: dict) -> dict:
    labels = context["labels"]["drafter"]
    colours = context["colours"]["drafter"]
    tasks = context["labels"]["task"]
    drafters = list(labels)
    winners = [*drafters, PLAIN_WINS]
    base = alt.Chart(source(NAME)).transform_calculate(
        winner=f"datum.speedup <= 1 ? '{PLAIN_WINS}' : datum.drafter",
        shown=formatted("datum.speedup", "times"),
    ).transform_calculate(
        label="'γ' + datum.gamma + '\\n' + datum.shown",
        drafter_name=label_expr(labels, "datum.drafter"),
        # α as the controls and the prose write it; the acceptance shape is a setting of its own
        alpha_shown=formatted("datum.alpha", "num"),
        shape_shown=label_expr(context["labels"]["acceptance"], "datum.acceptance"),
        verdict="datum.speedup > 1 ? 'faster than plain decoding' : 'plain decoding is faster'",
        # the configuration's GPUs' memory, from the data: the map follows the state
        memory="(datum.fits ? 'fits in ' : 'does not fit in ') + " + formatted("datum.gpu_memory", "gb"),
    )
    # Gaps between cells show the page background, so no separator colour is hard-coded.
    # Room at the ends for the ring round an edge cell (RING_OVERSHOOT_PX each side): reaching past
    # the panel, it made the panel taller as it moved to the last row, and Vega, which places the
    # panels once, left the legend where the panels used to end.
    gap = alt.Scale(paddingInner=CELL_GAP, paddingOuter=RING_OVERSHOOT_PX / min(STEP_X, STEP_Y))
    x = alt.X("context:O", title="context length (tokens, k = 1024)", scale=gap,
              axis=alt.Axis(labelAngle=0, orient="top",
                            labelExpr=IN_K))
    y = alt.Y("batch:O", title="concurrent sequences", scale=gap, axis=alt.Axis(labelExpr=BATCH_NUMBER))
    tooltip = [alt.Tooltip("task_label:N", title="traffic"),
               alt.Tooltip("batch:O", title="concurrent sequences", format=","),
               alt.Tooltip("context:O", title="context (tokens)", format=","),
               alt.Tooltip("drafter_name:N", title="best drafter"), alt.Tooltip("gamma:Q", title="best γ"),
               alt.Tooltip("alpha_shown:N", title="its typical α"),
               alt.Tooltip("shape_shown:N", title="acceptance across positions"),
               alt.Tooltip("shown:N", title="speedup"), alt.Tooltip("verdict:N", title="verdict"),
               alt.Tooltip("memory:N", title="memory")]
    # The legend lists the winners this state's cells show (the catalog has draft models no cell
    # may pick), grey included where plain decoding wins: don't speculate. Above the maps: under
    # the third it was two phone screens from the first (found by a cold read).
    cells = base.mark_rect(cursor="pointer").encode(
        x=x, y=y,
        color=alt.Color("winner:N", title="best drafter",
                        scale=alt.Scale(domain=winners, range=[*(colours[d] for d in drafters), CELL_NONE]),
                        legend=alt.Legend(orient="top", columns=1, values=DRAWN_VALUES, symbolStrokeWidth=0, labelLimit=0,
                                          labelExpr=label_expr({**labels, PLAIN_WINS: PLAIN_WINS_LABEL}))),
        opacity=drawn("winner:N", winners),
        fillOpacity=alt.condition("datum.fits", alt.value(1), alt.value(NO_FIT_OPACITY)),
        tooltip=tooltip,
    )
    # The current state's batch and context: a dashed ring in the ink round the cell, over the
    # gaps, so it is seen against the page. A symbol: a point is centred on its band (a rect of
    # another size than the band is not).
    ring = base.transform_filter("datum.current").mark_point(
        shape=_box(RING_WIDTH, RING_HEIGHT), size=RING_WIDTH ** 2,
        filled=False, color="currentColor", opacity=1, strokeWidth=RING_STROKE_PX, strokeDash=[3, 2]).encode(x=x, y=y)
    # Two-line label: shift up half a line so the pair is centred in the cell. White on a full
    # colour; the page's ink on a faded one (a cell that does not fit). It covers most of the
    # cell, so it carries the cell's tooltip too.
    text = base.mark_text(lineBreak="\n", dy=-CELL_FONT_PX / 2 - 0.5, cursor="pointer").encode(
        x=x, y=y, text="label:N", color=alt.condition("datum.fits", alt.value(LABEL), alt.value("currentColor")),
        size=alt.condition(f"length(datum.shown) > {CELL_LABEL_CHARS}", alt.value(CELL_SMALL_FONT_PX), alt.value(CELL_FONT_PX)),
        tooltip=tooltip)
    chart = alt.layer(cells, ring, text).properties(width=alt.Step(STEP_X), height=alt.Step(STEP_Y)).facet(
        row=alt.Row("task:N", sort=list(tasks), title=None,
                    header=alt.Header(labelExpr=label_expr(tasks, "datum.value"), labelAngle=0, labelAlign="left",
                                      labelAnchor="start", labelOrient="top", labelFontWeight="bold",
                                      labelFontSize=13)),
        spacing=14,
    # Every panel has its own context axis: the map is three screens tall on a phone.
    ).resolve_axis(x="independent").properties(
        title=title("Best drafter and γ, by traffic", "Colour: the fastest drafter at its typical",
                    "acceptance (grey: none beats plain decoding);", "text: its γ and speedup. Faded: does not fit",
                    "in memory. Dashed ring: the simulation's batch", "and context. Click or tap a cell to open it above."),
    )
    return finish(chart, NAME, DESCRIPTION, select=SELECT)


def _box(width: float, height: float) -> str:
    """A symbol's path for a width × height rectangle: a custom path spans -1…1 across the square
    root of the symbol's size, so the symbol's size is width²."""
    return f"M-1,-{height / width:.3f}H1V{height / width:.3f}H-1Z"
