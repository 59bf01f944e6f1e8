"""What the rendered pages say in words and tables, checked against the model and the catalog.

The prose's numbers come from template expressions, but the words around them can still be
wrong: arithmetic that leaves a term out, a claim about a readout that holds under one cost model
and not the one the link opens, a sentence about "the drafters" true of two of three, a table
heading whose unit is not the unit printed, a source cell that is a curator's note, a warning
whose grammar is fixed while its number follows the state. Each test reads the rendered text.
"""
from __future__ import annotations

import html as html_lib
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import parse_qsl

import numpy as np
import pytest

from generator.axes import axes, site_state, state_keys
from generator.contract import FIELDS, stored, stored_many
from generator.evidence import PATH, citation, measurements
from generator.formats import FORMATS, format_value, small_decimals
from specmodel import default_catalog, evaluate
from specmodel.costs import CALIBRATED, cost_model

CATALOG = default_catalog()
AXES = axes(CATALOG)


@pytest.fixture(scope="module")
def pages(rendered_pages):
    return rendered_pages


def plain_text(markdown: str) -> str:
    """What a reader sees: no tags, links as their text, one space between words."""
    text = re.sub(r"<[^>]+>", " ", markdown)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)(\{[^}]*\})?", r"\1", text)
    # (a no-break space, written as an entity or not, is a space to the reader)
    return re.sub(r"\s+", " ", html_lib.unescape(text))


def number(text: str) -> float:
    return float(text.replace(",", ""))


