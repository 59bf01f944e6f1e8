"""Every chart's text at the grid's extreme states, on a laptop and a phone: nothing runs off the
chart, and no two labels overlap; what a screen reader says for each mark reads as the tooltip
does, never a raw key, a boolean or an unrounded float. (Found once by eye: a cut "25.6", "0.12×" over the "1024" tick,
"cut-off" cut to "c", a "1.44e+4" ms. This checks the kind.)"""
from __future__ import annotations

import re

import pytest

from .site_helpers import wait_rendered

pytestmark = pytest.mark.browser

EXTREMES = [
    "",
    "?batch=64",
    "?batch=1024&context=32768&gamma=10&alpha=0.05",
    "?alpha=0.95&acceptance=same",
    "?cost=whole-pass&batch=1024&context=512&drafter=ngram&gamma=10&alpha=0.95&acceptance=same",
    "?context=32768&drafter=qwen3-1.7b&gamma=1&alpha=0.05&workload=steady-state",
]

# Every <text> of every live chart: its box, its text, whether it belongs to a mark (a value label)
# and the box of its chart's SVG. Boxes in page pixels.
TEXTS = """() => [...document.querySelectorAll('.spec-chart.is-live')].map(chart => {
  const svg = chart.querySelector('.spec-chart__view svg');
  const frame = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() !== '').map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom,
            mark: !!t.closest('.role-mark'), group: (t.closest('[class*="role-"]') || {}).className?.baseVal || ''};
  }).filter(t => t.x1 - t.x0 > 0 && t.y1 - t.y0 > 0);
  return {name: chart.dataset.chart, frame: {x0: frame.left, y0: frame.top, x1: frame.right, y1: frame.bottom}, texts};
})"""

SLACK = 1.0  # px: sub-pixel rounding


def _overlap(a, b) -> float:
    w = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
    h = min(a["y1"], b["y1"]) - max(a["y0"], b["y0"])
    return w * h if w > SLACK and h > SLACK else 0.0


def _problems(charts) -> list[str]:
    found = []
    for chart in charts:
        f = chart["frame"]
        for t in chart["texts"]:
            if t["x0"] < f["x0"] - SLACK or t["x1"] > f["x1"] + SLACK or t["y0"] < f["y0"] - SLACK or t["y1"] > f["y1"] + SLACK:
                found.append(f"{chart['name']}: {t['text']!r} runs off the chart")
            if re.search(r"\de[+-]?\d", t["text"]):
                found.append(f"{chart['name']}: {t['text']!r} is in exponent notation")
        texts = chart["texts"]
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                # value labels against everything; other text against other text only across groups
                if not (a["mark"] or b["mark"]):
                    continue
                if _overlap(a, b):
                    found.append(f"{chart['name']}: {a['text']!r} overlaps {b['text']!r}")
    return found


@pytest.mark.parametrize("width", [1280, 375])
def test_no_chart_text_runs_off_or_overlaps_at_extreme_states(new_context, width):
    context = new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = []
    for query in EXTREMES:
        page.goto("/" + query)
        wait_rendered(page, query)
        page.wait_for_function("() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        problems += [f"{query or '(defaults)'} at {width}px: {p}" for p in _problems(page.evaluate(TEXTS))]
        if width == 1280:
            problems += [f"{query or '(defaults)'}: {p}" for p in _unreadable(page.evaluate(MARK_LABELS))]
    assert problems == [], "\n".join(sorted(set(problems)))


# What a screen reader says for each mark of each live chart: [chart, aria-label].
MARK_LABELS = """() => [...document.querySelectorAll('.spec-chart.is-live')].flatMap(chart =>
  [...chart.querySelectorAll('.spec-chart__view svg .role-mark [aria-label]')].map(m => [chart.dataset.chart, m.getAttribute('aria-label')]))"""
RAW_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a field's key (other_shown, task_label), not a word
BOOLEAN = re.compile(r"\b(true|false)\b")
DECIMAL = re.compile(r"\d+\.\d+")


def _unrounded(number: str) -> bool:
    """More digits than any of the page's formats writes: over 4 significant digits, or over 3
    decimals for a number of 0.1 or more ("0.9069" is; "15.55" and "0.000978" are not)."""
    significant = number.replace(".", "").lstrip("0")
    return len(significant) > 4 or (float(number) >= 0.1 and len(number.split(".")[1]) > 3)


def _unreadable(labels):
    """Mark labels that read raw keys, unrounded floats or booleans (Vega-Lite's default labels do)."""
    found = []
    for chart, label in labels:
        if RAW_KEY.search(label) or BOOLEAN.search(label) or any(map(_unrounded, DECIMAL.findall(label))):
            found.append(f"{chart}: mark label {label[:90]!r}")
    return found
