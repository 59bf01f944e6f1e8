// One page's interactive state, composed of small views. The state lives in one store; the URL,
// the controls, the loader and every view of the numbers (readouts, live prose numbers, token
// row, vLLM lines, charts, notes, the spoken summary) watch it and update their own part.
// Pages without a simulation still get their charts and live numbers for the state in their URL.
import { DataError, loadManifest, loadState, lookup, prefetch } from "./core/data.js";
import { useFormats } from "./core/format.js";
import { datasetsFor, followsState } from "./core/rows.js";
import { Store } from "./core/store.js";
import { constrainState, defaultState, parseQuery, sameState, serializeQuery } from "./core/url-state.js";
import { mountAnnouncer } from "./views/announce.js";
import { mountBar } from "./views/bar.js";
import { chartsSettled, mountCharts, stopCharts, updateCharts } from "./views/charts.js";
import { greyedChoices, mountControls } from "./views/controls.js";
import { mountMetrics } from "./views/metrics.js";
import { showFitNotes } from "./views/fit-notes.js";
import { showTargetBlocks } from "./views/for-target.js";
import { installDrawerFocus } from "./views/drawer.js";
import { installPaletteToggle } from "./views/palette-toggle.js";
import { showNotes } from "./views/notes.js";
import { clearReadouts, renderReadouts } from "./views/readouts.js";
import { breakAtSeparators, breakCodeAtSeparators } from "./views/code-breaks.js";
import { fitWideTables } from "./views/wide-tables.js";
import { keepPhrasesWhole } from "./views/names.js";
import { ReadingAnchor } from "./views/reading-anchor.js";
import { claimPopState, installSectionLinks, sectionNamed } from "./views/section-links.js";
import { setText } from "./views/dom.js";
import { renderTokenRow } from "./views/tokens.js";
import { configFlag, engineLogLine } from "./views/vllm.js";
import { cliCommand } from "./views/cli.js";

let page = null;

// The query holds the reader's state; every link to a page of this site carries it, so following
// or copying one keeps the state (the table of contents, "skip to content", permalinks, the
// navigation, and the search results the theme writes later: see keepStateOnClick). The theme
// makes every link absolute when a page loads, with the query the page had then (a hostile one
// too, before the page corrected it): they follow the URL the page now has. Explorable links carry
// a state of their own.
function isSitePage(link) {
  if (link.origin !== location.origin || link.classList.contains("explore")) return false;
  const root = new URL("../", import.meta.url).pathname; // this file is <root>/javascripts/page.js
  return link.pathname.startsWith(root) && (link.pathname.endsWith("/") || link.pathname.endsWith(".html"));
}

function relinkThisPage(root = document) {
  const query = location.search;
  for (const link of root.querySelectorAll("a[href]")) {
    // unchanged links untouched: a written href restyles its link even when it is the same
    if (link.search !== query && isSitePage(link)) link.search = query;
  }
}

// The search results are written as the reader types: their links get the query as they appear,
// so the address a hovered result shows (and a copied one holds) is the state. keepStateOnClick
// still covers a result followed before this runs.
let searchObserver = null;
let searchResults = null;

function relinkSearchResults() {
  const results = document.querySelector(".md-search-result");
  if (!results || results === searchResults) return;
  searchObserver ??= new MutationObserver(() => relinkThisPage(searchResults));
  searchObserver.disconnect();
  searchObserver.observe(results, { childList: true, subtree: true });
  searchResults = results;
}

// While a slider is dragged the address and the links follow once the reader pauses, not on
// every step: writing the address costs the browser a few milliseconds, and a page has hundreds
// of links. A link clicked meanwhile is brought up to date by keepStateOnClick.
const URL_AFTER_MS = 150;
// A scroll that has stopped this long is where the reader is (history.state.specReading).
const RECORD_READING_MS = 200;

