"""How numbers are written on the page, declared once as data.

``FORMATS`` maps a format name to a spec: scale (multiply first) or divide, decimals, suffix, group
(thousands separators; every format whose numbers can pass 999 has them), round ("up": to the
next value the decimals can write, never down). An exact zero of an amount (a unit word after the
number) is written "0" and the unit. The build writes the same table into the manifest, and the page's format.js
interprets it: the prose (Python), the build-time readouts and the script all write the same text
for the same value. Rounding is half to even on the exact binary value (Python's ``format``;
format.js reproduces it).
"""
from __future__ import annotations

import math

from specmodel.display import BESIDE_ONE_EXTRA, decimals_beside_one

# Between a number and its unit: a no-break space, so that no line ends on "16.70" and begins the
# next with "GB" (found by a cold read at 375 px); the page's format.js writes what the table says.
UNIT_SPACE = "\u00a0"

# A speedup is compared with 1 by whoever reads it ("beside_one": how many more decimals at most
# where it rounds to 1 but is not 1; specmodel.display, which the CLI writes speedups with too).
FORMATS: dict[str, dict] = {
    "times": {"decimals": 2, "suffix": "×", "beside_one": BESIDE_ONE_EXTRA},
    "times1": {"decimals": 1, "suffix": "×", "beside_one": BESIDE_ONE_EXTRA},
    "pct": {"scale": 100, "decimals": 0, "suffix": "%"},
    "pct1": {"scale": 100, "decimals": 1, "suffix": "%"},
    # Sizes in decimal units, as GPU datasheets give memory (80 GB): a state's weights, KV caches
    # and the memory they need add up in one unit, against the GPUs' memory in the same unit.
    "gb2": {"divide": 1e9, "decimals": 2, "suffix": UNIT_SPACE + "GB", "group": True},
    "gb": {"divide": 1e9, "decimals": 0, "suffix": UNIT_SPACE + "GB", "group": True},
    # memory a state needs, to a tenth of a GB and rounded up (as the CLI writes it): a state
    # that needs 192.3 GB of four L40S' 192 GB never reads "192 GB of 192 GB: does not fit"
    "gb_needed": {"divide": 1e9, "decimals": 1, "round": "up", "suffix": UNIT_SPACE + "GB", "group": True},
    "kb": {"divide": 1e3, "decimals": 1, "suffix": UNIT_SPACE + "kB", "group": True},  # as the CLI writes it (147.5 kB)
    # below 1 ms, microseconds to three significant figures: "9.12 µs", never "0.01 ms" for a
    # step an n-gram drafter takes (the charts write durations the same way)
    "ms": {"scale": 1e3, "decimals": 2, "suffix": UNIT_SPACE + "ms", "group": True,
           # up to 999.5 µs: 0.99996 ms would round to "1000 µs", and is "1.00 ms"
           "below_one": {"scale": 1e3, "suffix": UNIT_SPACE + "µs", "significant": 3, "below": 999.5}},
    "tps": {"decimals": 0, "suffix": UNIT_SPACE + "tokens/s", "group": True},
    # below 1 TFLOP, GFLOP to three significant figures: "32.8 GFLOP", never "0.03 TFLOP" beside
    # the command line's 0.0328 (found by a cold read)
    "tflop": {"divide": 1e12, "decimals": 2, "suffix": UNIT_SPACE + "TFLOP", "group": True,
              "below_one": {"scale": 1e3, "suffix": UNIT_SPACE + "GFLOP", "significant": 3, "below": 999.5}},
    "tflops": {"divide": 1e12, "decimals": 1, "suffix": UNIT_SPACE + "TFLOP/s", "group": True},
    "num": {"decimals": 2, "group": True},
    "num1": {"decimals": 1, "group": True},
    "num3": {"decimals": 3, "group": True},
    "int": {"decimals": 0, "group": True},
    # a list of per-position rates, as vLLM's engine log prints them
    "positions": {"decimals": 3, "join": ", "},
    # the memory verdict, and a plain yes or no
    "fits": {"true": "fits", "false": "does not fit"},
    "yes": {"true": "yes", "false": "no"},
    # a speedup in words, beside its number: compared with 1 as "times" writes it, more decimals
    # beside 1 included (1.004 is "1.004×" and "faster"; only 1 itself is "no faster")
    "verdict": {"decimals": 2, "beside_one": BESIDE_ONE_EXTRA, "compare": 1, "above": "faster", "equal": "no faster", "below": "slower"},
}


def format_value(name: str, value) -> str:
    """``value`` written in format ``name`` (KeyError for an unknown name)."""
    spec = FORMATS[name]
    if "true" in spec:
        return spec["true"] if value else spec["false"]
    if "join" in spec:
        return spec["join"].join(_number(spec, v) for v in value)
    if "compare" in spec:
        return _compared(spec, value)
    return _number(spec, value)


