"""What the chart modules share: data sources, palette, fonts, titles, finishing touches.

Colours here are mark colours only. Text and axis colours are left to the light or dark Vega
config the page applies at embed time, so every mark colour is picked to keep at least ~3:1
contrast against both white and near-black (#121212) backgrounds.
"""

from __future__ import annotations

from collections.abc import Mapping

import math

import altair as alt

from ..formats import FORMATS, zero_is_nothing

DATA_DIR = "charts/data"
TABLE = "table"

LABEL_FONT_PX = 11
BAND_LABEL_FONT_PX = 10
LABEL_GAP_PX = 3
# A context-length axis label in k = 1024 tokens ("32k"), as the field writes context lengths.
IN_K = "datum.value >= 1024 ? datum.value / 1024 + 'k' : datum.value"
# A batch-size axis label as the prose and the tooltips write it ("1,024"): a count of
# sequences, not a size, so no "1k". Bands are ~25 px wide on a phone, where "512" and "1,024"
# ran together: below NARROW_PX every other rung is labelled (1, 4, 16 … 1,024), which keeps the
# chart as tall as its static picture (a second row of labels did not).
NARROW_PX = 480
BATCH_NUMBER = "format(datum.value, ',')"
BATCH_LABELS = f"width < {NARROW_PX} && indexof([2, 8, 32, 128, 512], datum.value) >= 0 ? '' : {BATCH_NUMBER}"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

# Mid-luminance hues: readable on white and on near-black.
BLUE = "#3F7AD6"
ORANGE = "#D4622A"
TEAL = "#17A398"
PURPLE = "#8E6BC8"
GREY = "#6B7280"
# Reference lines (1×, the roof, the ceiling): a neutral grey that reads on both backgrounds.
REFERENCE = "#888888"
# A value written in a mark colour is small text, which needs 4.5:1 where a mark needs 3:1: the
# same hue darker on white (the static pictures, svg.py; the page's light palette) and lighter on
# the dark palette. docs/stylesheets/spec.css applies these to the live views; a browser test
# holds every chart text to 4.5:1 in both palettes.
TEXT_ON_LIGHT = {BLUE: "#2C6CCF", ORANGE: "#B25223", TEAL: "#117B72", PURPLE: "#815AC2", GREY: "#686E7C",
                 REFERENCE: "#6E6E6E"}
TEXT_ON_DARK = {BLUE: "#6F9BE0", ORANGE: "#DE8356", TEAL: "#18ACA0", PURPLE: "#A98ED5", GREY: "#949AA6",
                REFERENCE: "#9A9A9A"}


def data_url(chart: str, dataset: str = TABLE) -> str:
    """Where dataset ``dataset`` of chart ``chart`` is fetched from (relative to the site root)."""
    return f"{DATA_DIR}/{chart}.json" if dataset == TABLE else f"{DATA_DIR}/{chart}-{dataset}.json"


def source(chart: str, dataset: str = TABLE) -> alt.UrlData:
    """A named dataset of chart ``chart``, its rows fetched by URL (the page swaps them by name)."""
    return alt.UrlData(url=data_url(chart, dataset), name=dataset)


def label_expr(labels: Mapping[str, str], field: str = "datum.label") -> str:
    """A Vega expression mapping category keys to display labels (unknown keys pass through).

    Parenthesised: inside a concatenation, ``'a' + k === 'x' ? …`` would compare the whole
    concatenation with the key and always fall through to the raw key."""
    expr = field
    for key, text in reversed(list(labels.items())):
        expr = f"{field} === {_js(key)} ? {_js(text)} : ({expr})"
    return f"({expr})"


# Tooltip numbers, each a Vega expression: a quantity in the format the prose writes it in
# (formatted, duration_text: tests/test_charts.py ties each to the prose's filter), a count whole.
def count_text(expr: str) -> str:
    return f"format({expr}, ',')"


