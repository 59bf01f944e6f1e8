"""The site around the simulation: charts, dark mode, instant navigation, CSP, no outside
requests, no console errors, and screenshots for a human to look at."""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from .conftest import ROOT
from .site_helpers import mismatches, state_for, wait_rendered

pytestmark = pytest.mark.browser

AXIS_LABEL_LUMINANCE = """sel => {
  const label = document.querySelector(sel + ' .role-axis-label text');
  if (!label) return null;
  const [r, g, b] = getComputedStyle(label).fill.match(/[\\d.]+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""
LADDER = ".spec-chart[data-chart=ladder]"


def live_chart(page, name: str = "ladder") -> None:
    page.wait_for_selector(f".spec-chart[data-chart={name}].is-live svg", state="attached")


def test_charts_render_and_follow_the_palette(page, page_log):
    page.goto("/")
    live_chart(page)
    charts = page.eval_on_selector_all(
        ".spec-chart[data-chart]", "els => els.map(e => [e.dataset.chart, e.classList.contains('is-live')])"
    )
    assert charts, "no charts on the essay page"
    page.wait_for_function("() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")
    assert page.locator(".spec-chart__error").count() == 0
    assert page.evaluate("() => document.body.dataset.mdColorScheme") == "default"
    assert page.evaluate(AXIS_LABEL_LUMINANCE, LADDER) < 0.5

    page.locator("form[data-md-component=palette] label:not([hidden])").click()
    page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
    page.wait_for_function(f"sel => ({AXIS_LABEL_LUMINANCE})(sel) > 0.6", arg=LADDER)
    assert page.evaluate(AXIS_LABEL_LUMINANCE, LADDER) > 0.6
    # The views follow the palette through CSS (currentColor): every one is still live.
    page.wait_for_function("() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")


def test_chart_follows_the_state(page, page_log):
    page.goto("/")
    wait_rendered(page, "")
    live_chart(page)
    current = "sel => [...document.querySelectorAll(sel + ' .role-mark text')].map(t => t.textContent).join('|')"
    before = page.evaluate(current, LADDER)
    page.locator("#simulation select[name=drafter]").select_option("ngram")
    wait_rendered(page, "?drafter=ngram")
    page.wait_for_function(f"([sel, before]) => ({current})(sel) !== before", arg=[LADDER, before])


def test_instant_navigation_there_and_back(page, page_log):
    page.goto("/?batch=64")
    wait_rendered(page, "?batch=64")
    live_chart(page)
    page.evaluate("() => { window.__sameDocument = true; }")
    page.locator(".md-nav__link", has_text="The model").first.click()
    page.wait_for_url(re.compile(r"/model/(\?[^#]*)?$"))  # the state travels in the query
    page.wait_for_function("() => document.querySelector('article h1')?.textContent.includes('The model')")
    # Instant navigation: the document was not reloaded, and the page was set up again.
    assert page.evaluate("() => window.__sameDocument === true")
    if page.locator(".spec-chart[data-chart]").count():
        page.wait_for_function("() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")

    page.go_back()
    wait_rendered(page, "?batch=64")
    live_chart(page)
    assert mismatches(page, state_for("batch=64")) == []
    page.locator("#simulation select[name=drafter]").select_option("ngram")
    wait_rendered(page, "?batch=64&drafter=ngram")
    assert mismatches(page, state_for("batch=64&drafter=ngram")) == []


def test_works_without_instant_navigation_too(page, page_log):
    """A full page load of the model page, then of the essay with a state: same setup path."""
    page.goto("/model/")
    page.wait_for_function("() => document.querySelector('article h1')?.textContent.includes('The model')")
    page.goto("/?gamma=2")
    wait_rendered(page, "?gamma=2")
    assert mismatches(page, state_for("gamma=2")) == []


def test_content_security_policy(page, page_log):
    page.goto("/")
    csp = page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content")
    assert "script-src 'self'" in csp
    assert "unsafe-eval" not in csp
    assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    # No inline <script> that would need an exemption (JSON data blocks do not execute).
    inline = page.eval_on_selector_all(
        "script:not([src])", "els => els.filter(e => !(e.type || '').includes('json')).length"
    )
    assert inline == 0
    wait_rendered(page, "")
    live_chart(page)


def test_no_console_errors_and_nothing_outside_the_site(page, page_log):
    # and no warning from the chart library: each was a chart drawn from data it could not use
    warnings = []
    page.on("console", lambda msg: msg.type == "warning" and msg.text.startswith("WARN") and warnings.append(msg.text))
    page.goto("/")
    wait_rendered(page, "")
    live_chart(page)
    page.locator("#simulation select[name=workload]").select_option("steady-state")
    wait_rendered(page, "?workload=steady-state")
    # every chart drawn, and drawn again for the new state
    page.wait_for_function("() => [...document.querySelectorAll('.spec-chart')]"
                           ".every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")
    page.locator("form[data-md-component=palette] label:not([hidden])").click()
    page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
    page.locator(".md-nav__link", has_text="The model").first.click()
    page.wait_for_url(re.compile(r"/model/(\?[^#]*)?$"))  # the state travels in the query
    page.goto("/model/")
    page.wait_for_load_state("networkidle")
    page_log.check()
    assert any(urlsplit(url).path.endswith("/data/manifest.json") for url in page_log.requests)
    assert any("vega-bundle.js" in url for url in page_log.requests)
    assert warnings == []


@pytest.mark.parametrize("path", ["/", "/?batch=64&drafter=ngram", "/model/"])
def test_a_page_load_requests_each_file_once(page, path):
    """Found once as a console warning seconds after load ("preloaded but not used"): the theme
    makes every relative href absolute as its script starts, and the browser preloaded the
    manifest a second time, for nothing. A file requested twice in one load is such a waste."""
    page.goto(path)
    page.wait_for_load_state("networkidle")
    if path != "/model/":
        wait_rendered(page, path[1:])
    names = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    assert names and [n for n in set(names) if names.count(n) > 1] == []


FIRST_VIEW_BYTES = 1_500_000  # transferred, as a host that compresses text would send it
DATA_FILE_BYTES = 250_000


def test_first_view_stays_within_budget(page, page_log, site_dir):
    # Everything the opening page fetches until it settles (the neighbouring shards it prefetches
    # included), each file gzipped as a static host would send it.
    import gzip
    from urllib.parse import urlsplit, unquote, urlparse

    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_load_state("networkidle")
    sent = 0
    for url in set(page_log.requests):
        path = unquote(urlparse(url).path).lstrip("/")
        file = site_dir / (path + "index.html" if path == "" or path.endswith("/") else path)
        body = file.read_bytes()
        sent += len(gzip.compress(body, 6))
        if path.startswith("data/"):
            assert len(body) <= DATA_FILE_BYTES, path
    assert sent <= FIRST_VIEW_BYTES, f"first view sends {sent / 1e6:.2f} MB"


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(new_context, artifacts, width, scheme):
    context = new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto("/?batch=64")
    wait_rendered(page, "?batch=64")
    page.wait_for_function("() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")
    expected = "slate" if scheme == "dark" else "default"
    page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=expected)
    page.wait_for_function(f"sel => ({AXIS_LABEL_LUMINANCE})(sel) {'>' if scheme == 'dark' else '<'} 0.5", arg=LADDER)
    # Usable at phone width: nothing wider than the screen, sliders tall enough to grab.
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    heights = page.eval_on_selector_all("#simulation input[type=range]", "els => els.map(e => e.getBoundingClientRect().height)")
    # a phone keeps 44 px touch targets; a laptop's are slimmer so the panel fits its screen
    # (WCAG 2.5.8: at least 24 px)
    assert heights and min(heights) >= (40 if width < 600 else 24)
    # the window, not the whole essay: a full-page shot of a page this long cost seconds apiece
    page.screenshot(path=artifacts / f"essay-{width}-{scheme}.png")
    # Clipped from the full page rather than an element shot, which would show the sticky
    # header over the middle of the simulation.
    box = page.evaluate(
        "() => { const r = document.querySelector('#simulation').getBoundingClientRect();"
        " return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }"
    )
    page.screenshot(path=artifacts / f"simulation-{width}-{scheme}.png", full_page=True, clip=box)


def _python_tables(query: str) -> dict[str, list[list[str]]]:
    """Every state chart's data table at `query` as generator/chart_rows.py writes it."""
    from generator import chart_rows
    from generator.charts import CHARTS
    from generator.site_model import SiteModel
    from specmodel import default_catalog

    site = SiteModel(default_catalog())
    state = state_for(query)
    tables = {}
    for name in ("ladder", "throughput", "gamma", "iteration", "breakdown", "roofline", "acceptance", "closed_form",
                 "decision"):
        rows = chart_rows.chart_datasets(name, state, site)["table"]
        tables[name] = [[chart_rows.cell_text(row[c["key"]], c["format"]) for c in CHARTS[name].COLUMNS] for row in rows]
    return tables


