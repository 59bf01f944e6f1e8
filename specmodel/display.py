"""How numbers are written for a reader, shared by the CLI (specmodel.metrics.report, ``catalog``)
and the site (generator/formats.py and generator/typography.py, which docs/javascripts follows):
one rule, so the two never print the same number two ways, nor break a line in two places."""
from __future__ import annotations

import re
import textwrap

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
    """``text`` cut to ``width`` characters for a column, after a whole word where one ends in the
    last third, with "…" where it was cut (found by cold reads: "draft model (chain) - time bre"
    read as a label; "time breakdo…" still cut a word)."""
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    space = cut.rstrip().rfind(" ")
    if space >= (2 * width) // 3:
        cut = cut[:space]
    return cut.rstrip(" -,;:(") + "…"


def datasheet_figure(x: float) -> str:
    """A datasheet's figure as the datasheet writes it, to six significant digits at most and
    without trailing zeros, with thousands separators: 989, 3.35, 0.864, 362.05, 1,307.4, 8.
    The catalog's GPU table on the model page and ``specmodel catalog`` both write them so (found
    by a cold read: the page wrote 0.86 TB/s and 4.80 TB/s, the CLI 0.864 and 4.8)."""
    return format(float(x), ",.6g")


def alpha_text(alpha: float) -> str:
    """An acceptance rate α as the page writes it: two decimals (0.70, its grid's step is 0.05),
    more only where the value has them (0.6755 from fit-metrics' fine grid). Found by a cold read:
    the CLI wrote "α = 0.7" where the page wrote "α = 0.70" for the same fit."""
    return f"{alpha:.2f}" if round(alpha, 2) == alpha else f"{alpha:.4g}"


# A symbol set equal to a number in running text ("γ = 4", "α = 0.75", "α ≈ 0.30", "B = 64"): a
# line never ends on "γ =" (found by cold reads, on the page at 375 px and in ``catalog``).
SYMBOL_VALUE = re.compile(r"(?<![\w`])([γαB]) ([=≈]) (?=[\d.])")
# Unit symbols a line must not separate from their number (a word such as "tokens" may wrap).
UNIT_SYMBOLS = ("GB", "GiB", "MB", "kB", "ms", "µs", "TB/s", "GB/s", "TFLOP", "TFLOP/s", "PFLOP/s", "W")
SPLIT_AMOUNT = re.compile(r"(\d) (" + "|".join(re.escape(u) for u in UNIT_SYMBOLS) + r")(?![\w/])")
_KEPT = "\u00a0"  # textwrap breaks only at ASCII whitespace


def wrap(text: str, width: int, initial_indent: str, subsequent_indent: str) -> str:
    """``text`` wrapped to ``width`` columns (``textwrap.fill``) as the page wraps its prose: never
    after a hyphen ("SpecDecode-Bench"), between a symbol, its "=" and its value, or between a number
    and its unit symbol ("5–10 µs"). Plain spaces in what it returns."""
    kept = SYMBOL_VALUE.sub(lambda m: f"{m.group(1)}{_KEPT}{m.group(2)}{_KEPT}", text.replace(_KEPT, " "))
    kept = SPLIT_AMOUNT.sub("\\1" + _KEPT + "\\2", kept)
    return textwrap.fill(kept, width=width, initial_indent=initial_indent, subsequent_indent=subsequent_indent,
                         break_on_hyphens=False).replace(_KEPT, " ")
