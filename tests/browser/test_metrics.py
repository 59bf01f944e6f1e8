"""The paste box: the page reads the same texts as `specmodel fit-metrics` (tests/data/metrics/)
and gets the same reading and fit; its answer and flags are the command line's; hostile, huge and
partial pastes; the box at phone width, in dark mode, by keyboard, announced once."""
from __future__ import annotations

import json
import re
from types import SimpleNamespace
from pathlib import Path

import pytest

from cli_run import specmodel

from specmodel import FIELDS
from specmodel.metrics import MetricsInputError, fit_acceptance, parse_metrics
from specmodel.metrics.advice import batch_schedule
from specmodel.metrics.fit import residual_decimals
from specmodel.metrics.report import DYNAMIC_SD_LIMITS, DYNAMIC_SD_OFF, DYNAMIC_SD_SCHEDULE, fit_note, note_text, other_engine_note
from specmodel.metrics.parse import MAX_DRAFT_POSITIONS, MAX_RUNNING_REQUESTS, MAX_TEXT_CHARS, SPREAD_RATIO, Reading

from .conftest import PageLog
from .site_helpers import current_query, manifest, query_of, show, wait_rendered

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[1] / "data" / "metrics"
SITE = Path(__file__).resolve().parents[2] / "site"
FILES = sorted(p.name for p in DATA.iterdir() if p.suffix in (".log", ".txt"))
SIMULATION_MAX_GAMMA = max(FIELDS["gamma"].grid)
IMPOSSIBLE = json.loads((DATA / "impossible.json").read_text())["cases"]

PAGE_READ = """async (text) => {
  const parse = await import('/javascripts/metrics/parse.js');
  const fit = await import('/javascripts/metrics/fit.js');
  const table = await (await fetch('/data/manifest.json')).json();
  let reading, fitted = null, error = null;
  try { reading = parse.parseMetrics(text); } catch (e) { return {parseError: e.message}; }
  try { fitted = fit.fitOnGrid(reading, table.acceptance_table); } catch (e) { error = e.message; }
  const limit = fitted && fit.fitLimit(fitted, table.acceptance_table.poor_fit, fitted.alpha.toFixed(2));
  return {reading, fitted, error, limit};
}"""


def _python(text: str):
    try:
        reading = parse_metrics(text)
    except MetricsInputError as e:
        return None, None, e
    top = reading.per_position_acceptance
    if top and len(top) > SIMULATION_MAX_GAMMA:  # the page fits the positions the simulation has
        reading = Reading(**{**reading.__dict__, "per_position_acceptance": top[:SIMULATION_MAX_GAMMA]})
    try:
        return reading, fit_acceptance(reading, FIELDS["alpha"].grid), None
    except MetricsInputError as e:
        return reading, None, e


def _cli(*args: str, stdin: str) -> dict:
    """`fit-metrics - --json --site-grid *args` with ``stdin`` as its input (tests/cli_run.py)."""
    out = specmodel("fit-metrics", "-", "--json", "--site-grid", *args, stdin=stdin)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _times(x: float) -> str:
    return f"{x:.2f}×"


@pytest.fixture
def home(page, page_log):
    page.goto("/")
    wait_rendered(page, "")
    return page


@pytest.fixture(scope="module")
def modules_page(browser, server_url):
    """One page of the site for every text: the parser and the fit are the page's own modules,
    imported by it; nothing of the page around them is needed (the 404 page is the lightest)."""
    context = browser.new_context(base_url=server_url)
    log = PageLog()
    log.attach(context)
    page = context.new_page()
    page.goto("/404.html")
    yield page
    context.close()
    log.check()


@pytest.mark.parametrize("name", FILES)
def test_the_page_reads_and_fits_each_text_as_the_command_line_does(modules_page, name):
    text = (DATA / name).read_text()
    got = modules_page.evaluate(PAGE_READ, text)
    reading, fit, error = _python(text)
    if reading is None:
        assert "parseError" in got and str(error.problem) in got["parseError"]
        return
    page_reading = got["reading"]
    for key in ("source", "records", "gamma"):
        assert page_reading[key] == getattr(reading, key), key
    assert page_reading["notes"] == list(reading.notes)
    assert page_reading["derived"] == reading.derived
    assert page_reading["model_names"] == list(reading.model_names)
    assert page_reading["startup"] == reading.startup
    assert page_reading["running_requests_from_engine_lines"] is reading.running_requests_from_engine_lines
    assert page_reading["printed_mean_acceptance_length"] == reading.printed_mean_acceptance_length
    for key in ("num_drafts", "num_draft_tokens", "num_accepted_tokens", "mean_acceptance_length", "running_requests",
                "v0_draft_acceptance_rate"):
        want = getattr(reading, key)
        assert (page_reading[key] is None) == (want is None), key
        if want is not None:
            assert page_reading[key] == pytest.approx(want, rel=1e-12), key
    if fit is None:
        assert got["fitted"] is None and got["error"]
        return
    page_fit = got["fitted"]
    assert (page_fit["shape"], page_fit["alpha"], page_fit["gamma"], page_fit["basis"]) == \
        (fit.shape, fit.alpha, fit.gamma, fit.basis)
    assert page_fit["residual"] == pytest.approx(fit.residual, abs=1e-8)
    assert page_fit["out_of_range"] == fit.out_of_range
    assert page_fit["residuals"] == pytest.approx(fit.residuals, abs=1e-8)
    assert page_fit["alphas"] == pytest.approx(fit.alphas, abs=1e-12)
    assert page_fit["v0_rates"] == pytest.approx(fit.v0_rates, abs=1e-8)
    assert page_fit["grid_edge"] == fit.grid_edge
    # what limits the fit in the command line's words (found by a cold read: the grid's end
    # unsaid on both); the command line calls the priced result "advice", the page "answer"
    cli_note = fit_note(fit).removeprefix("\n  note: ").replace("the advice ", "the answer ")
    assert (got["limit"] or "") == cli_note


# Texts of more than a thousand records, made from the shared ones (found by a cold read: after a
# 40,000-line paste the page and the CLI wrote "40000 records" and "40000 lines were pooled" beside
# "40,000,000" drafted tokens)
MANY = {"v1": ((DATA / "v1-one-line.log").read_text() * 1_200), "llama-server": (DATA / "llama-server.log").read_text() * 600}


@pytest.mark.parametrize("name", sorted(MANY))
def test_a_count_of_thousands_is_written_with_separators_as_the_command_line_writes_it(modules_page, name):
    got = modules_page.evaluate(PAGE_READ, MANY[name])["reading"]
    reading, _, _ = _python(MANY[name])
    assert got["notes"] == list(reading.notes)
    assert any("1,200 " in note for note in reading.notes), reading.notes
    assert not [n for n in reading.notes if re.search(r"(?<![\d.,])\d{4,}(?![\d.,])", n)], reading.notes
    from specmodel.metrics.report import reading_lines
    assert reading_lines(reading)[0].startswith(f"read: {reading.source}, 1,200 records")


PAGE_REFUSE = """async (text) => {
  const parse = await import('/javascripts/metrics/parse.js');
  try { return {reading: parse.parseMetrics(text)}; } catch (e) {
    return {impossible: e instanceof parse.ImpossibleMetricsError, input: e instanceof parse.MetricsInputError,
            field: e.field, message: e.message};
  }
}"""


@pytest.mark.parametrize("case", IMPOSSIBLE, ids=[c["case"] for c in IMPOSSIBLE])
def test_the_page_refuses_what_the_command_line_refuses_in_the_same_words(modules_page, case):
    with pytest.raises(MetricsInputError) as e:
        parse_metrics(case["text"])
    got = modules_page.evaluate(PAGE_REFUSE, case["text"])
    assert "reading" not in got, got
    assert got == {"impossible": True, "input": True, "field": case["field"], "message": str(e.value)}


def test_the_page_s_limits_are_the_command_line_s(modules_page):
    """Found by a cold read: 40 per-position rates were refused by the command line and fitted on
    their first 10 by the page. impossible.json tests the refusals past the limits; this, that the
    page's limits are the model's."""
    got = modules_page.evaluate("""async () => {
      const p = await import('/javascripts/metrics/parse.js');
      return [p.MAX_DRAFT_POSITIONS, p.MAX_RUNNING_REQUESTS, p.MAX_TEXT_CHARS, p.SPREAD_RATIO];
    }""")
    assert got == [MAX_DRAFT_POSITIONS, MAX_RUNNING_REQUESTS, MAX_TEXT_CHARS, SPREAD_RATIO]


def test_the_pages_gamma_by_load_schedule_is_the_command_lines(modules_page):
    """Both snap a load to the batch the advice prices (found once: 39 running requests advised
    32's γ under a schedule that ran them at 64's)."""
    grid = [int(b) for b in FIELDS["batch"].grid]
    gammas = [5, 4, 4, 3, 3, 3, 2, 2, 1, 0, 0][: len(grid)]
    cases = [[grid[:n], gammas[:n]] for n in range(1, len(grid) + 1)]
    got = modules_page.evaluate("""async ([cases, grid]) => {
      const { batchSchedule } = await import('/javascripts/views/metrics.js');
      return cases.map(([batches, gammas]) => batchSchedule(batches, gammas, grid));
    }""", [cases, grid])
    assert got == [batch_schedule(b, g) for b, g in cases]


def _answer_rows(page) -> list[list[str]]:
    return page.locator("[data-metrics-answer] tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))")


def _wait_read(page) -> str:
    page.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.startsWith('Read ')")
    return page.locator("[data-metrics-status]").inner_text()