// Steps of one slider in a row (arrow keys pressed one after another, each a committed change)
// make one history entry, as a drag does: Back undoes the run, not each step. A run ends when
// the reader pauses this long (wall-clock time, Date.now: a test can hold it still), or changes
// anything else.
const SLIDER_RUN_MS = 1000;
// How long "Link copied." stays.
const COPIED_MS = 4000;

// The sliders whose every step needs other files (manifest contract "files": the shards are by
// α, the step breakdowns by γ); batch and context stay inside the state's files.
const PREFETCHED_DIMS = ["alpha", "gamma"];

// Links written after the page loaded (search results) get the query when followed: in the
// capture phase, before the theme's instant navigation reads the link. Also when the reader
// presses on one, focuses it or opens its menu: a link opened in a new tab or copied is read by
// the browser, not by a click handler.
const LINK_EVENTS = ["click", "pointerdown", "focusin", "contextmenu", "auxclick"];

function keepStateOnClick(event) {
  const link = event.target.closest?.("a[href]");
  if (link && isSitePage(link)) page?.flushUrl();
  if (link && isSitePage(link) && link.search !== location.search) link.search = location.search;
}

class Page {
  constructor(manifest, sim) {
    this.manifest = manifest;
    this.sim = sim;
    this.pathname = location.pathname;
    this.hash = location.hash; // as of our last URL write: see ownsPopState
    this.committed = null; // what the current history entry's URL says, as of the last commit
    this.loads = 0;
    this.readingAnchor = null; // what the reader reads, held in place while a state is drawn
    this.returnAnchor = null; // the same after a reload, while the whole page is drawn (holdReturn)
    this.lastExplore = null; // the explorable link last clicked (Back holds it if it is on screen)
    this.sliderRun = null; // {slider, at, state}: the last step of a slider's run (SLIDER_RUN_MS)
    this.urlTimer = 0; // a dragged slider's address (urlPending), written once the reader pauses
    this.urlPending = null;
    // The state shown (or being loaded), and the numbers on screen: {state, data} or {state, error}.
    this.state$ = new Store(null, (a, b) => a !== null && b !== null && sameState(a, b));
    this.shown$ = new Store(null);
    this.controls = null;
    this.announcer = null;
    this.bar = null;
    this.firstRender = new Promise((resolve) => {
      this.rendered = resolve;
    });
  }

  start() {
    const { state, notes, corrected } = parseQuery(location.search, this.manifest);
    showNotes(this.sim, notes);
    this.committed = state;
    relinkThisPage();
    if (this.sim) this.mountSimulation();
    this.state$.subscribe((s) => this.load(s));
    this.shown$.subscribe((shown) => this.render(shown));
    // A corrected URL is rewritten, so a link copied from the address bar is the state shown; so
    // is one written another way ("?gpu=H200", a target without the drafter its data imply).
    if (this.sim && (notes.length > 0 || location.search !== serializeQuery(state, this.manifest))) this.replaceUrl(state);
    // The bar tells of a link's state, and of its correction, once the state is drawn (found by a
    // cold read: for 0.4 s after the page loaded it pointed to a note under a simulation not drawn
    // yet); not if the reader has set another meanwhile.
    const linked = this.sim && !sameState(state, defaultState(this.manifest));
    if (corrected > 0 || linked) {
      this.firstRender.then(() => {
        if (page !== this || !sameState(this.committed, state)) return;
        if (corrected > 0) this.bar?.corrected();
        if (linked) this.bar?.linked();
      });
    }
    this.state$.set(state);
  }

