// One page's interactive state: controls ↔ state ↔ URL, and every view of the state (readouts,
// live prose numbers, token row, vLLM lines, charts). Pages without a simulation still get
// their charts and live numbers for the state in their URL.
import { mountCharts, stopCharts, updateCharts } from "./charts.js";
import { DataError, loadManifest, loadState, lookup, prefetch } from "./data.js";
import { fixed, format } from "./format.js";
import { clearReadouts, readoutsFor, renderReadouts } from "./readouts.js";
import { followsState, rowsFor } from "./rows.js";
import { KEYS, parseQuery, sameState, serializeQuery, snap } from "./state.js";
import { renderTokenRow } from "./tokens.js";
import { configFlag, engineLogLine } from "./vllm.js";

// The reader has stopped moving things for this long before the summary is announced.
const ANNOUNCE_DELAY_MS = 500;

let page = null;

// Text beside a control; mirrors the `shown` macro of simulation.html.j2.
function controlText(manifest, key, value) {
  if (key === "batch" || key === "context") return format("int", value);
  if (key === "alpha") return fixed(value, 2);
  return manifest.labels?.[key]?.[value] ?? String(value);
}

class Page {
  constructor(manifest, sim) {
    this.manifest = manifest;
    this.sim = sim;
    this.form = sim?.querySelector("form") ?? null;
    this.pathname = location.pathname;
    this.hash = location.hash; // as of our last URL write: see installHistory
    this.state = null; // what is shown (or being loaded)
    this.committed = null; // what the current history entry's URL says, as of the last commit
    this.rendered = null; // the state whose values are on screen
    this.values = null;
    this.loads = 0;
    this.announceTimer = 0;
    this.announcePending = false;
  }

  start() {
    const { state, notes } = parseQuery(location.search, this.manifest);
    this.setNotes(notes);
    this.committed = state;
    // A corrected URL is rewritten, so a link copied from the address bar is the state shown.
    if (notes.length > 0 && this.form) this.replaceUrl(state);
    this.show(state);
    if (!this.form) return;
    // An <output> is a polite live region by default: it would be read out on every step of a
    // slider, which already speaks its own aria-valuetext. The summary ([data-status]) is said
    // once, when the controls settle. (Without the script the outputs never change.)
    for (const output of this.form.querySelectorAll("output")) output.setAttribute("aria-live", "off");
    this.form.addEventListener("input", () => this.onMove());
    this.form.addEventListener("change", () => this.onCommit());
    this.form.addEventListener("submit", (event) => event.preventDefault());
    this.sim.querySelector("[data-action=reset]")?.addEventListener("click", () => this.go("", { scroll: false }));
    this.sim.querySelector("[data-action=copy-link]")?.addEventListener("click", () => this.copyLink());
  }

  detach() {
    clearTimeout(this.announceTimer);
    this.loads += 1; // drop any load still in flight
  }

  // --- URL -------------------------------------------------------------------------------

  url(state) {
    return location.pathname + serializeQuery(state, this.manifest) + location.hash;
  }

  // The theme keeps the scroll offset in history.state: pass it on, or back/forward jumps to the top.
  replaceUrl(state) {
    history.replaceState(history.state, "", this.url(state));
    this.hash = location.hash;
    relinkThisPage();
  }

  // A new history entry for `state`; the entry being left gets back the URL it was committed
  // with (replaceState may have moved it along with a dragged slider).
  pushUrl(state) {
    if (sameState(state, this.committed)) {
      this.replaceUrl(state);
      return;
    }
    this.replaceUrl(this.committed);
    history.pushState(history.state, "", this.url(state));
    this.hash = location.hash;
    this.committed = state;
    relinkThisPage();
  }

  // --- controls --------------------------------------------------------------------------

  control(key) {
    return this.form?.elements.namedItem(key) ?? null;
  }

  readControls() {
    const state = { ...this.state };
    for (const key of KEYS) {
      const el = this.control(key);
      if (!el) continue;
      const axis = this.manifest.axes[key];
      if (el.dataset?.scale === "index") state[key] = axis[Number(el.value)] ?? state[key];
      else if (typeof axis[0] === "number") state[key] = snap(axis, Number(el.value));
      else if (axis.includes(el.value)) state[key] = el.value;
    }
    return state;
  }

  writeControls(state) {
    for (const key of KEYS) {
      const el = this.control(key);
      const value = state[key];
      const text = controlText(this.manifest, key, value);
      if (el) {
        const index = this.manifest.axes[key].indexOf(value);
        el.value = el.dataset?.scale === "index" ? String(index) : String(value);
        if (el.type === "range") el.setAttribute("aria-valuetext", text);
      }
      for (const out of this.sim?.querySelectorAll(`[data-output="${key}"]`) ?? []) out.textContent = text;
    }
  }

  onMove() {
    const state = this.readControls();
    if (sameState(state, this.state)) return;
    this.show(state);
    this.replaceUrl(state);
  }

