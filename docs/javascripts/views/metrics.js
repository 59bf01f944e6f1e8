// The paste box (generator/templates/metrics.html.j2): the reader's text is parsed and fitted
// here, in the browser (metrics/parse.js, metrics/fit.js); the simulation is then set to the
// fitted acceptance, and the answer is looked up in the precomputed data of the state shown.
// Everything from the pasted text is written with textContent, never as HTML.
import { lookup } from "../core/data.js";
import { fixed, format } from "../core/format.js";
import { availableValues, configurationOf, sameState, siteName, snap } from "../core/url-state.js";
import { FitError, MEAN_LENGTH, PER_POSITION, fitLimit, fitOnGrid, residualDecimals } from "../metrics/fit.js";
import { BeyondModelError, ImpossibleMetricsError, MetricsInputError, dataParallel, grouped, parseMetrics, quotedName, shown as printedNumber } from "../metrics/parse.js";
import { gpusText } from "./controls.js";
import { configFlag } from "./vllm.js";
import { breakCodeAtSeparators } from "./code-breaks.js";
import { keepPhrasesWhole } from "./names.js";
import { fitWideTables } from "./wide-tables.js";

// The "use γ" cell of a batch size whose weights and KV caches do not fit in the GPUs' memory
// (the command line's too): no γ, and short enough to sit beside the numbers in a phone's card;
// the table's caption says what it means.
export const NOT_FITTING = "–";

const DYNAMIC_DOCS = "https://docs.vllm.ai/en/latest/features/speculative_decoding/dynamic_speculative_decoding/";
const DYNAMIC_SD_SCHEDULE = "one flag sets γ for every batch size of the table, each range covering the loads nearest one " +
  "of them (as the simulation rounds a load), with γ 0 (no drafting) where no γ pays or the load does not fit in memory";
const DYNAMIC_SD_LIMITS = "vLLM's page says the feature was tested with EAGLE, EAGLE-3 and DFlash (a drafter that " +
  "guesses a whole block of tokens in one pass) only, and that vLLM turns it off under data parallelism " +
  "(--data-parallel-size above 1)";
// (report.py DYNAMIC_SD_OFF: for a text from several data-parallel engines, where the flag is off)
const DYNAMIC_SD_OFF = "No γ-by-load flag: your text comes from several data-parallel engines, and vLLM turns dynamic " +
  "speculative decoding off under data parallelism; each engine runs the fixed γ above.";

function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const sequences = (n) => `${format("int", n)} ${n === 1 ? "sequence" : "sequences"}`;
const count = (x) => (x === null || x === undefined ? "–" : grouped(Math.round(x)));

