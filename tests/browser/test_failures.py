"""A damaged site: data files missing, corrupt or of another build, a chart spec missing, a
manifest of a newer build than the page. Each is reported to the reader in place of what it
affects, the default pictures stand in for the charts, and the rest of the page keeps working.

The damage is done to copies of the built site in a temporary directory, served on their own
ports; site/ itself is never touched.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from .conftest import serve
from .site_helpers import SITE, manifest, mismatches, query_of, state_for, wait_rendered

pytestmark = pytest.mark.browser

# α values whose shard (at the default acceptance and workload) is damaged, and how.
MISSING, CORRUPT, FOREIGN = 0.55, 0.35, 0.65
GOOD = 0.5
# The charts whose rows follow the state (rows.js BUILDERS); the others are static.
STATE_CHARTS = ("ladder", "throughput", "gamma", "iteration", "breakdown", "roofline", "memory", "acceptance", "closed_form",
                "decision")
STATIC_CHARTS = ("sampler", "validation", "shares", "moe")
BROKEN_SPEC = "closed_form"  # its spec is missing: picture and note for good


def _shard(site: Path, alpha: float) -> Path:
    from generator.site_data import file_path

    m = manifest()
    return site / "data" / file_path("shard", {**m["defaults"], "alpha": alpha}, m["axes"])


def _link_or_copy(source, target):
    try:
        os.link(source, target)
    except OSError:  # another file system
        shutil.copy2(source, target)


def _copy_site(target: Path) -> None:
    """A copy of site/ at ``target``, its files hard links where the file system allows: a file
    is damaged only through _replace, which never writes through a link into site/."""
    shutil.copytree(SITE, target, copy_function=_link_or_copy)


def _replace(path: Path, content: bytes) -> None:
    path.unlink()
    path.write_bytes(content)


def _set_version(path: Path, version: str) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["model_version"] = version
    _replace(path, json.dumps(data).encode())


@pytest.fixture(scope="module")
def damaged_url(tmp_path_factory):
    """A copy of the site with three broken shards and one chart spec gone."""
    site = tmp_path_factory.mktemp("damaged") / "site"
    _copy_site(site)
    _shard(site, MISSING).unlink()  # → HTTP 404
    corrupt = _shard(site, CORRUPT)
    _replace(corrupt, corrupt.read_bytes()[: corrupt.stat().st_size // 2])  # truncated JSON
    _set_version(_shard(site, FOREIGN), "0123456789abcdef")  # a shard of another build
    (site / "charts" / f"{BROKEN_SPEC}.vg.json").unlink()
    server, url = serve(site)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def updated_url(tmp_path_factory):
    """A copy of the site whose data was rebuilt (another model_version, consistently in every
    data file) while its pages were not: the pages carry the old version."""
    site = tmp_path_factory.mktemp("updated") / "site"
    _copy_site(site)
    built = manifest()["model_version"].encode()
    for path in (site / "data").rglob("*.json"):
        content = path.read_bytes()
        # every file that names the build's version (all but prose-numbers.json), wherever it does
        if b'"model_version"' in content:
            _replace(path, content.replace(built, b"fedcba9876543210"))
    server, url = serve(site)
    yield url
    server.shutdown()
    server.server_close()


CHARTS = """() => Object.fromEntries([...document.querySelectorAll('.spec-chart[data-chart]')].map((el) => {
  const img = el.querySelector('img');
  const table = el.closest('figure')?.querySelector('details.spec-table tbody');
  return [el.dataset.chart, {
    live: el.classList.contains('is-live'),
    message: el.querySelector('.spec-chart__error')?.textContent ?? null,
    picture: img.getBoundingClientRect().height > 0 && getComputedStyle(img).display !== 'none',
    // A view of another state, visible or in the accessibility tree beside the picture?
    view: [...el.querySelectorAll('.spec-chart__view svg')].some((svg) =>
      svg.getBoundingClientRect().height > 0 && getComputedStyle(svg).visibility !== 'hidden'),
    rows: table ? [...table.rows].map((tr) => tr.textContent) : null,
  }];
}))"""


def _charts(page) -> dict:
    return page.evaluate(CHARTS)


def _wait_charts(page, predicate: str, names) -> None:
    """Until predicate(chart element) holds for every chart in `names`."""
    page.wait_for_function(
        f"names => names.every((n) => ({predicate})(document.querySelector(`.spec-chart[data-chart=${{n}}]`)))",
        arg=list(names),
    )


LIVE = "el => el.classList.contains('is-live') && !el.querySelector('.spec-chart__error')"
STANDING_IN = "el => !el.classList.contains('is-live') && el.querySelector('.spec-chart__error')"


def _move_alpha(page, alpha: float) -> None:
    page.locator("#simulation input[name=alpha]").fill(str(alpha))


def test_broken_data_files_are_reported_in_place_and_the_page_recovers(new_context, damaged_url):
    context = new_context(base_url=damaged_url, allowed_errors=r"Failed to load resource.*404")
    page = context.new_page()
    page.goto("/")
    wait_rendered(page, "")
    # every chart on show, the ones the simulation folds away too
    page.eval_on_selector_all("#simulation details", "els => els.forEach(d => { d.open = true; })")
    working = [n for n in STATE_CHARTS + STATIC_CHARTS if n != BROKEN_SPEC]
    _wait_charts(page, LIVE, working)
    default_tables = {name: chart["rows"] for name, chart in _charts(page).items()}
    notes = page.locator("#simulation [data-notes]")

    for alpha, reason in ((MISSING, "HTTP 404"), (CORRUPT, "could not be loaded or read"), (FOREIGN, "data version")):
        _move_alpha(page, alpha)
        notes.wait_for(state="visible")
        text = notes.inner_text()
        assert "could not be loaded" in text and reason in text, text
        # No number of another state is left standing as this state's.
        assert page.locator("#simulation").get_attribute("data-rendered") is None
        readouts = page.eval_on_selector_all("#simulation [data-readout], .live[data-live]", "els => els.map(e => e.textContent)")
        assert readouts and set(readouts) == {"—"}, readouts
        # The charts that follow the state show their default picture and say so (the essay's
        # charts a frame later); the static charts are untouched.
        _wait_charts(page, STANDING_IN, [n for n in STATE_CHARTS if n != BROKEN_SPEC])
        charts = _charts(page)
        for name in STATE_CHARTS:
            page.locator(f".spec-chart[data-chart={name}]").scroll_into_view_if_needed()  # lazy pictures
            assert "for the starting settings" in charts[name]["message"], name
            assert not charts[name]["view"], f"{name}: a view of another state is still shown"
            assert charts[name]["rows"] in (None, default_tables[name]), f"{name}: table of another state"
        page.wait_for_function(
            "names => names.every((n) => document.querySelector(`.spec-chart[data-chart=${n}] img`).naturalWidth > 0)",
            arg=list(STATE_CHARTS),
        )
        assert all(_charts(page)[n]["picture"] for n in STATE_CHARTS)
        assert all(charts[n]["live"] for n in STATIC_CHARTS)
        # The other controls still work meanwhile (this state's shard is still the broken one).
        page.locator("#simulation select[name=drafter]").select_option("ngram")
        page.wait_for_function("() => location.search.includes('drafter=ngram')")
        page.locator("#simulation select[name=drafter]").select_option("qwen3-0.6b")

        # A state whose files load shows again, everywhere.
        _move_alpha(page, GOOD)
        wait_rendered(page, query_of(state_for(f"alpha={GOOD}")))
        assert mismatches(page, state_for(f"alpha={GOOD}")) == []
        assert notes.is_hidden()
        _wait_charts(page, LIVE, working)

    # The chart whose spec is missing kept its picture, with its own note, all along.
    broken = page.locator(f".spec-chart[data-chart={BROKEN_SPEC}]")
    broken.scroll_into_view_if_needed()
    assert "could not be shown" in broken.locator(".spec-chart__error").inner_text()
    broken.locator("img").wait_for(state="visible")
    # …and its table still follows the state: it is the chart's text alternative.
    page.wait_for_function(
        "([n, before]) => [...document.querySelectorAll(`#figure-${n} details.spec-table tbody tr`)].map(tr => tr.textContent).join() !== before",
        arg=[BROKEN_SPEC, ",".join(default_tables[BROKEN_SPEC])],
    )


def test_data_of_a_newer_build_than_the_page_is_refused(new_context, updated_url):
    """The page carries its build's model_version (overrides/main.html); the manifest names
    another. The page says so, keeps its own (build-time) numbers and pictures, and mixes in
    nothing from the other build."""
    context = new_context(base_url=updated_url)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto("/?batch=64")
    notes = page.locator("#simulation [data-notes]")
    notes.wait_for(state="visible")
    text = notes.inner_text()
    assert "data version" in text and "Reload" in text, text
    page_version = page.locator("[data-model-version]").get_attribute("data-model-version")
    assert page_version == manifest()["model_version"] and page_version in text
    # Every chart keeps its picture, with a note; none shows the other build's data.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.spec-chart')].every(el => el.querySelector('.spec-chart__error'))"
    )
    charts = _charts(page)
    assert not any(chart["live"] for chart in charts.values())
    assert all("reload" in chart["message"] for chart in charts.values())
    # The readouts are the build's (the defaults, whatever the URL says), and nothing of the
    # other build was fetched beyond the manifest.
    assert mismatches(page, manifest()["defaults"]) == []
    assert not [url for url in requests if "/data/" in url and "/charts/data/" not in url and "/data/manifest.json" not in url]
    assert page.locator("#simulation input[name=batch]").is_disabled()
