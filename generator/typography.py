"""Typography of the rendered prose: what a line of text must not separate.

A reader at 375 px saw "γ =" end one line and "17" begin the next (cold read 18). The number
filters already write a no-break space before a unit (formats.UNIT_SPACE); this joins a symbol,
its "=" and its value ("γ = 4", "α = 0.75") the same way, in the prose only: code blocks and
inline code keep the text a reader copies. ``nobreak`` (a template filter) does the same for the
amounts inside names and sources ("A100 SXM 80 GB").
"""
from __future__ import annotations

import re

# what a line must not separate, the CLI's rule too (specmodel.display.wrap): a symbol, its "=" and
# its value (E[L] = 2.61 stays as it is), a number and its unit symbol
from specmodel.display import SPLIT_AMOUNT, SYMBOL_VALUE

from .formats import UNIT_SPACE


def nobreak(text) -> str:
    """``text`` (a name such as "A100 SXM 80 GB") with a no-break space between each number and its
    unit symbol, as the number filters write amounts: the prose never ends a line on "80"."""
    return SPLIT_AMOUNT.sub("\\1" + UNIT_SPACE + "\\2", str(text))


_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def keep_together(markdown: str) -> str:
    """``markdown`` with a no-break space on both sides of the "=" in "γ = 4", "α = 0.75" and
    "B = 64", outside fenced code, <pre> blocks and inline code."""
    out = []
    fenced = pre = False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if "<pre" in line:
            pre = True
        if fenced or pre:
            out.append(line)
        else:
            # the code spans kept aside, the rest joined
            parts, last = [], 0
            for m in _CODE_SPAN.finditer(line):
                parts.append(_join(line[last:m.start()]))
                parts.append(m.group(0))
                last = m.end()
            parts.append(_join(line[last:]))
            out.append("".join(parts))
        if "</pre>" in line:
            pre = False
    return "\n".join(out)


def _join(text: str) -> str:
    return SYMBOL_VALUE.sub(lambda m: f"{m.group(1)}{UNIT_SPACE}{m.group(2)}{UNIT_SPACE}", text)
