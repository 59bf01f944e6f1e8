// The page's classic script in <head>: it runs before the body is parsed.
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
