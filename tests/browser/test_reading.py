"""The page read without JavaScript, and printed: every chart is there as a picture or as its
live view, described, with its data; nothing is blank; screenshots and a PDF in test-artifacts/
for a human to look at."""
from __future__ import annotations

import re

import pytest

from generator.filters import FILTERS
from .site_helpers import manifest, mismatches, page_readouts, show, wait_rendered

pytestmark = pytest.mark.browser

ALL_LIVE = "() => [...document.querySelectorAll('.spec-chart')].every(e => e.classList.contains('is-live') && !e.hasAttribute('data-pending'))"
# The charts whose rows follow the state (rows.js BUILDERS).
STATE_CHARTS = ("ladder", "throughput", "gamma", "iteration", "breakdown", "roofline", "acceptance", "closed_form",
                "decision")

# Per chart: the static picture (loaded? its size and alt text), the live view (its size and
# description), the box the chart takes, and its data table.
CHARTS = """() => Object.fromEntries([...document.querySelectorAll('.spec-chart[data-chart]')].map((el) => {
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; };
  const shown = (e) => !!e && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().height > 0;
  const img = el.querySelector('img');
  const view = el.querySelector('[role=graphics-document]');  // the Vega view's container
  const svg = el.querySelector('.spec-chart__view svg');
  const figure = el.closest('figure');
  return [el.dataset.chart, {
    box: box(el),
    picture: shown(img) ? {box: box(img), loaded: img.complete && img.naturalWidth > 0, alt: img.alt} : null,
    view: shown(svg) ? {box: box(svg), description: view?.getAttribute('aria-label') ?? ''} : null,
    caption: figure?.querySelector('figcaption')?.textContent.trim() ?? '',
    tableRows: figure ? figure.querySelectorAll('details.spec-table table tbody tr').length : 0,
    tableInDetails: !!figure?.querySelector('details.spec-table > summary'),
    // What the view draws: each mark's description, shape and colour (the current setting is
    // often a highlight only).
    marks: svg ? [...svg.querySelectorAll('.role-mark > *')].map((m) =>
      ['aria-label', 'd', 'fill', 'transform'].map((a) => m.getAttribute(a)).join(' ')).join('|') : '',
  }];
}))"""


def test_without_javascript(new_context, artifacts):
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/")
    # The essay reads: its title and its prose are there and visible.
    assert page.locator("article h1").is_visible()
    prose = page.locator("article > p").all_inner_texts()
    assert len(prose) > 30 and sum(map(len, prose)) > 10_000
    assert page.locator("#simulation .spec-sim__nojs").is_visible()

    charts = page.evaluate(CHARTS)
    assert set(STATE_CHARTS) <= set(charts), sorted(charts)
    for name, chart in charts.items():
        # The default state as a picture, loaded, described, filling its box: no blank box.
        picture = chart["picture"]
        assert picture and picture["loaded"], f"{name}: no picture"
        assert len(picture["alt"]) > 20, f"{name}: alt text {picture['alt']!r}"
        assert picture["box"][1] > 150 and abs(chart["box"][1] - picture["box"][1]) <= 2, f"{name}: {chart}"
        assert chart["view"] is None
        # …and its data, in a table under a disclosure.
        assert chart["tableInDetails"] and chart["tableRows"] > 0, f"{name}: no data table"
        assert chart["caption"], f"{name}: no caption"

    # The simulation's readouts, written by the build for the starting settings.
    readouts = page.locator("#simulation .spec-sim__readouts--main [data-readout]")
    assert readouts.count() >= 6
    for i in range(readouts.count()):
        assert readouts.nth(i).is_visible() and readouts.nth(i).inner_text().strip()
    assert mismatches(page, manifest()["defaults"]) == []
    assert page.locator("#simulation [data-token-row] li").count() > 0
    # The controls cannot work: they look it, and the note says so.
    assert page.eval_on_selector("#simulation form.spec-sim__controls", "f => Number(getComputedStyle(f).opacity)") < 1
    # …and nothing that only the script can do is offered (Copy link, Reset)
    assert page.locator("#simulation button:visible").count() == 0
    page.screenshot(path=artifacts / "no-js.png", full_page=True)

    page.goto("/model/")
    assert page.locator("article h1").is_visible()
    assert sum(map(len, page.locator("article p").all_inner_texts())) > 2000


# Anything that would print as an empty area: hidden but taking room, or transparent.
BLANKS = """() => [...document.querySelectorAll('article *')].filter((el) => {
  const style = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  if (r.width * r.height < 400 || el.closest('.spec-visually-hidden, details:not([open]) > :not(summary)')) return false;
  // a chart's invisible hit area (a ladder rung's column), out of the accessibility tree too
  if (el.closest('.spec-chart__view g.role-mark[aria-hidden=true]') && el.getAttribute('opacity') === '0') return false;
  return style.visibility === 'hidden' || Number(style.opacity) < 0.2;
}).map((el) => el.tagName + '.' + el.className)"""


