// Interactive charts: every <div class="spec-chart" data-chart="name" data-spec="charts/…">
// gets a Vega view in place of its static <img>; state changes swap its named datasets.
// If the bundle, the spec or its data cannot be loaded, or the state's data files, the static
// picture (the default state) stands in, with a note.
import { siteRoot } from "../core/data.js";
import { restoreTable, updateTable } from "./tables.js";

// The specs are Vega, compiled from the charts' Vega-Lite at build time with the page's theme
// (generator/vega_specs.py): the page only builds the views.

// The Vega bundle (vendor/vega-bundle.js, about 0.6 MB of script: Vega, its expression
// interpreter and vega-tooltip, no Vega-Lite: generator/svg.py) is fetched only when the first
// chart mounts, after the simulation's numbers are on screen: parsing it would otherwise hold up
// every page's first paint. A classic script: it sets window.vega.
let bundle = null;

const bundleLoaded = () => typeof window.vega?.View === "function";

function loadBundle() {
  if (bundleLoaded()) return Promise.resolve();
  if (!bundle) {
    bundle = new Promise((resolve) => {
      const script = document.createElement("script");
      script.src = new URL("vendor/vega-bundle.js", siteRoot).href;
      script.onload = () => resolve();
      script.onerror = () => {
        bundle = null; // a later page may try again
        resolve();
      };
      document.head.append(script);
    });
  }
  return bundle;
}

// Vega's log, minus one warning that is not a fault: a layer whose rows are legitimately none at
// this state (the spec's usermeta.may_be_empty, e.g. the throughput chart's measurements, taken at
// two contexts only) has no extent, and Vega warns of it on every run. Every other message reaches
// the console as Vega's own logger would write it.
const WARN = 2; // vega.Warn, Vega's default level

function chartLogger(quiet) {
  let level = WARN;
  const expected = (message) =>
    typeof message === "string" && quiet.some((field) => message.startsWith(`Infinite extent for field "${field}"`));
  const logger = {
    level(value) {
      if (value === undefined) return level;
      level = value;
      return logger;
    },
    error(...args) {
      if (level >= 1) console.error("ERROR", ...args);
      return logger;
    },
    warn(...args) {
      if (level >= WARN && !expected(args[0])) console.warn("WARN", ...args);
      return logger;
    },
    info(...args) {
      if (level >= 3) console.log("INFO", ...args);
      return logger;
    },
    debug(...args) {
      if (level >= 4) console.log("DEBUG", ...args);
      return logger;
    },
  };
  return logger;
}

// The scale whose domain a legend of only what is drawn lists (generator/charts/common.py).
const DRAWN_SCALE = "opacity";

const specs = new Map();
function loadSpec(path) {
  const url = new URL(path, siteRoot).href;
  if (!specs.has(url)) {
    const request = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`${path} could not be loaded (HTTP ${response.status})`);
      return response.json();
    });
    request.catch(() => specs.delete(url));
    specs.set(url, request);
  }
  return specs.get(url);
}

class Chart {
  constructor(el) {
    this.el = el;
    this.name = el.dataset.chart;
    this.rows = null; // the latest rows asked for, applied once the view exists
    this.view = null; // the Vega view, once made
    // The view's legend lists only what is drawn and grows with it (usermeta.relayout): laid out
    // again when its entries change, and once after its first rows (see apply).
    this.relayout = false;
    this.laidOut = false;
    this.generation = 0; // bumped to drop an embed in flight (page left, charts stopped)
    // Why the static picture is shown instead of the view, if it is: the view cannot be made
    // (failure), or the current state's rows could not be had (missing).
    this.failure = null;
    this.missing = null;
    this.host = el.querySelector(".spec-chart__view");
    if (!this.host) {
      this.host = document.createElement("div");
      this.host.className = "spec-chart__view";
      el.append(this.host);
    }
  }

  async embed() {
    const generation = ++this.generation;
    // The spec is on its way while the bundle loads.
    loadSpec(this.el.dataset.spec).catch(() => {});
    await loadBundle();
    if (generation !== this.generation) return;
    if (!bundleLoaded()) {
      this.fail("the chart library (vendor/vega-bundle.js) did not load");
      return;
    }
    try {
      const spec = structuredClone(await loadSpec(this.el.dataset.spec));
      if (generation !== this.generation) return;
      // The view's first run draws the rows of the state on screen, when they are known: not the
      // build's default rows (fetched from the spec's data URL) only to be replaced at once.
      const embedded = this.rows;
      if (embedded) withRows(spec, embedded);
      // Vega names the SVG (aria-label) after the spec's description: the static picture's alt
      // text, so the live chart is described as the picture it replaces.
      spec.description ??= this.el.querySelector("img")?.alt;
      const view = await makeView(this.host, spec);
      if (generation !== this.generation || !this.el.isConnected) {
        view.finalize();
        return;
      }
      this.view = view;
      this.relayout = spec.usermeta?.relayout === true;
      this.listenForSelect(spec.usermeta?.select);
      if (this.rows) await this.apply({ drawn: this.rows === embedded });
      this.show();
    } catch (error) {
      if (generation === this.generation) this.fail(error.message);
    }
  }

