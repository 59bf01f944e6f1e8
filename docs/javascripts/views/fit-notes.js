// Every figure that shows the current state says when that state does not fit in the GPU's
// memory (the note under it; its number is a live readout). The simulation has its own warning.
import { lookup } from "../core/data.js";

export function showFitNotes(root, data, state) {
  const fits = Boolean(lookup(data, "fits_in_memory", state));
  for (const note of root.querySelectorAll("[data-fit-note]")) note.hidden = fits;
}