def test_print_shows_the_current_state(new_context, artifacts):
    """Printed, each chart is its live view of the reader's state (not the default picture),
    the controls are gone, and nothing is blank; in the dark palette too, the chart ink is dark
    on the white paper."""
    query = "?batch=64&drafter=ngram&alpha=0.6"
    context = new_context(color_scheme="dark")
    page = context.new_page()
    page.goto("/")
    page.wait_for_function(ALL_LIVE)
    default_marks = {name: chart["marks"] for name, chart in page.evaluate(CHARTS).items()}

    page.goto("/" + query)
    wait_rendered(page, query)
    page.wait_for_function(ALL_LIVE)
    # The essay's charts take the state a frame after the readouts: wait for their tables.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#figure-decision tbody tr')].some(tr => tr.cells[1].textContent === '64')"
    )
    page.emulate_media(media="print")
    charts = page.evaluate(CHARTS)
    # a chart folded away in a closed disclosure is not printed (spec.css), by design
    folded = set(page.eval_on_selector_all(".spec-chart[data-chart]",
                                           "els => els.filter(e => e.closest('details:not([open])')).map(e => e.dataset.chart)"))
    charts = {name: chart for name, chart in charts.items() if name not in folded}
    for name, chart in charts.items():
        assert chart["picture"] is None, f"{name}: the default picture would print"
        assert chart["view"] and min(chart["view"]["box"]) > 100, f"{name}: printed blank: {chart}"
        assert chart["view"]["description"], f"{name}: the live chart has no description"
        if name in STATE_CHARTS:
            assert chart["marks"] and chart["marks"] != default_marks[name], f"{name}: prints the default state"
    # The ladder's label is the current rung: the speedup the readout shows for this state.
    speedup = FILTERS["times"](float(page_readouts(page)["speedup"]))
    labels = page.eval_on_selector_all(".spec-chart[data-chart=ladder] .role-mark text", "els => els.map(e => e.textContent)")
    assert speedup in labels, (speedup, labels)
    # Dark ink on white paper, whatever the screen's palette.
    fill = page.eval_on_selector(".spec-chart[data-chart=ladder] .role-axis-label text", "e => getComputedStyle(e).fill")
    assert sum(map(float, re.findall(r"[\d.]+", fill)[:3])) / 3 < 128, fill
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")

    for selector in ("#simulation form.spec-sim__controls", "#simulation [data-action=reset]", "#simulation [data-action=copy-link]"):
        assert not page.locator(selector).is_visible(), f"{selector} would print"
    assert page.locator("#simulation .spec-sim__readouts--main").is_visible()
    assert page.evaluate(BLANKS) == []

    # what the printer gets, to look at (a full-page picture of it would only repeat the PDF)
    page.pdf(path=artifacts / "essay.pdf", format="A4", print_background=True)
    pdf = (artifacts / "essay.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 5


@pytest.mark.parametrize("width", [1440, 1280, 740, 320])
@pytest.mark.parametrize("path", ["/", "/model/"])
def test_nothing_the_reader_needs_hides_behind_a_sideways_scroll(new_context, width, path):
    """Code, commands, log lines and formulas wrap; a wide table scrolls only inside a wrapper that
    takes focus (and so can be scrolled from the keyboard), and the page itself never does, down
    to a 320-px phone (WCAG 1.4.10; found by a cold read there: a formula 30 px too wide)."""
    context = new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(path)
    # code breaks and cards are set once the page is idle
    page.wait_for_function("() => 'tablesFitted' in document.documentElement.dataset")
    page.eval_on_selector_all("details", "els => els.forEach(d => { d.open = true; })")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    clipped = page.eval_on_selector_all(
        "article pre, article pre > code, article math",
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.slice(0, 60))")
    assert clipped == [], clipped
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    tables = page.eval_on_selector_all(
        "article .md-typeset__scrollwrap",
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1 && e.tabIndex !== 0).length")
    assert tables == 0, "a table scrolls sideways without a tab stop"
    assert page.evaluate(WRAPPED_LINES_GO_ON_INDENTED) == []
    assert page.evaluate(CODE_BROKEN_MID_WORD) == []
    # a name in a table's narrow column or in inline code stays whole (found once: "Qwen3-" /
    # "0.6B", "Llama-3.2-" / "1B" and `fit-` / `metrics` on a phone)
    assert page.evaluate(NAMES_BROKEN) == []
    # a card's short cell (a value and its unit) on one line, and inside its card (found by a
    # cold read at 320 px: "0.00912 m" over "s")
    assert page.evaluate(SHORT_CELLS_BROKEN) == []
    # No table keeps a column off screen (a wide one is shown as cards), the paste box's answer
    # included, on a phone or a laptop.
    if path == "/":
        page.click("[data-action=metrics-example]")
        page.wait_for_selector("[data-metrics-answer] table")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate(TABLES_OVERFLOWING) == []
    if width < 480:
        # a phone: the bar shows the whole state
        if path == "/":
            page.evaluate("() => scrollTo(0, document.body.scrollHeight / 2)")
            page.wait_for_selector("#simulation [data-bar]:not([hidden])")
            state = page.eval_on_selector("#simulation .spec-bar__state", "e => [e.scrollWidth, e.clientWidth, e.textContent]")
            assert state[0] <= state[1] + 1, f"the bar's state is cut off: {state[2]}"
    # the title is said once: the tab's title is the essay's, not the essay's twice
    assert page.title().count("What speculative decoding really costs") <= 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_below_the_footer_the_room_kept_for_the_bar_is_the_footers_colour(new_context, scheme):
    """Found by a cold read at 320 px, light: the room kept under the footer so the bar cannot
    cover it showed as a white strip under the black footer."""
    page = new_context(viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True,
                       color_scheme=scheme).new_page()
    page.goto("/")
    page.wait_for_selector("body > .spec-bar-room", state="attached")
    # the colour a pixel shows: each box's backgrounds (a colour, and a one-colour gradient over
    # it) over its parents', over white
    colours = page.evaluate("""() => {
      const rgba = (text) => { const v = text.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
      const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
      const shown = (el) => {
        const chain = [];
        for (let e = el; e; e = e.parentElement) chain.unshift(e);
        let colour = [255, 255, 255];
        for (const e of chain) {
          const s = getComputedStyle(e);
          colour = over(rgba(s.backgroundColor), colour);
          const gradient = s.backgroundImage.match(/rgba?\\([^)]*\\)/);
          if (gradient) colour = over(rgba(gradient[0]), colour);
        }
        return colour.map(Math.round);
      };
      const room = document.querySelector('body > .spec-bar-room');
      const footer = document.querySelector('.md-footer-meta');
      return [shown(room), shown(footer), room.getBoundingClientRect().top - footer.getBoundingClientRect().bottom];
    }""")
    assert colours[0] == colours[1] and abs(colours[2]) < 1, colours


def test_a_long_table_on_a_phone_shows_its_first_cards_and_a_button_for_the_rest(new_context):
    # Found once: the model page's tables, as cards on a phone, were 83,000 px of page (the
    # measurements alone 22,000). A long stack shows its first cards; a button shows the rest.
    page = new_context(viewport={"width": 375, "height": 812}).new_page()
    page.goto("/model/")
    page.wait_for_function("() => 'tablesFitted' in document.documentElement.dataset")
    stacks = page.eval_on_selector_all("article table[data-cards]", """ts => ts.map(t => [
        [...t.tBodies].reduce((n, b) => n + b.rows.length, 0),
        [...t.querySelectorAll('tbody tr')].filter(r => r.offsetHeight > 0).length])""")
    assert max(rows for rows, _ in stacks) > 30  # the measurements
    assert all(shown == (rows if rows <= 12 else 5) for rows, shown in stacks), stacks
    assert page.evaluate("() => document.documentElement.scrollHeight") < 45_000
    table = page.locator("article table[data-cards]").filter(has=page.locator("td", has_text="ShareGPT")).first
    rows = table.evaluate("t => t.tBodies[0].rows.length")
    # the measurements the fit was held to come first: a phone reader sees those without asking
    first = table.evaluate("t => [...t.tBodies[0].rows].slice(0, 5).map(r => r.cells[r.cells.length - 1].textContent)")
    assert all(cell.startswith("vLLM's constants") for cell in first), first
    button = page.locator("article .spec-cards-more", has_text=f"Show all {rows} rows").element_handle()
    button.click()
    assert table.evaluate("t => [...t.querySelectorAll('tbody tr')].every(r => r.offsetHeight > 0)")
    assert button.get_attribute("aria-expanded") == "true"
    button.click()
    assert button.is_visible() and button.text_content() == f"Show all {rows} rows"
    assert button.evaluate("b => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")


# Per card of every shown stack: how many lines of cells it takes, and which of its cells are
# short (a number, yes or no, a short name: twelve characters or fewer), three to a line on a phone.
CARD_LINES = """root => [...root.querySelectorAll('table[data-cards] tbody tr')].filter(r => r.offsetHeight > 0).map(r => {
  const cells = [...r.cells];
  const tops = new Set(cells.map(c => Math.round(c.getBoundingClientRect().top)));
  // short: a column whose every cell is at most 12 characters (views/wide-tables.js marks it)
  const short = cells.map(c => c.hasAttribute('data-short'));
  return [tops.size, short, r.textContent.trim().slice(0, 40)];
})"""


def most_lines(short: list[bool]) -> int:
    """The lines a card takes at most if every run of short cells sits three to a line."""
    lines, run = 0, 0
    for is_short in short + [False]:
        if is_short:
            run += 1
            continue
        lines += -(-run // 3) + 1
        run = 0
    return lines - 1


def test_on_a_phone_a_card_of_numbers_is_a_few_lines_not_a_line_each(new_context):
    # Found once: the paste box's γ-by-batch table on a phone was eleven cards of six lines each,
    # 3,400 px (the whole answer 6,700). Numbers and short words sit three to a line.
    page = new_context(viewport={"width": 375, "height": 812}).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.click("[data-action=metrics-example]")
    page.wait_for_selector("[data-metrics-answer] table[data-cards]")
    answer = page.locator("[data-metrics-answer]")
    cards = answer.evaluate(CARD_LINES)
    assert len(cards) == len(manifest()["axes"]["batch"]), cards
    for lines, short, text in cards:
        assert short == [True] * 6, text
        assert lines <= 2, (lines, text)
    assert answer.locator("table").evaluate("t => t.getBoundingClientRect().height") < 2000
    page.goto("/model/")
    page.wait_for_function("() => 'tablesFitted' in document.documentElement.dataset")
    for lines, short, text in page.locator("article").evaluate(CARD_LINES):
        # each other cell on its own line, the short ones three to a line
        assert lines <= most_lines(short), (lines, short, text)


def test_on_a_laptop_the_model_pages_tables_are_tables_and_whole(new_context):
    # Found once at 1,440 px: the measurements, the GPU × target table and the typical
    # acceptance shown as cards, and the long ones cut to five behind a button. Without the
    # two-entry navigation column they are tables; only the models' config table (14 columns)
    # is too wide, and no stack of cards is cut where its cards sit side by side.
    page = new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.goto("/model/")
    page.wait_for_function("() => 'tablesFitted' in document.documentElement.dataset")
    tables = page.eval_on_selector_all("article table", """ts => ts.map(t => [
        t.tHead?.rows[0]?.cells.length ?? 0, 'cards' in t.dataset,
        [...t.querySelectorAll('tbody tr')].filter(r => r.offsetHeight === 0).length])""")
    assert len(tables) >= 10
    assert [columns for columns, cards, _ in tables if cards] == [14], tables
    assert all(hidden == 0 for _, _, hidden in tables), tables
    # the prose keeps a reading measure beside the wider tables (about 80 characters)
    measure = page.eval_on_selector("article > p", "p => p.getBoundingClientRect().width / parseFloat(getComputedStyle(p).fontSize)")
    assert measure < 48, measure


# Tables wider than the box they sit in (visible ones): "header…" of each.
TABLES_OVERFLOWING = """() => [...document.querySelectorAll('article table')].filter((t) => {
  if (t.offsetWidth === 0) return false;
  const wrap = t.closest('.md-typeset__scrollwrap');
  const box = wrap ?? t.parentElement;
  // every wrapper round it too: found once, a 702 px table in a 720 px wrapper scrolled 14 px (the
  // theme's padding); and once, the theme's wrapper inside the build's, its negative margins
  // making the outer one scroll 12 px
  for (let w = wrap; w; w = w.parentElement.closest('.md-typeset__scrollwrap')) {
    if (w.scrollWidth > w.clientWidth + 1) return true;
  }
  return t.scrollWidth > box.clientWidth + 1 || t.getBoundingClientRect().right > innerWidth + 1;
}).map((t) => t.tHead?.textContent.trim().slice(0, 40))"""

# A card's short cells (views/wide-tables.js data-short) whose value takes two lines or runs past
# its card: [text].
SHORT_CELLS_BROKEN = """() => [...document.querySelectorAll('article table[data-cards] td[data-short]')]
  .filter((td) => td.offsetWidth > 0 && !td.closest('details:not([open])'))
  .filter((td) => {
    // its text's lines (not the boxes of a button round it)
    const rects = [];
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      rects.push(...[...range.getClientRects()].filter((r) => r.width > 0));
    }
    const card = td.closest('tr').getBoundingClientRect();
    return new Set(rects.map((r) => Math.round(r.top))).size > 1 || rects.some((r) => r.right > card.right + 1);
  }).map((td) => td.textContent.trim())"""

# A code line that wraps goes on further right than the line's own text starts (a hanging
# indent), so a continuation never reads as a line of its own. Each visible character of a hard
# line is measured; characters whose middles fall below the current visual line's bottom start the
# next one. Returns the lines that break the rule.
WRAPPED_LINES_GO_ON_INDENTED = r"""() => {
  const bad = [];
  const range = document.createRange();
  for (const code of document.querySelectorAll('article pre > code')) {
    if (code.offsetWidth === 0) continue;
    const chars = [];  // [text node, offset] of every character
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
    let line = [];
    for (const [node, offset] of [...chars, [null, 0]]) {
      if (node !== null && node.data[offset] !== '\n') { line.push([node, offset]); continue; }
      const rows = [];
      for (const [n, i] of line) {
        if (/\s/.test(n.data[i])) continue;
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const r = range.getBoundingClientRect();
        const row = rows[rows.length - 1];
        if (row && (r.top + r.bottom) / 2 < row.bottom) row.left = Math.min(row.left, r.left);
        else rows.push({ left: r.left, bottom: r.bottom });
      }
      if (rows.slice(1).some((row) => row.left <= rows[0].left + 1)) {
        bad.push(line.map(([n, i]) => n.data[i]).join('').trim().slice(0, 50));
      }
      line = [];
    }
  }
  return bad;
}"""


# A code line that wraps breaks at a space or a separator, never between two letters or digits
# of one word ("spec_decode_num_dra|fts_total"), nor inside a run short enough to move to the next
# line whole ("kv_|bytes_per_token", "L(|m)"); in the essay's own Python, never inside a name
# (found by a cold read at 320 px: "target.probs_at_each_|position(": its names are ours to
# choose). Returns each such break, marked with "|".
CODE_BROKEN_MID_WORD = r"""() => {
  const bad = [];
  const IDENT = /[\p{L}\p{N}_.:\/-]/u;
  const range = document.createRange();
  for (const code of document.querySelectorAll('article pre > code')) {
    if (code.offsetWidth === 0) continue;
    const chars = [];
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
    let previous = null;  // [character, its box] of the last visible character on this hard line
    chars.forEach(([n, i], k) => {
      const c = n.data[i];
      if (c === '\n') { previous = null; return; }
      if (/\s/.test(c)) { previous = [c, null]; return; }
      range.setStart(n, i);
      range.setEnd(n, i + 1);
      const box = range.getBoundingClientRect();
      // the run of characters without a space this break falls in
      let first = k, last = k;
      while (first > 0 && !/\s/.test(chars[first - 1][0].data[chars[first - 1][1]])) first--;
      while (last + 1 < chars.length && !/\s/.test(chars[last + 1][0].data[chars[last + 1][1]])) last++;
      const midWord = /[A-Za-z0-9]/.test(previous?.[0]) && /[A-Za-z0-9]/.test(c);
      const shortRun = last - first + 1 < 24;  // it would fit on a line: break at a space instead
      // inside an identifier ("draft_model_iteration_per_" | "seq_s", "--speculative-" | "config")
      // that would fit on a line past the hanging indent
      let from = k, to = k;
      while (from > first && IDENT.test(chars[from - 1][0].data[chars[from - 1][1]])) from--;
      while (to < last && IDENT.test(chars[to + 1][0].data[chars[to + 1][1]])) to++;
      const inIdentifier = IDENT.test(previous?.[0] ?? ' ') && IDENT.test(c) && /[\p{L}\p{N}]/u.test(c + previous?.[0]);
      const style = getComputedStyle(code);
      const lineWidth = code.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      // with the quotes and the comma around it, which code-breaks.js keeps with it
      let pieceFrom = from, pieceTo = to;
      while (pieceFrom > first && /["'`(\[{]/.test(chars[pieceFrom - 1][0].data[chars[pieceFrom - 1][1]])) pieceFrom--;
      while (pieceTo < last && /["'`,;)\]}]/.test(chars[pieceTo + 1][0].data[chars[pieceTo + 1][1]])) pieceTo++;
      const fitsLine = (pieceTo - pieceFrom + 1) * box.width + parseFloat(style.textIndent) <= lineWidth;
      const ours = code.closest('.language-python') !== null;
      // a Hugging Face id ("org/name") longer than the line breaks at its slash, not in the name
      // (found by a cold read at 375 px: "meta-llama/Llama-3.2-1B-" | "Instruct")
      const name = chars.slice(from, to + 1).map(([m, j]) => m.data[j]).join('');
      const idOffSlash = inIdentifier && /^[\w.-]+\/[\w.-]+$/.test(name) && previous?.[0] !== '/';
      if (previous && previous[1] && (midWord || shortRun || idOffSlash || (inIdentifier && (fitsLine || ours)))
          && (box.top + box.bottom) / 2 > previous[1].bottom) {
        const text = chars.slice(Math.max(0, k - 20), k + 10).map(([m, j]) => m.data[j]).join('');
        bad.push(text.slice(0, Math.min(20, k)) + '|' + text.slice(Math.min(20, k)));
      }
      previous = [c, box];
    });
  }
  return bad;
}"""


# Short names that the page shows on two lines: in inline code any with a hyphen or a slash
# (`whole-pass`), and a short piece of code with a space (`ĉ = 0`); anywhere else a hyphenated
# model's or version's name ("Qwen3-30B-A3B", "EAGLE-3") or one of the field's ("n-gram",
# "TensorRT-LLM"), in prose, captions and what the page writes, and a model's or version's in a
# table's short cell; "all-reduce" may break as a word does (generator/typography.py,
# views/names.js, views/wide-tables.js; found by cold reads at every width).
NAMES_BROKEN = r"""() => {
  const range = document.createRange(), out = [];
  const lines = (node, start, end) => {
    range.setStart(node, start);
    range.setEnd(node, end);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  const shown = (e) => e.offsetWidth && !e.closest('details:not([open]), [hidden]');
  for (const code of document.querySelectorAll('article :not(pre) > code')) {
    if (!shown(code)) continue;
    const text = code.textContent;
    if (text.length <= 16 && text.includes(' ')) {
      const rects = new Set([...code.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (rects.size > 1) out.push(text);
    }
  }
  const seen = new Set();
  for (const e of document.querySelectorAll('article :is(p, li, td, figcaption, dt, dd, code):not(pre *)')) {
    if (!shown(e)) continue;
    // a table's cell: only a model's or a version's name in a short cell (a sentence, a source,
    // breaks as prose does; views/wide-tables.js); a header may break in a narrow column
    const cell = e.tagName === 'TD';
    if (cell && e.textContent.trim().length > 60) continue;
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (seen.has(n)) continue;
      seen.add(n);
      const code = n.parentElement.closest('code');
      const pattern = code ? /[^\s,;()]*[\p{L}\p{N}][-\/][^\s,;()]*[\p{L}\p{N}]/gu
                           : /(?<![\w.\/-])[A-Za-z0-9][\w.]*(?:-[\w.]*[A-Za-z0-9])+(?![\w\/-])/g;
      for (const m of n.data.matchAll(pattern)) {
        if (m[0].length > 24) continue;
        if (!code && !/\d/.test(m[0]) && (cell || !['n-gram', 'TensorRT-LLM'].includes(m[0]))) continue;
        if (lines(n, m.index, m.index + m[0].length) > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


# Each value in the bar with the word before it ("γ 4", "α 0.75", "64 seq"): [label, value, same
# line?]. A label on one line and its value on the next reads as two items.
BAR_PAIRS = r"""() => {
  const range = document.createRange();
  const top = (node, i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect().top; };
  const pairs = [];
  for (const out of document.querySelectorAll('#simulation .spec-bar__state [data-output]')) {
    if (!out.getClientRects().length || !out.firstChild) continue;
    const before = out.previousSibling, after = out.nextSibling;
    for (const [text, first, at] of [[before, false], [after, true]].map(([n, f]) => [n, f, n])) {
      if (!text || text.nodeType !== 3) continue;
      const word = first ? text.data.match(/^\u00a0(\S+)/) : text.data.match(/(\S+)\u00a0$/) ?? text.data.match(/([γα])\s$/);
      if (!word) continue;
      const i = first ? 1 : text.data.length - 2;
      const valueTop = top(out.firstChild, first ? out.firstChild.data.length - 1 : 0);
      pairs.push([word[1], out.textContent, Math.abs(top(text, i) - valueTop) < 2]);
    }
  }
  return pairs;
}"""


@pytest.mark.parametrize(("width", "height"), [(1600, 800), (1280, 800), (1000, 800), (375, 800), (740, 360)])
def test_the_bar_sits_over_the_text_and_keeps_each_value_with_its_label(new_context, width, height):
    page = new_context(viewport={"width": width, "height": height}).new_page()
    page.goto("/?batch=64&drafter=qwen3-1.7b&gpu=h200")
    wait_rendered(page, "?gpu=h200&batch=64&drafter=qwen3-1.7b")
    page.evaluate("() => scrollTo(0, document.body.scrollHeight / 2)")
    page.wait_for_selector("#simulation [data-bar]:not([hidden])")
    boxes = page.evaluate("""() => {
      const r = (e) => e && e.getClientRects().length ? e.getBoundingClientRect().toJSON() : null;
      return {bar: r(document.querySelector('#simulation [data-bar]')), text: r(document.querySelector('article')),
              nav: r(document.querySelector('.md-sidebar--primary .md-sidebar__scrollwrap')),
              toc: r(document.querySelector('.md-sidebar--secondary .md-sidebar__scrollwrap'))};
    }""")
    bar = boxes["bar"]
    # it leaves the reader most of the window, a phone held sideways (360 px tall) included
    assert bar["height"] <= 0.22 * height, (bar["height"], height)
    # over the text column, and clear of the navigation and the table of contents beside it
    assert bar["left"] >= boxes["text"]["left"] - 1 and bar["right"] <= boxes["text"]["right"] + 1, boxes
    for side in ("nav", "toc"):
        other = boxes[side]
        if other and other["width"] > 0 and other["bottom"] > bar["top"]:
            assert bar["right"] <= other["left"] or bar["left"] >= other["right"], (side, boxes)
    pairs = page.evaluate(BAR_PAIRS)
    assert {label for label, _, _ in pairs} >= {"γ", "α", "seq", "tokens"}, pairs
    assert all(same for _, _, same in pairs), pairs
    # and each value on one line, a hyphenated name included ("n-gram prompt lookup" broke after "n-")
    for query in ("", "?gpu=b200&context=8192&drafter=ngram"):
        if query:
            show(page, query)
        page.wait_for_selector("#simulation [data-bar]:not([hidden])")
        split = page.evaluate("""() => [...document.querySelectorAll('#simulation .spec-bar__state [data-output]')]
          .filter((o) => o.getClientRects().length > 1).map((o) => o.textContent)""")
        assert split == [], (query, split)
    # At the very end, the last footnote and the footer scroll clear of the bar.
    # (at the end indeed: under load a chart still being drawn can grow the page after the scroll)
    page.wait_for_function("""() => { const end = document.documentElement.scrollHeight;
      scrollTo(0, end); return Math.abs(scrollY + innerHeight - end) < 2; }""")
    page.wait_for_function("() => !document.querySelector('#simulation [data-bar]').hidden")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    # (again at the end: a chart drawn meanwhile on a busy machine may have grown the page)
    page.wait_for_function("""() => { const end = document.documentElement.scrollHeight;
      if (Math.abs(scrollY + innerHeight - end) >= 2) scrollTo(0, end);
      return Math.abs(scrollY + innerHeight - end) < 2; }""")
    covered = page.evaluate("""() => {
      const bar = document.querySelector('#simulation [data-bar]').getBoundingClientRect();
      const last = [...document.querySelectorAll('article > *:last-child, .footnote li:last-child, .md-footer')];
      return last.filter((e) => { const r = e.getBoundingClientRect(); return r.height > 0 && r.bottom > bar.top + 1 && r.top < bar.bottom; })
        .map((e) => e.textContent.trim().slice(0, 40));
    }""")
    assert covered == [], covered
    # A shared link's state shows from the top, over the opening's prose about the starting
    # state (found by a cold read: nothing of the link's state until past the simulation).
    page.evaluate("() => scrollTo(0, 0)")
    page.wait_for_function("() => !document.querySelector('#simulation [data-bar]').hidden")


def test_the_starting_page_has_no_bar_before_the_simulation(page):
    # Before the reader reaches the simulation, the opening is about the starting state: no bar.
    page.goto("/")
    wait_rendered(page, "")
    page.evaluate("() => scrollTo(0, 0)")
    page.wait_for_function("() => document.querySelector('#simulation [data-bar]').hidden")
    page.evaluate("() => scrollTo(0, document.querySelector('#simulation').getBoundingClientRect().bottom + scrollY + 200)")
    page.wait_for_function("() => !document.querySelector('#simulation [data-bar]').hidden")


# Per chart: the height of its live view, and of its picture, shown for a moment in its place;
# and whether the view is drawn wider than its column (scaled down).
ROOM = """() => [...document.querySelectorAll('.spec-chart.is-live')].map((el) => {
  const view = el.querySelector('.spec-chart__view').getBoundingClientRect().height;
  const drawn = Number(el.querySelector('.spec-chart__view svg').getAttribute('width'));
  el.classList.remove('is-live');
  const picture = el.querySelector('img').getBoundingClientRect().height;
  el.classList.add('is-live');
  return [el.dataset.chart, Math.round(view), Math.round(picture), drawn > el.getBoundingClientRect().width + 1];
})"""


@pytest.mark.parametrize("width", [1280, 320])
def test_a_live_chart_takes_the_room_its_picture_held(new_context, width):
    """The picture stands in until the live view replaces it: it holds the view's room, so nothing
    the reader is looking at moves (a chart as wide as its column is drawn at its height at any
    width; a fixed-size one at its own size; in a column narrower than the narrowest a view is
    drawn at, both scaled down alike). The decision map's picture once took twice its view's
    height, and a link clicked below such a chart jumped the page by hundreds of pixels."""
    context = new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.eval_on_selector_all("#simulation details", "els => els.forEach(d => { d.open = true; })")
    page.wait_for_function(ALL_LIVE, timeout=60_000)
    rooms = page.evaluate(ROOM)
    charts = page.eval_on_selector_all(".spec-chart[data-chart]", "els => els.map(e => e.dataset.chart)")
    assert sorted(name for name, *_ in rooms) == sorted(charts), rooms
    # to the pixel (a view on the line's baseline once stood 8 px taller than its picture: each
    # view drawn above the reader moved the text, which the page then had to hold); a view scaled
    # down, within a line of text: the browser and vl-convert measure label text slightly
    # differently (the decision map is drawn 330 px wide, its picture 327), and the scale grows it
    moved = [(name, view, picture) for name, view, picture, scaled in rooms
             if abs(view - picture) > (12 if scaled else 1)]
    assert moved == [], moved


def test_a_picture_that_stays_for_good_scales_to_the_column(new_context):
    """Once the chart library has failed no view is coming: the picture is not kept boxed to the
    view's height (on a phone, a small picture over an empty box) but scaled to the column."""
    context = new_context(allowed_errors="ERR_FAILED|vega-bundle", viewport={"width": 375, "height": 900})
    page = context.new_page()
    page.route("**/vendor/vega-bundle.js", lambda route: route.abort())
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_selector("#figure-gamma .spec-chart.is-failed")
    boxed = page.eval_on_selector_all(".spec-chart.is-failed img.spec-chart__static--fill", """els => els
      .map((e) => { const r = e.getBoundingClientRect(); return [e.closest('.spec-chart').dataset.chart,
        Math.round(r.height), Math.round(r.width * e.getAttribute('height') / e.getAttribute('width'))]; })
      .filter(([, height, scaled]) => Math.abs(height - scaled) > 2)""")
    assert boxed == [], boxed


# Where a section's heading sits in the window, and whether the page was fetched again (the mark
# is on the content the page was loaded with).
SECTION_AT = """id => [Math.round(document.getElementById(id).getBoundingClientRect().top),
  document.querySelector('.md-content article').dataset.mark === 'kept', Math.round(scrollY)]"""


# Where the text the reader is at sits in the window: the top of the text's element across the
# middle of the window, marked the first time (then the same element each time).
READ_AT = """() => {
  let el = document.querySelector('[data-read-at]');
  if (!el) {
    // a paragraph, heading or figure of the text (not redrawn), whatever overlay is open: the
    // one across the middle of the window, or the first below it (the middle may fall in the
    // margin between two)
    const middle = innerHeight / 2;
    el = [...document.querySelectorAll('.md-content article > *')].find((e) => e.getBoundingClientRect().bottom >= middle);
    el.dataset.readAt = '';
  }
  return el.getBoundingClientRect().top;
}"""


TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.mark.parametrize(("width", "via"), [(1280, "search"), (375, "search"), (1280, "contents"), (1280, "page hit")])
def test_a_search_result_on_this_page_lands_on_its_section(new_context, width, via):
    """A search result for a section of the page being read scrolls to it, as the table of
    contents does. Found once on a phone: the theme closed its full-screen search and left the
    window where it was (it loaded the page again meanwhile); a jump made while the search was
    still shrinking away landed 1,700 px short. Back returns to where the reader was, without the
    page being loaded again (found once: the theme re-fetched it, every chart was drawn again, and
    the reader landed 467 px off), and so does Back after the table of contents. The search's hit
    for the page itself (no section) goes to its title (found by a cold read: the theme loaded the
    page again at its top in place of the reader's entry, and Back left the site)."""
    section = "what-speculative-decoding-really-costs" if via == "page hit" else "the-engine-log"
    phone = width < 500
    context = new_context(viewport={"width": width, "height": 740}, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto("/?batch=64")
    wait_rendered(page, "?batch=64")
    page.wait_for_function(ALL_LIVE, timeout=60_000)  # nothing above the reader changes height after
    page.evaluate("() => { document.querySelector('.md-content article').dataset.mark = 'kept'; scrollTo(0, 20000); }")
    page.wait_for_timeout(300)  # the theme records the reader's offset with the history entry
    if via == "contents":
        before = page.evaluate(READ_AT)
        page.locator(".md-sidebar--secondary a[href*='#the-engine-log']").first.click()
    else:
        # where the reader was before searching (found by a cold read: each keystroke in the search
        # field scrolled the page under it 41 px, and Back returned a screen above where they read)
        before = page.evaluate(READ_AT)
        if phone:
            page.locator("label.md-header__button[for=__search]").click()
        else:
            page.locator(".md-search__input").click()
        if phone:  # the theme pins the page under its full-screen search (scrollY 0), a moment after
            page.wait_for_function("() => getComputedStyle(document.body).position === 'fixed'")
        page.evaluate(TWO_FRAMES)
        page.evaluate("() => { window.__scrolls = 0; addEventListener('scroll', () => { __scrolls += 1; }); }")
        page.keyboard.type("prometheus" if via == "page hit" else "engine log", delay=30)
        page.evaluate(TWO_FRAMES)
        # not even a scroll undone at once: an undo can come a frame late on a busy machine
        assert page.evaluate("() => __scrolls") == 0, "typing in the search field scrolled the page"
        result = page.locator(".md-search-result__item a" + (":not([href*='#'])" if via == "page hit" else f"[href*='#{section}']")).first
        result.wait_for()
        page.wait_for_timeout(300)
        result.click()
    page.wait_for_url(f"**/?batch=64#{section}")
    # where the browser puts a section it is sent to: below the sticky header, at the top
    page.wait_for_function("id => { const t = document.getElementById(id).getBoundingClientRect().top;"
                           " return t > 0 && t < 120; }", arg=section)
    top, kept, _ = page.evaluate(SECTION_AT, section)
    assert kept, "the page was loaded again"
    assert page.evaluate("() => document.getElementById('__search').checked") is False
    page.go_back()
    page.wait_for_url("**/?batch=64")
    # the text the reader was at is where it was (scrollY may differ by what the browser's scroll
    # anchoring absorbed as charts above were redrawn meanwhile)
    page.wait_for_function(f"before => Math.abs(({READ_AT})() - before) <= 3", arg=before)
    wait_rendered(page, "?batch=64")
    assert page.evaluate(SECTION_AT, section)[1], "Back loaded the page again"


# Installed before the page's scripts: whether <html> had "spec-loading" as the document finished
# parsing, and whether it was there when the ladder's live view appeared.
RECORD_LOADING = """
window.__loading = {};
document.addEventListener('DOMContentLoaded', () => {
  __loading.atParsed = document.documentElement.classList.contains('spec-loading');
});
new MutationObserver((_, observer) => {
  if (document.querySelector('#simulation .spec-chart[data-chart=ladder] .spec-chart__view svg')) {
    __loading.atLadder = document.documentElement.classList.contains('spec-loading');
    observer.disconnect();
  }
}).observe(document, {subtree: true, childList: true});"""
# Per live chart of the essay as wide as its column: its view's width against its box's (a view
# measured in a part of the page not laid out yet takes a width of its own).
VIEW_WIDTHS = """() => [...document.querySelectorAll('.md-content article > :not(#simulation) .spec-chart.is-live')]
  .filter((el) => el.querySelector('img.spec-chart__static--fill'))
  .map((el) => [el.dataset.chart, Math.round(el.querySelector('.spec-chart__view svg').getBoundingClientRect().width),
                Math.round(el.querySelector('.spec-chart__view').getBoundingClientRect().width)])"""
SKIPPED = """() => [...document.querySelectorAll('.md-content article > *')]
  .filter((el) => getComputedStyle(el).contentVisibility !== 'visible').length"""


def test_the_essay_is_laid_out_whole_once_the_simulation_is_drawn(new_context):
    """While a page opened at its top loads, the essay below the simulation is laid out only where
    it is on screen (it held up a linked state's numbers by ~80 ms and the first chart by ~70 ms);
    the whole page is laid out before the essay's charts are drawn (found once: charts drawn while
    it was not took widths of their own, and their text ran off them). A link to a section, and a
    reload, never have it: they open at a place whose position would be a guess meanwhile."""
    context = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(RECORD_LOADING)
    page.goto("/?batch=64")
    wait_rendered(page, "?batch=64")
    page.wait_for_function(ALL_LIVE, timeout=60_000)
    assert page.evaluate("__loading") == {"atParsed": True, "atLadder": True}
    assert page.evaluate(SKIPPED) == 0
    widths = page.evaluate(VIEW_WIDTHS)
    assert len(widths) >= 8, widths
    # a chart as wide as the column (its picture fills it) is drawn at the column's width
    assert [(name, svg, box) for name, svg, box in widths if abs(svg - box) > 1] == []

    page = context.new_page()  # (a goto from the page above would be a move within it)
    page.add_init_script(RECORD_LOADING)
    page.goto("/?batch=64#the-engine-log")
    wait_rendered(page, "?batch=64")
    assert page.evaluate("__loading.atParsed") is False
    page.wait_for_function("() => { const t = document.getElementById('the-engine-log').getBoundingClientRect().top;"
                           " return t > 0 && t < 120; }")
    page.reload()
    wait_rendered(page, "?batch=64")
    assert page.evaluate("__loading.atParsed") is False


BAR_AND_HEADLINE = """() => {
  const bar = document.querySelector('#simulation [data-bar]');
  const headline = document.querySelector('#simulation .spec-sim__headline').getBoundingClientRect();
  return [!bar.hidden, headline.bottom > 0 && headline.top < innerHeight];
}"""


def test_a_phone_never_shows_two_verdicts(new_context):
    """Found once on a phone: in the lower part of the simulation its sticky headline and the bar
    below both showed the verdict, a third of the screen. The bar waits until the panel is gone."""
    context = new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function("() => 'tablesFitted' in document.documentElement.dataset")
    main = page.evaluate("() => { const r = document.querySelector('#simulation [data-sim-main]').getBoundingClientRect();"
                         " const s = document.querySelector('#simulation').getBoundingClientRect();"
                         " return [r.bottom + scrollY, s.bottom + scrollY]; }")
    assert main[1] - main[0] > 740, "the simulation has no screenful below its controls to read in"
    page.evaluate("y => scrollTo({top: y, behavior: 'instant'})", main[0] + 100)
    page.wait_for_timeout(300)
    assert page.evaluate(BAR_AND_HEADLINE) == [False, True]
    page.evaluate("y => scrollTo({top: y, behavior: 'instant'})", main[1] + 400)
    page.wait_for_function("() => !document.querySelector('#simulation [data-bar]').hidden")
    assert page.evaluate(BAR_AND_HEADLINE) == [True, False]


# The first reading block whose top is on screen (as views/reading-anchor.js picks it), else the
# one across the window's top: [its index among the page's blocks, its top in the window].
READING_BLOCK = """(index) => {
  const sim = document.querySelector('#simulation');
  const blocks = [...document.querySelectorAll('.md-content article :is(p, li, h2, h3, h4, dt, dd, figure, table, pre, blockquote, details), #simulation')]
    .filter((e) => e === sim || (!sim.contains(e) && !e.parentElement.closest('figure')))
    .filter((e) => e.getClientRects().length > 0);
  if (index !== null) return [index, blocks[index].getBoundingClientRect().top];
  let i = blocks.findIndex((e) => { const t = e.getBoundingClientRect().top; return t >= 0 && t < innerHeight; });
  if (i < 0) i = blocks.findLastIndex((e) => { const r = e.getBoundingClientRect(); return r.top < 0 && r.bottom > 0; });
  return [i, blocks[i].getBoundingClientRect().top];
}"""


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (375, 812), (740, 360)])
def test_a_reload_puts_the_reader_back_at_the_text_they_were_reading(new_context, width, height):
    """Found by a cold read: a reload of /?batch=32&gamma=2 at 375 × 812 or 740 × 360 moved the
    text 40 px (up to 366 px elsewhere): the browser restores the offset on a page whose charts are
    still pictures, and as they are drawn its scroll anchoring held a node inside a figure."""
    phone = width < 800
    page = new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone).new_page()
    page.goto("/?batch=32&gamma=2")
    wait_rendered(page, "?batch=32&gamma=2")
    page.wait_for_function(ALL_LIVE, timeout=60_000)
    height_of_page = page.evaluate("document.documentElement.scrollHeight")
    moved = []
    for share in (0.35, 0.7):
        page.evaluate(f"scrollTo(0, {int(share * height_of_page)})")
        page.wait_for_timeout(400)  # the page records the reading position once the scroll stops
        index, top = page.evaluate(READING_BLOCK, None)
        page.reload()
        wait_rendered(page, "?batch=32&gamma=2")
        page.wait_for_function(ALL_LIVE, timeout=60_000)
        after = page.evaluate(READING_BLOCK, index)[1]
        if abs(after - top) > 2:
            moved.append((share, round(top), round(after)))
    assert moved == []


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (375, 812)])
def test_switching_the_palette_leaves_the_reader_where_they_were(new_context, width, height):
    """Found by a cold read: each click on the theme's light/dark switch moved the page up about a
    screen (764 px at 1440 × 900): its label focuses a hidden radio button in the sticky header, and
    the browser scrolled the document to "show" it under the root's scroll-padding."""
    phone = width < 600
    page = new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.wait_for_function("() => document.documentElement.hasAttribute('data-tables-fitted')")
    # every chart drawn: one drawn later, above the reader, would move the page under a busy machine
    page.wait_for_function(ALL_LIVE, timeout=60_000)
    page.evaluate("document.querySelector('#figure-decision').scrollIntoView()")
    # once the page has settled there (the bar appears, figures above catch up)
    start, previous = page.evaluate("scrollY"), None
    while start != previous:
        page.wait_for_timeout(400)
        previous, start = start, page.evaluate("scrollY")
    assert start > 5000
    for scheme in ("slate", "default", "slate"):
        page.locator("label.md-header__button[for^=__palette]:visible").click()
        page.wait_for_function(f"() => document.body.dataset.mdColorScheme === '{scheme}'")
        page.wait_for_timeout(200)
        assert abs(page.evaluate("scrollY") - start) <= 2, scheme
    # and no control of the header moves the page when the keyboard reaches it
    for selector in (".md-header .md-option", ".md-header label.md-header__button", ".md-header [href]"):
        for handle in page.query_selector_all(selector):
            handle.evaluate("e => e.focus()")
            assert abs(page.evaluate("scrollY") - start) <= 2, selector


