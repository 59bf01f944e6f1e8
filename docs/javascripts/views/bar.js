// The bar: the state and its verdict, fixed at the bottom of the window once the reader has read
// past the simulation's controls (or changed the state from elsewhere). Explorable links and
// clicks on charts change the state where the reader is (no jump); the bar shows the result, and
// its button opens the full simulation. After such a jump, "Back to reading"
// returns to the reading position. The page ends that much lower (spec.css), so the bar never
// hides the end of the text; always, not only while the bar shows: a page whose length changed as
// the bar came and went would clamp "Back to reading" near its end (the bar is
// hidden while the simulation is on screen) and move the text under a reader at its end.
// The room is an element of its own at the end of <body>, sized here: a class or a custom property
// on <html> or <body> would restyle every element of the essay as the page is set up.
// Its numbers are ordinary [data-readout] and [data-output] elements: the readouts and controls
// views fill them like any other.
import { ReadingAnchor } from "./reading-anchor.js";

const CHANGED_MS = 1200;

export function mountBar(sim) {
  const bar = sim.querySelector("[data-bar]");
  const main = sim.querySelector("[data-sim-main]") ?? sim;
  const back = sim.querySelector("[data-action=back-to-reading]");
  // the same, under the simulation's notes, where the bar opens it to say why a link was corrected
  const backBelow = sim.querySelector("[data-action=back-to-reading-below]");
  const backBelowRow = backBelow?.closest("p");
  if (!bar) return { changed() {}, corrected() {}, clearNote() {}, quote() {}, stop() {} };
  const note = bar.querySelector("[data-bar-note]");
  const quoted = [...bar.querySelectorAll("[data-bar-quoted]")];
  document.querySelector("body > .spec-bar-room")?.remove(); // an earlier page's (instant navigation)
  const room = document.createElement("div");
  room.className = "spec-bar-room";
  room.setAttribute("aria-hidden", "true");
  let offscreen = false;
  let passed = false; // the controls are above the window: the reader has read past them
  let touched = false; // the state was changed from outside the controls
  let headlineShown = false; // the simulation's own sticky verdict is on screen (phones only)
  // Where the reader was when the bar opened the simulation ({index, top}: ReadingAnchor.where):
  // the text, not the scroll offset, is what "Back to reading" returns to; the
  // page above it may have grown meanwhile (a state that does not fit adds notes under figures).
  let readingAt = null;
  const article = sim.closest("article") ?? document.querySelector(".md-content article") ?? document.body;
  let timer = 0;
  document.body.append(room);

  // Over the text column: centred on the simulation (which spans it) and no wider, so the bar
  // never covers the navigation or the table of contents beside the text (spec.css).
  const align = () => {
    const column = sim.getBoundingClientRect();
    bar.style.setProperty("--spec-column-center", `${column.left + column.width / 2}px`);
    bar.style.setProperty("--spec-column-width", `${column.width}px`);
  };
  // While the bar shows, what takes the keyboard's focus is scrolled clear of it: the root's
  // scroll-padding-bottom is the bar's real height, from its top to the window's bottom edge, and
  // a little more (spec.css). It follows the bar as it grows or shrinks (a fit note, a note, the
  // wrapping at another width). A property of the root's own, not inherited: nothing else is
  // restyled, and no box moves (no scroll anchoring is lost).
  const root = document.documentElement.style;
  const clear = () => {
    if (bar.hidden) {
      root.removeProperty("scroll-padding-bottom");
      return;
    }
    const gap = parseFloat(getComputedStyle(bar).bottom) || 0;
    root.scrollPaddingBottom = `${Math.ceil(bar.offsetHeight + 2 * gap)}px`;
  };
  const resized = new ResizeObserver(clear);
  resized.observe(bar);
  // Focus moved to a text box reveals its caret, not its whole box (Chromium's focus scroll for an
  // editable element): the paste box, Tabbed to, stayed half under the bar (found by a cold read).
  // Anything focused from the keyboard that ends partly under the bar is brought clear of it, as
  // the scroll padding above clears every other stop; a click's focus on a link or a button (not
  // :focus-visible) is left where it was.
  // And the last element of the text (outside the simulation) that had the focus: "Back to
  // reading" gives the focus back to it (found by a cold read: it went to the paragraph the
  // reading position is kept by, one before the link followed, its ring under the header).
  let lastInText = null;
  const onFocus = (event) => {
    const el = event.target;
    if (!(el instanceof Element)) return;
    if (article.contains(el) && !sim.contains(el)) lastInText = el;
    if (bar.hidden || !el.matches(":focus-visible")) return;
    if (el.getBoundingClientRect().bottom > bar.getBoundingClientRect().top) el.scrollIntoView({ block: "nearest" });
  };
  document.addEventListener("focusin", onFocus);
  // Not before the reader reaches the simulation, the page's opening being about the starting
  // state, unless a link or a click elsewhere set another (linked, changed, corrected).
  const show = () => {
    // Never two verdicts on screen: in the lower part of the simulation a phone shows the panel's
    // sticky headline (spec.css), and the bar would repeat it.
    const shown = offscreen && (passed || touched) && !headlineShown;
    if (shown) align();
    bar.hidden = !shown;
    clear();
    // the bar's last height: the room stays when it hides
    if (shown) room.style.setProperty("--spec-bar-space", `${bar.offsetHeight}px`);
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) offscreen = !entry.isIntersecting || entry.intersectionRatio < 0.2;
      show();
    },
    // Off screen: less than a fifth of the controls, readouts and ladder in view.
    { threshold: [0, 0.2] },
  );
  // Passed: the simulation's top is above the window's. A jump from below the window to above it
  // crosses no threshold of the observer above, so this one watches everything above the
  // window's top edge (a root grown far upwards and shrunk to nothing at the bottom).
  const passedObserver = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) passed = entry.isIntersecting;
      show();
    },
    { rootMargin: "1000000px 0px -100% 0px" },
  );
  const headlineObserver = new IntersectionObserver((entries) => {
    for (const entry of entries) headlineShown = entry.isIntersecting; // never while display: none
    show();
  });
  observer.observe(main);
  passedObserver.observe(main);
  const headline = sim.querySelector(".spec-sim__headline");
  if (headline) headlineObserver.observe(headline);
  addEventListener("resize", align, { passive: true });

  let focusBack = null; // the element of the text the focus returns to with the reader
  bar.querySelector("[data-action=open-simulation]")?.addEventListener("click", () => {
    readingAt = ReadingAnchor.where(article, sim);
    focusBack = lastInText;
    if (back) back.hidden = false;
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    // While the bar says the link was corrected, open where the simulation says how: its notes
    // sit under the ladder, a screen or more below the panel's top.
    const notes = sim.querySelector("[data-notes]");
    const explain = note && !note.hidden && notes && !notes.hidden;
    if (backBelowRow) backBelowRow.hidden = !explain;
    (explain ? notes : sim).scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: explain ? "center" : "start" });
    sim.focus({ preventScroll: true });
  });
  const backToReading = () => {
    // Hidden first: the buttons' rows above the reading position change height with them.
    if (back) back.hidden = true;
    if (backBelowRow) backBelowRow.hidden = true;
    const block = ReadingAnchor.at(article, sim, readingAt);
    const top = readingAt?.top;
    const returnTo = focusBack;
    readingAt = focusBack = null;
    if (!block) return;
    requestAnimationFrame(() => {
      scrollBy({ top: block.getBoundingClientRect().top - top, behavior: "instant" });
      // The keyboard returns there too (not to the top of the page): to the link the reader
      // left the text by, where it is on screen; else the block takes the focus for as long as
      // it has it.
      const box = returnTo?.isConnected ? returnTo.getBoundingClientRect() : null;
      const header = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0;
      if (box && box.height > 0 && box.top >= header && box.bottom <= innerHeight) {
        returnTo.focus({ preventScroll: true });
        return;
      }
      if (!block.hasAttribute("tabindex")) {
        block.setAttribute("tabindex", "-1");
        block.addEventListener("blur", () => block.removeAttribute("tabindex"), { once: true });
      }
      block.focus({ preventScroll: true });
    });
  };
  back?.addEventListener("click", backToReading);
  backBelow?.addEventListener("click", backToReading);

  return {
    // The state changed from somewhere other than the controls: show it where the reader is.
    changed() {
      if (note) note.hidden = true; // the link's correction is past
      touched = true;
      show();
      clearTimeout(timer);
      bar.classList.add("is-changed");
      timer = setTimeout(() => bar.classList.remove("is-changed"), CHANGED_MS);
    },
    // The page's own link had values the simulation does not hold: say so where the reader is,
    // at the top of the page, far above the note under the simulation's ladder that says how.
    corrected() {
      if (!note) return;
      note.hidden = false;
      touched = true;
      show();
    },
    // The page opened on a link's state: shown from the top, where the opening's prose is about
    // the starting state (found by a cold read: a shared link showed nothing of its state until
    // the reader had scrolled past the simulation).
    linked() {
      touched = true;
      show();
    },
    // The readouts the sentence of the link just followed quotes (its data-bar-readout, keys
    // separated by spaces), beside the speedup; none for a link that quotes the speedup alone,
    // or a click on a chart.
    quote(keys) {
      const wanted = (keys ?? "").split(" ");
      for (const el of quoted) el.hidden = !wanted.includes(el.dataset.barQuoted);
    },
    // The reader has set a state of their own: the link's correction is past.
    clearNote() {
      if (note) note.hidden = true;
    },
    stop() {
      observer.disconnect();
      passedObserver.disconnect();
      headlineObserver.disconnect();
      resized.disconnect();
      document.removeEventListener("focusin", onFocus);
      root.removeProperty("scroll-padding-bottom");
      room.remove();
      removeEventListener("resize", align);
      clearTimeout(timer);
    },
  };
}
