"""The site's data files, laid out from the SiteModel by the contract.

Each file kind of ``contract.FILES`` is written once per combination of the dims that select it;
a file maps each of its tables to {field: flat row-major list of stored values}. The manifest
names the axes, the defaults, the labels, the contract itself, the number formats and the
charts' row declarations: everything the page needs to find and write a number.
"""
from __future__ import annotations

import itertools

import numpy as np

from .axes import state_keys
from .charts import CHARTS
from .contract import FIELDS, FILES, TABLES, manifest_contract, stored
from .formats import FORMATS
from .site_model import SiteModel

VERSION_PLACEHOLDER = "@@model_version@@"


def file_path(kind: str, coords: dict, axes: dict) -> str:
    """Path under data/ of the ``kind`` file holding ``coords`` (values of the file's dims)."""
    names = {}
    for dim in FILES[kind]["by"]:
        names[dim] = coords[dim]
        names[f"{dim}_index"] = axes[dim].index(coords[dim])
    return FILES[kind]["pattern"].format(**names)


def _flat(field: str, values: np.ndarray) -> list:
    return [stored(field, v) for v in np.ravel(np.asarray(values, dtype=object) if isinstance(values, str) else values)]


def data_files(site: SiteModel) -> dict[str, dict]:
    """Every data file, {path under data/: JSON-able document}; the manifest included."""
    files: dict[str, dict] = {}
    for kind, spec in FILES.items():
        tables = [name for name, table in TABLES.items() if table.file == kind]
        by = spec["by"]
        for combo in itertools.product(*(range(site.sizes[d]) for d in by)):
            coords = {d: site.axes[d][i] for d, i in zip(by, combo)}
            doc = {"model_version": VERSION_PLACEHOLDER}
            for table in tables:
                doc[table] = {field: _flat(field, site.arrays[field][combo])
                              for field, f in FIELDS.items() if f.table == table}
            files[file_path(kind, coords, site.axes)] = doc
    files["manifest.json"] = manifest(site)
    return files


def manifest(site: SiteModel) -> dict:
    catalog, base = site.catalog, site.base
    target, gpu = catalog.targets[base.target], catalog.gpus[base.gpu]
    return {
        "model_version": VERSION_PLACEHOLDER,
        "axes": site.axes,
        "state": state_keys(),
        "defaults": site.defaults,
        "labels": site.labels,
        "colours": {"drafter": {k: d.colour for k, d in catalog.drafters.items()}},
        "configuration": {"target": target.label, "gpu": gpu.label, "output_tokens": base.output_tokens,
                          "engine": catalog.engines[base.engine].label},
        "contract": manifest_contract(),
        "formats": FORMATS,
        # the charts whose rows follow the state: how to build them, and their tables' columns
        "charts": {name: {"rows": c.ROWS, "columns": c.COLUMNS} for name, c in CHARTS.items()
                   if c.ROWS and getattr(c, "FOLLOWS_STATE", True)},
    }