def _check_answer_against_cli(page, cli: dict) -> None:
    advice = cli["advice"]
    rows = _answer_rows(page)
    assert [int(r[0].replace(",", "")) for r in rows] == [r["batch"] for r in advice["schedule"]]
    for shown, want in zip(rows, advice["schedule"]):
        use = "–" if want["recommended_gamma"] is None else str(want["recommended_gamma"])
        assert shown[1] == str(want["best_gamma"]) and shown[4] == use, shown
        # the page's data round to 4 significant digits, then to 2 decimals: within one in the last
        assert float(shown[2].rstrip("×")) == pytest.approx(want["best_speedup"], abs=0.0051)
        assert float(shown[3].rstrip("×")) == pytest.approx(want["speedup_at_fitted_gamma"], abs=0.0051)
        assert shown[5] == ("yes" if want["fits_in_memory"] else "no")
    # where speculation pays by less than the model's median step-time error, both say where
    # (found by a cold read: "pays at every batch size … up to 64" on 1.003× there)
    answer = page.locator("[data-metrics-answer]").inner_text().replace("\u00a0", " ")
    thin = cli["thin_gain_batches"]
    if thin:
        listed = (", ".join(f"{b:,}" for b in thin[:-1]) + f" and {thin[-1]:,} sequences" if len(thin) > 1
                  else f"{thin[0]:,} sequence{'s' if thin[0] != 1 else ''}")
        assert (f"At {listed} speculation gains less than {cli['step_time_error']:.1%}, this cost model's median "
                "error on the step times measured in vLLM: measure before relying on it there.") in answer, answer
    else:
        assert "speculation gains less than" not in answer, answer
    # where speculation pays, as the command line's ranges have it (found by a cold read: "stops
    # paying at 4 sequences" for a mixture of experts' target that pays again from 16 to 64)
    ranges = advice["paying_batch_ranges"]
    parts = [f"{a:,}" if a == b else f"{a:,}–{b:,}" for a, b in ranges]
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
    if ranges and (len(ranges) > 1 or ranges[0][0] != advice["schedule"][0]["batch"]):
        assert (f"Speculation pays only at {listed} sequences, at its best γ; at the other batch sizes that fit, "
                "no γ beats plain decoding.") in answer, answer
        assert "stops paying" not in answer, answer
    elif ranges and advice["stops_paying_at_batch"] == advice["state"]["batch"]:
        # at the first load that does not pay, where it does (found by a cold read: nothing said so)
        assert f"Speculation pays only at {listed} sequences, at its best γ." in answer, answer
    else:
        assert "pays only at" not in answer, answer
    # a caution to measure a γ is for a γ the answer recommends (found by a cold read: beside "use γ 0")
    here_row = next(r for r in advice["schedule"] if r["batch"] == advice["state"]["batch"])
    if "measure before trusting" in answer:
        assert here_row["recommended_gamma"], answer
    stops = re.search(r"stops paying at ([\d,]+) sequences", answer)
    if stops:
        at = int(stops[1].replace(",", ""))
        assert all((r["batch"] < at) == bool(r["recommended_gamma"]) for r in advice["schedule"] if r["fits_in_memory"]), answer
    # the status line gives each speedup beside the γ it is at (found by a cold read: "1.91× at 1
    # sequence; best γ there 10" read as γ 10 giving 1.91×, the text's γ 3 does)
    status = page.locator("[data-metrics-status]").inner_text().replace("\u00a0", " ")
    here = next(r for r in advice["schedule"] if r["batch"] == advice["state"]["batch"])
    said = re.search(r": ([\d.]+)× at ([\d,]+) sequences? and γ = (\d+); (?:best γ there (\d+) \(([\d.]+)×\)|(.*?)[;.])", status)
    # (a text whose reading moved the simulation says so in its place: the answer has the numbers)
    assert said or ("Predicted for" not in status and "the settings now shown" in status), status
    if said:
        assert float(said[1]) == pytest.approx(advice["speedup"], abs=0.0051)
        assert (int(said[2].replace(",", "")), int(said[3])) == (advice["state"]["batch"], advice["state"]["gamma"]), status
        if said[4]:
            assert int(said[4]) == here["best_gamma"], status
            assert float(said[5]) == pytest.approx(here["best_speedup"], abs=0.0051), status
        else:
            assert not here["recommended_gamma"] or not here["fits_in_memory"], status
    flags = page.locator("[data-metrics-answer] pre code").all_inner_texts()
    # every flag as the command line prints it, --tensor-parallel-size first on several GPUs
    tp = advice["state"]["tp"] if "state" in advice else 1
    before = f"--tensor-parallel-size {tp} " if tp > 1 else ""
    if advice["speculative_config"]:
        assert f"{before}--speculative-config '{json.dumps(advice['speculative_config'])}'" in flags
    data_parallel = any("data-parallel engines each run their own batch" in n for n in cli["reading"]["notes"])
    if advice["dynamic_speculative_config"] and data_parallel:
        # vLLM turns the γ-by-load flag off under data parallelism (report.py DYNAMIC_SD_OFF)
        assert len(flags) == (1 if advice["speculative_config"] else 0), flags
        assert DYNAMIC_SD_OFF[0].upper() + DYNAMIC_SD_OFF[1:] + "." in answer, answer
    elif advice["dynamic_speculative_config"]:
        assert f"{before}--speculative-config '{json.dumps(advice['dynamic_speculative_config'])}'" in flags


FITTABLE = sorted(n for n, want in json.loads((DATA / "expected.json").read_text()).items()
                  if not n.startswith("_") and not want.get("unfittable"))


# the shared texts in three groups: three workers share them, each page set back between texts
FITTABLE_GROUPS = [FITTABLE[i::3] for i in range(3)]


@pytest.mark.parametrize("names", FITTABLE_GROUPS, ids=["a", "b", "c"])
def test_each_text_is_answered_as_fit_metrics_site_grid_answers_it(home, names):
    """Found by a cold read: for a log of 15 draft positions the page fitted and priced the first 10
    (the simulation's γ stops there) and `fit-metrics --site-grid` all 15: every shared text, pasted
    into the page at its starting state, gets the command line's answer."""
    for i, name in enumerate(names):
        # the starting state (a text without a running count is priced at its batch), set back in
        # place as Back sets it: a fresh load of each would draw every chart again
        if i:
            show(home, "")
            # the last text's reading off the page first: the next "Read …" is this text's
            home.fill("#spec-metrics-text", (DATA / "not-metrics.txt").read_text())
            home.click("[data-metrics-form] button[type=submit]")
            home.wait_for_function("() => !document.querySelector('[data-metrics-status]').textContent.startsWith('Read ')")
        text = (DATA / name).read_text()
        _paste(home, text)
        cli = _cli(stdin=(DATA / name).read_text())
        _check_answer_against_cli(home, cli)
        answer = home.locator("[data-metrics-answer]").inner_text().replace("\u00a0", " ")
        assert f"Speedup at γ = {cli['fit']['gamma']}: " in answer, name
        # a drafter named in a sentence is "the" drafter (found by cold reads: "drafter Qwen3-0.6B
        # draft model", "the answer prices Qwen3-0.6B draft model")
        sentences = "\n".join(home.locator("[data-metrics-answer] p").all_inner_texts()).replace("\u00a0", " ")
        for label in manifest()["labels"]["drafter"].values():
            assert re.findall(rf"(?<!the )(?<!catalog's )\b{re.escape(label)}", sentences) == [], (name, label, sentences)
        # a verdict said once: no "stops paying at" the reader's own load, which the lines around say
        assert not re.search(rf"stops paying at {cli['advice']['state']['batch']:,} sequences", answer), name
        # a text another engine wrote is answered with vLLM's prices and flags, and says so (found
        # by a cold read: a llama-server log got vLLM's flags and no word on it)
        engine = other_engine_note(cli["reading"]["source"])
        assert (engine in cli["notes"]) if engine else not any("llama.cpp" in n for n in cli["notes"]), name
        assert (engine[0].upper() + engine[1:] + "." in answer) if engine else "llama.cpp" not in answer, name
        # the γ-by-load flag with what it does and vLLM's stated limits, as the command line says
        # them (found by a cold read: a verbless sentence, an unsourced "vLLM 0.24", no limits)
        if cli["advice"]["dynamic_speculative_config"] and DYNAMIC_SD_OFF[3:] not in answer:
            assert f"{DYNAMIC_SD_SCHEDULE}; {DYNAMIC_SD_LIMITS}:" in answer and "VLLM" not in answer, name
            assert "vLLM 0.24" not in answer


def test_the_example_sets_the_simulation_and_answers_as_the_command_line(home):
    home.click("[data-action=metrics-example]")
    status = _wait_read(home)
    assert "acceptance rising with position, α = 0.50" in status and "drafting with the n-gram" in status
    state = {**manifest()["defaults"], "drafter": "ngram", "gamma": 3, "alpha": 0.5, "acceptance": "rising"}
    wait_rendered(home, query_of(state))
    assert current_query(home) == query_of(state)
    cli = _cli("--drafter", "ngram", "--batch", "1", stdin=(DATA / "v1-ngram.log").read_text())
    assert _times(cli["advice"]["speedup"]) in status
    _check_answer_against_cli(home, cli)
    # read again as it stands, the example is still the example: its drafter stays (found once:
    # "Read my numbers" after the example priced the reader's earlier drafter instead)
    home.evaluate("() => { document.querySelector('[data-metrics-status]').textContent = ''; }")
    home.click("[data-metrics-form] button[type=submit]")
    assert "drafting with the n-gram" in _wait_read(home)
    wait_rendered(home, query_of(state))
    assert current_query(home) == query_of(state)
    # Back to the starting state: the answer names every fitted setting the simulation has left
    # (found by a cold read: α, 0.50 → 0.75, and the drafter were left out)
    home.go_back()
    wait_rendered(home, "")
    d = manifest()["defaults"]
    labels = manifest()["labels"]
    moved = (f"The simulation has since moved away from the fit (drafter {labels['drafter'][d['drafter']]}, acceptance "
             f"{labels['acceptance'][d['acceptance']]}, α = {d['alpha']:.2f}, γ = {d['gamma']}):")
    assert moved in home.locator("[data-metrics-answer]").inner_text().replace("\u00a0", " ")
    home.go_forward()
    wait_rendered(home, query_of(state))
    # the reader moves their load: the answer follows, still the command line's
    home.select_option("#metrics-batch", "64")
    wait_rendered(home, query_of({**state, "batch": 64}))
    _check_answer_against_cli(home, _cli("--drafter", "ngram", "--batch", "64", stdin=(DATA / "v1-ngram.log").read_text()))
    # on a target split over four GPUs every flag says so (found once: the flag that changes γ
    # with load left --tensor-parallel-size out)
    home.select_option("#metrics-target", "llama-3.3-70b-instruct")
    home.wait_for_function("() => location.search.includes('tp=4')")
    home.wait_for_function("() => [...document.querySelectorAll('[data-metrics-answer] pre code')].length > 0"
                           " && [...document.querySelectorAll('[data-metrics-answer] pre code')]"
                           ".every(c => c.textContent.startsWith('--tensor-parallel-size 4 --speculative-config'))")


def test_on_a_phone_the_answers_flags_break_an_id_at_its_slash(new_context):
    """Found by a cold read at 375 px: the answer's --speculative-config wrapped inside
    "meta-llama/Llama-3.2-1B-" | "Instruct", an id a reader retyping it would get wrong. A wrap
    falls between words, or at the id's slash (test_reading.CODE_BROKEN_MID_WORD)."""
    from .test_reading import CODE_BROKEN_MID_WORD

    page = new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True).new_page()
    page.goto("/")
    wait_rendered(page, "")
    _paste(page, (DATA / "prometheus-another-model.txt").read_text())
    flags = page.locator("[data-metrics-answer] pre > code")
    assert flags.count() == 2 and "meta-llama/Llama-3.2-1B-Instruct" in flags.first.text_content()
    # the id does not fit the line whole here: it is broken, at its slash
    tops = flags.first.evaluate("""c => [...c.querySelectorAll('.spec-ident-part')].map(p => Math.round(p.getBoundingClientRect().top))""")
    assert len(tops) == 2 and tops[0] < tops[1], tops
    assert page.evaluate(CODE_BROKEN_MID_WORD) == []