def half_ulp(text: str) -> float:
    """Half of the last printed digit's place: how far the printed number may be from its value."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0**-decimals


# --- arithmetic written out in the prose ---------------------------------------------------

UNITS_S = {"µs": 1e-6, "ms": 1e-3, "s": 1.0}
NUM = r"\d[\d,]*(?:\.\d+)?"
TERM = rf"(?:({NUM}) × )?({NUM}) (µs|ms)"
SUM = re.compile(rf"{TERM}((?: \+ {TERM})*) = ({NUM}) (µs|ms)")


def written_sums(text: str) -> list[tuple[str, float, float, float]]:
    """Every "a × b µs + c µs = d ms" in ``text``: (the text, the sum of its terms, the printed
    result, the rounding the printed figures allow), in seconds."""
    out = []
    for m in SUM.finditer(text):
        terms = re.findall(TERM, m[0].split(" = ")[0])
        total = slack = 0.0
        for factor, value, unit in terms:
            k = number(factor) if factor else 1.0
            total += k * number(value) * UNITS_S[unit]
            slack += k * half_ulp(value) * UNITS_S[unit]
        result = number(m[m.lastindex - 1]) * UNITS_S[m[m.lastindex]]
        slack += half_ulp(m[m.lastindex - 1]) * UNITS_S[m[m.lastindex]]
        out.append((m[0], total, result, slack))
    return out


def test_every_written_sum_adds_up(pages):
    for page in pages.values():
        for text, total, result, slack in written_sums(plain_text(page)):
            assert abs(total - result) <= slack * 1.0001, text


def test_the_sum_check_can_fail():
    [(_, total, result, slack)] = written_sums("at least 28 × 61.2 µs = 2.32 ms, however")
    assert abs(total - result) > slack  # the per-pass launch left out


def test_the_launch_floor_sentence_adds_every_term_the_model_charges(pages):
    engine = CATALOG.engines["vllm"]
    drafter = CATALOG.drafter("qwen3-0.6b", "qwen3-8b").architecture
    floor = cost_model(CALIBRATED, engine.constants).launch_floor_s(drafter)
    sums = [s for s in written_sums(plain_text(pages["index.md"])) if s[0].startswith(f"{drafter.num_hidden_layers} ×")]
    assert sums, "the launch-floor sentence writes its sum out"
    for text, total, result, slack in sums:
        assert abs(result - floor) <= half_ulp(text.split(" = ")[1].split()[0]) * 1e-3 * 1.0001, text
        assert abs(total - floor) <= slack, f"{text}: the terms do not add up to the model's floor {floor}"


def footnotes_after_numbers(markdown: str) -> list[str]:
    """Footnote references ([^name]) that follow a digit: a reader sees "64⁶", 64 to the sixth."""
    return [markdown[max(0, m.start() - 40):m.end()] for m in re.finditer(r"\d(?:\.|,)?\[\^[^\]]+\]", markdown)]


@pytest.mark.parametrize("name", ["index.md", "model.md"])
def test_no_footnote_mark_follows_a_number(pages, name):
    assert footnotes_after_numbers(pages[name]) == []


def test_the_footnote_check_can_fail():
    assert footnotes_after_numbers("and 6 % faster at 64[^angelslim-moe].") != []
    assert footnotes_after_numbers("found by Liu et al.[^liu] at 64.") == []


# --- a claim about a readout, under the cost model its link opens ------------------------


def test_the_verify_idle_readout_falls_as_said_under_the_cost_model_the_link_opens(pages, site):
    m = re.search(r"Switch the simulation to the ideal model.*?idle readout (.*?)\.(?: |$)", pages["index.md"], re.S)
    link = re.search(r"\[Switch the simulation to the ideal model\]\((\?[^)]*)\)", pages["index.md"])
    assert m and link
    keys = {f["key"]: f["name"] for f in state_keys()}
    changes = {keys[k]: v for k, v in parse_qsl(link[1][1:])}
    assert "batch" not in changes

    def at(field: str, batch: int) -> float:
        return site.value(field, {**site.defaults, **changes, "batch": batch})

    # the readout the reader drags through: every batch of the grid, at the link's state
    idle = [at("tensor_core_idle_fraction", b) for b in AXES["batch"]]
    assert all(b <= a for a, b in zip(idle, idle[1:])), "the verify idle readout falls with the batch"
    claim = plain_text(m[1])
    assert "the same way" not in claim
    if "faster still" in claim:
        for b in AXES["batch"][1:]:
            plain = 1 - at("plain_pass_compute_time_s", b) / max(at("plain_pass_memory_time_s", b),
                                                                 at("plain_pass_compute_time_s", b))
            assert at("tensor_core_idle_fraction", b) < plain, b
    # each quoted percentage is the readout at its batch, under the link's cost model
    quoted = re.findall(r"([\d.]+)% (?:of the time )?at ([\d,]+)", claim)
    assert len(quoted) >= 3
    for pct, batch in quoted:
        assert format_value("pct1", at("tensor_core_idle_fraction", int(batch.replace(",", "")))) == f"{pct}%", batch


# --- one value, one rounding, in the prose, the readouts and the charts --------------------


def d3_fixed(x: float, decimals: int) -> str:
    """How the charts' d3-format writes ``x`` with ``decimals`` decimals: JavaScript's toFixed,
    which rounds the exact binary value half up."""
    return f"{Decimal(x).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP):f}"


def test_the_ideal_plain_throughput_reads_the_same_in_the_readout_and_the_chart(site):
    from generator.chart_rows import chart_datasets

    state = {**site.defaults, "batch": 1}
    exact = evaluate(site_state(cost_model="whole-pass", batch=1)).plain_tokens_per_s
    prose = format_value("tps", exact)
    [row] = [r for r in chart_datasets("throughput", state, site)["table"] if r["batch"] == 1]
    assert row["other"] == "whole-pass"
    assert f"{d3_fixed(row['other_plain'], 0)}\u00a0tokens/s" == prose
    ideal = chart_datasets("throughput", {**state, "cost_model": "whole-pass"}, site)["table"]
    assert f"{d3_fixed(ideal[0]['plain'], 0)}\u00a0tokens/s" == prose


@pytest.mark.parametrize("name", sorted(n for n, f in FIELDS.items() if f.rounding == "sig" and any(
    "decimals" in FORMATS[x] and "join" not in FORMATS[x] for x in f.formats)))
def test_a_stored_value_is_written_alike_by_every_rounding_rule(name):
    # values that land on a tie at 4 significant digits (160.457 → 160.5) in each format's scale
    rng = np.random.default_rng(7)
    xs = list(rng.uniform(0, 1, 400) * 10.0 ** rng.integers(-6, 10, 400))
    for fmt in FIELDS[name].formats:
        spec = FORMATS[fmt]
        if "decimals" not in spec:
            continue
        unit = spec.get("divide", 1) / spec.get("scale", 1) / 10.0 ** spec["decimals"]
        xs += [(k + 0.5 + d) * unit for k in (0, 1, 160, 2047) for d in (-0.043, 0.0004, 0.043)]
    # beyond 1e9 in a format's unit a double has no digits to spare for the decimals
    xs = [x for x in xs if all(abs(x) * FORMATS[f].get("scale", 1) / FORMATS[f].get("divide", 1) < 1e9
                               for f in FIELDS[name].formats)]
    for values in ([stored(name, x) for x in xs], stored_many(name, xs)):
        for x, v in zip(xs, values):
            for fmt in FIELDS[name].formats:
                spec = FORMATS[fmt]
                if "decimals" not in spec:
                    continue
                scaled = float(v) * spec.get("scale", 1) / spec.get("divide", 1)
                exact = float(x) * spec.get("scale", 1) / spec.get("divide", 1)
                # the decimals it is written to: in a smaller unit ("82.1 GFLOP", "9.12 µs"),
                # rounded once in the format's own unit to as many more (formats.small_decimals)
                small = small_decimals(spec, exact)
                d = small[1] + round(math.log10(spec["below_one"]["scale"])) if small else spec["decimals"]
                assert d3_fixed(scaled, d) == f"{exact:.{d}f}", (name, fmt, x, v)


def test_the_tie_check_can_fail():
    assert d3_fixed(160.5, 0) != f"{160.5:.0f}"


# --- sentences about the drafters' architecture --------------------------------------------


def _models_by_label() -> dict:
    out = {CATALOG.targets["qwen3-8b"].label: CATALOG.targets["qwen3-8b"]}
    for key in AXES["drafter"]:
        d = CATALOG.drafter(key, "qwen3-8b")
        if hasattr(d, "architecture"):
            out[d.label] = d.architecture
    return out


def test_every_clause_giving_a_models_layers_and_heads_is_true_of_each_model_it_names(pages):
    models = _models_by_label()
    text = plain_text(pages["index.md"])
    checked = 0
    for clause in re.split(r"[;:.](?:\s|$)", text):
        named = [label for label in models if label in clause]
        m = re.search(r"(\d+) layers with (\d+) key-value heads(?: of (\d+) dimensions)?", clause)
        if not (m and named):
            continue
        for label in named:
            arch = models[label]
            assert arch.num_hidden_layers == int(m[1]), (label, clause)
            assert arch.num_key_value_heads == int(m[2]), (label, clause)
            if m[3]:
                assert arch.head_dim == int(m[3]), (label, clause)
            checked += 1
    # every separate draft model of the target is described, each by its own figures
    draft_models = [d.label for k in AXES["drafter"] if (d := CATALOG.drafter(k, "qwen3-8b")).kind == "draft_model"]
    assert checked >= len(draft_models)
    assert "in each drafter" not in text


# --- a term of the trade is explained where a reader first meets it ------------------------

# Each page's specialist terms, with the words that explain each (a glossary entry or a gloss in
# the sentence). A reader meets the term first there or after it, in the prose, a figure's caption
# or legend names, or a data table's headings. Found once: "all-reduces", "Megatron-style" and
# "NCCL" unexplained, and "draft launch floor" in a figure's legend a section before the text said
# what a launch floor is.
TERMS = {
    "index.md": [
        ("tensor cores", r"the tensor cores, the GPU's units for arithmetic"),
        ("KV cache", r"its KV cache \(the keys and values every earlier token left"),
        ("γ", r"tokens it guesses per iteration \(γ,"),
        # (found by a cold read too: "pass", "batch" and "iteration" in the opening, the first two
        # explained two paragraphs on, the last nowhere)
        ("pass", r"each pass \(one run of the model over every sequence"),
        ("batch", r"A bigger batch \(more sequences decoded together\)"),
        ("iteration", r"per iteration \(γ, [^)]*; an iteration is one round of guessing and checking\)"),
        ("α", r"accepts its guesses as often as the simulation assumes by default \(at a rate α ="),
        ("launch floor", r"a \*launch floor\*, a least time every pass takes"),
        ("all-reduce", r"an \*all-reduce\* sums"),
        ("tensor[ -]parallel", r"\*tensor parallelism\* keeps a slice"),
        ("(?:n-gram )?prompt lookup", r"\*Prompt lookup\* \(n-gram lookup\) drafts without a model"),
        ("EAGLE-3 head", r"An \*EAGLE-3 head\* is a drafter"),
        # (found by a cold read: "the ideal roofline" and "the calibrated cost model" in the
        # opening, a paragraph before either was said)
        ("roofline", r"the ideal \*roofline\* the essay derives: a pass takes at least the longer"),
        ("calibrated", r"the model is one calibrated to public measurements"),
        # (found by a cold read too: "the target", "a drafter", "a real engine" and vLLM in the
        # opening before anything said what they are)
        ("target", r"the large model, the \*target\*"),
        ("drafter", r"a small model, the \*drafter\*"),
        ("engine", r"serving engine \(the software that batches requests"),
        ("vLLM", r"vLLM, a widely used open-source serving engine"),
        # (found by a cold read: "the cost model the page starts from" a paragraph before saying
        # what a cost model is, and the ladder's rungs before the figure or a word on it)
        ("cost model", r"a \*cost model\*, arithmetic that prices each pass"),
        ("(?:ladder|rung)", r"the ladder \(the chart of the speedup at every batch size, a rung for each\)"),
        # (found by a cold read: SGLang, llama-server and PCIe unexplained, and vLLM's "V1
        # engine" explained a paragraph after it was first named)
        ("SGLang", r"SGLang \(another open-source serving engine\)"),
        ("llama-server", r"llama-server \(llama\.cpp's serving engine\)"),
        ("PCIe", r"PCIe \(the ordinary expansion-card slot"),
        ("V1", r"V1 engine \(the engine every current release runs"),
    ],
    "model.md": [
        ("tensor[ -]parallel", r"tensor parallelism \(one model split across several GPUs"),
        ("all-reduce", r"sum their partial results by all-reduces"),
        ("Megatron", r"by tensor parallelism, as Megatron-LM lays it out"),
        ("NCCL", r"NCCL \(NVIDIA's library of collective operations"),
        ("CUDA graphs?", r"CUDA graphs \(a pass's kernels recorded once"),
        ("GEMM", r"\(a GEMM, general matrix multiply\)"),
        ("launch floor", r"The launch floor is the least time a pass takes"),
        ("prefill", r"prefill \(the pass over the prompt"),
    ],
}


def used_before_explained(text: str, term: str, explanation: str) -> str | None:
    """Why ``term`` (a regular expression) reaches a reader of ``text`` unexplained (its first use comes before the words
    that explain it, or nothing explains it), or None."""
    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text  # not the front matter
    flat = re.sub(r"\s+", " ", body)
    explained = re.search(explanation, flat)
    if not explained:
        return f"{term!r}: nothing explains it"
    first = re.search(rf"(?<![\w-]){term}", flat, flags=re.I)
    if first.start() < explained.start():
        return f"{term!r} first used before it is explained: …{flat[max(0, first.start() - 80):first.end() + 20]}…"
    return None


@pytest.mark.parametrize("name", sorted(TERMS))
def test_a_term_is_explained_where_a_reader_first_meets_it(pages, name):
    problems = [why for term, explanation in TERMS[name] if (why := used_before_explained(pages[name], term, explanation))]
    assert problems == []


def test_the_explanation_check_can_fail():
    text = "A figure: draft launch floor. Then: a *launch floor*, a least time every pass takes."
    assert used_before_explained(text, "launch floor", r"a \*launch floor\*, a least time")
    assert used_before_explained("Two all-reduces per layer.", "all-reduce", r"an \*all-reduce\* sums")
    assert used_before_explained("An *all-reduce* sums, then all-reduces.", "all-reduce", r"An \*all-reduce\* sums") is None


# --- words that assume the reader knows how the site was made ------------------------------

# The published figures the ideal model was fitted to are named as what they are (an essay's,
# from one random run of its simulation); found once as "a reference run" and "three statements
# made from that run are wrong", which read as the site's own history.
HISTORY = re.compile(r"\breference run\b|\bseed (?:essay|figure|value)s?\b|\bthe seed's\b|\bthat run\b|"
                     r"\b(?:an earlier|the previous) (?:draft|version|build)\b", re.I)


@pytest.mark.parametrize("name", ["index.md", "model.md"])
def test_no_sentence_speaks_of_how_the_site_was_made(pages, name):
    assert sorted({m[0] for m in HISTORY.finditer(plain_text(pages[name]))}) == []


def test_the_history_check_can_fail():
    assert HISTORY.search("fitted to the figures of a reference run")
    assert HISTORY.search("Three statements made from that run are wrong")
    assert not HISTORY.search("draws from a fixed seed over a toy vocabulary")
    assert not HISTORY.search("the acceptance rate of the first draft position")


# --- tables -------------------------------------------------------------------------------


def tables(markdown: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every table of a rendered page, Markdown pipe tables and the charts' HTML tables:
    (headings, rows of cells), each cell as its raw source (links kept)."""
    out = []
    for block in re.findall(r"((?:^\|.*\|[ \t]*\n)+)", markdown, flags=re.M):
        lines = [line.strip() for line in block.strip().splitlines()]
        if len(lines) < 2 or not re.match(r"^\|[-| :]+\|$", lines[1]):
            continue
        split = [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
        out.append((split[0], [r for r in split[2:]]))
    for table in re.findall(r"<table\b.*?</table>", markdown, flags=re.S):
        head = [plain_text(h) .strip() for h in re.findall(r"<th\b[^>]*>(.*?)</th>", table, flags=re.S)]
        body = table.split("<tbody>")[1] if "<tbody>" in table else table
        rows = [cells for tr in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, flags=re.S)
                if (cells := re.findall(r"<td\b[^>]*>(.*?)</td>", tr, flags=re.S))]
        out.append((head, rows))
    return out


