// The notes under the simulation's readouts: what a link's bad values were corrected to, or why numbers
// could not be shown. Plain text only: a note may quote the URL.
export function showNotes(sim, notes, { error = false } = {}) {
  const region = sim?.querySelector("[data-notes]");
  if (!region) return;
  region.replaceChildren(
    ...notes.map((text) => {
      const p = document.createElement("p");
      p.textContent = text;
      return p;
    }),
  );
  region.classList.toggle("is-error", error);
  region.hidden = notes.length === 0;
}
