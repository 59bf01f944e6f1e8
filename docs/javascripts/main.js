// Entry point (an ES module, so it runs after the classic scripts: the theme's bundle and
// vendor/vega-bundle.js). MkDocs Material's document$ fires on first load and after each
// instant navigation; without it (theme script missing) the page is set up once.
import { installHistory, setupPage } from "./page.js";

function run() {
  setupPage().catch((error) => {
    // Setup reports its own failures in the page; this is the last resort, kept off the
    // console's error level so a broken chart does not look like a broken site.
    console.warn("speculative-decoding explainer: setup failed", error);
  });
}

installHistory();
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(run);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", run, { once: true });
} else {
  run();
}