def test_a_text_naming_its_model_and_drafter_is_priced_on_them_as_the_command_line_prices_it(home):
    """Found by cold reads: a scrape of meta-llama/Llama-3.3-70B-Instruct (its model_name label)
    was priced as Qwen3-8B, first unsaid, then with "Set yours under Your deployment"; a log whose
    vLLM start-up line names Llama-3.1-8B-Instruct and its EAGLE-3 head likewise. The page prices
    the target and drafter a text names where the site has them, as fit-metrics does, and says
    so; once the reader sets another under "Your deployment", the answer says what the text named."""
    text = (DATA / "prometheus-another-model.txt").read_text()
    _paste(home, text)
    answer = home.locator("[data-metrics-answer]")
    shown = answer.inner_text().replace("\u00a0", " ")
    assert ("The answer prices Llama-3.3-70B-Instruct: the text names it, 'meta-llama/Llama-3.3-70B-Instruct' "
            "(its model_name label).") in shown
    _check_answer_against_cli(home, _cli(stdin=text))
    assert "target llama-3.3-70b-instruct: the text names it, 'meta-llama/Llama-3.3-70B-Instruct'" in _cli_text(stdin=text)
    assert "Llama-3.3-70B-Instruct on 4 × H100 SXM" in shown
    home.select_option("#metrics-target", "qwen3-14b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Qwen3-14B on')")
    assert ("The text names the model 'meta-llama/Llama-3.3-70B-Instruct' (its model_name label); the answer prices "
            "Qwen3-14B, as set under “Your deployment”.") in answer.inner_text().replace("\u00a0", " ")
    home.select_option("#metrics-target", "llama-3.3-70b-instruct")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Llama-3.3-70B-Instruct on')")
    assert "model_name" not in answer.inner_text()
    # a model the site lacks: the simulation's target, said, as the command line says it
    home.goto("/")
    wait_rendered(home, "")
    mistral = text.replace("meta-llama/Llama-3.3-70B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3")
    _paste(home, mistral)
    assert ("The text names the model 'mistralai/Mistral-7B-Instruct-v0.3' (its model_name label); the answer prices "
            "Qwen3-8B. Set yours under “Your deployment”.") in answer.inner_text().replace("\u00a0", " ")
    assert "the text names the model 'mistralai/Mistral-7B-Instruct-v0.3' (its model_name label), not Qwen3-8B" in _cli_text(stdin=mistral)
    # a log's vLLM start-up line names its target and drafter (found by a cold read: "The text does
    # not say which drafter produced it" of a log naming its EAGLE-3 head), in the command line's words
    text = (DATA / "v1-startup-eagle3.log").read_text()
    _paste(home, text)
    _check_answer_against_cli(home, _cli(stdin=text))
    shown = answer.inner_text().replace("\u00a0", " ")
    drafter = "method 'eagle3', model 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'"
    assert f"The answer prices the EAGLE-3 head: the text names it, {drafter} (vLLM's start-up line)." in shown
    assert ("The answer prices Llama-3.1-8B-Instruct: the text names it, 'meta-llama/Llama-3.1-8B-Instruct' "
            "(vLLM's start-up line).") in shown
    assert "does not say which drafter" not in shown and "Set yours" not in shown
    cli = _cli_text(stdin=text)
    assert f"drafter eagle3: the text names it, {drafter} (vLLM's start-up line)" in cli
    home.select_option("#metrics-drafter", "llama-3.2-1b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('the Llama-3.2-1B draft model')")
    assert (f"The text names the drafter {drafter} (vLLM's start-up line); the answer prices the Llama-3.2-1B draft "
            "model, as set under “Your deployment”.") in answer.inner_text().replace("\u00a0", " ")
    assert f"the text names the drafter {drafter} (vLLM's start-up line)" in _cli_text("--drafter", "llama-3.2-1b", stdin=text)
    # the named head is the Llama target's: on a Qwen3 target the catalog's head for it is priced,
    # and said (found by a cold read: "the text names it" of AngelSlim's Qwen3-14B head)
    _paste(home, text)
    home.select_option("#metrics-target", "qwen3-14b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Qwen3-14B on')")
    shown = answer.inner_text().replace("\u00a0", " ")
    assert (f"The text names the drafter {drafter} (vLLM's start-up line); the answer prices the catalog's EAGLE-3 head "
            "for Qwen3-14B, 'AngelSlim/Qwen3-14B_eagle3'.") in shown, shown
    assert "the text names it, method" not in shown
    assert "this prices the catalog's EAGLE-3 head for Qwen3-14B, 'AngelSlim/Qwen3-14B_eagle3'" in _cli_text("--target", "qwen3-14b", stdin=text)
    # a draft model of another family: why it is not priced, and no "Set yours" (found by a cold read)
    cross = text.replace("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'", "method='draft_model', model='Qwen/Qwen3-0.6B'")
    show(home, "")  # the starting state, as the command line's defaults
    home.click("[data-action=metrics-clear]")  # the last read's "Read …" off the status first
    _paste(home, cross)
    _check_answer_against_cli(home, _cli(stdin=cross))
    shown = answer.inner_text().replace("\u00a0", " ")
    assert ("The text names the drafter method 'draft_model', model 'Qwen/Qwen3-0.6B' (vLLM's start-up line); the answer "
            "prices the Llama-3.2-1B draft model, as the Qwen3-0.6B draft model cannot draft for Llama-3.1-8B-Instruct "
            "(another model family).") in shown, shown
    assert "Set yours" not in shown.split("(vLLM's start-up line); the answer prices the Llama-3.2-1B")[1].split("\n")[0]
    # a line shortened by hand to its method names that drafter (found by a cold read: read as
    # naming none, as the command line read it)
    suffix = text.replace("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'", "method='suffix'")
    home.click("[data-action=metrics-clear]")
    _paste(home, suffix)
    _check_answer_against_cli(home, _cli(stdin=suffix))
    shown = answer.inner_text().replace("\u00a0", " ")
    assert "The text names the drafter method 'suffix' (vLLM's start-up line)" in shown, shown
    assert "does not say which drafter" not in shown, shown
    # vLLM's other start-up line, "non-default args: {…}", names them too (found by a cold read:
    # answered "The text does not say which drafter produced it")
    home.click("[data-action=metrics-clear]")
    show(home, "")
    args = (DATA / "v1-non-default-args.log").read_text()
    _paste(home, args)
    _check_answer_against_cli(home, _cli(stdin=args))
    shown = answer.inner_text().replace("\u00a0", " ")
    assert "The answer prices Qwen3-14B: the text names it" in shown, shown
    assert "The answer prices the EAGLE-3 head: the text names it" in shown, shown
    assert "The text names tensor_parallel_size=2 (vLLM's start-up line)" in shown, shown
    # a drafter the simulation had (by a link) that the text's target cannot take: said here, as
    # one the reader chose is (found by a cold read: only in the simulation's notes far above)
    show(home, "?gpu=l40s&target=qwen3-30b-a3b&tp=2&drafter=qwen3-4b")
    home.click("[data-action=metrics-clear]")
    llama = text.replace("model='meta-llama/Llama-3.1-8B-Instruct'", "model='meta-llama/Llama-3.3-70B-Instruct'").replace(
        "speculative_config=SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), ", "")
    _paste(home, llama)
    shown = answer.inner_text().replace("\u00a0", " ")
    assert ("The text does not say which drafter produced its metrics: the answer prices the Llama-3.2-1B draft model, as the "
            "Qwen3-4B draft model the simulation had cannot draft for Llama-3.3-70B-Instruct. Set yours under “Your "
            "deployment”.") in shown, shown


def test_a_cost_model_or_workload_another_target_lacks_is_said_to_be_replaced(home):
    """Found by a cold read: a text read under the ideal roofline and steady state, then a target
    whose data hold neither: the answer priced the calibrated model and a closed batch, said only
    in the simulation's notes far above (1.89× on the page against the command line's 2.27× for
    the settings the reader had chosen). The answer says what it replaced."""
    show(home, "?cost=whole-pass&context=8192&workload=steady-state")
    _paste(home, (DATA / "v1-ngram.log").read_text())
    answer = home.locator("[data-metrics-answer]")
    assert "as when your text was read" not in answer.inner_text()
    home.select_option("#metrics-target", "qwen3-14b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Qwen3-14B on')")
    labels = manifest()["labels"]
    assert (f"The site's data for Qwen3-14B on H100 SXM do not hold the cost model {labels['cost_model']['whole-pass']} and "
            f"the workload {labels['workload']['steady-state']}, as when your text was read: the answer uses the cost model "
            f"{labels['cost_model']['calibrated']} and the workload {labels['workload']['closed-batch']}.") in answer.inner_text().replace("\u00a0", " ")
    # and where the text names a target whose data lack them, from the read on (found by a cold read)
    show(home, "?cost=whole-pass&context=8192&workload=steady-state")
    _paste(home, (DATA / "prometheus-another-model.txt").read_text())
    assert (f"The site's data for Llama-3.3-70B-Instruct on 4 × H100 SXM do not hold the cost model "
            f"{labels['cost_model']['whole-pass']} and the workload {labels['workload']['steady-state']}, as when your text "
            "was read: the answer uses the cost model") in answer.inner_text().replace("\u00a0", " ")


def test_the_answer_calls_a_setting_the_readers_only_where_they_chose_it(home):
    """Found by a cold read: a drafter the page changed with the target (Llama-3.3-70B-Instruct
    takes Llama-3.2-1B) was "as set under “Your deployment”", and a target the reader chose before
    a new paste was told "Set yours"."""
    answer = home.locator("[data-metrics-answer]")
    _paste(home, (DATA / "v1-ngram.log").read_text())
    home.select_option("#metrics-target", "qwen3-14b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Qwen3-14B on')")
    # (a model the site lacks: one it has, the text names and the answer prices)
    other = (DATA / "prometheus-another-model.txt").read_text().replace("meta-llama/Llama-3.3-70B-Instruct", "mistralai/Mistral-7B-v0.1")
    _paste(home, other)
    shown = answer.inner_text().replace("\u00a0", " ")
    assert "the answer prices Qwen3-14B, as set under “Your deployment”." in shown, shown
    home.select_option("#metrics-target", "llama-3.3-70b-instruct")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Llama-3.3-70B-Instruct on')")
    shown = answer.inner_text().replace("\u00a0", " ")
    assert ("The text does not say which drafter produced its metrics: the answer prices the Llama-3.2-1B draft model. "
            "Set yours under “Your deployment”.") in shown, shown
    home.select_option("#metrics-drafter", "eagle3")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('the EAGLE-3 head, as set')")
    # a drafter the reader chose that a target chosen after it cannot take is said to be replaced
    # (found by a cold read: Qwen3-4B silently became Llama-3.2-1B under a Llama target)
    home.select_option("#metrics-target", "qwen3-8b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Qwen3-8B on')")
    home.select_option("#metrics-drafter", "qwen3-4b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('the Qwen3-4B draft model, as set')")
    home.select_option("#metrics-target", "llama-3.1-8b-instruct")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Llama-3.1-8B-Instruct on')")
    assert ("the answer prices the Llama-3.2-1B draft model, as the Qwen3-4B draft model you chose cannot draft for "
            "Llama-3.1-8B-Instruct. Set yours under “Your deployment”.") in answer.inner_text().replace("\u00a0", " ")


