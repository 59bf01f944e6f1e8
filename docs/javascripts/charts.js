// Interactive charts: every <div class="spec-chart" data-chart="name" data-spec="charts/…">
// gets a Vega view in place of its static <img>; state changes swap the `table` dataset.
// If the bundle, the spec or its data cannot be loaded, the static picture stays, with a note.
import { siteRoot } from "./data.js";
import { updateTable } from "./tables.js";

// Axis, legend and title colours only: mark colours are the spec's own, chosen to read on both.
const THEMES = {
  light: { text: "#1f2329", label: "#4b515b", line: "#8b919b", grid: "#e4e6ea" },
  dark: { text: "#e8eaef", label: "#c9cdd6", line: "#8b919b", grid: "#3a3f4c" },
};

function vegaConfig(name) {
  const t = THEMES[name];
  const axis = { labelColor: t.label, titleColor: t.text, domainColor: t.line, tickColor: t.line, gridColor: t.grid };
  return {
    background: "transparent",
    axis,
    legend: { labelColor: t.label, titleColor: t.text },
    title: { color: t.text, subtitleColor: t.label },
    header: { labelColor: t.label, titleColor: t.text },
    view: { stroke: t.grid },
    // Reference lines (1×, the roof, the ceiling) are decorative: their meaning is in the
    // axis and the description, and an unlabelled graphic role fails screen readers.
    rule: { aria: false },
  };
}

// MkDocs Material writes the palette to <body data-md-color-scheme>; "slate" is its dark one.
export function colorScheme() {
  return document.body.getAttribute("data-md-color-scheme") === "slate" ? "dark" : "light";
}

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
    this.result = null; // vegaEmbed's {view, finalize}
    this.generation = 0; // newer embeds win over slower, older ones
    this.host = el.querySelector(".spec-chart__view");
    if (!this.host) {
      this.host = document.createElement("div");
      this.host.className = "spec-chart__view";
      el.append(this.host);
    }
  }

  async embed() {
    const generation = ++this.generation;
    if (typeof window.vegaEmbed !== "function") {
      this.fail("the chart library (vendor/vega-bundle.js) did not load");
      return;
    }
    // Keep the height while the view is rebuilt (theme change), so the page does not jump.
    this.host.style.minHeight = this.result ? `${this.host.offsetHeight}px` : "";
    try {
      const spec = structuredClone(await loadSpec(this.el.dataset.spec));
      if (generation !== this.generation) return;
      const options = {
        actions: false,
        renderer: "svg",
        // The page's CSP has no 'unsafe-eval': parse expressions to an AST and interpret them.
        // (vega-embed then uses its own interpreter; vl-convert's bundle leaves window.vega null.)
        ast: true,
        ...(window.vega?.expressionInterpreter ? { expr: window.vega.expressionInterpreter } : {}),
        // Loader options rather than vega.loader(): vega-embed builds the loader from them.
        // Data URLs in the specs are relative to the site root, wherever this page is.
        loader: { baseURL: siteRoot.href },
        config: vegaConfig(colorScheme()),
      };
      this.finalizeView();
      const result = await window.vegaEmbed(this.host, spec, options);
      if (generation !== this.generation || !this.el.isConnected) {
        result.finalize();
        return;
      }
      this.result = result;
      if (this.rows) await this.apply();
      this.el.classList.add("is-live");
      this.clearMessage();
    } catch (error) {
      if (generation === this.generation) this.fail(error.message);
    } finally {
      this.host.style.minHeight = "";
    }
  }

  async update(rows) {
    this.rows = rows;
    updateTable(this.el, rows); // also when the view failed: the table is the text alternative
    if (this.result) {
      try {
        await this.apply();
      } catch (error) {
        this.fail(error.message);
      }
    }
  }

  apply() {
    return this.result.view.data("table", this.rows).runAsync();
  }

  // The static picture shows the default settings; say so, and why the live chart is missing.
  fail(reason) {
    this.finalizeView();
    this.host.replaceChildren(); // a stale view beside the picture would contradict it
    this.el.classList.remove("is-live");
    let message = this.el.querySelector(".spec-chart__error");
    if (!message) {
      message = document.createElement("p");
      message.className = "spec-chart__error";
      this.el.append(message);
    }
    message.textContent = `The interactive chart could not be shown (${reason}). The picture is for the starting settings.`;
  }

  clearMessage() {
    this.el.querySelector(".spec-chart__error")?.remove();
  }

  finalizeView() {
    if (this.result) {
      this.result.finalize();
      this.result = null;
    }
  }
}

const charts = new Map(); // element → Chart

// Views whose element left the page (instant navigation replaced it) hold listeners and timers.
function finalizeDetached() {
  for (const [el, chart] of charts) {
    if (!el.isConnected) {
      chart.generation += 1;
      chart.finalizeView();
      charts.delete(el);
    }
  }
}

export function mountCharts(root) {
  finalizeDetached();
  for (const el of root.querySelectorAll(".spec-chart[data-chart][data-spec]")) {
    if (charts.has(el)) continue;
    const chart = new Chart(el);
    charts.set(el, chart);
    chart.embed();
  }
}

let pendingRows = null;

// rowsFor(chartName) → rows, or null for a chart whose data never change. A dragged slider
// fires many input events per frame: only the last state of each frame reaches the views.
// Charts inside the simulation (the ladder) update at once, so the reader sees them move with
// the readouts; the essay's charts further down are batched to the next frame. The promise
// settles when the simulation's charts show the new rows.
export function updateCharts(rowsFor) {
  const immediate = [];
  for (const chart of charts.values()) {
    if (chart.el.isConnected && chart.el.closest("#simulation")) immediate.push(applyRows(chart, rowsFor));
  }
  const scheduled = pendingRows !== null;
  pendingRows = rowsFor;
  if (!scheduled) requestAnimationFrame(flushRows);
  return Promise.all(immediate);
}

function applyRows(chart, rowsFor) {
  let rows;
  try {
    rows = rowsFor(chart.name);
  } catch (error) {
    chart.fail(error.message);
    return Promise.resolve();
  }
  return rows ? chart.update(rows) : Promise.resolve();
}

function flushRows() {
  const rowsFor = pendingRows;
  pendingRows = null;
  for (const chart of charts.values()) {
    if (chart.el.isConnected && !chart.el.closest("#simulation")) applyRows(chart, rowsFor);
  }
}

let observer = null;

// Re-embed with the other Vega config when the reader flips the palette.
export function followColorScheme() {
  if (observer) return;
  let current = colorScheme();
  observer = new MutationObserver(() => {
    if (colorScheme() === current) return;
    current = colorScheme();
    finalizeDetached();
    for (const chart of charts.values()) chart.embed();
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
}