@pytest.mark.parametrize("query", ["?batch=1024", "?gpu=h200&target=qwen3-30b-a3b&drafter=eagle3&batch=1024",
                                   "?gpu=l40s&target=llama-3.3-70b-instruct&drafter=llama-3.2-1b&batch=1024"])
def test_held_sideways_the_bars_readouts_are_one_line_whatever_the_state(new_context, query):
    """Found by a cold read: at 740 × 360 a state that does not fit wrapped the bar's "does not fit"
    badge to a line of its own, and header and bar took 144 of 360 px."""
    page = new_context(viewport={"width": 740, "height": 360}, is_mobile=True, has_touch=True).new_page()
    page.goto("/" + query)
    page.wait_for_function("() => document.querySelector('#simulation')?.hasAttribute('data-rendered')")
    page.evaluate("() => scrollTo(0, document.body.scrollHeight / 3)")
    page.wait_for_selector("#simulation [data-bar]:not([hidden])")
    got = page.evaluate("""() => {
      const bar = document.querySelector('#simulation [data-bar]');
      const top = (s) => bar.querySelector(s).getBoundingClientRect().top;
      const note = bar.querySelector('.spec-bar__readouts [data-fit-note]');
      return {height: bar.getBoundingClientRect().height, speedup: top('.spec-bar__speedup'),
              note: note.hidden ? null : top('.spec-bar__readouts [data-fit-note]'),
              speedupHeight: bar.querySelector('.spec-bar__speedup').getBoundingClientRect().height};
    }""")
    assert got["note"] is not None, got  # every one of these states does not fit
    assert abs(got["note"] - got["speedup"]) < got["speedupHeight"], got
    assert got["height"] <= 0.22 * 360, got


