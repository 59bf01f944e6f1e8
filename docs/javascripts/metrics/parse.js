// Reading a reader's pasted speculative-decoding metrics: the same formats, rules and notes as
// specmodel/metrics/parse.py (whose docstring quotes each engine's source); the tests feed both
// the same texts. Nothing here touches the page: text in, a plain object out.

import { fixed } from "../core/format.js";

// a count as the command line writes it, with thousands separators: a whole count in the
// shortest digits that are the number (a text's "300000000000000000000000" as written, not the
// double's 299,999,999,999,999,991,611,392), as parse.py grouped writes it; else as shown
// (past 2^53, to the 15 significant digits a double holds: 3e23 / 3 is 100,000,000,000,000,000,000,000)
export const grouped = (n) => (Number.isInteger(n) && Math.abs(n) < 1e30
  ? (Math.abs(n) <= 2 ** 53 ? n : Number(n.toPrecision(15))).toLocaleString("en-US", { maximumFractionDigits: 0 })
  : shown(n));

export const MAX_TEXT_CHARS = 20_000_000;
// The most draft positions and running requests the model prices (specmodel/fields.py's γ and
// batch, parse.py's MAX_DRAFT_POSITIONS and MAX_RUNNING_REQUESTS): a reading beyond them is
// refused, as the CLI refuses it, not fitted on its first positions or snapped to the largest
// batch (found once: 40 positions refused by the CLI, fitted on their first 10 here).
export const MAX_DRAFT_POSITIONS = 32;
export const MAX_RUNNING_REQUESTS = 65536;

export const EXAMPLE =
  "SpecDecoding metrics: Mean acceptance length: 2.16, Accepted throughput: 116.40 tokens/s, Drafted " +
  "throughput: 300.00 tokens/s, Accepted: 1164 tokens, Drafted: 3000 tokens, Per-position acceptance rate: " +
  "0.543, 0.357, 0.264, Avg Draft acceptance rate: 38.8%";
export const EXPECTED =
  "vLLM's 'SpecDecoding metrics:' or 'Speculative metrics:' log lines, a Prometheus scrape of " +
  "vllm:spec_decode_* counters, or llama-server 'draft acceptance' lines, for example: " +
  EXAMPLE;

// `recognised`: a text read but unusable (too long), whose problem says what to give instead:
// no list of every readable kind after it (parse.py MetricsInputError).
export class MetricsInputError extends Error {
  constructor(problem, recognised = false) {
    super(recognised ? `${problem}.` : `${problem}. Expected ${EXPECTED}`);
    this.problem = problem;
    this.recognised = recognised;
  }
}

// A number where a log line prints one: signed, so that a negative one is refused as negative, not
// skipped as text; nan is what vLLM prints for an interval without drafts.
const NUMBER = "[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?inf|nan";
const LEADING_NUMBER = new RegExp(`^\\s*(${NUMBER})(?![0-9A-Za-z.])`);

// A number in the text's spelling: JavaScript's Number() reads neither "inf" nor "nan".
function number(text) {
  if (text === "nan") return NaN;
  if (/^[+]?inf$/.test(text)) return Infinity;
  if (text === "-inf") return -Infinity;
  return Number(text);
}

// A number in the text that cannot be (more accepted tokens than drafted, a rate above 1, a NaN
// counter), or text where the engine prints a number. The reading is refused, not fitted: a fit of
// impossible numbers still prints a speedup and a flag. `field` is the field as the text writes it;
// the message is specmodel's ImpossibleMetricsError's, word for word.
export class ImpossibleMetricsError extends MetricsInputError {
  constructor(field, problem, allowed) {
    super(problem);
    this.message = `${field}: ${problem}; allowed: ${allowed}`;
    this.field = field;
    this.allowed = allowed;
  }
}

// Numbers that may well be real but lie past what the model prices (its γ and batch): refused as
// impossible ones are, and said to the reader as the model's limit, not the text's fault.
export class BeyondModelError extends ImpossibleMetricsError {}

// A number in a refusal, written as parse.py's _shown writes it (Python's repr: exponents from
// 1e-4 down and 1e21 up, of two digits at least).
export function shown(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x !== 0 && Math.abs(x) < 1e-4) return x.toExponential().replace(/e([+-])([0-9])$/, "e$10$2");
  // every digit of a large count, as Python's int() writes it (String() rounds past 2^53)
  return Number.isInteger(x) && Math.abs(x) < 1e21 ? BigInt(x).toString() : String(x);
}

function quoted(text) {
  const chars = Array.from(text); // code points, as Python counts them
  return `'${chars.length > 30 ? `${chars.slice(0, 30).join("")}…` : text}'`;
}

// The number after `label` (a regular expression ending in its colon) as the line writes it; null
// where the line lacks the label (parse.py's _log_text).
function logText(label, line) {
  const m = new RegExp(`${label}\\s*([^,\\s]*)`).exec(line);
  return m ? m[1] : null;
}

// The number after `label` (see logText); null where the line lacks the label. Anything else where
// the engine prints a number is refused, not skipped.
function logValue(label, line, field, allowed) {
  const text = logText(label, line);
  if (text === null) return null;
  if (!new RegExp(`^(?:${NUMBER})$`).test(text)) {
    throw new ImpossibleMetricsError(field, text ? `${quoted(text)} is not a number` : "no number follows it", allowed);
  }
  return number(text);
}

const TOKENS = "a whole number of tokens, 0 or more";

function checkCount(field, x, allowed = TOKENS) {
  if (x !== null && !(Number.isFinite(x) && x >= 0 && Number.isInteger(x))) {
    throw new ImpossibleMetricsError(field, `${shown(x)} is not a count`, allowed);
  }
}

const RATES = "a number from 0 to 1 at every position (the share of drafts that reached it)";

// Comma-separated rates, each a share (nan: vLLM's interval without drafts); with `falling`,
// unconditional rates: a draft reaches position j + 1 only through position j. With `trailing`,
// the list ends at its last number (the line's next field follows it); a position before that
// which is not a number is refused, not dropped. The positions are checked in order, so a refusal
// names the first bad one, whatever is wrong with it (found once: "1.750, 0.478, NaN" refused at
// position 3's NaN).
function rateList(text, field, trailing, falling) {
  const items = text.split(",");
  const read = items.map((item) => LEADING_NUMBER.exec(item));
  let last = items.length - 1;
  if (trailing) {
    // the list ends before the line's next field or at the line's end: whatever is between its
    // last number and there is a position too (parse.py _rate_list)
    const next = items.findIndex((item, i) => i > 0 && item.includes(":") && !read[i]);
    last = (next < 0 ? items.length : next) - 1;
    while (last >= 0 && pyStrip(items[last]) === "") last -= 1;
  }
  if (!read.slice(0, last + 1).some(Boolean)) throw new ImpossibleMetricsError(field, `${quoted(pyStrip(items[0]))} is not a number`, RATES);
  const rates = [];
  let before = null; // [position, rate] of the last rate that is not nan
  for (let i = 0; i <= last; i += 1) {
    if (!read[i]) throw new ImpossibleMetricsError(field, `position ${i + 1}, ${quoted(pyStrip(items[i]))}, is not a number`, RATES);
    const p = number(read[i][1]);
    // the value as written, where it is a percentage (parse.py _rate_list)
    if (pyStrip(items[i]).endsWith("%")) throw new ImpossibleMetricsError(field, `${pyStrip(items[i])} at position ${i + 1} is a percentage`, RATES);
    if (!Number.isNaN(p) && !(p >= 0 && p <= 1)) throw new ImpossibleMetricsError(field, `${shown(p)} at position ${i + 1} is not a rate`, RATES);
    if (falling && before !== null && p > before[1]) {
      throw new ImpossibleMetricsError(field, `${shown(p)} at position ${i + 1} is more than the ${shown(before[1])} at position ${before[0]}`,
        "each position's rate at most the one before it (a draft reaches a position only through the ones before it)");
    }
    if (!Number.isNaN(p)) before = [i + 1, p];
    rates.push(p);
  }
  return rates;
}

// Python's str.strip(): the messages quote the same text.
const pyStrip = (text) => text.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, "");

function mostCommon(values) {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)) best = v;
  return best;
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// Why the load priced is one engine's (parse.py DATA_PARALLEL).
const DATA_PARALLEL = "vLLM's data-parallel engines each run their own batch on their own GPUs: one engine's load is the " +
  "batch to price.";

// parse.py Reading.data_parallel: the text comes from several data-parallel engines (its load's
// note says so).
export const dataParallel = (reading) => reading.notes.some((n) => n.includes(DATA_PARALLEL));

const plural = (n, unit) => `${grouped(n)} ${unit}${n === 1 ? "" : "s"}`;

