// Fetching and indexing the generated data (ARCHITECTURE.md, "Data layout"). Nothing here
// computes a model quantity: it finds the precomputed number for a state.

// This module lives at <site root>/javascripts/data.js, wherever the page that imports it is
// (/, /model/, after an instant navigation), so the site root is one level up from here.
export const siteRoot = new URL("../", import.meta.url);
const dataRoot = new URL("data/", siteRoot);

// Which file and which dims each key has (ARCHITECTURE.md, "Data layout", and what
// generator/site_data.py writes). A key is found by its name wherever it sits in its file, or
// failing that at `path` (the generator nests some tables: {"decision": {"drafter": [...]}}).
// An array whose length does not match its dims is refused, so a layout change shows up as a
// readable error instead of a wrong number.
const BCG = ["batch", "context", "gamma"];
const BCDG = ["batch", "context", "drafter", "gamma"];
const BG = ["batch", "gamma"];
export const CONTRACT = {
  core: {
    verify_bytes: { dims: BCG },
    verify_flops: { dims: BCG },
    verify_memory_time_s: { dims: BCG },
    verify_compute_time_s: { dims: BCG },
    tensor_core_idle_fraction: { dims: BCG },
    verify_arithmetic_intensity: { dims: BCG },
    verify_attained_flops_per_s: { dims: BCG },
    draft_memory_time_s: { dims: BCDG },
    draft_compute_time_s: { dims: BCDG },
    draft_time_s: { dims: BCDG },
    plain_tokens_per_s: { dims: ["batch", "context", "workload"] },
    plain_pass_memory_time_s: { dims: ["batch", "context"] },
    plain_pass_compute_time_s: { dims: ["batch", "context"] },
    memory_required_bytes: { dims: ["batch", "context", "drafter"] },
    fits_in_memory: { dims: ["batch", "context", "drafter"] },
    draft_weight_bytes: { dims: ["drafter"] },
    draft_kv_bytes_per_token: { dims: ["drafter"] },
    target_weight_bytes: { dims: [] },
    target_kv_bytes_per_token: { dims: [] },
    expected_tokens: { dims: ["alpha", "gamma_cf"] },
    ceiling: { dims: ["alpha"] },
    peak_flops_per_s: { dims: [] },
    peak_bytes_per_s: { dims: [] },
    // The --speculative-config flag as typed, one per (drafter, γ).
    speculative_config: { dims: ["drafter", "gamma"] },
  },
  shard: {
    speedup: { dims: BCDG },
    spec_tokens_per_s: { dims: BCDG },
    draft_time_share: { dims: BCDG },
    arithmetic_ratio: { dims: BCDG },
    mean_acceptance_length: { dims: ["gamma"] },
    per_position_acceptance: { dims: ["gamma"] },
    token_row: { dims: ["gamma"] },
    best_gamma: { dims: ["batch", "context", "drafter"], path: ["best_gamma", "gamma"] },
    decision_drafter: { dims: ["batch", "context"], path: ["decision", "drafter"] },
    decision_gamma: { dims: ["batch", "context"], path: ["decision", "gamma"] },
    decision_speedup: { dims: ["batch", "context"], path: ["decision", "speedup"] },
    // The engine-log line's fields, already formatted by Python as vLLM prints them.
    log_accepted_throughput_text: { dims: BCDG },
    log_drafted_throughput_text: { dims: BCDG },
    log_accepted_tokens: { dims: BG },
    log_drafted_tokens: { dims: BG },
    log_mean_acceptance_length_text: { dims: BG },
    log_draft_acceptance_rate_text: { dims: BG },
    per_position_text: { dims: ["gamma"] },
  },
};

export class DataError extends Error {}

const cache = new Map();

function fetchJson(url, init) {
  const key = url.href;
  if (!cache.has(key)) {
    const request = fetch(url, init)
      .then((response) => {
        if (!response.ok) throw new DataError(`${url.pathname} could not be loaded (HTTP ${response.status}).`);
        return response.json();
      })
      .catch((error) => {
        cache.delete(key); // let a later state change retry
        if (error instanceof DataError) throw error;
        throw new DataError(`${url.pathname} could not be loaded or read (${error.message}).`);
      });
    cache.set(key, request);
  }
  return cache.get(key);
}

function checkVersion(file, manifest, url) {
  if (file.model_version !== manifest.model_version) {
    throw new DataError(
      `${url.pathname} belongs to model version ${file.model_version}, but the manifest is ` +
        `${manifest.model_version}. The site was updated while this page was open: reload it.`,
    );
  }
  return file;
}

export function loadManifest() {
  // Fetched again for every page (instant navigation too) and revalidated with the server: it
  // names the model version every other file must carry, and the site may have been rebuilt.
  const url = new URL("manifest.json", dataRoot);
  cache.delete(url.href);
  return fetchJson(url, { cache: "no-cache" });
}

// Later files are addressed by version, so a browser cache cannot hand back an older build.
async function loadVersioned(manifest, path) {
  const url = new URL(path, dataRoot);
  url.searchParams.set("v", manifest.model_version);
  return checkVersion(await fetchJson(url), manifest, url);
}

