"""The page in Chromium: input-to-update latency, first-view bytes, time to interactive.

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


def serve(directory: Path, compress: bool = False):
    handler = _Gzip if compress else _Quiet
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


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


def bench_browser(print_fn=print) -> None:
    server = serve(ROOT / "site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            # bypass_csp: the page forbids eval, which Playwright needs to poll a predicate
            page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
            page.goto(url)
            # interactive: the readouts show a state and the ladder's Vega view has drawn
            page.wait_for_function(READY)
            tti_ms = page.evaluate("performance.now()")
            latencies = []
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
            browser.close()
    finally:
        server.shutdown()
    print_fn("page (Chromium, localhost)")
    print_fn(f"  input → readouts and ladder updated over {CHANGES} changes: "
             f"median {statistics.median(latencies):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms (target p95 ≤ 16 ms)")
    plain, compressed = first_view_bytes(False), first_view_bytes(True)
    print_fn(f"  first view, Vega bundle included (target ≤ 1.5 MB): {compressed / 1e6:.2f} MB transferred with gzip "
             f"(as static hosts serve it), {plain / 1e6:.2f} MB uncompressed")
    print_fn(f"  time to interactive: {tti_ms:.0f} ms")