// The note for lines or requests whose numbers of draft positions differ, k the one read (the most
// common; on a tie the first); null where all agree (specmodel/metrics/parse.py gamma_changed).
function gammaChanged(lengths, k, unit) {
  const counts = new Map();
  for (const v of lengths) counts.set(v, (counts.get(v) ?? 0) + 1);
  if (counts.size < 2) return null;
  const tie = [...counts.values()].filter((n) => n === counts.get(k)).length > 1;
  const others = [...counts].filter(([g]) => g !== k).map(([g, n]) => `${plural(n, unit)} at γ = ${g}`).join(" and ");
  const why = tie ? "as many as at another γ, and first in the text" : "more than at any other γ";
  return `γ changed within the text: the fit reads the ${plural(counts.get(k), unit)} at γ = ${k} (${why}) ` +
    `and leaves out ${others}; give ${unit}s of one γ to fit another.`;
}

function reading(source, records, fields = {}) {
  return {
    source,
    records,
    gamma: null,
    num_drafts: null,
    num_draft_tokens: null,
    num_accepted_tokens: null,
    mean_acceptance_length: null,
    per_position_acceptance: null,
    running_requests: null,
    v0_draft_acceptance_rate: null,
    notes: [],
    // parse.py's Reading: the mean one V1 line prints, as text, digit for digit; how each value
    // the text does not print was worked out, by field
    printed_mean_acceptance_length: null,
    derived: {},
    // the model whose samples a Prometheus text was read by (vLLM's model_name label: the first
    // the text names), as a list of one
    model_names: [],
    // what the text's last vLLM start-up line names (startup below), or null
    startup: null,
    // whether the load is the engine-stats lines' "Running: N reqs" (parse.py's Reading)
    running_requests_from_engine_lines: false,
    ...fields,
  };
}

// --- vLLM V1 log lines -------------------------------------------------------------------------

// What a V1 line writes after "SpecDecoding metrics:", in order (parse.py _V1_LABELS).
const V1_LABELS = ["Mean acceptance length", "Accepted throughput", "Drafted throughput", "Accepted", "Drafted",
  "Per-position acceptance rate", "Avg Draft acceptance rate", "Draft acceptance rate"];

// Where a line cut short after a comma, or inside its last field's name, lost the rest, and how
// its end reads: [at, end], or null (parse.py _cut_label).
function cutLabel(line) {
  const at = line.replace(/[\s\x1c-\x1f\x85]+$/, "").lastIndexOf(",");
  if (at < 0) return null;
  let name = pyStrip(line.slice(at + 1));
  if (!name) {
    const fields = line.slice(0, at + 1).split(",");
    return [at, `${pyStrip(fields[fields.length - 2])},`];
  }
  if (name.endsWith(":")) name = name.slice(0, -1);
  return !name.includes(":") && V1_LABELS.some((label) => label.startsWith(name)) ? [at, pyStrip(line.slice(at + 1))] : null;
}

// Whether per-position rates that run to the line's end end inside a number or after a comma
// (parse.py _cut_number).
function cutNumber(ratesText) {
  const text = pyStrip(ratesText);
  if (text.endsWith(",")) return true;
  const items = text.split(",").map(pyStrip);
  const digits = [items[0], items[items.length - 1]].map((item) => /^[0-9]+\.([0-9]*)$/.exec(item));
  return Boolean(digits[1]) && (items[items.length - 1].endsWith(".") ||
    (items.length > 1 && Boolean(digits[0]) && digits[1][1].length < digits[0][1].length));
}

function v1Line(line) {
  const at = line.indexOf("SpecDecoding metrics:");
  if (at < 0) return null;
  line = line.slice(at);
  let cut = null; // the end of a line cut short where what it lost is what the fit reads
  const label = cutLabel(line);
  if (label !== null) {
    const before = line.slice(0, label[0]);
    if (!before.includes("Per-position acceptance rate:")) {
      line = before;
      cut = label[1];
    } else if (!label[1].endsWith(",")) {
      line = before; // a later field's name cut short: the rates before it are whole
    }
  }
  const perPos = /Per-position acceptance rate:(.*)/.exec(line);
  let perPosText = perPos ? perPos[1] : null;
  if (perPos && !/,[^,:]*:/.test(perPos[1]) && cutNumber(perPos[1])) {
    cut = pyStrip(perPos[1]);
    // the positions it does hold are read as any line's; the cut one is not a position
    perPosText = cut.slice(0, cut.lastIndexOf(",") < 0 ? 0 : cut.lastIndexOf(","));
  }
  const x = {
    mean: logValue("Mean acceptance length:", line, "Mean acceptance length", "a number from 1 to γ + 1"),
    meanText: logText("Mean acceptance length:", line),
    accepted: logValue("Accepted:", line, "Accepted", TOKENS),
    drafted: logValue("Drafted:", line, "Drafted", TOKENS),
    per_pos: perPosText && pyStrip(perPosText) ? rateList(perPosText, "Per-position acceptance rate", true, true) : null,
    throughputs: line.includes("Accepted throughput"),
    // 0.8.3 and 0.8.4 print this and the counts, but no per-position rates
    rate: line.includes("Draft acceptance rate:"),
    cut,
  };
  if (!cut) checkV1(x); // (a cut line is left out: its mean and counts belong to rates it no longer shows)
  return x;
}

// vLLM 0.8.5 printed accepted / drafts, without the bonus token: its mean is nearer the sum of the
// rates than 1 + that sum (later versions print the throughputs too).
function leavesOutBonus(x) {
  const s = sum(x.per_pos.map((p) => (Number.isNaN(p) ? 0 : p)));
  return x.mean !== null && !x.throughputs && Math.abs(x.mean - s) < Math.abs(x.mean - 1 - s);
}

function checkV1(x) {
  checkCount("Accepted", x.accepted);
  checkCount("Drafted", x.drafted);
  if (x.accepted !== null && x.drafted !== null && x.accepted > x.drafted) {
    throw new ImpossibleMetricsError("Accepted", `${shown(x.accepted)} tokens, more than the ${shown(x.drafted)} Drafted`,
      "0 to the Drafted tokens (a token is drafted before it is accepted)");
  }
  const mean = x.mean;
  if (mean === null || Number.isNaN(mean)) return;
  let low = 1;
  let high = Infinity;
  let allowed = "1 or more (the bonus token counts)";
  if (x.per_pos && x.per_pos.length) {
    const k = x.per_pos.length;
    if (leavesOutBonus(x)) [low, high, allowed] = [0, k, `0 to γ = ${k} (the line lists ${k} positions and leaves out the bonus token)`];
    else [low, high, allowed] = [1, k + 1, `1 to γ + 1 = ${k + 1} (the line lists ${k} positions)`];
  }
  if (!(Number.isFinite(mean) && low <= mean && mean <= high)) {
    const problem = !Number.isFinite(mean) ? `${shown(mean)} is not a finite number`
      : mean < low ? `${shown(mean)} is less than ${low}` : `${shown(mean)} is more than ${high}`;
    throw new ImpossibleMetricsError("Mean acceptance length", problem, allowed);
  }
  // parse.py _check_v1: a draft holds at most γ tokens, so vLLM's mean is at most
  // 1 + Accepted / (Drafted / γ); above that it cannot be (below, shorter drafts explain it)
  if (x.per_pos && x.per_pos.length && x.accepted !== null && x.drafted) {
    const k = x.per_pos.length;
    const most = 1 + x.accepted / (x.drafted / k);
    const noBonus = leavesOutBonus(x) ? 1 : 0;
    if (mean + noBonus > most + MEAN_PRINT_TOLERANCE) {
      throw new ImpossibleMetricsError("Mean acceptance length", `${shown(mean)} is more than the ${fixed(most - noBonus, 2)} its token counts allow`,
        `at most 1 + Accepted / (Drafted / γ)${noBonus ? " − 1" : ""}, as a draft holds at most γ = ${k} tokens`);
    }
  }
}

// vLLM prints the mean acceptance length to two decimals: a larger gap is a real disagreement.
const MEAN_PRINT_TOLERANCE = 0.01;

// The note for lines whose printed mean acceptance length is not 1 + accepted / (drafted / k);
// `printed` as the line prints it (a cold read found 3.61 quoted for a line printing 2.61).
function meanDisagrees(gaps, lines, k, uneven, printed, noBonus, counted) {
  const added = noBonus ? ` (${fixed(printed + 1, 2)} with 1 added for the bonus token it leaves out)` : "";
  let text = lines === 1
    ? `The line prints a mean acceptance length of ${fixed(printed, 2)}${added}, but its token counts give ` +
      `${fixed(counted, 2)} (1 + accepted / (drafted / ${k})); the printed one is read, as vLLM divides by ` +
      "its own count of drafts."
    : `On ${grouped(gaps.length)} of ${grouped(lines)} lines the printed mean acceptance length differs from the token ` +
      `counts' (1 + accepted / (drafted / ${k})) by up to ${fixed(Math.max(...gaps), 2)}.`;
  if (uneven) {
    text += ` The drafted tokens are not a multiple of ${k}: some drafts were shorter than ${k} positions`;
    text += lines === 1 ? "." : ", so the number of drafts, and the mean read here, are estimates.";
  }
  return text + " The fit uses the per-position rates, not either mean.";
}