  mountSimulation() {
    this.announcer = mountAnnouncer(this.sim, this.manifest);
    this.bar = mountBar(this.sim);
    // A moved control can leave the state outside its configuration (a drafter of another
    // family after a change of target): it is brought back, and the note says how.
    // (Not the number of GPUs: it comes with the target, and the control beside it says so.)
    const everyField = new Set(this.manifest.state.map((s) => s.name).filter((name) => name !== "tp"));
    this.controls = mountControls(this.sim, this.manifest, {
      onMove: (moved) => {
        const { state } = constrainState(moved, this.manifest);
        this.state$.set(state, { source: "controls" });
        this.replaceUrl(state, { soon: true });
      },
      onCommit: (moved, slider) => {
        this.bar?.clearNote();
        const { state, notes } = constrainState(moved, this.manifest, everyField);
        this.state$.set(state, { source: "controls" });
        showNotes(this.sim, notes);
        const run = this.sliderRun;
        const now = Date.now();
        if (slider && run?.slider === slider && now - run.at < SLIDER_RUN_MS && sameState(run.state, this.committed)) {
          this.replaceUrl(state);
          this.committed = state;
        } else {
          this.pushUrl(state);
        }
        this.sliderRun = slider ? { slider, at: now, state } : null;
        this.announcer.soon();
      },
    });
    this.state$.subscribe((state) => this.controls.show(state));
    const box = document.querySelector("[data-metrics]");
    if (box) {
      this.metrics = mountMetrics(box, this.manifest, {
        apply: (values) => this.applyMetrics(values),
        current: () => this.state$.get(),
      });
      // The paste box's own GPU, target, drafter and batch controls move the same state.
      const deployment = mountControls(this.metrics.controls.parentElement, this.manifest, {
        onMove: () => {},
        onCommit: (moved) => {
          const asked = new Set(["gpu", "target", "drafter", "batch"]);
          const before = this.state$.get();
          this.metrics.chose(Object.fromEntries([...asked].filter((name) => moved[name] !== before[name]).map((name) => [name, moved[name]])));
          const { state: constrained, notes } = constrainState(moved, this.manifest, asked);
          // the pasted acceptance follows the reader to another configuration, as far as its data
          // allow, and the notes say what it became (not what the configuration would have filled in)
          const state = this.metrics.adjust(constrained);
          const adjusted = this.metrics.adjustNote(moved, state);
          const said = adjusted ? [...constrainState({ ...moved, acceptance: state.acceptance }, this.manifest, asked).notes, adjusted] : notes;
          this.state$.set(state, { source: "controls" });
          showNotes(this.sim, said);
          this.pushUrl(state);
        },
      });
      this.state$.subscribe((state) => deployment.show(state));
    }
    this.sim.querySelector("[data-action=reset]")?.addEventListener("click", () => this.go(""));
    this.sim.querySelector("[data-action=copy-link]")?.addEventListener("click", () => this.copyLink());
  }

  detach() {
    clearTimeout(this.urlTimer);
    this.returnAnchor?.release();
    this.announcer?.stop();
    this.bar?.stop();
    this.loads += 1; // drop any load still in flight
  }

  // --- URL -------------------------------------------------------------------------------

  url(state) {
    return location.pathname + serializeQuery(state, this.manifest) + location.hash;
  }

  // The theme keeps the scroll offset in history.state: pass it on, or back/forward jumps to the top.
  // While a slider is dragged (soon), the address and the links follow once the reader pauses;
  // any other write (a commit) replaces a pending one.
  replaceUrl(state, { soon = false } = {}) {
    clearTimeout(this.urlTimer);
    this.urlTimer = 0;
    if (soon) {
      this.urlPending = state;
      this.urlTimer = setTimeout(() => this.replaceUrl(state), URL_AFTER_MS);
      return;
    }
    this.urlPending = null;
    history.replaceState(history.state, "", this.url(state));
    this.hash = location.hash;
    relinkThisPage();
  }

  // A link is being followed mid-drag: the address it copies must be the state on screen.
  flushUrl() {
    if (this.urlPending) this.replaceUrl(this.urlPending);
  }

  // A new history entry for `state`; the entry being left gets back the URL it was committed
  // with (replaceState may have moved it along with a dragged slider).
  pushUrl(state) {
    if (sameState(state, this.committed)) {
      this.replaceUrl(state);
      return;
    }
    this.replaceUrl(this.committed);
    this.recordReading(); // where the reader leaves this entry, as they are now
    history.pushState(history.state, "", this.url(state));
    this.hash = location.hash;
    this.committed = state;
    relinkThisPage();
  }

