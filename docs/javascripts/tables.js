// The data table under a chart (the screen-reader and no-JS alternative the build writes,
// generator/context.py _table_html) follows the state like the chart does. Cells are written
// as Python writes them there (str() of the value, floats at 4 significant digits), so a table
// reads the same before and after the script runs.

// Python's repr() of a non-integral float: positional from 1e-4 up to 1e16, else d.ddde±XX.
function pythonFloat(x) {
  const [mantissa, exponent] = x.toExponential().split("e");
  const e = Number(exponent);
  if (e >= -4 && e < 16) return String(x);
  return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

export function cellText(value) {
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value !== "number") return String(value);
  if (Number.isInteger(value)) return String(value);
  const rounded = Number(value.toPrecision(4));
  return Number.isInteger(rounded) ? String(rounded) : pythonFloat(rounded);
}

// The build's body of each table (the default state), for when the chart falls back to its
// default picture: picture and table then agree.
const built = new WeakMap();

function tableOf(chartElement) {
  return chartElement.closest("figure")?.querySelector("details.spec-table table") ?? null;
}

// Columns are matched by their header ("time ms" is time_ms), not by position.
export function updateTable(chartElement, rows) {
  const table = tableOf(chartElement);
  if (!table) return;
  if (!built.has(table)) built.set(table, table.tBodies[0]);
  const keys = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim().replaceAll(" ", "_"));
  if (keys.some((key) => !(key in (rows[0] ?? {})))) return; // another layout: leave the build's table
  const body = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const key of keys) {
      const td = document.createElement("td");
      td.textContent = cellText(row[key]);
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
}
