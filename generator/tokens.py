"""The sample token row as the build writes it (the page's tokens.js writes the same DOM from the
same kinds and sentences in the manifest)."""
from __future__ import annotations

import html

from markupsafe import Markup

from .contract import TOKEN_KINDS, token_sentence


def token_row_html(passes: list[str]) -> Markup:
    """The row's <li> items: one per pass, a sentence for screen readers, a cell per token."""
    items = []
    for number, kinds in enumerate(passes, start=1):
        cells = "".join(f'<span class="spec-token spec-token--{TOKEN_KINDS[k]["kind"]}" aria-hidden="true">'
                        f'{TOKEN_KINDS[k]["symbol"]}</span>' for k in kinds)
        items.append(f'<li class="spec-tokens__iteration"><span class="spec-visually-hidden">'
                     f'{html.escape(token_sentence(number, kinds))}</span>{cells}</li>')
    return Markup("".join(items))


def token_legend_html() -> Markup:
    """The row's legend: each kind's symbol and words."""
    return Markup("".join(
        f'<li><span class="spec-token spec-token--{k["kind"]}" aria-hidden="true">{k["symbol"]}</span> '
        f'{html.escape(k["legend"])}</li>' for k in TOKEN_KINDS.values()))
