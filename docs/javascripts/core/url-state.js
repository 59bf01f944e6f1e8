// URL query <-> simulation state. Pure: no DOM, no fetch, so it can be reasoned about (and
// tested) on its own. `axes`, `defaults` and `state` (the state fields, in URL order, each with
// its query key) are the manifest's; a state holds axis *values*, by field name.

// The state fields in URL order.
export function stateNames(manifest) {
  return manifest.state.map((s) => s.name);
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// Two grid values closer than this are the same value written differently (0.15 vs 0.150).
const SAME = 1e-9;

export function isNumericAxis(values) {
  return values.every((v) => typeof v === "number");
}

// Powers of two (batch, context) are snapped in log space, so 48 goes to 64 and 40 to 32, as a
// reader of a doubling axis would expect; evenly spaced axes (γ, α) snap linearly.
function isGeometric(values) {
  if (values.length < 3 || values[0] <= 0) return false;
  const ratio = values[1] / values[0];
  return values.every((v, i) => i === 0 || Math.abs(v / values[i - 1] / ratio - 1) < 1e-6);
}

export function snap(values, x) {
  const geometric = isGeometric(values);
  const distance = (v) => (geometric ? Math.abs(Math.log(v) - Math.log(x)) : Math.abs(v - x));
  let best = values[0];
  for (const v of values) if (distance(v) < distance(best) - SAME) best = v;
  return best;
}

// A value from the URL is shown back to the reader as plain text (never markup), short, and with
// every invisible or direction-changing character (NUL, RTL override, zero-width joiners, line
// separators) replaced by U+FFFD, so a note cannot be made to read as something else.
const SHOWN_LENGTH = 20;
// A Hugging Face id (owner/name) is quoted up to here: the catalog's longest is 52 characters.
const ID_SHOWN_LENGTH = 64;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

function shown(raw, length = SHOWN_LENGTH) {
  // Whole code points, not UTF-16 units: a cut through a surrogate pair would show as garbage.
  // Each takes at most two units, so 2 × length units hold enough of them.
  const chars = [...raw.slice(0, 2 * length)];
  const text = chars.slice(0, length).join("").replace(INVISIBLE, "\uFFFD");
  const cut = chars.length > length || raw.length > 2 * length;
  return cut ? `${text}…` : text;
}

// A value as a note quotes it: a Hugging Face id (owner/name) whole up to ID_SHOWN_LENGTH, in
// every note (found by a cold read: "AngelSlim/Qwen3-14B_…" cut the "eagle3" that says what it
// is, where other notes quoted ids whole); anything else up to SHOWN_LENGTH.
const HF_ID = /^[\w.-]+\/[\w.-]+$/;
const quoted = (raw) => (HF_ID.test(raw.trim()) ? shown(raw.trim(), ID_SHOWN_LENGTH) : shown(raw));

// The key a model's name (a Hugging Face id or its model part) names in `byName` (a map of the
// manifest's deployment_names) and whether exactly, [key, true]; else the one entry whose name it
// is with more words or fewer (a quantisation, a later release, a base checkpoint), the nearest
// the site has, [key, false]; else [null, false]. named.py site_name (found by a cold read: a text
// naming Qwen/Qwen3-30B-A3B-Instruct-2507 and the head for Qwen3-30B-A3B priced dense Qwen3-8B).
export function siteName(name, byName) {
  const part = name.split("/").pop().toLowerCase();
  if (Object.hasOwn(byName, part)) return [byName[part], true];
  // ("_" is no separator here: AngelSlim's heads are Qwen3-8B_eagle3, no variant of Qwen3-8B)
  const alike = (a, b) => a !== b && [..."-."].some((sep) => a.startsWith(b + sep) || b.startsWith(a + sep));
  const keys = new Set(Object.entries(byName).filter(([known]) => alike(part, known)).map(([, key]) => key));
  return keys.size === 1 ? [[...keys][0], false] : [null, false];
}

// A grid value as the controls write it: thousands separated (4,096), α to two decimals (0.80;
// found by a cold read: "using the nearest value, 0.8" beside the control's 0.80).
function written(value) {
  return Number.isInteger(value) ? value.toLocaleString("en-US") : value.toFixed(2);
}

// A number written out, however long (forty nines, 1e400): a request for "that much", clamped to
// the axis like 1e300 (what overflows a double is ±Infinity, and clamps the same way). Only
// digits, a point, a sign and an exponent are read (the pattern is linear in the length).
// Thousands grouped as the page writes them (1,024) are read too (found by a cold read: the
// page's own "1,024" typed into a link was refused, and the link opened at batch 1).
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

function parseNumber(raw) {
  const trimmed = raw.trim();
  const text = GROUPED.test(trimmed) ? trimmed.replaceAll(",", "") : trimmed;
  if (!NUMBER.test(text)) return null;
  const x = Number(text);
  return Number.isNaN(x) ? null : x;
}

// A value as the page writes it: a name's label, a number as the controls write it (2,048; found
// by a cold read: "using 2048" beside every other note's "2,048").
function describe(key, value, labels) {
  return labels?.[key]?.[value] ?? (typeof value === "number" ? written(value) : String(value));
}

// How long a list of choices a note writes with the controls' names.
const CHOICES_LENGTH = 70;

// One axis value from one raw query value: {value} or {value, note} (the value is then a
// correction or the default); `rejected` where nothing could be read (the default is used, or,
// where the configuration read so far does not offer it (`offered`), its first value, as
// constrainState would put it: found by a cold read, "…; using Qwen3-0.6B draft model." over a
// Llama target, then a second note naming the Llama-3.2-1B draft model used).
function parseValue(name, key, raw, axes, defaults, labels, { ids, target, offered } = {}) {
  const values = axes[name];
  const fallback = offered && !offered.includes(defaults[name]) ? offered[0] : defaults[name];
  const isId = HF_ID.test(raw.trim());
  const said = quoted(raw);
  const reject = (why) => ({
    value: fallback,
    note: `${key}=${said} ${why}; using ${describe(name, fallback, labels)}.`,
    rejected: true,
  });
  // "?batch" or "?batch=": nothing to quote back.
  if (raw.trim() === "") return { value: fallback, note: `${key} has no value; using ${describe(name, fallback, labels)}.`, rejected: true };
  if (isNumericAxis(values)) {
    const x = parseNumber(raw);
    if (x === null) return reject("is not a number the simulation can use");
    const lo = values[0];
    const hi = values[values.length - 1];
    const clamped = Math.min(hi, Math.max(lo, x));
    const value = snap(values, clamped);
    if (clamped !== x) {
      return { value, note: `${key}=${shown(raw)} is outside ${written(lo)}–${written(hi)}; using ${written(value)}.` };
    }
    if (Math.abs(value - x) > SAME * Math.max(1, Math.abs(x))) {
      // (on a doubling axis, nearest by ratio: 3,000 goes to 4,096, not 2,048)
      const nearest = isGeometric(values) ? "the nearest value on its doubling scale" : "the nearest value";
      return { value, note: `${key}=${shown(raw)} is not on the grid; using ${nearest}, ${written(value)}.` };
    }
    return { value };
  }
  // a name as the URL writes it (ngram), in any case, or as the controls write it (ideal roofline,
  // ideal-roofline, H100 SXM; found by cold reads: ?cost=ideal-roofline turned down with a list
  // of names the control never shows)
  const wanted = raw.trim().toLowerCase();
  const loose = (text) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  // or by a Hugging Face id, as a text and vLLM's flags name a model (Qwen/Qwen3-1.7B; the
  // manifest's deployment_names, as the paste box reads them: found by a cold read, a link naming
  // the 1.7B draft model by its id given the 0.6B)
  const byId = ids?.[name]?.[wanted.split("/").pop()];
  // or, by an id the site lacks, the nearest model it has, where the configuration offers it: one
  // whose name the id's is with more words or fewer (Qwen/Qwen3-32B-FP8, a base checkpoint), said
  // so (metrics.js siteName, as the paste box reads a text's; found by a cold read: the default
  // target used, where a variant of Qwen3-32B or Qwen3-30B-A3B was named)
  // (a drafter by its model's name: the names of kinds, eagle3 and ngram, are none)
  const models = Object.fromEntries(Object.entries(ids?.[name] ?? {}).filter(([n]) => !Object.values(ids?.kind ?? {}).includes(n)));
  // (with its owner or without: qwen3-32b-awq as Qwen/Qwen3-32B-AWQ; found by a cold read)
  const near = () => {
    const [nearId, exactly] = ids?.[name] ? siteName(wanted, models) : [null, true];
    return !exactly && nearId !== null && (offered ?? values).includes(nearId) ? nearId : undefined;
  };
  // or a name whose every word the one value's key or label holds (A100, a100-80gb: the A100 SXM
  // 80 GB; ideal: the ideal roofline; found by a cold read, ?gpu=A100 opened the H100), said so
  const byWords = () => {
    const words = wanted.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (loose(wanted).length < 3) return undefined;
    const holds = (v) => words.every((w) => loose(v).includes(w) || loose(labels?.[name]?.[v] ?? "").includes(w));
    const found = (offered ?? values).filter(holds);
    return found.length === 1 ? found[0] : undefined;
  };
  // or an EAGLE-3 head's id (AngelSlim/Qwen3-8B_eagle3: the id the page's vLLM flags print; found
  // by a cold read, refused for the 0.6B draft model). A head drafts for the target it was
  // trained on: one trained for another target than the link's opens that target's head, said so.
  const head = name === "drafter" && byId === undefined ? headNamed(ids?.checkpoint, wanted) : undefined;
  // or vLLM's method for a kind the site has several of (method=draft_model): the first of that
  // kind the target takes, said so (found by a cold read: refused)
  const ofKind = name === "drafter" ? (offered ?? values).filter((v) => ids?.kind?.[v] === wanted) : [];
  // or an id the site lacks that names a kind it has one drafter of (yuhuili/EAGLE3-LLaMA3.3-…):
  // that drafter, for the link's target, said so (found by a cold read: such a link priced a draft
  // model, where the paste box and fit-metrics read the same id as the EAGLE-3 head)
  const kinds = Object.values(ids?.kind ?? {});
  const kindInId = name === "drafter" && isId && byId === undefined && !head
    ? kinds.find((k) => kinds.filter((other) => other === k).length === 1 && loose(wanted).includes(loose(k))) : undefined;
  const ofIdKind = kindInId ? (offered ?? values).filter((v) => ids.kind[v] === kindInId) : [];
  let value = values.find((v) => v.toLowerCase() === wanted)
    // a key written loosely (n-gram, EAGLE-3: as the page writes the drafters; found by a cold read)
    ?? values.find((v) => loose(v) === loose(wanted) && loose(wanted) !== "")
    ?? values.find((v) => loose(labels?.[name]?.[v] ?? v) === loose(wanted) && loose(wanted) !== "")
    ?? values.find((v) => v === byId)
    ?? values.find((v) => v === head?.drafter)
    ?? ofKind[0]
    ?? ofIdKind[0];
  const nearest = value === undefined ? near() : undefined;
  value ??= nearest;
  const worded = value === undefined ? byWords() : undefined;
  value ??= worded;
  if (value === undefined) {
    const other = Object.keys(labels?.[name] ?? {}).find((v) => v.toLowerCase() === wanted);
    if (name === "cost_model" && other) {
      // a cost model the command line and the breakdown figure have, not the simulation
      return reject(`(${labels[name][other]}) is priced by specmodel evaluate and drawn in the breakdown figure, not offered here`);
    }
    // a Hugging Face id the site has no model for, quoted whole, where a cut hid the part that
    // differs (found by a cold read: "target=meta-llama/Meta-Llam…")
    if (ids?.[name] && isId) {
      // a target's id given as the drafter (or a drafter's, a head's included, as the target) is a
      // model the site has, or near one (found by cold reads: "drafter=Qwen/Qwen3-8B names no
      // model the site has"; "target=AngelSlim/Qwen3-8B_eagle3 … using the nearest, its Qwen3-8B")
      const otherName = name === "drafter" ? "target" : name === "target" ? "drafter" : undefined;
      const [otherKey, otherExactly] = otherName ? siteName(wanted, ids[otherName]) : [null, false];
      const otherHead = name === "target" ? headNamed(ids.checkpoint, wanted) : undefined;
      const [nearKey] = siteName(wanted, models);
      let why = "names no model the site has";
      if ((otherKey !== null && otherExactly) || otherHead) why = `is ${otherName === "target" ? "a target" : "a drafter"} the site has, not a ${name}`;
      else if (otherKey !== null) why = `names no ${name} the site has (the nearest model it has, ${describe(otherName, otherKey, labels)}, is a ${otherName})`;
      else if (nearKey !== null && name === "drafter") {
        // the nearest drafter, which the link's target cannot take (found by a cold read: "names no
        // model the site has" under one target, "using the nearest" under another)
        why = `names no model the site has; its nearest, the ${describe(name, nearKey, labels)}, cannot draft for ${describe("target", target, labels)}`;
      }
      return { value: fallback, note: `${key}=${said} ${why}; using ${describe(name, fallback, labels)}.`, rejected: true };
    }
    // the choices as the controls name them (key in brackets) where that stays short, else by the
    // URL's names: a note is a line or two
    const named = values.map((v) => `${describe(name, v, labels)} (${v})`).join(", ");
    return reject(`is not one of ${named.length <= CHOICES_LENGTH ? named : values.join(", ")}`);
  }
  if (worded !== undefined) {
    return { value, note: `${key}=${said} is not a name the site uses; using the nearest, ${describe(name, value, labels)}.` };
  }
  if (nearest !== undefined) {
    const id = name === "target" ? ids.target_id?.[value] : ids.checkpoint?.[value]?.[target];
    return { value, note: `${key}=${said} names no model the site has; using the nearest model it has, ${describe(name, value, labels)}${id ? `, '${id}'` : ""}.` };
  }
  if (value === ofIdKind[0] && value !== undefined && ofKind.length === 0) {
    return { value, note: `${key}=${said} is an ${describe(name, value, labels)} the site does not have; using the one for ${describe("target", target, labels)}.` };
  }
  if (value === ofKind[0] && ofKind.length > 1) {
    return { value, note: `${key}=${said} does not say which ${wanted.replace(/_/g, " ")}; using the ${describe(name, value, labels)}, the first the site has for ${describe("target", target, labels)}.` };
  }
  if (value === head?.drafter && target !== undefined && !head.targets.includes(target)) {
    const trained = head.targets.map((t) => describe("target", t, labels)).join(" and ");
    return { value, note: `${key}=${said} is the ${describe(name, value, labels)} for ${trained}; using the one for ${describe("target", target, labels)}.` };
  }
  return { value };
}

// The drafter whose checkpoint `wanted` (a Hugging Face id, lower case) names, and the targets
// it drafts for: {drafter, targets}, or undefined. `checkpoints`: the manifest's
// deployment_names.checkpoint, {drafter: {target: id}}.
function headNamed(checkpoints, wanted) {
  const model = wanted.split("/").pop();
  for (const [drafter, byTarget] of Object.entries(checkpoints ?? {})) {
    const targets = Object.keys(byTarget).filter((t) => byTarget[t].toLowerCase().split("/").pop() === model);
    if (targets.length) return { drafter, targets };
  }
  return undefined;
}

export function defaultState(manifest) {
  const { axes, defaults } = manifest;
  const state = {};
  for (const name of stateNames(manifest)) {
    const d = defaults[name];
    state[name] = isNumericAxis(axes[name]) ? snap(axes[name], d) : d;
  }
  return state;
}

// The configuration (a target on a GPU, on its number of GPUs) a state belongs to, from the
// manifest's "configurations".
export function configurationOf(manifest, state) {
  return manifest.configurations.find((c) => c.gpu === state.gpu && c.target === state.target) ?? null;
}

// The values of `name` the state's configuration has data for (the manifest's axis if it
// does not restrict it).
export function availableValues(manifest, state, name) {
  return configurationOf(manifest, state)?.axes[name] ?? manifest.axes[name];
}

// What the reader calls the fields a configuration may not offer every value of.
const FIELD_NOUNS = { drafter: "Drafter", cost_model: "Cost model", acceptance: "Acceptance past the first guess", workload: "Workload" };

// A state whose fields agree with its configuration: the tensor-parallel degree is the
// configuration's, and a drafter, cost model, acceptance shape or workload it has no data for
// becomes the first one it has. `asked` holds the fields the reader chose (a link's keys, the
// control just moved): a correction of one of those is said in a note, and so is every
// correction the GPU or target they chose brings (a link to another target changes its drafter).
export function constrainState(state, manifest, asked = new Set()) {
  const notes = [];
  const out = { ...state };
  const keys = Object.fromEntries(manifest.state.map((s) => [s.name, s.key]));
  const named = (name, value) => describe(name, value, manifest.labels);
  let config = configurationOf(manifest, out);
  if (!config) {
    // every GPU and target pair is offered; a pair without data falls back to the default one
    const base = defaultState(manifest);
    if (asked.has("gpu") || asked.has("target")) {
      notes.push(`${named("target", out.target)} on ${named("gpu", out.gpu)} is not offered; using ` +
        `${named("target", base.target)} on ${named("gpu", base.gpu)}.`);
    }
    out.gpu = base.gpu;
    out.target = base.target;
    config = configurationOf(manifest, out);
  }
  const where = `${named("target", config.target)} on ${named("gpu", config.gpu)}`;
  const chosen = (asked.has("gpu") || asked.has("target")) && notes.length === 0;
  if (out.tp !== config.tp) {
    // (a value that is no count said so, as other keys' are: found by a cold read)
    const count = typeof out.tp === "string" && parseNumber(out.tp) === null ? " is not a number the simulation can use;" : ":";
    if (asked.has("tp")) notes.push(`${keys.tp}=${out.tp}${count} ${where} runs on ${named("tp", config.tp)} here; using ${config.tp}.`);
    out.tp = config.tp;
  }
  let filled = 0;
  for (const [name, values] of Object.entries(config.axes)) {
    if (values.includes(out[name])) continue;
    const fallback = values.includes(defaultState(manifest)[name]) ? defaultState(manifest)[name] : values[0];
    const noun = FIELD_NOUNS[name] ?? keys[name];
    if (asked.has(name)) {
      // a drafter goes with its target's family, whatever the GPU (found by a cold read: "… is not
      // available for Qwen3-8B on H100 SXM", as if the GPU were why)
      // (found by a cold read too: "drafts for another family than …", not how anyone says it)
      const why = name === "drafter" ? `cannot draft for ${named("target", config.target)} (another model family)`
        : name === "cost_model" ? `is not offered as a setting for ${where} (its speedups show as the ladder's ticks)`
          : `is not available for ${where}`;
      notes.push(`${noun}: ${named(name, out[name])} ${why}; using ${named(name, fallback)}.`);
    } else if (chosen) {
      // Not asked for: the starting value the chosen target or GPU has no data for, filled in
      // (found once read as a correction of the link: "… is not available for … on L40S"; a
      // drafter goes with its target's family, whatever the GPU).
      const why = name === "drafter"
        ? `the starting ${named(name, out[name])} cannot draft for ${named("target", config.target)}, another model family`
        : `the starting ${named(name, out[name])} is not offered for ${where}`;
      notes.push(`${noun}: ${named(name, fallback)} (${why}).`);
      filled += 1;
    }
    out[name] = fallback;
  }
  return { state: out, notes, filled };
}

// Keys other tools add to a link the reader did not write: the theme's search (q, h), campaign
// tags (utm_*) and the click ids a link picks up when shared (fbclid, gclid, msclkid…). Ignored
// without a note: the reader could do nothing about them.
const FOREIGN_KEY = /^(?:q|h|ref|utm_.*|[a-z]*clid)$/i;
const UNKNOWN_SHOWN = 2;

// A key compared as the reader may have meant it: any case, "-" or "_" between words, so that the
// command line's spelling names its key (?cost-model= for cost; found by a cold read), and so
// does vLLM's (?num_speculative_tokens= for gamma: the name the page's vLLM flags print; found
// by a cold read too).
const looseKey = (k) => k.trim().toLowerCase().replace(/[-_]/g, "");
// Keys are quoted whole up to here: vLLM's longest names ("num_speculative_tokens") included.
const KEY_SHOWN_LENGTH = 32;

// The setting's key a key names loosely (its key, field name, command-line option or vLLM name,
// in any case, "-" or "_" between words), or undefined.
function meantKey(k, manifest) {
  return manifest.state.find((s) => [s.key, s.name, ...(s.aliases ?? [])].some((name) => looseKey(name) === looseKey(k)))?.key;
}

// One note for the keys that are not settings: a misspelt key (gama=3) would otherwise leave the
// reader looking at the default without knowing why. Keys read as a setting (`aliased`) are not.
function unknownKeysNote(params, manifest, aliased) {
  const keys = manifest.state.map((s) => s.key);
  const unknown = [...new Set([...params.keys()].filter((k) => !keys.includes(k) && !FOREIGN_KEY.test(k) && !aliased.has(k)))];
  if (unknown.length === 0) return null;
  const named = unknown.slice(0, UNKNOWN_SHOWN).map((k) => (k === "" ? "a parameter without a name" : `“${shown(k, KEY_SHOWN_LENGTH)}”`));
  const more = unknown.length - named.length;
  const list = more > 0 ? `${named.join(", ")} and ${more} more` : named.join(" and ");
  // vLLM's "model" names the target to the engine and the draft model to its speculative config
  // (found by a cold read: "not a setting" alone left the reader to guess which key to write)
  if (unknown.length === 1 && looseKey(unknown[0]) === "model") {
    return `${list} is not a setting: vLLM names the target by it, and the draft model in its speculative config; write target= or drafter=. Ignored.`;
  }
  return `${list} ${unknown.length === 1 ? "is not a setting" : "are not settings"} of the simulation; ignored.`;
}

// Parse a query string ("?batch=64&…", with or without "?") into a complete, valid state.
// Of a repeated key's values the last one the simulation can use wins (else the last); keys
// that are not settings are ignored, and said so unless another tool added them. Returns
// {state, notes}, notes being plain-text sentences for the reader (never HTML).
export function parseQuery(query, manifest) {
  const { axes, defaults, labels } = manifest;
  const state = defaultState(manifest);
  const notes = [];
  const asked = new Set();
  const params = new URLSearchParams(query);
  // A key written as the command line or vLLM spells the setting, or in another case
  // (?cost-model=, ?num_speculative_tokens=, ?BATCH=), is read as that setting, and said so
  // (found by a cold read: "did you mean cost?" over the default, the link's whole-pass dropped).
  // Beside the setting's own key it is one more value of the setting: of them all the last one the
  // simulation can use wins, as of a repeated key's (found by cold reads: "not a setting" of a
  // link that gave gamma too; then the own key winning where a repeated key's last value did).
  const keys = manifest.state.map((s) => s.key);
  // each setting's values, with the key each was written under
  const read = new Map();
  const readAs = (key, k, v) => read.set(key, [...(read.get(key) ?? []), { written: k, raw: v }]);
  const aliased = new Map();
  for (const [k, v] of params) {
    if (keys.includes(k)) {
      readAs(k, k, v);
      continue;
    }
    const meant = FOREIGN_KEY.test(k) ? undefined : meantKey(k, manifest);
    if (meant) {
      readAs(meant, k, v);
      aliased.set(k, meant);
    }
  }
  for (const [k, meant] of aliased) notes.push(`“${shown(k, KEY_SHOWN_LENGTH)}” read as ${meant}.`);
  for (const { name, key } of manifest.state) {
    const all = (read.get(key) ?? []).map((r) => r.raw);
    if (all.length === 0) continue;
    // A repeated key: its last value the simulation can use (a number, out of range too, or a
    // name it has, offered for the GPU and target read so far), else its last (found by a cold
    // read: ?batch=64&batch=abc opened at the default batch, dropping the 64 it holds; and
    // ?drafter=eagle3&drafter=qwen3-4b under a Llama target, dropping the EAGLE-3 head it takes).
    const whole = (raw) => /^[1-9][0-9]{0,2}$/.test(raw.trim());
    const config = configurationOf(manifest, state);
    const offered = config?.axes[name];
    const parsed = (raw) => parseValue(name, key, raw, axes, defaults, labels, { ids: manifest.deployment_names, target: state.target, offered });
    // a GPU count as written (the configuration weighs it: constrainState), else the axis's reading
    const valueOf = (raw) => (name === "tp" && whole(raw) ? { value: Number(raw.trim()), note: null } : parsed(raw));
    const notOffered = (raw) => {
      const { value, rejected } = parsed(raw);
      return !rejected && offered !== undefined && !offered.includes(value);
    };
    const usable = (raw) => (name === "tp" ? whole(raw) : !parsed(raw).rejected && !notOffered(raw));
    const usedAt = all.findLastIndex(usable);
    const raw = usedAt >= 0 ? all[usedAt] : all[all.length - 1];
    const repeatedNote = () => {
      // named as the link wrote it (found by a cold read: "gamma appears 2 times" of a link that
      // wrote num_speculative_tokens twice)
      const spellings = [...new Set(read.get(key).map((r) => r.written))];
      const quote = (k) => (k === key ? k : `“${shown(k, KEY_SHOWN_LENGTH)}”`);
      const head = spellings.length === 1 ? `${quote(spellings[0])} appears ${all.length} times; using`
        : `${key} is given ${all.length} times (as ${spellings.slice(0, UNKNOWN_SHOWN).map(quote).join(" and ")}${spellings.length > UNKNOWN_SHOWN ? " and more" : ""}); using`;
      if (usedAt < 0 || usedAt === all.length - 1) return `${head} the last one.`;
      // the value as the controls write it (found by a cold read: "using 4096", "0.8", "3.0"
      // beside the controls' 4,096, 0.80 and 3), or as the link wrote it where a note below
      // corrects it
      const used = all[usedAt];
      const { value, note } = valueOf(used);
      const valueText = note ? `${key}=${quoted(used)}` : describe(name, value, labels);
      // a later name the simulation has but not here: why it was passed over (found by a cold
      // read: "using ngram" over a Llama-3.2-1B draft model, as if the simulation did not know it)
      const passed = all.slice(usedAt + 1).findLast(notOffered);
      let why = "";
      if (passed !== undefined) {
        const other = describe(name, parsed(passed).value, labels);
        why = name === "drafter" ? ` (${other} cannot draft for ${describe("target", config.target, labels)})`
          : ` (${other} is not offered for ${describe("target", config.target, labels)} on ${describe("gpu", config.gpu, labels)})`;
      }
      return `${head} ${valueText}, the last value the simulation can use${why}.`;
    };
    if (all.length > 1) notes.push(repeatedNote());
    if (name === "tp") {
      // The configuration decides how many GPUs: constrainState weighs what the link asks against
      // it and says which count is used. A value that is no count is named as written (found by a
      // cold read: "tp=abc … using one GPU" over a price on four).
      const { value, note } = valueOf(raw);
      state.tp = note ? shown(raw) : value;
      asked.add(name);
      continue;
    }
    const { value, note, rejected } = parsed(raw);
    state[name] = value;
    if (note) notes.push(note);
    // a value the link gives, read with a note (the nearest model to an id), is asked for too: what
    // the configuration then fills in is said (found by a cold read: a variant target's drafter
    // changed unsaid)
    if (!rejected) asked.add(name);
  }
  const unknown = unknownKeysNote(params, manifest, aliased);
  if (unknown) notes.push(unknown);
  const constrained = constrainState(state, manifest, asked);
  // corrected: how many notes say the link asked for something it did not get (the bar says so);
  // the others say what the link's target or GPU filled in
  const all = [...notes, ...constrained.notes];
  // ("“method” read as drafter." says how a key was read, not that the link was corrected: found
  // by a cold read, the bar said a link of vLLM's spellings was)
  return { state: constrained.state, notes: all, corrected: all.length - constrained.filled - aliased.size };
}

// Only keys that differ from the defaults, in a fixed order, so equal states give equal URLs.
export function serializeQuery(state, manifest) {
  const base = defaultState(manifest);
  const params = new URLSearchParams();
  for (const { name, key } of manifest.state) {
    if (state[name] !== base[name]) params.set(key, String(state[name]));
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

export function sameState(a, b) {
  return Object.keys(a).every((name) => a[name] === b[name]) && Object.keys(b).every((name) => name in a);
}