# What a curator leaves in a cell and a reader should not meet.
EDITORS_NOTES = [
    (PATH, "a path or repository id"),
    (re.compile(r"\.(?:csv|md|py|png|json)\b"), "a file name"),
    (re.compile(r"\brows? \d+"), "a row number"),
    (re.compile(r"\bFig\.\d"), "a figure abbreviated as a note"),
    (re.compile(r"\bno-SD\b|\(chain\)|\bbar\)"), "a curator's label"),
    (re.compile(r" - "), "a hyphen for a dash"),
    (re.compile(r"https?://"), "a bare address"),
    (re.compile(r"\) \("), "two parentheses in a row"),
]


def editors_notes(cell: str) -> list[str]:
    text = plain_text(cell).strip()
    found = [what for pattern, what in EDITORS_NOTES if pattern.search(text)]
    if re.fullmatch(r"\d+", text):
        found.append("a bare row number")
    targets = re.findall(r"\]\(([^)]*)\)", cell) + re.findall(r'href="([^"]*)"', cell)
    found += [f"a link to {t!r}" for t in targets if not re.fullmatch(r"https?://\S+", t)]
    return found


def test_source_and_setting_cells_read_as_citations(pages):
    bad, seen = [], 0
    for page, text in pages.items():
        for head, rows in tables(text):
            for i, h in enumerate(head):
                if not re.match(r"^(source|setting|measured by)\b", h):
                    continue
                for row in rows:
                    seen += 1
                    if i < len(row) and editors_notes(row[i]):
                        bad.append((page, h, plain_text(row[i])[:90], editors_notes(row[i])))
    assert seen > 50
    assert bad == []


