"""``model_version``: a hash of everything that determines the model's numbers."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

import specmodel
from specmodel import Catalog


def model_version(catalog: Catalog) -> str:
    """First 16 hex digits of SHA-256 over specmodel's source files and the catalog's entries.

    Every data file repeats it; the page refuses to mix files whose versions differ.
    """
    h = hashlib.sha256()
    root = Path(specmodel.__file__).parent
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    entries = {
        "gpus": {k: asdict(v) for k, v in catalog.gpus.items()},
        "targets": {k: asdict(v) for k, v in catalog.targets.items()},
        "drafters": {k: {"kind": d.kind, **asdict(d)} for k, d in catalog.drafters.items()},
        "engines": {k: asdict(v) for k, v in catalog.engines.items()},
    }
    h.update(json.dumps(entries, sort_keys=True).encode())
    return h.hexdigest()[:16]
