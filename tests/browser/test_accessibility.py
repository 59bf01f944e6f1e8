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


# The colour behind an element's outline: the first opaque background among its ancestors, with any
# translucent ones above it laid over it; and the WCAG contrast ratio of two CSS colours.
CONTRAST = """
const rgba = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
const backdrop = (el) => {
  const layers = [];
  for (let e = el.parentElement; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) layers.push(c);
    if (c[3] >= 1) break;
  }
  return layers.reduceRight((below, layer) => over(layer, below), [255, 255, 255, 1]);
};
const luminance = (c) => { const l = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
"""

FOCUS_RING = "() => { const el = document.activeElement; const s = getComputedStyle(el);" + CONTRAST + """
  const bg = backdrop(el);
  return {style: s.outlineStyle, width: parseFloat(s.outlineWidth), shadow: s.boxShadow,
          contrast: s.outlineStyle === 'none' ? 0 : Math.round(100 * contrast(over(rgba(s.outlineColor), bg), bg)) / 100,
          visible: el.matches(':focus-visible')};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_control_shows_where_the_keyboard_is(new_context, scheme):
    """Tab onto each control of the simulation (both radio groups, the sliders, the menus, the
    buttons, the disclosures): it looks different focused than not, by a ring of at least 2 px
    that stands 3:1 against what is behind it, in either palette."""
    page = new_context(color_scheme=scheme).new_page()
    page.goto("/")
    wait_rendered(page, "")
    assert page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == ("slate" if scheme == "dark" else "default")
    page.focus("#simulation")
    kinds, problems = set(), []
    for _ in range(40):
        page.keyboard.press("Tab")
        control = page.evaluate_handle("() => document.activeElement")
        where = control.evaluate(
            "e => e.closest('#simulation') && !e.closest('[data-bar]') ? (e.type === 'radio' ? `radio ${e.name}` : e.type || e.tagName.toLowerCase()) : null"
        )
        if where is None:
            break
        kinds.add(where)
        label = control.evaluate("e => e.name || e.textContent.trim().slice(0, 40)")
        ring = page.evaluate(FOCUS_RING)
        # The picture of the control and 8 px round it (a ring is drawn outside the box).
        r = control.evaluate("e => e.getBoundingClientRect().toJSON()")
        around = {"x": r["x"] - 8, "y": r["y"] - 8, "width": r["width"] + 16, "height": r["height"] + 16}
        focused_shot = page.screenshot(clip=around, animations="disabled", caret="hide")
        control.evaluate("e => e.blur()")
        blurred_shot = page.screenshot(clip=around, animations="disabled", caret="hide")
        control.evaluate("e => e.focus()")  # Tab goes on from here
        if focused_shot == blurred_shot:
            problems.append(f"{where} {label!r}: looks the same focused and not")
        if not (ring["visible"] and ring["style"] != "none" and ring["width"] >= 2 and ring["contrast"] >= 3):
            problems.append(f"{where} {label!r}: focus ring {ring}")
    assert {"radio cost", "radio acceptance", "range", "select-one", "button", "summary"} <= kinds, kinds
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_themes_header_and_navigation_show_where_the_keyboard_is(new_context, scheme):
    """The same for what the theme draws outside the text: the header's links and the navigation's
    (once the browser's 1 px default, blue on the indigo header), from the top of the page by Tab."""
    page = new_context(color_scheme=scheme).new_page()
    page.goto("/")
    wait_rendered(page, "")
    seen, problems = [], []
    for _ in range(16):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => { const e = document.activeElement;
          const part = e.closest('.md-header') ? 'header' : e.closest('.md-sidebar') ? 'navigation' : null;
          return part && ['A', 'BUTTON', 'LABEL'].includes(e.tagName) ? [part, e.textContent.trim().slice(0, 30)] : null; }""")
        if where is None:
            continue
        seen.append(where[0])
        ring = page.evaluate(FOCUS_RING)
        if not (ring["visible"] and ring["style"] != "none" and ring["width"] >= 2 and ring["contrast"] >= 3):
            problems.append(f"{where}: focus ring {ring}")
    assert "header" in seen and seen.count("navigation") >= 5, seen
    assert problems == [], "\n".join(problems)


BOXES = """() => {
  const box = (e, out = 0) => { const r = e.getBoundingClientRect(); return {top: r.top - out, bottom: r.bottom + out, left: r.left - out, right: r.right + out}; };
  const el = document.activeElement, bar = document.querySelector('#simulation [data-bar]'), s = getComputedStyle(el);
  // the focused element with its focus ring, which is drawn outside its box
  const ring = s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth) + Math.max(0, parseFloat(s.outlineOffset));
  return {inText: !!el.closest('article') && !el.closest('#simulation'), text: el.textContent.trim().slice(0, 40), tag: el.tagName.toLowerCase(),
          el: box(el, ring), bar: bar.hidden ? null : box(bar), header: box(document.querySelector('.md-header')), y: scrollY};
}"""


def _overlap(a: dict, b: dict) -> bool:
    return a["top"] < b["bottom"] and b["top"] < a["bottom"] and a["left"] < b["right"] and b["left"] < a["right"]


def _walk(page, keys: list[str]) -> tuple[list[dict], list[str]]:
    """Press `keys` one by one; at each stop in the text (outside the simulation) the focused
    element and its ring are clear of the bar and of the header (BOXES). Returns the stops and
    what was hidden, as sentences."""
    stops, hidden = [], []
    for key in keys:
        page.keyboard.press(key)
        at = page.evaluate(BOXES)
        if not at["inText"]:
            continue
        assert at["bar"] is not None, f"{key} to {at['text']!r}: the bar went away"
        stops.append(at)
        el, room = at["el"], {**at["el"], "top": at["header"]["bottom"], "bottom": at["bar"]["top"]}
        if el["bottom"] - el["top"] > room["bottom"] - room["top"]:
            # Taller than the room between the two (a code block on a phone): cannot be clear of
            # both; it takes most of that room.
            shown = min(el["bottom"], room["bottom"]) - max(el["top"], room["top"])
            if shown < (room["bottom"] - room["top"]) / 2:
                hidden.append(f"{key} to {at['text']!r} at {round(el['top'])}–{round(el['bottom'])}: "
                              f"{round(shown)} px of it in the room between the header and the bar, {round(room['top'])}–{round(room['bottom'])}")
            continue
        for other in ("bar", "header"):
            if _overlap(el, at[other]):
                hidden.append(f"{key} to {at['text']!r} at {round(at['el']['top'])}–{round(at['el']['bottom'])}: "
                              f"behind the {other} at {round(at[other]['top'])}–{round(at[other]['bottom'])}")
    return stops, hidden


@pytest.mark.parametrize(("width", "height", "query"), [(1440, 900, ""), (375, 740, "?batch=1024")])
def test_what_has_focus_is_never_behind_the_bar_or_the_header(new_context, width, height, query):
    """With the bar showing (at ?batch=1024 with its "does not fit" badge, on a phone), Tab down
    through the essay's links below the simulation and Shift+Tab back up: the focused element is
    clear of the bar at the bottom and of the sticky header at the top, focus ring and all, at
    every stop (WCAG 2.4.11); one taller than the room between them takes most of it."""
    page = new_context(viewport={"width": width, "height": height}).new_page()
    page.goto("/" + query)
    wait_rendered(page, query)
    # Read past the simulation, to the first link a screen below it, 100 px under the header: the
    # bar shows, and keyboard focus starts at that link. (A link in a closed section has a box
    # laid out where it would be: found once, the simulation's own download link.)
    start = page.evaluate("""() => {
      const below = document.querySelector('#simulation').getBoundingClientRect().bottom + scrollY + innerHeight;
      const link = [...document.querySelectorAll('article a[href]')].find((a) => a.checkVisibility()
        && !a.closest('#simulation') && a.getBoundingClientRect().top + scrollY > below);
      scrollTo(0, link.getBoundingClientRect().top + scrollY - document.querySelector('.md-header').offsetHeight - 100);
      link.focus({ preventScroll: true });
      return scrollY;
    }""")
    page.wait_for_selector("#simulation [data-bar]:not([hidden])")
    if query:
        assert page.locator("#simulation [data-bar] [data-fit-note]").is_visible()
    stops, hidden = _walk(page, ["Tab"] * 50 + ["Shift+Tab"] * 50)
    # The walk went under the bar's edge and back up under the header's: the page scrolled both ways.
    ys = [s["y"] for s in stops]
    assert len(stops) >= 60 and max(ys) > start + height and min(ys) < max(ys) - height, (len(stops), start, min(ys), max(ys))
    assert hidden == [], "\n".join(hidden)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (375, 740)])
def test_the_paste_box_tabbed_to_is_clear_of_the_bar(new_context, width, height):
    """Found by a cold read: Tab to the paste box, at the bottom of the window, and the browser
    showed its caret, at its top, and left the rest of it, ring and all, under the bar. Every stop
    of the paste box's form, Tabbed to from the link above it and back, is clear of the bar."""
    page = new_context(viewport={"width": width, "height": height}).new_page()
    page.goto("/")
    wait_rendered(page, "")
    # The box's top (where its caret is) just above the bar, the rest of it under the bar, and
    # the focus on the link before it: the next Tab lands on the box.
    box = "document.querySelector('[data-metrics] textarea')"
    page.evaluate(f"() => scrollTo(0, {box}.getBoundingClientRect().top + scrollY - innerHeight / 2)")
    page.wait_for_selector("#simulation [data-bar]:not([hidden])")
    page.evaluate(f"""() => {{
      const box = {box}, bar = document.querySelector('#simulation [data-bar]');
      scrollBy(0, box.getBoundingClientRect().top - (bar.getBoundingClientRect().top - 40));
      const links = [...document.querySelectorAll('article a[href]')].filter((a) => a.checkVisibility()
        && (a.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING));
      links[links.length - 1].focus({{ preventScroll: true }});
    }}""")
    stops, hidden = _walk(page, ["Tab"] * 8 + ["Shift+Tab"] * 8)
    assert [s["tag"] for s in stops].count("textarea") == 2, [s["tag"] for s in stops]
    assert hidden == [], "\n".join(hidden)


