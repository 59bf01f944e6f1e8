"""The generator: the files it writes against the contract, round trips to the model, the data
version, determinism, failure modes, budget."""
import ast
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import site_model
from generator.axes import STATE_AXES, defaults, site_state, site_typical_acceptance
from generator.build import build, compute
from generator.contract import FIELDS, FILES, TABLES, sig, stored, stored_many
from generator.essay import TEMPLATES, TemplateBuildError
from generator.formats import FORMATS, format_value
from data_layout import configuration_axes, every_file, file_of, index_of
from paths import ROOT
from specmodel import ModelInputError, evaluate, load_catalog
from specmodel.catalog import MODEL_ENTRIES, default_engine_entries
from specmodel.vllm import engine_log_line, engine_log_window

BUDGET_BYTES = 250 * 1000
FIRST_VIEW_DATA_BYTES = 600 * 1000


@pytest.fixture(scope="module")
def files(built):
    return built[0]


def load(files, path):
    return json.loads(files[f"data/{path}"])


_PARSED: dict = {}


def load_once(files, path):
    """``load``, once per file: the round-trip test reads each of its files many times."""
    content = files[f"data/{path}"]
    if _PARSED.get(path, (None,))[0] is not content:
        _PARSED[path] = (content, json.loads(content))
    return _PARSED[path][1]


def value(files, manifest, field, state):
    """A field at a state, read from the files the way the page's data.js reads them."""
    table = manifest["contract"]["fields"][field]["table"]
    spec = manifest["contract"]["tables"][table]
    doc = load_once(files, file_of(manifest, spec["file"], state))
    return doc[table][field][index_of(manifest, spec["dims"], state)]


def test_the_manifest_carries_the_contract(files):
    manifest = load(files, "manifest.json")
    assert [s["name"] for s in manifest["state"]] == list(STATE_AXES)
    assert manifest["defaults"] == defaults()
    assert manifest["formats"] == FORMATS
    contract = manifest["contract"]
    assert set(contract["fields"]) == set(FIELDS)
    for name, table in TABLES.items():
        assert contract["tables"][name] == {"file": table.file, "dims": list(table.dims)}
    assert {c: f["by"] for c, f in contract["files"].items()} == {c: list(f["by"]) for c, f in FILES.items()}


def test_every_file_holds_every_table_with_one_dims_list(files):
    manifest = load(files, "manifest.json")
    seen = 0
    for config, kind, _, path in every_file(manifest):
        axes = configuration_axes(manifest, config)
        tables = [t for t, table in TABLES.items() if table.file == kind]
        doc = load(files, path)
        assert doc["model_version"] == manifest["model_version"]
        assert set(doc) == {"model_version", *tables}
        for table in tables:
            size = math.prod(len(axes[d]) for d in TABLES[table].dims)
            for field, values in doc[table].items():
                assert FIELDS[field].table == table and len(values) == size, (path, table, field)
        seen += 1
    # every data file is one the page can find: nothing written that no state reaches
    assert seen == sum(1 for k in files if k.startswith("data/") and k.count("/") > 2)


def rel_close(stored_value, exact, rel=5.001e-4):
    return abs(stored_value - exact) <= rel * abs(exact) + 1e-300