// One line's printed mean (+ 1 where it leaves out the bonus token), 1 + the sum of its rates and
// its counts' mean, where they disagree by more than the printing rounds (two decimals for the
// mean, three for each rate): one sentence naming the three, else null (parse.py's _three_means).
function threeMeans(x, k, noBonus, countsSaid = false) {
  if (x.mean === null || x.accepted === null || !x.drafted) return null;
  const printed = x.mean + (noBonus ? 1 : 0);
  const summed = 1 + sum(x.per_pos.map((p) => (Number.isNaN(p) ? 0 : p)));
  const counted = 1 + x.accepted / (x.drafted / k);
  const rounding = MEAN_PRINT_TOLERANCE + 0.0005 * k;
  if (Math.max(printed, summed, counted) - Math.min(printed, summed, counted) <= rounding) return null;
  // two means, not three: the note on the printed mean against the counts says it (parse.py)
  if (Math.abs(printed - summed) <= rounding) return null;
  // the rates agree with the counts: the printed mean alone is apart (parse.py)
  if (Math.abs(summed - counted) <= rounding) {
    return countsSaid ? null : `The printed mean acceptance length${noBonus ? " + 1 (the bonus token)" : ""} gives ` +
      `${fixed(printed, 2)}, apart from 1 + the sum of the per-position rates and the token counts, which agree on ${fixed(counted, 2)}.`;
  }
  // the note before compares the printed mean with the counts: only the rates' sum is news (parse.py)
  if (countsSaid) return `1 + the sum of the per-position rates gives ${fixed(summed, 2)}, apart from both by more than rounding.`;
  return "The line's three means disagree by more than rounding: the printed mean acceptance length" +
    `${noBonus ? " + 1 (the bonus token)" : ""} gives ${fixed(printed, 2)}, 1 + the sum of the per-position rates ` +
    `${fixed(summed, 2)}, and the token counts (1 + accepted / (drafted / ${k})) ${fixed(counted, 2)}.`;
}

// The mean acceptance length one line prints, as it prints it (null for several lines, or none
// printed).
function printedMean(used) {
  const mean = used.length === 1 ? used[0].mean : null;
  return mean === null || Number.isNaN(mean) ? null : used[0].meanText;
}

// What a 'SpecDecoding metrics:' line prints in one vLLM version or another (0.8.3 on).
export const V1_FIELDS = ["Mean acceptance length", "Accepted", "Drafted", "Per-position acceptance rate", "Draft acceptance rate"];

// The note for 'SpecDecoding metrics:' lines with none of V1_FIELDS (parse.py's _unreadable_v1).
function unreadableV1(lines) {
  const which = lines === 1 ? "The line has" : `The ${grouped(lines)} lines have`;
  return `${which} none of the fields vLLM prints after 'SpecDecoding metrics:' (${V1_FIELDS.join(", ")}), so ` +
    `${lines === 1 ? "it" : "they"} could not be read; give whole lines as vLLM logs them.`;
}

// The note for V1 lines cut short (`cut`: where each ends), of `lines` (parse.py _cut_v1).
function cutV1(cut, lines) {
  const end = `'…${cut[cut.length - 1]}'`;
  if (cut.length === lines) {
    const which = lines === 1 ? "The line is" : `The ${grouped(lines)} lines are`;
    return `${which} cut off before ${lines === 1 ? "its" : "their"} end (the last ends ${end}), so the ` +
      "per-position acceptance rates are missing or incomplete; give whole lines as vLLM logs them.";
  }
  return `${grouped(cut.length)} of ${plural(lines, "line")} were left out: cut off before their end (the last ends ` +
    `${end}); give whole lines as vLLM logs them.`;
}

function poolV1(allLines) {
  const notes = [];
  // A line cut short is left out: what it holds is not what vLLM measured over its interval.
  const lines = allLines.filter((x) => !x.cut);
  const cut = allLines.filter((x) => x.cut).map((x) => x.cut);
  if (lines.length === 0) return reading("vLLM V1 log", allLines.length, { notes: [cutV1(cut, allLines.length)] });
  if (cut.length) notes.push(cutV1(cut, allLines.length));
  const withPos = lines.filter((x) => x.per_pos && x.per_pos.length > 0);
  if (!lines.some((x) => (x.per_pos && x.per_pos.length) || x.rate || x.mean !== null || x.accepted !== null || x.drafted !== null)) {
    // A line with none of the fields any vLLM version prints is unreadable (cut short, or not
    // vLLM's), not an old version's: found once, "SpecDecoding metrics: garbage" told to paste a
    // line from vLLM 0.8.5 or later.
    return reading("vLLM V1 log", allLines.length, { notes: [...notes, unreadableV1(lines.length)] });
  }
  if (withPos.length === 0) {
    const means = lines.filter((x) => x.mean !== null).map((x) => x.mean);
    const drafted = sum(lines.map((x) => x.drafted ?? 0));
    notes.push(
      "The lines have no per-position acceptance rates (vLLM 0.8.3 and 0.8.4 print none), so the number of " +
        "draft positions and the shape of acceptance cannot be told; give a line from vLLM 0.8.5 or later, or " +
        "the Prometheus counters.",
    );
    return reading("vLLM V1 log", allLines.length, {
      num_draft_tokens: drafted || null,
      num_accepted_tokens: sum(lines.map((x) => x.accepted ?? 0)),
      mean_acceptance_length: means.length ? means[means.length - 1] : null,
      notes,
    });
  }
  const k = mostCommon(withPos.map((x) => x.per_pos.length));
  const used = withPos.filter((x) => x.per_pos.length === k);
  if (withPos.length < lines.length) {
    notes.push(`${grouped(lines.length - withPos.length)} of ${grouped(lines.length)} lines were left out: they have no per-position rates.`);
  }
  const changed = gammaChanged(withPos.map((x) => x.per_pos.length), k, "line");
  if (changed) notes.push(changed);
  let noBonus = false;
  let drafts = 0;
  let accepted = 0;
  let drafted = 0;
  const weighted = new Array(k).fill(0);
  const gaps = []; // |printed mean − the counts' mean| on the lines where they disagree
  let uneven = false;
  for (const x of used) {
    const pos = x.per_pos.map((p) => (Number.isNaN(p) ? 0 : p));
    const s = sum(pos);
    const lineNoBonus = leavesOutBonus(x);
    noBonus = noBonus || lineNoBonus;
    const d = x.drafted !== null ? x.drafted / k : 1;
    if (x.drafted !== null && x.drafted % k) uneven = true;
    if (x.mean !== null && x.accepted !== null && d > 0) {
      const gap = Math.abs(x.mean + (lineNoBonus ? 1 : 0) - (1 + x.accepted / d));
      if (gap >= MEAN_PRINT_TOLERANCE) gaps.push(gap);
    }
    drafts += d;
    accepted += x.accepted !== null ? x.accepted : d * s;
    drafted += x.drafted !== null ? x.drafted : d * k;
    pos.forEach((p, j) => {
      weighted[j] += p * d;
    });
  }
  if (noBonus) notes.push("The mean acceptance length leaves out the bonus token, as vLLM 0.8.5 printed it; 1 was added.");
  if (drafts <= 0) {
    notes.push("The lines count no drafts: nothing was speculated in their interval.");
    return reading("vLLM V1 log", allLines.length, { gamma: k, notes });
  }
  if (used.length > 1) notes.push(`${grouped(used.length)} lines were pooled, each weighted by its number of drafts (drafted tokens / ${k}).`);
  const perPosition = weighted.map((w) => w / drafts);
  let mean = 1 + accepted / drafts;
  const derived = { num_drafts: `drafted tokens / ${k}`, mean_acceptance_length: "1 + accepted / drafts" };
  if (gaps.length) {
    const printed = used[0].mean + (noBonus ? 1 : 0);
    notes.push(meanDisagrees(gaps, used.length, k, uneven, used[0].mean, noBonus, mean));
    if (used.length === 1 && printed > 1 && used[0].accepted !== null) {
      // vLLM divides by its own count of drafts: one line's printed mean is the better one
      mean = printed;
      drafts = accepted / (printed - 1);
      derived.num_drafts = noBonus ? "accepted / the printed mean acceptance length"
        : "accepted / (the printed mean acceptance length − 1)";
      if (noBonus) derived.mean_acceptance_length = `the printed ${fixed(used[0].mean, 2)} + 1 for the bonus token`;
      else delete derived.mean_acceptance_length;
    }
  }
  const three = used.length === 1 ? threeMeans(used[0], k, noBonus, gaps.length > 0) : null;
  if (three) notes.push(three);
  // Lines without token counts were weighted as one draft each: counts made up for them are not shown.
  const counted = used.every((x) => x.accepted !== null && x.drafted !== null);
  return reading("vLLM V1 log", allLines.length, {
    gamma: k,
    num_drafts: counted ? drafts : null,
    num_draft_tokens: counted ? drafted : null,
    num_accepted_tokens: counted ? accepted : null,
    mean_acceptance_length: mean,
    per_position_acceptance: perPosition,
    notes,
    printed_mean_acceptance_length: printedMean(used),
    derived: counted ? derived : { mean_acceptance_length: "1 + the sum of the per-position rates" },
  });
}