def test_the_note_check_can_fail():
    assert editors_notes("[67](https://specdecode-bench.github.io (assets/img/fig3.png = paper Fig.3))")
    assert editors_notes("draft model (chain) - time breakdown")
    assert editors_notes("vLLM (CUDA graphs) (Qwen3-8B on one H100)")


def test_a_measurement_with_an_address_links_its_citation(pages):
    rows = measurements()
    for m in rows.values():
        cited = citation(m)
        assert cited["text"] and not editors_notes(cited["text"]), cited
        if m["url"].startswith("http"):
            assert re.match(r"^https?://\S+$", cited["url"]), m.id
            # in full; or, in the measurements table's narrow column, who, year and figure, with
            # the work in full under the table
            linked = f"[{cited['text']}]({cited['url']})" in pages["model.md"] or (
                f"[{cited['short']}]({cited['url']})" in pages["model.md"]
                and f"[{cited['work']}]({cited['url']})" in pages["model.md"])
            assert linked, m.id


UNIT_WORDS = {"s": "s", "ms": "ms", "µs": "µs", "%": "%", "GiB": "GiB", "GB": "GB", "KiB": "KiB", "kB": "kB",
              "TB/s": "TB/s", "GB/s": "GB/s", "TFLOP/s": "TFLOP/s", "TFLOP": "TFLOP", "tokens/s": "tokens/s"}
