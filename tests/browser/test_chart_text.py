"""Every chart's text at the grid's extreme states, on a laptop and a phone: nothing runs off the
chart, and no two labels overlap; a legend lists only what is drawn; what a screen reader says
for each mark reads as the tooltip does, never a raw key, a boolean or an unrounded float.
(Found once by eye: a cut "25.6", "0.12×" over the "1024" tick, "cut-off" cut to "c", a
"1.44e+4" ms, a legend of four drafters where one was drawn. This checks the kind.)"""
from __future__ import annotations

import re

import pytest

from .conftest import PageLog
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
  // (a label Vega hides to resolve an overlap stays in the SVG at opacity 0)
  const shown = (t) => { for (let e = t; e && e !== svg; e = e.parentElement) if (getComputedStyle(e).opacity === '0') return false; return true; };
  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() !== '' && shown(t)).map(t => {
    const r = t.getBoundingClientRect();
    // an axis title's axis line, to measure it against
    const line = t.closest('.role-axis-title') && t.closest('.role-axis')?.querySelector('.role-axis-domain line, .role-axis-domain path');
    const d = line ? line.getBoundingClientRect() : null;
    return {text: t.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom,
            mark: !!t.closest('.role-mark'), group: (t.closest('[class*="role-"]') || {}).className?.baseVal || '',
            axis: d && {x0: d.left, y0: d.top, x1: d.right, y1: d.bottom}};
  }).filter(t => t.x1 - t.x0 > 0 && t.y1 - t.y0 > 0);
  // a view scaled down to a column narrower than it is drawn (spec.css): its type with it
  const scale = frame.width / Number(svg.getAttribute('width'));
  return {name: chart.dataset.chart, frame: {x0: frame.left, y0: frame.top, x1: frame.right, y1: frame.bottom}, texts, scale};
})"""

SLACK = 1.0  # px: sub-pixel rounding
LABEL_GAP = 3.0  # px: less between two labels of an axis and they read as one


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
            if re.search(r"\d+k tokens", t["text"]):  # (only an axis of k = 1024 writes 8k; a cold read)
                found.append(f"{chart['name']}: {t['text']!r} writes a context in k beside the caption's 8,192")
            if re.fullmatch(r"\d{4,}", t["text"]):  # the prose, tables and tooltips write "1,024"
                found.append(f"{chart['name']}: {t['text']!r} has no thousands separator")
            if t["text"].endswith("…"):  # Vega cut it at its label limit
                found.append(f"{chart['name']}: {t['text']!r} is cut short")
            # a sideways axis title no taller than its plot (found by a cold read: the ladder made
            # shorter to fit a laptop's screen, its title ran 45 px below the plot's foot)
            a = t.get("axis")
            if a and t["y1"] - t["y0"] > t["x1"] - t["x0"] and (t["y0"] < a["y0"] - SLACK or t["y1"] > a["y1"] + SLACK):
                found.append(f"{chart['name']}: axis title {t['text']!r} runs past its axis")
        texts = chart["texts"]
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                # value labels against everything; other text against other text only across groups
                if not (a["mark"] or b["mark"]):
                    continue
                if _overlap(a, b):
                    found.append(f"{chart['name']}: {a['text']!r} overlaps {b['text']!r}")
        # an axis's labels, or the value labels of marks, on one line so close they read as one
        # number ("5121024"; a decision-map cell's "1.0004×" against its neighbour's "1.06×")
        for kind, which in (("axis labels", lambda t: "role-axis-label" in t["group"]),
                            ("value labels", lambda t: t["mark"])):
            labels = sorted((t for t in texts if which(t)), key=lambda t: t["x0"])
            for i, a in enumerate(labels):
                for b in labels[i + 1:]:
                    same_line = min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > SLACK
                    # (the gap against the type's size: in the chart's own pixels)
                    if same_line and -SLACK < b["x0"] - a["x1"] < LABEL_GAP * chart["scale"]:
                        found.append(f"{chart['name']}: {kind} {a['text']!r} and {b['text']!r} run together")
    return found


# Every live chart's colour legends: the colour of each entry, and every colour its data marks
# are drawn in (fill or stroke). [chart, [[label, colour], …], [colour, …]]
LEGENDS = """() => [...document.querySelectorAll('.spec-chart.is-live')].map(chart => {
  const svg = chart.querySelector('.spec-chart__view svg');
  const paint = (e) => [e.getAttribute('fill'), e.getAttribute('stroke')]
    .filter(c => c && c !== 'none' && c !== 'transparent' && !c.startsWith('url')).map(c => c.toLowerCase());
  // colour legends only (a legend of dashes draws its symbols in the ink); a legend Vega gives no
  // label (the breakdown's: found by a cold read, a part listed that no bar showed) by its symbols
  const inked = (l) => [...l.querySelectorAll('.role-legend-symbol path')].every(p => /^(currentcolor|none)?$/i.test(p.getAttribute('fill') || ''));
  const colourLegends = [...svg.querySelectorAll('.role-legend')].filter(l =>
    l.hasAttribute('aria-label') ? /colou?r/.test(l.getAttribute('aria-label')) : !inked(l));
  const entries = colourLegends.flatMap(l => [...l.querySelectorAll('.role-legend-symbol')]).flatMap(g =>
    [...g.querySelectorAll('path')].map(p => {
      const label = p.closest('.role-legend-symbol').parentElement.querySelector('.role-legend-label text')?.textContent || '';
      return [label, paint(p)[0] || ''];
    }));
  // a bar narrower than a pixel is not seen (found by a cold read: a 0.016 ms part of a 295 ms
  // bar in the legend); a line or a point, at any length
  const seen = (e) => {
    const r = e.getBoundingClientRect();
    return e.closest('.mark-rect') ? r.width >= 1 && r.height >= 1 : true;
  };
  const marks = [...svg.querySelectorAll('.role-mark')].filter(g => !g.closest('.role-legend'))
    .flatMap(g => [...g.children].filter(seen).flatMap(paint));
  return [chart.dataset.chart, entries, [...new Set(marks)]];
})"""


def _legend_problems(legends) -> list[str]:
    """Legend entries whose colour no mark of the chart is drawn in: a series listed but not
    plotted (found once: four drafters listed where one was drawn, draft models no cell of the
    decision map picks, a 'measured' key at a context with no measurement)."""
    return [f"{chart}: the legend lists {label!r}, which nothing on the chart is drawn in ({colour})"
            for chart, entries, marks in legends for label, colour in entries if colour and colour not in marks]


def test_legend_rule_catches_an_entry_nothing_is_drawn_in():
    legends = [["decision", [["EAGLE-3 head", "#d4622a"], ["Qwen3-4B draft model", "#8e6bc8"]], ["#d4622a", "#ffffff"]]]
    assert _legend_problems(legends) == ["decision: the legend lists 'Qwen3-4B draft model', which nothing on the "
                                         "chart is drawn in (#8e6bc8)"]


@pytest.mark.parametrize("width", [1280, 320])
def test_no_chart_text_runs_off_or_overlaps_at_extreme_states(charts_at, width):
    problems = []
    for query in LABEL_STATES:  # the extremes, and states where a label was once found wanting
        drawn = charts_at(width)[query]
        problems += [f"{query or '(defaults)'} at {width}px: {p}" for p in _problems(drawn["texts"])]
        if width == 1280:
            problems += [f"{query or '(defaults)'}: {p}" for p in _unreadable(drawn["labels"])]
            problems += [f"{query or '(defaults)'}: {p}" for p in _legend_problems(drawn["legends"])]
    assert problems == [], "\n".join(sorted(set(problems)))


def test_the_acceptance_chart_says_why_it_draws_no_cut_off_where_no_position_pays(charts_at):
    """Found by cold reads: at 64 sequences no draft position pays, and the figure's subtitle
    spoke of positions before a cut-off that was not drawn, its caption of positions highlighted.
    Its legend says none pays, and its subtitle and caption hold at every state."""
    said = "no position pays for its draft here: no cut-off"
    for width in (1280, 320):
        for query, none_pays in (("", False), ("?batch=64", True)):
            texts = [t["text"] for chart in charts_at(width)[query]["texts"] if chart["name"] == "acceptance" for t in chart["texts"]]
            assert (said in texts) == none_pays and ("cut-off" in texts) != none_pays, (width, query, texts)
            assert not any("before the cut-off" in t for t in texts), texts
            assert any("where one does" in t for t in texts), texts


CEILING = """() => {
  const svg = document.querySelector('.spec-chart[data-chart="closed_form"] .spec-chart__view svg');
  const box = (e) => { const r = e.getBoundingClientRect(); return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const label = [...svg.querySelectorAll('.role-mark text')].find((t) => t.textContent.startsWith('ceiling'));
  const rule = [...svg.querySelectorAll('.role-mark line')].find((l) => l.getAttribute('stroke-dasharray'));
  const points = [...svg.querySelectorAll('.mark-symbol.role-mark path')];
  return {label: box(label), rule: box(rule), ruleOnTop: rule.compareDocumentPosition(points[0]) === Node.DOCUMENT_POSITION_PRECEDING,
          points: points.map(box)};
}"""


def test_the_ceiling_and_its_label_show_where_the_curve_reaches_it(new_context):
    """Found by a cold read at α = 0.05: the curve lay on its ceiling and hid the dashed line, and
    the label "ceiling 1/(1−α)" sat above them against the frame's top. The rule is drawn over the
    curve and its label under it, clear of every point."""
    page = new_context(viewport={"width": 1440, "height": 900}).new_page()
    for query in ("", "?batch=1024&gamma=10&alpha=0.05"):
        page.goto("/" + query)
        wait_rendered(page, query)
        page.locator('.spec-chart[data-chart="closed_form"]').scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelector('.spec-chart[data-chart=\"closed_form\"]').classList.contains('is-live')")
        found = page.evaluate(CEILING)
        label, rule = found["label"], found["rule"]
        assert found["ruleOnTop"] and label["y0"] >= rule["y1"], (query, found)
        assert not [p for p in found["points"] if _overlap(p, label)], (query, label)


# What a screen reader says for each mark of each live chart: [chart, aria-label].
MARK_LABELS = """() => [...document.querySelectorAll('.spec-chart.is-live')].flatMap(chart =>
  [...chart.querySelectorAll('.spec-chart__view svg .role-mark [aria-label]')].map(m => [chart.dataset.chart, m.getAttribute('aria-label')]))"""
RAW_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a field's key (other_shown, task_label), not a word
BOOLEAN = re.compile(r"\b(true|false)\b")
DECIMAL = re.compile(r"\d+\.\d+")


def _beside_one(number: str) -> bool:
    """A speedup that two decimals would write as 1.00 but is not 1: formats.py writes it with
    the decimals it takes to differ ("0.9996×"), never "1.00×" for a loss."""
    value = float(number.replace(",", ""))
    return value != 1 and round(value, 2) == 1


def _unrounded(number: str) -> bool:
    """More digits than any of the page's formats writes: over 4 significant digits in over 2
    decimals, or over 3 decimals for a number of 0.1 or more ("0.9069" and "12.345" are;
    "15.55", "141.11" (GB, two decimals at any size) and "0.000978" are not)."""
    if _beside_one(number):
        return False
    significant = number.replace(".", "").lstrip("0")
    decimals = len(number.split(".")[1])
    return (len(significant) > 4 and decimals > 2) or (float(number) >= 0.1 and decimals > 3)


def _unreadable(labels):
    """Mark labels that read raw keys, unrounded floats or booleans (Vega-Lite's default labels do)."""
    found = []
    for chart, label in labels:
        if RAW_KEY.search(label) or BOOLEAN.search(label) or any(map(_unrounded, DECIMAL.findall(label))):
            found.append(f"{chart}: mark label {label[:90]!r}")
        # each line "title: value", neither empty ("; : read off a plot" was)
        if any(not re.fullmatch(r"[^:;]*[^\s:;][^:;]*: .*\S.*", line) for line in label.split("; ")):
            found.append(f"{chart}: mark label with an empty title or value {label[:90]!r}")
    return found


# Every tooltip of every live chart, as Vega hands it to the tooltip handler: the SVG renderer
# binds each mark's scene item to its element, and an item's `tooltip` is the object of lines
# the handler shows ({title: value}). [chart, [[title, value, value's type], …]], one per item.
TOOLTIPS = """() => [...document.querySelectorAll('.spec-chart.is-live')].flatMap(chart =>
  [...chart.querySelectorAll('.spec-chart__view svg .role-mark > *')]
    .map(el => el.__data__ && el.__data__.tooltip).filter(t => t != null)
    .map(t => [chart.dataset.chart, typeof t === 'object'
      ? Object.entries(t).map(([k, v]) => [k, v === null || v === undefined ? String(v) : String(v), typeof v])
      : [['', String(t), typeof t]]]))"""
# A number as a reader meets it: not part of a name ("Qwen3-0.6B", "Llama-3.2-1B", "2.68T"), nor
# a study's year ("Liu et al. 2026").
NUMBER = re.compile(r"(?<![\w.\-/])(?<!et al\. )(\d[\d,]*(?:\.\d+)?)(?![\w\-.])")
WORDS_NOT_VALUES = {"", "null", "undefined", "NaN", "Infinity", "—"}


def _bad_number(text: str, unit: str) -> str | None:
    """Why a tooltip number reads badly: over 3 significant figures in over 2 decimals (an
    integer is a count and whole; "16.38 GB" is the page's two decimals), 1,000 or more without
    thousands separators, a sub-millisecond time in ms."""
    digits = text.replace(",", "")
    whole, _, decimals = digits.partition(".")
    if len(whole) > 3 and "," not in text:
        return "no thousands separator"
    if len(decimals) > 2 and len((whole + decimals).lstrip("0")) > 3 and not _beside_one(digits):
        return "over 3 significant figures"
    if unit.startswith("ms") and 0 < float(digits) < 1:  # an exact zero is "0 ms": nothing at all
        return "below 1 ms: in µs"
    return None


def _unreadable_tooltips(tooltips) -> list[str]:
    found = []
    for chart, lines in tooltips:
        for title, value, kind in lines:
            where = f"{chart}: tooltip line {title!r}: {value!r}"
            if title.strip() in WORDS_NOT_VALUES or value.strip() in WORDS_NOT_VALUES:
                found.append(f"{where} has an empty title or value")
            for text in (title, value):
                if RAW_KEY.search(text) or BOOLEAN.search(text) or re.search(r"\de[+-]?\d", text):
                    found.append(f"{where} reads a raw key, a boolean or exponent notation")
            if kind == "number" and (not value.lstrip("-").isdigit() or abs(int(value)) >= 1000):
                found.append(f"{where} is an unformatted number")
            for match in NUMBER.finditer(value):
                why = _bad_number(match[1], value[match.end():].strip())
                if why:
                    found.append(f"{where}: {why}")
    return found


def test_every_tooltip_line_has_a_title_and_a_readable_value_at_extreme_states(charts_at):
    """Found once by eye: "its α: falling", "; : read off a plot", "FLOP/byte 5.288", "0.000978 ms",
    "context (tokens): 2048", "which is: ideal roofline". This checks the kind, on every mark."""
    problems = []
    for query in EXTREMES:
        tooltips = charts_at(1280)[query]["tooltips"]
        assert {chart for chart, _ in tooltips} >= {"ladder", "decision", "breakdown", "validation", "shares"}
        # α reads as the controls and the prose write it (0.65), never as the acceptance shape
        # ("its α: falling") nor in another format ("65%")
        alphas = {v for chart, lines in tooltips if chart == "decision" for t, v, _ in lines if "α" in t}
        assert alphas and all(re.fullmatch(r"0\.\d\d|1\.00", v) for v in alphas), alphas
        problems += [f"{query or '(defaults)'}: {p}" for p in _unreadable_tooltips(tooltips)]
    assert problems == [], "\n".join(sorted(set(problems)))


def test_a_models_point_is_not_described_as_a_measurement(charts_at):
    """Found by a cold read: a model line's point in the step-time and drafting-share charts said
    "measurement read off a plot: no" and "measurement used in the fit: yes", of a number the
    model computed. A model's point names the measurement it is priced beside, and no more."""
    from generator.charts.validation import SERIES_LABELS
    about_a_measurement = {"measured by", "read off a plot", "used in the fit"}
    seen = {"model": 0, "measured": 0}
    problems = []
    for query in LABEL_STATES[:2]:
        for chart, lines in charts_at(1280)[query]["tooltips"]:
            series = dict((t, v) for t, v, _ in lines).get("series")
            if chart not in ("validation", "shares") or series is None:
                continue
            titles = {t for t, _, _ in lines}
            measured = series == SERIES_LABELS["measured"]
            seen["measured" if measured else "model"] += 1
            said = sorted(t for t in titles for a in about_a_measurement if a in t)
            if not measured and said:
                problems.append(f"{chart}: {series}: {said}")
            if measured and not about_a_measurement <= titles:
                problems.append(f"{chart}: a measurement without {sorted(about_a_measurement - titles)}")
    assert seen["model"] and seen["measured"], seen
    assert problems == [], "\n".join(sorted(set(problems)))


@pytest.mark.parametrize("lines, why", [
    ([["FLOP/byte", "5.288", "string"]], "over 3 significant figures"),
    ([["time", "0.000978 ms", "string"]], "below 1 ms"),
    ([["context (tokens)", "2048", "number"]], "unformatted"),
    ([["context", "32768 tokens", "string"]], "thousands separator"),
    ([["", "read off a plot", "string"]], "empty title"),
    ([["its α", "", "string"]], "empty title or value"),
    ([["fits", "true", "string"]], "boolean"),
    ([["which", "other_shown", "string"]], "raw key"),
])
def test_tooltip_rules_catch_what_was_found(lines, why):
    assert any(why in p for p in _unreadable_tooltips([["chart", lines]]))


def test_tooltip_rules_pass_what_reads_well():
    lines = [["measured by", "Liu et al. 2026", "string"], ["model", "Llama-3.2-1B draft model", "string"],
             ["context (tokens)", "32,768", "string"], ["time", "978 µs", "string"], ["speedup", "1.14×", "string"],
             ["draft position", "3", "number"], ["attained FLOP/s", "14.2T", "string"],
             ["other cost model", "161 tokens/s (ideal roofline)", "string"], ["share", "< 0.1%", "string"],
             ["weights", "16.38 GB", "string"], ["experts per layer", "22.5 of 128 plain", "string"],
             ["speedup", "0.9996×", "string"]]
    assert _unreadable_tooltips([["chart", lines]]) == []


# The horizontal bar charts: the right end of the longest bar and the x axis's domain line, in
# page pixels. [chart, longest bar's right end - axis start, axis length].
BAR_REACH = """(names) => names.map(name => {
  const svg = document.querySelector(`.spec-chart.is-live[data-chart="${name}"] .spec-chart__view svg`);
  const domain = [...svg.querySelectorAll('.role-axis-domain path, .role-axis-domain line')]
    .map(e => e.getBoundingClientRect()).filter(r => r.width > r.height)[0];
  const ends = [...svg.querySelectorAll('.mark-rect.role-mark path')].map(e => e.getBoundingClientRect())
    .filter(r => r.width > 0).map(r => r.right);
  return [name, Math.max(...ends) - domain.left, domain.width];
})"""


@pytest.mark.parametrize("width", [1280, 320])
def test_bar_axes_fit_the_longest_bar(charts_at, width):
    """Found once: the breakdown's axis ran to 34 ms for a 16.8 ms bar (an invisible mark at
    1.9× the longest bar made room for its label in data units). A nice axis end is at most
    about twice a bar's length when the bar is short of a round number (16.8 → 20 is 84 %)."""
    problems = []
    for query in EXTREMES:
        for name, reach, length in charts_at(width)[query]["bars"]:
            if not 0.6 * length <= reach <= length + SLACK:
                problems.append(f"{query or '(defaults)'}: {name}'s longest bar spans {reach:.0f} px of a {length:.0f} px axis")
    assert problems == [], "\n".join(problems)


# Each mark of a chart as drawn: its row, fill and stroke as computed (currentColor resolved to
# the palette's ink), their opacities, and the colour of the page behind the chart.
DRAWN = """(name) => {
  const svg = document.querySelector(`.spec-chart.is-live[data-chart="${name}"] .spec-chart__view svg`);
  let el = svg, background = 'rgba(0, 0, 0, 0)';
  while (el && (background === 'rgba(0, 0, 0, 0)' || background === 'transparent')) {
    background = getComputedStyle(el).backgroundColor; el = el.parentElement;
  }
  const opacity = (e, attr) => {
    let o = Number(e.getAttribute(attr) ?? 1);
    for (let g = e; g && g !== svg; g = g.parentElement) o *= Number(g.getAttribute('opacity') ?? 1);
    return o;
  };
  const marks = [...svg.querySelectorAll('.role-mark path')].filter(e => e.__data__ && e.__data__.datum).map(e => {
    const style = getComputedStyle(e), box = e.getBoundingClientRect();
    // the mark type (mark-rect, mark-symbol); a bar and a tick are both rects, told apart by role
    return {row: e.__data__.datum, mark: e.closest('.role-mark').classList[0], role: e.getAttribute('aria-roledescription'),
            fill: style.fill, fillOpacity: opacity(e, 'fill-opacity'),
            stroke: style.stroke, strokeOpacity: opacity(e, 'stroke-opacity'),
            strokeWidth: parseFloat(style.strokeWidth) || 0, dashed: !!e.getAttribute('stroke-dasharray'),
            box: [box.left, box.top, box.right, box.bottom]};
  });
  const texts = [...svg.querySelectorAll('.role-mark text')].filter(e => e.__data__ && e.__data__.datum).map(e => {
    const style = getComputedStyle(e);
    return {row: e.__data__.datum, fill: style.fill, fillOpacity: opacity(e, 'fill-opacity')};
  });
  return {background, marks, texts};
}"""


def _rgb(css: str) -> tuple[float, ...]:
    return tuple(float(v) for v in re.findall(r"[\d.]+", css)[:3])


def _over(colour: str, alpha: float, background: str) -> tuple[float, ...]:
    """``colour`` (its own alpha, as rgba() gives it, times ``alpha``) laid over ``background``."""
    channels = [float(v) for v in re.findall(r"[\d.]+", colour)]
    alpha *= channels[3] if len(channels) > 3 else 1
    return tuple(alpha * c + (1 - alpha) * b for c, b in zip(channels[:3], _rgb(background)))


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (0…255 per channel)."""
    def luminance(rgb):
        lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _each_state_drawn(page, scheme: str, queries):
    """Each of ``queries`` in turn (a load, then moves in place as Back and Forward make them),
    yielded once its readouts and every chart are drawn in palette ``scheme``."""
    for i, query in enumerate(queries):
        if i == 0:
            page.goto("/" + query)
        else:
            page.evaluate(IN_PLACE, "/" + query)
        wait_rendered(page, query)
        page.wait_for_function("s => document.body.dataset.mdColorScheme === s",
                               arg="slate" if scheme == "dark" else "default")
        page.wait_for_function(ALL_LIVE)
        yield query


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_ladder_and_decision_map_encodings_read_the_same_in_both_palettes(new_context, scheme):
    """Found once in the dark palette: the ladder's current rung drawn brightest and the rungs
    that do not fit darkest, against a legend saying "darkest: current; palest: does not fit",
    and the decision map's orange "does not fit" outline lost on the EAGLE-3 head's orange cells
    (and then its white frame, read as the white gap beside it). What holds in both palettes is
    contrast with the page: the current rung stands out most, a rung or cell that does not fit
    least, every outline stands off what it is drawn on, and every cell's text off its cell."""
    page = new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme).new_page()
    problems = []
    # a fitting current rung beside fitting and non-fitting ones; a non-fitting current rung
    for query in _each_state_drawn(page, scheme, ("?batch=2&context=32768", "?batch=64&context=32768")):
        ladder = page.evaluate(DRAWN, "ladder")
        page_colour = _rgb(ladder["background"])
        bars = [m for m in ladder["marks"] if m["role"] == "bar"]
        strength = {m["row"]["batch"]: _contrast(_over(m["fill"], m["fillOpacity"], ladder["background"]), page_colour)
                    for m in bars}
        current = next(m for m in bars if m["row"]["current"])
        fitting = [m["row"]["batch"] for m in bars if m["row"]["fits"]]
        too_big = [m["row"]["batch"] for m in bars if not m["row"]["fits"]]
        assert fitting and too_big, query
        if current["row"]["fits"]:
            weaker = [b for b in fitting if b != current["row"]["batch"] and strength[b] >= strength[current["row"]["batch"]]]
            problems += [f"{query}: rung {b} stands out as much as the current one" for b in weaker]
        problems += [f"{query}: rung {b} does not fit yet stands out as much as rung {f}"
                     for b in too_big for f in fitting if strength[b] >= strength[f]]
        ring = _contrast(_over(current["stroke"], current["strokeOpacity"], ladder["background"]), page_colour)
        if current["strokeWidth"] < 2 or ring < 3:
            problems.append(f"{query}: the current rung's outline ({current['stroke']}, {current['strokeWidth']} px) "
                            f"has contrast {ring:.1f} with the page")

        decision = page.evaluate(DRAWN, "decision")
        def cell_key(row):
            return row["task"], row["batch"], row["context"]
        cells = {cell_key(m["row"]): m for m in decision["marks"] if m["mark"] == "mark-rect"}
        # a cell whose choice does not fit is paler than every cell of its colour that fits (as
        # the ladder's rungs), and every cell's text stands off its fill
        fill = {key: _over(m["fill"], m["fillOpacity"], decision["background"]) for key, m in cells.items()}
        pale = {key: _contrast(colour, page_colour) for key, colour in fill.items()}
        too_big = [key for key, m in cells.items() if not m["row"]["fits"]]
        assert too_big and len(too_big) < len(cells), query
        for key in too_big:
            same = [k for k, m in cells.items() if m["row"]["fits"] and m["fill"] == cells[key]["fill"]]
            problems += [f"{query}: cell {key} does not fit yet is as strong as cell {k}, which does"
                         for k in same if pale[key] >= pale[k]]
        texts = decision["texts"]
        assert len(texts) == len(cells), query
        for text in texts:
            key = cell_key(text["row"])
            ink = _over(text["fill"], text["fillOpacity"], "rgb" + str(tuple(fill[key])))
            if _contrast(ink, fill[key]) < 4.5:
                problems.append(f"{query}: the text of cell {key} ({'fits' if text['row']['fits'] else 'does not fit'}) "
                                f"has contrast {_contrast(ink, fill[key]):.1f} with its fill")
        rings = [m for m in decision["marks"] if m["mark"] == "mark-symbol" and m["dashed"]]
        assert all(m["row"]["current"] for m in rings), query
        problems += [f"{query}: the current cell's ring has contrast {c:.1f} with the page"
                     for c in [_contrast(_over(m["stroke"], m["strokeOpacity"], decision["background"]),
                                         _rgb(decision["background"])) for m in rings] if c < 3]
        assert rings, f"{query}: no ring on the current cell"
    assert problems == [], "\n".join(sorted(set(problems)))


# Every shown text of every live chart (but the decision map's cells, held to their fills above):
# its computed fill and opacity, and the background it sits on (the nearest painted ancestor).
CHART_INK = """() => [...document.querySelectorAll('.spec-chart.is-live')].flatMap(chart => {
  const svg = chart.querySelector('.spec-chart__view svg');
  let background = 'rgb(255, 255, 255)';
  for (let e = chart; e; e = e.parentElement) {
    const b = getComputedStyle(e).backgroundColor;
    if (b !== 'rgba(0, 0, 0, 0)' && b !== 'transparent') { background = b; break; }
  }
  return [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() !== ''
      && !(chart.dataset.chart === 'decision' && t.closest('.role-mark'))).flatMap(t => {
    let alpha = parseFloat(getComputedStyle(t).fillOpacity);
    for (let e = t; e && e !== svg; e = e.parentElement) alpha *= parseFloat(getComputedStyle(e).opacity);
    return alpha > 0 ? [[chart.dataset.chart, t.textContent, getComputedStyle(t).fill, alpha, background]] : [];
  });
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_chart_text_reads_against_the_page_in_both_palettes(new_context, scheme):
    # Found once: value labels in their series' colour, the ladder's "1.14×" and the iteration
    # chart's "2.15 ms" in blue at 3.8:1 on the dark palette, the memory chart's teal values at
    # 3.1:1 on the light one. Small text needs 4.5:1 (WCAG 1.4.3).
    page = new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme).new_page()
    problems, seen = [], set()
    for _ in _each_state_drawn(page, scheme, ("", "?batch=1024&context=32768&gamma=10&alpha=0.05",
                                               "?alpha=0.95&acceptance=same")):
        for chart, text, fill, alpha, background in page.evaluate(CHART_INK):
            seen.add(fill)
            ratio = _contrast(_over(fill, alpha, background), _rgb(background))
            if ratio < 4.5:
                problems.append(f"{chart}: {text!r} in {fill} has contrast {ratio:.1f} on {background}")
    assert len(seen) >= 4, seen  # the ink and the series' colours
    assert problems == [], "\n".join(sorted(set(problems)))


# Every value label of every live chart against the lines and rules drawn beside it: the points
# of each line's or rule's path, every pixel along it, that fall inside a label's box (page px).
# [chart, label, how many points inside].
STRUCK = """() => [...document.querySelectorAll('.spec-chart.is-live')].flatMap(chart => {
  const svg = chart.querySelector('.spec-chart__view svg');
  const labels = [...svg.querySelectorAll('.role-mark text')].filter(t => t.textContent.trim() !== '')
    .map(t => [t.textContent, t.getBoundingClientRect()]);
  if (!labels.length) return [];
  const points = [];
  // lines, rules and ticks (a tick is a short rect)
  for (const path of svg.querySelectorAll('.mark-line.role-mark path, .mark-rule.role-mark line, .mark-rule.role-mark path, .mark-rect.role-mark path[aria-roledescription="tick"]')) {
    const m = path.getScreenCTM(), length = path.getTotalLength();
    for (let s = 0; s <= length; s += 1) {
      const p = path.getPointAtLength(s);
      points.push([m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f]);
    }
  }
  return labels.map(([text, r]) => [chart.dataset.chart, text,
    points.filter(([x, y]) => x > r.left + 1 && x < r.right - 1 && y > r.top + 1 && y < r.bottom - 1).length]);
})"""
# The extreme states, and the γ chart's label where it was found struck through (γ = 4 on a
# falling curve) and beside its peak, at each end, and with the curve near the 1× rule.
LABEL_STATES = EXTREMES + ["?gamma=1", "?batch=1024&drafter=ngram", "?batch=64&gamma=2", "?gamma=10&alpha=0.95&acceptance=same", "?batch=16&gamma=5",
                           # the ladder's label at the top of its scale, the other model's tick above it
                           "?gpu=l40s&target=llama-3.3-70b-instruct&tp=4&drafter=llama-3.2-1b",
                           # the decision map's grey entry (a cell where nothing beats plain decoding)
                           "?target=qwen3-14b"]


DURATION = re.compile(r"(\d[\d,]*(?:\.\d+)?)\u00a0?\s?(ms|µs)(?!/)")


def _milliseconds(number: str, unit: str) -> float:
    return float(number.replace(",", "")) / (1000 if unit == "µs" else 1)


def _durations_apart(texts, cells) -> list[str]:
    """A time a chart's marks label that its data table writes as another number (found by a
    cold read: "spec. 129 ms" on a bar whose row reads 128.71 ms): one rounding, chart and table.
    (A per-token time, "/token", is the label's own arithmetic and no cell's.)"""
    by_chart = dict(cells)
    found = []
    for chart in texts:
        written = {round(_milliseconds(n, u), 9) for cell in by_chart.get(chart["name"], []) for n, u in DURATION.findall(cell)}
        for t in chart["texts"]:
            if not t["mark"]:
                continue
            for n, u in DURATION.findall(t["text"]):
                if written and round(_milliseconds(n, u), 9) not in written:
                    found.append(f"{chart['name']}: label {n} {u} is no cell of its table")
    return found


def test_duration_rule_catches_a_label_rounded_apart_from_its_table():
    texts = [{"name": "breakdown", "texts": [{"text": "spec. 129 ms49.37 ms/token", "mark": True}]}]
    assert _durations_apart(texts, [["breakdown", ["128.71 ms", "9.27 ms"]]]) == ["breakdown: label 129 ms is no cell of its table"]
    texts[0]["texts"][0]["text"] = "spec. 128.71 ms49.37 ms/token"
    assert _durations_apart(texts, [["breakdown", ["128.71 ms"]]]) == []


def test_a_chart_labels_a_time_as_its_table_writes_it(charts_at):
    problems = []
    for query in LABEL_STATES:
        drawn = charts_at(1280)[query]
        problems += [f"{query or '(defaults)'}: {p}" for p in _durations_apart(drawn["texts"], drawn["cells"])]
    assert problems == [], "\n".join(sorted(set(problems)))


@pytest.mark.parametrize("width", [1280, 320])
def test_no_value_label_sits_on_a_line(charts_at, width):
    """Found once: the γ chart's curve struck through its own label "γ = 4: 1.14×"."""
    problems, seen = [], set()
    for query in LABEL_STATES:
        struck = charts_at(width)[query]["struck"]
        seen |= {chart for chart, _, _ in struck}
        problems += [f"{query or '(defaults)'}: {chart}: a line runs through {text!r}" for chart, text, n in struck if n]
    assert "gamma" in seen
    assert problems == [], "\n".join(problems)


