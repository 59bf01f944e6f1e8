"""Every number in the essay's prose comes from the model.

Templates may hold bare numbers only where they are not model outputs: years, citation labels
(Theorem 3.11, Eq. 1 …), footnotes (the citations themselves), identifiers (Qwen3-8B, H100),
code, and links. And changing a model
constant must change the prose numbers that depend on it.
"""
import re

import pytest

from generator.build import prepare, render_essay
from generator.essay import TEMPLATES
from specmodel import load_catalog
from specmodel.catalog import GPU_ENTRIES

CITATION = re.compile(
    r"\b(?:Theorem|Theorems|Eq\.|Eqs\.|Equation|Section|Sections|§|Algorithm|Appendix|Corollary|Definition|Table|Figure|"
    r"Lemma|Chapter|Part|step|Step|line|Line|lines)\s*[A-Z]?\d+(?:\.\d+)*(?:\s*(?:and|,|–|-)\s*[A-Z]?\d+(?:\.\d+)*)*",
)
YEAR = re.compile(r"\b(?:19|20)\d\d[a-z]?\b")
BARE_NUMBER = re.compile(r"(?<![\w.\-+:/^_#])\d+(?:[.,]\d+)*(?![\w\-])")


def prose_of(template_text: str) -> str:
    t = re.sub(r"\{#.*?#\}", " ", template_text, flags=re.S)
    t = re.sub(r"\{%.*?%\}", " ", t, flags=re.S)
    t = re.sub(r"\{\{.*?\}\}", " ", t, flags=re.S)
    t = re.sub(r"^(```|~~~).*?^\1", " ", t, flags=re.S | re.M)  # fenced code
    t = re.sub(r"`[^`\n]*`", " ", t)  # inline code and formulas
    t = re.sub(r"<math\b.*?</math>", " ", t, flags=re.S)  # formulas (MathML)
    t = re.sub(r"<[^>]*>", " ", t)  # HTML tags and their attributes
    t = re.sub(r"\]\([^)]*\)", "]", t)  # link targets
    t = re.sub(r"\{[:.#][^}]*\}", " ", t)  # attribute lists
    t = re.sub(r"^\[\^[^\]]+\]:.*$", " ", t, flags=re.M)  # footnote definitions: citations
    t = re.sub(r"\[\^[^\]]+\]", " ", t)  # footnote references
    t = re.sub(r"https?://\S+", " ", t)
    t = re.sub(r"arXiv:\S+", " ", t)
    t = CITATION.sub(" ", t)
    t = YEAR.sub(" ", t)
    return t


def bare_numbers(template_text: str) -> list[str]:
    found = []
    for lineno, line in enumerate(prose_of(template_text).splitlines(), 1):
        found += [f"{m.group()} in: {line.strip()[:100]}" for m in BARE_NUMBER.finditer(line)]
    return found


@pytest.mark.parametrize("name", ["index.md.j2", "model.md.j2", "simulation.html.j2"])
def test_templates_hold_no_bare_numbers_in_prose(name):
    assert bare_numbers((TEMPLATES / name).read_text(encoding="utf-8")) == []


def test_the_check_catches_a_typed_number():
    assert bare_numbers("At batch 64 the speedup is {{ busy.speedup | times }}.") != []
    assert bare_numbers("Theorem 3.11 (2023) says {{ x }}; see `1/(1-a)` and Qwen3-8B.") == []


def _quoted(catalog):
    _, quoted = render_essay(prepare(catalog, every_configuration=False, files=False))
    return {f"{page}:{k}": v for page, values in quoted.items() for k, v in values.items()}