  // A chart whose spec names state fields in usermeta.select (the decision map) sets them from
  // the clicked mark's row: the page hears a "spec:select" event and opens that state.
  listenForSelect(names) {
    if (!Array.isArray(names) || names.length === 0) return;
    const view = this.view;
    view.addEventListener("click", (event, item) => {
      const row = item?.datum;
      // Only a mark that stands for its row: the 1× rule, drawn once per rung, is decoration
      // (out of the accessibility tree too), and a click on it opened the last rung's state.
      if (!row || item.mark?.marktype === "rule" || !names.every((name) => name in row)) return;
      // The tooltip describes the cell as it was before the click, and would stay over whatever
      // the page shows next (the bar, near the window's bottom) until the pointer moved.
      view.tooltip()?.(view, event, item, null);
      const values = Object.fromEntries(names.map((name) => [name, row[name]]));
      this.el.dispatchEvent(new CustomEvent("spec:select", { bubbles: true, detail: { values } }));
    });
  }

  // datasets: {name: rows}; columns: the data table's, select: the state fields a row opens
  // (manifest "charts").
  async update(datasets, columns, select) {
    this.rows = datasets;
    this.missing = null;
    updateTable(this.el, datasets.table, columns, select); // also when the view failed: the table is the text alternative
    if (this.view) {
      try {
        await this.apply();
      } catch (error) {
        this.fail(error.message);
        return;
      }
    }
    this.show();
  }

  // Shows this.rows in the view; {drawn: true}: the view was made with them, and only needs its
  // first layout.
  async apply({ drawn: made = false } = {}) {
    const view = this.view;
    const drawn = () => (this.relayout ? String(view.scale(DRAWN_SCALE)?.domain()) : "");
    const before = made ? "" : drawn();
    if (!made) {
      for (const [name, rows] of Object.entries(this.rows)) view.data(name, rows);
      await view.runAsync();
    }
    // A legend listing only what is drawn (generator/charts/common.py, DRAWN_VALUES) learns its
    // entries in the pulse that lays the chart out, too late for its size: when they change, lay
    // the chart out again.
    if (this.relayout && (!this.laidOut || drawn() !== before)) await view.resize().runAsync();
    this.laidOut = true;
  }

  // The view cannot be made or run: the static picture stays, for good.
  fail(reason) {
    this.finalizeView();
    this.host.replaceChildren(); // a stale view beside the picture would contradict it
    this.failure = reason;
    this.show();
  }

  // The current state's rows cannot be had (its data file is missing or unreadable): the
  // default picture and table, said to be so, until a state whose rows load. The view stays.
  unavailable(reason) {
    this.rows = null;
    this.missing = reason;
    restoreTable(this.el);
    this.show();
  }

  // The live view when there is one holding the current rows, else the picture and why.
  show() {
    const live = this.view !== null && this.failure === null && this.missing === null;
    this.el.classList.toggle("is-live", live);
    this.el.classList.toggle("is-failed", this.failure !== null || this.missing !== null);
    this.el.classList.toggle("is-stale", this.view !== null && !live); // a view of another state
    let message = this.el.querySelector(".spec-chart__error");
    if (live) {
      message?.remove();
      return;
    }
    if (this.failure === null && this.missing === null) return; // still loading: the picture
    if (!message) {
      message = document.createElement("p");
      message.className = "spec-chart__error";
      this.el.append(message);
    }
    const why = (reason) => reason.replace(/\.$/, ""); // a sentence's full stop, inside brackets
    message.textContent =
      this.failure !== null
        ? `The interactive chart could not be shown (${why(this.failure)}). The picture is for the starting settings.`
        : `This chart could not be drawn for these settings (${why(this.missing)}). The picture and its ` +
          "data table are for the starting settings.";
  }

  finalizeView() {
    if (this.view) {
      this.view.finalize();
      this.view = null;
    }
  }
}

