"""The command line: JSON keys, the table, the vLLM view, claims, and every kind of bad input."""
import json
import re
import math
import subprocess
import sys

import pytest

from specmodel import READOUT_KEYS

from cli_run import specmodel


def run(*args):
    return specmodel(*args)


def test_json_keys_and_headline_value():
    out = run("evaluate", "--batch", "64", "--json", "--cost-model", "whole-pass")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == set(READOUT_KEYS)
    assert data["speedup"] == pytest.approx(0.885441, rel=0.002)


def test_the_default_cost_model_is_the_calibrated_one():
    default = json.loads(run("evaluate", "--json").stdout)
    calibrated = json.loads(run("evaluate", "--json", "--cost-model", "calibrated").stdout)
    whole_pass = json.loads(run("evaluate", "--json", "--cost-model", "whole-pass").stdout)
    assert default == calibrated
    assert default["speedup"] < whole_pass["speedup"]


def test_off_grid_values_are_accepted():
    data = json.loads(run("evaluate", "--batch", "3", "--context", "1000", "--alpha", "0.731", "--json").stdout)
    assert 1 < data["speedup"] < 3


def test_table_has_units():
    out = run("evaluate", "--cost-model", "whole-pass").stdout
    for fragment in ("speedup", "1.929×", "tokens/s", "16.702 GB", "ms", "147.5 kB", "of 80 GB", "whole-pass cost model"):
        assert fragment in out


def test_vllm_log_line_and_config():
    lines = run("vllm-log", "--batch", "64", "--cost-model", "whole-pass").stdout.splitlines()
    assert lines[0].startswith("--speculative-config '{\"method\": \"draft_model\", ")
    assert json.loads(lines[0].split("'")[1]) == {"num_speculative_tokens": 4, "model": "Qwen/Qwen3-0.6B",
                                                   "method": "draft_model"}
    # vLLM's format string, filled with the values the model gives at batch 64
    assert lines[1] == (
        "SpecDecoding metrics: Mean acceptance length: %s, Accepted throughput: %s tokens/s, "
        "Drafted throughput: %s tokens/s, Accepted: %s tokens, Drafted: %s tokens, "
        "Per-position acceptance rate: %s, Avg Draft acceptance rate: %s%%"
    ) % ("2.61", "2535.91", "6313.96", "10282", "25600", "0.750, 0.478, 0.259, 0.119", "40.2")
    ngram = run("vllm-log", "--drafter", "ngram", "--gamma", "3").stdout.splitlines()[0]
    assert json.loads(ngram.split("'")[1]) == {"prompt_lookup_max": 4, "num_speculative_tokens": 3, "method": "ngram"}
    # a state on several GPUs: the flags a reader types include the tensor parallelism it assumes
    sharded = run("vllm-log", "--target", "llama-3.3-70b-instruct", "--tp", "4", "--drafter", "llama-3.2-1b",
                  "--batch", "1").stdout.splitlines()[0]
    assert sharded.startswith("--tensor-parallel-size 4 --speculative-config '{")


def test_claims_all_within_tolerance():
    out = run("claims", "--check")
    assert out.returncode == 0
    assert re.search(r"this model gives all \d+ reference values within their tolerance$", out.stdout.rstrip())
    assert "OUTSIDE" not in out.stdout