  // A state from outside the controls: an explorable link, a click on a chart, reset. The page
  // does not move: the reader stays where they read, and the bar shows the result there, with
  // the readouts the link's sentence quotes (`quoted`, readout keys separated by spaces) where
  // they are not the speedup.
  go(query, { quiet = false, quoted = null } = {}) {
    const { state, notes } = parseQuery(query, this.manifest);
    showNotes(this.sim, notes);
    this.pushUrl(state);
    this.holdNothingIfSame(state);
    this.state$.set(state, { source: "link" });
    if (!quiet) this.announcer?.soon();
    this.bar?.changed();
    this.bar?.quote(quoted);
    return state;
  }

  // The paste box fitted the reader's numbers: show that state, and resolve with {state, data}
  // once it is on screen (the box then announces its own summary, once).
  applyMetrics(values) {
    const state = this.go(serializeQuery({ ...this.state$.get(), ...values }, this.manifest), { quiet: true });
    return new Promise((resolve) => {
      let stop = () => {};
      const check = (shown) => {
        if (shown && sameState(shown.state, state)) {
          stop();
          resolve(shown);
        }
      };
      stop = this.shown$.subscribe(check);
      check(this.shown$.get());
    });
  }

  // Still on screen: the theme replaces the content before it announces the next page, and
  // an old page must not act on (or claim) events meanwhile.
  isShown() {
    return (this.sim ?? document.body).isConnected && location.pathname === this.pathname;
  }

  // Back/forward between two sections of this page and state: only the #hash changed (a search
  // result or the table of contents moved the reader). The theme would take it for a navigation
  // and load the page again, re-drawing every chart under the reader, who would land off the
  // place they left.
  ownsSectionMove() {
    return location.pathname === this.pathname && location.hash !== this.hash && this.committed !== null &&
      location.search === serializeQuery(this.committed, this.manifest);
  }

  // Where the entry's reader was (the theme keeps the offset in history.state), else its section.
  onSectionMove() {
    this.hash = location.hash;
    const y = history.state?.y;
    if (Number.isFinite(y)) {
      scrollTo({ top: y, behavior: "instant" });
      return;
    }
    sectionNamed(location.hash)?.scrollIntoView({ block: "start", behavior: "instant" });
  }

  // Back/forward to another state of this page: its query changed, its hash did not. Landing
  // on the URL we already show means the theme started a navigation away from here that the
  // reader is cancelling, and the theme must see that.
  ownsPopState() {
    const shown = serializeQuery(this.committed, this.manifest);
    return this.sim !== null && location.hash === this.hash && location.search !== shown;
  }

  // Where the reader is, kept with the history entry (history.state.specReading, beside the
  // theme's own keys), as the browser keeps a scroll offset; by block, not offset, since the page
  // above may be laid out otherwise when the reader comes back to the entry's state.
  recordReading() {
    if (!this.sim || !this.isShown()) return;
    const where = ReadingAnchor.where(this.sim.closest("article") ?? document.body, this.sim);
    if (where) history.replaceState({ ...(history.state ?? {}), specReading: where }, "", location.href);
  }

  onPopState() {
    // A state change in place (not a hash change, after which the theme scrolls): the reader
    // goes back to where they were when they left that entry, as after any Back; if the entry
    // has no such record, they stay where they are.
    let anchor = null;
    if (location.hash === this.hash && this.sim) {
      const article = this.sim.closest("article") ?? document.body;
      const saved = history.state?.specReading;
      anchor = ReadingAnchor.at(article, this.sim, saved);
      if (anchor) scrollBy({ top: anchor.getBoundingClientRect().top - saved.top, behavior: "instant" });
      else anchor = ReadingAnchor.onScreen(article, this.sim, this.lastExplore);
    }
    this.holdReading(anchor, { afterTraversal: true });
    this.hash = location.hash;
    relinkThisPage();
    const { state, notes } = parseQuery(location.search, this.manifest);
    showNotes(this.sim, notes);
    this.committed = state;
    this.holdNothingIfSame(state);
    this.state$.set(state, { source: "history" });
    this.announcer?.soon();
  }

