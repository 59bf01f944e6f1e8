// A link to a section of the page being read (a search result, the table of contents, a
// heading's permalink) is followed by the browser, as a plain page's would be: the theme's search
// or drawer closes, the browser goes to the section (an entry in the history; Back returns, see
// page.js ownsSectionMove). Left to MkDocs Material's instant navigation (9.x), such a link
// fetches the page again and swaps it in, every chart drawn anew under the reader; and a search
// result, on a phone, left the window where it was: the theme pins the page while its
// full-screen search is open and, as it closes, puts the window back.
// Links to other pages stay with the theme's instant navigation; explorable links are page.js's.

// The element a #hash names on this page, or null.
export function sectionNamed(hash) {
  if (hash.length < 2) return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return null; // a malformed escape in the hash: no section to go to
  }
}

// The #hash a link to this page goes to: its own, or for a link to the page itself (the search's
// hit for the whole page) its title's, so that it is a section jump like any other, a history
// entry Back returns from (found by a cold read: the theme loaded the page again at its top, in
// place of the entry, and Back left the site). Null for a link elsewhere.
function hashOf(link) {
  if (link.origin !== location.origin || link.pathname !== location.pathname) return null;
  if (link.hash) return link.hash;
  const title = document.querySelector(".md-content article h1[id]");
  return title ? `#${title.id}` : null;
}

// The theme's own toggles (checkboxes it watches for "change"): unchecked, the search or the
// navigation drawer closes and the page is unpinned.
function closeOverlays() {
  for (const id of ["__search", "__drawer"]) {
    const toggle = document.getElementById(id);
    if (toggle?.checked) {
      toggle.checked = false;
      toggle.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  if (document.activeElement?.closest(".md-search")) document.activeElement.blur();
}

// On a phone the theme's search opens as a circle grown far beyond the window, and shrinks as it
// closes: until it has, the browser's layout viewport is that much taller (window.innerHeight
// ~2,500 px against 740), and a jump would place the section in its lower part, out of sight.
function settled() {
  if (getComputedStyle(document.body).position === "fixed") return false;
  const visible = window.visualViewport ? visualViewport.height * visualViewport.scale : innerHeight;
  return innerHeight <= visible + 1;
}

// A frame at a time until the page is unpinned and the search has shrunk away (at most
// MAX_FRAMES, about a second), then `run`.
const MAX_FRAMES = 60;

function whenSettled(run, frames = 0) {
  requestAnimationFrame(() => {
    if (!settled() && frames < MAX_FRAMES) whenSettled(run, frames + 1);
    else run();
  });
}

// Links with a handler of their own: explorable links (page.js) and "Try the example" (metrics.js).
const HANDLED_ELSEWHERE = "a.explore, a.spec-metrics-example";

let expectedHash = null;

// Whether the popstate event being dispatched is the jump's own (page.js's popstate handler asks
// before anyone else sees the event: head.js).
export function claimPopState() {
  return expectedHash !== null && location.hash === expectedHash;
}

export function installSectionLinks() {
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target.closest?.("a[href]");
      if (!link || link.matches(HANDLED_ELSEWHERE) || link.target) return;
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const hash = hashOf(link);
      if (!hash || !sectionNamed(hash)) return;
      event.preventDefault();
      event.stopPropagation(); // the theme's search and instant navigation
      closeOverlays();
      whenSettled(() => {
        // The browser's own way to a section: a history entry, the section as :target (which
        // the theme's styles keep clear of the header) and the jump. It fires popstate, which
        // the theme would take for a navigation and load the page again: claimPopState. The
        // same #section again changes no address, so the browser would not move: it goes there
        // anew, in place of the current entry. (The query stays the page's: the state shown.)
        expectedHash = hash;
        if (location.hash === hash) location.replace(location.pathname + location.search + hash);
        else location.hash = hash;
        expectedHash = null;
      });
    },
    true,
  );
}
