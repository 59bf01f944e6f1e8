"""Each chart's rows at a state, from its declaration (``charts/<name>.py`` ROWS).

The page's rows.js interprets the same declarations (the manifest carries them) against the data
files; here they are read against the SiteModel's stored values, so the default state's picture
and data table equal what the script draws. A declaration is a list of blocks; a block walks some
axes (every other dim at the state) and emits a row per template per point. A template maps each
row key to one of:

  {"axis": dim}       the value of ``dim`` at the point
  {"field": name}     a contract field's stored value at the point
  {"field": name, "at": {dim: value}}   the same with some dims set (a part of the breakdown)
  {"current": dims}   whether the point is the state along ``dims``
  {"literal": value}  a constant
  {"label": dim}      the page's name for the value of ``dim`` at the point (manifest labels)
  {"field_label": [dim, name]}   the page's name (labels of ``dim``) for field ``name``'s value
  {"meta": key}       a configuration value (manifest "configuration")
"""
from __future__ import annotations

import html
import itertools
from collections.abc import Mapping

from .charts import CHARTS
from .formats import format_cell


def rows(blocks: list, state: Mapping, site) -> list[dict]:
    """The rows ``blocks`` declare at ``state`` (every state axis), values as the files store them."""
    meta = configuration(site)
    out = []
    for block in blocks:
        walk = block["walk"]
        for values in itertools.product(*(site.axes[d] for d in walk)):
            point = dict(zip(walk, values))
            coords = {**state, **point}
            for template in block["rows"]:
                out.append({key: _resolve(spec, coords, point, state, site, meta) for key, spec in template.items()})
    return out


def _resolve(spec: Mapping, coords, point, state, site, meta):
    kind = next(k for k in spec if k != "at")  # "at" only qualifies "field"
    value = spec[kind]
    if kind == "axis":
        return coords[value]
    if kind == "field":
        return site.stored_value(value, {**coords, **spec.get("at", {})})
    if kind == "current":
        return all(point[d] == state[d] for d in value)
    if kind == "literal":
        return value
    if kind == "label":
        return site.labels[value][coords[value]]
    if kind == "field_label":
        dim, name = value
        return site.labels[dim].get(site.stored_value(name, coords), site.stored_value(name, coords))
    if kind == "meta":
        return meta[value]
    raise ValueError(f"unknown row value {spec!r}")


def configuration(site) -> dict:
    """What ``{"meta": …}`` values name (the manifest's "configuration")."""
    catalog, base = site.catalog, site.base
    return {"output_tokens": base.output_tokens, "engine": catalog.engines[base.engine].label}


def chart_datasets(name: str, state: Mapping, site, static_rows: Mapping[str, list] | None = None
                   ) -> dict[str, list[dict]]:
    """Every dataset of chart ``name`` at ``state``: {dataset: rows}. A chart whose rows the build
    writes from elsewhere (ROWS None) takes them from ``static_rows[name]``."""
    declared = CHARTS[name].ROWS
    if declared is None:
        if not static_rows or name not in static_rows:
            raise ValueError(f"chart {name!r} is static: give its rows")
        return {"table": static_rows[name]}
    return {dataset: rows(blocks, state, site) for dataset, blocks in declared.items()}


NO_VALUE = "–"  # a cell with no value: a measurement not taken there


def cell_text(value, fmt: str | None) -> str:
    """A data-table cell: the value in the column's format and unit (tables.js writes the same)."""
    if value is None:
        return NO_VALUE
    if fmt is None:
        return str(value)
    return format_cell(fmt, value)


def table_html(chart: str, rows_: list[dict], title: str) -> str:
    """The data table under a chart (the no-JS and screen-reader alternative): its columns, formatted,
    under a disclosure named after the chart's title (the figure's caption is right above it)."""
    columns = CHARTS[chart].COLUMNS
    # A row may give a cell an address (``<key>_url``: a measurement's source): the cell links to
    # it. Only in a table the script never rewrites (its cells are text), so no link is lost.
    static = CHARTS[chart].ROWS is None or not getattr(CHARTS[chart], "FOLLOWS_STATE", True)

    def cell(r: dict, c: dict) -> str:
        text = html.escape(cell_text(r[c["key"]], c["format"]))
        url = r.get(f"{c['key']}_url") if static else None
        return f'<a href="{html.escape(url)}">{text}</a>' if url else text

    head = "".join(f'<th scope="col">{html.escape(c["header"])}</th>' for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{cell(r, c)}</td>" for c in columns) + "</tr>" for r in rows_)
    return (f'<details class="spec-table" data-search-exclude><summary>Data table: {html.escape(title)}</summary>'
            f'<div class="md-typeset__scrollwrap"><table aria-label="{html.escape(title)}">'
            f'<thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div></details>")
