"""Keyboard, screen readers and the Content-Security-Policy at run time: every control is
reached by Tab, named, and operated by arrow keys; the spoken summary comes once a burst of
input settles; every chart is described and has a table; the pages meet no CSP violation and
request nothing outside the site, in either palette."""
from __future__ import annotations

import re

import pytest

from .conftest import ROOT

from .site_helpers import CONTROL_KEYS as KEYS, CSP_WATCH, constrain, controls_state, manifest, names_by_key, query_of, wait_rendered

pytestmark = pytest.mark.browser

ALL_LIVE = "() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))"


def focused(page, cdp) -> dict:
    """The focused element: where it is, and its role and accessible name as Chromium computes
    them for assistive technology (the accessibility tree, not a guess from the DOM)."""
    handle = cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})["result"]
    node = cdp.send("Accessibility.getPartialAXTree", {"objectId": handle["objectId"], "fetchRelatives": False})["nodes"][0]
    where = page.evaluate(
        "() => { const el = document.activeElement;"
        " return {inSim: !!el.closest('#simulation'), tag: el.tagName, name: el.getAttribute('name')}; }"
    )
    return {**where, "role": node.get("role", {}).get("value"), "label": node.get("name", {}).get("value", "")}


def test_keyboard_reaches_names_and_operates_every_control(page, page_log, context):
    page.goto("/")
    wait_rendered(page, "")
    cdp = context.new_cdp_session(page)
    # Tab from the top of the simulation to the first thing after it.
    page.focus("#simulation")
    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stop = focused(page, cdp)
        if not stop["inSim"]:
            break
        stops.append(stop)
    unnamed = [s for s in stops if not s["label"].strip()]
    assert unnamed == [], f"focusable without an accessible name: {unnamed}"
    assert {s["name"] for s in stops} >= set(KEYS), f"controls Tab does not reach: {set(KEYS) - {s['name'] for s in stops}}"
    assert {"Copy link to these settings", "Reset"} <= {s["label"] for s in stops}

    # Arrow keys operate every control and change the state (and the URL).
    state = dict(manifest()["defaults"])
    axes = manifest()["axes"]
    names = names_by_key()
    # the GPU and the target last: away from the default configuration fewer values are offered
    configuration_keys = [k for k in KEYS if names[k] in ("gpu", "target")]
    for key in [k for k in KEYS if k not in configuration_keys] + configuration_keys:
        name = names[key]
        # A radio group is one Tab stop: its checked radio takes the keys.
        radios = page.locator(f"#simulation input[type=radio][name={key}]").count() > 0
        control = page.locator(f"#simulation [name={key}]" + (":checked" if radios else ""))
        control.focus()
        i = axes[name].index(state[name])
        forward = i < len(axes[name]) - 1
        if control.get_attribute("type") == "range":
            page.keyboard.press("ArrowRight" if forward else "ArrowLeft")
        else:  # a select or a radio group
            page.keyboard.press("ArrowDown" if forward else "ArrowUp")
        state = constrain({**state, name: axes[name][i + 1 if forward else i - 1]})
        wait_rendered(page, query_of(state))
        assert controls_state(page) == state, key


# Live regions in the simulation as assistive technology sees them: explicit ones, and the
# implicit ones (role status; <output> is one unless told otherwise).
LIVE_REGIONS = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log], output:not([aria-live=off])"


ANNOUNCE_DELAY_MS = 500  # views/announce.js


def test_the_summary_is_spoken_once_after_a_burst_of_input(page, page_log):
    page.goto("/")
    wait_rendered(page, "")
    status = page.locator("#simulation [data-status]")
    assert status.get_attribute("aria-live") == "polite"
    page.evaluate(
        """(selector) => {
          window.__announcements = [];
          for (const region of document.querySelectorAll(`#simulation :is(${selector})`)) {
            const what = region.matches('[data-status]') ? 'summary' : region.outerHTML.slice(0, 80);
            new MutationObserver(() => window.__announcements.push(what))
              .observe(region, { childList: true, characterData: true, subtree: true });
          }
        }""",
        LIVE_REGIONS,
    )
    slider = page.locator("#simulation input[name=batch]")
    slider.evaluate("s => { window.__inputs = []; s.addEventListener('input', () => window.__inputs.push(performance.now())); }")
    slider.focus()
    for _ in range(10):  # a burst: ten steps, each an input and a change event
        slider.press("ArrowRight")
    wait_rendered(page, "?batch=1024")
    page.wait_for_function("() => document.querySelector('#simulation [data-status]').textContent.includes('1,024')")
    # Anything still due would come within the announcement delay (announce.js ANNOUNCE_DELAY_MS).
    page.wait_for_timeout(1000)
    # One summary for the burst. On a loaded machine a key can come more than the delay after the
    # last: that pause ends a burst, and its summary may be due then (a reader who pauses is told),
    # or not, if the key's input event ran before the overdue timer (input goes first).
    assert f"ANNOUNCE_DELAY_MS = {ANNOUNCE_DELAY_MS};" in (ROOT / "docs/javascripts/views/announce.js").read_text()
    inputs = page.evaluate("() => window.__inputs")
    assert len(inputs) == 10
    gaps = [b - a for a, b in zip(inputs, inputs[1:])]
    pauses = range(1, 2 + sum(g > ANNOUNCE_DELAY_MS - 30 for g in gaps))
    announced = page.evaluate("() => window.__announcements")
    assert set(announced) == {"summary"} and len(announced) in pauses, (announced, [round(g) for g in gaps])


def test_every_chart_is_described_and_has_a_table(page, page_log):
    page.goto("/")
    page.wait_for_function(ALL_LIVE)
    charts = page.eval_on_selector_all(
        ".spec-chart[data-chart]",
        """els => els.map((el) => ({
          name: el.dataset.chart,
          alt: el.querySelector('img')?.alt ?? '',
          description: el.querySelector('[role=graphics-document]')?.getAttribute('aria-label') ?? '',
          caption: el.closest('figure')?.querySelector('figcaption')?.textContent.trim() ?? '',
          rows: el.closest('figure')?.querySelectorAll('details.spec-table tbody tr').length ?? 0,
        }))""",
    )
    assert len(charts) >= 9
    for chart in charts:
        assert chart["alt"] and chart["description"] and chart["caption"] and chart["rows"] > 0, chart


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_csp_violation_at_run_time(new_context, scheme):
    """Both pages, their charts drawn, a control moved, every disclosure opened, an instant
    navigation there and back: not one CSP violation (new_context checks requests and console)."""
    context = new_context(color_scheme=scheme)
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function(ALL_LIVE)
    page.locator("#simulation select[name=drafter]").select_option("ngram")
    wait_rendered(page, "?drafter=ngram")
    page.eval_on_selector_all("details:not([open])", "els => els.forEach(d => { d.open = true; })")
    page.locator(".md-nav__link", has_text="The model").first.click()
    page.wait_for_url(re.compile(r"/model/(\?[^#]*)?$"))  # the state travels in the query
    page.wait_for_function("() => document.querySelector('article h1')?.textContent.includes('The model')")
    page.go_back()
    wait_rendered(page, "?drafter=ngram")
    assert page.evaluate("() => window.__cspViolations") == []
    page.goto("/model/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => window.__cspViolations") == []