  // A chart's mark was clicked (a ladder rung, a decision-map cell): open the state it names, as
  // a link would. The chart stays under the pointer.
  onSelect(values, chart) {
    if (!this.sim) return;
    this.holdReading(chart);
    this.go(serializeQuery({ ...this.state$.get(), ...values }, this.manifest));
  }

  onExploreClick(event, link) {
    if (!this.sim || link.pathname !== location.pathname) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // Ours alone: the theme's instant navigation would otherwise fetch the page again.
    event.preventDefault();
    event.stopPropagation();
    // The link stays where the reader sees it (views/reading-anchor.js), measured before the
    // state's notes change anything.
    this.lastExplore = link;
    this.holdReading(link);
    this.go(link.search, { quoted: link.dataset.barReadout });
  }

  // Hold `element` (or nothing) in place while the state asked for next is drawn.
  holdReading(element, options = {}) {
    this.returnAnchor?.release();
    this.readingAnchor?.release();
    this.readingAnchor = element ? new ReadingAnchor(element, options) : null;
  }

  // Hold `element` while the page is drawn after a reload, every chart included (they are drawn
  // one after another for seconds): until the reader moves the page or asks for another state,
  // or HOLD_MS pass, not only until the state's numbers are drawn as holdReading's anchor is.
  holdReturn(element) {
    this.returnAnchor?.release();
    this.returnAnchor = element ? new ReadingAnchor(element) : null;
  }

  // `state` is the one shown (or on its way): nothing new will be drawn, nothing to hold.
  holdNothingIfSame(state) {
    const now = this.state$.get();
    if (now !== null && sameState(now, state)) this.holdReading(null);
  }