// Python's json.dumps with its default separators, for the flags the CLI prints the same way.
export function pythonJson(value) {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

// vLLM's num_speculative_tokens_per_batch_size from γ at each grid batch size (as
// specmodel/metrics/advice.py batch_schedule): batch b_i's γ holds for every load the page snaps
// to b_i (core/url-state.js snap over `grid`, the batch axis), so the schedule runs the γ the
// advice gives for the reader's load; the first range from 1, the last to the last batch.
export function batchSchedule(batches, gammas, grid) {
  const ranges = [];
  let start = 1;
  batches.forEach((b, i) => {
    const g = gammas[i];
    let end = b;
    if (i < batches.length - 1) {
      for (let n = b; n < batches[i + 1]; n += 1) if (snap(grid, n) === b) end = n;
    }
    if (ranges.length && ranges[ranges.length - 1][2] === g) ranges[ranges.length - 1][1] = end;
    else ranges.push([start, end, g]);
    start = end + 1;
  });
  return ranges;
}

// " (derived: how)" after a value the text does not print, as the command line labels it
// (specmodel/metrics/report.py _derived).
export function derivedLabel(reading, key) {
  const how = reading.derived?.[key];
  return how ? ` (derived: ${how})` : "";
}

// The first `listed` per-position rates, then "… N more" (a text can list hundreds); the command
// line lists them the same way (specmodel/metrics/report.py listed_rates).
export function listedRates(rates, listed) {
  const shown = rates.slice(0, listed).map((p) => fixed(p, 3)).join(", ");
  return shown + (rates.length > listed ? `, … ${rates.length - listed} more` : "");
}

// The read's one-sentence summary of what was fitted: γ and the mean acceptance length over the
// same positions. Where the text has more positions than the simulation drafts, it says which
// were used, and the mean is over those (or, without per-position rates, named as the text's
// over all of them).
// Each mean acceptance length as "What the text says" writes it: as the text prints it, else to
// three decimals (found by a cold read: 2.61 here over 2.612 in the box).
export function readSummary(reading, fit) {
  const mean = fit.measured_mean_acceptance_length;
  if (!fit.truncated) {
    const printed = reading.printed_mean_acceptance_length !== null && !reading.derived.mean_acceptance_length;
    const text = printed ? reading.printed_mean_acceptance_length : fixed(reading.mean_acceptance_length ?? mean, 3);
    return `Read ${reading.source}: γ = ${fit.gamma}, mean acceptance length ${text}.`;
  }
  const unused = `positions ${fit.gamma + 1} to ${fit.truncated} were not used`;
  if (mean !== null) {
    return `Read ${reading.source}: ${fit.truncated} draft positions, of which the simulation drafts at most ${fit.gamma}, ` +
      `so the fit used the first ${fit.gamma} (${unused}): over them, γ = ${fit.gamma}, mean acceptance length ${fixed(mean, 3)}.`;
  }
  return `Read ${reading.source}: ${fit.truncated} draft positions, of which the simulation drafts at most ${fit.gamma} ` +
    `(${unused}): the fit is at γ = ${fit.gamma}, but the text's mean acceptance length, ` +
    `${fixed(reading.mean_acceptance_length, 3)}, is over all ${fit.truncated} (without per-position rates it cannot be cut).`;
}

// What to run at the reader's load, said as the answer below it says it. Found once: "best γ
// there 2" in the summary over 0.92× and "leave speculation off" in the answer: the best γ of a
// load at which none beats plain decoding is no advice to speculate.
export const SPECULATION_OFF = "speculation off is best there";

// Where the reader's load does not fit in memory (report.py's NO_ROOM): its best γ is a number
// on paper, not advice.
export const NO_ROOM = "the load does not fit in memory: no γ there";

// What follows "Best γ at … (speedup)": whether it is slower than plain decoding, and whether the
// load fits, as the summary and the advice under it say (report.py best_gamma_tail; found once:
// "Best γ at 256 sequences: 2 (0.78×)." under "no γ there: the load does not fit in memory").
export function bestGammaTail(fits, pays) {
  if (!fits) return `, ${pays ? "but" : "slower than plain decoding, and"} ${NO_ROOM}`;
  // (what to do then, leave speculation off, the answer says once, where the flag would be)
  return pays ? "" : ", slower than plain decoding";
}

// Why the batch priced is not the text's (report.py no_load): it has no running count, or one of
// 0, idle, in which nothing is drafted (found once: a V0 line at ?batch=256 priced 256 sequences
// and did not say where they came from).
export function noLoad(running) {
  if (running === null || running === undefined) return "the text does not say how many requests were running";
  return `the text reports ${printedNumber(running)} running requests (idle), which tells no load`;
}

// What the answer is for a text another engine wrote (report.py other_engine_note): vLLM's prices
// and vLLM's flags (found by a cold read: a llama-server log got vLLM's flags and no word on it).
export function otherEngineNote(source) {
  if (!source.includes("llama")) return null; // "llama-server log", "Prometheus (llama.cpp)"
  return "the text comes from llama.cpp's server; the answer prices vLLM, the engine the calibrated model is fitted " +
    "to, and its flags are vLLM's: llama-server sets the tokens it drafts with --draft-max";
}

// The lower-case names by which a text names a target or drafter (a Hugging Face id's model part).
const lastPart = (name) => name.split("/").pop().toLowerCase();
const quoted = quotedName;

// The models a text names and where (a Prometheus text's model_name labels, else a log's vLLM
// start-up line: specmodel/metrics/named.py served_models; the model a start-up line serves under
// the label, where it does).
function servedModels(reading) {
  const startup = reading.startup;
  const label = reading.model_names?.[0];
  if (label && startup?.model && startup.model !== label && startup.served_model_name === label) {
    return [[startup.model], startup.said_in];
  }
  if (reading.model_names?.length) return [reading.model_names, "its model_name label"];
  if (reading.startup?.model) return [[reading.startup.model], reading.startup.said_in];
  return [[], ""];
}

// The target and drafter keys a text names where the site has them (`names`: the manifest's
// deployment_names; named.py named_target and named_drafter): a target where every name the text
// gives is that one, a drafter by its start-up line's method, else its draft model; null else.
// Found by a cold read: a log naming Llama-3.1-8B-Instruct and its EAGLE-3 head priced as Qwen3-8B.
export function namedDeployment(reading, names) {
  const [models] = servedModels(reading);
  const targets = new Set(models.map((m) => siteName(m, names.target)[0]));
  const target = targets.size === 1 && !targets.has(null) ? [...targets][0] : null;
  const { method, draft_model: model } = reading.startup ?? {};
  // (a draft model by its name: the names of kinds, eagle3 and ngram, are none)
  const draftModels = Object.fromEntries(Object.entries(names.drafter).filter(([n]) => !Object.values(names.kind).includes(n)));
  const drafter = method ? (names.drafter[method.toLowerCase()] ?? (model ? siteName(model, draftModels)[0] : null)) : null;
  // whether every model the text names is that target by its own name (not the nearest)
  const exactly = target !== null && models.every((m) => siteName(m, names.target)[1]);
  return { target, drafter, exactly };
}

// The models a text names, quoted, with where (report.py models_said); null where it names none.
export function modelsSaid(reading) {
  const [models, where] = servedModels(reading);
  return models.length ? `${models.map(quoted).join(", ")} (${where})` : null;
}

// The drafter a text's start-up line names, "method 'eagle3', model '…'" (report.py drafter_said).
export function drafterSaid(reading) {
  const { method, method_given: given, draft_model: model } = reading.startup ?? {};
  if (method && !given) return `model ${quoted(model)}, which vLLM runs as method ${quoted(method)} (none given)`;
  return method ? `method ${quoted(method)}${model ? `, model ${quoted(model)}` : ""}` : null;
}

// The models a text names where they are not the target priced (report.py named_models_text);
// null where it names none or that one. Found by cold reads: another model's scrape, then log,
// priced as Qwen3-8B, unsaid.
export function namedModels(reading, target, names) {
  if (servedModels(reading)[0].length === 0 || namedDeployment(reading, names).target === target) return null;
  return modelsSaid(reading);
}

// Whether a text's start-up line names `drafter` with the checkpoint it drafts `target` with: its
// kind, and its draft model where it names one (named.py named_checkpoint; found by a cold read:
// a Llama head said to be priced on a Qwen3 target, where the catalog's Qwen3 head was).
export function namedCheckpoint(reading, drafter, target, names) {
  if (namedDeployment(reading, names).drafter !== drafter) return false;
  const model = reading.startup?.draft_model;
  const checkpoint = names.checkpoint[drafter]?.[target];
  return !model || !checkpoint || lastPart(model) === lastPart(checkpoint);
}

// The drafter a text's start-up line names where it is not `drafter` (a drafter key) with its
// checkpoint for `target`, as "method 'eagle3', model '…'"; null where it names none or that one
// (report.py named_drafter_text).
export function namedDrafter(reading, drafter, target, names) {
  return namedCheckpoint(reading, drafter, target, names) ? null : drafterSaid(reading);
}

// report.py thin_gains: the loads that fit at which speculation pays by less than the cost
// model's median error on measured step times (the manifest's step_time_error, as fit-metrics
// computes it): gains the model cannot tell from none (found by a cold read: "pays at every
// batch size … up to 64" on 1.003× there).
export function thinGains(rows, error) {
  if (error === undefined || error === null) return [];
  return rows.filter((r) => r.fits && r.use > 0 && r.bestSpeedup - 1 < error).map((r) => r.batch);
}

// Runs of batch sizes as the answer writes them: "1–2 and 16–64" (report.py batch_ranges_text).
export function rangesText(ranges) {
  const parts = ranges.map(([a, b]) => (a === b ? format("int", a) : `${format("int", a)}–${format("int", b)}`));
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0];
}

// report.py thin_gains_text, in the page's "N sequences".
export function thinGainsText(batches, error) {
  const last = batches[batches.length - 1];
  const listed = batches.length > 1
    ? `${batches.slice(0, -1).map((b) => format("int", b)).join(", ")} and ${format("int", last)} sequences`
    : sequences(last);
  return `At ${listed} speculation gains less than ${format("pct1", error)}, this cost model's median error on the ` +
    "step times measured in vLLM: measure before relying on it there.";
}