def test_claims_says_what_each_column_is_and_each_rows_tolerance():
    """Found by cold reads: the "expected" column was nowhere explained (and equalled "ours"), no
    tolerance was shown; then "seed", "specified" and "match" read as the build's vocabulary and
    a test report, and the descriptions wrote "alpha .75, gamma 4, c 0" where the page writes
    α, γ and ĉ; then the reference and tolerance columns, shown by default, still read as the test
    suite's data: they are --check's."""
    out = run("claims")
    head = " ".join(out.stdout.split("\n\n")[0].split())
    assert "published:" in head and "this model:" in head and "random run" in head and "reference:" not in head
    header = next(ln for ln in out.stdout.splitlines() if ln.startswith("id "))
    assert header.split() == ["id", "published", "this", "model", "quantity"], header
    assert "tolerance" not in out.stdout and out.returncode == 0
    checked = run("claims", "--check")
    head = " ".join(checked.stdout.split("\n\n")[0].split())
    for column in ("published:", "this model:", "reference:"):
        assert column in head, column
    assert "relative tolerance" in head
    rows = [ln for ln in checked.stdout.splitlines() if ln.startswith(("headline_", "b64_", "thm311", "d17_a95"))]
    assert rows and all(re.search(r" ±\d\.\d%  ", ln) for ln in rows), rows
    header = next(ln for ln in checked.stdout.splitlines() if ln.startswith("id "))
    assert header.split() == ["id", "published", "this", "model", "reference", "tolerance", "quantity"], header
    for text in (out.stdout, checked.stdout):
        for word in ("seed", "specified", "match", "alpha", "gamma"):
            assert not re.search(rf"\b{word}\b", text), word
        assert "α = 0.75, γ = 4" in text and "α = 0.95" in text
    assert "published:" in run("claims", "--help").stdout and "--check" in run("claims", "--help").stdout