def test_a_load_the_reader_sets_replaces_the_texts_in_the_answer(home):
    """Found by a cold read: a scrape with 12 running requests, then 4 sequences set under "Your
    deployment": the answer priced 4 and still said "12 running requests: the simulation's nearest
    batch size is 16"."""
    text = (DATA / "prometheus-one.txt").read_text()
    _paste(home, text)
    answer = home.locator("[data-metrics-answer]")
    assert "12 running requests: the simulation's nearest batch size on its doubling scale is 16." in answer.inner_text()
    home.select_option("#metrics-batch", "4")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer] p')?.textContent.includes('4\u00a0sequences at once')"
                           " || document.querySelector('[data-metrics-answer] p')?.textContent.includes('4 sequences at once')")
    said = answer.inner_text().replace("\u00a0", " ")
    assert "Your text shows 12 running requests; the answer prices 4 sequences, as set under “Your deployment”." in said, said
    assert "nearest batch size" not in said, said
    _check_answer_against_cli(home, _cli("--batch", "4", stdin=text))


def test_a_target_that_pays_again_at_a_larger_load_is_told_where_it_pays(home):
    """Found by a cold read: Qwen3-30B-A3B on an MI300X with the Qwen3-4B drafter, 32 sequences:
    "Best γ at 32 sequences: 2 (1.27×)", then "Speculation stops paying at 4 sequences". It pays
    at 1–2 and again at 16–64; the answer says so, as the command line does."""
    text = (DATA / "v1-0.8.5.log").read_text()
    _paste(home, text)
    home.select_option("#metrics-gpu", "mi300x")
    home.select_option("#metrics-target", "qwen3-30b-a3b")
    home.select_option("#metrics-drafter", "qwen3-4b")
    home.select_option("#metrics-batch", "32")
    home.wait_for_function("() => { const p = document.querySelector('[data-metrics-answer] p')?.textContent ?? '';"
                           " return p.includes('Qwen3-30B-A3B on MI300X') && p.includes('Qwen3-4B')"
                           " && /32 sequences at once/.test(p.replace(/\\u00a0/g, ' ')); }")
    cli = _cli("--gpu", "mi300x", "--target", "qwen3-30b-a3b", "--drafter", "qwen3-4b", "--batch", "32", stdin=text)
    assert cli["advice"]["paying_batch_ranges"] == [[1, 2], [16, 64]]
    _check_answer_against_cli(home, cli)


def test_a_fitted_shape_the_new_target_lacks_is_told_as_the_fit_used(home):
    """Found by a cold read: after a fit of rising acceptance (α 0.50), the n-gram drafter and
    Qwen3-30B-A3B under "Your deployment", whose data hold no rising: the simulation's note said
    "the starting rising with position is not offered", as if the page had started there, and α
    moved to 0.65 unsaid. The note says what the acceptance became and why."""
    _paste(home, (DATA / "v1-ngram.log").read_text())
    assert home.evaluate("() => new URLSearchParams(location.search).get('acceptance')") == "rising"
    home.select_option("#metrics-drafter", "ngram")
    home.select_option("#metrics-target", "qwen3-30b-a3b")
    home.wait_for_function("() => new URLSearchParams(location.search).get('target') === 'qwen3-30b-a3b'")
    params = {**{k: str(v) for k, v in manifest()["defaults"].items()},
              **home.evaluate("() => Object.fromEntries(new URLSearchParams(location.search))")}
    labels = manifest()["labels"]
    notes = home.locator("#simulation [data-notes] p").all_inner_texts()
    said = (f"Acceptance past the first guess: {labels['acceptance'][params['acceptance']]} at α = {float(params['alpha']):.2f}, the best fit "
            f"to your text among the shapes the data for Qwen3-30B-A3B on H100 SXM hold (your text's best, "
            f"{labels['acceptance']['rising']}, is not among them).")
    assert said in notes and not any("starting" in n for n in notes), notes


def test_two_scrapes_set_the_batch_from_running_requests(home):
    text = (DATA / "prometheus-two.txt").read_text()
    home.fill("#spec-metrics-text", text)
    home.click("[data-metrics-form] button[type=submit]")
    _wait_read(home)
    cli = _cli(stdin=text)
    assert cli["advice"]["state"]["batch"] == 32  # 31 and 33 running on two data-parallel engines
    state = {**manifest()["defaults"], "batch": 32, "gamma": 2, "alpha": cli["fit"]["alpha"],
             "acceptance": cli["fit"]["shape"]}
    wait_rendered(home, query_of(state))
    _check_answer_against_cli(home, cli)


def test_another_configuration_keeps_the_fit_where_its_data_allow_and_says_where_not(home):
    home.click("[data-action=metrics-example]")
    _wait_read(home)
    home.select_option("#metrics-gpu", "h200")
    home.wait_for_function("() => document.querySelector('#simulation').dataset.rendered?.includes('gpu=h200')")
    # the other configurations hold acceptance falling with position only: the answer uses that
    # shape's own best fit to the pasted rates, and says so (beside the note that H200 is
    # extrapolated)
    warning = home.locator("[data-metrics-answer] .spec-metrics__warn", has_text="falling with position only")
    assert warning.is_visible()
    assert home.locator("[data-metrics-answer] .spec-metrics__warn", has_text="This configuration is extrapolated").is_visible()
    reading, fit, _ = _python((DATA / "v1-ngram.log").read_text())
    falling_alpha = min(FIELDS["alpha"].grid, key=lambda a: fit_acceptance(
        Reading(**{**reading.__dict__, "per_position_acceptance": reading.per_position_acceptance}), [a]).residuals["falling"])
    assert f"alpha={falling_alpha:g}" in current_query(home) and "acceptance=" not in current_query(home)
    assert "H200" in home.locator("[data-metrics-answer] p").first.inner_text()
    # the announced answer was about the state the read set: it goes, but what was read stays
    # (found once: the status emptied by any change under "Your deployment")
    status = home.locator("[data-metrics-status]").inner_text()
    assert status.startswith("Read vLLM V1 log: γ = 3") and "Predicted for" not in status, status
    # naming the shape and α the answer below uses (found by a cold read: "Best fit: acceptance
    # rising, α = 0.50" above an answer priced at falling, α = 0.65, unsaid there)
    assert status.endswith(f"The answer below is for the settings now shown, at acceptance falling with position, "
                           f"α = {falling_alpha:.2f}, the nearest fit they hold."), status


def test_the_summary_names_the_shape_it_prices_where_the_settings_lack_the_best_fits(home):
    # found once: "Best fit: acceptance rising with position, α = 0.50. Predicted … 1.52×", the
    # 1.52× priced at falling α = 0.65 and said only further down
    home.goto("/?gpu=h200")
    wait_rendered(home, "?gpu=h200")
    home.click("[data-action=metrics-example]")
    status = _wait_read(home)
    reading, fit, _ = _python((DATA / "v1-ngram.log").read_text())
    falling_alpha = min(FIELDS["alpha"].grid, key=lambda a: fit_acceptance(
        Reading(**{**reading.__dict__, "per_position_acceptance": reading.per_position_acceptance}), [a]).residuals["falling"])
    falling = manifest()["labels"]["acceptance"]["falling"]
    assert f"Predicted for Qwen3-8B on H200 SXM drafting with the n-gram prompt lookup, acceptance {falling}, α = {falling_alpha:.2f}" in status
    # and the table of fits gives that shape's α, not a dash
    rows = home.eval_on_selector_all("[data-metrics-fits] tr", "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))")
    assert [f"{falling_alpha:.2f}"] == [r[1] for r in rows if r[0].startswith(falling)]
    # the command line's --site-grid prices that shape too, and says why in the page's words (found
    # by a cold read: it priced the fitted rising, 2.16× against the page's 2.09×)
    cli = _cli("--gpu", "h200", "--drafter", "ngram", "--batch", "1", stdin=(DATA / "v1-ngram.log").read_text())
    assert (cli["advice"]["state"]["acceptance"], cli["advice"]["state"]["alpha"]) == ("falling", falling_alpha)
    assert _times(cli["advice"]["speedup"]) in status
    _check_answer_against_cli(home, cli)
    warning = home.locator("[data-metrics-answer] .spec-metrics__warn", has_text="data hold acceptance").inner_text()
    said = next(n for n in cli["notes"] if "data hold acceptance" in n)
    labels = manifest()["labels"]["acceptance"]
    assert warning.replace(falling, "falling").replace(labels["rising"], "rising") == said[0].upper() + said[1:] + "."


def test_a_readers_own_paste_does_not_keep_the_examples_drafter(home):
    home.click("[data-action=metrics-example]")
    _wait_read(home)
    assert "drafter=ngram" in current_query(home)
    home.fill("#spec-metrics-text", (DATA / "prometheus-one.txt").read_text())
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.includes('Qwen3-0.6B')")
    assert "drafter=" not in current_query(home)
    assert "does not say which drafter" in home.locator("[data-metrics-answer]").inner_text()


CARRIED = "The text does not name its model: the answer prices Llama-3.1-8B-Instruct, which an earlier text named."


def test_a_target_an_earlier_text_named_is_said_where_the_next_text_names_none(home):
    """Found by a cold read: after a log naming Llama-3.1-8B-Instruct, a log naming no model was
    priced on Llama-3.1-8B-Instruct without a word on where that target came from; nor on the
    drafter and the load, which came from it too."""
    _paste(home, (DATA / "v1-three-means.log").read_text())
    assert "does not name its model" not in home.locator("[data-metrics-answer]").inner_text()
    _paste(home, (DATA / "v1-startup-eagle3.log").read_text())
    assert "target=llama-3.1-8b-instruct" in current_query(home)
    # the next "Read …" is the next text's
    home.fill("#spec-metrics-text", "")
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => !document.querySelector('[data-metrics-status]').textContent.startsWith('Read ')")
    _paste(home, (DATA / "v1-three-means.log").read_text())
    answer = home.locator("[data-metrics-answer]").inner_text().replace("\u00a0", " ")
    assert CARRIED in answer, answer
    # and so are the drafter and the load it set (found by a cold read: "the answer prices the
    # EAGLE-3 head" and "the simulation's 8 sequences", as if the reader's, where `specmodel
    # fit-metrics` prices this text at 1 sequence)
    assert ("The text does not say which drafter produced its metrics: the answer prices the EAGLE-3 head, which an earlier "
            "text named. Set yours under “Your deployment”.") in answer, answer
    assert ("The text does not say how many requests were running: the answer prices 8 sequences, the load an "
            "earlier text showed. Set yours under “Your deployment”.") in answer, answer
    # once the reader sets a target under "Your deployment", it is theirs
    home.select_option("#metrics-target", "qwen3-8b")
    home.wait_for_function("() => !document.querySelector('[data-metrics-answer]').textContent.includes('does not name its model')")
    # and a load they set
    home.select_option("#metrics-batch", "16")
    home.wait_for_function("() => !document.querySelector('[data-metrics-answer]').textContent.includes('the load an earlier text showed')")


