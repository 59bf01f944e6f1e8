// Entry point: an async ES module loaded from <head>, so it runs as soon as its modules are in,
// while the document may still be parsing (views/charts.js loads the Vega bundle when the first
// chart mounts). The first page is set up once it is parsed; MkDocs Material's document$ then
// announces each page of instant navigation. Without the theme's script, the page is set up once.
import { prefetch, requestManifestEarly } from "./core/data.js";
import { parseQuery } from "./core/url-state.js";
import { installHistory, setupPage } from "./page.js";

function run() {
  setupPage().catch((error) => {
    // Setup reports its own failures in the page; this is the last resort, kept off the
    // console's error level so a broken chart does not look like a broken site.
    console.warn("speculative-decoding explainer: setup failed", error);
  });
}

// The numbers of the state in the URL are on their way before the page is parsed. (Only data of
// the build this page belongs to, which <head> names: page.js refuses any other.)
requestManifestEarly()
  .then((manifest) => {
    const built = document.querySelector("meta[name=spec-model-version]")?.content;
    if (built === manifest.model_version) prefetch(manifest, [parseQuery(location.search, manifest).state]);
  })
  .catch(() => {});
installHistory();

// The first page is set up as soon as it is parsed, not when the theme gets round to announcing
// it (its bundle, a classic script, has run by then: document$ exists). The theme's first
// announcement is that same page, so it is skipped; every later one is a new page.
function start() {
  run();
  const document$ = window.document$;
  if (!document$ || typeof document$.subscribe !== "function") return;
  let first = true;
  document$.subscribe(() => {
    if (first) first = false;
    else run();
  });
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
else start();
