// A table wider than its column becomes cards (spec.css): one block per row, each cell under its
// column's header, so no column sits behind a sideways scroll, on a phone or a laptop. A wrapper
// that still overflows (a table without a header row) gets a tab stop and a name (the table's
// caption, else its summary or heading), so a keyboard reader can scroll it; the others stay out
// of the tab order.
const WRAPPERS = ".md-typeset__scrollwrap";

function name(wrapper) {
  const table = wrapper.querySelector("table");
  const caption = table?.caption?.textContent.trim();
  const summary = wrapper.closest("details")?.querySelector("summary")?.textContent.trim();
  const headers = [...(table?.tHead?.rows[0]?.cells ?? [])].map((c) => c.textContent.trim()).slice(0, 3);
  return caption || summary || (headers.length ? `Table: ${headers.join(", ")}…` : "Table");
}

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
  for (const table of tables) if ("cards" in table.dataset) delete table.dataset.cards;
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
  wrappers.forEach((wrapper, i) => setRegion(wrapper, overflowing[i]));
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
