// A table wider than its column becomes cards (spec.css): one block per row, each cell under its
// column's header, so no column sits behind a sideways scroll, on a phone or a laptop. A wrapper
// that still overflows (a table without a header row) gets a tab stop and a name (the table's
// caption, else its summary or heading), so a keyboard reader can scroll it; the others stay out
// of the tab order.
import { keepNamesWhole } from "./names.js";

const WRAPPERS = ".md-typeset__scrollwrap";

function name(wrapper) {
  const table = wrapper.querySelector("table");
  const caption = table?.caption?.textContent.trim();
  const summary = wrapper.closest("details")?.querySelector("summary")?.textContent.trim();
  const headers = [...(table?.tHead?.rows[0]?.cells ?? [])].map((c) => c.textContent.trim()).slice(0, 3);
  return caption || summary || (headers.length ? `Table: ${headers.join(", ")}…` : "Table");
}

const LONG_CELL_CHARS = 60;
const LONG_WORD_CHARS = 16;

// Each body cell carries its column's header (a card shows it beside the value). Tables whose
// body is rebuilt (a chart's data table, the paste box's) are labelled again after each build.
export function labelCells(table) {
  const headers = [...(table.tHead?.rows[0]?.cells ?? [])].map((c) => c.textContent.trim());
  if (headers.length === 0) return;
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      [...row.cells].forEach((cell, i) => {
        if (i < headers.length) cell.dataset.label = headers[i];
      });
    }
  }
}

// A model's or a version's name ("Qwen3-30B-A3B") stays on one line in a table's short cells
// (views/names.js); a cell holding a sentence (a source) keeps its usual breaks, or the model
// page's tables would be too wide to be tables on a laptop.
export function keepCellNamesWhole(table) {
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      for (const cell of row.cells) {
        if (cell.textContent.trim().length <= LONG_CELL_CHARS) keepNamesWhole(cell, { versioned: true });
      }
    }
  }
}

// A number, a yes or a short name: on a phone, such cells sit side by side in a card (spec.css),
// where each other cell takes a line; a row of six numbers is then two lines, not six.
const SHORT_CELL_CHARS = 12;

// A cell holding a sentence (a description, a source) or a long identifier takes a card's whole
// width (spec.css), rather than wrap a word a line or break the identifier mid-word. Short and
// long are a column's, not a cell's: every card of a table then has one layout (found by a cold
// read: the model page's GPU cards put "dense bf16" on the first line for 989 TFLOP/s and on a
// line of its own for 2,250 TFLOP/s).
export function markLongCells(table) {
  const rows = [...table.tBodies].flatMap((body) => [...body.rows]);
  const texts = rows.map((row) => [...row.cells].map((cell) => cell.textContent.trim()));
  const columns = Math.max(0, ...texts.map((cells) => cells.length));
  const isLong = (text) => text.length > LONG_CELL_CHARS || (!/\s/.test(text) && text.length > LONG_WORD_CHARS);
  const column = (i, test, every) => texts.filter((cells) => i < cells.length)[every ? "every" : "some"]((cells) => test(cells[i]));
  const long = Array.from({ length: columns }, (_, i) => column(i, isLong, false));
  const short = Array.from({ length: columns }, (_, i) => column(i, (text) => text.length <= SHORT_CELL_CHARS, true));
  rows.forEach((row) => {
    [...row.cells].forEach((cell, i) => {
      cell.toggleAttribute("data-long", long[i]);
      cell.toggleAttribute("data-short", short[i] && !long[i]);
    });
  });
}

// Shown: not inside a closed disclosure (which has no layout to measure, and costs nothing to
// skip), and laid out.
function shown(el) {
  return el.closest("details:not([open])") === null && el.offsetWidth > 0;
}

