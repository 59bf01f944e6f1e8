"""The site's data files, laid out from the SiteModel by the contract.

Each file kind of ``contract.FILES`` is written once per combination of the dims that select it;
a file maps each of its tables to {field: flat row-major list of stored values}. The manifest
names the axes, the defaults, the labels, the contract itself, the number formats and the
charts' row declarations: everything the page needs to find and write a number.
"""
from __future__ import annotations

import itertools

import numpy as np

from specmodel import default_catalog
from specmodel.calibration.validate import step_time_errors
from specmodel.metrics.named import deployment_names

from .axes import configurations, manifest_axes, state_keys
from .jsonfile import dumps
from .charts import CHARTS
from .cli_command import cli_spec
from .acceptance_table import acceptance_table
from .contract import FIELDS, FILES, TABLES, manifest_contract, stored_many
from .formats import FORMATS
from .evidence import validation_rows
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
    return stored_many(field, values)


def config_files(site: SiteModel) -> dict[str, dict]:
    """The data files of the site's configuration, {path under data/: JSON-able document}."""
    files: dict[str, dict] = {}
    paths_axes = _paths_axes(site.catalog, site.axes)
    for kind, spec in FILES.items():
        tables = [name for name, table in TABLES.items() if table.file == kind]
        by = spec["by"]
        for combo in itertools.product(*(range(site.sizes[d]) for d in by)):
            coords = {d: site.axes[d][i] for d, i in zip(by, combo)}
            doc = {"model_version": VERSION_PLACEHOLDER}
            for table in tables:
                doc[table] = {field: _flat(field, site.arrays[field][combo])
                              for field, f in FIELDS.items() if f.table == table}
            files[file_path(kind, coords, paths_axes)] = doc
    return files


def _paths_axes(catalog, config_axes: dict) -> dict:
    # file paths index numeric axes (α) by the manifest's positions, which the page knows
    return {**config_axes, **{k: v for k, v in manifest_axes(catalog).items() if k in ("alpha",)}}


def config_files_for(key: tuple, catalog=None) -> dict[str, bytes]:
    """One configuration's files as bytes. In a worker process (no catalog given) the built-in
    catalog is loaded there."""
    catalog = catalog or default_catalog()
    config = next(c for c in configurations(catalog) if c.key == key)
    return {f"data/{path}": dumps(doc) for path, doc in config_files(SiteModel(catalog, config)).items()}


def data_files(site: SiteModel, workers: int = 1, every_configuration: bool = True) -> dict[str, bytes]:
    """Every data file as bytes, {path relative to docs/: bytes}: the default configuration's (from
    ``site``), every other configuration's (unless ``every_configuration`` is False: a quick build
    for checks that concern one configuration; in ``workers`` processes when the catalog is the
    built-in one), and the manifest."""
    out = {f"data/{path}": dumps(doc) for path, doc in config_files(site).items()}
    others = [c.key for c in configurations(site.catalog) if c.key != site.config.key] if every_configuration else []
    if workers > 1 and others and site.catalog is default_catalog():
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for files in pool.imap_unordered(config_files_for, others):
                out.update(files)
    else:
        for key in others:
            out.update(config_files_for(key, site.catalog))
    out["data/manifest.json"] = dumps(manifest(site))
    return out


def manifest(site: SiteModel) -> dict:
    catalog, base = site.catalog, site.base
    return {
        "model_version": VERSION_PLACEHOLDER,
        "axes": manifest_axes(catalog),
        "state": state_keys(),
        "defaults": site.defaults,
        "labels": site.labels,
        "colours": {"drafter": {k: d.colour for k, d in catalog.drafters.items()}},
        "configuration": {"output_tokens": base.output_tokens, "engine": catalog.engines[base.engine].label},
        # each configuration the site offers, the state values its data hold, and its GPUs as the
        # command line names them ("2 × H200 SXM": hardware.GPU.group's label)
        "configurations": [{"gpu": c.gpu, "target": c.target, "tp": c.tp, "axes": c.restricted(),
                            "gpus": catalog.gpu_group(c.gpu, c.tp).label}
                           for c in configurations(catalog)],
        "contract": manifest_contract(),
        "formats": FORMATS,
        # the command line that prints a state (generator/cli_command.py)
        "cli": cli_spec(),
        # the paste box's fit (generator/acceptance_table.py)
        "acceptance_table": acceptance_table(),
        # the names by which a pasted text names a target or drafter the site has (fit-metrics' map)
        "deployment_names": deployment_names(catalog),
        # each cost model's median error on the measured step times: the paste box's answer says
        # where a gain is smaller (specmodel.calibration.validate.step_time_errors, as fit-metrics)
        "step_time_error": step_time_errors(validation_rows(catalog)),
        # the charts whose rows follow the state: how to build them, and their tables' columns
        # and the state fields a click on a mark, or on its table row's first cell, sets ("select")
        "charts": {name: {"rows": c.ROWS, "columns": c.COLUMNS, "select": getattr(c, "SELECT", None)}
                   for name, c in CHARTS.items()
                   if c.ROWS and getattr(c, "FOLLOWS_STATE", True)},
    }