def test_changing_a_model_constant_changes_the_prose(built):
    # the session's build is the unchanged catalog's: its quoted numbers are the baseline
    base = {f"{page}:{k}": v for page, values in built[1].items() for k, v in values.items()}
    gpus = {k: dict(v) for k, v in GPU_ENTRIES.items()}
    gpus["h100-sxm"]["peak_memory_bandwidth_bytes_per_s"] *= 1.05  # a faster memory system, claims intact
    changed = _quoted(load_catalog(gpu_entries=gpus))
    assert base.keys() == changed.keys()
    # the bandwidth sets memory time, so every quoted memory time and plain rate must move …
    memory_bound = [k for k in base if k.endswith((".verify_memory_time_s", ".plain_tokens_per_s"))]
    assert memory_bound, "the essay quotes no memory time or plain tokens/s"
    for k in memory_bound:
        assert base[k] != changed[k], k
    # … while sizes that do not depend on the GPU stay put
    for k in base:
        if k.endswith((".target_weight_bytes", ".draft_kv_bytes_per_token", ".verify_bytes")):
            assert base[k] == changed[k], k


def test_each_quoted_quantity_is_written_one_way(built):
    """One rounding everywhere: found by cold reads, 15.55 GiB against 15.56, and the arithmetic
    ratio under the paper's assumptions written 1.648, 1.65× and 1.6× on one page (2.09× and 2.1×,
    4.52× and 4.5× too). Every value the prose quotes more than once is written the same each time."""
    several = {f"{page}:{key}": texts for page, values in built[1].items() for key, texts in values.items()
               if len(set(texts)) > 1}
    assert several == {}


# a number as the filters write it, and what follows it (its unit, "×", "%", or nothing)
WRITTEN = re.compile(r"(?P<number>-?\d[\d,]*(?:\.\d+)?)(?P<unit>.*)", re.S)


def two_precisions(written: list[tuple[float, str]]) -> list[tuple[float, list[str]]]:
    """The values written to two precisions in one unit (111.8 and 112): texts of one value whose
    numbers differ. "0.80" beside "0.8000" say the same number and pass; "2,048" beside "2.0 kB"
    are in two units and pass."""
    texts: dict[float, set[str]] = {}
    for value, text in written:
        texts.setdefault(value, set()).add(text)
    found = []
    for value, these in texts.items():
        by_unit: dict[str, set[float]] = {}
        for text in these:
            m = WRITTEN.fullmatch(text)
            if m:  # a word ("faster", "fits") is no number
                unit = m["unit"].strip().removesuffix("×")  # 0.89 and 0.89× are one number
                by_unit.setdefault(unit, set()).add(float(m["number"].replace(",", "")))
        if any(len(numbers) > 1 for numbers in by_unit.values()):
            found.append((value, sorted(these)))
    return found


def test_a_page_writes_each_value_to_one_precision(prepared_default):
    """Found by cold reads: a page that said plain decoding "reads 112" experts where its table
    said 111.8, and fitted efficiencies 0.73 and 0.91 in the prose beside 0.733 and 0.906 in the
    table above it. Whatever its name, a value one page writes twice is written to one precision
    (the table of published figures excepted: its values are written to the published figure's
    decimals, the `published` filter)."""
    from generator.essay import Recorder

    recorder = Recorder()
    render_essay(prepared_default, recorder=recorder)
    assert set(recorder.written) == {"index.md", "model.md"}
    assert {page: two_precisions(written) for page, written in recorder.written.items()} == {
        "index.md": [], "model.md": []}


def test_the_one_precision_check_catches_two_roundings():
    assert two_precisions([(111.84, "111.8"), (111.84, "112"), (0.8, "0.80"), (0.8, "0.8000"),
                           (2048.0, "2,048"), (2048.0, "2.0\u00a0kB"), (1.14, "1.14×"), (1.14, "faster"),
                           (0.89, "0.89"), (0.89, "0.89×")]) == [(111.84, ["111.8", "112"])]


def test_a_readout_is_written_in_one_format(built):
    """The simulation's readouts (what the page rewrites for every state) follow the same rule:
    one field, one numeric format, wherever it shows ("verdict" is the speedup in words)."""
    html = built[0]["index.md"].decode()
    formats: dict[str, set[str]] = {}
    for key, fmt in re.findall(r'data-readout="([^"]+)" data-fmt="([^"]+)"', html):
        formats.setdefault(key, set()).add(fmt)
    assert len(formats) >= 15
    assert {k: f for k, f in formats.items() if len(f - {"verdict"}) > 1} == {}