BAR_CHARTS = ["breakdown", "iteration"]
# Everything the tests above read off a state's charts, in one evaluation.
# Every live chart's data table, its cells' text: [chart, [cell, …]].
CELLS = """() => [...document.querySelectorAll('.spec-chart.is-live')].map(chart =>
  [chart.dataset.chart, [...(chart.closest('figure')?.querySelectorAll('table td') ?? [])].map(td => td.textContent.trim())])"""
SNAPSHOT = f"""(bars) => ({{texts: ({TEXTS})(), labels: ({MARK_LABELS})(), legends: ({LEGENDS})(),
  tooltips: ({TOOLTIPS})(), bars: ({BAR_REACH})(bars), struck: ({STRUCK})(), cells: ({CELLS})()}})"""
# Another state in place: the address changes and the page hears a popstate, as on Back/Forward.
IN_PLACE = "(url) => { history.pushState(null, '', url); dispatchEvent(new PopStateEvent('popstate', {state: null})); }"
ALL_LIVE = ("() => [...document.querySelectorAll('.spec-chart')]"
            ".every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")


@pytest.fixture(scope="module")
def charts_at(browser, server_url):
    """charts_at(width) → {query: what every live chart drew}, for every state of LABEL_STATES
    (EXTREMES among them) at that viewport width, once per width for all the tests of this
    module, its charts all live and painted. The first state is a page load; the page then moves
    to each of the others in place, as Back and Forward move it (a fresh load of each would
    draw the same charts at three times the cost). The pages' errors and requests are checked
    as every test's are."""
    found: dict[int, dict] = {}
    opened = []

    def at(width: int) -> dict:
        if width not in found:
            context = browser.new_context(base_url=server_url, viewport={"width": width, "height": 900})
            log = PageLog()
            log.attach(context)
            opened.append((context, log))
            page = context.new_page()
            found[width] = {}
            page.goto("/" + LABEL_STATES[0])
            for query in LABEL_STATES:
                if query != LABEL_STATES[0]:
                    page.evaluate(IN_PLACE, "/" + query)
                wait_rendered(page, query)
                page.wait_for_function(ALL_LIVE)
                page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                found[width][query] = page.evaluate(SNAPSHOT, BAR_CHARTS)
            page.close()
        return found[width]

    yield at
    for context, _ in opened:
        context.close()
    for _, log in opened:
        log.check()