def test_held_sideways_the_headline_is_one_line_and_the_ladder_fits_under_it(new_context):
    """Found by a cold read: at 740 × 360 the header and a two-line headline took 120 px, a third
    of the window, and the ladder could not be seen under its readout. One line, one height whether
    or not the state fits, and the ladder's plot (all but its title) fits below it."""
    page = new_context(viewport={"width": 740, "height": 360}, is_mobile=True, has_touch=True).new_page()
    heights = []
    for query in ("", "?batch=1024"):
        page.goto("/" + query)
        wait_rendered(page, query)
        page.locator("#figure-ladder").scroll_into_view_if_needed()
        # the ladder drawn live, its axes in place (under load it can follow the numbers by a
        # moment: found once in CI, measured with no axes at all)
        page.wait_for_function("() => document.querySelectorAll('#figure-ladder svg g.role-axis').length >= 2")
        got = page.evaluate("""() => {
          const h = document.querySelector('#simulation .spec-sim__headline');
          const detail = h.querySelector('.spec-sim__headline-detail').getBoundingClientRect();
          const speedup = h.querySelector('[data-readout=speedup]').getBoundingClientRect();
          // the plot with its axes: from the top of the y axis to the foot of the x axis
          const axes = [...document.querySelectorAll('#figure-ladder svg g.role-axis')].map((g) => g.getBoundingClientRect());
          const plot = Math.max(...axes.map((r) => r.bottom)) - Math.min(...axes.map((r) => r.top));
          return {bottom: h.getBoundingClientRect().bottom, height: h.getBoundingClientRect().height,
                  sameLine: Math.abs(detail.top - speedup.top) < speedup.height, plot, axes: axes.length};
        }""")
        assert got["sameLine"], got
        assert got["bottom"] <= 0.26 * 360, got  # header and headline: at most a quarter of the window
        assert got["axes"] >= 2 and got["plot"] <= 360 - got["bottom"], got
        heights.append(got["height"])
    assert heights[0] == heights[1]