@pytest.mark.parametrize("name", ["v1-unreadable.log", "v1-0.8.3.log", "prometheus-zero-drafts.txt"])
def test_what_stops_the_fit_is_said_once_on_the_page(home, name):
    """Found by a cold read: the restart note was listed under what the text says and again as the
    reason nothing was fitted; the command line said it twice too (tests/test_metrics.py)."""
    # (after its first letter, which the error writes in lower case after a colon)
    reason = parse_metrics((DATA / name).read_text()).notes[-1].rstrip(".")[1:]
    home.fill("#spec-metrics-text", (DATA / name).read_text())
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.includes('cannot be fitted')")
    said = home.locator("[data-metrics]").inner_text()  # the status is in it, the pasted text not
    assert reason in home.locator("[data-metrics-status]").inner_text()
    assert said.count(reason) == 1, said


def test_partial_input_says_what_was_read_and_what_is_missing(home):
    home.fill("#spec-metrics-text", (DATA / "prometheus-not-speculating.txt").read_text())
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.includes('cannot be fitted')")
    assert "not speculating" in home.locator("[data-metrics-status]").inner_text()
    assert "running requests" in home.locator("[data-metrics-reading]").inner_text()
    assert current_query(home) == ""  # nothing was applied


def test_the_essay_link_pastes_the_example_in_one_click(home):
    link = home.locator("a.spec-metrics-example").first
    assert "Measuring it in vLLM" in home.evaluate(
        "(a) => { let h = a.closest('p'); while (h && !/^H2$/.test(h.tagName)) h = h.previousElementSibling; return h?.textContent; }",
        link.element_handle())
    link.click()
    assert "rising with position" in _wait_read(home)
    assert home.locator("#spec-metrics-text").input_value().startswith("SpecDecoding metrics:")


def test_the_box_at_phone_width_in_dark_mode_by_keyboard_announces_once(new_context):
    context = new_context(viewport={"width": 375, "height": 800}, color_scheme="dark")
    page = context.new_page()
    page.goto("/")
    wait_rendered(page, "")
    assert page.get_by_label("vLLM SpecDecoding metrics:", exact=False).count() == 1
    page.evaluate("""() => {
      window.__announced = [];
      const status = document.querySelector('[data-metrics-status]');
      new MutationObserver(() => window.__announced.push(status.textContent))
        .observe(status, {childList: true, characterData: true, subtree: true});
    }""")
    page.locator("#spec-metrics-text").focus()
    text = (DATA / "prometheus-one.txt").read_text()
    # the first line key by key, the rest as a paste inserts it (1,600 keystrokes would take 25 s
    # and test Playwright's keyboard, not the page)
    first, rest = text.split("\n", 1)
    page.keyboard.type(first + "\n")
    page.keyboard.insert_text(rest)
    page.keyboard.press("Tab")  # to "Read my numbers"
    assert page.evaluate("() => document.activeElement.type") == "submit"
    page.keyboard.press("Enter")
    _wait_read(page)
    page.wait_for_function("() => document.querySelector('[data-metrics-answer] table')")
    assert len(page.evaluate("() => window.__announced")) == 1
    status = page.locator("[data-metrics-status]")
    assert status.get_attribute("role") == "status"
    box = page.locator("[data-metrics]")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), "the box overflows at 375 px"
    assert box.evaluate("b => b.getBoundingClientRect().right <= window.innerWidth")
    # dark mode: the textarea's text is light on dark
    colour = page.locator("#spec-metrics-text").evaluate("t => getComputedStyle(t).color")
    assert sum(int(x) for x in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]) > 382


def test_a_text_that_cannot_be_fitted_leaves_no_section_empty(home):
    """Found by a cold read: after this paste the message was clear, but under it "The fit: No
    fit." over a bare table header, the deployment's selectors and "The model's answer" with
    nothing under it. What was read stays; what needs a fit is hidden."""
    home.fill("#spec-metrics-text", "hello world 1 2 3 <script>alert(1)</script> SpecDecoding metrics: banana")
    home.click("[data-metrics-form] button[type=submit]")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.includes('cannot be fitted')")
    assert home.locator("[data-metrics-outcome]").is_hidden()
    assert home.locator("[data-metrics] table:visible, [data-metrics] select:visible, "
                        "[data-metrics] pre:visible, [data-metrics-fit]:visible").count() == 0
    # every heading on screen has something on screen under it before the next heading
    assert home.evaluate("""() => [...document.querySelectorAll('[data-metrics-result] h4')]
      .filter((h) => h.checkVisibility())
      .every((h) => { const next = h.nextElementSibling; return next && next.checkVisibility() && next.textContent.trim(); })""")
    assert home.locator("[data-metrics-reading]").inner_text().startswith("read from")
    assert current_query(home) == ""
    # a text that fits afterwards shows every section again
    home.click("[data-action=metrics-example]")
    _wait_read(home)
    assert home.locator("[data-metrics-outcome]").is_visible()
    assert home.locator("[data-metrics-answer] table").is_visible()


def test_a_text_of_hundreds_of_positions_is_summarised_over_the_positions_it_used(home):
    """Found by a cold read: 200 rates of 0.5 read "γ = 10, mean acceptance length 101.00" (the γ
    the fit used beside the mean over all 200 positions), and all 200 rates were listed. More than
    MAX_DRAFT_POSITIONS are now refused (impossible.json); as many as that are still cut."""
    from specmodel.metrics.report import listed_rates
    n = MAX_DRAFT_POSITIONS
    rates = ["0.5"] * n
    home.fill("#spec-metrics-text", "SpecDecoding metrics: Per-position acceptance rate: " + ", ".join(rates))
    home.click("[data-metrics-form] button[type=submit]")
    status = _wait_read(home)
    top = SIMULATION_MAX_GAMMA
    assert status.startswith(f"Read vLLM V1 log: {n} draft positions, of which the simulation drafts at most {top}, "
                             f"so the fit used the first {top} (positions {top + 1} to {n} were not used): over them, "
                             f"γ = {top}, mean acceptance length {1 + 0.5 * top:.3f}."), status
    assert f"{1 + 0.5 * n:.2f}" not in status
    reading = home.locator("[data-metrics-reading]").inner_text()
    # the list is the command line's: the first ones, then how many more
    assert listed_rates(tuple(float(r) for r in rates)) in reading and f"… {n - top} more" in reading
    assert reading.count("0.500") == top
    assert f"mean acceptance length {1 + 0.5 * top:.3f} over them" in reading


def test_the_mean_over_the_positions_the_fit_used_is_never_above_the_mean_over_all(home):
    """Found by a cold read: a text of 15 positions read "mean acceptance length, all 15 positions
    (derived: 1 + accepted / drafts) 2.369" and, for its first 10, "2.370 over them" (1 + the sum of
    its rounded rates): a part above its whole. Positions past the cut only add."""
    for text in ((DATA / "v1-fifteen-positions.log").read_text(),
                 # rates past the cut that add, and counts that give the whole
                 "SpecDecoding metrics: Accepted: 700 tokens, Drafted: 1200 tokens, Per-position acceptance rate: "
                 + ", ".join(["0.584"] * 12)):
        show(home, "")
        home.fill("#spec-metrics-text", text)
        home.click("[data-metrics-form] button[type=submit]")
        _wait_read(home)
        reading = home.locator("[data-metrics-reading]").inner_text()
        whole = float(re.search(r"mean acceptance length, all \d+ positions[^\n]*?\s([\d.]+)\s*$", reading, re.M)[1])
        part = float(re.search(r"mean acceptance length ([\d.]+) over them", reading)[1])
        rates = [float(r) for r in re.search(r"Per-position acceptance rate: ([\d.]+(?:, [\d.]+)*)", text)[1].split(", ")]
        assert part <= whole, reading
        # the whole less what the positions past the simulation's γ add
        assert part == pytest.approx(whole - sum(rates[SIMULATION_MAX_GAMMA:]), abs=0.0006), reading


def test_the_summary_says_speculation_off_where_no_gamma_beats_plain_decoding(home):
    """Found by a cold read: at 63 running requests (the simulation's 64) the summary read "best γ
    there 2" over 0.92×, while the answer under it said "leave speculation off"; the command line
    says it in the page's words."""
    text = (DATA / "v1-engine-running.log").read_text().replace("Running: 16 reqs", "Running: 63 reqs")
    home.fill("#spec-metrics-text", text)
    home.click("[data-metrics-form] button[type=submit]")
    status = _wait_read(home)
    cli = _cli("--batch", "64", stdin=text)
    assert cli["advice"]["recommended_gamma"] == 0 and cli["advice"]["best_gamma"] == 2
    assert "speculation off is best there (no γ beats plain decoding)" in status and "best γ there" not in status, status
    answer = home.locator("[data-metrics-answer]").inner_text()
    assert "Best γ at 64 sequences: 2 (" in answer and "), slower than plain decoding.\n" in answer
    # found by a cold read: the verdict said four times (summary, best γ, "stops paying at 64
    # sequences" at the reader's own 64, and the closing line): the answer says it once
    assert answer.count("no γ beats plain decoding") == 1 and "stops paying at 64" not in answer + status, answer
    assert "At 64 sequences no γ beats plain decoding: leave speculation off." in answer
    _check_answer_against_cli(home, cli)


def test_the_fit_says_its_alpha_is_the_grids_and_how_the_command_line_gets_it(home):
    """Found by a cold read: the page read α = 0.80 (1.47×, best γ = 3 at 1.50×) where
    `specmodel fit-metrics` read 0.816 (1.51×, 1.53×), and nothing on the page said why."""
    text = "SpecDecoding metrics: Per-position acceptance rate: 0.810, 0.652, 0.560, 0.442"
    home.fill("#spec-metrics-text", text)
    home.click("[data-metrics-form] button[type=submit]")
    status = _wait_read(home)
    fine = json.loads(specmodel("fit-metrics", "-", "--json", stdin=text).stdout)["fit"]["alpha"]
    grid = _cli(stdin=text)["fit"]["alpha"]
    assert fine == pytest.approx(0.816) and grid == 0.8
    assert f"α = {grid:.2f} on the simulation's grid;" in status, status
    fit = home.locator("[data-metrics-fit]").inner_text()
    assert "α is fitted on the simulation's grid, in steps of 0.05; specmodel fit-metrics fits it finer, or on this " \
           "grid with --site-grid." in fit, fit