// vega-tooltip fixes its theme (a class on the box) when its handler is made, light by default;
// the reader can switch the page's palette at any time. Each tooltip takes the palette it is
// shown in, and spec.css colours the box from the palette's own variables.
function paletteTooltip(vega) {
  const handler = new vega.TooltipHandler();
  return (view, event, item, value) => {
    const theme = document.body.dataset.mdColorScheme === "slate" ? "dark" : "light";
    if (handler.options.theme !== theme) {
      document.getElementById(handler.options.id)?.classList.remove(`${handler.options.theme}-theme`);
      handler.options.theme = theme;
    }
    handler.call(view, event, item, value);
    keepOnScreen(document.getElementById(handler.options.id), event, handler.options.offsetY);
  };
}

// vega-tooltip tries the four corners around the pointer and, where none fits (a phone's window
// is hardly wider than the box), puts the box above and left of it: off the left edge ("oncurrent
// sequences"), and off the top or under the theme's header, hiding the lines that say which cell
// it is about. The box is kept inside the window, below the header; below the pointer where
// there is no room above it.
const TOOLTIP_MARGIN_PX = 4;

function keepOnScreen(box, event, offsetY = 10) {
  if (!box || !box.classList.contains("visible")) return;
  const { left, right, top, height } = box.getBoundingClientRect();
  const room = document.documentElement.clientWidth - TOOLTIP_MARGIN_PX;
  const shift = left < TOOLTIP_MARGIN_PX ? TOOLTIP_MARGIN_PX - left : right > room ? room - right : 0;
  if (shift) box.style.left = `${parseFloat(box.style.left || "0") + shift}px`;
  const header = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0;
  const highest = Math.max(header, 0) + TOOLTIP_MARGIN_PX;
  if (top >= highest) return;
  const below = (event?.clientY ?? top) + offsetY;
  const lowest = innerHeight - TOOLTIP_MARGIN_PX - height;
  const y = below <= lowest ? below : Math.max(highest, Math.min(lowest, highest));
  box.style.top = `${parseFloat(box.style.top || "0") + (y - top)}px`;
}

// A running Vega view of `spec` (a Vega spec) in `host`, drawn once: SVG, with hover and HTML
// tooltips, as vega-embed would make it (the page has no use for the rest of vega-embed).
async function makeView(host, spec) {
  const { vega } = window;
  // The page's CSP has no 'unsafe-eval': expressions are parsed to an AST and interpreted.
  const runtime = vega.parse(spec, undefined, { ast: true });
  // A chart that may draw an empty layer (usermeta.may_be_empty) has a logger that drops that
  // warning; every chart logs as Vega would otherwise.
  const view = new vega.View(runtime, {
    renderer: "svg",
    expr: vega.expressionInterpreter,
    // Data URLs in the specs are relative to the site root, wherever this page is.
    loader: vega.loader({ baseURL: siteRoot.href }),
    logger: chartLogger(spec.usermeta?.may_be_empty ?? []),
    logLevel: WARN,
  });
  view.tooltip(paletteTooltip(vega));
  view.hover();
  await view.initialize(host).runAsync();
  return view;
}

// `spec`'s named datasets given `datasets` ({name: rows}) as inline values in place of their URL
// (a dataset's format and transforms stay: they apply to inline values alike).
function withRows(spec, datasets) {
  for (const data of spec.data ?? []) {
    if (!(data.name in datasets)) continue;
    delete data.url;
    data.values = datasets[data.name];
  }
}

const charts = new Map(); // element → Chart

// Which charts are on (or near) the screen: they follow a state on the next frame; the others
// once the state has rested, one at a time, so a dragged slider only redraws what the reader sees.
const NEAR_SCREEN = "50% 0px";
const SETTLE_MS = 250;
const onScreen = new Set(); // chart elements
let observer = null;

function watch(el) {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) onScreen.add(entry.target);
        else onScreen.delete(entry.target);
      }
      // A chart scrolled into view that still shows an older state catches up now.
      if ([...pending].some((chart) => onScreen.has(chart.el))) scheduleFrame();
    },
    { rootMargin: NEAR_SCREEN },
  );
  observer.observe(el);
}

// Views whose element left the page (instant navigation replaced it) hold listeners and timers.
function finalizeDetached() {
  for (const [el, chart] of charts) {
    if (!el.isConnected) {
      chart.generation += 1;
      chart.finalizeView();
      charts.delete(el);
      pending.delete(chart);
      onScreen.delete(el);
      observer?.unobserve(el);
    }
  }
  noteSettled();
}

// The page's data belongs to another build than the page (page.js): no chart may show it, and
// the specs' data URLs would load it. Every chart keeps its picture, with why.
export function stopCharts(reason) {
  pending.clear();
  noteSettled();
  for (const chart of charts.values()) {
    chart.generation += 1; // an embed in flight must not bring the view back
    chart.fail(reason);
  }
}