# Marks whose tooltip a pointer at their centre does not reach: whatever is on top there (a label
# drawn over a cell, say) has no tooltip of its own. [chart, the mark's first tooltip line].
COVERED_TOOLTIPS = """async () => {
  const covered = [];
  for (const chart of document.querySelectorAll('.spec-chart.is-live')) {
    if (chart.closest('details:not([open])')) continue;  // folded away: nothing to point at
    const svg = chart.querySelector('.spec-chart__view svg');
    // bars, cells and points (a line's or an area's centre is not on it)
    const marks = [...svg.querySelectorAll(':is(.mark-rect, .mark-symbol).role-mark > *')]
      // (not a rung's invisible column: a hit area under the drawn marks, not one to point at)
      .filter(e => e.__data__ && e.__data__.tooltip != null && Number(getComputedStyle(e).opacity) > 0);
    for (const el of marks.filter((_, i) => i % Math.max(1, Math.floor(marks.length / 30)) === 0)) {
      el.scrollIntoView({block: 'center', behavior: 'instant'});
      const r = el.getBoundingClientRect();
      if (r.width < 4 || r.height < 4) continue;  // a tick or a point: its centre is its edge
      let top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      while (top && !(top.__data__ && 'tooltip' in top.__data__) && top !== svg) top = top.parentElement;
      if (!top || top === svg || top.__data__.tooltip == null) {
        covered.push([chart.dataset.chart, Object.values(el.__data__.tooltip)[0]]);
      }
    }
  }
  return covered;
}"""


