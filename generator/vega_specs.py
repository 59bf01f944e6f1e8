"""The charts as the page runs them: each chart's Vega-Lite spec (generator/charts/, built with
Altair) compiled to Vega at build time, with the page's theme, by the Vega-Lite the page's
bundle carries (vl-convert). The browser then only builds the view: compiling a Vega-Lite spec
in the page costs about 100 ms of main thread per chart on a 2-core machine, which held up the
simulation's ladder on every load.

The theme: axis, legend and title colours are the page's text colour (currentColor: spec.css
sets `color` on the view), so one view reads in the light and the dark palette, follows a flip
of the palette without being rebuilt, and prints dark on white paper. Mark colours are the
spec's own, chosen to read on both. The static pictures (svg.py) are rendered with a light theme
of their own.
"""
from __future__ import annotations

from collections.abc import Mapping

import vl_convert as vlc

from .svg import bundle_vegalite_version, check_vegalite_version

INK = "currentColor"
PAGE_CONFIG = {
    "background": "transparent",
    "axis": {
        "labelColor": INK,
        "titleColor": INK,
        "domainColor": INK,
        "tickColor": INK,
        "gridColor": INK,
        "labelOpacity": 0.85,
        "domainOpacity": 0.5,
        "tickOpacity": 0.5,
        "gridOpacity": 0.15,
    },
    "legend": {"labelColor": INK, "titleColor": INK},
    "title": {"color": INK, "subtitleColor": INK},
    "header": {"labelColor": INK, "titleColor": INK},
    "view": {"stroke": INK, "strokeOpacity": 0.15},
    # Reference lines (1×, the roof, the ceiling) are decorative: their meaning is in the axis and
    # the description, and an unlabelled graphic role fails screen readers.
    "rule": {"aria": False},
}


# The narrowest a chart as wide as its column is drawn, in CSS px: the column of a 375-px phone,
# the narrowest its words were written for (titles of at most 40 characters, subtitle lines of
# at most 50). In a narrower column (a 320-px phone) the view is drawn at this width and scaled
# down to the column (spec.css), as its picture is: found by a cold read at 320 px, a title and a
# legend cut off at the chart's edge and the page scrolling sideways.
NARROWEST_CHART_WIDTH_PX = 343
CONTAINER_WIDTH = "containerSize()[0]"


def page_spec(spec: Mapping) -> dict:
    """The Vega spec the page embeds for the Vega-Lite `spec` (a dict as Altair writes it).

    Named datasets, data URLs, `description` and `usermeta` carry over, so the page swaps the
    same datasets by name. A chart as wide as its column is drawn at least
    NARROWEST_CHART_WIDTH_PX wide. Raises ValueError if the spec's Vega-Lite version is not the
    bundle's (svg.check_vegalite_version)."""
    check_vegalite_version(spec)
    compiled = vlc.vegalite_to_vega(dict(spec), vl_version=f"v{bundle_vegalite_version()}", config=PAGE_CONFIG)
    at_least = f"max({NARROWEST_CHART_WIDTH_PX}, {CONTAINER_WIDTH})"
    for signal in compiled.get("signals", []):
        if signal["name"] == "width" and CONTAINER_WIDTH in signal.get("init", ""):
            signal["init"] = signal["init"].replace(f"? {CONTAINER_WIDTH} :", f"? {at_least} :")
            for handler in signal.get("on", []):
                handler["update"] = handler["update"].replace(f"? {CONTAINER_WIDTH} :", f"? {at_least} :")
            if at_least not in signal["init"]:
                raise ValueError(f"chart {spec.get('usermeta', {}).get('chart')}: unexpected width signal {signal}")
    return compiled