CELL_UNIT = re.compile(rf"^-?{NUM}\s?({'|'.join(re.escape(u) for u in sorted(UNIT_WORDS, key=len, reverse=True))})(?:\s|$|\*)")
NAMED_UNIT = re.compile(rf"\(({'|'.join(re.escape(u) for u in UNIT_WORDS)})\)$")


def unit_mismatches(head: list[str], rows: list[list[str]]) -> list[str]:
    """Cells whose printed unit is not the one their column's heading, or their row's label,
    names: a heading "… (ms)" over "61.2 µs", a label "… (s)" beside "604.0 µs"."""
    bad = []
    for row in rows:
        cells = [plain_text(c).strip() for c in row]
        row_units = {m[1] for c in cells if (m := NAMED_UNIT.search(c))}
        for i, cell in enumerate(cells):
            printed = CELL_UNIT.match(cell)
            if not printed:
                continue
            named = NAMED_UNIT.search(head[i]) if i < len(head) else None
            if named and named[1] != printed[1]:
                bad.append(f"{head[i]}: {cell}")
            for unit in row_units - {printed[1]}:
                bad.append(f"row says ({unit}), cell {cell}")
    return bad


def test_units_in_headings_and_labels_match_the_printed_values(pages):
    bad = []
    for page, text in pages.items():
        for head, rows in tables(text):
            bad += [f"{page}: {b}" for b in unit_mismatches(head, rows)]
    assert bad == []