def test_a_pointer_over_a_mark_gets_its_tooltip(page, page_log):
    """Found once: the decision map's labels covered most of each cell and had no tooltip, so
    the cell's showed only at its edges."""
    page.goto("/?batch=64&context=32768")
    wait_rendered(page, "?batch=64&context=32768")
    page.wait_for_function(ALL_LIVE)
    assert page.evaluate(COVERED_TOOLTIPS) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chart_tooltips_are_in_the_page_palette(new_context, scheme):
    """Found once: in the dark palette the tooltip stayed a near-white box (vega-tooltip's own
    light theme), glaring over the dark charts."""
    page = new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg="slate" if scheme == "dark" else "default")
    page.wait_for_function("() => document.querySelector('#figure-ladder .spec-chart').classList.contains('is-live')")
    page.locator("#figure-ladder .spec-chart__view path[aria-label*='concurrent sequences: 64;']").first.hover(force=True)
    page.wait_for_function("() => document.querySelector('#vg-tooltip-element.visible') !== null")
    colours = page.evaluate("""() => {
      const tip = getComputedStyle(document.querySelector('#vg-tooltip-element'));
      const body = getComputedStyle(document.body);
      return [tip.backgroundColor, tip.color, body.backgroundColor];
    }""")
    tip_bg, tip_fg, page_bg = colours
    background = _over(tip_bg, 1, page_bg)
    assert _contrast(background, _rgb(page_bg)) < 1.5, colours
    assert _contrast(_over(tip_fg, 1, "rgb" + str(tuple(background))), background) >= 4.5, colours