@pytest.mark.parametrize("path", ["/?gpu=a100-sxm&batch=1024", "/model/"])
def test_on_a_phone_an_amount_in_the_prose_keeps_its_unit_on_its_line(new_context, path):
    """Found by a cold read: at 375 px a paragraph ended a line on "16.70" and began the next with
    "GB". Every amount the prose writes, by the build or by the page's readouts, is one line."""
    page = new_context(viewport={"width": 375, "height": 812}).new_page()
    page.goto(path)
    if path.startswith("/?"):
        wait_rendered(page, path[1:])
    got = page.evaluate(r"""() => {
      const split = [];
      let amounts = 0;
      const lines = (node, start, end) => {
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, end);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      };
      const prose = [...document.querySelectorAll('article :is(p, li)')].filter((e) => !e.closest('figure, table, pre'));
      for (const block of prose) {
        const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement.closest('code')) continue;
          // (and a GPU's name or a count of GPUs, one item each: cold read 21, "H100" / "SXM")
          for (const m of node.data.matchAll(/[\d.,]+\s(GB|GiB|MB|kB|ms|µs|TB\/s|TFLOP|TFLOP\/s|tokens\/s)(?![\w\/])|\b[A-Z]+\d+[A-Z]*\s(?:SXM|PCIe|NVL)\b|\b\d+\s(?:GPUs?|H100s|H200s)\b/g)) {
            amounts += 1;
            if (lines(node, m.index, m.index + m[0].length) > 1) split.push(m[0]);
          }
        }
      }
      return {amounts, split};
    }""")
    assert got["amounts"] > 10 and got["split"] == [], got


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_held_sideways_what_stays_on_screen_leaves_the_text_most_of_the_window(new_context, scheme):
    """Found by a cold read: at 740 × 360 the theme's sticky header and the bar took a third of the
    window while reading (48 + 66 px). There the header scrolls away; the bar stays."""
    page = new_context(viewport={"width": 740, "height": 360}, color_scheme=scheme).new_page()
    page.goto("/")
    wait_rendered(page, "")
    page.locator("#figure-memory").scroll_into_view_if_needed()
    page.mouse.wheel(0, -200)
    page.wait_for_function("() => !document.querySelector('.spec-bar')?.hidden")
    covered = page.evaluate("""() => {
      const kept = [...document.querySelectorAll('.md-header, .spec-bar, .spec-sim__headline')].filter((e) => {
        const position = getComputedStyle(e).position;
        return position === 'fixed' || position === 'sticky';
      });
      return kept.map((e) => {
        const r = e.getBoundingClientRect();
        return [e.className, Math.max(0, Math.min(innerHeight, r.bottom) - Math.max(0, r.top))];
      });
    }""")
    assert sum(h for _, h in covered) <= 0.25 * 360, covered
    assert any("spec-bar" in name and h > 0 for name, h in covered), covered  # the bar is there
    # the header is a scroll up, at the top of the page
    page.evaluate("scrollTo(0, 0)")
    assert page.locator(".md-header").bounding_box()["y"] == 0 and page.locator(".md-header").is_visible()


