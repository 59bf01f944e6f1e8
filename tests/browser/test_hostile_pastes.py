"""Hostile and malformed pastes: the paste box reads text a reader controls. Nothing from it is
ever HTML; text that is not metrics gets one sentence with an example; broken numbers, restarted
counters and odd characters get what can be said; numbers that cannot be are refused by name and
leave the simulation alone; a 10 MB paste is read, a larger one refused."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .site_helpers import current_query, wait_rendered

pytestmark = pytest.mark.browser

DATA_LINE = ("SpecDecoding metrics: Mean acceptance length: 2.16, Accepted throughput: 116.40 tokens/s, Drafted "
             "throughput: 300.00 tokens/s, Accepted: 1164 tokens, Drafted: 3000 tokens, Per-position acceptance "
             "rate: 0.543, 0.357, 0.264, Avg Draft acceptance rate: 38.8%")


@pytest.fixture
def home(page, page_log):
    page.goto("/")
    wait_rendered(page, "")
    return page


def _read(page, text: str) -> str:
    page.fill("#spec-metrics-text", text)
    page.click("[data-metrics-form] button[type=submit]")
    page.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent !== ''")
    return page.locator("[data-metrics-status]").inner_text()


def _wait_read(page) -> str:
    page.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.startsWith('Read ')")
    return page.locator("[data-metrics-status]").inner_text()


MALFORMED = [
    # a restart: read from the last scrape (its note is among what the text says: expected.json),
    # which has no per-position counters
    ("vllm:spec_decode_num_drafts_total 1000\nvllm:spec_decode_num_drafts_total 10\n", "cannot be fitted"),
    ("vllm:spec_decode_num_drafts_total{engine=\"0\"} banana\n",
     "These numbers cannot be: vllm:spec_decode_num_drafts_total: 'banana' is not a number"),
    ("SpecDecoding metrics: Mean acceptance length: nan, Per-position acceptance rate: nan, nan", "Read "),
    ("SpecDecoding metrics: Per-position acceptance rate: 0.5\u200b, 0.25 \U0001f680", "Read "),
    ("Speculative metrics: Draft acceptance rate: 0.500, Number of speculative tokens: 0", "cannot be fitted"),
    # a scrape cut inside its last sample (found by a cold read: refused for numbers that cannot be)
    ((Path(__file__).parents[1] / "data" / "metrics" / "prometheus-one.txt").read_text()[:1500],
     "the scrape is cut off before its end (its last line ends '…s_total{engine=\"0\",model_name='); give whole scrapes"),
    # cut after the per-position counter's "# TYPE" line (found by a cold read: told vLLM before 0.8.5)
    ("".join((Path(__file__).parents[1] / "data" / "metrics" / "prometheus-one.txt").read_text().splitlines(True)[:17]),
     "the scrape declares spec_decode_num_accepted_tokens_per_pos but holds none of its samples"),
]


def test_malformed_pastes_get_what_can_be_said(home):
    # one after another in one box, as a reader would try them, cleared in between
    for text, says in MALFORMED:
        home.click("[data-action=metrics-clear]")
        assert says in _read(home, text), text


def test_text_that_is_not_metrics_gets_one_sentence_with_an_example(home):
    home.fill("#spec-metrics-text", "hello\nGET /health 200")
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.startsWith('Nothing')")
    status = home.locator("[data-metrics-status]").inner_text()
    assert "for example: SpecDecoding metrics: Mean acceptance length: 2.16" in status
    assert home.locator("[data-metrics-result]").is_hidden()


def test_pasted_markup_is_never_html(home):
    hostile = ('<img src=x onerror="window.__pwned=1"><b id=injected>x</b> SpecDecoding metrics: Mean acceptance '
               'length: 1.50, Accepted: 50 tokens, Drafted: 200 tokens, Per-position acceptance rate: 0.300, 0.150, '
               'Avg Draft acceptance rate: 22.5% <img src=y onerror="window.__pwned=2">')
    home.fill("#spec-metrics-text", hostile)
    home.click("[data-metrics-form] button[type=submit]")
    _wait_read(home)
    assert home.evaluate("() => window.__pwned") is None
    assert home.locator("[data-metrics] img, #injected").count() == 0
    # markup where a rate belongs is refused, and quoted as text (a cold read found it dropped unsaid)
    home.fill("#spec-metrics-text", hostile.replace("Avg Draft acceptance rate: 22.5% ", ""))
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.startsWith('These numbers cannot be')")
    assert "position 3, '<img src=y onerror=" in home.locator("[data-metrics-status]").inner_text()
    assert home.evaluate("() => window.__pwned") is None
    assert home.locator("[data-metrics] img, #injected").count() == 0
    hostile_source = '<svg onload="window.__pwned=3">:spec_decode_num_drafts_total 5'
    home.fill("#spec-metrics-text", hostile_source)
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.startsWith('Nothing')")
    assert home.evaluate("() => window.__pwned") is None and home.locator("[data-metrics] svg").count() == 0


def test_a_ten_megabyte_paste_is_read_and_a_larger_one_refused(home):
    # Set directly: typing 10 MB would test Playwright, not the page. Lines of 1 kB: the time a
    # textarea takes to give up its value grows with its number of lines, and 160,000 short
    # lines would spend most of this test inside Chromium's text editing, not in the page.
    noise = "INFO 11-30 loggers.py Avg generation throughput: 410.2 tokens/s " + "." * 935 + "\n"
    length = home.evaluate("""([noise, line]) => {
      const t = document.querySelector('#spec-metrics-text');
      t.value = noise.repeat(10_000) + line;
      return t.value.length;
    }""", [noise, DATA_LINE + "\n"])
    assert length > 10_000_000
    home.click("[data-metrics-form] button[type=submit]")
    assert "rising with position" in _wait_read(home)
    home.evaluate("() => { document.querySelector('#spec-metrics-text').value = ('x'.repeat(999) + '\\n').repeat(20_000) + 'x'; }")
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.includes('20,000,000')")


DATA = Path(__file__).resolve().parents[1] / "data" / "metrics"
IMPOSSIBLE = json.loads((DATA / "impossible.json").read_text())["cases"]
REFUSED = "These numbers cannot be: "
# numbers that may well be real, past what the model prices (γ, batch): the model's limit, said so
BEYOND = "The model does not go this far: "


def _prefix(case: dict) -> str:
    return BEYOND if case.get("beyond_model") else REFUSED


def _refused(page, text: str, prefix: str = REFUSED) -> str:
    """Paste `text` and read it; the box must refuse it. The URL, the history and the simulation
    must be as they were: checked after two frames, time enough for a read to apply a state."""
    state = "[location.search, history.length, document.querySelector('#simulation').dataset.rendered]"
    before = page.evaluate(f"() => {state}")
    page.fill("#spec-metrics-text", text)
    page.click("[data-metrics-form] button[type=submit]")
    page.wait_for_function("p => document.querySelector('[data-metrics-status]').textContent.startsWith(p)",
                           arg=prefix)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    after = page.evaluate(f"() => [...{state}, document.querySelector('#simulation').getAttribute('aria-busy')]")
    assert after[:3] == before and after[3] != "true", (text, before, after)
    # no fit, no answer, no flag: the result is hidden, nothing of it on screen
    assert page.locator("[data-metrics-result]").is_hidden()
    assert page.locator("[data-metrics] pre code:visible, [data-metrics] table:visible").count() == 0
    return page.locator("[data-metrics-status]").inner_text()


COLD_READ = ("A: more accepted tokens than drafted, one scrape",
             "B: a mean acceptance length that is not a number, then impossible rates", "C: a NaN counter among HTML")


@pytest.mark.parametrize("case", [c for c in IMPOSSIBLE if c["case"] in COLD_READ], ids=lambda c: c["case"][:1])
def test_numbers_that_cannot_be_are_refused_and_the_simulation_stays(home, case):
    """Found by a cold read: 500 accepted of 300 drafted fitted α = 0.95 and set the simulation to
    it with a flag; a per-position rate of 1.5 was read and the positions after it dropped; a NaN
    counter was read as "no drafts"."""
    status = _refused(home, case["text"])
    assert status.startswith(f"{REFUSED}{case['field']}: "), status
    assert f"; allowed: {case['allowed']}" in status and status.endswith(
        "Nothing was fitted; the simulation was left as it was.")
    assert "\n" not in status and "×" not in status and "--speculative-config" not in status
    assert current_query(home) == ""
    assert home.evaluate("() => window.__pwned") is None  # the HTML around case C is text, never markup


def test_after_a_fit_an_impossible_paste_leaves_the_fitted_simulation_alone(home):
    # the example moves the simulation to its fit; every impossible text then leaves it there
    home.click("[data-action=metrics-example]")
    _wait_read(home)
    fitted = current_query(home)
    assert "gamma=3" in fitted and "alpha=0.5" in fitted
    for case in IMPOSSIBLE:
        status = _refused(home, case["text"], _prefix(case))
        assert status.startswith(f"{_prefix(case)}{case['field']}: ") and case["allowed"] in status, (case["case"], status)
        assert case.get("problem", "") in status, (case["case"], status)
        assert current_query(home) == fitted
    wait_rendered(home, fitted)
    # and a possible text is read again as before
    home.fill("#spec-metrics-text", DATA_LINE)
    home.click("[data-metrics-form] button[type=submit]")
    assert "rising with position" in _wait_read(home)