// --- vLLM V0 log lines -------------------------------------------------------------------------

function v0Line(line) {
  const at = line.indexOf("Speculative metrics:");
  if (at < 0) return null;
  line = line.slice(at);
  const x = {
    rate: logValue("Draft acceptance rate:", line, "Draft acceptance rate", "a number from 0 to 1"),
    k: logValue("Number of speculative tokens:", line, "Number of speculative tokens", TOKENS),
    accepted: logValue("Number of accepted tokens:", line, "Number of accepted tokens", TOKENS),
    drafted: logValue("Number of draft tokens(?: tokens)?:", line, "Number of draft tokens", TOKENS),
    emitted: logValue("Number of emitted tokens(?: tokens)?:", line, "Number of emitted tokens", TOKENS),
  };
  checkV0(x);
  return x;
}

function checkV0(x) {
  const { rate, k, drafted, emitted } = x;
  if (rate !== null && !Number.isNaN(rate) && !(rate >= 0 && rate <= 1)) {
    throw new ImpossibleMetricsError("Draft acceptance rate", `${shown(rate)} is not a rate`, "a number from 0 to 1");
  }
  checkCount("Number of speculative tokens", k);
  checkCount("Number of accepted tokens", x.accepted);
  checkCount("Number of draft tokens", drafted);
  checkCount("Number of emitted tokens", emitted);
  if (x.accepted !== null && drafted !== null && x.accepted > drafted) {
    throw new ImpossibleMetricsError("Number of accepted tokens", `${shown(x.accepted)}, more than the ${shown(drafted)} draft tokens`,
      "0 to the Number of draft tokens");
  }
  if (!k || drafted === null) return;
  // V0 drafts all k positions at every step: its draft tokens are steps × k
  if (drafted % k) {
    throw new ImpossibleMetricsError("Number of draft tokens", `${shown(drafted)} is not a multiple of the ${shown(k)} speculative tokens`,
      `a multiple of ${shown(k)}`);
  }
  const drafts = drafted / k;
  if (emitted !== null && drafts && !(drafts <= emitted && emitted <= drafts * (k + 1))) {
    throw new ImpossibleMetricsError("Number of emitted tokens",
      `${shown(emitted)} in ${shown(drafts)} drafts is a mean acceptance length outside 1 to γ + 1 = ${shown(k + 1)}`,
      `${shown(drafts)} to ${shown(drafts * (k + 1))}`);
  }
  // every token of an accepted prefix passed its test, which V0 counts (parse.py _check_v0)
  if (x.accepted !== null && emitted !== null && x.accepted < emitted - drafts) {
    throw new ImpossibleMetricsError("Number of accepted tokens",
      `${shown(x.accepted)}, fewer than the ${shown(emitted - drafts)} tokens of the accepted prefixes (emitted − drafts)`,
      `${shown(emitted - drafts)} to ${shown(drafted)} (every token of an accepted prefix passed its test)`);
  }
}

function readV0(lines) {
  const last = lines[lines.length - 1];
  const notes = ["vLLM V0 counts since the server started, so the last line was read (it holds the whole run)."];
  const { k, drafted, emitted } = last;
  if (!k || drafted === null || emitted === null) {
    notes.push("The line lacks the number of speculative, draft or emitted tokens needed for the mean acceptance length.");
    return reading("vLLM V0 log", lines.length, { v0_draft_acceptance_rate: last.rate, notes });
  }
  const ks = lines.map((x) => x.k).filter((g) => g);
  const settings = ks.filter((g, i) => i === 0 || g !== ks[i - 1]);
  if (settings.length > 1) {
    // V0's counters start again with the server: the last line holds only the run since
    notes[0] = `γ changed within the text (Number of speculative tokens ${settings.join(", then ")}): the server ` +
      `restarted, and vLLM V0 counts since it started, so the last line was read, at γ = ${k}; it holds only the ` +
      "run since the restart.";
  }
  if (drafted === 0) {
    notes.push("The line counts no draft tokens: nothing was speculated yet.");
    return reading("vLLM V0 log", lines.length, { gamma: k, v0_draft_acceptance_rate: last.rate, notes });
  }
  const drafts = drafted / k;
  let rate = last.rate;
  if (last.accepted !== null && rate !== null && Math.abs(rate - last.accepted / drafted) > 0.0005) {
    // V0's rate is accepted / draft tokens: the counts are exact (parse.py _read_v0)
    notes.push(`The line prints a draft acceptance rate of ${fixed(rate, 3)}, but its token counts give ` +
      `${fixed(last.accepted / drafted, 3)} (accepted / draft tokens); the counts are read.`);
    rate = last.accepted / drafted;
  }
  notes.push("V0 prints no per-position rates: the shape of acceptance is told from its draft acceptance rate (see the fit).");
  notes.push(
    "V0's draft acceptance rate counts every draft token that passes its test, even after an earlier " +
      "rejection: an estimate of α averaged over positions, not the share of drafts accepted.",
  );
  return reading("vLLM V0 log", lines.length, {
    gamma: k,
    num_drafts: drafts,
    num_draft_tokens: drafted,
    num_accepted_tokens: emitted - drafts,
    mean_acceptance_length: emitted / drafts,
    v0_draft_acceptance_rate: rate,
    notes,
    derived: { num_drafts: "draft tokens / γ", num_accepted_tokens: "emitted tokens − drafts", mean_acceptance_length: "emitted tokens / drafts" },
  });
}

// --- llama-server lines ------------------------------------------------------------------------

const LLAMA = /draft acceptance(?: rate)? = ([0-9]+(?:\.[0-9]*)?) \(\s*([0-9]+) accepted \/\s*([0-9]+) generated\)(?:, mean len =\s*([0-9]+(?:\.[0-9]*)?))?/;
const LLAMA_POS = /acc per pos = \(([^)]*)\)/;

function readLlama(lines) {
  const notes = [];
  let requests = [];
  for (const line of lines) {
    const m = LLAMA.exec(line);
    if (m) {
      const request = { accepted: Number(m[2]), drafted: Number(m[3]), mean: m[4] ? Number(m[4]) : null, per_pos: null };
      if (Number(m[1]) > 1) throw new ImpossibleMetricsError("draft acceptance", `${shown(Number(m[1]))} is not a rate`, "a number from 0 to 1");
      if (request.accepted > request.drafted) {
        throw new ImpossibleMetricsError("accepted", `${shown(request.accepted)}, more than the ${shown(request.drafted)} generated`,
          "0 to the generated draft tokens");
      }
      if (request.mean !== null && request.mean < 1) {
        throw new ImpossibleMetricsError("mean len", `${shown(request.mean)} is less than 1`, "1 or more (the bonus token counts)");
      }
      requests.push(request);
      continue;
    }
    const p = LLAMA_POS.exec(line);
    if (p && requests.length) {
      // llama-server's rates are not documented as unconditional: only their range is checked
      requests[requests.length - 1].per_pos = rateList(p[1], "acc per pos", false, false);
    }
  }
  const records = requests.length;
  let accepted = sum(requests.map((r) => r.accepted));
  let drafted = sum(requests.map((r) => r.drafted));
  let withMean = requests.filter((r) => r.mean !== null && r.mean > 1);
  const withPos = withMean.filter((r) => r.per_pos && r.per_pos.length);
  let gamma = null;
  if (withPos.length) {
    // what the fit reads is what the counts and the mean are of: the requests at one γ, with their
    // rates (parse.py _read_llama)
    gamma = mostCommon(withPos.map((r) => r.per_pos.length));
    const used = withPos.filter((r) => r.per_pos.length === gamma);
    if (withPos.length < records) {
      notes.push(`${records - withPos.length} of ${plural(records, "request")} were left out: they have no 'acc per pos' line or no mean len.`);
    }
    const changed = gammaChanged(withPos.map((r) => r.per_pos.length), gamma, "request");
    if (changed) notes.push(changed);
    requests = withMean = used;
    accepted = sum(used.map((r) => r.accepted));
    drafted = sum(used.map((r) => r.drafted));
  }
  if (withMean.length === 0) {
    notes.push(
      "These llama-server lines give accepted / drafted tokens only (no mean len): the number of verify passes, " +
        "and so the mean acceptance length, cannot be told.",
    );
    return reading("llama-server log", records, { num_draft_tokens: drafted, num_accepted_tokens: accepted, notes });
  }
  const steps = (r) => r.accepted / (r.mean - 1);
  const drafts = sum(withMean.map(steps));
  const mean = 1 + sum(withMean.map((r) => r.accepted)) / drafts;
  let perPos = null;
  if (withPos.length) {
    const total = sum(requests.map(steps));
    perPos = Array.from({ length: gamma }, (_, j) => sum(requests.map((r) => r.per_pos[j] * steps(r))) / total);
  } else {
    notes.push(
      "No 'acc per pos' lines (llama-server prints them at trace level), so the number of draft positions and " +
        "the shape of acceptance cannot be told.",
    );
  }
  if (requests.length > 1) notes.push(`${grouped(requests.length)} requests were pooled, each weighted by its verify passes.`);
  return reading("llama-server log", records, {
    gamma,
    num_drafts: drafts,
    num_draft_tokens: drafted,
    num_accepted_tokens: accepted,
    mean_acceptance_length: mean,
    per_position_acceptance: perPos,
    notes,
    derived: { num_drafts: "accepted / (the printed mean acceptance length − 1), summed over requests", mean_acceptance_length: "1 + accepted / drafts" },
  });
}

