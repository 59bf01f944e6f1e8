// A linked state's numbers in the simulation as soon as its files are in, while the rest of the
// page is still being parsed: the readouts, the controls and the bar, nothing else. The page is
// set up once it is parsed (page.js), and then renders everything, these included, again.
// Until then the build's numbers stay hidden (head.js, spec.css) everywhere else.
import { lookup } from "../core/data.js";
import { useFormats } from "../core/format.js";
import { serializeQuery } from "../core/url-state.js";
import { writeControls } from "./controls.js";
import { renderReadouts } from "./readouts.js";

// The simulation, once the parser is past its end (it has a next sibling), else null.
function parsedSimulation() {
  const sim = document.querySelector(".spec-sim#simulation");
  return sim && (sim.nextSibling !== null || document.readyState !== "loading") ? sim : null;
}

function show(sim, manifest, state, data) {
  useFormats(manifest.formats);
  renderReadouts(sim, data, state);
  writeControls(sim, manifest, state);
  const fits = Boolean(lookup(data, "fits_in_memory", state));
  for (const el of sim.querySelectorAll("[data-warning=memory], [data-fit-note]")) el.hidden = fits;
  for (const el of sim.querySelectorAll("[data-fits-note]")) el.hidden = !fits;
  // Which state the readouts show: spec.css shows them from now on; page.js keeps it up to date.
  sim.dataset.readouts = serializeQuery(state, manifest);
}

// `data` ({manifest, config, core, ...}, core/data.js loadState) is of `state`, the URL's. Shown
// if the page is still loading (once it is parsed, page.js does it all) and the state is not
// the build's own. Waits a frame at a time for the parser to pass the simulation.
export function showEarly(manifest, state, data) {
  if (location.search.length <= 1) return;
  const attempt = () => {
    if (document.readyState !== "loading") return;
    const sim = parsedSimulation();
    if (!sim) {
      requestAnimationFrame(attempt);
      return;
    }
    try {
      show(sim, manifest, state, data);
    } catch (error) {
      // Not shown early, then: the page's own setup shows it, or says why it cannot.
      delete sim.dataset.readouts;
    }
  };
  attempt();
}