  // Once every chart shows `state` and that frame is painted, the page has stopped moving.
  releaseReadingOnceDrawn() {
    const anchor = this.readingAnchor;
    if (!anchor) return;
    chartsSettled()
      .then(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))))
      .then(() => {
        if (this.readingAnchor !== anchor) return;
        anchor.hold();
        this.holdReading(null);
      });
  }

  async copyLink() {
    const url = new URL(this.url(this.state$.get()), location.href);
    url.hash = "simulation";
    const status = this.sim.querySelector("[data-copied]");
    try {
      await navigator.clipboard.writeText(url.href);
      status.textContent = "Link copied.";
    } catch {
      // No clipboard permission: show the link so it can be copied by hand.
      status.textContent = `Copy this link: ${url.href}`;
    }
    // Said for a while, and never of a state the page no longer shows.
    this.clearCopied?.();
    const stop = this.state$.subscribe(() => this.clearCopied?.());
    const timer = setTimeout(() => this.clearCopied?.(), COPIED_MS);
    this.clearCopied = () => {
      clearTimeout(timer);
      stop();
      status.textContent = "";
      this.clearCopied = null;
    };
  }

  // --- loading ---------------------------------------------------------------------------

  async load(state) {
    const load = ++this.loads;
    this.sim?.setAttribute("aria-busy", "true");
    this.announcer?.shown(state, null);
    let shown;
    try {
      shown = { state, data: await loadState(this.manifest, state) };
    } catch (error) {
      shown = { state, error };
    }
    if (load !== this.loads) return; // a newer state was asked for meanwhile
    this.shown$.set(shown);
    this.rendered();
    if (shown.data) prefetch(this.manifest, this.neighbours(state));
  }

  // The states one slider step away whose files differ from this one's (α's shards, γ's step
  // breakdowns): the next files a slider move needs, in before the reader moves it.
  neighbours(state) {
    return PREFETCHED_DIMS.flatMap((dim) => {
      const axis = this.manifest.axes[dim];
      const i = axis.indexOf(state[dim]);
      return [i - 1, i + 1].filter((j) => j >= 0 && j < axis.length).map((j) => ({ ...state, [dim]: axis[j] }));
    });
  }

  // --- showing the numbers ---------------------------------------------------------------

  render(shown) {
    this.metrics?.shown(shown);
    if (shown.error) {
      this.showError(shown.error);
      return;
    }
    const { state, data } = shown;
    try {
      renderReadouts(document.body, data, state);
    } catch (error) {
      this.showError(error);
      return;
    }

    const chartsDone = this.refreshCharts();
    showFitNotes(document.body, data, state);
    showTargetBlocks(document.body, state);
    // Pictures of the default state must not stand in for another one (spec.css).
    document.documentElement.classList.toggle("spec-linked", serializeQuery(state, this.manifest) !== "");
    if (this.sim) {
      // Which state the readouts show ("" = the defaults): for tests, and for anyone inspecting.
      this.sim.dataset.rendered = serializeQuery(state, this.manifest);
      this.sim.dataset.readouts = this.sim.dataset.rendered; // see views/early-readouts.js
      this.sim.removeAttribute("aria-busy");
      const fits = Boolean(lookup(data, "fits_in_memory", state));
      for (const el of this.sim.querySelectorAll("[data-warning=memory], [data-fit-note]")) if (el.hidden !== fits) el.hidden = fits;
      // the bar's quoted memory says a state fits, as its sentence does (found by a cold read:
      // "needs 59.9 GB" beside "need 59.9 GB and fit in 80 GB")
      for (const el of this.sim.querySelectorAll("[data-fits-note]")) if (el.hidden === fits) el.hidden = !fits;
      const row = this.sim.querySelector("[data-token-row]");
      if (row) renderTokenRow(row, lookup(data, "token_row", state), data.manifest.contract);
      const extrapolation = this.sim.querySelector("[data-extrapolation]");
      if (extrapolation) {
        const note = lookup(data, "extrapolation_note", state);
        const greyed = greyedChoices(this.manifest, state);
        const { gpu, target } = this.manifest.defaults;
        const labels = this.manifest.labels;
        setText(extrapolation, ((note ? `This configuration is ${note}.` : "") + (greyed.length
          ? ` Greyed out here, offered as settings for ${labels.target[target]} on one ${labels.gpu[gpu]} only: ${greyed.join(", ")}.`
          : "")).trim());
        keepPhrasesWhole(extrapolation); // "on 2 GPUs", "H200 SXM" on one line (views/names.js)
        extrapolation.hidden = extrapolation.textContent === "";
      }
      // The flag, the log line and the command, each broken only between names (found by a cold
      // read at 375 px: "Per-" | "position", "llama-3.3-70b-" | "instruct"). (The breaks add
      // elements, not text: the same text is the same code, already broken.)
      for (const [selector, text] of [["[data-vllm=config]", () => configFlag(data, state)],
        ["[data-vllm=log]", () => engineLogLine(data, state)], ["[data-cli]", () => cliCommand(this.manifest, state, fits)]]) {
        const code = this.sim.querySelector(selector);
        const wanted = code && text();
        if (code && code.textContent !== wanted) {
          code.textContent = wanted;
          breakAtSeparators(code);
        }
      }
      this.readingAnchor?.hold();
      this.releaseReadingOnceDrawn();
      this.announcer.shown(state, {
        fits: Boolean(lookup(data, "fits_in_memory", state)),
        memory: lookup(data, "memory_required_bytes", state),
        gpu_memory: lookup(data, "gpu_memory_bytes", state),
        speedup: lookup(data, "speedup", state),
        spec_tokens_per_s: lookup(data, "spec_tokens_per_s", state),
        plain_tokens_per_s: lookup(data, "plain_tokens_per_s", state),
      });
    }
    // For `make bench` and anyone scripting the page: the readouts and the simulation's charts
    // now show `state`.
    chartsDone.then(() =>
      document.dispatchEvent(new CustomEvent("spec:rendered", { detail: { query: this.sim?.dataset.rendered } })),
    );
  }

  // The charts show the state on screen (after a state change, and once the charts are mounted).
  refreshCharts() {
    const shown = this.shown$.get();
    if (!shown?.data) return Promise.resolve();
    const { state, data } = shown;
    return updateCharts((chart) => {
      const datasets = datasetsFor(chart, data, state);
      const declared = data.manifest.charts[chart]; // none for a chart whose rows never change
      return datasets && { datasets, columns: declared?.columns, select: declared?.select };
    });
  }

  // The current state's data did not load (a file missing, unreadable or of another build).
  // Nothing of an earlier state may stay on screen as this one's: readouts show a dash, the
  // charts that follow the state their default picture, and the note says why. The controls
  // keep working: another state whose files load shows again.
  showError(error) {
    const reason = error instanceof DataError ? error.message : `Unexpected error: ${error.message}`;
    clearReadouts(document.body);
    updateCharts((chart) => {
      if (followsState(this.manifest, chart)) throw error;
      return null;
    });
    if (this.sim) {
      delete this.sim.dataset.rendered;
      delete this.sim.dataset.readouts;
      this.sim.removeAttribute("aria-busy");
      this.sim.querySelector("[data-token-row]")?.replaceChildren();
      for (const el of this.sim.querySelectorAll("[data-vllm], [data-cli]")) el.textContent = "—";
      for (const el of this.sim.querySelectorAll("[data-warning=memory], [data-fit-note]")) el.hidden = true;
    }
    showNotes(this.sim, [`The numbers for these settings could not be loaded: ${reason} Other settings may still work.`], {
      error: true,
    });
  }
}