def test_charts_and_their_tables_follow_the_state_as_python_computes_them(page, page_log):
    """rows.js against chart_rows.py, through the data tables the charts carry."""
    query = "?batch=64&context=4096&drafter=qwen3-1.7b&gamma=6&alpha=0.6&acceptance=same&workload=steady-state"
    expected = _python_tables(query)
    page.goto("/" + query)
    wait_rendered(page, query)
    read = """name => [...document.querySelectorAll(`#figure-${name} details.spec-table tbody tr`)]
                 .map(tr => [...tr.cells].map(td => td.textContent))"""
    on_page = [name for name in expected if page.locator(f"#figure-{name} details.spec-table").count()]
    assert "ladder" in on_page
    # The ladder's table follows at once; the other figures' once the state has rested (charts.js).
    page.wait_for_function(f"name => ({read})(name).join() === {json.dumps(','.join(','.join(r) for r in expected['ladder']))}", arg="ladder")
    page.wait_for_function("() => document.querySelector('.spec-chart[data-pending]') === null")
    for name in on_page:
        assert page.evaluate(read, name) == expected[name], name


@pytest.mark.parametrize("path", ["/", "/model/"])
def test_no_serious_accessibility_violations(new_context, path):
    """axe-core on the page as a reader leaves it, light and then dark: the palette switched with
    the theme's own toggle, as a reader switches it (one page load serves both)."""
    from axe_playwright_python.sync_playwright import Axe

    page = new_context(color_scheme="light").new_page()
    page.goto(path)
    page.wait_for_function("() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))")
    if path == "/":
        # A state the controls set (not the default), with the memory warning showing.
        wait_rendered(page, "")
        page.locator("#simulation select[name=drafter]").select_option("ngram")
        page.locator("#simulation input[name=batch]").fill("10")  # index 10: 1024 sequences
        page.locator("#simulation input[name=context]").fill("6")  # index 6: 32768 tokens
        wait_rendered(page, "?batch=1024&context=32768&drafter=ngram")
        assert page.locator("#simulation [data-warning=memory]").is_visible()
    # Every disclosure open: the data tables and the vLLM lines are checked too.
    page.wait_for_function("() => 'tablesFitted' in document.documentElement.dataset")
    page.eval_on_selector_all("details:not([open])", "els => els.forEach(d => { d.open = true; })")
    axe = Axe()
    serious = lambda response, label: [  # noqa: E731
        f"{label}: {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in response["violations"] if v["impact"] in ("serious", "critical")
    ]
    # Every rule but contrast once: the palettes change colours only.
    violations = serious(axe.run(page, options={"rules": {"color-contrast": {"enabled": False}}, "resultTypes": ["violations"]}).response, "both")
    # Contrast in each palette. Its pass is most of axe's time (a cell at a time): the data tables
    # share one style, so the first stands for the rest, and the charts' text has its own test in
    # both palettes (test_chart_text.py, every text element against the page at 4.5:1).
    page.eval_on_selector_all("details.spec-table", "els => els.slice(1).forEach(d => { d.dataset.axeSkip = ''; })")
    contrast = {"exclude": [[".spec-chart__view"], ["[data-axe-skip]"]]}
    for scheme in ("default", "slate"):
        if scheme == "slate":
            page.locator("form[data-md-component=palette] label:not([hidden])").click()
        page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=scheme)
        # Contrast is measured on what is painted: no transition (the readouts dim while loading,
        # the palette's colours fade) running.
        page.wait_for_function("() => document.getAnimations().length === 0")
        result = axe.run(page, context=contrast, options={"runOnly": {"type": "rule", "values": ["color-contrast"]}, "resultTypes": ["violations"]})
        assert result.response["passes"], "the contrast rule checked nothing"
        violations += serious(result.response, scheme)
    assert violations == []


