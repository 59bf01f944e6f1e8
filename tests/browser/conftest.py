"""Browser tests: the built site/ served from 127.0.0.1, driven in Debian's headless Chromium.

`make test` builds the site first (`python -m generator build && mkdocs build --strict`);
these tests only read site/. Every page a test opens records its console errors and every
request it makes: `page_log` checks both when the test ends, so no test can pass while the
page logs an error or reaches outside the site.
"""
from __future__ import annotations

import functools
import http.server
import io
import re
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .site_helpers import SITE

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Nothing may leave the machine: every request but to loopback (which Chromium never sends
    # through a proxy) goes to a proxy that is not there and fails. PageLog still records it.
    # (Routing every request through Playwright would do the same at a quarter more time a page.)
    "--proxy-server=http://127.0.0.1:9",
]

_SITEMAP_ORIGIN = re.compile(rb"(<loc>)https?://[^/<]+/")


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass

    def send_head(self):
        # Instant navigation only follows links listed in sitemap.xml, matched by port too; the
        # sitemap names site_url's port, this server has a random one: serve it as if deployed here.
        if urlsplit(self.path).path.endswith("/sitemap.xml"):
            path = Path(self.translate_path(self.path))
            if path.is_file():
                body = _SITEMAP_ORIGIN.sub(rb"\g<1>http://" + self.headers["Host"].encode() + b"/", path.read_bytes())
                self.send_response(200)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                return io.BytesIO(body)
        return super().send_head()


class _SiteServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A test that has its answer closes the page while files still download: the stdlib would
        # print a traceback into the test output for each. Any other error still prints.
        if not isinstance(sys.exception(), ConnectionError):
            super().handle_error(request, client_address)


def serve(directory: Path):
    """A server of `directory` on http://127.0.0.1:<free port>, from a thread: (server, url)."""
    handler = functools.partial(_SiteHandler, directory=str(directory))
    server = _SiteServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, name=f"server {directory}", daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (SITE / "index.html").is_file() or not (SITE / "data" / "manifest.json").is_file():
        pytest.fail(
            f"{SITE} has no built site (index.html and data/manifest.json). Build it first: "
            "`make site`, i.e. `python -m generator build && mkdocs build --strict`.",
            pytrace=False,
        )
    return SITE


@pytest.fixture(scope="session")
def server_url(site_dir: Path):
    """http://127.0.0.1:<free port> serving site/, for the whole session."""
    server, url = serve(site_dir)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Playwright's own browser download cannot reach its host: use Debian's chromium.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, server_url):
    return {**browser_context_args, "base_url": server_url, "viewport": {"width": 1280, "height": 900}}


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


class PageLog:
    """What a browser context did: console errors, uncaught exceptions, every request URL."""

    def __init__(self, allowed_errors: str | None = None):
        self.errors: list[str] = []
        self.requests: list[str] = []
        # A test that breaks a request on purpose expects the browser's own report of it.
        self.allowed = re.compile(allowed_errors) if allowed_errors else None

    def attach(self, context) -> None:
        context.on("request", lambda request: self.requests.append(request.url))
        context.on("page", self._watch)
        for page in context.pages:
            self._watch(page)

    def _watch(self, page) -> None:
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(f"console: {msg.text}"))
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def outside(self) -> list[str]:
        """Requests to anything but the local server (data: and blob: URLs never leave the page)."""
        return [
            url for url in self.requests
            if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).hostname != "127.0.0.1"
        ]

    def check(self) -> None:
        errors = [e for e in self.errors if not (self.allowed and self.allowed.search(e))]
        assert errors == [], "the page logged errors:\n" + "\n".join(errors)
        assert self.outside() == [], "requests outside 127.0.0.1:\n" + "\n".join(self.outside())


@pytest.fixture
def page_log(context) -> PageLog:
    log = PageLog()
    log.attach(context)
    yield log
    log.check()


@pytest.fixture
def new_context(browser, server_url):
    """Open extra contexts (another viewport, colour scheme, JS off), each logged and checked."""
    opened: list[tuple] = []

    def open_context(allowed_errors: str | None = None, **kwargs):
        options = {"base_url": server_url, "viewport": {"width": 1280, "height": 900}, **kwargs}
        context = browser.new_context(**options)
        log = PageLog(allowed_errors)
        log.attach(context)
        opened.append((context, log))
        return context

    yield open_context
    for context, log in opened:
        context.close()
    for _, log in opened:
        log.check()