// The simulation cannot run: its controls are disabled (moving them would change nothing) and
// the note says why. The build's numbers, for the starting settings, stay.
function showSetupError(sim, message) {
  if (!sim) return;
  for (const control of sim.querySelectorAll("form input, form select")) control.disabled = true;
  showNotes(sim, [`${message} The numbers shown are for the starting settings.`], { error: true });
}

// The build writes its data version into every page; the prose, pictures and tables are of
// that build. Data of another one would contradict them: refuse it.
function versionMismatch(manifest) {
  const built = document.querySelector("[data-model-version]")?.dataset.modelVersion;
  if (!built || built === manifest.model_version) return null;
  return (
    `This page was built with data version ${built}, but the site's data is now version ` +
    `${manifest.model_version}: the site was updated after this page was loaded. Reload the page.`
  );
}

let setups = 0;

// The essay below the simulation, laid out only where it is on screen while the page loads
// (head.js, spec.css "spec-loading"): from now on, the whole page.
function layOutWholePage() {
  clearTimeout(window.__specLoadingTimer);
  document.documentElement.classList.remove("spec-loading");
}

// The charts: the simulation's; once they are on screen the whole page is laid out (head.js left
// the browser to lay out only what is on screen of the essay below the simulation while the page
// loaded); then the essay's. Once the browser is idle, code that may wrap is given its break
// points and wide tables become cards (measuring them forces a layout of the whole page: not
// while the reader waits for the numbers). <html data-tables-fitted> says it is done, for tests
// and anyone inspecting.
function mountChartsThenFit() {
  const root = document.documentElement;
  delete root.dataset.tablesFitted;
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 0));
  mountCharts(document.body, { beforeTheRest: layOutWholePage }).then(() =>
    idle(
      () => {
        breakCodeAtSeparators(document.body);
        fitWideTables(document.body);
        root.dataset.tablesFitted = "";
      },
      { timeout: 1000 },
    ),
  );
}

