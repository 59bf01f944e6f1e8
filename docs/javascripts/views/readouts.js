// The readouts and the prose's live numbers: every [data-readout] and .live[data-live] shows its
// field at the current state, in its format (data-fmt, or the readout's default).
import { lookup } from "../core/data.js";
import { format } from "../core/format.js";
import { setData, setText } from "./dom.js";

// data-value carries the stored number (a list as JSON), for tests and for anyone who wants more
// digits than the text shows.
export function rawValue(value) {
  if (typeof value === "boolean") return value ? "1" : "0";
  return Array.isArray(value) ? JSON.stringify(value) : String(value);
}

function elements(root) {
  return [
    ...[...root.querySelectorAll("[data-readout]")].map((el) => [el, el.dataset.readout, true]),
    ...[...root.querySelectorAll(".live[data-live]")].map((el) => [el, el.dataset.live, false]),
  ];
}

// Writes the readouts of `root` for `state` from `data`; an element whose field or format is
// unknown keeps the build's text (an authoring slip, said once on the console).
export function renderReadouts(root, data, state) {
  const readouts = data.manifest.contract.readouts;
  for (const [el, field, withValue] of elements(root)) {
    let value;
    try {
      value = lookup(data, field, state);
      setText(el, format(el.dataset.fmt || readouts[field], value));
    } catch (error) {
      console.warn(`readout ${field}: ${error.message}`);
      continue;
    }
    if (withValue) setData(el, "value", rawValue(value));
  }
}

// No values for the current state (its data did not load): a dash in every readout and live
// number, so no number of another state stands on screen as if it were this one's.
export function clearReadouts(root) {
  for (const [el] of elements(root)) {
    el.textContent = "—";
    delete el.dataset.value;
  }
}
