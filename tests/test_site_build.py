"""The built site: a strict MkDocs build, every link and asset resolves, the CSP allows nothing
outside the site and no eval, and nothing references another origin."""
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest

from paths import ROOT

BASE = "http://site.invalid/"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A fresh strict build of the current docs/ (the generator has run: `make test` builds first)."""
    assert (ROOT / "docs" / "index.md").exists(), "run `python -m generator build` (make site) first"
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                            cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return out


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids, self.csp, self.canonical = [], set(), None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = a.get("content")
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical = a.get("href")
            return  # a hint to search engines, not a request
        for key in ("href", "src", "data-spec"):
            if a.get(key):
                self.refs.append((tag, key, a[key]))


def parse(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def pages(site):
    return sorted(site.rglob("*.html"))


def target_file(site: Path, page: Path, ref: str) -> tuple[Path, str]:
    page_url = BASE + page.relative_to(site).as_posix()
    url = urlparse(urljoin(page_url, ref))
    path = unquote(url.path)[1:]
    f = site / path
    if path == "" or path.endswith("/"):
        f = f / "index.html"
    return f, url.fragment


def test_every_link_and_asset_resolves(site):
    problems = []
    parsed = {p: parse(p) for p in pages(site)}
    for page, links in parsed.items():
        for tag, key, ref in links.refs:
            if ref.startswith(("mailto:", "data:")):
                continue
            if urlparse(ref).scheme in ("http", "https"):
                if tag in ("script", "img", "link", "iframe") or key != "href":
                    problems.append(f"{page.name}: {tag} loads from outside: {ref}")
                continue
            f, fragment = target_file(site, page, ref)
            if not f.exists():
                problems.append(f"{page.relative_to(site)}: {ref} → missing {f.relative_to(site)}")
            elif fragment and f.suffix == ".html":
                ids = parsed[f].ids if f in parsed else parse(f).ids
                if fragment not in ids:
                    problems.append(f"{page.relative_to(site)}: {ref} → no #{fragment}")
    assert problems == []


def test_canonical_link_has_no_query(site):
    for page in pages(site):
        canonical = parse(page).canonical
        assert page.name == "404.html" or (canonical and "?" not in canonical), page.name


@pytest.mark.parametrize("page", ["index.html", "model/index.html"])
def test_the_pages_link_to_the_specmodel_archive(site, page):
    """Found by a cold read: the pages said to run `specmodel` and gave nowhere to get it."""
    links = [ref for _, key, ref in parse(site / page).refs if key == "href" and ref.endswith(".tar.gz")]
    assert links, f"{page} does not link to the specmodel archive"
    for ref in links:
        assert not urlparse(ref).scheme and not ref.startswith("/"), ref
        f, _ = target_file(site, site / page, ref)
        assert f.read_bytes() == (ROOT / "docs" / "downloads" / f.name).read_bytes(), ref


def test_the_canonical_address_is_where_the_site_is_served(tmp_path):
    """Found by a cold read: every page named http://localhost:8000/ as its canonical address."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": "https://example.org/spec/"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert parse(tmp_path / "index.html").canonical == "https://example.org/spec/"
    assert parse(tmp_path / "model" / "index.html").canonical == "https://example.org/spec/model/"
    sitemap = (tmp_path / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/spec/model/</loc>" in sitemap and "localhost" not in sitemap


def test_chart_specs_point_at_files_the_build_wrote(site):
    specs = sorted((site / "charts").glob("*.vl.json")) + sorted((site / "charts").glob("*.vg.json"))
    assert len(specs) >= 18
    for spec_path in specs:
        urls = re.findall(r'"url":\s*"([^"]+)"', spec_path.read_text())
        assert urls, spec_path.name
        for url in urls:
            assert (site / url).exists(), f"{spec_path.name}: {url}"


def test_every_file_the_contract_names_exists(site):
    from data_layout import every_file

    manifest = json.loads((site / "data" / "manifest.json").read_text())
    count = 0
    for _, _, _, rel in every_file(manifest):
        assert (site / "data" / rel).exists(), rel
        count += 1
    assert count > len(manifest["configurations"]) * len(manifest["axes"]["alpha"])


def test_content_security_policy(site):
    for page in pages(site):
        csp = parse(page).csp
        assert csp, f"{page.name} has no Content-Security-Policy"
        directives = dict((d.strip().split(" ", 1) + [""])[:2] for d in csp.split(";") if d.strip())
        assert directives.get("default-src") == "'self'"
        for name, value in directives.items():
            assert "unsafe-eval" not in value, name
            assert not re.search(r"https?:|\*", value), f"{name} allows an outside origin: {value}"


def test_no_outside_origin_in_what_the_page_loads(site):
    pattern = re.compile(r"https?://(?!localhost|127\.0\.0\.1|site\.invalid)[\w.-]+")
    for path in list(site.rglob("*.css")) + list((site / "javascripts").rglob("*.js")):
        text = path.read_text(encoding="utf-8", errors="replace")
        hits = [m.group() for m in pattern.finditer(text) if "fonts.g" in m.group() or "cdn" in m.group()]
        assert hits == [], f"{path.relative_to(site)}: {hits}"
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis" not in html and "fonts.gstatic" not in html


def test_every_module_of_the_page_is_preloaded(site):
    """main.js runs once its whole module graph is in: a module the page imports but <head> does
    not preload is found only when its importer has loaded, one round trip later."""
    html = (site / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="javascripts/([^"]+)">', html))
    scripts = ROOT / "docs" / "javascripts"
    modules = {p.relative_to(scripts).as_posix() for p in scripts.rglob("*.js")
               if "import " in p.read_text() or "export " in p.read_text()}
    assert modules - preloaded == set()
    assert preloaded - modules == set()
    assert '<script type="module" async src="javascripts/main.js">' in html


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class HiddenText(HTMLParser):
    """The text of the article's elements that the build writes hidden (a warning for a state
    that does not fit, shown only when one is on screen) or that are data, not prose (the charts'
    data tables), each with whether it or an element around it keeps it out of the search index."""

    def __init__(self):
        super().__init__()
        self.stack, self.found = [], []  # stack: (tag, hidden or data?, excluded?)

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        a = dict(attrs)
        hidden = "hidden" in a or "spec-table" in (a.get("class") or "").split()
        excluded = "data-search-exclude" in a or any(e for _, _, e in self.stack)
        self.stack.append((tag, hidden, excluded))
        if hidden:
            self.found.append([tag, a.get("class", ""), excluded, ""])

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if any(h for _, h, _ in self.stack) and self.found:
            self.found[-1][3] += data