export function loadCore(manifest) {
  return loadVersioned(manifest, manifest.core);
}

export function shardPath(manifest, state) {
  const alphaIndex = axisIndex(manifest, "alpha", state.alpha);
  return manifest.shards.pattern
    .replace("{acceptance}", state.acceptance)
    .replace("{workload}", state.workload)
    .replace("{alpha_index}", String(alphaIndex));
}

export function loadShard(manifest, state) {
  return loadVersioned(manifest, shardPath(manifest, state));
}

// Everything a state needs: {manifest, core, shard}.
export async function loadState(manifest, state) {
  const [core, shard] = await Promise.all([loadCore(manifest), loadShard(manifest, state)]);
  return { manifest, core, shard };
}

export function axisIndex(manifest, key, value) {
  const i = manifest.axes[key].indexOf(value);
  if (i < 0) throw new DataError(`${key}=${value} is not on the grid.`);
  return i;
}

// The array or scalar stored under `key`, wherever it is nested ({dims, key: [...]},
// {key: {dims, values}}, or top level).
function locate(node, key) {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
  if (key in node) {
    const found = node[key];
    const wrapped = found !== null && typeof found === "object" && !Array.isArray(found) && "values" in found;
    return wrapped ? found.values : found;
  }
  for (const [name, child] of Object.entries(node)) {
    if (name === "dims") continue;
    const found = locate(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

function fileFor(key) {
  if (Object.hasOwn(CONTRACT.core, key)) return "core";
  if (Object.hasOwn(CONTRACT.shard, key)) return "shard";
  throw new DataError(`"${key}" is not a key of the data contract.`);
}

// The values along `dim`: a manifest axis, or a list stored in the file beside the table
// (the closed form's gamma_cf), or failing both 1…N with N inferred from the table's length.
function dimValues(data, file, dim, dims, length) {
  if (dim in data.manifest.axes) return data.manifest.axes[dim];
  const stored = locate(data[file], dim);
  if (Array.isArray(stored)) return stored;
  const others = dims.filter((d) => d !== dim).reduce((acc, d) => acc * data.manifest.axes[d].length, 1);
  return Array.from({ length: length / others }, (_, i) => i + 1);
}

// Parsed files are immutable, so a table found once is kept for as long as its file is.
const tables = new WeakMap();

// The whole stored table for `key`: {values, dims, axes} (axes: the values along each dim).
export function table(data, key) {
  const file = fileFor(key);
  if (!tables.has(data[file])) tables.set(data[file], new Map());
  const known = tables.get(data[file]);
  if (!known.has(key)) known.set(key, findTable(data, file, key));
  return known.get(key);
}

function at(node, path) {
  return path.reduce((n, name) => (n !== null && typeof n === "object" ? n[name] : undefined), node);
}

function findTable(data, file, key) {
  const { dims, path } = CONTRACT[file][key];
  let values = locate(data[file], key);
  // A nested table can share its key's name ({"best_gamma": {"dims", "gamma"}}): then the path.
  if (path && (values === undefined || (dims.length > 0 && !Array.isArray(values)))) values = at(data[file], path);
  if (values === undefined) throw new DataError(`${file}.json has no "${key}".`);
  if (dims.length === 0) return { values, dims, axes: [] };
  if (!Array.isArray(values)) throw new DataError(`"${key}" in ${file}.json is not an array.`);
  // A table over several dims may be stored nested ([drafter][γ]) rather than flat.
  if (dims.length > 1 && Array.isArray(values[0])) values = values.flat(dims.length - 1);
  const axes = dims.map((dim) => dimValues(data, file, dim, dims, values.length));
  const expected = axes.reduce((acc, axis) => acc * axis.length, 1);
  if (!Number.isInteger(expected) || values.length !== expected) {
    throw new DataError(`"${key}" in ${file}.json has ${values.length} values; its dims [${dims}] need ${expected}.`);
  }
  return { values, dims, axes };
}

// The value of `key` at `state`, with some dims set otherwise by `at` ({batch: 64},
// {gamma_cf: 3}): all by axis value, as in the state.
export function lookup(data, key, state, at = {}) {
  const { values, dims, axes } = table(data, key);
  if (dims.length === 0) return values;
  let index = 0;
  dims.forEach((dim, i) => {
    const value = dim in at ? at[dim] : state[dim];
    const position = axes[i].indexOf(value);
    if (position < 0) throw new DataError(`${dim}=${value} is not on the grid of "${key}".`);
    index = index * axes[i].length + position;
  });
  return values[index];
}

// The values along a dim of `key`'s table (for charts that walk an axis).
export function axisOf(data, key, dim) {
  const { dims, axes } = table(data, key);
  return axes[dims.indexOf(dim)];
}

// Start fetching what a nearby state will need (the α neighbours), without waiting for it.
export function prefetch(manifest, state) {
  const alphas = manifest.axes.alpha;
  const i = alphas.indexOf(state.alpha);
  for (const j of [i - 1, i + 1]) {
    if (j >= 0 && j < alphas.length) loadShard(manifest, { ...state, alpha: alphas[j] }).catch(() => {});
  }
}
