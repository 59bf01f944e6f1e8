// The page's classic script in <head>: what must be done before the body is parsed (Back and
// Forward kept from the theme, a linked state's numbers hidden, the manifest requested, the
// classes of <html> the theme and the loading page need).
//
// A classic script in <head>, so its popstate listener is registered before the theme's bundle
// registers its own, and runs first. MkDocs Material treats the first popstate after a full
// page load as a navigation and fetches the page again, which would replace the simulation in
// the middle of a back/forward between two of its states. page.js sets the handler; when it
// claims the event (a change of this page's query only), the theme never sees it.
// Idempotent: instant navigation may append this <head> script again.
if (!window.__specPopstate) {
  window.__specPopstate = { handler: null };
  window.addEventListener("popstate", (event) => {
    const { handler } = window.__specPopstate;
    if (handler && handler() === true) event.stopImmediatePropagation();
  });
}

// Where the reader was reading when they left this history entry (page.js recordReading keeps it
// in history.state), read now: on a reload the theme's bundle replaces history.state with its
// own scroll offset as it starts, before page.js is set up to put the reader back.
if (["reload", "back_forward"].includes(performance.getEntriesByType("navigation")[0]?.type)) {
  window.__specReturn = history.state?.specReading ?? null;
}

// A linked state (a query) is painted hidden until its own numbers are on screen (page.js
// removes the class; spec.css hides the build's numbers meanwhile). Set here, in <head>, so that
// not even the first paint shows the default state's numbers under a link to another. A script
// that never runs (no JavaScript) leaves the build's numbers, which are then the truth.
// Should the page's modules never run (an old browser), the build's numbers come back after a while.
if (location.search.length > 1) {
  document.documentElement.classList.add("spec-pending");
  window.__specPendingTimer = setTimeout(() => document.documentElement.classList.remove("spec-pending"), 10000);
}

// The manifest of the build this page belongs to (<meta name="spec-model-version">), requested
// now: it says which files hold the state in the address, and core/data.js takes this request
// over. Not a <link rel="preload">: the theme makes every relative href in the page absolute as
// its script starts, and the browser then preloaded the manifest a second time, for nothing.
if (!window.__specManifest) {
  const version = document.querySelector("meta[name=spec-model-version]")?.content;
  if (version) {
    const url = new URL("../data/manifest.json", document.currentScript.src);
    url.searchParams.set("v", version);
    window.__specManifest = { url: url.href, response: fetch(url) };
    window.__specManifest.response.catch(() => {}); // core/data.js reports a failure
  }
}

// The classes MkDocs Material's bundle gives <html> as it starts ("js" for "no-js", and the
// focus-visible polyfill's), given now, before the body is parsed: changed by the bundle, after
// the whole essay is styled, they had every element of it styled again. The bundle's own change
// is then no change.
document.documentElement.classList.replace("no-js", "js");
document.documentElement.classList.add("js-focus-visible");
document.documentElement.setAttribute("data-js-focus-visible", "");

// While the page loads, the browser lays out and styles only the part of the essay below the
// simulation that is on screen (spec.css "spec-loading": content-visibility): the essay is most
// of the page, and laying it all out, more than once as the parser goes, held up the simulation's
// numbers and its first chart. page.js lays the whole page out once they are drawn. Only on a
// fresh load that opens at the top: a link to a #section, a reload or Back/Forward put the
// reader at a place whose position would be an estimate meanwhile. Not again on an instant
// navigation (this script may run again then): the page is already complete.
if (document.readyState === "loading" && !location.hash &&
    performance.getEntriesByType("navigation")[0]?.type === "navigate") {
  document.documentElement.classList.add("spec-loading");
  // Should the page's modules never run, the whole page is laid out all the same.
  window.__specLoadingTimer = setTimeout(() => document.documentElement.classList.remove("spec-loading"), 10000);
}
