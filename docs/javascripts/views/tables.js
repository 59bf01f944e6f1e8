// The data table under a chart (the screen-reader and no-JS alternative the build writes,
// generator/chart_rows.py table_html) follows the state like the chart does. Columns and their
// formats are the chart's declaration in the manifest, so a table reads the same before and
// after the script runs.
import { format } from "../core/format.js";
import { keepCellNamesWhole, labelCells, shorten } from "./wide-tables.js";

// A cell with no value (a measurement not taken there) reads as a dash; chart_rows.py agrees.
export const NO_VALUE = "–";

export function cellText(value, fmt) {
  if (value === null || value === undefined) return NO_VALUE;
  return fmt ? format(fmt, value) : String(value);
}

// The build's body of each table (the default state), for when the chart falls back to its
// default picture: picture and table then agree.
const built = new WeakMap();

function tableOf(chartElement) {
  return chartElement.closest("figure")?.querySelector("details.spec-table table") ?? null;
}

export function updateTable(chartElement, rows, columns) {
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
    body.append(tr);
  }
  replaceBody(table, body);
}

export function restoreTable(chartElement) {
  const table = tableOf(chartElement);
  const body = table && built.get(table);
  if (body) replaceBody(table, body);
}

function replaceBody(table, body) {
  if (table.tBodies[0]) table.tBodies[0].replaceWith(body);
  else table.append(body);
  if ("cards" in table.dataset) {
    keepCellNamesWhole(table);
    labelCells(table); // shown as cards: keep the cells' headers, and the count on the button
    shorten(table);
  }
}