def test_the_unit_check_can_fail():
    assert unit_mismatches(["constant", "value", "what it is"], [["`layer_launch_s`", "61.2 µs", "CPU time (s)"]])
    assert unit_mismatches(["measured (ms)"], [["7.25 s"]])
    assert not unit_mismatches(["measured (ms)"], [["7.25"]])


# --- a sentence whose number follows the state -----------------------------------------------


def test_the_memory_warnings_grammar_follows_the_number_of_gpus(pages):
    from generator.axes import labels

    index = pages["index.md"]
    [warning] = re.findall(r'<p class="spec-sim__warning" data-warning="memory".*?</p>', index, flags=re.S)
    # the words that count GPUs are the live tp output, which the script rewrites with the state
    outputs = re.findall(r'<span data-output="tp">([^<]*)</span>', warning)
    assert outputs == [labels(CATALOG)["tp"][1]]
    static = re.sub(r'<span data-output="tp">[^<]*</span>', " ", warning)
    assert not re.search(r"\bGPUs?\b", plain_text(static)), plain_text(static)
    # the figures' notes carry no count of GPUs the script would leave behind
    for note in re.findall(r"<p class=\"spec-figure__fit\".*?</p>", index, flags=re.S):
        assert not re.search(r"\bGPUs\b|\bthe GPU's\b", plain_text(note)), plain_text(note)


# --- a value beside its uncertainty ----------------------------------------------------------

def uncertainty_problem(value: str, error: str) -> str | None:
    """Why `value ± error` is written with more (or fewer) digits than the error allows: the error
    to two significant figures, the value to the same decimal place. None if it is right."""
    decimals = lambda t: len(t.split(".")[1]) if "." in t else 0
    digits = re.sub(r"^0*", "", error.replace(",", "").replace(".", ""))
    # past 99 a whole error's trailing zeros hold places (140 is 1.4 hundreds: two figures), and
    # its value is rounded to the same place (940 ± 140, not 941 ± 140)
    places = len(digits) - len(digits.rstrip("0")) if "." not in error else 0
    if len(digits) - places != 2 or (places and len(digits) > 3):
        return f"the error {error} has {len(digits) - places} significant figures, not two"
    if decimals(value) != decimals(error):
        return f"{value} and {error} end at different decimal places"
    if places and int(float(value.replace(",", ""))) % 10 ** places:
        return f"{value} is not rounded to the place of {error}"
    return None


def test_every_value_with_an_uncertainty_is_written_to_the_uncertaintys_precision(pages):
    pairs = []
    for page, text in pages.items():
        for head, rows in tables(text):
            cols = [i for i, h in enumerate(head) if "standard error" in h]
            for i in cols:
                pairs += [(page, plain_text(r[i - 1]), plain_text(r[i])) for r in rows if plain_text(r[i]).strip() != "–"]
        pairs += [(page, v, e) for v, e in re.findall(rf"({NUM})(?: µs| ms)? ± ({NUM})", plain_text(text))]
    assert len(pairs) >= 8
    bad = []
    for page, value, error in pairs:
        value, error = (re.sub(r"[^\d.,]", "", x) for x in (value, error))
        if (why := uncertainty_problem(value, error)):
            bad.append((page, why))
    assert bad == []


