"""The cost models against measurement: the share of wall time spent drafting, by batch, as Liu et
al. 2026 profiled it in vLLM on an H100 and as each cost model predicts it. Static."""
from __future__ import annotations

import altair as alt

from .common import column, finish, source, title
from .validation import encode_series, with_text

NAME = "shares"
DESCRIPTION = ("Share of wall time spent drafting, in percent, against batch size (log scale), for a Qwen3-0.6B "
               "draft model, an EAGLE-3 head and n-gram lookup at γ = 3: as profiled in vLLM on one H100 (points) and as "
               "predicted by the calibrated, the kernel-by-kernel and the whole-pass cost models (lines).")
ROWS = None  # the build writes them (generator/evidence.py)
FOLLOWS_STATE = False
# Whole percents, as the prose and the tooltips write a share (several were read off a plot: a
# tenth of a percent would claim more than the reading holds).
COLUMNS = [column("drafter_label", "drafter"), column("batch", "concurrent sequences", "int"),
           column("measured", "drafting, measured (%)", "int"), column("calibrated", "drafting, calibrated (%)", "int"),
           column("per-kernel", "drafting, ideal kernel by kernel (%)", "int"),
           column("whole-pass", "drafting, ideal whole pass (%)", "int"),
           column("measured_verification", "verification, measured (%)", "int"),
           column("calibrated_verification", "verification, calibrated (%)", "int"),
           column("read_off_plot", "read off a plot", "yes"), column("fitted", "used in the fit", "yes"),
           column("source", "source")]


# The drafters Liu et al. 2026 profiled, by the dash of their lines (named in the subtitle).
DASHES = {"qwen3-0.6b": [1, 0], "eagle3": [6, 3], "ngram": [1.5, 2.5]}


def spec(context: dict) -> dict:
    base = with_text(alt.Chart(source(NAME)), "%").transform_calculate(
        drafter_name="datum.drafter_label")
    x = alt.X("batch:Q", title="concurrent sequences (log scale)",
              scale=alt.Scale(type="log", base=2, domain=[0.8, 640]),
              axis=alt.Axis(values=[1, 4, 16, 64, 128, 512]))
    y = alt.Y("value:Q", title="drafting, % of wall time", scale=alt.Scale(domain=[0, 60]))
    # Which drafter a line is: its dash, named in the subtitle (the lines cross: their order would
    # not say it; a legend of dashes on coloured lines draws its symbols blank).
    dash = alt.StrokeDash("drafter:N", scale=alt.Scale(domain=list(DASHES), range=list(DASHES.values())),
                          legend=None)
    chart = encode_series(base, x, y, "drafting share", [alt.Tooltip("drafter_name:N", title="drafter")], dash).properties(
        width="container", height=220,
        title=title("Drafting's share of the time, by batch", f"{context['figures'][NAME]['where']}, γ = 3.",
                    "Diamonds: Liu et al. 2026's profile. Solid: the", "Qwen3-0.6B draft model; dashed: the EAGLE-3 head;",
                    "dotted: n-gram. Colour: the model."),
    )
    return finish(chart, NAME, DESCRIPTION)
