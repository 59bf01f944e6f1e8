// The simulation's controls: they show the state, and moving them proposes a new one.
// `onMove(state)` while a control moves (a slider dragged), `onCommit(state)` when it settles.
import { format, fixed } from "../core/format.js";
import { availableValues, snap, stateNames } from "../core/url-state.js";

// Text beside a control; the build writes the same (simulation.html.j2, macro `shown`).
export function controlText(manifest, name, value) {
  if (name === "batch" || name === "context") return format("int", value);
  if (name === "tp") return manifest.labels?.tp?.[value] ?? String(value);
  if (name === "alpha") return fixed(value, 2);
  return manifest.labels?.[name]?.[value] ?? String(value);
}

export function mountControls(sim, manifest, { onMove, onCommit }) {
  const form = sim.querySelector("form");
  // A control is named by its field's URL key ("cost" for cost_model).
  const keys = Object.fromEntries(manifest.state.map((s) => [s.name, s.key]));
  const control = (name) => form.elements.namedItem(keys[name]);
  // An <output> is a polite live region by default: it would be read out on every step of a
  // slider, which already speaks its own aria-valuetext. The summary is said once, when the
  // controls settle. (Without the script the outputs never change.)
  for (const output of form.querySelectorAll("output")) output.setAttribute("aria-live", "off");

  function read(current) {
    const state = { ...current };
    for (const name of stateNames(manifest)) {
      const el = control(name);
      if (!el) continue;
      const axis = manifest.axes[name];
      if (el.dataset?.scale === "index") state[name] = axis[Number(el.value)] ?? state[name];
      else if (typeof axis[0] === "number") state[name] = snap(axis, Number(el.value));
      else if (axis.includes(el.value)) state[name] = el.value;
    }
    return state;
  }

  // A choice the state's configuration has no data for is shown, disabled (a drafter of another
  // family, the ideal cost model away from the default configuration).
  function offer(name, state) {
    const available = availableValues(manifest, state, name).map(String);
    const options = [...form.querySelectorAll(`select[name="${keys[name]}"] option, input[type=radio][name="${keys[name]}"]`)];
    for (const option of options) option.disabled = !available.includes(option.value);
  }

  function write(state) {
    for (const name of stateNames(manifest)) {
      const el = control(name);
      const value = state[name];
      const text = controlText(manifest, name, value);
      if (el) {
        const index = manifest.axes[name].indexOf(value);
        el.value = el.dataset?.scale === "index" ? String(index) : String(value);
        if (el.type === "range") el.setAttribute("aria-valuetext", text);
        offer(name, state);
      }
      for (const out of sim.querySelectorAll(`[data-output="${name}"]`)) out.textContent = text;
    }
    // The bar names a choice only while it differs from the starting one (the GPU and target
    // go together).
    const away = (name) => state[name] !== manifest.defaults[name];
    for (const item of sim.querySelectorAll("[data-bar-item]")) {
      const name = item.dataset.barItem;
      item.hidden = !(name === "target" ? away("target") || away("gpu") : away(name));
    }
  }

  let shown = null;
  form.addEventListener("input", () => onMove(read(shown)));
  form.addEventListener("change", () => onCommit(read(shown)));
  form.addEventListener("submit", (event) => event.preventDefault());
  return {
    show(state) {
      shown = state;
      write(state);
    },
    disable() {
      for (const el of form.querySelectorAll("input, select")) el.disabled = true;
    },
  };
}
