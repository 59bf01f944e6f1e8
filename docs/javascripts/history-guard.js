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
