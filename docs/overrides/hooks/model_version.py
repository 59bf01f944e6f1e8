"""MkDocs hook: the model version of the data beside the pages (docs/data/manifest.json).

main.html writes it into every page, so the page's script can tell data of another build from
its own: the prose, pictures and tables of a page are of the build that wrote the page.
"""
from __future__ import annotations

import json
from pathlib import Path

from mkdocs.exceptions import PluginError


def on_config(config):
    manifest = Path(config["docs_dir"]) / "data" / "manifest.json"
    try:
        version = json.loads(manifest.read_text(encoding="utf-8"))["model_version"]
    except (OSError, ValueError, KeyError) as error:
        raise PluginError(f"{manifest}: no model_version ({error}); run `python -m generator build` first") from error
    config["extra"]["model_version"] = version
    return config