def beside_one_decimals(spec: dict, x: float) -> int:
    """The decimals format ``spec`` writes ``x`` (already scaled) with: its own, or with
    "beside_one" as many more as it takes for an x that is not 1 not to read as 1 (0.998 is
    "0.998×", not "1.00×"; specmodel.display). format.js's besideOneDecimals agrees."""
    return decimals_beside_one(x, spec["decimals"], spec.get("beside_one", 0))


def format_cell(name: str, value) -> str:
    """``value`` in a data table's column of format ``name``: a column has one unit, so a format
    that writes small values in a smaller unit ("9.12 µs" beside "16.76 ms" in the prose) keeps
    the column's here, with the smaller unit's significant figures ("0.00912 ms"), and a value too
    small for its decimals reads as such ("< 0.01 ms"), not as none at all. format.js's formatCell
    agrees."""
    spec = FORMATS[name]
    if not _writes_one_number(spec) or value is None:
        return format_value(name, value)
    column = {k: v for k, v in spec.items() if k != "below_one"}
    x = float(value) * spec.get("scale", 1) / spec.get("divide", 1)
    if "below_one" not in spec:
        # (found by a cold read: a per-position acceptance of 0.00019 written "0.000" in a table)
        return _too_small(spec, x) or format_value(name, value)
    small = small_decimals(spec, x)
    if small:
        # the smaller unit's significant figures in the column's unit: "0.00912 ms" where the chart
        # beside it reads "9.12 µs" (found by a cold read: "0.01 ms", one figure of three)
        _, decimals, _ = small
        return f"{x:.{decimals + round(math.log10(spec['below_one']['scale']))}f}{spec.get('suffix', '')}"
    return _too_small(spec, x) or _number(column, value)


def _writes_one_number(spec: dict) -> bool:
    return "decimals" in spec and "join" not in spec and "compare" not in spec


def _too_small(spec: dict, x: float) -> str | None:
    """"< 0.001" (with the format's unit) for a value, already scaled, that is not 0 but its
    decimals would write as 0; None otherwise (a format that rounds up never writes 0)."""
    if x == 0 or not math.isfinite(x) or spec.get("round") == "up" or float(f"{abs(x):.{spec['decimals']}f}") != 0:
        return None
    least = f"{10.0 ** -spec['decimals']:.{spec['decimals']}f}"
    return f"{'< ' if x > 0 else '> -'}{least}{spec.get('suffix', '')}"


def _compared(spec: dict, value) -> str:
    # the value as "times" writes it, more decimals beside 1 included
    value = float(value)
    shown = float(f"{value:.{beside_one_decimals(spec, value)}f}")
    if shown > spec["compare"]:
        return spec["above"]
    return spec["equal"] if shown == spec["compare"] else spec["below"]


def zero_is_nothing(spec: dict) -> bool:
    """Whether format ``spec`` writes an exact zero as "0" and its unit: an amount of something
    (a unit after a space: "GB", "ms"), where zero is none at all. A share or a plain number keeps its
    decimals ("0.0" beside "0.4" in one column, not "0"). format.js's zeroIsNothing agrees."""
    return spec.get("suffix", "").startswith(UNIT_SPACE)


def small_decimals(spec: dict, x: float) -> tuple[float, int, str] | None:
    """Where format ``spec`` writes ``x`` (already scaled) in its smaller unit ("below_one": |x|
    under 1, up to "below" in the smaller unit): (the value in that unit, its decimals for the
    unit's significant figures, suffix).
    None where it writes x as it is. format.js's smallUnit does the same."""
    small = spec.get("below_one")
    if not small or x == 0 or abs(x) * small["scale"] >= small["below"]:
        return None
    decimals = max(0, small["significant"] - 1 - math.floor(math.log10(abs(x * small["scale"]))))
    # rounded once, in the format's own unit as a data table's column writes it ("0.182 ms"), then
    # moved to the smaller unit: "182 µs" beside it, never "183 µs" from x·1,000 rounded apart
    # (found by a cold read at a value whose next digit was a 5)
    shift = round(math.log10(small["scale"]))
    return float(f"{x:.{decimals + shift}f}") * small["scale"], decimals, small["suffix"]


def _number(spec: dict, value) -> str:
    # (+ 0.0: a negative zero is written as zero, never "-0.00")
    x = float(value) * spec.get("scale", 1) / spec.get("divide", 1) + 0.0
    if x == 0 and zero_is_nothing(spec):
        # nothing at all (an n-gram drafter's weights): "0 GB", not a measured-looking "0.00 GB"
        return "0" + spec.get("suffix", "")
    small = small_decimals(spec, x)
    if small:
        y, decimals, suffix = small
        return f"{y:.{decimals}f}{suffix}"
    if spec.get("round") == "up":
        # divide by the unit's step, not multiply afterwards: 192.1e9 / 1e8 is exactly 1921.0,
        # while 192.1e9 / 1e9 * 10 may land a hair above it and round up a step too many
        step = 10 ** spec["decimals"]
        x = math.ceil(float(value) * spec.get("scale", 1) / (spec.get("divide", 1) / step)) / step
    text = f"{x:{',' if spec.get('group') else ''}.{beside_one_decimals(spec, x)}f}"
    return text + spec.get("suffix", "")
