"""Static SVG renders of the chart specs and the Vega JavaScript bundle, both via vl-convert."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from html import escape

import altair as alt
import vl_convert as vlc

from .charts.common import TEXT_ON_LIGHT

# "container" has no meaning without a page; the static render uses this width instead.
STATIC_WIDTH = 640
# The picture's text in fonts of one set of widths: vl-convert measures the charts' system-ui
# stack in Liberation Sans, and lays the picture out by those widths; a browser would draw the
# same stack in its own system font (DejaVu Sans on Debian, 17% wider) and run titles past the
# picture's edge. Liberation Sans, Arial and Helvetica share their widths.
STATIC_FONT = "'Liberation Sans', Arial, Helvetica, sans-serif"

_SCHEMA_VERSION = re.compile(r"/vega-lite/v(\d+)\.(\d+)(?:\.\d+)?\.json$")


def render_svg(spec: Mapping, datasets: Mapping[str, list[dict]], *, width: int | None = STATIC_WIDTH,
               config: Mapping | None = None) -> str:
    """SVG text of `spec` with each named dataset replaced by inline rows.

    spec: a Vega-Lite dict whose data are `{"name": ..., "url": ...}` (left untouched; a
    deep copy is rendered).  datasets: `{dataset name: rows}`; every named dataset in the spec
    must be given.  width: pixels used where the spec says "container" (None keeps
    "container", which vl-convert treats as a 300 px container: a phone-sized check).  config: optional
    Vega-Lite config (e.g. the page's light theme) merged by vl-convert.
    Deterministic: the same input gives byte-identical output.  The root <svg> gets
    role="img", aria-label and a <title> from the spec's description.
    """
    check_vegalite_version(spec)
    inlined = copy.deepcopy(dict(spec))
    used = _inline(inlined, datasets, width)
    inlined["config"] = {**inlined.get("config", {}), "font": STATIC_FONT}
    unknown = sorted(set(datasets) - used)
    if unknown:
        raise ValueError(f"datasets {unknown} are not used by the spec")
    svg = vlc.vegalite_to_svg(inlined, vl_version=f"v{bundle_vegalite_version()}",
                              config=dict(config) if config else None)
    return _label(_text_on_light(svg), _description(spec))


def _text_on_light(svg: str) -> str:
    """Text drawn in a mark colour, in its darker shade for white (charts.common.TEXT_ON_LIGHT)."""
    shades = {k.lower(): v for k, v in TEXT_ON_LIGHT.items()}
    return re.sub(r'(<text\b[^>]*\bfill=")(#[0-9A-Fa-f]{6})(")',
                  lambda m: m[1] + shades.get(m[2].lower(), m[2]) + m[3], svg)


def _inline(node, datasets: Mapping[str, list[dict]], width: int | None) -> set[str]:
    """Swap named URL data for inline values in place; return the dataset names swapped."""
    used: set[str] = set()
    if isinstance(node, dict):
        data = node.get("data")
        if isinstance(data, dict) and "name" in data:
            name = data["name"]
            if name not in datasets:
                raise KeyError(f"no rows given for dataset {name!r}")
            # JSON round trip: the render sees exactly what the page would fetch.
            node["data"] = {"name": name, "values": json.loads(json.dumps(datasets[name]))}
            used.add(name)
        if width is not None and node.get("width") == "container":
            node["width"] = width
        for key, value in node.items():
            if key not in ("data", "config", "usermeta"):
                used |= _inline(value, datasets, width)
    elif isinstance(node, list):
        for item in node:
            used |= _inline(item, datasets, width)
    return used


def fills_width(spec) -> bool:
    """Whether any view of a Vega-Lite spec is as wide as its container (``width: "container"``).

    Such a chart keeps its drawn height at any width, so the page boxes its picture to that
    height rather than scaling it (docs/stylesheets/spec.css, ``spec-chart__static--fill``)."""
    if isinstance(spec, dict):
        return spec.get("width") == "container" or any(
            fills_width(value) for key, value in spec.items() if key not in ("data", "config", "usermeta"))
    if isinstance(spec, list):
        return any(fills_width(item) for item in spec)
    return False


def _description(spec: Mapping) -> str:
    meta = spec.get("usermeta") or {}
    text = spec.get("description") or meta.get("description")
    if not text:
        raise ValueError("the spec has no description (needed for the SVG's accessible name)")
    return text


def _label(svg: str, description: str) -> str:
    """Name the chart for screen readers: vl-convert leaves the root <svg> unlabelled."""
    end = svg.find(">")
    if not svg.startswith("<svg") or end < 0:
        raise ValueError("vl-convert did not return an <svg> document")
    text = escape(description, quote=True)
    head = svg[:end]
    if "aria-label=" not in head:
        head += f' role="img" aria-label="{text}"'
    if svg[end + 1:].startswith("<title>"):
        return f"{head}>{svg[end + 1:]}"
    return f"{head}><title>{text}</title>{svg[end + 1:]}"


# --- the Vega bundle ---------------------------------------------------------------------


def spec_vegalite_version(spec: Mapping) -> str:
    """"major.minor" of the Vega-Lite schema a spec declares in `$schema`."""
    match = _SCHEMA_VERSION.search(spec.get("$schema", ""))
    if not match:
        raise ValueError(f"spec $schema {spec.get('$schema')!r} is not a Vega-Lite schema URL")
    return f"{match[1]}.{match[2]}"


def bundle_vegalite_version() -> str:
    """"major.minor" of the Vega-Lite in the bundle: Altair's schema version, which must be one
    that vl-convert ships (else RuntimeError)."""
    match = _SCHEMA_VERSION.search(alt.SCHEMA_URL)
    if not match:
        raise RuntimeError(f"cannot read a Vega-Lite version from altair.SCHEMA_URL {alt.SCHEMA_URL!r}")
    version = f"{match[1]}.{match[2]}"
    if version not in vlc.get_vegalite_versions():
        raise RuntimeError(
            f"Altair {alt.__version__} writes Vega-Lite v{version} specs, but vl-convert "
            f"{vlc.__version__} ships only {', '.join(vlc.get_vegalite_versions())}: "
            "upgrade vl-convert-python or pin altair to a matching release"
        )
    return version


def check_vegalite_version(spec: Mapping) -> None:
    """Raise ValueError unless the spec's Vega-Lite major.minor equals the bundle's."""
    declared = spec_vegalite_version(spec)
    bundled = bundle_vegalite_version()
    if declared != bundled:
        raise ValueError(
            f"spec declares Vega-Lite v{declared} but the bundle (and the static renders) use "
            f"v{bundled}: regenerate the spec with the installed Altair"
        )


# The page draws the charts' Vega specs (compiled at build time: vega_specs.py) with Vega alone: no
# Vega-Lite compiler and no vega-embed, a third less script to parse before the first chart.
# vl-convert bundles only the ES modules it vendors, named by the paths of its import map (copies
# inside vl-convert, never fetched); these are vl-convert-python 1.9's
# (vl-convert-rs/src/module_loader/import_map.rs). Its bare `vega` namespace is null in the
# bundle, so the functions are imported by name.
VEGA_MODULES = {
    "vega": "/npm/vega@6.2.0/+esm",
    "vega-interpreter": "/npm/vega-interpreter@2.0.0/+esm",
    "vega-tooltip": "/npm/vega-tooltip@1.0.0/+esm",
}
# What views/charts.js uses, as window.vega: parse and View build a view; loader reads the specs'
# data URLs; expressionInterpreter evaluates expressions without eval (the page's CSP); the
# tooltip handler draws the marks' tooltips as HTML (vega-tooltip, as vega-embed would).
VEGA_BUNDLE_SNIPPET = f"""
import {{ parse, View, loader }} from "{VEGA_MODULES['vega']}";
import {{ expressionInterpreter }} from "{VEGA_MODULES['vega-interpreter']}";
import {{ Handler }} from "{VEGA_MODULES['vega-tooltip']}";
window.vega = {{ parse, View, loader, expressionInterpreter, TooltipHandler: Handler }};
"""


def vega_bundle() -> str:
    """JavaScript for docs/vendor/vega-bundle.js: sets ``window.vega`` to Vega's parse, View and
    loader, vega-interpreter's expressionInterpreter and vega-tooltip's Handler (as
    TooltipHandler). Built by vl-convert from the modules it vendors
    (VEGA_MODULES); RuntimeError if the installed vl-convert vendors other versions."""
    try:
        return vlc.javascript_bundle(VEGA_BUNDLE_SNIPPET, vl_version=f"v{bundle_vegalite_version()}")
    except Exception as error:  # vl-convert raises a bare ValueError/RuntimeError from Rust
        raise RuntimeError(
            f"vl-convert-python {vlc.__version__} could not bundle {', '.join(VEGA_MODULES.values())}: "
            "it vendors other versions; set generator/svg.py VEGA_MODULES to the ones in its "
            f"import map ({error})"
        ) from error