def test_on_a_phone_every_card_of_a_table_has_one_layout(new_context):
    """Found by a cold read: the model page's GPU cards at 375 px put "dense bf16" on the first line
    for 989 TFLOP/s and on a line of its own for 2,250 TFLOP/s: which cells sit side by side is a
    column's, so like cards share one grid. Every stack of cards on both pages, and the paste box's."""
    page = new_context(viewport={"width": 375, "height": 812}).new_page()
    layouts = """root => [...root.querySelectorAll('table[data-cards]')].map(t => [...t.tBodies[0].rows].map(r =>
      [...r.cells].map(c => (c.hasAttribute('data-short') ? 's' : '') + (c.hasAttribute('data-long') ? 'l' : '')).join(',')))"""
    found = []
    for path in ("/", "/model/"):
        page.goto(path)
        page.wait_for_function("() => 'tablesFitted' in document.documentElement.dataset")
        if path == "/":
            page.click("[data-action=metrics-example]")
            page.wait_for_selector("[data-metrics-answer] table[data-cards]")
        found += page.locator("article").evaluate(layouts)
    assert len(found) >= 3, found
    for rows in found:
        assert len(set(rows)) == 1, rows


def test_back_after_try_the_example_returns_to_where_the_reader_clicked(new_context):
    """Found by a cold read: the essay's "Try the example" scrolled to the paste box before its
    state's history entry was made, so the entry left recorded the scrolled place and Back
    returned 290 px from where the reader had clicked."""
    page = new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.goto("/?batch=64")
    wait_rendered(page, "?batch=64")
    page.wait_for_function(ALL_LIVE, timeout=60_000)
    y = page.evaluate("() => document.querySelector('a.spec-metrics-example').getBoundingClientRect().top + scrollY")
    page.mouse.wheel(0, y - 470)
    page.wait_for_function("y => Math.abs(document.querySelector('a.spec-metrics-example').getBoundingClientRect().top - 470) < 2", arg=470)
    page.wait_for_timeout(300)  # (the reader's place is kept once the page is still)
    before = page.evaluate(READ_AT)
    box = page.locator("a.spec-metrics-example").first.bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + 5)
    page.wait_for_url("**/?batch=64&drafter=ngram&**")
    page.wait_for_function("() => document.querySelector('[data-metrics-status]').textContent.startsWith('Read ')")
    page.go_back()
    page.wait_for_url("**/?batch=64")
    page.wait_for_function(f"before => Math.abs(({READ_AT})() - before) <= 3", arg=before)


def test_on_a_touch_screen_a_footnotes_links_back_to_the_text_are_seen(new_context):
    """Found by a cold read on a phone: the theme shows a footnote's "↩" links on hover only, so on
    a touch screen a footnote cited seven times was followed by a blank line of unseen links, and
    no way back to the text could be seen. On a touch screen they show; on a laptop they keep the
    theme's hover."""
    for phone in (True, False):
        page = new_context(viewport={"width": 375 if phone else 1440, "height": 812},
                           is_mobile=phone, has_touch=phone).new_page()
        page.goto("/")
        wait_rendered(page, "")
        opacities = page.eval_on_selector_all(".footnote .footnote-backref", "as => as.map(a => getComputedStyle(a).opacity)")
        assert len(opacities) > 7, opacities
        assert set(opacities) == ({"1"} if phone else {"0"}), (phone, set(opacities))
        page.close()
