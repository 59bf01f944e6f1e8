"""Typography of the rendered prose: what a line of text must not separate.

A reader at 375 px saw "γ =" end one line and "17" begin the next (cold read 18). The number
filters already write a no-break space before a unit (formats.UNIT_SPACE); this joins a symbol,
its "=" and its value ("γ = 4", "α = 0.75") the same way, in the prose only: code blocks and
inline code keep the text a reader copies. A short name with a hyphen ("Qwen3-0.6B", "EAGLE-3",
"n-gram") and a short piece of inline code with a space or a hyphen in it (`ĉ = 0`, `--context`) are each kept on one line
by a span (cold read 20: "Llama-3.1-8B-" ending a line, "Instruct" beginning the next), the text
unchanged. ``nobreak`` (a template filter) does the same for the amounts inside names and sources
("A100 SXM 80 GB").
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
# What is not running text, kept as it is: inline code, a menu or a text box (whose options hold
# text only), an HTML tag (its attributes), a link's destination, an attribute list ({.explore}),
# an address.
_ASIDE = re.compile(r"(`+)(?:(?!\1).)+?\1|<(select|textarea)\b.*?</\2>|<[^<>]*>|\]\([^()]*\)|\{[^{}]*\}"
                    r"|https?://\S+")
# A hyphenated name: kept whole if it has a digit (a model, a version) or is one of the field's
# names without one, and is short (a longer one may be wider than a phone's line).
_HYPHENATED = re.compile(r"(?<![\w./-])[A-Za-z0-9][\w.]*(?:-[\w.]*[A-Za-z0-9])+(?![\w/-])")
NAMES_WITHOUT_DIGITS = ("n-gram", "TensorRT-LLM")
NAME_CHARS = 24  # as views/names.js
SHORT_CODE_CHARS = 16
_NOWRAP = '<span class="spec-nowrap">{}</span>'


def keep_together(markdown: str) -> str:
    """``markdown`` with a no-break space on both sides of the "=" in "γ = 4", "α = 0.75" and
    "B = 64", and short hyphenated names and short inline code with a space or a hyphen kept on one line,
    outside the front matter, fenced code, <pre> blocks, headings, HTML tags, link destinations and
    addresses."""
    out = []
    fenced = pre = False
    lines = markdown.split("\n")
    # the YAML front matter is the page's metadata (its description is a <meta> attribute)
    front = lines.index("---", 1) + 1 if lines and lines[0] == "---" and "---" in lines[1:] else 0
    out, lines = lines[:front], lines[front:]
    for line in lines:
        # a Markdown table's row: views/wide-tables.js keeps the names in its short cells whole
        # where the table fits, else shows it as cards; kept whole here, the names of a table of
        # many columns made it too wide for a laptop (the model page's measurements)
        table = line.startswith("|")
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if "<pre" in line:
            pre = True
        if fenced or pre or line.startswith("#"):
            out.append(line)
        else:
            parts, last = [], 0
            for m in _ASIDE.finditer(line):
                parts.append(_join(line[last:m.start()], names=not table))
                aside = m.group(0)
                code = aside.strip("`") if aside.startswith("`") else None
                # (and a short option or name with a hyphen: `--context` broke after its first "-"
                # on a phone, found by a cold read)
                short_code = code is not None and (
                    (" " in code and len(code) <= SHORT_CODE_CHARS)
                    or ("-" in code and len(code) <= NAME_CHARS and not table))  # (a table's cells: as names)
                parts.append(_NOWRAP.format(aside) if short_code else aside)
                last = m.end()
            parts.append(_join(line[last:], names=not table))
            out.append("".join(parts))
        if "</pre>" in line:
            pre = False
    return "\n".join(out)


def without_nowrap(markdown: str) -> str:
    """``markdown`` without the spans keep_together adds: its words as written."""
    return _NOWRAP_SPAN.sub(r"\1", markdown)


_NOWRAP_SPAN = re.compile(r'<span class="spec-nowrap">(.*?)</span>')


def _keep_name(m: re.Match) -> str:
    name = m.group(0)
    if len(name) <= NAME_CHARS and (any(c.isdigit() for c in name) or name in NAMES_WITHOUT_DIGITS):
        return _NOWRAP.format(name)
    return name


# A GPU's name and a count of GPUs are one item each: "H100 SXM", "2 GPUs" (cold read 21: "H100" ending
# a line, "SXM" beginning the next).
GPU_PHRASE = re.compile(r"\b([A-Z]+\d+[A-Z]*) (SXM|PCIe|NVL)\b|\b(\d+) (GPUs?|H100s|H200s)\b")


def _join(text: str, names: bool = True) -> str:
    text = SYMBOL_VALUE.sub(lambda m: f"{m.group(1)}{UNIT_SPACE}{m.group(2)}{UNIT_SPACE}", text)
    text = GPU_PHRASE.sub(lambda m: UNIT_SPACE.join(g for g in m.groups() if g), text)
    return _HYPHENATED.sub(_keep_name, text) if names else text