@pytest.mark.parametrize("viewport", [{"width": 375, "height": 740}, {"width": 740, "height": 360}], ids=["upright", "sideways"])
def test_on_a_phone_focus_in_the_simulation_is_never_behind_its_headline(new_context, viewport):
    """On a phone the simulation keeps its verdict in a sticky headline under the header: Tab and
    Shift+Tab through its controls never leave the focused one (ring and all) under it. Held
    sideways too (found by a cold read: there the readouts were below the window's foot and no
    headline was shown, so moving α changed no number in sight)."""
    page = new_context(viewport=viewport).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.focus("#simulation input[name=alpha]")
    page.keyboard.press("ArrowLeft")
    wait_rendered(page, "?alpha=0.7")
    headline = page.locator("#simulation .spec-sim__headline [data-readout=speedup]")
    box = headline.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    assert headline.text_content() == page.locator("#simulation .spec-readout--speedup [data-readout=speedup]").text_content()
    # a readout scrolled into view (a link, a script) stops short of the headline, as focus does
    page.evaluate("document.querySelector('#simulation .spec-readout--speedup').scrollIntoView()")
    assert page.evaluate("""() => document.querySelector('#simulation .spec-readout--speedup').getBoundingClientRect().top
        >= document.querySelector('#simulation .spec-sim__headline').getBoundingClientRect().bottom""")
    page.focus("#simulation [data-action=reset]")
    stops, hidden = 0, []
    for key in ["Tab"] * 14 + ["Shift+Tab"] * 14:
        page.keyboard.press(key)
        at = page.evaluate("""() => {
          const el = document.activeElement, s = getComputedStyle(el), r = el.getBoundingClientRect();
          const ring = s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth) + Math.max(0, parseFloat(s.outlineOffset));
          const headline = document.querySelector('#simulation .spec-sim__headline').getBoundingClientRect();
          return {inMain: !!el.closest('#simulation') && !!el.closest('.spec-sim__headline ~ *') && !el.closest('[data-bar]'),
                  text: el.name || el.textContent.trim().slice(0, 40), top: r.top - ring, bottom: r.bottom + ring,
                  headline: [headline.top, headline.bottom]};
        }""")
        if not at["inMain"]:
            continue
        stops += 1
        top, bottom = at["headline"]
        if at["top"] < bottom and at["bottom"] > top:
            hidden.append(f"{key} to {at['text']!r} at {round(at['top'])}–{round(at['bottom'])}: under the headline at {round(top)}–{round(bottom)}")
    assert stops >= 20, stops
    assert hidden == [], "\n".join(hidden)