@pytest.mark.parametrize("name, batch", [("v1-engine-running.log", 16), ("v1-two-engines.log", 32)])
def test_the_engine_logs_running_count_sets_the_batch_as_the_command_line_does(home, name, batch):
    """Found by a cold read: SpecDecoding lines with "Engine 000: … Running: 16 reqs" priced
    1 sequence at once; only a scrape's gauge set the batch."""
    text = (DATA / name).read_text()
    home.fill("#spec-metrics-text", text)
    home.click("[data-metrics-form] button[type=submit]")
    _wait_read(home)
    cli = _cli(stdin=text)
    assert cli["advice"]["state"]["batch"] == batch
    state = {**manifest()["defaults"], "batch": batch, "gamma": cli["fit"]["gamma"], "alpha": cli["fit"]["alpha"],
             "acceptance": cli["fit"]["shape"]}
    wait_rendered(home, query_of(state))
    assert f"{batch} sequences at once" in home.locator("[data-metrics-answer] p").first.inner_text()
    assert "Running requests" in home.locator("[data-metrics-notes]").inner_text()
    _check_answer_against_cli(home, cli)


def test_a_load_that_does_not_fit_in_memory_gets_no_gamma(home):
    """Found by a cold read: the example at 32 sequences read "use γ 2" beside "fits in memory:
    no" for 256 to 1,024 sequences; the per-batch flag covered only the sizes that fit."""
    home.click("[data-action=metrics-example]")
    _wait_read(home)
    home.select_option("#metrics-batch", "32")
    state = {**manifest()["defaults"], "drafter": "ngram", "gamma": 3, "alpha": 0.5, "acceptance": "rising", "batch": 32}
    wait_rendered(home, query_of(state))
    rows = _answer_rows(home)
    assert any(r[5] == "no" for r in rows)
    for r in rows:
        assert (r[4] == "–") == (r[5] == "no"), r
    assert "–: the load does not fit in memory, no γ" in home.locator("[data-metrics-answer]").inner_text()
    _check_answer_against_cli(home, _cli("--drafter", "ngram", "--batch", "32", stdin=(DATA / "v1-ngram.log").read_text()))
    # a load that does not fit gets no flag of its own either, as on the command line
    home.select_option("#metrics-batch", "1024")
    wait_rendered(home, query_of({**state, "batch": 1024}))
    answer = home.locator("[data-metrics-answer]").inner_text()
    assert "At 1,024 sequences the weights and KV caches do not fit in the GPUs' memory: no γ is recommended" in answer
    assert "For 1,024 sequences:" not in answer
    cli = _cli("--drafter", "ngram", "--batch", "1024", stdin=(DATA / "v1-ngram.log").read_text())
    assert cli["advice"]["speculative_config"] is None
    _check_answer_against_cli(home, cli)


def _paste(page, text: str) -> str:
    page.fill("#spec-metrics-text", text)
    # an earlier read's "Read …" off the status first: the wait is for this read's (found by a
    # suite under load: an answer checked before the second of two pastes was read)
    page.eval_on_selector("[data-metrics-status]", "el => { el.textContent = ''; }")
    page.click("[data-metrics-form] button[type=submit]")
    return _wait_read(page)


def _reading_rows(page) -> dict:
    return dict(page.eval_on_selector_all(
        "[data-metrics-reading] div", "divs => divs.map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])"))


def test_what_the_text_says_is_what_it_prints_and_derived_values_say_so(home):
    """Found by a cold read: a line printing a mean acceptance length of 2.61 (without the bonus
    token) was shown as "mean acceptance length 3.610" and "drafts 617", and quoted as printing 3.61."""
    _paste(home, (DATA / "v1-three-means.log").read_text())
    rows = _reading_rows(home)
    assert rows["mean acceptance length, as printed"] == "2.61", rows
    assert rows["mean acceptance length (derived: the printed 2.61 + 1 for the bonus token)"] == "3.610", rows
    assert "mean acceptance length" not in rows
    assert rows["drafts (derived: accepted / the printed mean acceptance length) · draft tokens · tokens in accepted prefixes"] \
        == "617 · 2,400 · 1,610", rows
    notes = home.locator("[data-metrics-notes] li").all_inner_texts()
    assert any("prints a mean acceptance length of 2.61 (3.61 with 1 added for the bonus token" in n for n in notes)
    three = [n for n in notes if "apart from both" in n]
    assert len(three) == 1 and "3.46" in three[0] and sum(n.count("3.68") for n in notes) == 1, notes
    # the command line says the same words (its report's notes are the reading's, each begun in
    # lower case: report.note_text)
    cli = specmodel("fit-metrics", str(DATA / "v1-three-means.log")).stdout
    assert all(f"note: {note_text(n)}" in cli for n in notes), (notes, cli)


def test_the_counts_row_names_what_the_command_line_names(home):
    """Found by a cold read: the page's "accepted (prefixes) (derived: …)" against the command
    line's "accepted (the accepted prefixes)", and "mean len − 1" where every other label writes
    "the printed mean acceptance length": the row of counts, for texts whose counts are derived in
    each way the parser derives them, has the command line's words."""
    for name in ("llama-server.log", "v0.log", "v1-three-means.log", "v1-ngram.log"):
        _paste(home, (DATA / name).read_text())
        label = next(k for k in _reading_rows(home) if k.startswith("drafts"))
        out = specmodel("fit-metrics", str(DATA / name), "--site-grid").stdout
        line = next(ln.strip() for ln in out.splitlines() if ln.startswith("  drafts"))
        assert label == " · ".join(re.sub(r" [\d,.]+$", "", part) for part in re.split(r", (?=draft tokens |tokens in )", line)), (name, label, line)
        assert ") (" not in label and "len" not in label.split()


def test_a_one_number_fit_says_the_grid_limits_it_not_the_shape(home):
    """Found by a cold read: a V0 line fitted 0.076 from α = 0.90 was called "No acceptance shape
    describes these numbers well" (now a V0 line's rate picks its shape: a scrape without
    per-position counters is the one-number fit)."""
    _paste(home, (DATA / "prometheus-no-positions.txt").read_text())
    fit = home.locator("[data-metrics-fit]").inner_text()
    assert "α = 0.90 is the closest α on the grid: its step limits the match." in fit
    # found by a cold read: the paragraph said twice that one number cannot tell the shapes apart
    assert fit.count("tell the shapes apart") + fit.count("tell shapes apart") == 1, fit
    assert "No acceptance shape" not in fit


def test_a_v0_rate_no_shape_gives_is_said_on_the_page(home):
    """Found by a cold read: a V0 rate 0.25 from every shape's average, priced unsaid."""
    _paste(home, (DATA / "v0-rate-misfit.log").read_text())
    fit = home.locator("[data-metrics-fit]").inner_text()
    assert ("No acceptance shape gives both this mean acceptance length and V0's draft acceptance rate (0.900 against "
            "0.648 at best): the answer is only as good as this fit.") in fit, fit


def test_with_one_position_the_page_says_the_shapes_are_one(home):
    """Found by a cold read: at γ = 1 every shape's residual was 0.020 and the page named one best."""
    _paste(home, (DATA / "v1-gamma1.log").read_text())
    fit = home.locator("[data-metrics-fit]").inner_text()
    assert "With one position the three shapes are one: only α is fitted." in fit and "smallest residual wins" not in fit
    # and nothing calls the shape the best fit (cold read 19)
    status = home.locator("[data-metrics-status]").inner_text()
    assert "Fit: acceptance falling with position (assumed), α = 0.70" in status and "Best fit" not in status, status
    rows = home.eval_on_selector_all("[data-metrics-fits] tr", "trs => trs.map(tr => tr.cells[0].textContent)")
    assert any(r.endswith("(assumed)") for r in rows) and not any("(best)" in r for r in rows), rows


def test_a_v0_lines_rate_picks_the_shape_as_the_command_line_says(home):
    """Found by a cold read: a V0 line's rate 0.800 beside a falling fit at α 0.90, which averages
    0.72 (tests/test_metrics.py has the command line's side)."""
    _paste(home, (DATA / "v0.log").read_text())
    labels = manifest()["labels"]["acceptance"]
    fit = home.locator("[data-metrics-fit]").inner_text()
    assert fit.startswith(f"Acceptance {labels['same']}, α = 0.80 at γ = 4"), fit
    assert (f"V0's draft acceptance rate, an average over the positions, can: at the α that gives the length, "
            f"{labels['falling']} averages 0.717, {labels['same']} averages 0.800, {labels['rising']} averages 0.853, "
            "against the text's 0.800. The nearest wins.") in fit, fit
    rows = home.eval_on_selector_all("[data-metrics-fits] tr", "trs => trs.map(tr => tr.cells[0].textContent)")
    assert f"{labels['same']} (nearest V0's rate)" in rows, rows
    assert "cannot be told" not in home.locator("[data-metrics-notes]").inner_text()


def test_the_status_names_the_fit_the_predictions_use(home):
    """Found by a cold read: "Best fit: acceptance rising … α = 0.50; the predictions use its mean
    acceptance length, 2.18" on a configuration holding falling acceptance only, 2.18 being the
    falling fit's."""
    home.goto("/?gpu=h200&target=qwen3-14b")
    wait_rendered(home, "?gpu=h200&target=qwen3-14b")
    home.click("[data-action=metrics-example]")
    status = _wait_read(home)
    labels = manifest()["labels"]["acceptance"]
    alpha = float(dict(p.split("=") for p in current_query(home).lstrip("?").split("&"))["alpha"])
    assert f"Best fit: acceptance {labels['rising']}, α = 0.50 on the simulation's grid, which these settings do not " \
           f"offer: the predictions use acceptance {labels['falling']}, α = {alpha:.2f}, whose mean acceptance length is " \
           in status, status
    assert "the predictions use its mean acceptance length" not in status


def test_a_change_under_your_deployment_keeps_what_was_read_in_the_status(home):
    home.click("[data-action=metrics-example]")
    _wait_read(home)
    home.select_option("#metrics-batch", label="256")
    home.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.includes('settings now shown')")
    status = home.locator("[data-metrics-status]").inner_text()
    assert status.startswith("Read vLLM V1 log: γ = 3, mean acceptance length 2.164. Best fit: acceptance"), status


ENGINE = ("(APIServer pid=1) INFO 05-01 12:00:{s} [loggers.py:111] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
          "Avg generation throughput: 1900.0 tokens/s, Running: {n} reqs, Waiting: 0 reqs, GPU KV cache usage: 20.0%, "
          "Prefix cache hit rate: 0.0%\n")


def test_the_page_and_site_grid_price_the_same_snapped_batch(home):
    """Found by a cold read: --site-grid priced 56 running requests where the page priced 64."""
    text = ENGINE.format(s="00", n=48) + ENGINE.format(s="10", n=64) + (DATA / "v1-ngram.log").read_text()
    _paste(home, text)
    cli = _cli(stdin=text)
    assert cli["advice"]["state"]["batch"] == 64
    assert "56 running requests: the simulation's nearest batch size on its doubling scale is 64." in home.locator("[data-metrics-answer]").inner_text()
    wait_rendered(home, query_of({**manifest()["defaults"], "batch": 64, "gamma": 3, "alpha": cli["fit"]["alpha"],
                                  "acceptance": cli["fit"]["shape"]}))
    _check_answer_against_cli(home, cli)