// Runs on first load and after every instant navigation.
export async function setupPage() {
  const setup = ++setups;
  page?.detach();
  page = null;
  // Every page's links keep the state, also a page with no numbers of its own.
  relinkThisPage();
  relinkSearchResults();
  const root = document.documentElement;
  // A linked state's numbers are not the build's: until they are on screen, the build's are
  // hidden (spec.css), so the first thing painted is never the default state's verdict.
  clearTimeout(window.__specPendingTimer); // head.js's fallback: this page manages the class now
  root.classList.toggle("spec-pending", location.search.length > 1);
  const ready = () => root.classList.remove("spec-pending");
  const sim = document.querySelector(".spec-sim#simulation");
  // The content's article: the search results the theme writes are <article>s too, and after a
  // search a result may come first.
  const article = document.querySelector(".md-content article") ?? document.body;
  const needsData = sim || document.querySelector(".spec-chart[data-chart], .live[data-live], a.explore");
  if (!needsData) {
    ready();
    mountChartsThenFit();
    return;
  }
  let manifest;
  try {
    manifest = await loadManifest();
  } catch (error) {
    if (setup !== setups) return;
    ready();
    mountChartsThenFit();
    showSetupError(sim, `The simulation's data could not be loaded (${error.message}).`);
    return;
  }
  if (setup !== setups) return; // the reader navigated on while the manifest loaded
  const mismatch = versionMismatch(manifest);
  if (mismatch) {
    ready();
    mountChartsThenFit();
    stopCharts("the site was updated after this page was loaded; reload the page");
    showSetupError(sim, mismatch);
    return;
  }
  useFormats(manifest.formats);
  const current = new Page(manifest, sim);
  page = current;
  // Bubbling reaches the article before the theme's listener on <body>, so stopping it here
  // keeps instant navigation out of a same-page state change.
  article.addEventListener("click", (event) => {
    const link = event.target.closest?.("a.explore");
    if (link && page === current) current.onExploreClick(event, link);
  });
  article.addEventListener("spec:select", (event) => {
    if (page === current) current.onSelect(event.detail.values, event.target.closest?.(".spec-chart") ?? event.target);
  });
  // A reload, or a return from another site: the browser puts the reader back at the offset they
  // left, on a page not yet drawn (the charts' pictures are not the charts' heights), and what is
  // drawn next moves the text under them (found by a cold read: 40 px at 375 px wide; 60 and
  // more at 1,440). The block they were reading, as the entry recorded it when they left
  // (recordReading, also on pagehide), is put back where it was and held there.
  if (setup === 1 && window.__specReturn) {
    const saved = window.__specReturn; // (head.js: the theme replaces history.state as it starts)
    const block = ReadingAnchor.at(article, sim, saved);
    if (block) {
      scrollBy({ top: block.getBoundingClientRect().top - saved.top, behavior: "instant" });
      current.holdReturn(block);
    }
  }
  // The numbers first (manifest, then the state's files in parallel), the charts after: their
  // specs, data and views would otherwise hold up the readouts of a linked state.
  current.start();
  await current.firstRender;
  if (setup !== setups) return;
  ready();
  mountChartsThenFit();
  current.refreshCharts();
}

let installed = false;

export function installHistory() {
  if (installed) return;
  installed = true;
  for (const type of LINK_EVENTS) document.addEventListener(type, keepStateOnClick, true);
  // Each entry keeps where its reader is (page.recordReading), once the page is still for a moment,
  // and as the reader leaves it (a reload within that moment).
  let readingTimer = 0;
  addEventListener("scroll", () => {
    clearTimeout(readingTimer);
    readingTimer = setTimeout(() => page?.recordReading(), RECORD_READING_MS);
  }, { passive: true });
  addEventListener("pagehide", () => page?.recordReading());
  installSectionLinks();
  installDrawerFocus();
  installPaletteToggle();
  // Returns whether the event was ours alone (see head.js).
  const onPopState = () => {
    if (claimPopState()) {
      // a section link's jump within this page (views/section-links.js): the browser moves; the
      // page notes the section
      if (page) page.hash = location.hash;
      return true;
    }
    if (!page || !page.isShown()) return false; // another page: the theme navigates
    if (page.ownsSectionMove()) {
      page.onSectionMove();
      return true;
    }
    const ours = page.ownsPopState();
    page.onPopState(); // after a hash change the theme scrolls, but the state still follows the URL
    return ours;
  };
  if (window.__specPopstate) window.__specPopstate.handler = onPopState;
  else window.addEventListener("popstate", onPopState);
}
