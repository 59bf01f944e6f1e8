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


def page_spec(spec: Mapping) -> dict:
    """The Vega spec the page embeds for the Vega-Lite `spec` (a dict as Altair writes it).

    Named datasets, data URLs, `description` and `usermeta` carry over, so the page swaps the
    same datasets by name. Raises ValueError if the spec's Vega-Lite version is not the bundle's
    (svg.check_vegalite_version)."""
    check_vegalite_version(spec)
    return vlc.vegalite_to_vega(dict(spec), vl_version=f"v{bundle_vegalite_version()}", config=PAGE_CONFIG)