  onCommit() {
    const state = this.readControls();
    if (!sameState(state, this.state)) this.show(state);
    this.setNotes([]);
    this.pushUrl(state);
    this.announceSoon();
  }

  // A state from outside the controls: an explorable link, reset, back/forward.
  go(query, { scroll }) {
    const { state, notes } = parseQuery(query, this.manifest);
    this.setNotes(notes);
    this.pushUrl(state);
    this.show(state);
    this.announceSoon();
    if (scroll && this.sim) {
      const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
      this.sim.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
      this.sim.focus({ preventScroll: true });
    }
  }

  // Still on screen: the theme replaces the content before it announces the next page, and
  // an old page must not act on (or claim) events meanwhile.
  isShown() {
    return (this.sim ?? document.body).isConnected && location.pathname === this.pathname;
  }

  // Back/forward to another state of this page: its query changed, its hash did not. Landing
  // on the URL we already show means the theme started a navigation away from here that the
  // reader is cancelling, and the theme must see that.
  ownsPopState() {
    const shown = serializeQuery(this.committed, this.manifest);
    return this.form !== null && location.hash === this.hash && location.search !== shown;
  }

  onPopState() {
    this.hash = location.hash;
    relinkThisPage();
    const { state, notes } = parseQuery(location.search, this.manifest);
    this.setNotes(notes);
    this.committed = state;
    this.show(state);
    this.announceSoon();
  }

  onExploreClick(event, link) {
    if (!this.sim || link.pathname !== location.pathname) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // Ours alone: the theme's instant navigation would otherwise fetch the page again.
    event.preventDefault();
    event.stopPropagation();
    this.go(link.search, { scroll: true });
  }

  async copyLink() {
    const url = new URL(this.url(this.state), location.href);
    url.hash = "simulation";
    const status = this.sim.querySelector("[data-copied]");
    try {
      await navigator.clipboard.writeText(url.href);
      status.textContent = "Link copied.";
    } catch {
      // No clipboard permission: show the link so it can be copied by hand.
      status.textContent = `Copy this link: ${url.href}`;
    }
  }

  // --- showing a state -------------------------------------------------------------------

  async show(state) {
    this.state = state;
    // Also while a control moves: its output and aria-valuetext follow it.
    this.writeControls(state);
    const load = ++this.loads;
    this.sim?.setAttribute("aria-busy", "true");
    let data;
    try {
      data = await loadState(this.manifest, state);
    } catch (error) {
      if (load === this.loads) this.showError(error);
      return;
    }
    if (load !== this.loads) return; // a newer state was asked for meanwhile
    try {
      this.render(data, state);
    } catch (error) {
      this.showError(error);
      return;
    }
    prefetch(this.manifest, state);
  }

  render(data, state) {
    const values = readoutsFor(data, state);
    renderReadouts(document.body, values);
    const chartsDone = updateCharts((chart) => rowsFor(chart, data, state));
    this.values = values;
    this.rendered = state;
    if (this.sim) {
      // Which state the readouts show ("" = the defaults): for tests, and for anyone inspecting.
      this.sim.dataset.rendered = serializeQuery(state, this.manifest);
      this.sim.removeAttribute("aria-busy");
      const warning = this.sim.querySelector("[data-warning=memory]");
      if (warning) warning.hidden = Boolean(values.fits_in_memory);
      const row = this.sim.querySelector("[data-token-row]");
      if (row) renderTokenRow(row, state.gamma, lookup(data, "token_row", state));
      this.renderVllm(data, state);
    }
    if (this.announcePending) this.announce();
    // For `make bench` and anyone scripting the page: the readouts and the simulation's charts
    // now show `state`.
    chartsDone.then(() => document.dispatchEvent(new CustomEvent("spec:rendered", { detail: { query: this.sim?.dataset.rendered } })));
  }

  renderVllm(data, state) {
    const config = this.sim.querySelector("[data-vllm=config]");
    if (config) config.textContent = configFlag(data, state);
    const log = this.sim.querySelector("[data-vllm=log]");
    if (log) log.textContent = engineLogLine(data, state);
  }

  // The current state's data did not load (a file missing, unreadable or of another build).
  // Nothing of an earlier state may stay on screen as this one's: readouts show a dash, the
  // charts that follow the state their default picture, and the note says why. The controls
  // keep working: another state whose files load shows again.
  showError(error) {
    const reason = error instanceof DataError ? error.message : `Unexpected error: ${error.message}`;
    this.values = null;
    this.rendered = null;
    clearReadouts(document.body);
    updateCharts((chart) => {
      if (followsState(chart)) throw error;
      return null;
    });
    if (this.sim) {
      delete this.sim.dataset.rendered;
      this.sim.removeAttribute("aria-busy");
      this.sim.querySelector("[data-token-row]")?.replaceChildren();
      for (const el of this.sim.querySelectorAll("[data-vllm]")) el.textContent = "—";
      const warning = this.sim.querySelector("[data-warning=memory]");
      if (warning) warning.hidden = true;
    }
    this.setNotes([`The numbers for these settings could not be loaded: ${reason} Other settings may still work.`], {
      error: true,
    });
  }