@pytest.mark.parametrize("args,option", [
    (["--alpha", "0"], "--alpha"), (["--alpha", "1.5"], "--alpha"), (["--alpha", "nan"], "--alpha"),
    (["--alpha", "abc"], "--alpha"), (["--gamma", "0"], "--gamma"), (["--batch", "0"], "--batch"),
    (["--batch", "2.5"], "--batch"), (["--context", "0"], "--context"), (["--drafter", "gpt"], "--drafter"),
    (["--target", "llama"], "--target"), (["--gpu", "a100"], "--gpu"), (["--acceptance", "up"], "--acceptance"),
    (["--workload", "open"], "--workload"), (["--cost-model", "ideal"], "--cost-model"),
    (["--engine", "ollama"], "--engine"), (["--output-tokens", "0"], "--output-tokens"),
])
def test_bad_input_is_one_line_exit_2(args, option):
    out = run("evaluate", *args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "allowed:" in lines[0]
    assert "Traceback" not in out.stderr


def _every_combination():
    from specmodel import default_catalog

    catalog = default_catalog()
    for gpu in catalog.gpus:
        for target in catalog.targets:
            for tp in (1, 2, 4, 8):
                for drafter in catalog.drafters_for(target):
                    yield catalog, gpu, target, tp, drafter


def test_every_catalog_combination_evaluates_or_refuses_in_one_line(capsys):
    # In process (the same main() as the command): every GPU, target, tensor parallelism and
    # drafter, at the defaults. What fits prints its table; what does not, one line with the
    # memory it needs, and the two sets are what the weights and KV caches say.
    from specmodel.cli import main

    fits = refused = 0
    for catalog, gpu, target, tp, drafter in _every_combination():
        argv = ["evaluate", "--gpu", gpu, "--target", target, "--tp", str(tp), "--drafter", drafter]
        rc = main(argv)
        out, err = capsys.readouterr()
        d = catalog.drafter(drafter, target)
        # weights, and the KV caches of the prompt (2,048) and the output (256) tokens (readouts.py)
        needed = (catalog.targets[target].weight_bytes + d.weight_bytes
                  + (2048 + 256) * (catalog.targets[target].kv_bytes_per_token + d.kv_bytes_per_token))
        capacity = tp * catalog.gpus[gpu].memory_capacity_bytes
        if rc == 0:
            assert needed <= capacity and "speedup" in out and err == "", argv
            fits += 1
        else:
            lines = err.strip().splitlines()
            assert rc == 2 and needed > capacity and len(lines) == 1, argv
            assert f"needs {math.ceil(needed / 1e8) / 10:,.1f} GB" in lines[0] and "--tp" in lines[0], lines[0]
            refused += 1
    assert fits > 400 and refused > 20


def test_the_issue_example_runs_and_names_its_extrapolation():
    out = run("evaluate", "--gpu", "h200", "--target", "llama-3.3-70b-instruct", "--tp", "4", "--drafter", "eagle3")
    assert out.returncode == 0, out.stderr
    assert "llama-3.3-70b-instruct on 4 × h200" in out.stdout
    # the 70B head's acceptance is the 8B's, carried over, and the line says so
    assert "extrapolated" in out.stdout and "measured on another target: mean acceptance length 2.79 at γ = 3" in out.stdout


def test_without_tp_a_target_runs_on_the_gpus_the_site_gives_it():
    # Found once: the page opened Llama-3.3-70B on four L40S, the CLI assumed one and refused it
    out = run("evaluate", "--gpu", "l40s", "--target", "llama-3.3-70b-instruct")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("llama-3.3-70b-instruct on 4 × l40s")
    assert run("evaluate").stdout.startswith("qwen3-8b on h100-sxm,")  # the essay's, on one GPU


def test_a_drafter_of_another_family_is_refused_in_one_line():
    out = run("evaluate", "--target", "llama-3.1-8b-instruct", "--drafter", "qwen3-0.6b")
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and "llama-3.2-1b" in lines[0] and "allowed:" in lines[0]


def test_catalog_lists_every_gpu_model_and_drafter_with_sources():
    from specmodel import default_catalog

    catalog = default_catalog()
    out = run("catalog").stdout
    for key in [*catalog.gpus, *catalog.models, *catalog.drafters]:
        assert key in out, key
    assert "989" in out and "5.3 TB/s" in out and "AngelSlim" in out and "config.json" in out


# The evaluate table's lines that the page shows too: [CLI label, readout, the page's format].
SHOWN_ON_THE_PAGE = [
    ("speedup", "speedup", "times"),
    ("verify pass bytes", "verify_bytes", "gb2"),
    ("verify pass time", "verify_time_s", "ms"),
    ("verify memory time", "verify_memory_time_s", "ms"),
    ("verify arithmetic time", "verify_compute_time_s", "ms"),
    ("target weights", "target_weight_bytes", "gb2"),
    ("draft weights", "draft_weight_bytes", "gb2"),
    ("target KV cache per token", "target_kv_bytes_per_token", "kb"),
    ("draft KV cache per token", "draft_kv_bytes_per_token", "kb"),
]


@pytest.mark.parametrize("args", [[], ["--batch", "64"], ["--drafter", "ngram"], ["--drafter", "eagle3"], ["--gpu", "b200"],
                                  ["--cost-model", "whole-pass", "--gamma", "1"],
                                  ["--target", "llama-3.3-70b-instruct", "--gpu", "l40s", "--tp", "4",
                                   "--drafter", "llama-3.2-1b"]])
def test_the_page_writes_what_the_command_line_prints_rounded_as_a_reader_rounds_it(args):
    """The command line prints a digit or more beyond the page; a reader who rounds its figure
    (half up) must get the page's. Found by a cold read: "147.5 kB" per token in the CLI, "147 kB"
    on the page (its format had no decimals, and 147.456 rounds down)."""
    from decimal import ROUND_HALF_UP, Decimal

    from generator.formats import FORMATS, format_value
    from specmodel import evaluate
    from specmodel.state import State

    out = run("evaluate", "--alpha", "0.75", "--ignore-memory", *args).stdout
    printed = {line.strip().rsplit("  ", 1)[0].strip(): line.strip().rsplit("  ", 1)[1].strip()
               for line in out.splitlines()[1:] if "  " in line.strip()}
    options = dict(zip(args[::2], args[1::2]))
    state = State(alpha=0.75, **{k.lstrip("-").replace("-", "_"): (int(v) if v.isdigit() else v)
                                 for k, v in options.items()})
    readouts = evaluate(state).as_dict()
    units = {"×": Decimal(1), "GB": Decimal(10) ** 9, "kB": Decimal(10) ** 3, "ms": Decimal(10) ** -3,
             "µs": Decimal(10) ** -6}
    split = lambda text: re.fullmatch(r"([\d,.]+)\s*(\S+)", text).groups()  # noqa: E731
    wrong = []
    for label, key, kind in SHOWN_ON_THE_PAGE:
        page = format_value(kind, readouts[key])
        (cli_number, cli_unit), (page_number, page_unit) = split(printed[label]), split(page)
        # in the page's unit (a small time is in µs there), to the page's decimals
        value = Decimal(cli_number.replace(",", "")) * units[cli_unit] / units[page_unit]
        decimals = len(page_number.partition(".")[2])
        rounded = value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        if f"{rounded:,}" != page_number:
            wrong.append(f"{label}: CLI {printed[label]}, page {page}")
    assert wrong == []


def test_the_catalog_wraps_its_lines_where_the_page_would_and_aligns_its_values():
    """Found by a cold read: `specmodel catalog` ended lines on "at γ" and "5–10" and began the next
    with "= 3" and "µs", and each engine constant's source began in another column."""
    from specmodel import default_catalog
    from specmodel.display import UNIT_SYMBOLS
    out = run("catalog")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    units = "|".join(re.escape(u) for u in UNIT_SYMBOLS)
    split = [(a, b) for a, b in zip(lines, lines[1:])
             if re.search(r"(?<![\w`])[γαB](?: [=≈])?$", a.rstrip())
             or (re.search(r"\d$", a.rstrip()) and re.match(rf"\s*(?:{units})(?![\w/])", b))]
    assert split == []
    assert "5–10 µs" in out.stdout and "γ = 3 from" in out.stdout  # the two the cold read found, whole
    # each engine constant's value in one column, its source in the next
    catalog = default_catalog()
    names = {n for e in catalog.engines.values() for n in e.constants}
    rows = [ln for ln in lines if ln.strip().split(" ", 1)[0] in names]
    assert len(rows) == sum(len(e.constants) for e in catalog.engines.values())
    value_starts = {len(ln) - len(ln.lstrip()[len(ln.strip().split(" ", 1)[0]):].lstrip()) for ln in rows}
    source_starts = {re.match(r"\s*\S+\s+\S+\s+", ln).end() for ln in rows}
    assert len(value_starts) == 1 and len(source_starts) == 1, (value_starts, source_starts)


def test_validate_names_each_rows_engine_says_why_a_row_is_no_test_and_explains_its_contexts():
    """Found by a cold read: rows 106 and 107 (SGLang, TensorRT-LLM) read as vLLM rows with an empty
    "held" cell, and "[fitted context 562]" / "[implied context 343]" were nowhere explained."""
    from specmodel import default_catalog
    from specmodel.calibration.measurements import ONE_POINT_ENGINES, POINTS
    from specmodel.validate_text import CONTEXT_LEGEND
    catalog = default_catalog()
    out = run("validate")
    assert out.returncode == 0, out.stderr
    table = out.stdout.split("\n\n")[1]  # (the labels given whole come after it)
    rows = {m.group(1): ln for ln in table.splitlines() if (m := re.match(r"\s*(\d+)[* ]", ln))}
    for point in POINTS.values():
        line = rows[point.id]
        if "not modelled" in line:
            continue
        name = catalog.engines[point.engine].label.split(" (")[0]
        assert (f" in {name}, batch" in line) == (point.engine != "vllm"), line
        if "context unknown" in line:
            continue
        held = line.split("  ")[-2].strip()  # the cell before "[… context N]"
        assert re.fullmatch(r"(ok|MISS) \(±[\d.]+ ?(pp|%)\)|no: .+", held), line
        if ONE_POINT_ENGINES.get(point.engine) == point.id:
            assert held == f"no: sets {name}'s step overhead", line
    # each setting in the model page's words, apart from its row id and plot mark (found by a cold
    # read: "67*plain decode (Fig.3 no-SD bar)" where the page wrote "plain decoding")
    assert all(re.match(r"\s*\d+[* ] \S", line) for line in rows.values())
    assert "plain decode " not in out.stdout and "no-SD" not in out.stdout and "plain decoding, batch 1 " in table
    # a label cut to its column ends on a whole word (found by a cold read: "time breakdo…"), and
    # each cut label is given whole under the table
    whole = dict(re.findall(r"^\s+(\d+) (.+)$", out.stdout.split("Labels cut above, whole:\n", 1)[1].split("\n\n", 1)[0],
                            re.M))
    clipped = 0
    for row_id, line in rows.items():
        m = re.match(r"\s*\d+[* ] (.*?)…", line)
        if m:
            clipped += 1
            assert whole[row_id].startswith(m.group(1)) and whole[row_id][len(m.group(1))] in " -,;:(", (m.group(1), whole)
    assert clipped > 0
    assert "row: the measurement's id in" in out.stdout.split("\n\n")[0]
    assert "batch light load" not in out.stdout and ", light load" in out.stdout
    used = set(re.findall(r"\[(\w+) context [\d,]+\]", out.stdout))
    assert used and used <= set(CONTEXT_LEGEND)
    for basis in used:
        assert f"\n  {basis}: {CONTEXT_LEGEND[basis]}\n" in out.stdout, basis


def test_the_catalog_prints_the_typical_acceptance_evaluate_defaults_to_and_cuts_nothing():
    """Found by a cold read: evaluate's --alpha help sent readers to `specmodel catalog`, which
    printed no α; and the catalog and validate cut sources and labels mid-word ("time bre")."""
    from specmodel import default_catalog
    catalog = default_catalog()
    out = run("catalog")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    for drafter, by_target in catalog.typical_acceptance.items():
        for target, by_task in by_target.items():
            t = by_task["chat"]
            assert f"{drafter} {target} chat α {t.alpha:.4g} {t.acceptance}" in text, (drafter, target)
    evaluated = json.loads(run("evaluate", "--drafter", "eagle3", "--json").stdout)
    assert f"eagle3 qwen3-8b chat α {catalog.typical_acceptance['eagle3']['qwen3-8b']['chat'].alpha:.4g}" in text
    assert evaluated["speedup"] > 1
    assert "github.com/SpecDecode-Bench/simulator" in out.stdout  # an address is never broken at its hyphen
    for engine in catalog.engines.values():
        for source in engine.sources.values():
            assert " ".join(source.split()) in text, source  # whole, if wrapped
    validate = run("validate").stdout
    # a method cut to its column says so: "draft model (chain) - time b…, batch 1", never "time bre, batch 1"
    assert "…, batch" in validate and not re.search(r"\b(?:bre|breakdo|CUDA gr), batch", validate), validate


@pytest.mark.parametrize("command", [["sweep", "--batch", "1,2,4,8,16,32,64,128", "--gamma", "1,2,3,4,5,6,7,8,9,10",
                                      "--context", "512,2048,8192"], ["catalog"]])
def test_a_reader_that_stops_reading_gets_no_error(command):
    """Found by a cold read: `specmodel evaluate … | head` printed "specmodel: error: [Errno 32]
    Broken pipe": a pipe closed after its first line ends every command quietly."""
    proc = subprocess.Popen([sys.executable, "-m", "specmodel", *command], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does after its line
    assert proc.stderr.read() == b""
    assert proc.wait() in (0, 1)


def test_the_catalog_writes_each_gpus_figures_as_the_model_pages_table_does():
    """Found by a cold read: the model page says `specmodel catalog` prints the same table, but wrote
    0.86 TB/s, 4.80 TB/s and 362 TFLOP/s where the catalog wrote 0.864, 4.8 and 362.1."""
    from paths import ROOT
    from specmodel import default_catalog

    page = (ROOT / "docs" / "model.md").read_text(encoding="utf-8").replace("\u00a0", " ")
    out = run("catalog").stdout
    for gpu in default_catalog().gpus.values():
        row = next(ln for ln in page.splitlines() if ln.startswith(f"| {gpu.label} |"))
        cells = [c.strip().replace("&nbsp;", " ") for c in row.split("|")[2:6]]
        line = next(ln for ln in out.splitlines() if f" {gpu.label}: " in ln)
        for cell in cells:
            assert re.search(rf"[ :]{re.escape(cell)}[, ]", line), (gpu.label, cell, line)


def test_the_catalog_says_which_keys_each_option_takes():
    """Found by a cold read: the catalog's model list names llama-3.2-1b-instruct and
    eagle3-qwen3-8b, which --drafter refuses: it takes the drafters' keys, listed below them."""
    out = run("catalog").stdout
    models, drafters = out.index("\nModels ("), out.index("\nDrafters (")
    assert "--target takes a target's key" in out[models:models + 300]
    assert "drafter's key, under Drafters" in out[models:models + 300]
    assert out[drafters:].startswith("\nDrafters (the values of --drafter")
    for key in ("llama-3.2-1b", "eagle3", "ngram"):
        assert re.search(rf"^  {re.escape(key)} ", out[drafters:], re.M), key
        assert run("evaluate", "--drafter", key, "--target", "llama-3.1-8b-instruct", "--ignore-memory").returncode == 0


def test_every_bound_and_file_error_reads_as_the_rest():
    """Found by a cold read: "an integer from 1 to 1.04858e+06" for --context, and fit-metrics on a
    missing file printed Python's "[Errno 2] …" without naming the argument or what it takes."""
    from specmodel.fields import FIELDS
    for f in FIELDS.values():
        assert not re.search(r"\de[+-]?\d", f.allowed()), (f.name, f.allowed())
    assert "1 to 1,048,576" in run("evaluate", "--context", "-1").stderr
    err = run("fit-metrics", "/nonexistent/log.txt")
    assert err.returncode == 2 and err.stderr.startswith("specmodel: error: argument file: '/nonexistent/log.txt' cannot be read")
    assert "allowed: a saved engine log or Prometheus scrape, or - for standard input" in err.stderr


@pytest.mark.parametrize("argv, option", [
    (["evaluate", "--tp", "3"], "argument --tp"),  # argparse's own
    (["sweep", "--batch", "1:abc"], "argument --batch"),
    (["evaluate", "--target", "llama-3.1-8b-instruct", "--drafter", "qwen3-0.6b"], "argument --drafter"),
    (["evaluate", "--drafter", "ngram", "--batch", "256"], "arguments --batch, --context, --tp"),
    (["fit-metrics", "/nonexistent/log.txt"], "argument file"),
])
def test_every_refused_value_names_the_option_it_came_through_as_argparse_does(argv, option):
    """Found by a cold read: one run said "argument --tp:", the next "--batch:", "drafter:",
    "memory:" (no option) with remedies for allowed values, and "file:"."""
    out = run(*argv)
    assert out.returncode == 2 and out.stderr.startswith(f"specmodel: error: {option}: "), out.stderr
    assert out.stderr.count("; allowed: ") == 1 and out.stderr.count("\n") == 1


def test_evaluate_left_to_its_typical_alpha_says_which_alpha_the_site_shows():
    """Found by a cold read: the decision map's cell for L40S, Llama-3.3-70B, 512 sequences of 512
    tokens said 1.0004× at α 0.85 (the site's grid); `evaluate` left to its default α 0.8363 said
    0.993×, and nothing said why: the note under its table names the site's α and how to price it."""
    argv = ["evaluate", "--gpu", "l40s", "--target", "llama-3.3-70b-instruct", "--batch", "512", "--context", "512",
            "--drafter", "eagle3", "--gamma", "1", "--ignore-memory"]
    out = run(*argv).stdout
    assert "α=0.8363" in out and "the site's pages use 0.85, the nearest α on their grid: --alpha 0.85 prices what they show" in out
    assert run(*argv, "--alpha", "0.85").stdout.split("\n")[1].split()[-1] == "1.0004×"
    # an α on the grid already: nothing to say
    assert "the site's pages use" not in run("evaluate").stdout


@pytest.mark.parametrize("command", ["evaluate", "sweep", "vllm-log"])
def test_every_numeric_option_says_its_range_in_the_help(command):
    """Found by a cold read: --gamma's help said only "draft positions per iteration; default 4"
    (the CLI takes 1 to 32, the page shows 1 to 10)."""
    from specmodel.fields import FIELDS, FLOAT, INT
    text = " ".join(run(command, "--help").stdout.split())
    for f in FIELDS.values():
        if f.kind in (INT, FLOAT) and f.low is not None and f.option in text:
            assert f.allowed() in text, (command, f.option)
    if command != "sweep":
        assert "the site's pages show 1 to 10" in text


def test_a_default_is_said_in_one_wording_by_every_command():
    """Found by a cold read: --tp's default read "the fewest that hold the weights …" in evaluate,
    "the GPUs the site gives the target (as evaluate)" in fit-metrics and "as evaluate: the GPUs each
    target is split across (…)" in sweep."""
    from specmodel.cli import TP_DEFAULT
    from specmodel.fields import FIELDS
    drafter = f"{FIELDS['drafter'].default}, or the first drafter for"
    for command in ("evaluate", "fit-metrics", "sweep"):
        text = " ".join(run(command, "--help").stdout.split())
        assert TP_DEFAULT in text and drafter in text, command
        assert "as evaluate" not in text, command


def test_a_refused_number_is_quoted_as_typed():
    """Found by a cold read: `evaluate --alpha 0` said "got 0.0" and `sweep --batch 1:100000:2`
    "got 65537", values the reader never wrote."""
    assert run("evaluate", "--alpha", "0").stderr.strip().endswith("argument --alpha: got 0; allowed: a number in (0, 1]")
    assert "argument --alpha: got 0; allowed" in run("sweep", "--alpha", "0,0.5").stderr
    assert "argument --batch: range '1:100000:2' reaches 65537; allowed: an integer from 1 to 65,536" in \
        run("sweep", "--batch", "1:100000:2").stderr
    assert "argument --batch: got 1e3;" in run("evaluate", "--batch", "1e3").stderr or \
        "argument --batch: got '1e3';" in run("evaluate", "--batch", "1e3").stderr


def test_a_measured_mean_acceptance_length_is_written_as_the_site_writes_it():
    """Found by a cold read: `vllm-log --drafter ngram --gamma 3` said "mean acceptance length 1.4
    at γ = 3" where the site and its tables write 1.40: two decimals, as the site's num(2)."""
    out = run("vllm-log", "--drafter", "ngram", "--gamma", "3").stdout
    assert "measured: mean acceptance length 1.40 at γ = 3" in out, out


def test_every_figure_of_the_evaluate_table_groups_its_thousands():
    """Found by a cold read: "11177.153 GB" and "2741.005 ms" beside "12,332.7 GB" and "4,114.4
    tokens/s" in one table."""
    out = run("evaluate", "--batch", "1024", "--context", "32768", "--gamma", "10", "--alpha", "0.95", "--ignore-memory").stdout
    rows = [line for line in out.splitlines() if line.startswith("  ")]
    ungrouped = [line for line in rows if re.search(r"(?<![\d,.])\d{4,}", line)]
    assert len(rows) > 15 and ungrouped == [], ungrouped