function setRegion(wrapper, overflows) {
  if (overflows && !wrapper.hasAttribute("tabindex")) {
    wrapper.tabIndex = 0;
    wrapper.setAttribute("role", "region");
    wrapper.setAttribute("aria-label", name(wrapper));
  } else if (!overflows && wrapper.getAttribute("tabindex") === "0") {
    wrapper.removeAttribute("tabindex");
    wrapper.removeAttribute("role");
    wrapper.removeAttribute("aria-label");
  }
}

// Every shown table and wrapper measured in one layout, then changed: a table with a header row
// that overflows becomes cards (which fit); a wrapper that still overflows gets its tab stop.
// Cards set earlier are removed first, so a table is measured at its own width (a resize).
function fit(root) {
  const wrappers = [...root.querySelectorAll(WRAPPERS)];
  const tables = [...root.querySelectorAll(".md-typeset table")].filter((t) => t.tHead && !t.closest("details:not([open])"));
  for (const table of tables) {
    if ("cards" in table.dataset) delete table.dataset.cards;
    keepCellNamesWhole(table);
    markLongCells(table);
  }
  const wide = tables.filter((table) => {
    if (!shown(table)) return false;
    // The table scrolls inside itself (the theme caps it at its box's width), or it pushes its
    // wrapper into a sideways scroll: the theme pads the table's box inside the wrapper, so a
    // table a little narrower than the wrapper can still overflow it.
    const wrapper = table.closest(WRAPPERS);
    const box = wrapper ?? table.parentElement;
    return table.scrollWidth > box.clientWidth + 1 || (wrapper !== null && wrapper.scrollWidth > wrapper.clientWidth + 1);
  });
  const carded = new Set(wide.map((table) => table.closest(WRAPPERS)));
  const overflowing = wrappers.map((w) => !carded.has(w) && shown(w) && w.scrollWidth > w.clientWidth + 1);
  for (const table of wide) {
    labelCells(table);
    table.dataset.cards = "";
  }
  for (const table of tables) shorten(table);
  wrappers.forEach((wrapper, i) => setRegion(wrapper, overflowing[i]));
}

// A long table as cards is many screens on a phone (48 measurements, some 22,000 px): its first
// cards, and a button for the rest (spec.css hides them). As a table it is shown whole, and so is
// a stack of a dozen cards or fewer (the essay's decision rule, a model's constants), and a stack
// of any length where the cards' cells sit side by side (wider than a phone, spec.css).
const FIRST_CARDS = 5;
const LONG_CARDS = 12;
const PHONE = matchMedia("(max-width: 30em)");
const moreButtons = new WeakMap();

function rowCount(table) {
  return [...table.tBodies].reduce((n, body) => n + body.rows.length, 0);
}

export function shorten(table) {
  const long = "cards" in table.dataset && rowCount(table) > LONG_CARDS && PHONE.matches;
  let button = moreButtons.get(table);
  if (!long) {
    delete table.dataset.cardsLong;
    if (button) button.hidden = true;
    return;
  }
  table.dataset.cardsLong = "";
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.className = "md-button spec-cards-more";
    button.addEventListener("click", () => {
      const all = "cardsAll" in table.dataset;
      if (all) delete table.dataset.cardsAll;
      else table.dataset.cardsAll = "";
      label(table, button);
      // Folded from the end of the stack, the button would land a dozen screens up, out of sight.
      if (all) button.scrollIntoView({ block: "center", behavior: "instant" });
    });
    (table.closest(WRAPPERS) ?? table).after(button);
    moreButtons.set(table, button);
  }
  button.hidden = false;
  label(table, button);
}

function label(table, button) {
  const all = "cardsAll" in table.dataset;
  button.textContent = all ? `Show the first ${FIRST_CARDS} rows only` : `Show all ${rowCount(table)} rows`;
  button.setAttribute("aria-expanded", String(all));
}

let installed = false;

export function fitWideTables(root) {
  fit(root);
  if (installed) return;
  installed = true;
  // Overflow changes with the window's width, and a table inside a closed disclosure has none.
  let pending = false;
  const later = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fit(document);
    });
  };
  addEventListener("resize", later);
  document.addEventListener("toggle", later, true);
}
