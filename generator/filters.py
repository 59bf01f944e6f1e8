"""Named number formats for the prose: the formats of ``formats.FORMATS`` as Jinja2 filters.

Each returns a ``Quoted`` string that remembers which model value it shows, so the build can
report quoted numbers that changed (old → new). The value is formatted unrounded: the page's
data keep enough digits that the script writes the same text (``contract.stored``).
"""
from __future__ import annotations

import math
import numbers
import re

from specmodel.display import datasheet_figure

from .formats import FORMATS, format_value
from .typography import nobreak


class Quantity(float):
    """A model output on its way into the prose: a float that knows its name (``busy.speedup``)."""

    def __new__(cls, value: float, path: str):
        q = super().__new__(cls, value)
        q.path = path
        return q


class Quoted(str):
    """Formatted text of ``value``: ``path`` is the value's name (None where it is no model output,
    a Quantity) and ``value`` the number written (None for a list)."""

    def __new__(cls, text: str, value):
        s = super().__new__(cls, text)
        s.path = getattr(value, "path", None)
        s.value = float(value) if isinstance(value, numbers.Real) else None
        return s


def _filter(name: str):
    def apply(value):
        return Quoted(format_value(name, value), value)

    apply.__name__ = name
    return apply


def num(value, digits: int = 2) -> Quoted:
    """A plain number with ``digits`` decimals and thousands separators; a negative ``digits``
    rounds to tens (-1), hundreds (-2): an uncertainty of 144 is 140 (error_decimals)."""
    digits = int(digits)
    if digits < 0:
        return Quoted(f"{round(float(value), digits):,.0f}", value)
    return Quoted(f"{float(value):,.{digits}f}", value)


def published(value, digits: int) -> Quoted:
    """``value`` to the ``digits`` decimals of a published figure it stands beside (the table of
    the seed essay's figures): a comparison at the published precision, so the build's check that
    a page writes each value to one precision (tests/test_essay_numbers.py) leaves it out."""
    q = num(value, digits)
    q.published = True
    return q


def figure(value) -> Quoted:
    """A datasheet figure as the datasheet writes it (specmodel.display.datasheet_figure)."""
    return Quoted(datasheet_figure(value), value)


def integer(value) -> Quoted:
    """A whole number with thousands separators: 1,024."""
    return Quoted(f"{round(float(value)):,}", value)


def significant(value, figures: int = 4) -> Quoted:
    """``value`` to ``figures`` significant figures, trailing zeros dropped, as the command line
    writes a typical α (specmodel/catalog_text.py: 0.5254, 0.75)."""
    return Quoted(f"{float(value):.{int(figures)}g}", value)


def sci(value) -> Quoted:
    """Scientific notation, one significant digit: 1e-13."""
    text = f"{float(value):.0e}".replace("e-0", "e-").replace("e+0", "e+")
    return Quoted(text, value)


def error_decimals(error) -> int:
    """The decimals that write an uncertainty to two significant figures, and its value to the
    same place: 91.4 → 0 (1,081 ± 91), 3.8 → 1 (61.2 ± 3.8), 0.013 → 3 (0.733 ± 0.013), and
    negative past 99: 144 → -1 (940 ± 140, for ``num``).
    The usual convention (e.g. the Particle Data Group's): more digits than the error allows say
    nothing. Raises ValueError for an error that is not a positive finite number."""
    error = float(error)
    if not (math.isfinite(error) and error > 0):
        raise ValueError(f"error_decimals: the error must be a positive finite number, got {error!r}")
    return 1 - math.floor(math.log10(error))


_VLLM_REF = re.compile(r"vLLM (issue|pull request) #(\d+)")


def link_vllm(text) -> str:
    """``text`` with "vLLM issue #N" and "vLLM pull request #N" as Markdown links to GitHub (found by
    a cold read: "vLLM issue #20780" the one source of its table without a link)."""
    kind = {"issue": "issues", "pull request": "pull"}
    return _VLLM_REF.sub(lambda m: f"[{m.group(0)}](https://github.com/vllm-project/vllm/{kind[m.group(1)]}/{m.group(2)})",
                         str(text))


FILTERS = {**{name: _filter(name) for name in FORMATS}, "num": num, "published": published, "int": integer, "sci": sci,
           "significant": significant,
           "error_decimals": error_decimals, "nobreak": nobreak, "figure": figure,
           "link_vllm": link_vllm}