def test_the_uncertainty_check_can_fail():
    assert uncertainty_problem("1,081.4", "91.4")
    assert uncertainty_problem("604.0", "63.7")
    assert uncertainty_problem("0.73", "0.013")
    assert uncertainty_problem("61.2", "3.8") is None and uncertainty_problem("0.733", "0.013") is None
    assert uncertainty_problem("941", "144") and uncertainty_problem("941", "140")
    assert uncertainty_problem("940", "140") is None and uncertainty_problem("1,420", "150") is None


# --- a readout is called in the prose what its tile calls it --------------------------------


def misnamed_readouts(text: str) -> list[tuple[str, str]]:
    """(the prose's bold name, the tile's label) for each "**Name: value.**" in `text` that names
    a readout of the simulation (two or more words in common with a tile's label) otherwise."""
    tiles = [t.strip() for t in re.findall(r"<dt>([^<]+)</dt>", text)]
    words = lambda s: set(re.findall(r"\w+", s.lower())) - {"of", "the", "a"}
    out = []
    for name in re.findall(r"\*\*([A-Z][^*:\n]{2,50}): ", text):
        near = [t for t in tiles if len(words(t) & words(name)) >= 2 or words(t) == words(name)]
        if near and name not in near:
            out.append((name, near[0]))
    return out


def test_the_prose_calls_each_readout_what_its_tile_calls_it(pages):
    """Found by a cold read: "Draft share of the wall clock" in the prose for the tile "Draft share
    of time", "Mean acceptance length" for "Acceptance length"."""
    assert len(re.findall(r"<dt>", pages["index.md"])) >= 8
    assert misnamed_readouts(pages["index.md"]) == []


def test_the_readout_name_check_can_fail():
    text = "<dt>Draft share of time</dt> - **Draft share of the wall clock: 56%.** and **Speedup over plain: 1.1×.**"
    assert misnamed_readouts(text) == [("Draft share of the wall clock", "Draft share of time")]


ASIDE_WORDS = 30  # a parenthesis inside a sentence longer than this holds the sentence up


def _long_asides(text: str) -> list[str]:
    """Parentheses inside a sentence longer than ASIDE_WORDS words; a sentence set whole in
    parentheses ("(The memory … does.)") is an aside of its own and may run longer."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"\]\([^)]*\)|`[^`]*`|<[^>]+>|\$[^$]*\$", " x ", text)
    found = []
    for para in text.split("\n\n"):
        if para.lstrip().startswith(("|", "{%")):
            continue
        depth, start = 0, 0
        for i, ch in enumerate(para):
            if ch == "(":
                start, depth = (i if depth == 0 else start), depth + 1
            elif ch == ")" and depth:
                depth -= 1
                inner = para[start + 1:i]
                whole_sentence = inner[:1].isupper() and inner.rstrip().endswith((".", "?")) and \
                    (start == 0 or para[:start].rstrip().endswith((".", "?", ":")))
                if depth == 0 and len(inner.split()) > ASIDE_WORDS and not whole_sentence:
                    found.append(" ".join(inner.split()[:12]) + " …")
    return found


def test_no_aside_holds_a_sentence_up(pages):
    """Found by cold reads: a 70-word parenthesis before the main clause of the draft-share argument,
    a 50-word one before the command the simulation prints."""
    for name, text in pages.items():
        assert _long_asides(text) == [], name


def test_the_aside_check_can_fail():
    long = "Priced so (" + "word " * 31 + "), the share rises. (" + "Word " * 40 + "ends.)"
    assert len(_long_asides(long)) == 1


def test_the_essays_example_link_is_named_as_the_boxs_button(pages):
    """Found by a cold read: the prose said "Try the example", the button "Try an example (n-gram,
    γ = 3)": two names for one action. The link's words begin the button's."""
    text = pages["index.md"]
    [button] = re.findall(r'data-action="metrics-example"[^>]*>([^<]+)</button>', text)
    links = re.findall(r"\[([^\]]+)\]\(#paste-your-metrics\)\{\.spec-metrics-example\}", text)
    assert links and all(button.startswith(link) for link in links), (links, button)