def test_hidden_and_tabular_text_stays_out_of_search(site):
    """Search shows a snippet of any text the page holds: a hidden "does not fit" warning would be
    read as said of the state on screen ("18 GB, more than the 80 GB"), and a data table as
    words run together. Every such element is excluded, and the index holds none of their text."""
    parser = HiddenText()
    parser.feed((site / "index.html").read_text(encoding="utf-8"))
    assert len(parser.found) > 10
    kept = [(tag, cls, text.strip()[:60]) for tag, cls, excluded, text in parser.found if not excluded and text.strip()]
    assert kept == []
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"])
    for phrase in ("Does not fit", "does not fit in 80 GB", "a real server would run fewer sequences", "Data table:",
                   "Open the simulation", "What the text says",
                   # found once: a search for "tokens/s" at another state showed the starting
                   # state's readouts and vLLM line, run together, under a link to that state
                   "Speedup over plain", "These eight passes emit", "tokens per pass Draft share"):
        assert phrase not in text, phrase


def test_the_chart_library_is_preloaded_only_where_charts_are(site):
    # Found once: the model page, which has no chart, preloaded the Vega bundle and the browser
    # warned that it went unused.
    preload = re.compile(r'<link rel="preload" href="[^"]*vendor/vega-bundle\.js"')
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        has_charts = 'data-chart="' in html
        assert bool(preload.search(html)) == has_charts, page.relative_to(site)
    assert preload.search((site / "index.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", ["index.html", "model/index.html"])
def test_footnotes_are_numbered_in_the_order_the_text_cites_them(site, page):
    """Found once: the essay cited notes 11, 12 and 13 before note 3 (Markdown numbers notes by
    where they are defined unless told otherwise)."""
    html = (site / page).read_text(encoding="utf-8")
    cited = re.findall(r'class="footnote-ref" href="#fn:[^"]+">(\d+)</a>', html)
    first = list(dict.fromkeys(int(n) for n in cited))
    assert first == list(range(1, len(first) + 1))


def heading_anchors(html: str) -> list[tuple[str, str]]:
    """(id, text) of every h2–h4 with an id in a rendered page, the permalink's ¶ left out."""
    found = re.findall(r'<h([234]) id="([^"]+)"[^>]*>(.*?)</h\1>', html, flags=re.S)
    return [(anchor, re.sub(r"<[^>]+>|¶", "", text).strip()) for _, anchor, text in found]


def lost_words(anchor: str, text: str) -> bool:
    # a slug keeps ASCII letters and digits only: a word of Greek (γ) or symbols falls out
    words = re.findall(r"[^\s/–—-]+", text)
    return len(re.findall(r"[a-z0-9]+", anchor)) < len(words)


@pytest.mark.parametrize("page", ["index.html", "model/index.html"])
def test_a_headings_link_keeps_every_word_of_it(site, page):
    """Found by a cold read: "Why γ has a ceiling" was linked as #why-has-a-ceiling."""
    anchors = heading_anchors((site / page).read_text())
    assert len(anchors) >= 8
    assert [(a, t) for a, t in anchors if lost_words(a, t)] == []


def test_the_heading_check_can_fail():
    assert lost_words("why-has-a-ceiling", "Why γ has a ceiling")
    assert not lost_words("why-gamma-has-a-ceiling", "Why γ has a ceiling")


from specmodel.display import UNIT_SYMBOLS  # noqa: E402  (beside the one test that reads it)

SPLIT_AMOUNT = re.compile(r"\d[ \t\n](?:" + "|".join(re.escape(u) for u in UNIT_SYMBOLS) + r")(?![\w/])")


class ProseText(HTMLParser):
    """The text of the article's paragraphs and list items outside code, figures and tables."""

    SKIP = {"code", "pre", "figure", "table", "script", "style", "svg", "nav", "header", "footer"}

    def __init__(self):
        super().__init__()
        self.skip, self.article, self.text = 0, 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.article += 1
        if tag in self.SKIP:
            self.skip += 1

    def handle_endtag(self, tag):
        if tag == "article":
            self.article -= 1
        if tag in self.SKIP:
            self.skip -= 1

    def handle_data(self, data):
        if self.article and not self.skip:
            self.text.append(data)


def test_an_amount_keeps_its_unit_on_its_line(site):
    """Found by a cold read: at 375 px the prose broke "16.70 GB" after the number, and "γ = 17"
    after the "=" (cold read 18). The prose writes
    a no-break space between a number and its unit symbol (generator/filters.py, the templates)."""
    checked = 0
    for path in pages(site):
        p = ProseText()
        p.feed(path.read_text(encoding="utf-8"))
        text = "".join(p.text)
        checked += len(re.findall(r"\d\u00a0(?:GB|µs|ms)", text))
        split = [text[max(0, m.start() - 40):m.end()] for m in SPLIT_AMOUNT.finditer(text)]
        # and a symbol from its value (cold read 18: "γ =" ending a line, "17" beginning the next)
        split += [text[max(0, m.start() - 40):m.end()] for m in re.finditer(r"[γα][ \t\n][=≈][ \t\n\u00a0]*\d|[γα]\u00a0[=≈][ \t\n]\d", text)]
        assert not split, (path.name, split)
    assert checked > 20  # the check saw the essay's amounts
    assert SPLIT_AMOUNT.search("reads 16.70 GB") and not SPLIT_AMOUNT.search("reads 16.70\u00a0GB, 2 GBs")
    from generator.typography import keep_together
    assert keep_together("one H100 SXM, 2 GPUs") == "one H100\u00a0SXM, 2\u00a0GPUs"
    assert keep_together("at γ = 4 and `γ = 4`") == 'at γ\u00a0=\u00a04 and <span class="spec-nowrap">`γ = 4`</span>'
    assert keep_together("the Qwen3-0.6B drafter, `fit-metrics` and [n-gram](?drafter=ngram-3){.explore}") == (
        'the <span class="spec-nowrap">Qwen3-0.6B</span> drafter, <span class="spec-nowrap">`fit-metrics`</span> and '
        '[<span class="spec-nowrap">n-gram</span>](?drafter=ngram-3){.explore}')
    # an option's two hyphens stay together (found by a cold read: "-" ending a line, "-context"
    # beginning the next, on a phone); a long piece of code may still wrap
    assert keep_together("give `--context` here") == 'give <span class="spec-nowrap">`--context`</span> here'
    assert keep_together("`num_speculative_tokens_per_batch_size-x`") == "`num_speculative_tokens_per_batch_size-x`"


def test_the_page_keeps_the_units_and_gpu_phrases_the_build_keeps():
    """The paste box writes its own sentences and keeps their phrases on a line in the browser
    (views/names.js), the build keeps the prose's (specmodel/display.py, generator/typography.py):
    the two lists of unit symbols and GPU words must not drift apart (names.js lacked "TFLOP")."""
    from generator.typography import GPU_PHRASE
    from specmodel.display import UNIT_SYMBOLS
    js = (ROOT / "docs" / "javascripts" / "views" / "names.js").read_text(encoding="utf-8")
    units = re.search(r"\\\\d \(\?:([^)]*)\)\(\?!", js)
    assert units and set(units.group(1).split("|")) == set(UNIT_SYMBOLS), units
    gpu_words = re.findall(r"\(([A-Za-z0-9?]+(?:\|[A-Za-z0-9?]+)+)\)", GPU_PHRASE.pattern)
    assert len(gpu_words) == 2 and all(f"(?:{words})" in js for words in gpu_words), gpu_words


def test_the_not_found_page_leads_back_into_the_site(site):
    """Found by a cold read: /404.html said "404 - Not found" and nothing more."""
    text = (site / "404.html").read_text(encoding="utf-8")
    assert "<h1>Page not found</h1>" in text and "404 - Not found" not in text
    links = re.findall(r'<a href="([^"]+)">the (essay|model)</a>', text)
    assert links == [("/", "essay"), ("/model/", "model")], links
    assert (site / "index.html").is_file() and (site / "model" / "index.html").is_file()


def test_every_page_has_a_tab_title_of_its_own(site):
    """Found by a cold read: the not-found page's tab read "What speculative decoding really
    costs", as the essay's does. Every page's title is its own, and any page but the essay's
    starts with its heading."""
    titles = {}
    for path in sorted(site.rglob("*.html")):
        if "vendor" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        (title,) = re.findall(r"<title>(.*?)</title>", text, flags=re.S)
        titles[str(path.relative_to(site))] = title
        if path != site / "index.html":
            heading = re.search(r"<h1[^>]*>(.*?)</h1>", text, flags=re.S).group(1)
            heading = re.sub(r"<[^>]+>", "", re.sub(r'<a class="headerlink".*?</a>', "", heading)).strip()
            assert title.startswith(f"{heading} - "), (path.name, title, heading)
    assert set(titles) >= {"index.html", "404.html", "model/index.html"}, titles
    assert len(set(titles.values())) == len(titles), titles


def test_the_model_page_names_every_command_the_package_has(site):
    """Found by a cold read: the essay sent readers to the model page for "everything else it can
    print", and the page named five of the eight commands (not sweep, fit-metrics or catalog)."""
    from specmodel import default_catalog
    from specmodel.cli import commands

    text = (site / "model" / "index.html").read_text(encoding="utf-8")
    names = [name for name, _ in commands(default_catalog())]
    assert len(names) >= 8
    missing = [n for n in names if f"<code>specmodel {n}</code>" not in text]
    assert missing == [], missing


def test_the_model_page_names_every_draft_model_no_measurement_times(site):
    """Found by a cold read: "No draft pass of the Qwen3-1.7B was measured" named one of the three
    draft models the measurements never time (the Qwen3-4B and Llama-3.2-1B too)."""
    from specmodel import default_catalog
    from specmodel.calibration.measurements import POINTS

    timed = {p.drafter for p in POINTS.values() if p.drafter}
    unmeasured = [d.label for k, d in default_catalog().drafters.items() if d.kind == "draft_model" and k not in timed]
    assert len(unmeasured) >= 3
    text = re.sub(r"<[^>]+>", "", (site / "model" / "index.html").read_text(encoding="utf-8"))
    sentence = re.search(r"No draft pass of the (.*?) was measured", re.sub(r"\s+", " ", text))
    assert sentence and all(label in sentence[1] for label in unmeasured), sentence


def test_every_link_into_vllms_docs_is_to_their_current_layout(site):
    """Found by a cold read: the essay linked the guide at features/spec_decode.html (the layout
    of vLLM ≤ 0.14), the paste answer its current features/speculative_decoding/ section."""
    texts = [(site / "index.html").read_text(encoding="utf-8"), (site / "model" / "index.html").read_text(encoding="utf-8"),
             (site / "javascripts" / "views" / "metrics.js").read_text(encoding="utf-8")]
    links = [u for t in texts for u in re.findall(r"https://docs\.vllm\.ai/[^\s\"'<>)]*", t)]
    assert links and all(u.startswith("https://docs.vllm.ai/en/latest/features/speculative_decoding/") for u in links), links