V0_LINE = ("INFO 03-01 10:00:00 metrics.py:467] Speculative metrics: Draft acceptance rate: 0.612, System efficiency: "
           "0.480, Number of speculative tokens: 5, Number of accepted tokens: 30600, Number of draft tokens: 50000, "
           "Number of emitted tokens: 36000.")


def _cli_text(*args: str, stdin: str) -> str:
    out = specmodel("fit-metrics", "-", "--site-grid", *args, stdin=stdin)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_start_up_line_naming_other_gpus_than_the_site_holds_is_told(home):
    """Found by a cold read: a log whose start-up line says tensor_parallel_size=2 was priced on
    the site's one GPU (4 for a 70B target) and answered --tensor-parallel-size with that number,
    nothing said. The page (the site's data) and fit-metrics --site-grid say which GPUs they price
    and how to price the text's; fit-metrics alone prices them."""
    text = (DATA / "v1-startup-eagle3.log").read_text()
    assert "tensor_parallel_size=1" in text
    two = text.replace("tensor_parallel_size=1", "tensor_parallel_size=2")
    answer = home.locator("[data-metrics-answer]")
    _paste(home, two)
    _check_answer_against_cli(home, _cli(stdin=two))
    shown = answer.inner_text().replace("\u00a0", " ")
    assert ("The text names tensor_parallel_size=2 (vLLM's start-up line); the answer prices Llama-3.1-8B-Instruct on "
            "one H100 SXM, as the site's data hold it: specmodel fit-metrics prices the 2 the text names.") in shown, shown
    assert ("note: tp 1: the text names tensor_parallel_size=2 (vLLM's start-up line); the site's data hold "
            "Llama-3.1-8B-Instruct on 1 GPU only; without --site-grid the text's 2 GPUs are priced") in _cli_text(stdin=two)
    alone = specmodel("fit-metrics", "-", "--json", stdin=two)
    assert json.loads(alone.stdout)["advice"]["state"]["tp"] == 2
    # a number the model does not price; and the text's own number: nothing to say
    sixteen = text.replace("tensor_parallel_size=1", "tensor_parallel_size=16")
    _paste(home, sixteen)
    assert ("The text names tensor_parallel_size=16 (vLLM's start-up line); the answer prices Llama-3.1-8B-Instruct on "
            "one H100 SXM, as the site's data hold it: the model prices 1, 2, 4 or 8 GPUs, not 16.") in \
        answer.inner_text().replace("\u00a0", " ")
    # a count for the text's own target, not another the reader sets (found by a cold read)
    _paste(home, two)
    home.select_option("#metrics-target", "llama-3.3-70b-instruct")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Llama-3.3-70B-Instruct on')")
    assert "tensor_parallel_size" not in answer.inner_text()
    home.select_option("#metrics-target", "llama-3.1-8b-instruct")
    _paste(home, text)
    assert "tensor_parallel_size" not in answer.inner_text()
    # a variant of a target the site has: the nearest, said (found by a cold read: a text naming
    # Qwen/Qwen3-30B-A3B-Instruct-2507 and the head for Qwen3-30B-A3B priced dense Qwen3-8B)
    moe = text.replace("model='meta-llama/Llama-3.1-8B-Instruct'", "model='Qwen/Qwen3-30B-A3B-Instruct-2507'").replace(
        "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'", "model='AngelSlim/Qwen3-a3B_eagle3'")
    _paste(home, moe)
    _check_answer_against_cli(home, _cli(stdin=moe))
    shown = answer.inner_text().replace("\u00a0", " ")
    assert ("The answer prices Qwen3-30B-A3B, 'Qwen/Qwen3-30B-A3B', the nearest the site has to the model the text "
            "names, 'Qwen/Qwen3-30B-A3B-Instruct-2507' (vLLM's start-up line).") in shown, shown
    assert "The answer prices the EAGLE-3 head: the text names it" in shown, shown
    # still said once the reader has set the target away and back (found by a cold read)
    home.select_option("#metrics-target", "llama-3.3-70b-instruct")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Llama-3.3-70B-Instruct on')")
    home.select_option("#metrics-target", "qwen3-30b-a3b")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('Qwen3-30B-A3B on')")
    assert "the nearest the site has to the model the text names" in answer.inner_text()
    assert "the nearest the catalog has being Qwen3-30B-A3B" in _cli_text("--target", "qwen3-30b-a3b", stdin=moe)


def test_a_text_without_a_running_count_says_which_batch_the_answer_prices(home):
    """Found by a cold read: a V0 line (no running count) pasted at ?batch=256 read "0.62× at 256
    sequences", the simulation's batch, and nothing said where 256 came from; the command line
    said "batch 1: the text does not say"."""
    from specmodel.metrics.report import no_load
    home.goto("/?batch=256")
    wait_rendered(home, "?batch=256")
    _paste(home, V0_LINE)
    answer = home.locator("[data-metrics-answer]").inner_text()
    said = f"{no_load(None).capitalize()}: the answer prices the simulation's 256 sequences. Set yours under “Your deployment”."
    assert said in answer, answer
    # found by a cold read: once the reader has set the batch and the drafter under "Your
    # deployment", the answer no longer asks them to
    home.select_option("#metrics-batch", "32")
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('32 sequences')")
    home.select_option("#metrics-drafter", "eagle3")
    # (not "EAGLE-3" alone: the γ-by-load flag's limits name it whatever the drafter)
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('drafting with the EAGLE-3 head')")
    answer = home.locator("[data-metrics-answer]").inner_text()
    assert "Set yours" not in answer, answer
    assert f"{no_load(None).capitalize()}: the answer prices 32 sequences, as set under “Your deployment”." in answer, answer
    assert "the answer prices the EAGLE-3 head, as set under “Your deployment”." in answer, answer
    home.goto("/?batch=256")
    wait_rendered(home, "?batch=256")
    _paste(home, V0_LINE)
    # the command line gives the same reason for the batch it prices, and its flag to change it
    assert f"note: batch 1: {no_load(None)}; --batch sets it" in _cli_text(stdin=V0_LINE)
    # a running count of 0 (idle engine lines only) tells no load either, in the command line's words
    idle = ENGINE.format(s="00", n=0) + (DATA / "v1-ngram.log").read_text()
    _paste(home, idle)
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('(idle)')")
    answer = home.locator("[data-metrics-answer]").inner_text()
    assert f"{no_load(0).capitalize()}: the answer prices the simulation's 256 sequences." in answer, answer
    assert f"note: batch 1: {no_load(0)}; --batch sets it" in _cli_text(stdin=idle)
    # a text that says how many were running sets the batch and needs no such sentence
    _paste(home, (DATA / "prometheus-two.txt").read_text())
    home.wait_for_function("() => document.querySelector('[data-metrics-answer]').textContent.includes('32 sequences at once')")
    answer = home.locator("[data-metrics-answer]").inner_text()
    assert "running" not in answer and "the answer prices the simulation's" not in answer, answer


def _best_gamma_item(page) -> str:
    return next(t for t in page.locator("[data-metrics-answer] li").all_inner_texts() if t.startswith("Best γ at "))


def _tail(line: str) -> str:
    """What a best-γ line says after its speedup."""
    return line[line.index("×)") + 2:]


def test_the_best_gamma_line_says_what_the_summary_says_where_the_load_does_not_fit(home):
    """Found by a cold read: at ?batch=256 the summary read "no γ there: the load does not fit in
    memory" and the list under it "Best γ at 256 sequences: 2 (0.78×)." with nothing more; the
    command line's best-γ line said no more either."""
    from specmodel.metrics.report import NO_ROOM
    home.goto("/?batch=256")
    wait_rendered(home, "?batch=256")
    status = _paste(home, V0_LINE)
    assert "no γ there: the load does not fit in memory" in status, status
    item = _best_gamma_item(home)
    assert item.startswith("Best γ at 256 sequences: 2 (") and item.endswith(
        f"×), slower than plain decoding, and {NO_ROOM}."), item
    cli = next(line for line in _cli_text("--batch", "256", stdin=V0_LINE).splitlines() if "best γ at batch" in line)
    assert _tail(cli) + "." == _tail(item), (cli, item)
    # where its best γ beats plain decoding, the load still does not fit: said, in the same words
    home.click("[data-action=metrics-example]")
    _wait_read(home)
    home.wait_for_function("() => location.search.includes('drafter=ngram')")
    # the URL changes before the answer is written for the new state: wait for the answer's
    # fitted γ to be the example's, then read it
    home.wait_for_function("""() => [...document.querySelectorAll('[data-metrics-answer] li')]
        .some(li => li.textContent.startsWith('Best γ at ') && !li.textContent.includes('slower than plain'))""")
    item = _best_gamma_item(home)
    assert item.endswith(f"×), but {NO_ROOM}."), item
    ngram = (DATA / "v1-ngram.log").read_text()
    cli = next(line for line in _cli_text("--drafter", "ngram", "--batch", "256", stdin=ngram).splitlines()
               if "best γ at batch" in line)
    assert _tail(cli) + "." == _tail(item), (cli, item)
    _check_answer_against_cli(home, _cli("--drafter", "ngram", "--batch", "256", stdin=ngram))
    # and at a load that fits and pays, nothing follows the speedup
    home.select_option("#metrics-batch", "1")
    home.wait_for_function("() => [...document.querySelectorAll('[data-metrics-answer] li')]"
                           ".some(li => li.textContent.startsWith('Best γ at 1 sequence:'))")
    assert _tail(_best_gamma_item(home)) == "."


def test_the_summary_names_the_target_and_its_gpus(page, page_log):
    """Found by a cold read: at ?target=qwen3-32b the summary said "Predicted for … on H100 SXM"
    where the answer below (and --tensor-parallel-size 2) price two."""
    page.goto("/?target=qwen3-32b")
    wait_rendered(page, "?target=qwen3-32b&tp=2")  # the site gives Qwen3-32B two H100s
    page.click("[data-action=metrics-example]")
    status = _wait_read(page)
    assert "Predicted for Qwen3-32B on 2 × H100 SXM drafting with the n-gram" in status, status
    # the answer's first line names them the same way (found by a cold read: "…, drafter n-gram
    # prompt lookup, 1 sequence at once", a field list where the summary speaks a sentence)
    first = page.locator("[data-metrics-answer] p").first.inner_text()
    assert first.startswith("Predictions of the cost model (calibrated"), first
    assert "not measurements: Qwen3-32B on 2 × H100 SXM drafting with the n-gram prompt lookup, " in first, first