def test_the_paragraph_over_the_simulation_says_its_settings_are_the_opening_ones(pages):
    """Found by a cold read: "The simulation below runs … Qwen3-8B in bf16 on one H100 SXM … with
    Qwen3-0.6B" over a simulation a shared link had set to a B200 and n-gram lookup. Static words
    about the simulation's settings say they are where it opens."""
    text = re.sub(r"\s+", " ", plain_text(pages["index.md"]))
    [said] = re.findall(r"The simulation below runs this site's cost model\. (.*?(?:elsewhere|Two cost models))", text)
    assert said.startswith("It opens on") and "a shared link" in said, said


def test_the_engine_log_link_quotes_the_logs_own_readout_in_the_bar(pages):
    """Found by a cold read: the link introducing the engine's log line put tokens/s in the bar
    (3,249), a number the line does not have beside its Accepted throughput (2002.66, without
    the bonus token); the line leads with the mean acceptance length, which the bar quotes."""
    intro = re.search(r"Here it is for the model at \[[^\]]*\]\([^)]*\)\{([^}]*)\}", pages["index.md"])
    assert intro and 'data-bar-readout="mean_acceptance_length"' in intro[1], intro


def test_what_prompt_lookup_adds_is_said_whole(pages):
    """Found by a cold read: "what it adds is the verify pass's extra arithmetic … which is why the
    ideal model's 2.46× becomes 1.84×", where the breakdown figure shows a quarter of the added
    time at 64 sequences is the engine's per-step work and the lookup's own. The sentence names
    both, and the model has both."""
    from specmodel.breakdown import iteration_breakdown, plain_step_breakdown
    text = plain_text(pages["index.md"])
    assert "what it adds is the verify pass's extra arithmetic and, in a real engine, more work per step" in text
    calibrated = cost_model(CALIBRATED, CATALOG.engines["vllm"].constants)
    target, gpu = CATALOG.targets["qwen3-8b"], CATALOG.gpus["h100-sxm"]
    ngram = CATALOG.drafter("ngram", "qwen3-8b")
    spec = iteration_breakdown(calibrated, ngram, target, gpu, 64, 2048, 4)
    plain = plain_step_breakdown(calibrated, target, gpu, 64, 2048)
    assert spec["step_overhead"] > plain["step_overhead"] and spec["drafter_overhead"] > 0


def test_the_draft_share_claim_holds_at_each_batch_it_covers(pages):
    """Found by a cold read: "vLLM shows the opposite at every batch the profile has", where from
    128 sequences on the ideal whole-pass share falls as vLLM's does. The sentence says what holds
    (the build checks it against the calibration's rows: require() in the template)."""
    text = plain_text(pages["index.md"])
    assert "opposite at every batch" not in text
    assert "vLLM's measured share instead falls from the start: it is highest at one sequence, where both ideal models put it lowest." in text


def test_the_decision_rules_acceptance_table_is_written_for_every_target(pages):
    """Found by a cold read: the table of each drafter's typical acceptance was the starting
    target's alone, while the map under it follows the simulation's target. The essay holds one
    table per target the simulation offers, each row's α the one the map uses for that target
    (generator.axes.site_typical_acceptance), only the starting target's shown by the build."""
    from generator.axes import configurations, default_configuration, labels, site_typical_acceptance

    names, names_of_targets = labels(CATALOG)["drafter"], labels(CATALOG)["target"]
    text = pages["index.md"]
    blocks = re.findall(r'<div class="spec-typical" data-for-target="([^"]+)" markdown( hidden data-search-exclude="")?>'
                        r"(.*?)</div>", text, flags=re.S)
    targets = list(dict.fromkeys(c.target for c in configurations(CATALOG)))
    assert [b[0] for b in blocks] == targets
    assert [b[0] for b in blocks if not b[1]] == [default_configuration(CATALOG).target]
    for target, _, block in blocks:
        [(head, rows)] = tables(block)
        assert f"Typical acceptance with **{names_of_targets[target]}**:" in block, block[:200]
        typical = site_typical_acceptance(CATALOG, target)
        served = set(typical)
        tasks = {"chat": "chat", "summarisation": "summarisation", "code editing": "code-editing"}
        seen = set()
        for row in rows:
            drafter = next(d for d in served if plain_text(row[0]).strip() == names[d])
            traffic = plain_text(row[1]).split(" (")[0].strip()
            for task in (tasks.values() if traffic == "every kind" else [tasks[traffic]]):
                assert float(plain_text(row[3]).split()[0]) == pytest.approx(typical[drafter][task][0]), (target, row)
                seen.add((drafter, task))
        assert seen == {(d, t) for d in served for t in tasks.values()}, target
