// Entry point (an ES module, so it runs after the theme's classic bundle; views/charts.js loads the
// Vega bundle when the first chart mounts). MkDocs Material's document$ fires on first load and after each
// instant navigation; without it (theme script missing) the page is set up once.
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

// The numbers of the state in the URL are on their way before the theme announces the page.
// (Only data of the build this page belongs to: page.js refuses any other, and fetches nothing.)
requestManifestEarly()
  .then((manifest) => {
    const built = document.querySelector("[data-model-version]")?.dataset.modelVersion;
    if (built === manifest.model_version) prefetch(manifest, [parseQuery(location.search, manifest).state]);
  })
  .catch(() => {});
installHistory();
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(run);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", run, { once: true });
} else {
  run();
}
