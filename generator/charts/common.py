"""Shared pieces of the chart specs: data sources, palette, fonts, finishing touches.

Colours here are mark colours only.  Text and axis colours are left to the light or
dark Vega config the page applies at embed time, so every mark colour is picked to
keep at least ~3:1 contrast against both white and near-black (#121212) backgrounds.
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt

DATA_DIR = "charts/data"
TABLE = "table"
ROOF = "roof"
ROOF_URL = f"{DATA_DIR}/roofline-roof.json"

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

# Mid-luminance hues: readable on white and on near-black.
BLUE = "#3F7AD6"
ORANGE = "#D4622A"
TEAL = "#17A398"
DEEP_TEAL = "#0E7C72"
PURPLE = "#8E6BC8"
GREY = "#6B7280"
# Reference lines (1×, the roof, the ceiling): a neutral grey that reads on both backgrounds.
REFERENCE = "#888888"

# Darker variants for filled cells that carry white text (>= 4.3:1 against white).
CELL_DRAFTER = {"qwen3-0.6b": "#3B6FB6", "qwen3-1.7b": "#7B5AA6", "ngram": "#17877D"}
CELL_NONE = GREY

DEFAULT_DRAFTER_LABELS = {"qwen3-0.6b": "Qwen3-0.6B", "qwen3-1.7b": "Qwen3-1.7B", "ngram": "n-gram"}


def table(name: str) -> alt.UrlData:
    """The state-dependent dataset of chart `name`: Vega dataset `table`, rows fetched by URL."""
    return alt.UrlData(url=f"{DATA_DIR}/{name}.json", name=TABLE)


def roof() -> alt.UrlData:
    """The roofline's static roof: Vega dataset `roof`."""
    return alt.UrlData(url=ROOF_URL, name=ROOF)


def label_expr(labels: Mapping[str, str], field: str = "datum.label") -> str:
    """A Vega expression mapping category keys to display labels (unknown keys pass through)."""
    expr = field
    for key, text in reversed(list(labels.items())):
        expr = f"{field} === {_js(key)} ? {_js(text)} : ({expr})"
    return expr


def _js(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


# A 375 px screen leaves ~340 px for a chart; Vega titles do not wrap, so lines stay short.
TITLE_MAX_CHARS = 40
SUBTITLE_MAX_CHARS = 50


def title(text: str, *subtitle: str) -> alt.Title:
    """A chart title with subtitle lines, each short enough for a phone screen (else ValueError)."""
    if len(text) > TITLE_MAX_CHARS:
        raise ValueError(f"title longer than {TITLE_MAX_CHARS} characters: {text!r}")
    for line in subtitle:
        if len(line) > SUBTITLE_MAX_CHARS:
            raise ValueError(f"subtitle line longer than {SUBTITLE_MAX_CHARS} characters: {line!r}")
    return alt.Title(text, subtitle=list(subtitle) if subtitle else alt.Undefined)


def finish(chart: alt.TopLevelMixin, name: str, description: str) -> dict:
    """Attach the screen-reader description and shared config; return the Vega-Lite dict."""
    chart = chart.properties(description=description, usermeta={"chart": name, "description": description})
    chart = chart.configure(font=FONT).configure_title(anchor="start", subtitlePadding=4, fontSize=14)
    return chart.to_dict()
