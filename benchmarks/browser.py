"""The page in Chromium: time to a linked state's readouts, time to interactive, input-to-update
latency, first-view bytes. Each timing is printed beside an idle baseline measured in the same run
(the same browser doing the least comparable thing), so the ratio still means something on a busy
machine.

The page dispatches ``spec:rendered`` on ``document`` once the readouts, the prose's live numbers
and the ladder chart all show a new state; latency is measured in the page from the input event
to that event.
"""
from __future__ import annotations

import functools
import gzip
import http.server
import io
import statistics
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHANGES = 200
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

MEASURE = """async ([name, value]) => {
  const el = document.querySelector(`#simulation [name="${name}"]`);
  const done = new Promise(r => document.addEventListener('spec:rendered', r, {once: true}));
  const t0 = performance.now();
  el.value = value;
  el.dispatchEvent(new Event('input', {bubbles: true}));
  await done;
  return performance.now() - t0;
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Gzip(_Quiet):
    """Compresses text responses as any static host does (GitHub Pages, Netlify, nginx gzip on)."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file() \
                or path.suffix not in (".html", ".js", ".css", ".json", ".svg"):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a page closed mid-download (the benchmark moves on): nothing to report


def serve(directory: Path, compress: bool = False):
    handler = _Gzip if compress else _Quiet
    server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


# Baseline for an input: from the event to the next frame, with nothing listening.
BASELINE_INPUT = """async () => {
  const el = document.createElement('input');
  const t0 = performance.now();
  el.dispatchEvent(new Event('input', {bubbles: true}));
  await new Promise(r => requestAnimationFrame(() => r()));
  return performance.now() - t0;
}"""
# When the simulation's readouts first show the state of the URL (data-readouts: page.js and
# views/early-readouts.js set it as they write them). Installed before the page's scripts run.
RECORD_RENDERED = """new MutationObserver((_, observer) => {
  const sim = document.querySelector('#simulation');
  if (sim && sim.dataset.readouts === location.search && window.__renderedAt === undefined) {
    window.__renderedAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-readouts']});"""
LINKED = "?batch=64&drafter=ngram"
RUNS = 5

FIRST_VIEW_BYTES = """() => performance.getEntriesByType('navigation')
    .concat(performance.getEntriesByType('resource'))
    .reduce((s, e) => s + (e.transferSize || e.encodedBodySize || 0), 0)"""
READY = ("() => document.querySelector('#simulation')?.hasAttribute('data-rendered')"
         " && document.querySelector('#simulation .spec-chart__view svg') !== null")


def first_view_bytes(compress: bool) -> int:
    """Bytes transferred until the simulation is interactive, from a fresh browser."""
    server = serve(ROOT / "site", compress)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(bypass_csp=True)
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            page.wait_for_function(READY)
            size = page.evaluate(FIRST_VIEW_BYTES)
            browser.close()
    finally:
        server.shutdown()
    return size


def _median_load(browser, url: str, ready: str | None, record: bool = False) -> float:
    """Median over RUNS fresh pages of the time from navigation to `ready` (or to the load event)."""
    times = []
    for _ in range(RUNS):
        page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        if record:
            page.add_init_script(RECORD_RENDERED)
        page.goto(url, wait_until="load")
        if record:
            page.wait_for_function("() => window.__renderedAt !== undefined")
            times.append(page.evaluate("() => window.__renderedAt"))
        elif ready:
            page.wait_for_function(ready, polling="raf")
            times.append(page.evaluate("performance.now()"))
        else:
            times.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
        page.close()
    return statistics.median(times)


def bench_browser(print_fn=print) -> None:
    server = serve(ROOT / "site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            # the baseline: a page of the same theme and assets, without the simulation or its data
            baseline_ms = _median_load(browser, url + "404.html", None)
            linked_ms = _median_load(browser, url + LINKED, None, record=True)
            tti_ms = _median_load(browser, url, READY)
            # bypass_csp: the page forbids eval, which Playwright needs to poll a predicate
            page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
            page.goto(url)
            page.wait_for_function(READY)
            latencies, baselines = [], []
            # Batch and context sliders move over axis indices, γ over its values; all three stay
            # inside one shard, so the timing is the page's own work, not the network. Every
            # step changes the value (an unchanged state renders nothing).
            positions = {"batch": 0, "context": 2, "gamma": 3}
            sizes = {"batch": 11, "context": 7, "gamma": 10}
            for i in range(CHANGES):
                control = ("batch", "gamma", "context")[i % 3]
                positions[control] = (positions[control] + 1) % sizes[control]
                value = positions[control] + (1 if control == "gamma" else 0)
                latencies.append(page.evaluate(MEASURE, [control, str(value)]))
                baselines.append(page.evaluate(BASELINE_INPUT))
            browser.close()
    finally:
        server.shutdown()
    p95, base95 = percentile(latencies, 0.95), percentile(baselines, 0.95)
    print_fn("page (Chromium, localhost; each beside an idle baseline from the same run)")
    print_fn(f"  navigation → correct readouts of a linked state ({LINKED}): {linked_ms:.0f} ms "
             f"(target ≤ 300 ms); baseline, a page of the theme without the simulation, loaded: "
             f"{baseline_ms:.0f} ms; ratio {linked_ms / baseline_ms:.1f}")
    print_fn(f"  time to interactive (readouts and the ladder drawn): {tti_ms:.0f} ms (target ≤ 1000 ms); "
             f"ratio to the baseline {tti_ms / baseline_ms:.1f}")
    print_fn(f"  input → readouts and ladder updated over {CHANGES} changes: median {statistics.median(latencies):.1f} ms, "
             f"p95 {p95:.1f} ms (target ≤ 16 ms); baseline, an input with nothing listening to the next "
             f"frame: p95 {base95:.1f} ms; ratio {p95 / base95:.1f}")
    plain, compressed = first_view_bytes(False), first_view_bytes(True)
    print_fn(f"  first view, Vega bundle included (target ≤ 1.5 MB): {compressed / 1e6:.2f} MB transferred with gzip "
             f"(as static hosts serve it), {plain / 1e6:.2f} MB uncompressed")
