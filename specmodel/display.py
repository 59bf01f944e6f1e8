"""How a speedup is written for a reader, shared by the CLI (specmodel.metrics.report) and the
site (generator/formats.py, which docs/javascripts/core/format.js follows): one rule, so the
two never print the same number two ways."""
from __future__ import annotations

# A speedup is read against 1: one that rounds to 1 but is not 1 gets up to this many more
# decimals (0.998×, 1.002×), never a "1.00×" that hides a loss or a gain. Past them the
# difference from 1 is float noise.
BESIDE_ONE_EXTRA = 4


def decimals_beside_one(x: float, decimals: int, extra: int = BESIDE_ONE_EXTRA) -> int:
    """The decimals to write ``x`` with: ``decimals``, or up to ``extra`` more where ``x`` is
    not 1 but would read as 1 (0.998 → 3 for ``decimals`` 2; 0.9999999 → 2: float noise)."""
    if x == 1 or float(f"{x:.{decimals}f}") != 1:
        return decimals
    for more in range(decimals + 1, decimals + extra + 1):
        if float(f"{x:.{more}f}") != 1:
            return more
    return decimals


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters for a column, with "…" where it was cut (found by a cold
    read: "draft model (chain) - time bre" read as a label)."""
    return text if len(text) <= width else text[: width - 1] + "…"
