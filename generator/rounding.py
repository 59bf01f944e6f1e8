"""Compact, deterministic JSON: numbers to 4 significant digits."""
from __future__ import annotations

import json

import numpy as np

SIGNIFICANT_DIGITS = 4


def sig(x: float) -> float | int:
    """``x`` rounded to 4 significant digits; integral results become ints (shorter JSON)."""
    v = float(f"{float(x):.{SIGNIFICANT_DIGITS}g}")
    return int(v) if v.is_integer() and abs(v) < 2**53 else v


def sig_list(a) -> list:
    """A flat list (row-major) of ``a``'s values, each through ``sig``."""
    return [sig(x) for x in np.asarray(a, dtype=float).ravel()]


def dumps(obj) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8: byte-identical for equal input."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