// Each speedup beside the γ it is at (found by a cold read: "1.91× at 1 sequence; best γ there
// 10" read as 10 giving 1.91×, the text's γ 3 does; γ 10 gives 2.33×).
export function bestThere(row) {
  if (!row.fits) return "no γ there: the load does not fit in memory";
  return row.use > 0 ? `best γ there ${row.best} (${format("times", row.bestSpeedup)})` : `${SPECULATION_OFF} (no γ beats plain decoding)`;
}

// The page's α is a step of the simulation's grid (the data hold no other); specmodel fit-metrics
// fits it finer by default, and on the same grid with --site-grid.
const GRID = "the simulation's grid, in steps of 0.05";
const GRID_CLI = "specmodel fit-metrics fits it finer, or on this grid with --site-grid";

// A clause of fitLimit as a sentence of its own, the shape named by its label (the command line
// names it by its key).
function sentence(clause, labels) {
  if (!clause) return "";
  const named = Object.entries(labels).reduce((text, [key, label]) => text.replace(`acceptance ${key} `, `acceptance ${label} `), clause);
  // a Latin first letter only: "α = 0.90 …" stays α, not "Α"
  return ` ${named.replace(/^[a-z]/, (c) => c.toUpperCase())}.`;
}

function flagObject(flag) {
  // Our own build's text: --speculative-config '{…}'
  return JSON.parse(flag.slice(flag.indexOf("'") + 1, flag.lastIndexOf("'")));
}

// Whether the fit's shape was assumed: one length without V0's rate, or one position (every shape
// starts at α); report.py's fit line says "assumed falling" / "the three shapes are one".
function assumedShape(fit) {
  return (fit.basis === MEAN_LENGTH && !Object.keys(fit.v0_rates).length) || (fit.basis === PER_POSITION && fit.gamma === 1);
}