def test_json_round_trips_to_the_model(files):
    manifest = load(files, "manifest.json")
    rng = np.random.default_rng(42)
    configs = manifest["configurations"]
    for n in range(300):
        # the default configuration half the time, every other one in turn otherwise
        config = configs[0] if n % 2 == 0 else configs[(n // 2) % len(configs)]
        axes = configuration_axes(manifest, config)
        s = {k: axes[k][int(rng.integers(len(axes[k])))] for k in STATE_AXES}
        r = evaluate(site_state(**s))
        for key in ("speedup", "spec_tokens_per_s", "draft_time_share", "arithmetic_ratio", "mean_acceptance_length",
                    "verify_bytes", "verify_flops", "verify_memory_time_s", "verify_compute_time_s",
                    "tensor_core_idle_fraction", "plain_tokens_per_s", "memory_required_bytes"):
            assert rel_close(value(files, manifest, key, s), getattr(r, key)), (s, key)
        for got, exact in zip(value(files, manifest, "per_position_acceptance", s), r.per_position_acceptance, strict=True):
            assert rel_close(got, exact)
        assert value(files, manifest, "fits_in_memory", s) == int(r.fits_in_memory)


def test_every_stored_value_writes_as_the_unrounded_value_does(site):
    # One rounding, from the unrounded value: for every field and every format it may be shown
    # in, the stored value and the model's value read the same (16.70 GB, never 16.69 here and
    # 16.70 in the CLI).
    checked = 0
    for field, spec in FIELDS.items():
        if not spec.formats:
            continue
        for x in np.ravel(site.arrays[field])[:: max(1, site.arrays[field].size // 500)]:
            if isinstance(x, float) and math.isnan(x):
                assert stored(field, x) is None  # not measured there: null
                continue
            for fmt in spec.formats:
                exact = list(x) if isinstance(x, list) else x
                assert format_value(fmt, stored(field, x)) == format_value(fmt, exact), (field, fmt, x)
                checked += 1
    assert checked > 2000


SIG_FIELDS = sorted(name for name, f in FIELDS.items() if f.rounding == "sig")


def _near_ties(name: str):
    """Values on and around the rounding ties of a field's formats and of its digits, at every
    magnitude the data hold, and any float: where NumPy's rounding could part from Python's."""
    units = [FORMATS[f].get("divide", 1) / FORMATS[f].get("scale", 1) / 10.0 ** FORMATS[f].get("decimals", 0)
             for f in FIELDS[name].formats] + [10.0**e for e in range(-12, 13)]
    around = st.builds(lambda k, unit, d: (k + 0.5 + d) * unit, st.integers(-3000, 30000), st.sampled_from(units),
                       st.sampled_from([0.0, 1e-15, -1e-12, 1e-9, 4e-4, -0.043]))
    exact = st.sampled_from([0.0, -0.0, 1.0, 1e-300, 1e22, 1e23])
    return st.lists(st.one_of(around, exact, st.floats(-1e30, 1e30) | st.just(math.nan)), max_size=60)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_vectorised_rounding_stores_what_stored_does(data):
    """The data files round with stored_many (NumPy); every value must be stored() to the letter
    (int or float, every digit), near a tie of any format or of its own 4 significant digits too."""
    name = data.draw(st.sampled_from(SIG_FIELDS))
    xs = data.draw(_near_ties(name))
    got = stored_many(name, np.array(xs, dtype=float))
    want = [stored(name, x) for x in xs]
    assert [(type(v), v) for v in got] == [(type(v), v) for v in want]


def test_sig_keeps_four_significant_digits():
    assert sig(0.88544123) == 0.8854 and sig(16_381_470_720) == 16_380_000_000 and sig(2.0) == 2


def test_engine_log_fields_match_the_cli_line(files):
    manifest = load(files, "manifest.json")
    for changes in ({"batch": 64}, {"drafter": "ngram", "gamma": 3, "alpha": 0.35, "batch": 8, "acceptance": "same"}):
        s = {**manifest["defaults"], **changes}
        state = site_state(**s)
        line = engine_log_line(engine_log_window(state, evaluate(state)))
        at = lambda f: value(files, manifest, f, s)  # noqa: E731
        rebuilt = (
            f"SpecDecoding metrics: Mean acceptance length: {at('log_mean_acceptance_length_text')}, "
            f"Accepted throughput: {at('log_accepted_throughput_text')} tokens/s, "
            f"Drafted throughput: {at('log_drafted_throughput_text')} tokens/s, "
            f"Accepted: {at('log_accepted_tokens')} tokens, Drafted: {at('log_drafted_tokens')} tokens, "
            f"Per-position acceptance rate: {at('per_position_text')}, "
            f"Avg Draft acceptance rate: {at('log_draft_acceptance_rate_text')}%")
        assert rebuilt == line


def test_the_engine_log_line_prints_the_readouts_mean_acceptance_length(site):
    """Found by a cold read: at 2 sequences the log line under the readouts printed "Mean acceptance
    length: 2.60" (1 + 321/200, whole counts of a 100-iteration window) beside the readout's 2.61.
    At every batch, γ, α and shape the site holds, the line's mean acceptance length is the
    readout's, and its acceptance rate the model's (E[L] − 1)/γ at one decimal of a percent."""
    from specmodel.vllm import LOG_WINDOW_ITERATIONS, engine_log_counts
    ax = site.axes
    batch = np.array(ax["batch"])[:, None, None, None]
    gamma = np.array(ax["gamma"])
    el = np.array([[[site.value("mean_acceptance_length", site.defaults, acceptance=a, alpha=al, gamma=g)
                     for g in ax["gamma"]] for al in ax["alpha"]] for a in ax["acceptance"]])[None]
    counts = engine_log_counts(batch, gamma, el, 1.0)
    assert all(f"{m:.2f}" == f"{e:.2f}" for m, e in zip(counts["mean_acceptance_length"].ravel(),
                                                        np.broadcast_to(el, counts["num_drafts"].shape).ravel()))
    # (as the line prints it: the fraction × 100)
    want = np.broadcast_to((el - 1) / gamma * 100, counts["num_drafts"].shape).ravel()
    assert all(f"{r * 100:.1f}" == f"{w:.1f}" for r, w in zip(counts["draft_acceptance_rate"].ravel(), want))
    # a longer window only where 100 iterations print another value (the seed's batch-64 line among them)
    assert (counts["window_iterations"] == LOG_WINDOW_ITERATIONS).mean() > 0.5
    at64 = engine_log_counts(64, 4, site.value("mean_acceptance_length", site.defaults), 1.0)
    assert at64["window_iterations"] == LOG_WINDOW_ITERATIONS


def test_decision_map_takes_each_drafter_at_its_typical_acceptance(site):
    s = dict(site.defaults)
    typical = site_typical_acceptance(site.catalog)
    for task in site.axes["task"]:
        best = max(site.value("speedup", s, batch=64, context=2048, drafter=d, gamma=g,
                              alpha=typical[d][task][0], acceptance=typical[d][task][1])
                   for d in site.axes["drafter"] for g in site.axes["gamma"])
        assert site.value("decision_speedup", s, task=task, batch=64, context=2048) == best


def test_the_token_row_tracks_the_mean_acceptance_length(site):
    # The sample passes are evenly spaced quantiles: their mean is close to E[L], the bonus token
    # appears when it should, and a larger γ only extends each pass's run.
    worst = 0.0
    for alpha in site.axes["alpha"]:
        for acceptance in site.axes["acceptance"]:
            rows = []
            for g in site.axes["gamma"]:
                s = {**site.defaults, "alpha": alpha, "acceptance": acceptance, "gamma": g}
                row = site.value("token_row", s)
                emitted = sum(p.count("a") + 1 for p in row)  # each pass's accepted guesses and one token
                assert site.value("token_row_tokens", s) == emitted
                expected = site.value("token_row_expected_tokens", s)
                assert expected == pytest.approx(8 * site.value("mean_acceptance_length", s))
                worst = max(worst, abs(emitted - expected) / 8)
                assert len(row) == 8 and all(len(p) == g + 1 for p in row)
                rows.append([p.count("a") for p in row])
            for shorter, longer, g in zip(rows, rows[1:], site.axes["gamma"]):
                assert shorter == [min(k, g) for k in longer]
    assert worst < 0.35
    default_row = site.value("token_row", site.defaults)
    assert any(p.endswith("b") for p in default_row), "the bonus token never shows at the defaults"


def test_data_budget(files):
    # Every data file is at most 250 KB; what the first view fetches is at most 600 KB before
    # compression (the browser test holds the whole first view to 1.5 MB transferred); all the
    # configurations together stay under 250 MB (what a static host serves without complaint).
    manifest = load(files, "manifest.json")
    largest = {}
    for _, kind, _, path in every_file(manifest):
        largest[kind] = max(largest.get(kind, 0), len(files["data/" + path]))
    assert set(largest) == set(FILES) and max(largest.values()) <= BUDGET_BYTES, largest
    state = manifest["defaults"]
    first_view = ["data/manifest.json", "data/sampler.json",
                  *["data/" + file_of(manifest, kind, state) for kind in FILES],
                  *[k for k in files if k.startswith("charts/data/")]]
    assert sum(len(files[k]) for k in first_view) <= FIRST_VIEW_DATA_BYTES
    assert sum(len(c) for k, c in files.items() if k.startswith("data/")) <= 250 * 1000 * 1000


def test_builds_are_byte_identical(files, default_build):
    """A second build, in this process, gives the bytes of the build under docs/ (`make site`'s,
    in another process; see the `built` fixture), so a stale docs/ fails here too. It builds the
    default configuration only (every other is computed by the same code in worker processes),
    so its data version, a hash of all it emits, differs: compare with each version blanked out."""
    again, _ = default_build
    version = json.loads(files["data/manifest.json"])["model_version"].encode()
    again_version = json.loads(again["data/manifest.json"])["model_version"].encode()
    default = "/".join(str(v) for v in (defaults()["gpu"], defaults()["target"], f"tp{defaults()['tp']}"))
    assert {p for p in files if not p.startswith("data/") or p.startswith(f"data/{default}/")} <= again.keys()
    for path, content in again.items():
        assert path in files, path
        assert content.replace(again_version, b"") == files[path].replace(version, b""), path


def test_the_version_is_a_hash_of_what_is_emitted(files):
    manifest = load(files, "manifest.json")
    version = manifest["model_version"]
    assert len(version) == 16 and int(version, 16) >= 0
    # each configuration's data files (all but a few of the 200 MB) are held to it by
    # test_every_file_holds_every_table_with_one_dims_list, which reads them anyway
    per_configuration = {f"data/{path}" for *_, path in every_file(manifest)}
    for path, content in files.items():
        if path.endswith(".json") and path.startswith("data/") and "prose-numbers" not in path \
                and path not in per_configuration:
            assert json.loads(content)["model_version"] == version, path
    for page in ("index.md", "model.md"):
        assert f'data-model-version="{version}"' in files[page].decode()


def test_a_layout_only_change_changes_the_version(monkeypatch, prepared_default, default_build):
    # Rounding is layout, not model: it must still move the version. (The data files are all the
    # rounding writes: the default build's others, beside them, give the version of that build.)
    from generator.build import VERSION_PLACEHOLDER, render_essay
    from generator.site_data import data_files
    from generator.version import stamp

    unstamped = {**prepared_default.files, **render_essay(prepared_default)[0]}
    before = stamp(unstamped, VERSION_PLACEHOLDER)[1]
    assert before == json.loads(default_build[0]["data/manifest.json"])["model_version"]
    monkeypatch.setattr("generator.contract.SIGNIFICANT_DIGITS", 5)
    rounded = data_files(prepared_default.site, every_configuration=False)
    assert set(rounded) <= set(unstamped) and rounded != {p: unstamped[p] for p in rounded}
    assert stamp({**unstamped, **rounded}, VERSION_PLACEHOLDER)[1] != before


def _snapshot(docs):
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in docs.rglob("*") if p.is_file()}


@pytest.fixture
def prepared_once(monkeypatch, prepared_default):
    """build() on the session's Prepared: for a build that differs only in its templates."""
    monkeypatch.setattr("generator.build.prepare", lambda *args, **kwargs: prepared_default)


@pytest.fixture
def docs(tmp_path):
    d = tmp_path / "docs"
    (d / "data").mkdir(parents=True)
    (d / "data" / "old.json").write_text("{}")
    (d / "index.md").write_text("previous build")
    return d


def test_broken_template_stops_the_build_with_nothing_written(docs, tmp_path, prepared_once):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    page = templates / "index.md.j2"
    lines = page.read_text().splitlines()
    lines.append("The speedup is {{ start.no_such_readout | times }}.")
    page.write_text("\n".join(lines))
    before = _snapshot(docs)
    with pytest.raises(TemplateBuildError) as e:
        build(docs, templates=templates, print_fn=lambda *_: None, every_configuration=False)
    assert f"index.md.j2:{len(lines)}" in str(e.value) and "no_such_readout" in str(e.value)
    assert _snapshot(docs) == before


def test_a_live_number_in_a_format_its_data_cannot_keep_stops_the_build(docs, tmp_path, prepared_once):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    page = templates / "index.md.j2"
    page.write_text(page.read_text() + '\n{{ live("speedup", "pct1") }}\n')
    with pytest.raises(TemplateBuildError, match="speedup shown as 'pct1'"):
        build(docs, templates=templates, print_fn=lambda *_: None, every_configuration=False)


def test_failing_model_stops_the_build_with_nothing_written(docs, monkeypatch):
    def broken(*args, **kwargs):
        raise FloatingPointError("model failed")

    monkeypatch.setattr(site_model, "evaluate_grid", broken)
    before = _snapshot(docs)
    with pytest.raises(FloatingPointError):
        build(docs, print_fn=lambda *_: None, every_configuration=False)
    assert _snapshot(docs) == before


def test_malformed_entry_stops_the_build_before_anything(docs):
    entries = {k: dict(v) for k, v in MODEL_ENTRIES.items()}
    entries["qwen3-8b"]["num_key_value_heads"] = 5
    before = _snapshot(docs)
    with pytest.raises(ModelInputError, match=r"model\[qwen3-8b\]\.num_key_value_heads"):
        build(docs, catalog=load_catalog(model_entries=entries), print_fn=lambda *_: None, every_configuration=False)
    assert _snapshot(docs) == before


def test_a_constant_without_a_source_stops_the_build_with_one_line(tmp_path):
    # Through the command line, as `make site` runs it: one line naming the entry and field.
    script = (
        "import sys, specmodel.catalog as c\n"
        "entries = c.default_engine_entries()\n"
        "entries['vllm']['constants']['layer_launch_s']['source'] = ''\n"
        "c.default_catalog.cache_clear()\n"
        "c.default_catalog = lambda: c.load_catalog(engine_entries=entries)\n"
        "import generator.build as b\n"
        "b.default_catalog = c.default_catalog\n"
        "from generator.__main__ import main\n"
        f"sys.exit(main(['build', '--docs', {str(tmp_path / 'docs')!r}]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0 and "engine[vllm].layer_launch_s.source" in out.stderr
    assert not (tmp_path / "docs").exists()
    assert default_engine_entries()["vllm"]["constants"]["layer_launch_s"]["source"]


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
TOP = f"specmodel-{PROJECT['version']}"


@pytest.fixture(scope="module")
def archive(files):
    """The specmodel source archive the build wrote, opened."""
    return tarfile.open(fileobj=io.BytesIO(files[f"downloads/{TOP}.tar.gz"]))


def test_the_site_ships_specmodel_with_its_data_and_its_command(archive):
    from generator.source_archive import MTIME

    package = ROOT / "specmodel"
    source = {p.relative_to(ROOT).as_posix() for p in [*package.rglob("*.py"), *package.glob("data/*.csv")]
              if "__pycache__" not in p.parts}
    names = archive.getnames()
    assert names == sorted(names, key=lambda n: (n != f"{TOP}/pyproject.toml", n))
    assert {n.removeprefix(f"{TOP}/") for n in names} == source | {"pyproject.toml"}
    assert f"{TOP}/specmodel/cli.py" in names and f"{TOP}/specmodel/data/measurements-calibration.csv" in names
    for member in archive.getmembers():
        assert (member.mtime, member.uid, member.gid, member.uname, member.gname) == (MTIME, 0, 0, "", ""), member.name
        in_checkout = ROOT / member.name.removeprefix(f"{TOP}/")
        if in_checkout.parent != ROOT:
            assert archive.extractfile(member).read() == in_checkout.read_bytes(), member.name
    config = tomllib.loads(archive.extractfile(f"{TOP}/pyproject.toml").read().decode())
    assert config["project"]["scripts"] == {"specmodel": "specmodel.cli:main"}
    assert (config["project"]["name"], config["project"]["version"]) == ("specmodel", PROJECT["version"])
    assert config["project"]["requires-python"] == PROJECT["requires-python"]
    assert "numpy>=1.26" in PROJECT["dependencies"] and "numpy>=1.26" in config["project"]["dependencies"]
    assert set(config["project"]["dependencies"]) <= set(PROJECT["dependencies"])
    assert config["tool"]["setuptools"]["package-data"] == {"specmodel": ["data/*.csv"]}


def test_the_archive_depends_on_what_specmodel_imports():
    from generator.source_archive import IMPORTS

    imported = set()
    for path in (ROOT / "specmodel").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imported.add(node.module.split(".")[0])
    assert imported - sys.stdlib_module_names - {"specmodel"} == set(IMPORTS)


def _specmodel(args: list[str], path, cwd) -> str:
    env = {**os.environ, "PYTHONPATH": str(path)}
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_archive_runs_as_the_checkouts_specmodel_does(archive, tmp_path):
    archive.extractall(tmp_path, filter="data")
    unpacked = tmp_path / TOP
    # the venv's editable install must not answer for the unpacked copy
    where = _specmodel(["-c", "import specmodel; print(specmodel.__file__)"], unpacked, tmp_path)
    assert where.strip() == str(unpacked / "specmodel" / "__init__.py")
    command = ["-m", "specmodel", "evaluate", "--batch", "64", "--alpha", "0.75"]
    shipped = _specmodel(command, unpacked, tmp_path)
    assert re.search(r"(?im)^\s*speedup\b", shipped), shipped
    assert shipped == _specmodel(command, ROOT, ROOT)
    # `claims` reads the packaged data
    claims = ["-m", "specmodel", "claims", "--check"]
    assert _specmodel(claims, unpacked, tmp_path) == _specmodel(claims, ROOT, ROOT)


def test_every_number_format_groups_thousands_and_writes_nothing_as_zero():
    """A verify pass can read 4,982 GB and take 1,993 ms: no format may print "4982.18 GB".
    And an exact zero of an amount (an n-gram drafter's weights) reads "0 GB", not "0.00 GB"."""
    from generator.formats import FORMATS, format_value

    for name, spec in FORMATS.items():
        if "true" in spec or "join" in spec or "compare" in spec or spec.get("suffix") in ("×", "%"):
            continue  # verdicts, the engine log's list, ratios and percentages never reach 1,000
        value = 12_345.321 * spec.get("divide", 1) / spec.get("scale", 1)
        assert "12,345" in format_value(name, value), name
        if spec.get("suffix", "").startswith("\u00a0"):  # a unit, after a no-break space
            assert format_value(name, 0.0) == "0" + spec["suffix"], name
        else:  # a plain number keeps its decimals: "0.0" beside "0.4" in one column, not "0"
            assert format_value(name, 0.0) == f"{0:.{spec['decimals']}f}", name
    assert format_value("pct1", 0.0) == "0.0%" and format_value("num1", 0.0) == "0.0"


@pytest.mark.parametrize("speedup, times, verdict", [(1.93, "1.93×", "faster"), (0.89, "0.89×", "slower"),
                                                     (1.004, "1.004×", "faster"), (0.996, "0.996×", "slower"),
                                                     (1.0, "1.00×", "no faster"),
                                                     (1.006, "1.01×", "faster"), (0.994, "0.99×", "slower")])
def test_a_speedups_word_agrees_with_its_number(speedup, times, verdict):
    # The bar says "faster" or "slower" beside the number: never "faster" beside "1.00×", and a
    # speedup that is not 1 never reads "1.00×" (formats.beside_one_decimals).
    assert (format_value("times", speedup), format_value("verdict", speedup)) == (times, verdict)


@pytest.mark.parametrize("memory_bytes, text", [(192_300_077_056, "192.4 GB"), (192e9, "192.0 GB"),
                                                 (192.1e9, "192.1 GB"), (636_212_000_000, "636.3 GB")])
def test_the_memory_a_state_needs_is_rounded_up_as_the_cli_writes_it(memory_bytes, text):
    from specmodel.cli import gb_needed

    # (the page puts a no-break space before the unit, the command line a space)
    assert format_value("gb_needed", memory_bytes) == gb_needed(memory_bytes).replace(" ", "\u00a0") == \
        text.replace(" ", "\u00a0")


def test_memory_that_does_not_fit_never_reads_as_what_the_gpus_hold(files):
    # Found once: 192.3 GB needed on four L40S read "192 GB of 192 GB: does not fit". In every
    # configuration and state, the numbers as written say what the verdict beside them says.
    manifest = load(files, "manifest.json")
    required_format, capacity_format = FIELDS["memory_required_bytes"].formats[0], FIELDS["gpu_memory_bytes"].formats[0]
    checked = 0
    for _, kind, _, path in every_file(manifest):
        if kind != TABLES["memory"].file:
            continue
        doc = load_once(files, path)
        capacity = float(format_value(capacity_format, doc["target"]["gpu_memory_bytes"][0]).split()[0])
        for required, fits in zip(doc["memory"]["memory_required_bytes"], doc["memory"]["fits_in_memory"]):
            shown = float(format_value(required_format, required).split()[0].replace(",", ""))
            assert (shown <= capacity) == bool(fits), (path, required, shown, capacity)
            checked += 1
    assert checked > 10_000


def test_the_moe_figure_shows_the_simulations_numbers_at_its_settings(files):
    # Found once: the figure gave Qwen3-8B 1.66× at 64 sequences (α as solved, 0.6x) where the
    # simulation and the prose gave 1.70× (α on the grid, 0.65). A figure quoting a state the
    # simulation can show must show the simulation's number for it.
    from generator.moe import CONTEXT, DRAFTER, GAMMA, GPU, moe_story

    manifest = load(files, "manifest.json")
    rows = [r for r in moe_story(load_catalog()).rows if r["target"] == manifest["defaults"]["target"]]
    assert len(rows) >= 9 and manifest["defaults"]["gpu"] == GPU
    alpha = site_typical_acceptance(load_catalog())[DRAFTER]["chat"][0]
    for row in rows:
        s = {**manifest["defaults"], "batch": row["batch"], "context": CONTEXT, "drafter": DRAFTER, "gamma": GAMMA,
             "alpha": alpha, "cost_model": "calibrated"}
        assert format_value("times", value(files, manifest, "speedup", s)) == format_value("times", row["speedup"]), row


@pytest.mark.parametrize("seconds, text", [(9.12e-6, "9.12 µs"), (1.19e-4, "119 µs"), (2.38e-5, "23.8 µs"),
                                           (9.9996e-4, "1.00 ms"), (6.2345e-3, "6.23 ms"), (0.0, "0 ms"),
                                           (16.28132, "16,281.32 ms")])
def test_a_duration_below_a_millisecond_is_written_in_microseconds(seconds, text):
    # Found once: a data table's "0.01 ms" beside the chart's "9.12 µs" for the same n-gram step
    assert format_value("ms", seconds) == text.replace(" ", "\u00a0")  # a no-break space before the unit


def test_a_duration_in_microseconds_is_stored_with_the_digits_it_is_written_with():
    # the tie logic follows the unit the value is written in: 4 significant digits would turn
    # 9.12496 µs into 9.125 and then "9.13 µs" where the model's value reads "9.12 µs"
    for x in (9.12496e-6, 9.12504e-6, 1.2345e-4, 9.99949e-4, 2.0005e-5):
        for name in ("verify_compute_time_s", "part_time_s"):
            assert format_value("ms", stored(name, x)) == format_value("ms", x), (name, x)
            [v] = stored_many(name, [x])
            assert format_value("ms", v) == format_value("ms", x), (name, x, v)
