"""The rejection sampler at work: what the target would sample, what the drafter proposes, what
comes out (a fixed toy vocabulary, from sampler.json; the same at every state)."""
from __future__ import annotations

import altair as alt

from .common import BLUE, PURPLE, TEAL, column, finish, label_expr, source, title

NAME = "sampler"
DESCRIPTION = ("Grouped bar chart comparing, for each token, the draft model's probability, the target "
               "model's probability and the frequency with which the rejection sampler produced it.")
ROWS = None  # static: the build writes its rows once
COLUMNS = [column("token", "token"), column("draft_probability", "draft q(x)", "pct1"),
           column("target_probability", "target p(x)", "pct1"),
           column("sampled_frequency", "sampled frequency", "pct1")]
SERIES = ["draft_probability", "target_probability", "sampled_frequency"]
SERIES_LABELS = {"draft_probability": "draft q(x)", "target_probability": "target p(x)",
                 "sampled_frequency": "sampled frequency"}
HEIGHT = 240


def spec(context: dict) -> dict:
    chart = (
        alt.Chart(source(NAME))
        .transform_fold(SERIES, as_=["series", "probability"])
        .mark_bar()
        .encode(
            x=alt.X("token:N", title="token", sort=None, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("series:N", sort=SERIES),
            y=alt.Y("probability:Q", title="probability", axis=alt.Axis(format="%")),
            color=alt.Color("series:N", title=None, scale=alt.Scale(domain=SERIES, range=[PURPLE, BLUE, TEAL]),
                            legend=alt.Legend(orient="top", direction="horizontal", labelExpr=label_expr(SERIES_LABELS))),
            tooltip=[alt.Tooltip("token:N", title="token"),
                     alt.Tooltip("draft_probability:Q", title="draft q(x)", format=".1%"),
                     alt.Tooltip("target_probability:Q", title="target p(x)", format=".1%"),
                     alt.Tooltip("sampled_frequency:Q", title="sampled frequency", format=".1%")],
        )
        .properties(width="container", height=HEIGHT,
                    title=title("Rejection sampling recovers the target", "Drafts from q, accepted or resampled, end up",
                                "distributed exactly as the target p."))
    )
    return finish(chart, NAME, DESCRIPTION)
