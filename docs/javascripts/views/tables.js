// The data table under a chart (the screen-reader and no-JS alternative the build writes,
// generator/chart_rows.py table_html) follows the state like the chart does. Columns and their
// formats are the chart's declaration in the manifest, so a table reads the same before and
// after the script runs.
import { formatCell } from "../core/format.js";
import { keepCellNamesWhole, labelCells, markLongCells, shorten } from "./wide-tables.js";

// A cell with no value (a measurement not taken there) reads as a dash; chart_rows.py agrees.
export const NO_VALUE = "–";

// A cell is in its column's unit (formatCell): never "1.07 µs" under "10.12 ms".
export function cellText(value, fmt) {
  if (value === null || value === undefined) return NO_VALUE;
  return fmt ? formatCell(fmt, value) : String(value);
}

// The build's body of each table (the default state), for when the chart falls back to its
// default picture: picture and table then agree.
const built = new WeakMap();

function tableOf(chartElement) {
  return chartElement.closest("figure")?.querySelector("details.spec-table table") ?? null;
}

// `select`: the state fields a click on the chart's marks sets (a ladder rung, a decision-map
// cell). Each row's first cell is then a button that opens its state as that click would: the
// keyboard's way to what the pointer does on the chart.
export function updateTable(chartElement, rows, columns, select = null) {
  const table = tableOf(chartElement);
  if (!table || !columns) return;
  if (!built.has(table)) built.set(table, table.tBodies[0]);
  const body = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const column of columns) {
      const td = document.createElement("td");
      td.textContent = cellText(row[column.key], column.format);
      tr.append(td);
    }
    if (select?.length && select.every((name) => name in row)) {
      openButton(chartElement, tr, Object.fromEntries(select.map((name) => [name, row[name]])), columns);
    }
    body.append(tr);
  }
  replaceBody(table, body);
}

function openButton(chartElement, tr, values, columns) {
  const first = tr.cells[0];
  const button = document.createElement("button");
  button.type = "button";
  button.className = "spec-table__open";
  button.textContent = first.textContent;
  const said = [...tr.cells].map((cell, i) => `${columns[i].header} ${cell.textContent}`).join(", ");
  button.setAttribute("aria-label", `Open in the simulation: ${said}`);
  button.addEventListener("click", () => {
    chartElement.dispatchEvent(new CustomEvent("spec:select", { bubbles: true, detail: { values } }));
  });
  first.replaceChildren(button);
}

export function restoreTable(chartElement) {
  const table = tableOf(chartElement);
  const body = table && built.get(table);
  if (body) replaceBody(table, body);
}

function replaceBody(table, body) {
  // A row's button opened a state, which rebuilds the body: the keyboard stays on that row.
  const old = table.tBodies[0];
  const focusedRow = old?.contains(document.activeElement) ? [...old.rows].indexOf(document.activeElement.closest("tr")) : -1;
  if (old) old.replaceWith(body);
  else table.append(body);
  // The new rows as wide-tables.js made the old ones (names kept whole, short and long cells
  // marked) before anything lays them out: a row laid out otherwise has another height.
  keepCellNamesWhole(table);
  markLongCells(table);
  if ("cards" in table.dataset) {
    labelCells(table); // shown as cards: keep the cells' headers, and the count on the button
    shorten(table);
  }
  if (focusedRow >= 0) body.rows[focusedRow]?.querySelector("button")?.focus({ preventScroll: true });
}
