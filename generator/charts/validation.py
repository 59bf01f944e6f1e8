"""The cost models against measurement: plain decoding's step time by batch, as measured in vLLM
on an H100 and as each cost model predicts it at the same batch and context. Static."""
from __future__ import annotations

import altair as alt

from .common import BLUE, ORANGE, PURPLE, column, count_text, duration_text, finish, formatted, label_expr, source, title

NAME = "validation"
DESCRIPTION = ("Plain decoding step time in milliseconds against batch size (log scale), measured in vLLM on one "
               "H100 (points) and predicted by the calibrated, the kernel-by-kernel and the whole-pass cost models "
               "(lines) at the same batch and context.")
ROWS = None  # the build writes them (generator/evidence.py)
FOLLOWS_STATE = False
COLUMNS = [column("study", "measured by"), column("batch", "concurrent sequences", "int"),
           column("context", "context (tokens)", "int"), column("measured", "measured (ms)", "num"),
           column("calibrated", "calibrated (ms)", "num"), column("per-kernel", "ideal, kernel by kernel (ms)", "num"),
           column("whole-pass", "ideal, whole pass (ms)", "num"), column("read_off_plot", "read off a plot", "yes"),
           column("fitted", "used in the fit", "yes"), column("source", "source")]
SERIES = ["measured", "calibrated", "per-kernel", "whole-pass"]
SERIES_LABELS = {"measured": "measured (vLLM, H100)", "calibrated": "calibrated model",
                 "per-kernel": "ideal, kernel by kernel", "whole-pass": "ideal, whole pass"}
SERIES_COLOURS = ["currentColor", BLUE, PURPLE, ORANGE]
# How a study gave the context of a measurement (specmodel.calibration.measurements), in words.
CONTEXT_BASIS = {"stated": "as the study states it", "implied": "worked out from its input and output lengths",
                 "fitted": "fitted, the study does not state it"}


def encode_series(chart: alt.Chart, x: alt.X, y: alt.Y, value_title: str, extra: list = (),
                  dash: alt.StrokeDash | None = None) -> alt.LayerChart:
    """Model lines (one per setting and model) under the measured points; shared with the shares
    chart, whose lines also differ by ``dash`` (a stroke dash per drafter). Each mark's tooltip
    (``tooltip``) names its value ``value_title``, then the fields of ``extra``."""
    legend = alt.Legend(orient="top", columns=2, labelExpr=label_expr(SERIES_LABELS), labelLimit=170)
    colour = alt.Color("series:N", title=None, scale=alt.Scale(domain=SERIES, range=SERIES_COLOURS), legend=legend)
    # The legend draws each series as the plot does: a diamond for the measurements, a dot for a
    # model's line (found by a cold read: diamonds for every series, under a subtitle saying
    # diamonds are the measurements). One legend: colour and shape share the field and title.
    shape = alt.Shape("series:N", title=None, legend=legend,
                      scale=alt.Scale(domain=SERIES, range=["diamond"] + ["circle"] * (len(SERIES) - 1)))
    lines = chart.transform_filter("datum.series !== 'measured'").mark_line(point=alt.OverlayMarkDef(size=18),
                                                                             strokeWidth=1.5).encode(
        x=x, y=y, color=colour, shape=shape, detail="setting:N", tooltip=tooltip(value_title, measured=False) + list(extra),
        **({"strokeDash": dash} if dash else {}))
    points = chart.transform_filter("datum.series === 'measured'").mark_point(
        filled=True, size=60).encode(x=x, y=y, color=colour, shape=shape, tooltip=tooltip(value_title) + list(extra))
    return alt.layer(lines, points)


def tooltip(value_title: str, measured: bool = True) -> list:
    """A point's tooltip: a measurement's says where it is from, whether it was read off a plot
    and whether the fit used it; a model's point names the measurement it is priced beside, and
    no more (found by a cold read: "measurement read off a plot: no" on a model's line read as
    said of the model's number)."""
    where = [alt.Tooltip("series_name:N", title="series"), alt.Tooltip("shown:N", title=value_title),
             alt.Tooltip("batch:Q", title="concurrent sequences", format=","),
             alt.Tooltip("context_shown:N", title="context")]
    if not measured:
        return where + [alt.Tooltip("study:N", title="priced beside the measurement from")]
    return where + [alt.Tooltip("study:N", title="measured by"),
                    alt.Tooltip("read_shown:N", title="read off a plot"),
                    alt.Tooltip("fitted_shown:N", title="used in the fit")]


def with_text(chart: alt.Chart, unit: str) -> alt.Chart:
    """One row per (measurement, series) from the one-row-per-measurement data, and the tooltips' text."""
    return chart.transform_fold(SERIES, as_=["series", "value"]).transform_calculate(
        series_name=label_expr(SERIES_LABELS, "datum.series"),
        # as the prose writes each: a share in whole percent ("48%"), a step time as "16.76 ms"
        shown=(formatted("datum.value / 100", "pct") if unit == "%" else duration_text("datum.value / 1000")),
        context_shown=f"{count_text('datum.context')} + ' tokens, ' + {label_expr(CONTEXT_BASIS, 'datum.context_basis')}",
        read_shown="datum.read_off_plot ? 'yes' : 'no'",
        fitted_shown="datum.fitted ? 'yes: the calibrated model was fitted to it' : 'no'",
    )


def spec(context: dict) -> dict:
    base = with_text(alt.Chart(source(NAME)), "ms")
    x = alt.X("batch:Q", title="concurrent sequences (log scale)",
              scale=alt.Scale(type="log", base=2, domain=[0.8, 320]),
              axis=alt.Axis(values=[1, 2, 4, 8, 16, 32, 64, 128, 256]))
    y = alt.Y("value:Q", title="plain decoding step (ms)", scale=alt.Scale(zero=False))
    chart = encode_series(base, x, y, "step time").properties(
        width="container", height=240,
        # (where they were measured: the essay's other figures are at its own context and target)
        title=title("Plain decoding step, model vs measured", f"{context['figures'][NAME]['where']}. Diamonds: measured in",
                    "vLLM at each study's context; lines: each cost", "model at the same batch and context."),
    )
    return finish(chart, NAME, DESCRIPTION)
