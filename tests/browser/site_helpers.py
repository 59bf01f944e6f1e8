"""Reading the simulation's state and readouts off the page, and what the model says they are."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from generator.axes import site_state
from specmodel import evaluate

# The built site; SITE_DIR points the tests at another build (a copy, a release candidate).
SITE = Path(os.environ.get("SITE_DIR") or Path(__file__).resolve().parents[2] / "site")
# The data files round every number to 4 significant digits: half a unit in the 4th digit is at
# most 5e-4 of the value.
REL_TOL = 5.0001e-4


def manifest() -> dict:
    return json.loads((SITE / "data" / "manifest.json").read_text(encoding="utf-8"))


# Set by the configuration the reader picks (GPU and target), not by a control of its own: a URL
# may still carry it.
DERIVED = ("tp",)


def _state_fields() -> list[dict]:
    """The state fields that take more than one value, each with its URL key."""
    m = manifest()
    return [s for s in m["state"] if len(m["axes"][s["name"]]) > 1]


def _controls() -> list[dict]:
    """The state fields a reader can change with a control, each with its URL key, which is also
    its control's name."""
    return [s for s in _state_fields() if s["name"] not in DERIVED]


# The URL keys of the state a link can set, and the names of the controls a reader can move.
KEYS = tuple(s["key"] for s in _state_fields())
CONTROL_KEYS = tuple(s["key"] for s in _controls())


def names_by_key() -> dict[str, str]:
    """The state field each URL query key sets."""
    return {s["key"]: s["name"] for s in manifest()["state"]}


def state_for(query: str) -> dict:
    """The defaults with the keys of `query` ("batch=64&…", valid values only) applied."""
    m = manifest()
    state = dict(m["defaults"])
    names = names_by_key()
    for key, raw in parse_qsl(query.lstrip("?")):
        name = names[key]
        axis = m["axes"][name]
        state[name] = type(axis[0])(raw) if isinstance(axis[0], (int, float)) else raw
    return state


def wait_rendered(page, query: str, timeout: float = 15_000) -> None:
    """Until the simulation shows the state of `query` ("" for the defaults, else "?…").

    On a timeout, says what the page shows instead (a bare TimeoutError tells nothing)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            "q => document.querySelector('#simulation')?.dataset.rendered === q", arg=query, timeout=timeout
        )
    except PlaywrightTimeout:
        shown = page.evaluate(
            """() => { const sim = document.querySelector('#simulation');
                 return sim && {rendered: sim.dataset.rendered ?? null, busy: sim.getAttribute('aria-busy'),
                   notes: sim.querySelector('[data-notes]')?.textContent, url: location.href}; }"""
        )
        raise AssertionError(f"the simulation never showed {query!r}; the page shows {shown}") from None


def show(page, query: str) -> None:
    """The page at `query` ("" or "?…"), shown as Back and Forward show it: the address changes
    and the page hears a popstate. For tests of what a state shows, not of a page load: a fresh
    load draws every chart again (a second or more of a 2-core machine each)."""
    page.evaluate("(url) => { history.pushState(null, '', url); dispatchEvent(new PopStateEvent('popstate', {state: null})); }",
                  page.evaluate("() => location.pathname") + query)
    wait_rendered(page, query)


def scroll_settled(page) -> None:
    """Until a smooth scroll has ended: the same offset over ten frames."""
    page.wait_for_function("""() => new Promise((done) => {
      let last = -1, same = 0;
      const step = () => { same = scrollY === last ? same + 1 : 0; last = scrollY;
        if (same >= 10) done(true); else requestAnimationFrame(step); };
      requestAnimationFrame(step);
    })""")


def after_paint(page) -> None:
    """Until two frames have been drawn: what the reader sees. A position read in between is one
    the page corrects before the frame is painted (a ResizeObserver or scroll handler runs in the
    frame's update; Back's scroll restoration lands in the frame after popstate)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def page_readouts(page) -> dict[str, str]:
    """data-value of every readout in the simulation, by key (duplicates must agree)."""
    pairs = page.eval_on_selector_all(
        "#simulation [data-readout]", "els => els.map(e => [e.dataset.readout, e.dataset.value])"
    )
    values: dict[str, str] = {}
    for key, value in pairs:
        assert values.get(key, value) == value, f"two {key} readouts disagree: {values[key]} vs {value}"
        values[key] = value
    return values


def model_readouts(state: dict) -> dict:
    return evaluate(site_state(**state)).as_dict()


def mismatches(page, state: dict) -> list[str]:
    """Readouts whose data-value is not the model's value at `state` to 4 significant digits."""
    model = model_readouts(state)
    bad = []
    shown = page_readouts(page)
    assert len(shown) >= 15, f"expected the simulation's readouts, found {sorted(shown)}"
    for key, text in shown.items():
        if key not in model:
            continue  # a page field that is not one of specmodel's readouts (the GPU's memory, …)
        expected = model[key]
        got = json.loads(text)
        if isinstance(expected, (list, tuple)):
            ok = len(got) == len(expected) and all(
                math.isclose(g, e, rel_tol=REL_TOL, abs_tol=1e-12) for g, e in zip(got, expected)
            )
        else:
            ok = math.isclose(float(got), float(expected), rel_tol=REL_TOL, abs_tol=1e-12)
        if not ok:
            bad.append(f"{key}: page {text}, model {expected!r}")
    return bad


def control_values(page) -> dict[str, str]:
    """What each control shows (raw), by state field."""
    return page.evaluate(
        """(controls) => {
          const form = document.querySelector('#simulation form');
          const out = {};
          for (const {name, key} of controls) out[name] = form.elements.namedItem(key).value;
          return out;
        }""",
        _controls(),
    )


def controls_state(page) -> dict:
    return state_of_controls(control_values(page))


def state_of_controls(raw: dict[str, str]) -> dict:
    """control_values() as axis values; a field without a control is at its default, the number
    of GPUs at its configuration's."""
    m = manifest()
    state = dict(m["defaults"])
    for key, value in raw.items():
        axis = m["axes"][key]
        if key in ("batch", "context"):
            state[key] = axis[int(value)]
        elif isinstance(axis[0], (int, float)):
            state[key] = type(axis[0])(value)
        else:
            state[key] = value
    config = next((c for c in m["configurations"] if (c["gpu"], c["target"]) == (state["gpu"], state["target"])), None)
    if config:
        state["tp"] = config["tp"]
    return state


def constrain(state: dict) -> dict:
    """The state the page shows for ``state``: its configuration's number of GPUs, and each field
    its configuration holds no data for moved to the default (or the configuration's first value)."""
    m = manifest()
    out = dict(state)
    config = next(c for c in m["configurations"] if (c["gpu"], c["target"]) == (out["gpu"], out["target"]))
    out["tp"] = config["tp"]
    for name, values in config["axes"].items():
        if out[name] not in values:
            out[name] = m["defaults"][name] if m["defaults"][name] in values else values[0]
    return out


def current_query(page) -> str:
    return page.evaluate("() => location.search")


def query_of(state: dict) -> str:
    """What the page writes to the URL for `state`: non-default keys in the manifest's order."""
    m = manifest()
    pairs = [(s["key"], str(state[s["name"]])) for s in m["state"] if state[s["name"]] != m["defaults"][s["name"]]]
    return "?" + urlencode(pairs) if pairs else ""


# An init script (context.add_init_script), so it runs before any of the page's own: records
# every Content-Security-Policy violation the page meets. A blocked injected script or handler
# shows up here too.
CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


def csp_violations(page) -> list[str]:
    return page.evaluate("() => window.__cspViolations ?? ['CSP_WATCH was not installed']")
