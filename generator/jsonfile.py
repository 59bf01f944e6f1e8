"""Compact, deterministic JSON."""
from __future__ import annotations

import json


def dumps(obj) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8: byte-identical for equal input."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