// --- Prometheus text format --------------------------------------------------------------------

const SAMPLE = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const COUNTERS = [
  "spec_decode_num_drafts",
  "spec_decode_num_draft_tokens",
  "spec_decode_num_accepted_tokens",
  "spec_decode_num_accepted_tokens_per_pos",
];

function metric(name) {
  const colon = name.indexOf(":");
  if (colon < 0) return null;
  const prefix = name.slice(0, colon);
  let rest = name.slice(colon + 1);
  if ((prefix !== "vllm" && prefix !== "llamacpp") || !rest || rest.endsWith("_created")) return null;
  if (rest.endsWith("_total")) rest = rest.slice(0, -"_total".length);
  if (COUNTERS.includes(rest) || rest === "num_requests_running" || rest === "spec_decode_num_emitted_tokens") {
    return [prefix, rest];
  }
  return null;
}

// A sample's value as the text format writes it (Go-style floats, NaN, ±Inf); null otherwise.
function promValue(text) {
  if (["+Inf", "Inf", "inf", "+inf"].includes(text)) return Infinity;
  if (["-Inf", "-inf"].includes(text)) return -Infinity;
  if (text === "NaN" || text === "nan") return NaN;
  if (!/^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(text)) return null;
  return Number(text);
}

function isSample(line) {
  if (line.trimStart().startsWith("#")) return false;
  const m = SAMPLE.exec(line);
  return Boolean(m && metric(m[1]));
}

const COUNT = "a number from 0 up (a count)";

// Also returns each metric's name as the text writes it, for the refusals, and the models its
// samples name (vLLM's model_name label), sorted as parse.py sorts them. A value that is not a
// count (NaN, ±Inf, negative, not a number) is refused: read as 0 it became "no drafts".
function scrapes(lines) {
  const out = [];
  let seen = new Set();
  let current = new Map();
  let prefix = "";
  const names = new Map();
  const models = []; // in the order the text names them
  for (const line of lines) {
    if (line.trimStart().startsWith("#")) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const named = metric(m[1]);
    if (!named) continue;
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(LABEL)].map((x) => [x[1], x[2]]));
    const model = labels.model_name;
    if (model && !models.includes(model)) models.push(model);
    // vLLM serves one model a server: another model's samples are another server's (parse.py _scrapes)
    if (model && model !== models[0]) continue;
    const value = promValue(m[3]);
    if (value === null) throw new ImpossibleMetricsError(m[1], `${quoted(m[3])} is not a number`, COUNT);
    if (!(Number.isFinite(value) && value >= 0)) throw new ImpossibleMetricsError(m[1], `${m[3]} is not a count`, COUNT);
    prefix = prefix || named[0];
    if (!names.has(named[1])) names.set(named[1], m[1]);
    if (named[1] === "spec_decode_num_accepted_tokens_per_pos" && !/^[0-9]+$/.test(labels.position ?? "")) {
      const problem = "position" in labels ? `position=${quoted(labels.position)} is not a position` : "a sample without a position label";
      throw new ImpossibleMetricsError(m[1], problem, 'a position="0", "1", … label on every sample');
    }
    const series = m[1] + JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));
    if (seen.has(series)) {
      out.push(current);
      current = new Map();
      seen = new Set();
    }
    seen.add(series);
    // the running gauge by engine: vLLM's data-parallel engines each run their own batch
    const key = `${named[1]}|${named[1] === "num_requests_running" ? labels.engine ?? "" : labels.position ?? ""}`;
    current.set(key, (current.get(key) ?? 0) + value);
  }
  if (current.size) out.push(current);
  return { prefix, scrapes: out, names, models };
}

// How much of a served model's name a note quotes (parse.py MODEL_NAME_CHARS, quoted_name).
const MODEL_NAME_CHARS = 60;
export const quotedName = (n) => `'${[...n].length > MODEL_NAME_CHARS ? `${[...n].slice(0, MODEL_NAME_CHARS).join("")}…` : n}'`;

// The note for a scrape of several servers: the first model's samples were read (parse.py _other_models).
function otherModels(models) {
  const others = models.slice(1).map(quotedName).join(", ");
  return `The text holds the metrics of ${grouped(models.length)} models (their model_name labels), so of as many servers: ` +
    `only those of ${quotedName(models[0])}, the first, were read, and those of ${others} left out; give one server's scrapes.`;
}

// Counts over one window that cannot be: more accepted tokens than drafted, drafts of more
// positions than the counters list, a position reached by more drafts than the one before it.
// `endsAt`: the position of the text's last line where it is a per-position sample (parse.py).
function checkWindow(names, drafts, drafted, accepted, positions, endsAt = null) {
  const gamma = positions.length || null;
  const name = (key) => names.get(key);
  const perPos = name("spec_decode_num_accepted_tokens_per_pos");
  if (positions.length) {
    const start = positions[0][0];
    const gap = positions.findIndex(([p], i) => p !== start + i);
    if (gap >= 0) {
      throw new ImpossibleMetricsError(perPos, `position ${start + gap} is missing`,
        `every position from ${start} to ${positions[positions.length - 1][0]}`);
    }
  }
  if (drafted !== null && !(drafts <= drafted && drafted <= (gamma ?? Infinity) * drafts)) {
    const allowed = gamma ? `${shown(drafts)} to ${shown(gamma * drafts)} (1 to γ = ${gamma} tokens a draft)`
      : `${shown(drafts)} or more (at least 1 token a draft)`;
    const cut = endsAt !== null && gamma && drafted > gamma * drafts
      ? ` (the scrape ends with position ${endsAt}'s sample: if it is cut off there, give whole scrapes)` : "";
    throw new ImpossibleMetricsError(name("spec_decode_num_draft_tokens"), `${shown(drafted)} draft tokens in ${shown(drafts)} drafts${cut}`, allowed);
  }
  const ceiling = drafted !== null ? drafted : gamma ? gamma * drafts : null;
  if (accepted !== null && ceiling !== null && accepted > ceiling) {
    throw new ImpossibleMetricsError(name("spec_decode_num_accepted_tokens"),
      `${shown(accepted)} accepted tokens, more than the ${shown(ceiling)} drafted`,
      `0 to ${shown(ceiling)} (a token is drafted before it is accepted)`);
  }
  positions.forEach(([p, v], j) => {
    if (v > drafts) {
      throw new ImpossibleMetricsError(perPos, `${shown(v)} at position ${p}, more than the ${shown(drafts)} drafts`,
        `0 to ${shown(drafts)} at every position`);
    }
    if (j && v > positions[j - 1][1]) {
      throw new ImpossibleMetricsError(perPos, `${shown(v)} at position ${p}, more than the ${shown(positions[j - 1][1])} at position ${positions[j - 1][0]}`,
        "each position at most the one before it (a draft reaches a position only through the ones before it)");
    }
  });
}

// Whether a counter (not the running gauge) of `after` is lower than in `before` (parse.py's _went_down).
function wentDown(before, after) {
  return [...after].some(([k, v]) => !k.startsWith("num_requests_running|") && before.has(k) && v < before.get(k));
}

// A scrape's running gauges, one per engine, and its running requests per engine (parse.py _gauges, _load).
const gaugesOf = (scrape) => [...scrape].filter(([k]) => k.startsWith("num_requests_running|")).map(([, v]) => v);
function load(scrape) {
  const gauges = gaugesOf(scrape);
  return gauges.length ? sum(gauges) / gauges.length : null;
}

// The note for a window over which the running gauge (per engine) moved by a doubling or more:
// the answer prices the last scrape's (parse.py _load_moved, LOAD_MOVED_RATIO).
const LOAD_MOVED_RATIO = 2;
function loadMoved(first, last, scrapes, perEngine) {
  const a = load(first);
  const b = load(last);
  if (a === null || b === null || Math.max(a, b) < LOAD_MOVED_RATIO * Math.min(a, b) || a === b) return null;
  return `vllm:num_requests_running was ${grouped(a)}${perEngine ? " per engine" : ""} in the first of the ` +
    `${grouped(scrapes)} scrapes and ${grouped(b)} in the last: the load moved over the window, and the answer prices the last scrape's.`;
}