def formatted(expr: str, name: str, suffix: bool = True) -> str:
    """A Vega expression writing ``expr`` as format ``name`` of generator.formats.FORMATS writes
    it (the prose and the readouts): a chart shows a quantity with the rounding the text next to
    it uses ("16.38 GB" in both, never "16.4" beside "16.38"). suffix=False leaves the unit off
    (a bar's label, the unit in the axis title). KeyError for an unknown format."""
    spec = FORMATS[name]
    if "decimals" not in spec or "join" in spec or "compare" in spec:
        raise ValueError(f"format {name!r} does not write one number")
    unit = _js(spec.get("suffix", "") if suffix else "")
    value = f"({expr}) * {spec.get('scale', 1)} / {spec.get('divide', 1)}"
    group = "," if spec.get("group") else ""
    text = f"format({value}, {_js(group + '.')} + {_beside_one(value, spec)} + 'f') + {unit}"
    small = spec.get("below_one")
    if small and suffix:
        # formats.small_decimals: the smaller unit to its significant figures (a number without
        # its unit keeps the axis title's unit)
        raw = f"({value}) * {small['scale']}"
        decimals = f"max(0, {small['significant'] - 1} - floor(log(abs({raw})) / LN10))"
        # rounded once in the format's unit, as the data table beside it, then moved (formats.py)
        shift = round(math.log10(small["scale"]))
        y = f"toNumber(format({value}, '.' + ({decimals} + {shift}) + 'f')) * {small['scale']}"
        small_unit = _js(small["suffix"] if suffix else "")
        text = f"(abs({raw}) < {small['below']} ? format({y}, '.' + {decimals} + 'f') + {small_unit} : {text})"
    return f"(({expr}) === 0 ? '0' + {unit} : {text})" if zero_is_nothing(spec) else f"({text})"


def _beside_one(value: str, spec: dict) -> str:
    """A Vega expression for the decimals format ``spec`` writes ``value`` with: formats.py's
    beside_one_decimals (a speedup of 0.998 is "0.998×" beside the prose's, never "1.00×")."""
    d = spec["decimals"]
    expr = str(d)
    for more in reversed(range(d + 1, d + spec.get("beside_one", 0) + 1)):
        expr = f"(toNumber(format({value}, '.{more}f')) !== 1 ? {more} : {expr})"
    if expr == str(d):
        return expr
    return f"(({value}) === 1 || toNumber(format({value}, '.{d}f')) !== 1 ? {d} : {expr})"


def duration_text(seconds: str) -> str:
    """A duration given in seconds, as the prose and the data tables write one (format "ms":
    "16.76 ms", "16,281.32 ms", "9.12 µs" below 1 ms): one rounding for one value in a chart's
    labels and its table (found by a cold read: "spec. 129 ms" over a table's 128.71 ms). The
    seconds themselves, not a product of them: x·1,000/1,000 can land a hair off x and round apart."""
    return formatted(seconds, "ms")


# A colour legend lists its scale's whole domain, which is fixed so that a series keeps its colour
# from state to state; a legend that should list only what the current state draws takes its
# values from a second scale whose domain is the data's: `drawn` puts that scale on the drawing
# layer (as an opacity that changes nothing), DRAWN_VALUES reads its domain back.
DRAWN_SCALE = "opacity"
DRAWN_VALUES = alt.ExprRef(f"domain('{DRAWN_SCALE}')")
# For the legend's titleOpacity: a legend with nothing to list shows no title either.
DRAWN_TITLE_OPACITY = alt.ExprRef(f"length(domain('{DRAWN_SCALE}')) > 0 ? 1 : 0")


def drawn(field_type: str, order: list[str], opacity: float = 1) -> alt.Opacity:
    """The encoding that records which values of ``field_type`` ("drafter:N") a layer draws, in
    ``order``; every mark keeps ``opacity``. Pair it with ``alt.Legend(values=DRAWN_VALUES)``.
    One per chart: every layer carrying it adds to the same domain."""
    return alt.Opacity(field_type, sort=list(order), scale=alt.Scale(range=[opacity, opacity]), legend=None)


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


