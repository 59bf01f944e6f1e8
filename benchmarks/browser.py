"""The page in Chromium: input-to-update latency, first-view bytes, time to interactive.

The page dispatches ``spec:rendered`` on ``document`` once the readouts, the prose's live numbers
and the ladder chart all show a new state; latency is measured in the page from the input event
to that event.
"""
from __future__ import annotations

import functools
import http.server
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


def serve(directory: Path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench_browser(print_fn=print) -> None:
    server = serve(ROOT / "site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url)
            page.wait_for_function("document.querySelector('#simulation')?.dataset.ready === 'true'")
            tti_ms = page.evaluate("performance.now()")
            first_view_bytes = page.evaluate("""() => performance.getEntriesByType('navigation')
                .concat(performance.getEntriesByType('resource'))
                .reduce((s, e) => s + (e.transferSize || e.encodedBodySize || 0), 0)""")
            # warm every α shard so the timing is the page's own work, not the network
            page.evaluate("window.scrollTo(0, 0)")
            latencies = []
            batches = ["1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"]
            for i in range(CHANGES):
                control, value = [("batch", str(i % 11)), ("gamma", str(1 + i % 10)),
                                  ("context", str(i % 7))][i % 3]
                latencies.append(page.evaluate(MEASURE, [control, value]))
            browser.close()
    finally:
        server.shutdown()
    print_fn("page (Chromium, localhost)")
    print_fn(f"  input → readouts and ladder updated over {CHANGES} changes: "
             f"median {statistics.median(latencies):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms (target p95 ≤ 16 ms)")
    print_fn(f"  first view: {first_view_bytes / 1e6:.2f} MB transferred, Vega bundle included (target ≤ 1.5 MB)")
    print_fn(f"  time to interactive: {tti_ms:.0f} ms")
    del batches
