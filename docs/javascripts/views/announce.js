// The spoken summary ([data-status], a polite live region): said once, when the reader has
// stopped moving things and the numbers for the state are on screen.
import { format } from "../core/format.js";
import { controlText } from "./controls.js";

// The reader has stopped moving things for this long before the summary is announced.
const ANNOUNCE_DELAY_MS = 500;

export function mountAnnouncer(sim, manifest) {
  const status = sim.querySelector("[data-status]");
  let timer = 0;
  let pending = false;
  let latest = null; // {state, values}: the numbers on screen, or null while loading

  function say() {
    if (!status) return;
    if (!latest) {
      pending = true; // said once the values for this state are on screen
      return;
    }
    pending = false;
    const { state: s, values: v } = latest;
    // the word the bar shows beside the same number ("1.00×" is "no faster", never "faster")
    const verdict = format("verdict", v.speedup);
    const sequences = s.batch === 1 ? "sequence" : "sequences";
    status.textContent =
      `Speedup ${format("times", v.speedup)} at ${controlText(manifest, "batch", s.batch)} concurrent ` +
      `${sequences}, ${controlText(manifest, "drafter", s.drafter)}, γ ${s.gamma}, α ` +
      `${controlText(manifest, "alpha", s.alpha)}: speculative decoding is ${verdict} than plain decoding ` +
      `(${format("tps", v.spec_tokens_per_s)} against ${format("tps", v.plain_tokens_per_s)}).` +
      (v.fits ? "" : ` These settings do not fit: they need ${format("gb_needed", v.memory)}, more than ` +
        `the ${format("gb", v.gpu_memory)} of GPU memory.`);
  }

  return {
    soon() {
      clearTimeout(timer);
      timer = setTimeout(say, ANNOUNCE_DELAY_MS);
    },
    shown(state, values) {
      latest = values ? { state, values } : null;
      if (pending && latest) say();
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