// The simulation's charts are made first; then the essay's, one at a time (those on screen
// first), so they do not hold up the ladder or each other. beforeTheRest(), if given, runs
// between the two, once the simulation's are on screen (the essay's charts measure their width
// on the page as it is laid out then). Resolves then: the simulation's charts drawn (or failed).
export function mountCharts(root, { beforeTheRest } = {}) {
  finalizeDetached();
  const first = [];
  const later = [];
  for (const el of root.querySelectorAll(".spec-chart[data-chart][data-spec]")) {
    if (charts.has(el)) continue;
    const chart = new Chart(el);
    charts.set(el, chart);
    watch(el);
    (isImmediate(chart) ? first : later).push(chart);
  }
  return Promise.all(first.map((chart) => chart.embed()))
    .then(afterNextPaint)
    .then(() => {
      beforeTheRest?.();
      embedInTurn(later);
    });
}

// After the frame that shows what the page has drawn (a task queued by a frame's callback runs
// once the frame is done).
const afterNextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function embedInTurn(queue) {
  while (queue.length > 0) {
    const next = queue.findIndex((chart) => onScreen.has(chart.el));
    const [chart] = queue.splice(Math.max(next, 0), 1);
    if (chart.el.isConnected) await chart.embed();
  }
}

let latestRows = null; // rowsFor of the state on screen
const pending = new Set(); // charts (and their tables) still showing an earlier state
let frame = 0;
let settleTimer = 0;
let updating = 0; // charts being given their rows
let settled = []; // chartsSettled's waiters

// Resolves once every chart shows the rows last given to updateCharts, the essay's too: the page
// has stopped changing for that state.
export function chartsSettled() {
  return new Promise((resolve) => {
    settled.push(resolve);
    noteSettled();
  });
}

function noteSettled() {
  if (pending.size > 0 || updating > 0) return;
  const waiting = settled;
  settled = [];
  for (const resolve of waiting) resolve();
}

// rowsFor(chartName) → {datasets, columns}, or null for a chart whose data never change.
// Charts in view in the simulation (the ladder) follow at once, so the reader sees them move
// with the readouts; other charts on screen on the next frame (a dragged slider fires many
// input events per frame: only the last state of each frame reaches them); the rest once the
// state has rested for SETTLE_MS. The promise settles when the simulation's charts show the rows.
export function updateCharts(rowsFor) {
  latestRows = rowsFor;
  const immediate = [];
  for (const chart of charts.values()) {
    if (isImmediate(chart)) {
      pending.delete(chart);
      immediate.push(applyRows(chart, rowsFor));
    } else {
      pending.add(chart);
      chart.el.dataset.pending = "";
    }
  }
  scheduleFrame();
  clearTimeout(settleTimer);
  settleTimer = setTimeout(drainPending, SETTLE_MS);
  return Promise.all(immediate);
}

// Charts in view in the simulation follow a moved control at once; the rest (the essay's, and
// the simulation's folded away in a closed disclosure) later.
function isImmediate(chart) {
  return chart.el.isConnected && chart.el.closest("#simulation") !== null && chart.el.closest("details:not([open])") === null;
}

function applyRows(chart, rowsFor) {
  delete chart.el.dataset.pending;
  let found;
  try {
    found = rowsFor(chart.name);
  } catch (error) {
    chart.unavailable(error.message);
    noteSettled();
    return Promise.resolve();
  }
  if (!found) {
    noteSettled();
    return Promise.resolve();
  }
  updating += 1;
  return chart.update(found.datasets, found.columns, found.select).finally(() => {
    updating -= 1;
    noteSettled();
  });
}

function scheduleFrame() {
  if (frame === 0) frame = requestAnimationFrame(flushOnScreen);
}

function flushOnScreen() {
  frame = 0;
  for (const chart of pending) {
    if (!chart.el.isConnected) pending.delete(chart);
    else if (onScreen.has(chart.el) || isImmediate(chart)) {
      pending.delete(chart);
      applyRows(chart, latestRows);
    }
  }
  noteSettled();
}

// The state has rested: the charts off screen catch up, one per task, so an input arriving
// meanwhile is not kept waiting (it restarts the wait).
function drainPending() {
  const [chart] = pending;
  if (!chart) {
    noteSettled();
    return;
  }
  pending.delete(chart);
  if (chart.el.isConnected) applyRows(chart, latestRows);
  settleTimer = setTimeout(drainPending, 0);
}