function readPrometheus(lines, endsAt = null) {
  const { prefix, scrapes: all, names, models } = scrapes(lines);
  if (all.length === 0) return null; // no sample of ours
  const source = prefix === "vllm" ? "Prometheus (vLLM)" : "Prometheus (llama.cpp)";
  // every reading of this text says which model it read (the answer says where it prices another)
  const read = (records, fields) => reading(source, records, { ...fields, model_names: models.slice(0, 1) });
  const notes = [];
  if (models.length > 1) notes.push(otherModels(models));
  const last = all[all.length - 1];
  const gauges = gaugesOf(last);
  const running = load(last);
  if (gauges.length > 1) {
    notes.push(`vllm:num_requests_running: ${grouped(sum(gauges))} over ${grouped(gauges.length)} engines, ${grouped(running)} per engine. ${DATA_PARALLEL}`);
  }
  const values = new Map();
  const counted = [...last].filter(([k]) => !k.startsWith("num_requests_running|"));
  // A counter lower than in the scrape before: the server restarted there, and only the scrapes
  // since then are one run (parse.py)
  let start = 0;
  for (let i = 1; i < all.length; i++) if (wentDown(all[i - 1], all[i])) start = i;
  const run = all.slice(start);
  const restart = start ? `The counters went down between scrapes ${start} and ${start + 1}: the server restarted, ` : "";
  let window;
  if (run.length >= 2) {
    for (const [k, v] of counted) values.set(k, v - (run[0].get(k) ?? 0));
    const moved = loadMoved(run[0], last, run.length, gauges.length > 1);
    if (moved) notes.push(moved);
    window = start
      ? `${restart}so the ${grouped(run.length)} scrapes since were read, as the change from the first to the last.`
      : `${grouped(all.length)} scrapes: the counters were read as the change from the first to the last.`;
  } else {
    for (const [k, v] of counted) values.set(k, v);
    window = start
      ? `${restart}so the last scrape was read alone: its counters are totals since the restart; give two scrapes of one run, taken a while apart, for the recent rate.`
      : "One scrape: its counters are totals since the server started; give two scrapes taken a while apart for the recent rate.";
  }
  const get = (name) => (values.has(`${name}|`) ? values.get(`${name}|`) : null);
  const drafts = get("spec_decode_num_drafts");
  const drafted = get("spec_decode_num_draft_tokens");
  const accepted = get("spec_decode_num_accepted_tokens");
  const positions = [...values]
    .filter(([k]) => k.startsWith("spec_decode_num_accepted_tokens_per_pos|") && /^[0-9]+$/.test(k.split("|")[1]))
    .map(([k, v]) => [Number(k.split("|")[1]), v])
    .sort((a, b) => a[0] - b[0]);
  if (values.has("spec_decode_num_emitted_tokens|") && drafts === null) {
    notes.push(
      "This is a vLLM V0 scrape, whose spec_decode counters add their own running totals again at every export " +
        "(vLLM pull request #15415); give V0's 'Speculative metrics:' log line instead.",
    );
    return read(all.length, { running_requests: running, notes });
  }
  if (drafts === null && drafted === null && accepted === null) {
    notes.push(
      "The scrape has no spec_decode counters: the server is not speculating, or these are another server's metrics.",
    );
    return read(all.length, { running_requests: running, notes });
  }
  if ([...values.values()].some((v) => v < 0)) {
    notes.push("The counters went down between the scrapes: the server restarted; give two scrapes of one run.");
    return read(all.length, { running_requests: running, notes });
  }
  if (!drafts) {
    notes.push(
      "The counters show no drafts (num_drafts is missing or did not move): nothing was speculated in this window.",
    );
    return read(all.length, {
      num_drafts: drafts,
      num_draft_tokens: drafted,
      num_accepted_tokens: accepted,
      running_requests: running,
      notes,
    });
  }
  checkWindow(names, drafts, drafted, accepted, positions, endsAt);
  // how the counters were read, said where they were (parse.py)
  notes.push(window);
  if (!positions.length) {
    const why = prefix === "vllm" ? "vLLM before 0.8.5" : "llama.cpp before its first finished speculative request";
    notes.push(`No per-position counters (${why}), so the shape of acceptance cannot be told.`);
  }
  return read(all.length, {
    gamma: positions.length ? positions.length : drafted ? Math.round(drafted / drafts) : null,
    num_drafts: drafts,
    num_draft_tokens: drafted,
    num_accepted_tokens: accepted,
    mean_acceptance_length: accepted !== null ? 1 + accepted / drafts : null,
    per_position_acceptance: positions.length ? positions.map(([, v]) => v / drafts) : null,
    running_requests: running,
    notes,
    derived: accepted !== null ? { mean_acceptance_length: "1 + accepted / drafts" } : {},
  });
}

// --- vLLM engine-stats lines ------------------------------------------------------------------

// vLLM's periodic engine line (V1 vllm/v1/metrics/loggers.py: "Engine 000: Avg prompt throughput:
// …, Running: 16 reqs, Waiting: 0 reqs, …"; V0: "Avg prompt throughput: …, Running: 8 reqs,
// Swapped: …"): its Running count is the load the essay tells readers to read.
const RUNNING = /Running: ([0-9]+) reqs/;
// parse.py SPREAD_RATIO: engine lines whose running counts differ by more than this factor span a changing load.
export const SPREAD_RATIO = 4;
const ENGINE = /Engine ([0-9]+):/;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// The concurrent requests the engine-stats lines report, and the note that says how, as
// parse.py's _engine_running: per engine the median "Running: N reqs" of its lines (the median,
// so that one ramp-up or drain interval does not move it), averaged over engines (DATA_PARALLEL).
// Lines with Running: 0 are idle intervals, in which nothing is drafted: left out. null without
// such lines.
function engineRunning(lines) {
  const byEngine = new Map();
  let idle = 0;
  for (const line of lines) {
    const m = RUNNING.exec(line);
    if (!m) continue;
    if (Number(m[1]) === 0) {
      idle += 1;
      continue;
    }
    const engine = ENGINE.exec(line);
    const key = engine ? engine[1] : "";
    if (!byEngine.has(key)) byEngine.set(key, []);
    byEngine.get(key).push(Number(m[1]));
  }
  if (byEngine.size === 0 && !idle) return null;
  const busy = sum([...byEngine.values()].map((v) => v.length));
  const running = sum([...byEngine.values()].map(median)) / Math.max(1, byEngine.size);
  let note;
  if (byEngine.size === 0) {
    note = `${idle === 1 ? "The engine log line reports" : `All ${grouped(idle)} engine log lines report`} Running: 0 reqs ` +
      `(idle): the load cannot be told from ${idle === 1 ? "it" : "them"}.`;
  } else if (busy === 1) {
    note = `Running requests: ${grouped(running)}, the 'Running: N reqs' of the one engine log line.`;
  } else if (byEngine.size === 1) {
    note = `Running requests: ${grouped(running)}, the median of the 'Running: N reqs' of ${grouped(busy)} engine log lines.`;
  } else {
    note = `Running requests: ${grouped(running)} per engine, the median of each engine's 'Running: N reqs' ` +
      `(${grouped(busy)} lines) averaged over ${grouped(byEngine.size)} engines. ${DATA_PARALLEL}`;
  }
  if (idle && byEngine.size) note += ` ${grouped(idle)} line${idle !== 1 ? "s" : ""} with Running: 0 reqs (idle, nothing drafted) left out.`;
  const medians = [...byEngine.values()].map(median);
  if (medians.length > 1 && Math.max(...medians) > SPREAD_RATIO * Math.min(...medians)) {
    // engines at very different loads: their average is no engine's (parse.py)
    note += ` The engines' loads differ (${medians.map(grouped).join(", ")}): their average is no engine's load; price each engine's on its own.`;
  }
  // a load that changed a lot over the text: one γ for its median fits neither end (parse.py)
  let lo = 1, hi = 1;
  for (const v of byEngine.values()) {
    const [a, b] = [Math.min(...v), Math.max(...v)];
    if (b / a > hi / lo) [lo, hi] = [a, b];
  }
  if (hi > SPREAD_RATIO * lo) {
    note += ` The lines range from ${grouped(lo)} to ${grouped(hi)} running requests: the load changed over the text, ` +
      "and the γ by load below follows it where one γ cannot.";
  }
  return { running, note };
}

// --- the entry point ---------------------------------------------------------------------------