def test_a_tooltip_follows_the_palette_the_reader_switches_to(new_context):
    """Found once: after the header's toggle the tooltip kept vega-tooltip's light theme (its box
    classed "light-theme", its keys that theme's grey), the theme fixed when the chart was drawn.
    Light first, then dark by the toggle: the box stands on the page's dark background, its keys
    and values read on it, and its class says so."""
    page = new_context(viewport={"width": 1280, "height": 900}, color_scheme="light").new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function("() => document.querySelector('#figure-ladder .spec-chart').classList.contains('is-live')")
    rung = page.locator("#figure-ladder .spec-chart__view path[aria-label*='concurrent sequences: 64;']").first
    rung.hover(force=True)  # the tooltip is made in the light palette
    page.wait_for_function("() => document.querySelector('#vg-tooltip-element.visible') !== null")
    page.mouse.move(0, 0)
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
    rung.hover(force=True)
    page.wait_for_function("() => document.querySelector('#vg-tooltip-element.visible') !== null")
    seen = page.evaluate("""() => {
      const el = document.querySelector('#vg-tooltip-element');
      const tip = getComputedStyle(el);
      const key = getComputedStyle(el.querySelector('td.key'));
      return {classes: el.className, bg: tip.backgroundColor, fg: tip.color, key: key.color,
              page: getComputedStyle(document.body).backgroundColor};
    }""")
    background = _over(seen["bg"], 1, seen["page"])
    assert sum(background) / 3 < 80, seen  # a dark box
    assert _contrast(background, _rgb(seen["page"])) < 1.5, seen
    for ink in (seen["fg"], seen["key"]):
        assert _contrast(_over(ink, 1, "rgb" + str(tuple(background))), background) >= 4.5, seen
    assert "dark-theme" in seen["classes"] and "light-theme" not in seen["classes"], seen


