"""Other GPUs and targets: a link opens a non-default configuration and its readouts are the
command line's; the drafter menu follows the target; a misspelled GPU or target, or a tensor
parallelism the configuration does not use, falls back and says so; the extrapolation is said."""
from __future__ import annotations

import json

import pytest

from cli_run import specmodel

from .site_helpers import controls_state, current_query, manifest, page_readouts, query_of, wait_rendered

pytestmark = pytest.mark.browser

# readouts of the simulation and the CLI's JSON key for each
COMPARED = ("speedup", "spec_tokens_per_s", "plain_tokens_per_s", "mean_acceptance_length", "draft_time_share",
            "arithmetic_ratio", "verify_bytes", "memory_required_bytes")


def _cli(state: dict) -> dict:
    args = ["evaluate", "--json", "--ignore-memory"]
    for name, option in (("gpu", "--gpu"), ("target", "--target"), ("tp", "--tp"), ("cost_model", "--cost-model"),
                         ("batch", "--batch"), ("context", "--context"), ("drafter", "--drafter"),
                         ("gamma", "--gamma"), ("alpha", "--alpha"), ("acceptance", "--acceptance"),
                         ("workload", "--workload")):
        args += [option, str(state[name])]
    out = specmodel(*args)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("changes", [
    {"gpu": "h200", "target": "llama-3.3-70b-instruct", "tp": 2, "drafter": "eagle3", "batch": 16},
    {"gpu": "h100-sxm", "target": "qwen3-30b-a3b", "tp": 2, "drafter": "eagle3", "gamma": 2, "batch": 4},
    {"gpu": "l40s", "target": "llama-3.1-8b-instruct", "tp": 1, "drafter": "llama-3.2-1b", "alpha": 0.6},
])
def test_a_link_opens_another_configuration_with_the_clis_numbers(page, page_log, changes):
    state = {**manifest()["defaults"], **changes}
    query = query_of(state)
    page.goto("/" + query)
    wait_rendered(page, query)
    assert controls_state(page) == state
    shown, cli = page_readouts(page), _cli(state)
    for key in COMPARED:
        assert float(shown[key]) == pytest.approx(cli[key], rel=5.0001e-4), key
    # the calibrated constants are carried to this GPU or target: the page says so, in words
    note = page.locator("#simulation [data-extrapolation]")
    assert note.is_visible() and "extrapolated" in note.inner_text()


def test_the_default_configuration_is_not_called_extrapolated(page, page_log):
    page.goto("/")
    wait_rendered(page, "")
    assert not page.locator("#simulation [data-extrapolation]").is_visible()


def test_the_drafter_menu_follows_the_target(page, page_log):
    page.goto("/")
    wait_rendered(page, "")
    drafter = page.locator("#simulation select[name=drafter]")
    enabled = lambda: drafter.evaluate("s => [...s.options].filter(o => !o.disabled).map(o => o.value)")  # noqa: E731
    assert "llama-3.2-1b" not in enabled() and "qwen3-0.6b" in enabled()
    page.locator("#simulation select[name=target]").select_option("llama-3.1-8b-instruct")
    expected = {**manifest()["defaults"], "target": "llama-3.1-8b-instruct", "drafter": "llama-3.2-1b",
                "cost_model": "calibrated"}
    wait_rendered(page, query_of(expected))
    assert set(enabled()) == {"llama-3.2-1b", "eagle3", "ngram"}
    assert drafter.input_value() == "llama-3.2-1b"
    # and the URL holds the new configuration
    assert "target=llama-3.1-8b-instruct" in current_query(page)


def test_a_greyed_out_choice_says_why(page, page_log):
    # Found once: disabled radios and options with no explanation anywhere. A menu's option
    # says why in its own text; the radios' reason is in the configuration's note.
    labels = manifest()["labels"]
    page.goto("/")
    wait_rendered(page, "")
    option = page.locator("#simulation select[name=drafter] option[value=\"llama-3.2-1b\"]")
    assert option.evaluate("o => o.disabled") and option.text_content() == "Llama-3.2-1B draft model (not for Qwen3-8B)"
    assert not page.locator("#simulation [data-extrapolation]").is_visible()  # nothing greyed but a menu's option
    page.goto("/?gpu=h200")
    wait_rendered(page, "?gpu=h200")
    greyed = page.eval_on_selector_all("#simulation input[type=radio]:disabled", "els => els.map(e => e.value)")
    assert set(greyed) == {"whole-pass", "same", "rising"}
    note = page.locator("#simulation [data-extrapolation]").inner_text()
    for name, value in (("cost_model", "whole-pass"), ("acceptance", "same"), ("acceptance", "rising"),
                        ("workload", "steady-state")):
        assert labels[name][value] in note, (value, note)
    assert page.locator("#simulation select[name=workload] option[value=steady-state]").text_content() == \
        f"{labels['workload']['steady-state']} (not offered here)"
    # offered, not "computed": the ladder's ticks still show the ideal roofline's speedups here
    # (found once: the note said the ideal roofline was computed for the starting configuration only)
    assert "computed" not in note, note


