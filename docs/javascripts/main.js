// Entry point: an async ES module loaded from <head>, so it runs as soon as its few modules are
// in, while the document is still being parsed. It asks for the numbers of the state in the URL
// at once and shows them in the simulation when they arrive (views/early-readouts.js); the page
// (page.js, which imports everything else) is set up once the document is parsed, and MkDocs
// Material's document$ then announces each page of instant navigation. Without the theme's
// script, the page is set up once. (views/charts.js loads the Vega bundle when the first chart
// mounts.)
// Only what asks for the state's files is imported statically: this module runs, and the files
// are requested, as soon as these two are in; what shows them (views/early-readouts.js and its
// imports, preloaded from <head>) is imported meanwhile.
import { loadState, requestManifestEarly } from "./core/data.js";
import { parseQuery } from "./core/url-state.js";

// Only data of the build this page belongs to, which <head> names: page.js refuses any other.
requestManifestEarly()
  .then((manifest) => {
    const built = document.querySelector("meta[name=spec-model-version]")?.content;
    if (built !== manifest.model_version) return;
    const { state } = parseQuery(location.search, manifest);
    return Promise.all([loadState(manifest, state), import("./views/early-readouts.js")])
      .then(([data, { showEarly }]) => showEarly(manifest, state, data));
  })
  .catch(() => {}); // the page's setup asks again, and says what failed

function run(setupPage) {
  setupPage().catch((error) => {
    // Setup reports its own failures in the page; this is the last resort, kept off the
    // console's error level so a broken chart does not look like a broken site.
    console.warn("speculative-decoding explainer: setup failed", error);
  });
}

// The first page is set up as soon as it is parsed, not when the theme gets round to announcing
// it (its bundle, a classic script, has run by then: document$ exists). The theme's first
// announcement is that same page, so it is skipped; every later one is a new page.
// page.js is imported here, not statically: this module then runs as soon as its few imports are
// in, and page.js and its imports (preloaded at the end of <body>: overrides/main.html) do not
// take the connections a linked state's files need.
async function start() {
  const { installHistory, setupPage } = await import("./page.js");
  installHistory();
  run(setupPage);
  const document$ = window.document$;
  if (!document$ || typeof document$.subscribe !== "function") return;
  let first = true;
  document$.subscribe(() => {
    if (first) first = false;
    else run(setupPage);
  });
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
else start();