def test_a_data_tables_row_button_is_a_target_a_finger_can_hit(new_context):
    """Found by a cold read on a phone: the button that opens a ladder row's state was its number,
    8 × 22 px for "1". Every row button is at least 24 px each way (WCAG 2.5.8), 44 px where the
    pointer is coarse."""
    page = new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function("() => document.querySelectorAll('.spec-table__open').length > 0")
    sizes, coarse = page.evaluate("""() => {
      for (const d of document.querySelectorAll('article details')) d.open = true;
      return [[...document.querySelectorAll('.spec-table__open')].map((b) => {
        const r = b.getBoundingClientRect(); return [b.textContent, r.width, r.height]; }),
        matchMedia('(pointer: coarse)').matches];
    }""")
    least = 44 if coarse else 24
    assert len(sizes) >= 11
    small = [(t, round(w), round(h)) for t, w, h in sizes if w < least - 0.5 or h < least - 0.5]
    assert small == [], (least, small)


def test_the_decision_maps_cells_are_targets_a_finger_can_hit(new_context):
    """Found by a cold read on a phone: the decision map's cells, each a link to its state, were
    33 x 23 px. Each is at least 24 px each way (WCAG 2.5.8's minimum target size), and the key
    to their colours comes before them."""
    page = new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True).new_page()
    page.goto("/")
    wait_rendered(page, "")
    cells = ".spec-chart[data-chart=decision] .spec-chart__view svg .mark-rect path"
    page.wait_for_function("sel => document.querySelectorAll(sel).length > 0", arg=cells, timeout=60_000)
    sizes = page.evaluate("""sel => [...document.querySelectorAll(sel)].map((p) => p.getBoundingClientRect())
      .filter((r) => r.width > 0).map((r) => [r.width, r.height])""", cells)
    assert len(sizes) >= 3 * 7 * 11
    assert min(min(w, h) for w, h in sizes) >= 24, (min(w for w, _ in sizes), min(h for _, h in sizes))
    # its colour key sits above the first map, not two screens below it under the third (found by
    # a cold read on a phone)
    legend_bottom, first_cell_top = page.evaluate("""sel => [
      document.querySelector('.spec-chart[data-chart=decision] .spec-chart__view svg .role-legend').getBoundingClientRect().bottom,
      Math.min(...[...document.querySelectorAll(sel)].map((p) => p.getBoundingClientRect().top))]""", cells)
    assert legend_bottom <= first_cell_top, (legend_bottom, first_cell_top)


def test_a_tap_anywhere_on_a_data_tables_card_opens_its_state(new_context):
    """Found by a cold read on a phone: a data table shown as cards set the state only from the
    number in each card's first cell; a tap on the rest of the card did nothing."""
    page = new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.evaluate("() => { for (const d of document.querySelectorAll('article details')) d.open = true; }")
    page.wait_for_function("() => document.querySelector('table[data-cards] .spec-table__open') !== null")
    box = page.evaluate("""() => {
      const button = [...document.querySelectorAll('table[data-cards] .spec-table__open')].find((b) => b.textContent.trim() === '64');
      const row = button.closest('tr'); row.scrollIntoView({block: 'center'});
      const r = row.getBoundingClientRect(), b = button.getBoundingClientRect();
      return {x: r.right - 12, y: r.bottom - 12, far: r.bottom - 12 > b.bottom || r.right - 12 > b.right};
    }""")
    assert box["far"]
    page.touchscreen.tap(box["x"], box["y"])
    page.wait_for_function("() => location.search.includes('batch=64')")