def test_the_paste_answers_warnings_are_legible_in_both_palettes(new_context):
    """Found by a cold read: the answer's warnings (a scrape naming another model, an extrapolated
    configuration) were in the accent colour, read as links and fell under 4.5:1 contrast in both
    palettes. axe's contrast rule on the answer, light and dark."""
    from axe_playwright_python.sync_playwright import Axe

    page = new_context(color_scheme="light").new_page()
    page.goto("/?gpu=h200")
    wait_rendered(page, "?gpu=h200")
    # (a model the site lacks: one it has, the text names and the answer prices, unwarned)
    page.fill("#spec-metrics-text", (ROOT / "tests/data/metrics/prometheus-another-model.txt").read_text()
              .replace("meta-llama/Llama-3.3-70B-Instruct", "mistralai/Mistral-7B-v0.1"))
    page.click("[data-metrics-form] button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('[data-metrics-answer] .spec-metrics__warn').length >= 2")
    axe = Axe()
    problems = []
    for scheme in ("default", "slate"):
        if scheme == "slate":
            page.locator("form[data-md-component=palette] label:not([hidden])").click()
        page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=scheme)
        page.wait_for_function("() => document.getAnimations().length === 0")
        result = axe.run(page, context={"include": [["[data-metrics-answer]"]]},
                         options={"runOnly": {"type": "rule", "values": ["color-contrast"]}, "resultTypes": ["violations"]})
        assert result.response["passes"], "the contrast rule checked nothing"
        problems += [f"{scheme}: {[n['target'] for n in v['nodes']][:5]}" for v in result.response["violations"]]
        # and no warning takes the links' colour
        link, warn = page.evaluate("""() => [getComputedStyle(document.querySelector('article a[href]')).color,
          getComputedStyle(document.querySelector('[data-metrics-answer] .spec-metrics__warn')).color]""")
        if link == warn:
            problems.append(f"{scheme}: a warning in the links' colour {link}")
    assert problems == []