def finish(chart: alt.TopLevelMixin, name: str, description: str, select: list[str] | None = None,
           may_be_empty: list[str] | None = None) -> dict:
    """Attach the screen-reader description and shared config; return the Vega-Lite dict.

    select: the state fields a click on a mark sets from its row (the page's charts.js reads
    them from usermeta); None for a chart that is only read. A chart whose legend lists only
    what is drawn (DRAWN_VALUES) and grows with its entries is marked ``relayout``: Vega learns
    the entries after it has laid the view out, so the page lays it out again when they change.
    may_be_empty: fields of a layer whose rows are legitimately none at some states; Vega warns
    of their empty extent, and the page keeps that one warning out of the console."""
    meta = {"chart": name, "description": description, **({"select": select} if select else {}),
            **({"may_be_empty": may_be_empty} if may_be_empty else {})}
    if _relayout(chart.to_dict(validate=False)):
        meta["relayout"] = True
    chart = chart.properties(description=description, usermeta=meta)
    # Axis and legend labels one pixel over Vega's 10 px, beside body text of 16 px and more; a
    # chart scaled down to a phone's column shrinks them further. A continuous axis drops a label
    # that would come closer to the next than LABEL_GAP_PX; a band axis (a label per bar or cell,
    # none of which may go) keeps Vega's 10 px, which leaves that gap at a phone's width.
    chart = (chart.configure(font=FONT).configure_title(anchor="start", subtitlePadding=4, fontSize=14)
             .configure_axis(labelFontSize=LABEL_FONT_PX, titleFontSize=LABEL_FONT_PX, labelSeparation=LABEL_GAP_PX)
             .configure_axisBand(labelFontSize=BAND_LABEL_FONT_PX)
             # Legends are out of the accessibility tree: Vega names each entry by its raw value
             # ("true, false", "draft_probability"), not the label drawn; the chart's description
             # and its data table say what each series is.
             .configure_legend(labelFontSize=LABEL_FONT_PX, titleFontSize=LABEL_FONT_PX, aria=False))
    spec = chart.to_dict()
    for unit in _units(spec):
        _describe_marks(unit)
    return spec


def _relayout(node) -> bool:
    """Whether a legend of only what is drawn changes its height with its entries: one entry a
    row, or a title that shows only with entries. (One row of entries across the top changes
    only its width, which the plot's size does not depend on: no second layout.)"""
    if isinstance(node, dict):
        values = node.get("values")
        if isinstance(values, dict) and values.get("expr") == DRAWN_VALUES.to_dict()["expr"]:
            return node.get("direction") != "horizontal" or "titleOpacity" in node
        return any(_relayout(v) for v in node.values())
    if isinstance(node, list):
        return any(_relayout(v) for v in node)
    return False


MARK_DESCRIPTION = "mark_description"


def _units(spec: dict):
    """Every single-mark view of a Vega-Lite spec (inside layers, concatenations, facets)."""
    if "mark" in spec:
        yield spec
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for part in spec.get(key, []):
            yield from _units(part)
    if isinstance(spec.get("spec"), dict):
        yield from _units(spec["spec"])


def _describe_marks(unit: dict) -> None:
    """What a screen reader says for each mark: its tooltip's lines ("speedup: 1.93×"), not
    Vega-Lite's default, which reads every encoded field by its raw key and unrounded value. A
    mark without a tooltip (a reference line, a label, a shading) is left out of the
    accessibility tree: the chart's own description and its data table carry its content."""
    encoding = unit.get("encoding", {})
    tooltip = encoding.get("tooltip")
    if not tooltip:
        mark = unit["mark"]
        unit["mark"] = {**({"type": mark} if isinstance(mark, str) else mark), "aria": False}
        return
    parts = []
    for entry in tooltip if isinstance(tooltip, list) else [tooltip]:
        value = f"datum[{_js(entry['field'])}]"
        if "format" in entry:
            value = f"format({value}, {_js(entry['format'])})"
        heading = entry.get("title")
        if not heading:
            # Vega-Lite shows the raw key for a missing title, a screen reader an empty one (": read off")
            raise ValueError(f"tooltip field {entry['field']!r} has no title")
        parts.append(f"{_js(str(heading) + ': ')} + (isValid(datum[{_js(entry['field'])}]) ? {value} : '—')")
    unit.setdefault("transform", []).append({"calculate": " + '; ' + ".join(parts), "as": MARK_DESCRIPTION})
    encoding["description"] = {"field": MARK_DESCRIPTION, "type": "nominal"}


def walk(dims, **row) -> dict:
    """A rows declaration block: for every point of ``dims`` (the others at the state), one row."""
    return {"walk": list(dims), "rows": [row]}


def axis(dim: str) -> dict:
    return {"axis": dim}


def field(name: str, **at) -> dict:
    """A field's value at the point, with the dims in ``at`` set to those values."""
    return {"field": name, "at": at} if at else {"field": name}


def current(*dims: str) -> dict:
    return {"current": list(dims)}


def literal(value) -> dict:
    return {"literal": value}


def label(dim: str) -> dict:
    return {"label": dim}


def field_label(dim: str, name: str) -> dict:
    """The page's name for field ``name``'s value, which is a value of ``dim`` (a drafter key)."""
    return {"field_label": [dim, name]}


def column(key: str, header: str, fmt: str | None = None) -> dict:
    """A column of the chart's data table: the row key, its header, the format of its cells."""
    return {"key": key, "header": header, "format": fmt}
