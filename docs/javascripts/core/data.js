// Fetching the generated data and finding a number in it. Nothing here computes a model
// quantity: the manifest's contract (generator/contract.py) says which file and table hold each
// field, over which dims; lookup() finds the precomputed value for a state.

// This module lives at <site root>/javascripts/core/data.js, wherever the page that imports it is
// (/, /model/, after an instant navigation), so the site root is two levels up from here.
export const siteRoot = new URL("../../", import.meta.url);
const dataRoot = new URL("data/", siteRoot);

export class DataError extends Error {}

const cache = new Map();

// `started`: a fetch of `url` already under way (head.js's), taken over.
function fetchJson(url, init, started) {
  const key = url.href;
  if (!cache.has(key)) {
    const request = (started ?? fetch(url, init))
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

let early = null; // the first page's manifest, requested as soon as the script runs

export function loadManifest() {
  // Fetched again for every page (instant navigation too) and revalidated with the server: it
  // names the data version every other file must carry, and the site may have been rebuilt.
  if (early) {
    const request = early;
    early = null;
    return request;
  }
  const url = new URL("manifest.json", dataRoot);
  cache.delete(url.href);
  return fetchJson(url, { cache: "no-cache" });
}

// Start fetching the manifest before the page is set up (main.js, as the module runs): the
// theme announces the page only after the whole document is parsed. The page's <head> names its
// build's data version and its script already asked for that version's manifest
// (head.js): this is the same request, taken over. (A manifest of another build is
// refused by page.js.)
export function requestManifestEarly() {
  if (early) return early;
  const version = document.querySelector("meta[name=spec-model-version]")?.content;
  if (!version) {
    early = loadManifest();
  } else {
    const url = new URL("manifest.json", dataRoot);
    url.searchParams.set("v", version);
    const head = window.__specManifest;
    early = fetchJson(url, undefined, head?.url === url.href ? head.response : undefined);
  }
  early.catch(() => {}); // a page that never asks for it must not report its failure
  return early;
}

function checkVersion(file, manifest, url) {
  if (file.model_version !== manifest.model_version) {
    throw new DataError(
      `${url.pathname} belongs to data version ${file.model_version}, but the manifest is ` +
        `${manifest.model_version}. The site was updated while this page was open: reload it.`,
    );
  }
  return file;
}

// Files are addressed by version, so a browser cache cannot hand back an older build's.
async function loadVersioned(manifest, path) {
  const url = new URL(path, dataRoot);
  url.searchParams.set("v", manifest.model_version);
  return checkVersion(await fetchJson(url), manifest, url);
}

export function axisIndex(manifest, dim, value) {
  const i = manifest.axes[dim].indexOf(value);
  if (i < 0) throw new DataError(`${dim}=${value} is not on the grid.`);
  return i;
}

// The path under data/ of the `kind` file ("core", "shard") that holds `state`.
export function filePath(manifest, kind, state) {
  const file = manifest.contract.files[kind];
  let path = file.pattern;
  for (const dim of file.by) {
    path = path.replaceAll(`{${dim}_index}`, String(axisIndex(manifest, dim, state[dim])));
    path = path.replaceAll(`{${dim}}`, String(state[dim]));
  }
  return path;
}

// Every file a state needs, fetched at once: {manifest, config, core, shard, ...}; config is the
// state's configuration (manifest "configurations"), whose axes index its tables.
export async function loadState(manifest, state) {
  const kinds = Object.keys(manifest.contract.files);
  const files = await Promise.all(kinds.map((kind) => loadVersioned(manifest, filePath(manifest, kind, state))));
  const config = manifest.configurations.find((c) => c.gpu === state.gpu && c.target === state.target && c.tp === state.tp);
  if (!config) throw new DataError(`${state.target} on ${state.gpu} (${state.tp} GPUs) is not a configuration of the site.`);
  return Object.fromEntries([["manifest", manifest], ["config", config], ...kinds.map((kind, i) => [kind, files[i]])]);
}

// Start fetching what a nearby state will need, without waiting for it: `states` whose files
// are not loaded yet.
export function prefetch(manifest, states) {
  for (const state of states) loadState(manifest, state).catch(() => {});
}

// The value of `field` at `state`, with some dims set otherwise by `at` ({batch: 64},
// {gamma_cf: 3}): all by axis value, as in the state.
export function lookup(data, field, state, at = {}) {
  const { contract, axes } = data.manifest;
  const spec = contract.fields[field];
  if (!spec) throw new DataError(`"${field}" is not a field of the data.`);
  const table = contract.tables[spec.table];
  const values = data[table.file]?.[spec.table]?.[field];
  if (values === undefined) throw new DataError(`${table.file} data have no "${field}".`);
  let index = 0;
  let size = 1;
  for (const dim of table.dims) {
    const axis = data.config?.axes[dim] ?? axes[dim];
    const position = axis.indexOf(dim in at ? at[dim] : state[dim]);
    if (position < 0) throw new DataError(`${dim}=${at[dim] ?? state[dim]} is not on the grid of "${field}".`);
    index = index * axis.length + position;
    size *= axis.length;
  }
  if (table.dims.length === 0) return values[0];
  if (values.length !== size) {
    throw new DataError(`"${field}" has ${values.length} values; its dims [${table.dims}] need ${size}.`);
  }
  return values[index];
}