def test_the_pages_formats_never_write_a_speedup_that_is_not_one_as_one_and_keep_a_columns_unit(page, page_log):
    """Found once: "1.00×" for a speedup of 0.998 (a loss written as break-even), and "1.07 µs" in
    a table column of "10.12 ms". format.js, on the manifest's formats, writes what formats.py
    writes for the same values."""
    from generator.formats import format_cell, format_value
    page.goto("/")
    wait_rendered(page, "")
    speedups = [0.998, 1.002, 1.0, 0.9996, 0.994, 1.93, 1 - 1e-12]
    cells = [1.07e-6, 0.0, 0.000912, 0.01012, 0.0162813]
    # found by a cold read: a per-position acceptance of 0.00019 written "0.000" in a table
    rates = [0.00019, 0.0, 0.5, 2e-5]
    # a verify pass under 1 TFLOP in GFLOP, to three figures (found by a cold read: "0.03 TFLOP"
    # beside the command line's 0.0328)
    flops = [3.28e10, 8.2098e10, 9.996e11, 1.5e12]
    # a time under 1 ms, its next digit a 5, in µs as the prose and charts write it and in a
    # table's ms: one rounding (found by a cold read: "183 µs" on a chart over "0.182 ms")
    ties = [1.825e-4, 9.125e-6, 9.995e-4, 4.5e-7, 2.0015e-4, 1.0005e-5]
    written = page.evaluate("""async ([speedups, cells, rates, flops, ties]) => {
      const f = await import(new URL('javascripts/core/format.js', document.baseURI).href);
      const manifest = await (await fetch(new URL('data/manifest.json', document.baseURI))).json();
      f.useFormats(manifest.formats);
      return {times: speedups.map(v => f.format('times', v)), verdict: speedups.map(v => f.format('verdict', v)),
              cells: cells.map(v => f.formatCell('ms', v)), rates: rates.map(v => f.formatCell('num3', v)),
              flops: flops.map(v => f.format('tflop', v)), ties: ties.map(v => [f.format('ms', v), f.formatCell('ms', v)])};
    }""", [speedups, cells, rates, flops, ties])
    assert written["times"][:2] == ["0.998×", "1.002×"]
    assert written == {"times": [format_value("times", v) for v in speedups],
                       "verdict": [format_value("verdict", v) for v in speedups],
                       "cells": [format_cell("ms", v) for v in cells],
                       "rates": [format_cell("num3", v) for v in rates],
                       "flops": [format_value("tflop", v) for v in flops],
                       "ties": [[format_value("ms", v), format_cell("ms", v)] for v in ties]}
    assert written["rates"] == ["< 0.001", "0.000", "0.500", "< 0.001"]
    assert written["flops"][:2] == ["32.8\u00a0GFLOP", "82.1\u00a0GFLOP"], written["flops"]
    for text, cell in written["ties"]:
        if text.endswith("µs"):
            assert float(text.split()[0].replace(",", "")) == pytest.approx(1000 * float(cell.split()[0])), (text, cell)


def test_no_two_elements_share_an_id(page, page_log):
    """Found by a cold read: the theme named each code block of the simulation's vLLM view after
    the closest element with an id, "__code_simulation", three times. Every id is one element's,
    on both pages, once the theme and the page's scripts have run."""
    for path in ("/", "/model/"):
        page.goto(path)
        page.wait_for_function("() => document.querySelectorAll('pre[id^=\"__code_\"]').length > 0")
        repeated = page.evaluate("""() => { const seen = {}; for (const e of document.querySelectorAll('[id]')) seen[e.id] = (seen[e.id] || 0) + 1;
          return Object.entries(seen).filter(([, n]) => n > 1); }""")
        assert repeated == [], (path, repeated)