// `text` (log lines and/or a scrape; other lines are ignored) read into a reading, as parse.py's
// parse_metrics: Prometheus counters win over log lines. Throws MetricsInputError when nothing in
// it is readable or it is too long, ImpossibleMetricsError when a number in it cannot be or the
// model cannot price it.
export function parseMetrics(text) {
  if (text.length > MAX_TEXT_CHARS) {
    throw new MetricsInputError(
      `the text has ${grouped(text.length)} characters, more than the ` +
        `${grouped(MAX_TEXT_CHARS)} read; give the last few log lines or one or two scrapes`,
      true,
    );
  }
  const lines = text.split(/\r\n|\r|\n/);
  const reading = readText(lines);
  const positions = reading.per_position_acceptance?.length ?? 0;
  const { read, note: serversNote } = startup(lines, positions, reading.model_names);
  reading.startup = read;
  const told = read?.num_speculative_tokens;
  // a start-up line of one run and the metrics of another (parse.py parse_metrics)
  if (told && positions && told !== positions) {
    reading.notes = [startupGamma(told, positions, read.said_in, Boolean(serversNote)), ...reading.notes];
  }
  if (serversNote) reading.notes = [serversNote, ...reading.notes];
  if (reading.running_requests === null) {
    // the scrape's gauge, where there is one, is exact; else the engine-stats lines tell the load
    const engine = engineRunning(lines.filter((l) => l.includes("Running:")));
    // first: the last note is the one a failed fit quotes as what is missing
    if (engine) {
      return checkLimits({ ...reading, running_requests: engine.running, notes: [engine.note, ...reading.notes],
        running_requests_from_engine_lines: true });
    }
  }
  return checkLimits(reading);
}

