"""Named number formats for the prose. Each returns a ``Quoted`` string that remembers which model
value it shows, so the build can report quoted numbers that changed (old → new)."""
from __future__ import annotations

from .rounding import sig

GIB = 2**30
KIB = 2**10


class Quantity(float):
    """A model output on its way into the prose: a float that knows its name (``busy.speedup``)."""

    def __new__(cls, value: float, path: str):
        q = super().__new__(cls, value)
        q.path = path
        return q


class Quoted(str):
    """Formatted text of a Quantity; ``path`` is the value's name."""

    def __new__(cls, text: str, path: str | None):
        s = super().__new__(cls, text)
        s.path = path
        return s


def _quote(fmt, as_page_data: bool = True):
    """Wrap a formatter. ``as_page_data``: round to the data's 4 significant digits first, as the
    page's JSON is, so the prose and the page print the same text for the same value (15.55 GiB,
    not 15.56 here and 15.55 there). Plain numbers (``num``, ``int``) keep every digit."""

    def apply(value, *args):
        x = float(value)
        return Quoted(fmt(float(sig(x)) if as_page_data else x, *args), getattr(value, "path", None))

    apply.__doc__ = fmt.__doc__
    return apply


@_quote
def times(x: float) -> str:
    """Ratio with two decimals: 1.93×."""
    return f"{x:.2f}×"


@_quote
def times1(x: float) -> str:
    """Ratio with one decimal: 1.9×."""
    return f"{x:.1f}×"


@_quote
def pct(x: float) -> str:
    """Fraction as a whole percentage: 26%."""
    return f"{x * 100:.0f}%"


@_quote
def pct1(x: float) -> str:
    """Fraction as a percentage with one decimal: 25.7%."""
    return f"{x * 100:.1f}%"


@_quote
def gib(x: float) -> str:
    """Bytes as GiB (2^30) with two decimals."""
    return f"{x / GIB:.2f} GiB"


@_quote
def gb(x: float) -> str:
    """Bytes as decimal GB (10^9), no decimals: memory capacity is sold in GB."""
    return f"{x / 1e9:,.0f} GB"


@_quote
def kib(x: float) -> str:
    """Bytes as KiB (2^10), no decimals."""
    return f"{x / KIB:,.0f} KiB"


@_quote
def ms(x: float) -> str:
    """Seconds as milliseconds with two decimals."""
    return f"{x * 1e3:.2f} ms"


@_quote
def tps(x: float) -> str:
    """Tokens per second, whole, with thousands separators."""
    return f"{x:,.0f} tokens/s"


@_quote
def tflop(x: float) -> str:
    """FLOPs as TFLOP with two decimals."""
    return f"{x / 1e12:.2f} TFLOP"


@lambda f: _quote(f, as_page_data=False)
def num(x: float, digits: int = 2) -> str:
    """A plain number with ``digits`` decimals."""
    return f"{x:,.{digits}f}"


@lambda f: _quote(f, as_page_data=False)
def integer(x: float) -> str:
    """A whole number with thousands separators: 1,024."""
    return f"{round(x):,}"


@_quote
def sci(x: float) -> str:
    """Scientific notation, one significant digit: 1e-13."""
    return f"{x:.0e}".replace("e-0", "e-").replace("e+0", "e+")


FILTERS = {
    "times": times, "times1": times1, "pct": pct, "pct1": pct1, "gib": gib, "gb": gb, "kib": kib,
    "ms": ms, "tps": tps, "tflop": tflop, "num": num, "int": integer, "sci": sci,
}
# The page's JavaScript formats live numbers with the same names (docs/javascripts/format.js).