export function mountMetrics(root, manifest, { apply, current }) {
  const form = root.querySelector("[data-metrics-form]");
  const textarea = form.querySelector("textarea");
  const status = root.querySelector("[data-metrics-status]");
  const result = root.querySelector("[data-metrics-result]");
  // the fit, the reader's deployment and the answer: hidden when no fit could be made
  const outcome = root.querySelector("[data-metrics-outcome]");
  let fitted = null; // {reading, fit, batchNote, example, announced}: the last text read successfully
  // The target, drafter and load the last text naming each set in the simulation: a later text
  // that names none is priced on them, and said so (found by cold reads: a Llama target, an EAGLE-3
  // head and 8 sequences from one text, then a text naming none priced on them unsaid)
  const fromEarlierText = { target: null, drafter: null, batch: null };
  // What the reader last chose under "Your deployment", by field: what the answer calls theirs
  // while the simulation still shows it (found by a cold read: a drafter the page changed with the
  // target called "as set under Your deployment"; a target the reader chose before a new paste
  // told "Set yours").
  const chosen = {};
  let reads = 0;
  let drafterBeforeExample = null; // the example sets its own drafter; the reader's comes back after

  function say(text) {
    // One announcement per read: the live region changes once, when everything is known.
    status.textContent = text;
    keepPhrasesWhole(status);
  }

  // What the text says; with `fit` (null where none could be made), which of its positions the fit
  // used where the simulation drafts fewer than the text lists.
  function showReading(reading, fit) {
    const dl = root.querySelector("[data-metrics-reading]");
    const rows = [["read from", `${reading.source}, ${count(reading.records)} record${reading.records === 1 ? "" : "s"}`]];
    if (reading.gamma) rows.push(["draft positions, γ", String(reading.gamma)]);
    // the mean as the text prints it, then the one read from it where that is another number,
    // labelled derived (found once: "3.610" shown as the text's for a line printing 2.61)
    const printed = reading.printed_mean_acceptance_length;
    const meanHow = reading.derived.mean_acceptance_length;
    if (printed !== null) rows.push(["mean acceptance length, as printed", printed]);
    if (reading.mean_acceptance_length !== null && (printed === null || meanHow)) {
      rows.push([(fit?.truncated ? `mean acceptance length, all ${fit.truncated} positions` : "mean acceptance length") + derivedLabel(reading, "mean_acceptance_length"),
        fixed(reading.mean_acceptance_length, 3)]);
    }
    if (fit?.truncated) {
      rows.push(["used by the fit", fit.measured_mean_acceptance_length === null
        ? `the first ${fit.gamma} positions (the simulation drafts at most ${fit.gamma})`
        : `the first ${fit.gamma} positions (the simulation drafts at most ${fit.gamma}): mean acceptance length ${fixed(fit.measured_mean_acceptance_length, 3)} over them`]);
    }
    if (reading.per_position_acceptance) {
      rows.push(["per-position acceptance", listedRates(reading.per_position_acceptance, Math.max(...manifest.axes.gamma))]);
    }
    if (reading.num_drafts !== null) {
      rows.push([`drafts${derivedLabel(reading, "num_drafts")} · draft tokens · tokens in accepted prefixes${derivedLabel(reading, "num_accepted_tokens")}`, `${count(reading.num_drafts)} · ${count(reading.num_draft_tokens)} · ${count(reading.num_accepted_tokens)}`]);
    }
    if (reading.v0_draft_acceptance_rate !== null) rows.push(["V0 draft acceptance rate", fixed(reading.v0_draft_acceptance_rate, 3)]);
    if (reading.running_requests !== null) rows.push(["running requests", grouped(reading.running_requests)]);
    dl.replaceChildren(...rows.map(([k, v]) => {
      const div = el("div");
      div.append(el("dt", k), el("dd", v));
      return div;
    }));
    const notes = root.querySelector("[data-metrics-notes]");
    notes.replaceChildren(...reading.notes.map((n) => el("li", n)));
    keepPhrasesWhole(dl);
    keepPhrasesWhole(notes);
  }

  function showFit(fit, reading) {
    const unit = fit.basis === PER_POSITION ? "RMS over the positions" : "in mean acceptance length";
    const labels = manifest.labels.acceptance;
    const d = residualDecimals(fit);
    root.querySelector("[data-metrics-fit]").textContent =
      `Acceptance ${labels[fit.shape]}, α = ${fixed(fit.alpha, 2)} at γ = ${fit.gamma}: residual ${fixed(fit.residual, d)} ${unit}.` +
      // on either basis α is the grid's: said, so that the command line's finer α (0.816 where the
      // page reads 0.80) is not taken for a disagreement
      ` α is fitted on ${GRID}; ${GRID_CLI}.` +
      (fit.basis === PER_POSITION
        // every shape starts at α: the tie is no choice (report.py fit_line)
        ? (fit.gamma === 1 ? " With one position the three shapes are one: only α is fitted." : " The shape with the smallest residual wins.")
        : Object.keys(fit.v0_rates).length
          // report.py fit_line: V0's rate picks the shape (found by a cold read: falling assumed at
          // α 0.90, which averages 0.72 against the line's 0.800)
          ? ` One length cannot tell the shapes apart; V0's draft acceptance rate, an average over the positions, can: at the α that gives the length, ${Object.entries(fit.v0_rates).map(([s, r]) => `${labels[s]} averages ${fixed(r, 3)}`).join(", ")}, against the text's ${fixed(reading.v0_draft_acceptance_rate, 3)}. The nearest wins.`
          : " Without per-position rates one length cannot tell the shapes apart: the fit assumes the model's default, falling.") +
      (fit.truncated ? ` The text has ${fit.truncated} positions; the simulation drafts at most ${fit.gamma}, so the fit uses the first ${fit.gamma}.` : "") +
      sentence(fitLimit(fit, manifest.acceptance_table.poor_fit, fixed(fit.alpha, 2)), manifest.labels.acceptance);
    const body = root.querySelector("[data-metrics-fits]");
    body.replaceChildren(...Object.entries(fit.residuals).map(([shape, r]) => {
      const tr = el("tr");
      if (shape === fit.shape) tr.className = "spec-metrics__best";
      // every shape's own best α: the answer may use another shape than the best (adjust)
      const alpha = shape in fit.alphas ? fit.alphas[shape] : shape === fit.shape ? fit.alpha : null;
      // a V0 line's shape is the one nearest its rate, not the smallest residual
      const chosen = assumedShape(fit) ? " (assumed)" : Object.keys(fit.v0_rates).length ? " (nearest V0's rate)" : " (best)";
      tr.append(el("td", labels[shape] + (shape === fit.shape ? chosen : "")), el("td", alpha === null ? "–" : fixed(alpha, 2)), el("td", fixed(r, d)));
      return tr;
    }));
    keepPhrasesWhole(root.querySelector("[data-metrics-fit]"));
  }

  // The fitted acceptance at `state`'s configuration: the fit's shape where its data hold it, else
  // the best fit among the shapes they do hold.
  function adjust(state) {
    if (!fitted) return state;
    const { fit } = fitted;
    const shapes = availableValues(manifest, state, "acceptance").filter((s) => s in fit.alphas);
    if (shapes.length === 0) return state;
    const shape = shapes.includes(fit.shape) ? fit.shape : shapes.reduce((a, b) => (fit.residuals[b] < fit.residuals[a] ? b : a));
    return { ...state, acceptance: shape, alpha: fit.alphas[shape], gamma: fit.gamma };
  }

  // What adjust changed of the acceptance as the reader moved to `state` from `before`, for the
  // simulation's notes (found by a cold read: after a fit of rising acceptance, a target whose
  // data hold no rising was told "the starting rising … is not offered", and α moved unsaid).
  function adjustNote(before, state) {
    if (!fitted || (state.acceptance === before.acceptance && state.alpha === before.alpha)) return null;
    const { fit } = fitted;
    const labels = manifest.labels;
    const how = `Acceptance past the first guess: ${labels.acceptance[state.acceptance]} at α = ${fixed(state.alpha, 2)}`;
    if (state.acceptance === fit.shape) return `${how}, the best fit to your text.`;
    return `${how}, the best fit to your text among the shapes the data for ${labels.target[state.target]} on ` +
      `${labels.gpu[state.gpu]} hold (your text's best, ${labels.acceptance[fit.shape]}, is not among them).`;
  }

  async function read(text, { example = null } = {}) {
    const read = ++reads;
    fitted = null;
    if (!text.trim()) {
      result.hidden = true;
      say("Paste one or more log lines or a Prometheus scrape first, or try the example.");
      return;
    }
    let reading;
    let fit;
    try {
      reading = parseMetrics(text);
    } catch (error) {
      result.hidden = true;
      if (error instanceof BeyondModelError) {
        say(`The model does not go this far: ${error.message}. Nothing was fitted; the simulation was left as it was.`);
      } else if (error instanceof ImpossibleMetricsError) {
        // Refused before anything is fitted or applied: numbers that cannot be would still fit an
        // α and print a speedup and a flag, and move the simulation to them.
        say(`These numbers cannot be: ${error.message}. Nothing was fitted; the simulation was left as it was.`);
      } else {
        say(error instanceof MetricsInputError && !error.recognised ? `Nothing here could be read: ${error.message}` : `The text could not be read: ${error.message}`);
      }
      return;
    }
    try {
      fit = fitOnGrid(reading, manifest.acceptance_table);
    } catch (error) {
      if (!(error instanceof FitError)) throw error;
      // What was read stays, as the command line prints it before what is missing; the sections
      // that need a fit go, not left on screen empty (found once: "The fit: No fit." over a bare
      // table header, the deployment's selectors and an answer heading with nothing under it).
      // the note the error states (fit.js: the reading's last) is said once, in the error (found
      // once: "The counters went down between the scrapes…" shown twice)
      showReading({ ...reading, notes: reading.notes.slice(0, -1) }, null);
      outcome.hidden = true;
      result.hidden = false;
      say(error.message);
      return;
    }
    showReading(reading, fit);
    showFit(fit, reading);
    outcome.hidden = false;
    const values = {};
    if (example) {
      if (drafterBeforeExample === null) drafterBeforeExample = current().drafter;
      values.drafter = example;
    } else if (drafterBeforeExample !== null) {
      values.drafter = drafterBeforeExample;
      drafterBeforeExample = null;
    }
    // the target and drafter the text names, where the site has them, as fit-metrics prices them
    // (found by a cold read: a log naming Llama-3.1-8B-Instruct and its EAGLE-3 head was priced
    // as Qwen3-8B with a draft model); the reader's own choice under "Your deployment" comes after
    const named = namedDeployment(reading, manifest.deployment_names);
    const fromText = {};
    if (named.target) {
      values.target = fromText.target = named.target;
      values.tp = configurationOf(manifest, { ...current(), target: named.target })?.tp ?? current().tp;
      delete chosen.target;
    }
    if (named.drafter && availableValues(manifest, { ...current(), ...values }, "drafter").includes(named.drafter)) {
      values.drafter = fromText.drafter = named.drafter;
      delete chosen.drafter;
    }
    let batchNote = null;
    if (reading.running_requests !== null && reading.running_requests > 0) {
      values.batch = snap(manifest.axes.batch, reading.running_requests);
      if (values.batch !== reading.running_requests) {
        // (on a log scale: found by a cold read, "46.5 … nearest batch size is 64" read as wrong)
        batchNote = `${grouped(reading.running_requests)} running requests: the simulation's nearest batch size on its doubling scale is ${format("int", values.batch)}.`;
      }
    }
    // the cost model and workload the reader had: a target the text names may lack them
    const { cost_model: costModel, workload } = current();
    // what an earlier text set, still priced where this one names none: said so
    const ownLoad = reading.running_requests !== null && reading.running_requests > 0;
    const carried = {};
    for (const [name, own] of [["target", Boolean(named.target)], ["drafter", Boolean(named.drafter || example)], ["batch", ownLoad]]) {
      const earlier = fromEarlierText[name];
      if (!own && earlier !== null && earlier === current()[name]) carried[name] = earlier;
    }
    if (named.target) fromEarlierText.target = named.target;
    if (fromText.drafter) fromEarlierText.drafter = fromText.drafter;
    if (ownLoad) fromEarlierText.batch = values.batch;
    // the drafter the simulation had, which a target the text names may not take
    const drafterBefore = current().drafter;
    fitted = { reading, fit, batchNote, fromText, carried, drafterBefore, readUnder: { cost_model: costModel, workload }, example: Boolean(example), announced: null };
    result.hidden = false;
    // the table of residuals as cards where its rows do not fit the column, once it is shown
    // (found by a cold read at 320 px: filled after the page's tables were fitted, it ran 18 px
    // past its box)
    fitWideTables(root.querySelector("[data-metrics-fits]").closest(".md-typeset__scrollwrap").parentElement);
    const shown = await apply(adjust({ ...current(), ...values }));
    if (read !== reads) return;
    fitted.announced = shown.state;
    const answer = renderAnswer(shown);
    say(`${readStatus()}${predictionsUse(shown)} ${answer}`);
  }

  // What was read and the best fit, without the answer: true whatever the settings shown.
  function readStatus() {
    const { reading, fit } = fitted;
    // a shape the numbers cannot tell is assumed, not fitted (found by a cold read: "Best fit:
    // acceptance falling" beside "the three shapes are one")
    const what = assumedShape(fit) ? `Fit: acceptance ${manifest.labels.acceptance[fit.shape]} (assumed)` : `Best fit: acceptance ${manifest.labels.acceptance[fit.shape]}`;
    return `${readSummary(reading, fit)} ${what}, α = ${fixed(fit.alpha, 2)} on the simulation's grid`;
  }

  // Which fit the predictions use, and its mean acceptance length: the fitted shape's, which
  // smooths the measured rates, said so the two lengths are not read as one quantity with two
  // values (found once: 2.16 read, 2.10 in the simulation). Where the settings do not hold the
  // best fit's shape it names the one used (found once: "Best fit: acceptance rising … α = 0.50;
  // the predictions use its mean acceptance length, 2.18", the 2.18 the falling fit's).
  function predictionsUse(shown) {
    const labels = manifest.labels.acceptance;
    const { state } = shown;
    const mean = shown.data ? format("num", lookup(shown.data, "mean_acceptance_length", state)) : null;
    if (state.acceptance === fitted.fit.shape) {
      return mean === null ? "." : `; the predictions use its mean acceptance length, ${mean}.`;
    }
    return `, which these settings do not offer: the predictions use acceptance ${labels[state.acceptance]}, ` +
      `α = ${fixed(state.alpha, 2)}` + (mean === null ? "." : `, whose mean acceptance length is ${mean}.`);
  }

  // The answer at the state on screen, from the loaded data; returns its one-sentence summary.
  function renderAnswer(shown) {
    const box = root.querySelector("[data-metrics-answer]");
    if (!fitted) return "";
    if (!shown?.data) {
      box.replaceChildren(el("p", "The numbers for these settings could not be loaded; the simulation says why."));
      return "";
    }
    const { state, data } = shown;
    const { fit, batchNote } = fitted;
    const labels = manifest.labels;
    const batches = data.config?.axes?.batch ?? manifest.axes.batch;
    const rows = batches.map((b) => {
      const best = lookup(data, "best_gamma", state, { batch: b });
      return {
        batch: b,
        best,
        bestSpeedup: lookup(data, "speedup", state, { batch: b, gamma: best }),
        atFitted: lookup(data, "speedup", state, { batch: b }),
        use: lookup(data, "paying_positions", state, { batch: b }),
        fits: Boolean(lookup(data, "fits_in_memory", state, { batch: b })),
      };
    });
    const here = rows.find((r) => r.batch === state.batch);
    const fitting = rows.filter((r) => r.fits);
    const stops = fitting.find((r) => r.use === 0);
    // runs of neighbouring batch sizes that fit and pay (advice.py paying_batch_ranges)
    const ranges = [];
    fitting.forEach((r, i) => {
      if (r.use === 0) return;
      if (ranges.length && fitting[i - 1].use > 0) ranges[ranges.length - 1][1] = r.batch;
      else ranges.push([r.batch, r.batch]);
    });
    const speedup = lookup(data, "speedup", state);
    const nodes = [];
    nodes.push(el("p", `Predictions of the cost model (${labels.cost_model[state.cost_model]}), not measurements: ${labels.target[state.target]} on ${gpusText(manifest, state)} drafting with the ${labels.drafter[state.drafter]}, ${sequences(state.batch)} at once, ${format("int", state.context)} tokens of context, workload ${labels.workload[state.workload]}.`));
    // found by a cold read: on another GPU or target the answer did not say it is extrapolated,
    // where the simulation and fit-metrics do (specmodel/metrics/report.py, the same note)
    const extrapolated = lookup(data, "extrapolation_note", state);
    if (extrapolated) nodes.push(el("p", `This configuration is ${extrapolated}.`, { class: "spec-metrics__warn" }));
    // A cost model or workload the text was read under that these settings' data do not hold,
    // replaced: said here (found by a cold read: the ideal roofline and steady state became the
    // calibrated model and a closed batch with a change of target, said only in the simulation's
    // notes far above, and the page's 1.89× read against the command line's 2.27×).
    const announced = fitted.readUnder;
    const gone = ["cost_model", "workload"].filter((name) => state[name] !== announced[name] &&
      !availableValues(manifest, state, name).includes(announced[name]));
    if (gone.length) {
      const setting = (name, value) => (name === "cost_model" ? `the cost model ${labels.cost_model[value]}` : `the workload ${labels.workload[value]}`);
      const list = (values) => gone.map((name) => setting(name, values[name])).join(" and ");
      nodes.push(el("p", `The site's data for ${labels.target[state.target]} on ${gpusText(manifest, state)} do not hold ${list(announced)}, as when your text was read: the answer uses ${list(state)}. specmodel fit-metrics prices every cost model and workload on any configuration.`,
        { class: "spec-metrics__warn" }));
    }
    const ownShape = state.acceptance === fit.shape;
    const stand = !ownShape && state.alpha === fit.alphas[state.acceptance] && state.gamma === fit.gamma;
    if (stand) {
      nodes.push(el("p", `This configuration's data hold acceptance ${labels.acceptance[state.acceptance]} only: the answer uses that shape's best fit to your rates, α = ${fixed(state.alpha, 2)} (residual ${fixed(fit.residuals[state.acceptance], residualDecimals(fit))}, against ${fixed(fit.residual, residualDecimals(fit))} for ${labels.acceptance[fit.shape]}). specmodel fit-metrics without --site-grid prices your shape on any configuration.`, { class: "spec-metrics__warn" }));
    } else {
      // every fitted setting the simulation has left, α under another shape too, and the
      // example's drafter (found by a cold read: after Back, "(acceptance falling with position,
      // γ = 4)" where α had gone from 0.50 to 0.75 and the n-gram drafter to a draft model)
      const differs = [];
      const fittedDrafter = fitted.example ? fitted.announced?.drafter : undefined;
      if (fittedDrafter !== undefined && state.drafter !== fittedDrafter) differs.push(`drafter ${labels.drafter[state.drafter]}`);
      if (!ownShape) differs.push(`acceptance ${labels.acceptance[state.acceptance]}`);
      if (state.alpha !== (ownShape ? fit.alpha : fit.alphas[state.acceptance])) differs.push(`α = ${fixed(state.alpha, 2)}`);
      if (state.gamma !== fit.gamma) differs.push(`γ = ${state.gamma}`);
      if (differs.length) nodes.push(el("p", `The simulation has since moved away from the fit (${differs.join(", ")}): these numbers are for the settings shown, not for your acceptance.`, { class: "spec-metrics__warn" }));
    }
    // What the text does not say, and which the answer fills in: once the reader has set it under
    // "Your deployment", said to be theirs (found once: "Set yours" stayed after they had).
    const readAt = fitted.announced ?? state;
    const setByReader = (name) => name in chosen && chosen[name] === state[name];
    // a drafter the reader chose that the target chosen after it cannot take: said here, not only
    // in the simulation's notes far above (found by a cold read: Qwen3-4B replaced by Llama-3.2-1B
    // under a Llama target, and "Set yours" to a reader who had)
    // ... or one the simulation had, set by a link or its own controls (found by a cold read: said
    // only in the simulation's notes far above)
    const cannot = (drafter) => drafter !== undefined && drafter !== state.drafter && !availableValues(manifest, state, "drafter").includes(drafter);
    const replaced = "drafter" in chosen
      ? (cannot(chosen.drafter) ? `, as the ${labels.drafter[chosen.drafter]} you chose cannot draft for ${labels.target[state.target]}` : "")
      // (where the text's target replaced it: one the reader chose since replaced it in their sight)
      : fitted.fromText.target === state.target && cannot(fitted.drafterBefore)
        ? `, as the ${labels.drafter[fitted.drafterBefore]} the simulation had cannot draft for ${labels.target[state.target]}` : "";
    const drafterTail = setByReader("drafter") ? ", as set under “Your deployment”." : `${replaced}. Set yours under “Your deployment”.`;
    // a setting the text named, still shown and not since chosen by the reader
    const fromText = (name) => fitted.fromText[name] === state[name] && !setByReader(name);
    const named = namedModels(fitted.reading, state.target, manifest.deployment_names);
    const textNamed = namedDeployment(fitted.reading, manifest.deployment_names);
    if (fromText("target") && textNamed.exactly) {
      nodes.push(el("p", `The answer prices ${labels.target[state.target]}: the text names it, ${modelsSaid(fitted.reading)}.`));
    } else if (textNamed.target === state.target && !textNamed.exactly) {
      // a variant of a target the site has (report: the catalog's nearest), set under "Your
      // deployment" since or not (found by a cold read: unsaid after the target went and came back)
      nodes.push(el("p", `The answer prices ${labels.target[state.target]}, '${manifest.deployment_names.target_id[state.target]}', the nearest the site has to the model the text names, ${modelsSaid(fitted.reading)}.`));
    } else if (named) {
      const told = `The text names the model ${named}; the answer prices ${labels.target[state.target]}`;
      nodes.push(el("p", setByReader("target") ? `${told}, as set under “Your deployment”.` : `${told}. Set yours under “Your deployment”.`,
        { class: "spec-metrics__warn" }));
    } else if (fitted.carried.target === state.target && !setByReader("target")) {
      nodes.push(el("p", `The text does not name its model: the answer prices ${labels.target[state.target]}, which an earlier text named. Set yours under “Your deployment”.`,
        { class: "spec-metrics__warn" }));
    }
    // the GPUs the text's start-up line names, where the site's data hold the target on another
    // number (found by a cold read: a log on 2 GPUs answered --tensor-parallel-size 4, unsaid;
    // report.py named_gpus_note, fit-metrics --site-grid)
    // (for the target the text names: a count for another model is not the reader's; found by a cold read)
    const textGpus = textNamed.target === state.target ? fitted.reading.startup?.tensor_parallel_size ?? null : null;
    if (textGpus !== null && textGpus !== state.tp) {
      const priced = manifest.cli.tensor_parallel;
      const why = priced.includes(textGpus)
        ? `as the site's data hold it: specmodel fit-metrics prices the ${textGpus} the text names`
        : `as the site's data hold it: the model prices ${priced.slice(0, -1).join(", ")} or ${priced.at(-1)} GPUs, not ${textGpus}`;
      // (found by a cold read: "1 GPU (B200 (HGX))")
      const gpus = state.tp === 1 ? `one ${labels.gpu[state.gpu]}` : `${state.tp} × ${labels.gpu[state.gpu]}`;
      nodes.push(el("p", `The text names tensor_parallel_size=${textGpus} (${fitted.reading.startup.said_in}); the answer prices ${labels.target[state.target]} on ${gpus}, ${why}.`,
        { class: "spec-metrics__warn" }));
    }
    const names = manifest.deployment_names;
    const namedOther = namedDrafter(fitted.reading, state.drafter, state.target, names);
    if (namedOther) {
      // the kind the text names, with the catalog's checkpoint for this target (report.py checkpoint_text)
      const namedKey = namedDeployment(fitted.reading, names).drafter;
      // a drafter the site has that cannot draft for the target priced: why, and no "Set yours"
      // (found by a cold read: a Qwen3 draft model named for a Llama target)
      const otherFamily = namedKey && namedKey !== state.drafter && !availableValues(manifest, state, "drafter").includes(namedKey);
      const priced = namedKey === state.drafter
        ? `the catalog's ${labels.drafter[state.drafter]} for ${labels.target[state.target]}, ${quoted(names.checkpoint[state.drafter][state.target])}.`
        : otherFamily && !setByReader("drafter")
          ? `the ${labels.drafter[state.drafter]}, as the ${labels.drafter[namedKey]} cannot draft for ${labels.target[state.target]} (another model family).`
          : `the ${labels.drafter[state.drafter]}${drafterTail}`;
      nodes.push(el("p", `The text names the drafter ${namedOther} (${fitted.reading.startup.said_in}); the answer prices ${priced}`,
        { class: "spec-metrics__warn" }));
    } else if (fromText("drafter")) {
      nodes.push(el("p", `The answer prices the ${labels.drafter[state.drafter]}: the text names it, ${drafterSaid(fitted.reading)} (${fitted.reading.startup.said_in}).`));
    } else if (!fitted.example && !fitted.reading.startup?.method) {
      const earlier = fitted.carried.drafter === state.drafter && !setByReader("drafter") ? ", which an earlier text named" : "";
      nodes.push(el("p", `The text does not say which drafter produced its metrics: the answer prices the ${labels.drafter[state.drafter]}${earlier}${drafterTail}`,
        earlier ? { class: "spec-metrics__warn" } : undefined));
    }
    const running = fitted.reading.running_requests;
    // the text's load, once the reader has set another under "Your deployment", is theirs no more
    // (found by a cold read: "12 running requests: … nearest batch size is 16" above an answer at 4)
    if (running > 0 && setByReader("batch")) {
      nodes.push(el("p", `Your text shows ${grouped(running)} running requests; the answer prices ${sequences(state.batch)}, as set under “Your deployment”.`));
    } else if (running > 0 && state.batch !== readAt.batch) {
      // moved since the read, not under "Your deployment" (Back, the simulation's own controls)
      nodes.push(el("p", `Your text shows ${grouped(running)} running requests; the answer prices the simulation's ${sequences(state.batch)}. Set yours under “Your deployment”.`));
    } else if (batchNote) nodes.push(el("p", batchNote));
    if (!(running > 0)) {
      const why = noLoad(running);
      const Why = `${why.charAt(0).toUpperCase()}${why.slice(1)}`;
      const earlier = fitted.carried.batch === state.batch;
      nodes.push(el("p", setByReader("batch")
        ? `${Why}: the answer prices ${sequences(state.batch)}, as set under “Your deployment”.`
        : earlier ? `${Why}: the answer prices ${sequences(state.batch)}, the load an earlier text showed. Set yours under “Your deployment”.`
          : `${Why}: the answer prices the simulation's ${sequences(state.batch)}. Set yours under “Your deployment”.`,
      earlier && !setByReader("batch") ? { class: "spec-metrics__warn" } : undefined));
    }
    const engine = otherEngineNote(fitted.reading.source);
    if (engine) nodes.push(el("p", `${engine.charAt(0).toUpperCase()}${engine.slice(1)}.`));
    const list = el("ul");
    list.append(el("li", `Speedup at γ = ${state.gamma}: ${format("times", speedup)}. It is the highlighted rung of the simulation's ladder.`));
    // where no γ beats plain decoding its best is still slower, and where the load does not fit
    // it is no advice: said here, as the command line's report says it, not left for the reader
    // to set against 1× or the summary (paying_positions is 0 where the best is not above 1×)
    list.append(el("li", `Best γ at ${sequences(state.batch)}: ${here.best} (${format("times", here.bestSpeedup)})` +
      `${bestGammaTail(here.fits, here.use > 0)}.`));
    let pays;
    if (fitting.length === 0) pays = "No batch size fits in the GPUs' memory.";
    else if (!stops) pays = `Speculation pays at every batch size that fits in memory, up to ${format("int", fitting[fitting.length - 1].batch)}, at its best γ.`;
    else if (ranges.length === 0) pays = "Speculation does not pay at any batch size: leave it off.";
    // (found by a cold read: "stops paying at 4 sequences" for a mixture of experts' target that
    // pays again from 16 to 64, the reader's own 32 included)
    else if (ranges.length > 1 || ranges[0][0] !== rows[0].batch) {
      pays = `Speculation pays only at ${rangesText(ranges)} sequences, at its best γ; at the other batch sizes that fit, no γ beats plain decoding.`;
    }
    // at the reader's own load the lines above and below say it (found by a cold read: one
    // verdict said four times)
    // ... but where it pays, which they do not say (found by a cold read: at 32, the first load
    // that does not pay, nothing said that 1–16 do)
    else if (stops.batch === state.batch) pays = `Speculation pays only at ${rangesText(ranges)} sequences, at its best γ.`;
    else pays = `Speculation stops paying at ${sequences(stops.batch)}: no γ beats plain decoding there.`;
    if (pays) list.append(el("li", pays));
    const error = manifest.step_time_error[state.cost_model];
    const thin = thinGains(rows, error);
    if (thin.length) list.append(el("li", thinGainsText(thin, error)));
    const topGamma = Math.max(...manifest.axes.gamma);
    if (here.best === topGamma) list.append(el("li", `γ = ${topGamma} is the largest the model searched: the best may lie further.`));
    // (only for a γ the answer recommends: report.py, the same rule)
    if (here.best > fit.gamma && state.gamma === fit.gamma && here.use > 0) {
      list.append(el("li", `Positions past the ${fit.gamma} your text measured are the fitted shape carried on: measure before trusting γ = ${here.best}.`));
    }
    nodes.push(list);
    const table = el("table", null, { "aria-label": "γ by batch size" });
    const head = el("tr");
    for (const h of ["sequences", "best γ", "speedup at best γ", `speedup at γ\u00a0=\u00a0${state.gamma}`, "use γ", "fits in memory"]) head.append(el("th", h, { scope: "col" }));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    for (const r of rows) {
      const tr = el("tr");
      if (r.batch === state.batch) {
        tr.className = "spec-metrics__best";
        tr.setAttribute("aria-current", "true");
      }
      // no γ for a load that does not fit, as the per-batch flag below covers only those that do
      const use = r.fits ? String(r.use) : NOT_FITTING;
      tr.append(el("td", format("int", r.batch)), el("td", String(r.best)), el("td", format("times", r.bestSpeedup)), el("td", format("times", r.atFitted)), el("td", use), el("td", r.fits ? "yes" : "no"));
      tbody.append(tr);
    }
    table.append(thead, tbody);
    const wrap = el("div", null, { class: "md-typeset__scrollwrap" });
    wrap.append(table);
    nodes.push(el("p", `γ by batch size (use γ = 0: do not speculate at that load; ${NOT_FITTING}: the load does not fit in memory, no γ):`), wrap);
    if (!here.fits) {
      nodes.push(el("p", `At ${sequences(state.batch)} the weights and KV caches do not fit in the GPUs' memory: no γ is recommended there.`));
    } else if (here.use > 0) {
      nodes.push(el("p", `For ${sequences(state.batch)}:`));
      const pre = el("pre");
      pre.append(el("code", configFlag(data, { ...state, gamma: here.use })));
      nodes.push(pre);
    } else {
      nodes.push(el("p", `At ${sequences(state.batch)} no γ beats plain decoding: leave speculation off.`));
    }
    // Every batch size of the table, γ 0 where none pays or the load does not fit: vLLM carries
    // the last range's γ to every larger load (found once: a schedule ending at the last batch
    // that fits drafted at γ 2 for a reader's 100 requests, where the answer says no γ).
    const ks = rows.map((r) => (r.fits ? r.use : 0));
    const top = ks.length ? Math.max(...ks) : 0;
    if (top > 0 && dataParallel(fitted.reading)) nodes.push(el("p", DYNAMIC_SD_OFF));
    else if (top > 0) {
      const flag = configFlag(data, { ...state, gamma: top });
      const config = flagObject(flag);
      config.num_speculative_tokens_per_batch_size = batchSchedule(rows.map((r) => r.batch), ks, manifest.axes.batch);
      // (report.py DYNAMIC_SD_SCHEDULE and DYNAMIC_SD_LIMITS, the same words)
      const p = el("p", "To change γ with load, with vLLM's ");
      const a = el("a", "dynamic speculative decoding", { href: DYNAMIC_DOCS });
      p.append(a, document.createTextNode(`: ${DYNAMIC_SD_SCHEDULE}; ${DYNAMIC_SD_LIMITS}:`)); // (never capitalised: "vLLM")
      const pre = el("pre");
      // the flags before it (--tensor-parallel-size on several GPUs) as the per-batch one has them
      const before = flag.slice(0, flag.indexOf("--speculative-config"));
      pre.append(el("code", `${before}--speculative-config '${pythonJson(config)}'`));
      nodes.push(p, pre);
    }
    box.replaceChildren(...nodes);
    breakCodeAtSeparators(box);
    keepPhrasesWhole(box);
    fitWideTables(box);
    const rung = pays ? `; ${pays.charAt(0).toLowerCase()}${pays.slice(1).replace(/:.*$/, "").replace(/\.$/, "")}` : "";
    // a configuration without the best fit's shape is priced at the best shape it holds: say so here
    const shape = state.acceptance === fit.shape ? "" :
      `, acceptance ${labels.acceptance[state.acceptance]}, α = ${fixed(state.alpha, 2)} (the nearest these settings hold)`;
    // the target and its GPUs as the answer below names them (found once: "on H100 SXM" for
    // Qwen3-32B on two)
    const where = `${labels.target[state.target]} on ${gpusText(manifest, state)}`;
    return `Predicted for ${where} drafting with the ${labels.drafter[state.drafter]}${shape}: ${format("times", speedup)} at ${sequences(state.batch)} and γ = ${state.gamma}; ${bestThere(here)}${rung}.`;
  }

  const exampleButton = root.querySelector("[data-action=metrics-example]");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    // The example's text read again is still the example: its drafter, not the reader's.
    const isExample = exampleButton && textarea.value === exampleButton.dataset.example;
    read(textarea.value, { example: isExample ? exampleButton.dataset.drafter || null : null });
  });
  exampleButton?.addEventListener("click", (event) => {
    const button = event.currentTarget;
    textarea.value = button.dataset.example;
    read(textarea.value, { example: button.dataset.drafter || null });
  });
  // The essay's "Try the example" links land on the box and paste the example (one click).
  // Ours alone: the theme would treat the anchor as a navigation and render the page anew.
  for (const link of document.querySelectorAll("a.spec-metrics-example")) {
    link.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      event.stopPropagation();
      // the example first: its state's history entry records where the reader left the one
      // before, as they were at the link (found by a cold read: recorded after the scroll to the
      // box, Back returned 290 px off)
      exampleButton?.click();
      root.scrollIntoView({ block: "nearest" }); // as little as brings the box into view
      textarea.focus({ preventScroll: true });
    });
  }
  root.querySelector("[data-action=metrics-clear]")?.addEventListener("click", () => {
    textarea.value = "";
    fitted = null;
    reads += 1;
    result.hidden = true;
    say("");
    textarea.focus();
  });
  return {
    // A new state is on screen: the answer follows it (the announcer speaks for the simulation).
    shown(shown) {
      if (!fitted || result.hidden) return;
      try {
        renderAnswer(shown);
      } catch (error) {
        root.querySelector("[data-metrics-answer]").replaceChildren(el("p", `No answer for these settings: ${error.message}`));
      }
      // The announced summary was about the state the read set; under another one its answer is
      // stale, but what was read is not: that stays, with the answer pointed to below (found
      // once: the status emptied by any change under "Your deployment").
      if (fitted.announced && status.textContent && !sameState(shown.state, fitted.announced)) {
        // where the settings do not hold the best fit's shape, the one the answer uses (found by a
        // cold read: "Best fit: acceptance rising, α = 0.50" above an answer at falling, α = 0.65)
        const { state } = shown;
        const nearest = state.acceptance !== fitted.fit.shape && state.alpha === fitted.fit.alphas[state.acceptance]
          ? `, at acceptance ${manifest.labels.acceptance[state.acceptance]}, α = ${fixed(state.alpha, 2)}, the nearest fit they hold` : "";
        const text = `${readStatus()}. The answer below is for the settings now shown${nearest}.`;
        if (status.textContent !== text) say(text);
      }
    },
    controls: root.querySelector("[data-metrics-controls]"),
    // The reader set these fields under "Your deployment" (values by field name).
    chose(values) {
      Object.assign(chosen, values);
    },
    adjust,
    adjustNote,
  };
}