TOOLTIP_BOX = """() => { const r = document.querySelector('#vg-tooltip-element').getBoundingClientRect();
  const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
  return [r.left, r.right, r.top, r.bottom, header]; }"""


def test_a_tooltip_stays_inside_a_phones_window(new_context):
    """Found by cold reads: on a phone the tooltip of the 64 rung was put left of the pointer (it
    would have run off the right edge) and ran off the window's left edge ("oncurrent
    sequences"); a decision-map cell near the top of the window had its tooltip above the pointer,
    its first lines (which cell) off the top or under the header. Every rung, hovered at its
    middle, and the decision map's top row with the chart just under the header."""
    page = new_context(viewport={"width": 375, "height": 812}).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function("() => ['ladder', 'decision'].every(n => document.querySelector(`#figure-${n} .spec-chart`)?.classList.contains('is-live'))")
    outside = []

    def hover(label, marks, first_row_at=None):
        marks.first.scroll_into_view_if_needed()
        if first_row_at is not None:  # the first row of marks just under the header
            page.evaluate("([el, y]) => scrollBy({top: el.getBoundingClientRect().top - y, behavior: 'instant'})",
                          [marks.first.element_handle(), first_row_at])
        hovered = 0
        for i in range(marks.count()):
            box = marks.nth(i).bounding_box()
            # (not under the header, nor under the bar at the window's foot)
            if box["height"] < 1 or box["y"] < 60 or box["y"] + box["height"] > 600:
                continue
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_function("() => document.querySelector('#vg-tooltip-element.visible') !== null")
            left, right, top, bottom, header = page.evaluate(TOOLTIP_BOX)
            if left < 0 or right > 375 or top < header or bottom > 812:
                outside.append((label, i, [round(v) for v in (left, right, top, bottom)]))
            page.mouse.move(0, 0)
            hovered += 1
        return hovered

    assert hover("ladder", page.locator("#figure-ladder .spec-chart__view path[aria-label*='concurrent sequences: ']")) >= 10
    cells = page.locator("#figure-decision .spec-chart__view .mark-rect.role-mark path[aria-label]")
    assert hover("decision", cells, first_row_at=70) >= 10
    assert outside == []