def test_the_navigation_drawer_opens_while_the_keyboard_is_in_it(new_context):
    """Found by a cold read at 768 px: Tab walked through the theme's navigation drawer while it
    sat closed, off screen, 32 presses with the focus nowhere in sight. Where the navigation is a
    drawer, it opens as the keyboard enters it, every stop in it is on screen, and it closes as
    the keyboard leaves it. Found by the next: it opened blank while Tab walked the table of
    contents, a panel of its own the theme had not slid in; every stop is now seen, once the
    theme's slide is over."""
    page = new_context(viewport={"width": 768, "height": 1024}).new_page()
    page.goto("/")
    wait_rendered(page, "")
    at = """() => { const el = document.activeElement, r = el.getBoundingClientRect();
      return {inDrawer: !!el.closest('.md-sidebar--primary'), open: document.querySelector('#__drawer').checked,
              onScreen: r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight}; }"""
    # seen: neither the drawer's panel it sits in nor anything between is transparent, and it is
    # within the drawer's width (the panel not slid in: opacity 0, to the drawer's right)
    seen = """() => { const el = document.activeElement, drawer = el.closest('.md-sidebar--primary');
      if (!drawer) return true;
      let opacity = 1;
      for (let e = el; e !== drawer; e = e.parentElement) opacity *= +getComputedStyle(e).opacity;
      const r = el.getBoundingClientRect(), d = drawer.getBoundingClientRect();
      return opacity === 1 && r.left >= d.left - 1 && r.right <= d.right + 1 && d.left >= 0; }"""
    stops, panel = [], 0
    for _ in range(80):
        page.keyboard.press("Tab")
        page.wait_for_function(seen)
        stops.append(page.evaluate(at))
        panel += page.evaluate("() => !!document.activeElement.closest('.md-sidebar--primary .md-nav--secondary')")
        if len(stops) > 1 and stops[-2]["inDrawer"] and not stops[-1]["inDrawer"]:
            break
    drawer = [s for s in stops if s["inDrawer"]]
    assert len(drawer) >= 10, stops
    assert all(s["open"] for s in drawer), stops
    assert panel >= 10, panel  # the table of contents' links are among them
    assert not stops[-1]["inDrawer"] and not page.evaluate("() => document.querySelector('#__drawer').checked")
    # back into it: open again, and its stop, once the drawer has slid in (the theme's CSS), on screen
    page.keyboard.press("Shift+Tab")
    page.wait_for_function(f"() => JSON.stringify(({at})()) === JSON.stringify({{inDrawer: true, open: true, onScreen: true}})")


@pytest.mark.parametrize("scheme, shown, other", [("dark", "slate", "default"), ("light", "default", "slate")])
def test_the_theme_toggle_is_reached_and_switched_by_keyboard_in_either_theme(new_context, scheme, shown, other):
    """Found by a cold read: where the palette follows the system's, the theme checks neither of
    its toggle's radios, so Tab reached the first whatever the palette: in dark, a stop with no
    ring named "Switch to dark mode" whose Space switched to light; in light, Space did nothing.
    Tab reaches the radio of the palette shown, whose label (the one drawn) names the other, and
    Space switches to it, the focus kept on the toggle drawn."""
    page = new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme).new_page()
    page.goto("/")
    wait_rendered(page, "")
    at = """() => { const el = document.activeElement, label = el.nextElementSibling;
      return {palette: !!el.closest('[data-md-component=palette]'), checked: el.checked,
              labelShown: label instanceof HTMLLabelElement && !label.hidden, name: el.getAttribute('aria-label'),
              scheme: document.body.dataset.mdColorScheme}; }"""
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate(at)["palette"]:
            break
    names = {"slate": "Switch to light mode", "default": "Switch to dark mode"}
    assert page.evaluate(at) == {"palette": True, "checked": True, "labelShown": True, "name": names[shown],
                                 "scheme": shown}
    page.keyboard.press("Space")
    page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=other)
    assert page.evaluate(at) == {"palette": True, "checked": True, "labelShown": True, "name": names[other],
                                 "scheme": other}
