// The bar: the state and its verdict, fixed at the bottom of the window while the simulation's
// controls are off screen. Explorable links and clicks on charts change the state where the
// reader is (no jump); the bar shows the result, and its button opens the full simulation. After
// such a jump, "Back to where you were reading" returns to the reading position.
// Its numbers are ordinary [data-readout] and [data-output] elements: the readouts and controls
// views fill them like any other.
const CHANGED_MS = 1200;

export function mountBar(sim) {
  const bar = sim.querySelector("[data-bar]");
  const main = sim.querySelector("[data-sim-main]") ?? sim;
  const back = sim.querySelector("[data-action=back-to-reading]");
  if (!bar) return { changed() {}, stop() {} };
  let offscreen = false;
  let readingAt = null; // scroll position to return to, after the bar opened the simulation
  let timer = 0;

  // Over the text column: centred on the simulation (which spans it) and no wider, so the bar
  // never covers the navigation or the table of contents beside the text (spec.css).
  const align = () => {
    const column = sim.getBoundingClientRect();
    bar.style.setProperty("--spec-column-center", `${column.left + column.width / 2}px`);
    bar.style.setProperty("--spec-column-width", `${column.width}px`);
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) offscreen = !entry.isIntersecting || entry.intersectionRatio < 0.2;
      if (offscreen) align();
      bar.hidden = !offscreen;
    },
    // Off screen: less than a fifth of the controls, readouts and ladder in view.
    { threshold: [0, 0.2] },
  );
  observer.observe(main);
  addEventListener("resize", align, { passive: true });

  bar.querySelector("[data-action=open-simulation]")?.addEventListener("click", () => {
    readingAt = scrollY;
    if (back) back.hidden = false;
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    sim.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
    sim.focus({ preventScroll: true });
  });
  back?.addEventListener("click", () => {
    // Hidden first: the button's row above the reading position changes height with it.
    back.hidden = true;
    const top = readingAt;
    readingAt = null;
    if (top !== null) requestAnimationFrame(() => scrollTo({ top, behavior: "auto" }));
  });

  return {
    // The state changed from somewhere other than the controls: show it where the reader is.
    changed() {
      clearTimeout(timer);
      bar.classList.add("is-changed");
      timer = setTimeout(() => bar.classList.remove("is-changed"), CHANGED_MS);
    },
    stop() {
      observer.disconnect();
      removeEventListener("resize", align);
      clearTimeout(timer);
    },
  };
}