// vLLM's start-up line: "Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B',
// speculative_config=SpeculativeConfig(method='eagle3', model='…', num_spec_tokens=3), …"
// (vllm/config SpeculativeConfig.__repr__; model=None for n-gram and suffix decoding).
const STARTUP_MODEL = /with config: model='([^']*)'/;
// (model= optional, as parse.py: a line shortened by hand to its method names that drafter)
const STARTUP_SPECULATIVE = /speculative_config=SpeculativeConfig\(method='([^']*)'(?:, model=(?:'([^']*)'|None))?/;
const STARTUP_TP = /\btensor_parallel_size=(\d{1,6})\b/;
// a line cut before "with config:": its model='…' ahead of the speculative config (parse.py)
const STARTUP_ANY_MODEL = /(?:^|[\s(,])model='([^']*)'/;
// vLLM's other start-up line, "non-default args: {'model': '…', 'speculative_config': {'method':
// '…', 'model': '…', …}, 'tensor_parallel_size': 2}" (parse.py _ARGS_LINE)
const ARGS_LINE = /non-default args: \{/;
const ARGS_SPECULATIVE = /'speculative_config': \{([^{}]*)\}/;
const ARGS_MODEL = /'model': '([^']*)'/;
const ARGS_METHOD = /'method': '([^']*)'/;
const ARGS_TP = /'tensor_parallel_size': (\d{1,6})\b/;
const ARGS_GAMMA = /'num_speculative_tokens': (\d{1,6})\b/;
const STARTUP_GAMMA = /\bnum_spec_tokens=(\d{1,6})\b/;
// The name the server answers to and labels its metrics with (--served-model-name; parse.py _STARTUP_SERVED).
const STARTUP_SERVED = /\bserved_model_name=([^,\s]+)/;
const ARGS_SERVED = /'served_model_name': \[?'([^']*)'/;
const FLAGS_SERVED = /--served[-_]model[-_]name[= ]([^\s'"\\-][^\s'"\\]*)/;
// The flags of `vllm serve`, on one line or several (parse.py _FLAGS_SPECULATIVE).
const FLAGS_SPECULATIVE = /--speculative[-_]config[= ]'(\{[^']*\})'/;
const FLAGS_TP = /--tensor[-_]parallel[-_]size[= ](\d{1,6})\b/;
const FLAGS_MODEL = /\bvllm serve\s+([^\s'"\\-][^\s'"\\]*)/;
const STARTUP_LINE = "vLLM's start-up line";
const SERVE_FLAGS = "its vllm serve flags";

// The note for a start-up line (or `vllm serve` flags) whose γ is not the metrics' (parse.py _startup_gamma).
// `ofSeveral`: the one read of several servers'.
function startupGamma(told, positions, saidIn, ofSeveral = false) {
  const read = ofSeveral ? " read" : "";
  const subject = saidIn === STARTUP_LINE ? `The start-up line${read} sets` : `The vllm serve flags${read} set`;
  return `${subject} num_speculative_tokens = ${grouped(told)}, and the metrics have ${grouped(positions)} draft ` +
    `positions: they are not of one run, so the drafter and target ${saidIn} names may not be ` +
    `the metrics'; the fit reads γ = ${grouped(positions)} from the metrics.`;
}

// The method vLLM takes for a speculative config naming a draft model and no method (parse.py _method_of).
function methodOf(draftModel) {
  if (!draftModel) return null;
  const name = draftModel.toLowerCase();
  return name.includes("eagle3") ? "eagle3" : name.includes("eagle-") ? "eagle" : "draft_model";
}

// What `line` (lines[index])'s --speculative-config names, with the served model and GPUs its
// `vllm serve` command's flags give (from the last "vllm serve" at or before it to the next; the
// whole text where none is before it), as startupOf returns them; null where it has none, or not a
// JSON object (parse.py _serve_flags).
function serveFlags(line, lines, index) {
  const config = FLAGS_SPECULATIVE.exec(line);
  if (!config) return null;
  let spec;
  try {
    spec = JSON.parse(config[1]);
  } catch {
    return null;
  }
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) return null;
  const method = spec.method ?? null;
  const draft = typeof spec.model === "string" && spec.model ? spec.model : null;
  if (typeof method !== "string" && (method !== null || !draft)) return null;
  const gamma = spec.num_speculative_tokens;
  const commands = lines.flatMap((l, i) => (l.includes("vllm serve") ? [i] : []));
  const before = commands.filter((i) => i <= index);
  const next = commands.find((i) => i > index) ?? lines.length;
  const command = before.length ? lines.slice(before[before.length - 1], next) : lines;
  const served = command.map((l) => FLAGS_MODEL.exec(l)).find(Boolean);
  const gpus = command.map((l) => FLAGS_TP.exec(l)).find(Boolean);
  const name = command.map((l) => FLAGS_SERVED.exec(l)).find(Boolean);
  return { model: served ? served[1] : null, served_model_name: name ? name[1] : null, method: method ?? methodOf(draft), method_given: method !== null,
    draft_model: draft,
    tensor_parallel_size: gpus ? Number(gpus[1]) : null,
    num_speculative_tokens: Number.isInteger(gamma) && gamma > 0 && gamma < 1e6 ? gamma : null, said_in: SERVE_FLAGS };
}

// The start-up line read ({read}: startupOf's), and {note} where the text holds those of several
// servers, or one of another server than the counters' (else null): one serving another model
// than the scrape's model_name `labels` is not read; of several, the last whose
// num_speculative_tokens is the metrics' `positions`, else the last (parse.py _startup).
function startup(lines, positions, labels = []) {
  const found = lines.map((line, i) => startupOf(line, lines, i)).filter(Boolean);
  if (!found.length) return { read: null, note: null };
  const label = labels.length ? labels[0] : null;
  const candidates = found.filter((s) => label === null || mayServe(s, label));
  if (!candidates.length) {
    const served = [...new Set(found.map((s) => quotedName(s.served_model_name ?? s.model)))];
    const one = served.length === 1;
    return { read: null, note: `The text's ${one ? "start-up line names" : "start-up lines name"} ${served.join(" and ")}, ` +
      `and the counters are those of ${quotedName(label)} (their model_name label): not of one server, so the drafter ` +
      `and GPUs ${one ? "it names were" : "they name were"} left out; give one server's lines and scrapes.` };
  }
  const matching = candidates.filter((s) => positions && s.num_speculative_tokens === positions);
  const read = matching.length ? matching[matching.length - 1] : candidates[candidates.length - 1];
  const servers = [];
  for (const s of found) if (!servers.some((t) => oneServer(s, t))) servers.push(s);
  if (servers.length < 2) return { read, note: null };
  const kinds = new Set(found.map((s) => s.said_in));
  const where = kinds.size === 2 ? "start-up lines and vllm serve flags"
    : kinds.has(STARTUP_LINE) ? "start-up lines" : "vllm serve flags";
  const named = servers.map(serverNamed);
  const listed = `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
  const nth = servers.findIndex((s) => oneServer(read, s));
  const ordinal = nth < 3 ? ["first", "second", "third"][nth] : `number ${grouped(nth + 1)}`;
  const which = label && candidates.length < found.length && new Set(candidates.map(serverNamed)).size === 1
    ? `whose model is the counters' (${quotedName(label)})`
    : new Set(matching.map(serverNamed)).size === 1 ? `whose γ is the metrics' ${grouped(positions)} draft positions`
      : "the last in the text, as the metrics do not say which server they came from";
  return { read, note: `The text holds the ${where} of ${grouped(servers.length)} servers, ${listed}: the drafter and ` +
    `target read are the ${ordinal}'s, ${which}; give one server's lines.` };
}

// Whether a start-up line may be of the server whose metrics carry the model_name `label`
// (parse.py _may_serve).
function mayServe(s, label) {
  const served = s.served_model_name ?? s.model;
  if (served === null) return true;
  const part = (name) => name.slice(name.lastIndexOf("/") + 1).toLowerCase();
  return served === label || (!s.served_model_name && part(served) === part(label));
}

// Whether two start-up lines may be one server's: nothing both name differs (parse.py _one_server).
function oneServer(a, b) {
  for (const key of ["model", "served_model_name", "draft_model", "tensor_parallel_size", "num_speculative_tokens"]) {
    if (a[key] !== null && b[key] !== null && a[key] !== b[key]) return false;
  }
  return !(a.method_given && b.method_given && a.method !== b.method);
}

// A server as a note names it: its model, method and γ, where its start-up line names them (parse.py _server_named).
function serverNamed(s) {
  const said = [s.method ? `method '${s.method}'` : null,
    s.num_speculative_tokens ? `γ = ${grouped(s.num_speculative_tokens)}` : null].filter(Boolean).join(", ");
  const model = s.model ? quotedName(s.model) : "a model not named";
  return said ? `${model} (${said})` : model;
}

// What `line`, a vLLM start-up line or `vllm serve` flags, names: {model, served_model_name, method, draft_model,
// tensor_parallel_size, num_speculative_tokens, said_in, method_given} (null for what it does not
// name), or null where it is none (parse.py _startup_of; found by cold reads: a log naming its
// EAGLE-3 head and its Llama target there was answered "The text does not say which drafter
// produced it"; one on 2 GPUs was priced on 4, unsaid).
function startupOf(line, lines, index) {
  const speculative = STARTUP_SPECULATIVE.exec(line);
  const served = STARTUP_MODEL.exec(line) ?? (speculative ? STARTUP_ANY_MODEL.exec(line.slice(0, speculative.index)) : null);
  if (served) {
    const gpus = STARTUP_TP.exec(line);
    const name = STARTUP_SERVED.exec(line);
    const gamma = speculative ? STARTUP_GAMMA.exec(line.slice(speculative.index)) : null;
    return { model: served[1], served_model_name: name ? name[1] : null, method: speculative ? speculative[1] : null, method_given: true, draft_model: speculative?.[2] || null,
      tensor_parallel_size: gpus ? Number(gpus[1]) : null, num_speculative_tokens: gamma ? Number(gamma[1]) : null,
      said_in: STARTUP_LINE };
  }
  if (ARGS_LINE.test(line)) {
    const config = ARGS_SPECULATIVE.exec(line);
    const rest = config ? line.slice(0, config.index) + line.slice(config.index + config[0].length) : line;
    const model = ARGS_MODEL.exec(rest);
    const gpus = ARGS_TP.exec(rest);
    const name = ARGS_SERVED.exec(rest);
    const method = config ? ARGS_METHOD.exec(config[1]) : null;
    const draft = config ? ARGS_MODEL.exec(config[1]) : null;
    const gamma = config ? ARGS_GAMMA.exec(config[1]) : null;
    if (model) {
      return { model: model[1], served_model_name: name ? name[1] : null,
        method: method ? method[1] : methodOf(draft ? draft[1] : null),
        method_given: Boolean(method) || !draft, draft_model: draft ? draft[1] : null,
        tensor_parallel_size: gpus ? Number(gpus[1]) : null, num_speculative_tokens: gamma ? Number(gamma[1]) : null,
        said_in: STARTUP_LINE };
    }
  }
  return serveFlags(line, lines, index);
}

// A reading the model cannot price (more draft positions or running requests than its γ and batch
// allow) is refused, as parse.py's _check_limits refuses it, in its words.
function checkLimits(reading) {
  if (reading.gamma !== null && reading.gamma > MAX_DRAFT_POSITIONS) {
    throw new BeyondModelError("draft positions", `${grouped(reading.gamma)} in the text`, `at most ${grouped(MAX_DRAFT_POSITIONS)}`);
  }
  if (reading.running_requests !== null && reading.running_requests > MAX_RUNNING_REQUESTS) {
    throw new BeyondModelError("running requests", `${grouped(reading.running_requests)} in the text`,
      `at most ${grouped(MAX_RUNNING_REQUESTS)}`);
  }
  return reading;
}

// The reading of the first format found in `lines` (see parseMetrics), without the load of the
// engine-stats lines.
// The note for V0 'Speculative metrics:' lines in a text read by its V1 lines (parse.py _v0_left_out).
function v0LeftOut(n) {
  return `${n} 'Speculative metrics:' line${n !== 1 ? "s" : ""} of vLLM's V0 engine left out: the V1 ` +
    "'SpecDecoding metrics:' lines were read; give one engine's lines.";
}

// The note for llama-server lines in a text read by its vLLM lines (parse.py _llama_left_out).
function llamaLeftOut(n, engine) {
  return `${grouped(n)} llama-server line${n !== 1 ? "s" : ""} left out: the vLLM ${engine} lines were read; give one ` +
    "server's lines.";
}

// The text's last line that is not blank, stripped (parse.py _last_line).
const lastLine = (lines) => pyStrip([...lines].reverse().find((l) => pyStrip(l)) ?? "");

// How the text's last line ends where it is one of the scrape's samples cut short, or null
// (parse.py _cut_scrape).
function cutScrape(lines) {
  const last = lastLine(lines);
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(last);
  return name && metric(name[0]) && !SAMPLE.test(last) ? [...last].slice(-30).join("") : null;
}

// The position label of the text's last line where it is a per-position sample, else null
// (parse.py _ends_at_position).
function endsAtPosition(lines) {
  const m = SAMPLE.exec(lastLine(lines));
  const named = m ? metric(m[1]) : null;
  if (!named || named[1] !== "spec_decode_num_accepted_tokens_per_pos") return null;
  return Object.fromEntries([...(m[2] ?? "").matchAll(LABEL)].map((x) => [x[1], x[2]])).position ?? null;
}

// The note for log lines in a text read by its scrape (parse.py _logs_left_out).
function logsLeftOut(n) {
  return `${grouped(n)} log line${n !== 1 ? "s" : ""} with speculative-decoding metrics left out: the Prometheus ` +
    "counters were read, exact counts over their window; give one server's scrapes or its log lines.";
}

function readText(lines) {
  const cut = cutScrape(lines);
  if (cut) throw new MetricsInputError(`the scrape is cut off before its end (its last line ends '…${cut}'); give whole scrapes`, true);
  const prom = lines.filter((l) => (l.includes("spec_decode_") || l.includes("num_requests_running")) && isSample(l));
  // a scrape cut after the per-position counter's "# TYPE" line (parse.py _read_text)
  const PER_POS = "spec_decode_num_accepted_tokens_per_pos";
  if (lines.some((l) => l.trimStart().startsWith("#") && l.includes(PER_POS)) && prom.length && !prom.some((l) => l.includes(PER_POS))) {
    throw new MetricsInputError(`the scrape declares ${PER_POS} but holds none of its samples: it is cut off ` +
      "before its end; give whole scrapes", true);
  }
  const scraped = prom.length ? readPrometheus(prom, endsAtPosition(lines)) : null;
  if (scraped && scraped.num_drafts) {
    const logged = lines.filter((l) => l.includes("SpecDecoding metrics:") || l.includes("Speculative metrics:") || LLAMA.test(l)).length;
    // first: the last note is the one a failed fit quotes (parse.py _read_text)
    if (logged) scraped.notes.unshift(logsLeftOut(logged));
    return scraped;
  }
  const llamaLines = lines.filter((l) => LLAMA.test(l)).length;
  const v1 = lines.filter((l) => l.includes("SpecDecoding metrics:")).map(v1Line).filter(Boolean);
  if (v1.length) {
    const read = poolV1(v1);
    const v0 = lines.filter((l) => l.includes("Speculative metrics:")).length;
    // first: the last note is the one a failed fit quotes (parse.py _read_text)
    const leftOut = [...(v0 ? [v0LeftOut(v0)] : []), ...(llamaLines ? [llamaLeftOut(llamaLines, "V1")] : [])];
    read.notes = [...leftOut, ...read.notes];
    return read;
  }
  const v0 = lines.filter((l) => l.includes("Speculative metrics:")).map(v0Line).filter(Boolean);
  if (v0.length) {
    const read = readV0(v0);
    if (llamaLines) read.notes = [llamaLeftOut(llamaLines, "V0"), ...read.notes];
    return read;
  }
  const llama = lines.filter((l) => l.includes("draft acceptance") || l.includes("acc per pos"));
  if (llama.some((l) => LLAMA.test(l))) return readLlama(llama);
  if (scraped) return scraped;
  throw new MetricsInputError("nothing in the text is a speculative-decoding log line or metric");
}
