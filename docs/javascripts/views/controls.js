// The simulation's controls: they show the state, and moving them proposes a new one.
// `onMove(state)` while a control moves (a slider dragged), `onCommit(state)` when it settles.
import { format, fixed } from "../core/format.js";
import { availableValues, snap, stateNames } from "../core/url-state.js";
import { setAttr, setText } from "./dom.js";

// Text beside a control; the build writes the same (simulation.html.j2, macro `shown`).
export function controlText(manifest, name, value) {
  if (name === "batch" || name === "context") return format("int", value);
  if (name === "tp") return manifest.labels?.tp?.[value] ?? String(value);
  if (name === "alpha") return fixed(value, 2);
  return manifest.labels?.[name]?.[value] ?? String(value);
}

// The GPUs a state runs on as the command line names them ("2 × H200 SXM"; the manifest's
// configurations carry it): a cold read found "H200 SXM ×2" here against "2 × H200 SXM" there.
export function gpusText(manifest, state) {
  const config = manifest.configurations.find((c) => c.gpu === state.gpu && c.target === state.target && c.tp === state.tp);
  return config?.gpus ?? manifest.labels.gpu[state.gpu];
}

const form = (sim) => sim.querySelector("form");

// A control is named by its field's URL key ("cost" for cost_model).
function control(sim, manifest, name) {
  const key = manifest.state.find((s) => s.name === name)?.key;
  return key === undefined ? null : form(sim)?.elements.namedItem(key) ?? null;
}

// A choice the state's configuration has no data for is shown, disabled (a drafter of another
// family, the ideal cost model away from the default configuration). A menu's option says why in
// its own text (a disabled option shows no title on a touch screen); the radio buttons' reason is
// in the configuration's note (greyedChoices).
function offer(sim, manifest, name, state) {
  const key = manifest.state.find((s) => s.name === name).key;
  const available = availableValues(manifest, state, name).map(String);
  const options = [...form(sim).querySelectorAll(`select[name="${key}"] option, input[type=radio][name="${key}"]`)];
  for (const option of options) {
    const disabled = !available.includes(option.value);
    if (option.disabled !== disabled) option.disabled = disabled;
    if (option.tagName !== "OPTION") {
      // a radio says why it is greyed beside its label, as a menu's option does (found by a cold
      // read on a phone: a target without "the same" flipped the radio with no word near it;
      // on a laptop the note under the ladder is on the same screen, spec.css)
      const label = option.closest("label");
      let why = label?.querySelector(".spec-control__why");
      if (label && disabled && !why) {
        why = document.createElement("span");
        why.className = "spec-control__why";
        label.append(why);
      }
      if (why) {
        setText(why, disabled ? ` (${unavailableWhy(manifest, name, state)})` : "");
        why.hidden = !disabled;
      }
      continue;
    }
    // the build's own text of the option ("1,024", "Qwen3-0.6B draft model"), kept
    option.dataset.label ??= option.textContent.replace(/ \(not [^)]*\)$/, "");
    const label = option.dataset.label;
    setText(option, disabled ? `${label} (${unavailableWhy(manifest, name, state)})` : label);
  }
}

// Why a menu's choice is disabled: a draft model works only with its own family's targets (one
// tokenizer); anything else is computed only for the starting configuration.
function unavailableWhy(manifest, name, state) {
  if (name === "drafter") return `not for ${manifest.labels.target[state.target]}`;
  return "not offered here";
}

// The labels of the radio buttons' choices the state's configuration has no data for ("ideal
// roofline", …), for the sentence that says so; [] in the starting configuration.
export function greyedChoices(manifest, state) {
  return ["cost_model", "acceptance", "workload"].flatMap((name) => {
    const available = availableValues(manifest, state, name);
    // a cost model not offered as a setting still prices every batch size, as the ladder's ticks
    // (found by a cold read: "offered … only" beside ticks and table columns of it)
    const also = name === "cost_model" ? " (whose speedups still show as the ladder's ticks, the other cost model)" : "";
    return manifest.axes[name].filter((v) => !available.includes(v)).map((v) => `${manifest.labels?.[name]?.[v] ?? v}${also}`);
  });
}

// The controls, their values beside them and the bar show `state`. (Also before the controls
// are mounted: a linked state's first paint, views/early-readouts.js.)
export function writeControls(sim, manifest, state) {
  for (const name of stateNames(manifest)) {
    const el = control(sim, manifest, name);
    const value = state[name];
    const text = controlText(manifest, name, value);
    if (el) {
      const index = manifest.axes[name].indexOf(value);
      const shown = el.dataset?.scale === "index" ? String(index) : String(value);
      if (el.value !== shown) el.value = shown;
      if (el.type === "range") setAttr(el, "aria-valuetext", text);
      offer(sim, manifest, name, state);
    }
    for (const out of sim.querySelectorAll(`[data-output="${name}"]`)) setText(out, text);
  }
  for (const out of sim.querySelectorAll("[data-output-gpus]")) setText(out, gpusText(manifest, state));
  // The bar names a choice only while it differs from the starting one (the GPU and target
  // go together).
  const away = (name) => state[name] !== manifest.defaults[name];
  for (const item of sim.querySelectorAll("[data-bar-item]")) {
    const name = item.dataset.barItem;
    const hidden = !(name === "target" ? away("target") || away("gpu") : away(name));
    if (item.hidden !== hidden) item.hidden = hidden;
  }
}

export function mountControls(sim, manifest, { onMove, onCommit }) {
  const form = sim.querySelector("form");
  // An <output> is a polite live region by default: it would be read out on every step of a
  // slider, which already speaks its own aria-valuetext. The summary is said once, when the
  // controls settle. (Without the script the outputs never change.)
  for (const output of form.querySelectorAll("output")) output.setAttribute("aria-live", "off");

  function read(current) {
    const state = { ...current };
    for (const name of stateNames(manifest)) {
      const el = control(sim, manifest, name);
      if (!el) continue;
      const axis = manifest.axes[name];
      if (el.dataset?.scale === "index") state[name] = axis[Number(el.value)] ?? state[name];
      else if (typeof axis[0] === "number") state[name] = snap(axis, Number(el.value));
      else if (axis.includes(el.value)) state[name] = el.value;
    }
    return state;
  }

  let shown = null;
  // A slider moves through states as it is dragged; a menu or a radio button is committed by its
  // change event, which follows its input event at once (correcting the state on input would
  // leave the change nothing to say).
  form.addEventListener("input", (event) => {
    if (event.target.type === "range") onMove(read(shown));
  });
  // (onCommit hears which slider, if one: its steps in a row make one history entry, page.js)
  form.addEventListener("change", (event) => onCommit(read(shown), event.target.type === "range" ? event.target.name : null));
  form.addEventListener("submit", (event) => event.preventDefault());
  return {
    show(state) {
      shown = state;
      writeControls(sim, manifest, state);
    },
    disable() {
      for (const el of form.querySelectorAll("input, select")) el.disabled = true;
    },
  };
}