  setNotes(notes, { error = false } = {}) {
    const region = this.sim?.querySelector("[data-notes]");
    if (!region) return;
    region.replaceChildren(
      ...notes.map((text) => {
        const p = document.createElement("p");
        p.textContent = text;
        return p;
      }),
    );
    region.classList.toggle("is-error", error);
    region.hidden = notes.length === 0;
  }

  // --- the spoken summary ----------------------------------------------------------------

  announceSoon() {
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => this.announce(), ANNOUNCE_DELAY_MS);
  }

  announce() {
    const status = this.sim?.querySelector("[data-status]");
    if (!status) return;
    if (!this.values || !sameState(this.rendered, this.state)) {
      this.announcePending = true; // said once the values for this state are on screen
      return;
    }
    this.announcePending = false;
    const v = this.values;
    const s = this.state;
    const verdict = v.speedup > 1 ? "faster than" : "slower than or equal to";
    status.textContent =
      `Speedup ${format("times", v.speedup)} at ${controlText(this.manifest, "batch", s.batch)} concurrent ` +
      `sequences, ${controlText(this.manifest, "drafter", s.drafter)}, γ ${s.gamma}, α ` +
      `${controlText(this.manifest, "alpha", s.alpha)}: speculative decoding is ${verdict} plain decoding ` +
      `(${format("tps", v.spec_tokens_per_s)} against ${format("tps", v.plain_tokens_per_s)}).`;
  }
}

// The theme makes every link absolute when a page loads, with the query the page had then (a
// hostile one too, before the page corrected it). Links to this page (the table of contents,
// "skip to content") follow the URL the page now has, so following or copying one keeps the
// reader's state. Explorable links carry a state of their own.
function relinkThisPage() {
  for (const link of document.querySelectorAll("a[href]:not(.explore)")) {
    if (link.origin === location.origin && link.pathname === location.pathname) link.search = location.search;
  }
}

// The simulation cannot run: its controls are disabled (moving them would change nothing) and
// the note says why. The build's numbers, for the starting settings, stay.
function showSetupError(sim, message) {
  const region = sim?.querySelector("[data-notes]");
  if (!region) return;
  for (const control of sim.querySelectorAll("form input, form select")) control.disabled = true;
  const p = document.createElement("p");
  p.textContent = `${message} The numbers shown are for the starting settings.`;
  region.replaceChildren(p);
  region.classList.add("is-error");
  region.hidden = false;
}

// The build writes its model version into the page (overrides/main.html); the prose, pictures
// and tables are of that build. Data of another one would contradict them: refuse it.
function versionMismatch(manifest) {
  const built = document.querySelector("[data-model-version]")?.dataset.modelVersion;
  if (!built || built === manifest.model_version) return null;
  return (
    `This page was built with model version ${built}, but the site's data is now version ` +
    `${manifest.model_version}: the site was updated after this page was loaded. Reload the page.`
  );
}

let setups = 0;

// Runs on first load and after every instant navigation.
export async function setupPage() {
  const setup = ++setups;
  page?.detach();
  page = null;
  const sim = document.querySelector(".spec-sim#simulation");
  const article = document.querySelector("article") ?? document.body;
  mountCharts(document.body);
  const needsData = sim || document.querySelector(".spec-chart[data-chart], .live[data-live], a.explore");
  if (!needsData) return;
  let manifest;
  try {
    manifest = await loadManifest();
  } catch (error) {
    if (setup === setups) showSetupError(sim, `The simulation's data could not be loaded (${error.message}).`);
    return;
  }
  if (setup !== setups) return; // the reader navigated on while the manifest loaded
  const mismatch = versionMismatch(manifest);
  if (mismatch) {
    stopCharts("the site was updated after this page was loaded; reload the page");
    showSetupError(sim, mismatch);
    return;
  }
  const current = new Page(manifest, sim);
  page = current;
  // Bubbling reaches the article before the theme's listener on <body>, so stopping it here
  // keeps instant navigation out of a same-page state change.
  article.addEventListener("click", (event) => {
    const link = event.target.closest?.("a.explore");
    if (link && page === current) current.onExploreClick(event, link);
  });
  current.start();
}

let installed = false;

export function installHistory() {
  if (installed) return;
  installed = true;
  // Returns whether the event was ours alone (see history-guard.js).
  const onPopState = () => {
    if (!page || !page.isShown()) return false; // another page: the theme navigates
    const ours = page.ownsPopState();
    page.onPopState(); // after a hash change the theme scrolls, but the state still follows the URL
    return ours;
  };
  if (window.__specPopstate) window.__specPopstate.handler = onPopState;
  else window.addEventListener("popstate", onPopState);
}
