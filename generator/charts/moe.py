"""Speculation on a mixture of experts: the speedup of an EAGLE-3 head by batch for Qwen3-30B-A3B
beside dense Qwen3 targets, under the calibrated cost model (generator/moe.py). Static."""
from __future__ import annotations

import altair as alt

from ..moe import CONTEXT, GAMMA
from .common import BLUE, ORANGE, PURPLE, REFERENCE, column, finish, formatted, source, title

NAME = "moe"
DESCRIPTION = (f"Line chart of the speedup of an EAGLE-3 head at γ = {GAMMA} over plain decoding against batch size (log "
               f"scale), at {CONTEXT:,} tokens of context in a closed batch, under the calibrated cost model on "
               "H100s, for the mixture of experts Qwen3-30B-A3B and the dense Qwen3-32B and Qwen3-8B, each at its head's measured chat acceptance, with a reference line "
               "at 1×.")
ROWS = None  # the build writes them (generator/moe.py)
FOLLOWS_STATE = False
COLUMNS = [column("label", "target"), column("tp", "H100s", "int"), column("alpha", "α on chat", "num"),
           column("batch", "concurrent sequences", "int"),
           column("speedup", "speedup, calibrated", "times"), column("ideal_speedup", "speedup, ideal whole pass", "times"),
           column("experts_plain", "experts per layer, plain step", "num1"),
           column("experts_verify", "experts per layer, verify pass", "num1"), column("fits", "fits in memory", "yes")]


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(
        series="datum.label + (datum.tp > 1 ? ' (' + datum.tp + ' GPUs)' : ' (1 GPU)')",
        shown=formatted("datum.speedup", "times"),
        # expected distinct experts: fractional, written as the prose and the data table write them
        experts="datum.experts_plain === null ? 'dense: every weight, every step' : "
                + formatted("datum.experts_plain", "num1") + " + ' of 128 plain, ' + "
                + formatted("datum.experts_verify", "num1") + " + ' verifying'",
    )
    x = alt.X("batch:Q", title="concurrent sequences (log scale)", scale=alt.Scale(type="log", base=2),
              axis=alt.Axis(values=[1, 4, 16, 64, 256]))
    y = alt.Y("speedup:Q", title="speedup over plain decoding (×)", scale=alt.Scale(zero=False))
    colour = alt.Color("series:N", title=None, scale=alt.Scale(range=[ORANGE, BLUE, PURPLE]),
                       legend=alt.Legend(orient="top", direction="vertical"))
    tips = [alt.Tooltip("series:N", title="target"), alt.Tooltip("batch:Q", title="concurrent sequences", format=","),
            alt.Tooltip("shown:N", title="speedup"), alt.Tooltip("experts:N", title="experts per layer")]
    # a batch that does not fit on the target's GPUs is left out (the data table lists it)
    lines = base.transform_filter("datum.fits").mark_line(point=True, strokeWidth=2).encode(
        x=x, y=y, color=colour, tooltip=tips)
    one = base.mark_rule(strokeWidth=1.5, strokeDash=[4, 3], color=REFERENCE).encode(y=alt.datum(1))
    chart = alt.layer(one, lines).properties(
        width="container", height=220,
        # every condition its numbers hold under (found by a cold read: no context, no workload)
        title=title("EAGLE-3 on a mixture of experts", f"γ = {GAMMA}, chat acceptance, {CONTEXT:,} tokens of context,",
                    "closed batch, H100s, calibrated."),
    )
    return finish(chart, NAME, DESCRIPTION)
