// Readout values for a state (looked up, never recomputed) and how each one is written.
import { lookup } from "./data.js";
import { format } from "./format.js";

// Readout key (ARCHITECTURE.md, "Readout keys") → format name (format.js FORMATS), for elements
// that do not name one in data-fmt.
export const READOUT_FORMATS = {
  speedup: "times",
  spec_tokens_per_s: "tps",
  plain_tokens_per_s: "tps",
  mean_acceptance_length: "num",
  per_position_acceptance: "positions",
  draft_time_share: "pct",
  arithmetic_ratio: "times",
  verify_bytes: "gib",
  verify_flops: "tflop",
  verify_memory_time_s: "ms",
  verify_compute_time_s: "ms",
  tensor_core_idle_fraction: "pct",
  target_weight_bytes: "gib",
  draft_weight_bytes: "gib",
  target_kv_bytes_per_token: "kib",
  draft_kv_bytes_per_token: "kib",
  memory_required_bytes: "gb",
  fits_in_memory: "fits",
};

export function readoutsFor(data, state) {
  const values = {};
  for (const key of Object.keys(READOUT_FORMATS)) values[key] = lookup(data, key, state);
  return values;
}

export function formatReadout(key, value, kind = READOUT_FORMATS[key]) {
  return format(kind, value);
}

// data-value carries the stored number unrounded (a list as JSON), for tests and for anyone
// who wants more digits than the text shows.
export function rawValue(value) {
  return Array.isArray(value) ? JSON.stringify(value) : String(value);
}

function write(el, key, values, withValue) {
  if (!(key in values)) return; // not a readout: leave what the build wrote
  try {
    el.textContent = formatReadout(key, values[key], el.dataset.fmt || undefined);
  } catch (error) {
    // An unknown data-fmt is an authoring slip; the build-time text is still right for the default.
    console.warn(`readout ${key}: ${error.message}`);
    return;
  }
  if (withValue) el.dataset.value = rawValue(values[key]);
}

// Write every [data-readout] and .live[data-live] under `root`.
export function renderReadouts(root, values) {
  for (const el of root.querySelectorAll("[data-readout]")) write(el, el.dataset.readout, values, true);
  for (const el of root.querySelectorAll(".live[data-live]")) write(el, el.dataset.live, values, false);
}

// No values for the current state (its data did not load): a dash in every readout and live
// number, so no number of another state stands on screen as if it were this one's.
export function clearReadouts(root) {
  for (const el of root.querySelectorAll("[data-readout], .live[data-live]")) {
    if (!Object.hasOwn(READOUT_FORMATS, el.dataset.readout ?? el.dataset.live)) continue; // build text
    el.textContent = "—";
    delete el.dataset.value;
  }
}