def test_a_link_written_another_way_is_rewritten_and_a_changed_drafter_is_noted(page, page_log):
    # Found once: ?gpu=H200 stayed in the address bar as typed, and ?target=llama-3.3-70b-instruct
    # changed the drafter (the default drafts for Qwen3 only) and the GPUs without a word.
    page.goto("/?gpu=H200")
    wait_rendered(page, "?gpu=h200")
    assert current_query(page) == "?gpu=h200"
    page.goto("/?target=llama-3.3-70b-instruct")
    expected = {**manifest()["defaults"], "target": "llama-3.3-70b-instruct", "tp": 4, "drafter": "llama-3.2-1b"}
    wait_rendered(page, query_of(expected))
    assert current_query(page) == query_of(expected)
    notes = page.locator("#simulation [data-notes]").inner_text()
    assert "Qwen3-0.6B draft model" in notes and "Llama-3.2-1B draft model" in notes, notes


@pytest.mark.parametrize("query, said", [
    ("?gpu=h100&batch=8", "gpu=h100"),
    ("?target=qwen3-80b&batch=8", "target=qwen3-80b"),
])
def test_a_misspelled_gpu_or_target_falls_back_and_says_so(page, page_log, query, said):
    page.goto("/" + query)
    expected = {**manifest()["defaults"], "batch": 8}
    wait_rendered(page, query_of(expected))
    assert controls_state(page) == expected
    notes = page.locator("#simulation [data-notes]")
    assert notes.is_visible() and said in notes.inner_text()
    assert current_query(page) == "?batch=8"


def test_a_tensor_parallelism_the_configuration_does_not_use_is_corrected(page, page_log):
    page.goto("/?gpu=h200&target=llama-3.3-70b-instruct&tp=8")
    expected = {**manifest()["defaults"], "gpu": "h200", "target": "llama-3.3-70b-instruct", "tp": 2,
                "drafter": "llama-3.2-1b"}  # the default drafter drafts for Qwen3 only
    wait_rendered(page, query_of(expected))
    assert controls_state(page)["tp"] == 2
    text = page.locator("#simulation [data-notes]").inner_text()
    assert "tp=8" in text and "2 GPUs" in text and "outside" not in text


def test_a_gpu_without_a_chosen_setting_says_what_it_changed(page, page_log):
    """Choosing a GPU whose data hold only the calibrated model, the falling shape and the closed
    batch resets those settings, and the notes say each one (nothing changes silently)."""
    query = "?cost=whole-pass&acceptance=same&workload=steady-state"
    page.goto("/" + query)
    wait_rendered(page, query)
    page.locator("#simulation select[name=gpu]").select_option("l40s")
    wait_rendered(page, "?gpu=l40s")
    notes = page.locator("#simulation [data-notes]")
    assert notes.is_visible()
    labels = manifest()["labels"]
    said = notes.inner_text()
    for name, was, now in (("acceptance", "same", "falling"), ("workload", "steady-state", "closed-batch")):
        assert f"{labels[name][was]} is not available for Qwen3-8B on L40S; using {labels[name][now]}." in said, name
    # a cost model not offered as a setting still draws the ladder's ticks: said so (found by a
    # cold read: "not available" over ticks and table columns of it)
    ideal, calibrated = labels["cost_model"]["whole-pass"], labels["cost_model"]["calibrated"]
    assert (f"{ideal} is not offered as a setting for Qwen3-8B on L40S (its speedups show as the ladder's ticks); "
            f"using {calibrated}.") in said
    assert f"{ideal} (whose speedups still show as the ladder's ticks, the other cost model)" in \
        page.locator("#simulation [data-extrapolation]").inner_text()
    assert "=" not in said and "tp" not in said  # the reader's words, not the URL's


def test_a_linked_drafter_of_another_family_is_said_to_be_so_not_unavailable_on_the_gpu(page, page_log):
    """Found by a cold read: /?drafter=llama-3.2-1b said "… is not available for Qwen3-8B on H100
    SXM", as if the GPU were why; a draft model goes with its target's family."""
    page.goto("/?drafter=llama-3.2-1b")
    wait_rendered(page, "")
    said = page.locator("#simulation [data-notes]").inner_text()
    labels = manifest()["labels"]
    assert (f"{labels['drafter']['llama-3.2-1b']} cannot draft for Qwen3-8B (another model family); using "
            f"{labels['drafter']['qwen3-0.6b']}.") in " ".join(said.split()), said
    assert "H100" not in said


