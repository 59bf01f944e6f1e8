"""Leviathan et al.'s Eq. 1: expected tokens per iteration against γ, and its ceiling."""
from __future__ import annotations

import altair as alt

from .common import BLUE, REFERENCE, axis, column, field, finish, formatted, source, title, walk

NAME = "closed_form"
SAYS_IF_IT_FITS = False  # the same rows at any batch and context
DESCRIPTION = ("Line chart of the expected number of tokens produced per iteration against γ from 1 to 20 at "
               "the current acceptance rate α, the same at every position, approaching the dashed ceiling 1/(1−α).")
ROWS = {"table": [walk(["gamma_cf"], gamma=axis("gamma_cf"), expected_tokens=field("expected_tokens"),
                       ceiling=field("ceiling"))]}
# tokens per iteration as the prose writes a mean acceptance length and the ceiling: "4.00"
COLUMNS = [column("gamma", "γ", "int"), column("expected_tokens", "expected tokens per iteration", "num"),
           column("ceiling", "ceiling 1/(1−α)", "num")]
HEIGHT = 240


def spec(context: dict) -> dict:
    base = alt.Chart(source(NAME)).transform_calculate(
        expected_shown=formatted("datum.expected_tokens", "num") + " + ' tokens'",
        ceiling_shown=formatted("datum.ceiling", "num") + " + ' tokens'")
    x = alt.X("gamma:Q", title="draft tokens per iteration, γ", scale=alt.Scale(domain=[1, 20], nice=False),
              axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("expected_tokens:Q", title="expected tokens per iteration", scale=alt.Scale(zero=True))
    line = base.mark_line(color=BLUE, strokeWidth=2, point=alt.OverlayMarkDef(filled=True, size=30)).encode(
        x=x, y=y,
        # two decimals, trailing zeros kept, as the prose writes tokens per iteration: "3.90"
        # beside "3.96", and a ceiling of "4.00 tokens" in both
        tooltip=[alt.Tooltip("gamma:Q", title="γ"),
                 alt.Tooltip("expected_shown:N", title="expected tokens"),
                 alt.Tooltip("ceiling_shown:N", title="ceiling 1/(1−α)")],
    )
    # Every row carries the same ceiling; the mean collapses them into one rule.
    ceiling = base.mark_rule(color=REFERENCE, strokeWidth=1.5, strokeDash=[6, 4]).encode(y="mean(ceiling):Q")
    # At the left, where the curve is furthest below its ceiling (at the right it runs into it);
    # under the line, which at a low α is the top of the view and the curve itself, and drawn over
    # the curve, which at a low α lies on it (found by a cold read at α = 0.05: no dashed line in
    # sight and its label against the frame's top)
    note = base.mark_text(align="left", baseline="top", dx=4, dy=6, x=0, color=REFERENCE,
                          fontWeight="bold", text="ceiling 1/(1−α)").encode(y="mean(ceiling):Q")
    chart = alt.layer(line, ceiling, note).properties(
        width="container", height=HEIGHT,
        # (found by a cold read: 3.05 here beside the readout's 2.61 of the same name at the same α,
        # the figure's i.i.d. acceptance unsaid; and by another: "falling gives less (the
        # simulation's readout)" over a simulation set to rising acceptance, whose readout is more)
        title=title("Expected tokens per iteration, by γ", "The mean acceptance length with the same α at",
                    "every position (Leviathan et al. 2023, Eq. 1)", "rises with γ towards its ceiling 1/(1−α), the",
                    "dashed line; the lower α, the sooner it levels", "off. Past γ = 1, acceptance falling with",
                    "position gives less, rising more: the simulation's", "readout follows the shape it is set to."),
    )
    return finish(chart, NAME, DESCRIPTION)
