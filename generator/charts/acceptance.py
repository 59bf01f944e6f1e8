"""Charts about acceptance: per-position acceptance, the closed form, the rejection sampler."""

from __future__ import annotations

import altair as alt

from .common import BLUE, GREY, ORANGE, PURPLE, REFERENCE, TEAL, finish, label_expr, table, title

HEIGHT = 240


def acceptance() -> dict:
    """Per-position acceptance p_j, j = 1…10; rows `{position, per_position_acceptance, pays}`."""
    base = alt.Chart(table("acceptance"))
    x = alt.X("position:O", title="draft position j", axis=alt.Axis(labelAngle=0))
    bars = base.mark_bar().encode(
        x=x,
        y=alt.Y("per_position_acceptance:Q", title="per-position acceptance (share of iterations)",
                scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        color=alt.Color("pays:N", title=None, scale=alt.Scale(domain=[True, False], range=[TEAL, GREY]),
                        legend=alt.Legend(orient="top", direction="horizontal",
                                          labelExpr="datum.value ? 'pays for its draft' : 'does not pay'")),
        tooltip=[alt.Tooltip("position:O", title="position j"),
                 alt.Tooltip("per_position_acceptance:Q", title="per-position acceptance", format=".1%"),
                 alt.Tooltip("pays:N", title="pays")],
    )
    # The cut-off sits on the right edge of the last paying position's band.
    cutoff = base.transform_filter("datum.pays").transform_aggregate(last="max(position)")
    rule = cutoff.mark_rule(color=ORANGE, strokeWidth=2, strokeDash=[6, 3]).encode(
        x=alt.X("last:O", bandPosition=1)
    )
    note = cutoff.mark_text(align="left", baseline="top", dx=4, y=2, color=ORANGE, fontWeight="bold",
                            text="cut-off").encode(x=alt.X("last:O", bandPosition=1))
    chart = alt.layer(bars, rule, note).properties(
        width="container",
        height=HEIGHT,
        title=title(
            "Acceptance by draft position",
            "Positions before the cut-off pay for their draft;",
            "later ones cost more than they return.",
        ),
    )
    return finish(
        chart, "acceptance",
        "Bar chart of the acceptance probability of each draft position from 1 to 10, coloured by "
        "whether drafting that position pays, with a dashed cut-off line after the last position that pays.",
    )


def closed_form() -> dict:
    """Expected tokens per iteration vs γ = 1…20 at the current α (Leviathan et al. 2023, Eq. 1);
    rows `{gamma, expected_tokens, ceiling}`."""
    base = alt.Chart(table("closed_form"))
    x = alt.X("gamma:Q", title="draft tokens per iteration, γ", scale=alt.Scale(domain=[1, 20], nice=False),
              axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("expected_tokens:Q", title="expected tokens per iteration", scale=alt.Scale(zero=True))
    line = base.mark_line(color=BLUE, strokeWidth=2, point=alt.OverlayMarkDef(filled=True, size=30)).encode(
        x=x, y=y,
        tooltip=[alt.Tooltip("gamma:Q", title="γ"),
                 alt.Tooltip("expected_tokens:Q", title="expected tokens", format=".3~f"),
                 alt.Tooltip("ceiling:Q", title="ceiling 1/(1−α)", format=".3~f")],
    )
    # Every row carries the same ceiling; the mean collapses them into one rule.
    ceiling = base.mark_rule(color=REFERENCE, strokeWidth=1.5, strokeDash=[6, 4]).encode(y="mean(ceiling):Q")
    note = base.mark_text(align="right", baseline="bottom", dy=-4, x="width", color=REFERENCE,
                          fontWeight="bold", text="ceiling 1/(1−α)").encode(y="mean(ceiling):Q")
    chart = alt.layer(ceiling, line, note).properties(
        width="container",
        height=HEIGHT,
        title=title(
            "Expected tokens per iteration saturate",
            "(1 − α^(γ+1)) / (1 − α) (Leviathan et al. 2023,",
            "Eq. 1) approaches 1/(1−α), dashed.",
        ),
    )
    return finish(
        chart, "closed_form",
        "Line chart of the expected number of tokens produced per iteration against γ from 1 to 20 at "
        "the current acceptance rate α, approaching the dashed ceiling 1/(1−α).",
    )


SAMPLER_SERIES = ["draft_probability", "target_probability", "sampled_frequency"]
SAMPLER_LABELS = {
    "draft_probability": "draft q(x)",
    "target_probability": "target p(x)",
    "sampled_frequency": "sampled frequency",
}


def sampler() -> dict:
    """Rejection sampler: draft q, target p and the sampled frequency per token;
    rows `{token, target_probability, draft_probability, sampled_frequency}` (static)."""
    chart = (
        alt.Chart(table("sampler"))
        .transform_fold(SAMPLER_SERIES, as_=["series", "probability"])
        .mark_bar()
        .encode(
            x=alt.X("token:N", title="token", sort=None, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("series:N", sort=SAMPLER_SERIES),
            y=alt.Y("probability:Q", title="probability", axis=alt.Axis(format="%")),
            color=alt.Color("series:N", title=None,
                            scale=alt.Scale(domain=SAMPLER_SERIES, range=[PURPLE, BLUE, TEAL]),
                            legend=alt.Legend(orient="top", direction="horizontal",
                                              labelExpr=label_expr(SAMPLER_LABELS))),
            tooltip=[alt.Tooltip("token:N", title="token"),
                     alt.Tooltip("draft_probability:Q", title="draft q(x)", format=".1%"),
                     alt.Tooltip("target_probability:Q", title="target p(x)", format=".1%"),
                     alt.Tooltip("sampled_frequency:Q", title="sampled frequency", format=".1%")],
        )
        .properties(
            width="container",
            height=HEIGHT,
            title=title(
                "Rejection sampling recovers the target",
                "Drafts from q, accepted or resampled, end up",
                "distributed exactly as the target p.",
            ),
        )
    )
    return finish(
        chart, "sampler",
        "Grouped bar chart comparing, for each token, the draft model's probability, the target "
        "model's probability and the frequency with which the rejection sampler produced it.",
    )