def test_a_greyed_radio_says_why_beside_it_on_a_phone(new_context):
    """Found by a cold read on a phone: choosing Qwen3-32B flipped "the same" acceptance back to
    "falling" with nothing near the control to say why (the note was 1,080 px below). A greyed
    radio says "(not offered here)" beside its label on a phone; on a laptop the note under the
    ladder is on the same screen, and the controls keep their one screen."""
    query = "?target=qwen3-32b"
    page = new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True).new_page()
    page.goto("/" + query)
    page.wait_for_function("q => document.querySelector('#simulation')?.dataset.rendered?.includes('target=qwen3-32b')", arg=query)
    same = page.locator("#simulation input[name=acceptance][value=same]")
    assert same.is_disabled()
    label = same.locator("xpath=ancestor::label")
    assert label.inner_text().strip().endswith("(not offered here)"), label.inner_text()
    assert label.locator(".spec-control__why").is_visible()
    # an offered choice says nothing of the kind
    assert "not offered" not in page.locator("#simulation input[name=acceptance][value=falling]").locator("xpath=ancestor::label").inner_text()
    # one choice a line, each at the left edge: the notes beside them pushed the last onto a line
    # of its own, under the first (found by a cold read)
    lefts = page.eval_on_selector_all("#simulation fieldset:has(input[name=acceptance]) label",
                                      "ls => ls.map(l => [Math.round(l.getBoundingClientRect().left), Math.round(l.getBoundingClientRect().top)])")
    assert len({left for left, _ in lefts}) == 1 and len({top for _, top in lefts}) == len(lefts), lefts
    page.set_viewport_size({"width": 1440, "height": 900})
    assert label.locator(".spec-control__why").is_hidden()


TYPICAL_AND_MAP = """() => {
  const rows = (table) => { const head = [...table.tHead.rows[0].cells].map((c) => c.textContent.trim());
    return [...table.tBodies[0].rows].map((r) => Object.fromEntries([...r.cells].map((c, i) => [head[i], c.textContent.trim()]))); };
  const blocks = [...document.querySelectorAll('[data-for-target]')].filter((b) => b.checkVisibility());
  return {shown: blocks.map((b) => b.dataset.forTarget), said: blocks.map((b) => b.querySelector('p').textContent.trim()),
          typical: blocks.length ? rows(blocks[0].querySelector('table')) : [],
          map: rows(document.querySelector('#figure-decision table'))};
}"""


def test_the_decision_rules_acceptance_table_is_the_maps_target(page, page_log):
    """Found by a cold read: at ?gpu=h200&target=llama-3.3-70b-instruct the map under "A decision
    rule" used the EAGLE-3 head at α 0.85, and the table of each drafter's typical acceptance above
    it still gave Qwen3-8B's (0.65), with Qwen3 draft models that cannot draft for Llama. The table
    shown is the simulation's target's, and every α the map's data table uses is the table's, for
    that drafter and traffic: opened by a link and changed in place."""
    labels = manifest()["labels"]
    defaults = manifest()["defaults"]
    for i, changes in enumerate([{}, {"gpu": "h200", "target": "llama-3.3-70b-instruct", "tp": 2, "drafter": "eagle3"},
                                 {"target": "qwen3-32b", "tp": 2}]):
        query = query_of({**defaults, **changes})
        if i < 2:
            page.goto("/" + query)
        else:  # in place, as Back and Forward do
            page.evaluate("(q) => { history.pushState(null, '', location.pathname + q); dispatchEvent(new PopStateEvent('popstate')); }", query)
        wait_rendered(page, query)
        page.wait_for_function("() => !document.querySelector('.spec-chart[data-chart=decision][data-pending]')")
        target = changes.get("target", defaults["target"])
        at = page.evaluate(TYPICAL_AND_MAP)
        assert at["shown"] == [target] and at["said"] == [f"Typical acceptance with {labels['target'][target]}:"], at
        typical = {}
        for row in at["typical"]:
            traffic = row["traffic"].split(" (")[0]
            for task in (["chat", "summarisation", "code editing"] if traffic == "every kind" else [traffic]):
                typical[(row["drafter"], task)] = row["α used (acceptance across positions)"].split(" ")[0]
        drafters = {row["drafter"] for row in at["typical"]}
        used = {(row["best drafter"], row["traffic"], row["its α"]) for row in at["map"] if row["best drafter"] in drafters}
        assert len(used) >= 2, at["map"][:3]
        assert [u for u in used if typical.get(u[:2]) != u[2]] == [], typical