def test_the_decision_maps_cells_stand_apart_on_a_phone(new_context):
    """Found by a cold read: at 375 px the map's white labels filled their cells and the 2 px
    between cells did not part them, so a row read as one string ("1.70×1.70×1.71×"). Between any
    two neighbouring cells the page shows through at least 3 px, and their labels stand 5 px apart."""
    page = new_context(viewport={"width": 375, "height": 812}).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function("() => document.querySelector('#figure-decision .spec-chart')?.classList.contains('is-live')")
    rows = page.evaluate("""() => {
      const svg = document.querySelector('#figure-decision .spec-chart__view svg');
      const boxes = (selector) => [...svg.querySelectorAll(selector)].map(e => e.getBoundingClientRect())
        .filter(r => r.width > 0).map(r => [Math.round(r.top), r.left, r.right]);
      return {cells: boxes('.role-mark.marktype-rect path, .mark-rect.role-mark path'),
              labels: boxes('.mark-text.role-mark text')};
    }""")

    def gaps(boxes):
        by_row = {}
        for top, left, right in boxes:
            by_row.setdefault(top, []).append((left, right))
        return [b[0] - a[1] for row in by_row.values() for a, b in zip(sorted(row), sorted(row)[1:])]

    cell_gaps, label_gaps = gaps(rows["cells"]), gaps(rows["labels"])
    assert len(cell_gaps) > 100 and len(label_gaps) > 100, (len(cell_gaps), len(label_gaps))
    assert min(cell_gaps) >= 3 and min(label_gaps) >= 5, (min(cell_gaps), min(label_gaps))