def test_the_answer_names_every_setting_it_is_priced_at_and_the_command_line_prices_them_alike(home):
    """Found by a cold read: at ?cost=whole-pass&workload=steady-state&context=8192 the answer
    priced the ideal roofline in the steady state and named neither the workload nor how to ask
    the command line for it (2.08× at γ 4 there, 1.98× at γ 3 in a closed batch)."""
    query = "?cost=whole-pass&batch=16&context=8192&drafter=eagle3&workload=steady-state"
    show(home, query)
    text = (DATA / "v1-pooled.log").read_text()
    _paste(home, text)
    first = home.locator("[data-metrics-answer] p").first.inner_text().replace("\u00a0", " ")
    labels = json.loads((SITE / "data" / "manifest.json").read_text())["labels"]
    for said in (f"({labels['cost_model']['whole-pass']})", "8,192 tokens of context", f"workload {labels['workload']['steady-state']}"):
        assert said in first, first
    # the essay's options for what the simulation is set to give the page's answer
    cli = _cli("--drafter", "eagle3", "--cost-model", "whole-pass", "--context", "8192", "--workload", "steady-state",
               stdin=text)
    _check_answer_against_cli(home, cli)
    essay = (SITE / "index.html").read_text()
    assert all(f"<code>{o}</code>" in essay for o in ("--cost-model", "--context", "--workload")), "the essay names the options"


@pytest.mark.parametrize("log", ["v0-running-100.log", "v0.log", "v1-engine-running.log", "prometheus-two.txt"])
def test_what_the_text_says_keeps_its_values_readable(new_context, log):
    """Found by a cold read: after a V0 log at 1440 px the reading's values were 13 px wide, a
    letter or two a line, running over the table of contents (a long derived name took the width).
    At a laptop's width and a phone's (one page, its window resized)."""
    page = new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.goto("/")
    wait_rendered(page, "")
    _paste(page, (DATA / log).read_text())
    for width in (1440, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        got = page.evaluate("""() => {
          const dl = document.querySelector('[data-metrics-reading]').getBoundingClientRect();
          return [...document.querySelectorAll('[data-metrics-reading] dd')].map((dd) => {
            const r = dd.getBoundingClientRect();
            return [dd.textContent.slice(0, 30), r.width, r.right - dl.right, dl.width];
          });
        }""")
        assert got
        for text, w, beyond, whole in got:
            assert w >= min(0.3 * whole, 160) and beyond <= 1, (width, text, w, beyond, whole)


# Each phrase the paste box writes that a line must not split ("α = 0.75", "n-gram",
# "Llama-3.3-70B-Instruct", "80 GB"): [phrase, lines it takes] for every one on two or more.
PHRASES_SPLIT = r"""() => {
  const pattern = /(?<![\w`])[γαB] [=≈] [\d.,]*\d|[\d.,]*\d (?:GB|GiB|MB|kB|ms|µs|TB\/s|GB\/s|TFLOP\/s|PFLOP\/s|W)(?![\w\/])|[^\s,;()]*[\p{L}\p{N}][-\/][^\s,;()]*[\p{L}\p{N}]/gu;
  const range = document.createRange();
  const found = [], split = [];
  for (const box of document.querySelectorAll('[data-metrics-status], [data-metrics-result]')) {
    // the text as one string, each character's node and offset beside it: a phrase may span
    // the spans that keep its parts whole
    const chars = [];
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement.closest('pre, [hidden]') && n.parentElement.offsetParent !== null) {
        for (let i = 0; i < n.data.length; i++) chars.push([n, i, n.data[i]]);
      }
      chars.push([null, 0, ' ']);
    }
    const text = chars.map((c) => c[2]).join('');
    for (const m of text.matchAll(pattern)) {
      if (m[0].length > 24) continue;
      const first = chars[m.index], last = chars[m.index + m[0].length - 1];
      if (!first[0] || !last[0]) continue;
      range.setStart(first[0], first[1]);
      range.setEnd(last[0], last[1] + 1);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      found.push(m[0]);
      if (tops.size > 1) split.push([m[0], tops.size]);
    }
  }
  return {found, split};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_paste_box_keeps_each_name_value_and_amount_on_one_line(new_context, scheme):
    """Found by a cold read: at 375 px the summary ended a line on "α =" with the value on the
    next, and split "n-gram" and "Llama-3.3-70B-Instruct" at their hyphens."""
    page = new_context(viewport={"width": 375, "height": 812}, color_scheme=scheme).new_page()
    query = "?gpu=h200&target=llama-3.3-70b-instruct&tp=2&drafter=eagle3"
    page.goto("/" + query)
    wait_rendered(page, query)
    for text in [None, (DATA / "llama-server.log").read_text(), (DATA / "v0-rate-misfit.log").read_text(),
                 (DATA / "v1-engine-running.log").read_text()]:
        if text is None:
            page.click("[data-action=metrics-example]")
            _wait_read(page)
        else:
            _paste(page, text)
        got = page.evaluate(PHRASES_SPLIT)
        assert any(p.startswith("α = ") for p in got["found"]) and len(got["found"]) > 10, got
        assert got["split"] == [], got


def test_an_extrapolated_deployment_says_so_in_the_answer_as_the_command_line_does(home):
    """Found by a cold read: for L40S / Qwen3-32B the paste box's answer never said the calibrated
    constants were fitted on Qwen3-8B on one H100; the simulation and fit-metrics do."""
    from specmodel import State, default_catalog
    from specmodel.extrapolation import extrapolation_note
    home.goto("/?gpu=l40s&target=qwen3-32b")
    home.wait_for_function("() => document.querySelector('#simulation')?.hasAttribute('data-rendered')")
    _paste(home, (DATA / "v1-engine-running.log").read_text())
    answer = home.locator("[data-metrics-answer]").inner_text()
    catalog = default_catalog()
    state = State(gpu="l40s", target="qwen3-32b", tp=catalog.tensor_parallel_for("l40s", "qwen3-32b"))
    note = extrapolation_note(state, catalog)
    assert note and f"This configuration is {note}." in answer, answer
    cli = _cli_text("--gpu", "l40s", "--target", "qwen3-32b", stdin=(DATA / "v1-engine-running.log").read_text())
    assert f"({note})" in cli
    # on the essay's own configuration, nothing of the kind
    home.goto("/")
    wait_rendered(home, "")
    _paste(home, (DATA / "v1-engine-running.log").read_text())
    assert "This configuration is" not in home.locator("[data-metrics-answer]").inner_text()


def test_counts_are_grouped_and_a_near_tie_of_residuals_is_told_apart(home):
    """Found by cold reads: "2000 running requests: the simulation's nearest batch size is 1024"
    beside "1,024 sequences"; and a fit table of falling 0.029 "(best)" beside the same 0.029."""
    text = ((DATA / "v1-engine-running.log").read_text().replace("Running: 16 reqs", "Running: 2000 reqs")
            .replace("Running: 0 reqs", "Running: 2000 reqs"))
    _paste(home, text)
    page_text = home.locator("[data-metrics-result]").inner_text() + home.locator("[data-metrics-status]").inner_text()
    assert "2,000 running requests: the simulation's nearest batch size on its doubling scale is 1,024." in page_text, page_text
    assert "2000" not in page_text and _reading_rows(home)["running requests"] == "2,000"
    show(home, "")
    _paste(home, (DATA / "v1-all-rejected.log").read_text())
    cells = home.eval_on_selector_all("[data-metrics-fits] tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    residuals = {row[0].split(" (")[0]: row[2] for row in cells}
    cli = _cli(stdin=(DATA / "v1-all-rejected.log").read_text())
    d = residual_decimals(SimpleNamespace(**cli["fit"]))  # the command line's fit, as --site-grid gives it
    assert d > 3 and len(set(residuals.values())) == len(residuals), residuals
    assert residuals == {manifest()["labels"]["acceptance"][s]: f"{r:.{d}f}" for s, r in cli["fit"]["residuals"].items()}


# Every menu's longest option it can show closed (enabled) against the room its select leaves
# for text: Chromium draws the arrow in the right padding's place, ~20 px.
MENU_TEXT_ROOM = """() => [...document.querySelectorAll('select')].filter(s => s.offsetParent !== null).map(s => {
  const style = getComputedStyle(s);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  // (a disabled option, never shown in the closed menu, says why at length in the open list)
  const widest = Math.max(...[...s.options].filter(o => !o.disabled).map(o => ctx.measureText(o.textContent).width));
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return [s.id || s.name, Math.round(widest), Math.round(room)];
})"""


def test_every_menu_shows_its_longest_option_whole(new_context):
    """Found by a cold read: at 740 × 360 the paste box's drafter menu read "Llama-3.2-1B draft
    mode", its last letter under the arrow (the issue found the workload menu cut on a phone).
    Every menu on the page, the simulation's and the paste box's, at a phone's, a small laptop's
    and a laptop's width, has room for its longest option (one page, its window resized)."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto("/?target=llama-3.3-70b-instruct")
    wait_rendered(page, "?target=llama-3.3-70b-instruct&tp=4&drafter=llama-3.2-1b")
    _paste(page, (DATA / "v1-pooled.log").read_text())
    cut = []
    for width, height in ((1280, 800), (740, 360), (375, 812)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        menus = page.evaluate(MENU_TEXT_ROOM)
        assert {name for name, _, _ in menus} >= {"metrics-drafter", "metrics-gpu", "sim-drafter", "sim-workload"}, menus
        cut += [(width, name, widest, room) for name, widest, room in menus if widest > room]
    assert cut == [], cut


def test_a_huge_count_is_written_alike_on_the_page_and_the_command_line(home):
    """Found by a cold read: "Drafted: 300000000000000000000000 tokens" came back as
    300,000,000,000,000,008,388,608 from the command line (the double's own digits) and as
    300,000,000,000,000,000,000,000 on the page: one count, two tails. Both write the shortest
    digits that are the number, the text's own."""
    text = ("SpecDecoding metrics: Mean acceptance length: 2.50, Accepted: 150000000000000000000000 tokens, "
            "Drafted: 300000000000000000000000 tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, "
            "Avg Draft acceptance rate: 50.0%")
    _paste(home, text)
    shown = next(v for k, v in _reading_rows(home).items() if k.startswith("drafts"))
    cli = _cli_text(stdin=text)
    line = next(l for l in cli.splitlines() if l.strip().startswith("drafts"))
    numbers = re.findall(r"\d{1,3}(?:,\d{3}){2,}", line)
    assert shown.split(" · ") == numbers, (shown, line)
    assert numbers[1:] == ["300,000,000,000,000,000,000,000", "150,000,000,000,000,000,000,000"], numbers
    # and the count derived from them, to the digits a double holds (found by a cold read: 3e23 / 3
    # written 100,000,000,000,000,010,000,000)
    assert numbers[0] == "100,000,000,000,000,000,000,000", numbers


@pytest.mark.parametrize("name", ["prometheus-one.txt", "v1-0.8.5.log", "v1-ngram.log", "llama-server.log", "v1-three-means.log"])
def test_the_status_writes_the_mean_acceptance_length_as_the_box_under_it(home, name):
    """Found by a cold read: "mean acceptance length 2.61" in the status over 2.612 in "What the
    text says": one quantity at two precisions."""
    status = _paste(home, (DATA / name).read_text())
    said = re.search(r"mean acceptance length ([0-9.]+)\.", status).group(1)
    rows = _reading_rows(home)
    means = [v for k, v in rows.items() if k.startswith("mean acceptance length")]
    assert said in means, (said, rows)
