// The notes under the simulation's readouts: what a link's bad values were corrected to, or why numbers
// could not be shown. Plain text only: a note may quote the URL (its names, values and amounts
// kept on one line by spans whose text is set as text: views/names.js).
import { keepPhrasesWhole } from "./names.js";

export function showNotes(sim, notes, { error = false } = {}) {
  const region = sim?.querySelector("[data-notes]");
  if (!region) return;
  region.replaceChildren(
    ...notes.map((text) => {
      const p = document.createElement("p");
      p.textContent = text;
      keepPhrasesWhole(p);
      return p;
    }),
  );
  region.classList.toggle("is-error", error);
  region.hidden = notes.length === 0;
}
