// The theme's light/dark toggle (MkDocs Material) by keyboard. It is a pair of radio buttons,
// each followed by the label that shows while its palette is on and switches to the other. While
// the palette follows the system's, the theme checks neither, so Tab reached the first whatever
// the palette: in dark, a stop with no ring (the label after it hidden) named "Switch to dark
// mode", where Space switched to light; in light, Space did nothing (found by a cold read). The
// radio of the palette shown is kept checked, so Tab reaches it: its ring is drawn around the
// label shown, its name is the switch that label makes, and Space or Enter on it switches as a
// click on that label does.
const HEADER = ".md-header";
const FORM = "[data-md-component=palette]";

let installed = false;

// The radio of the palette shown: the one whose label the theme shows.
function sync() {
  for (const input of document.querySelectorAll(`${FORM} input`)) {
    const label = input.nextElementSibling;
    if (label instanceof HTMLLabelElement) input.checked = !label.hidden;
  }
}

export function installPaletteToggle() {
  if (installed) return;
  installed = true;
  sync();
  // (the theme shows a label as it applies a palette: at start, and at every switch)
  const header = document.querySelector(HEADER);
  if (header) new MutationObserver(sync).observe(header, { subtree: true, attributes: true, attributeFilter: ["hidden"] });
  document.addEventListener("keydown", (event) => {
    if (event.key !== " " && event.key !== "Enter") return;
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.checked || !input.closest(FORM)) return;
    const other = input.nextElementSibling instanceof HTMLLabelElement && document.getElementById(input.nextElementSibling.htmlFor);
    if (!(other instanceof HTMLInputElement) || other === input) return;
    event.preventDefault();
    other.checked = true;
    other.dispatchEvent(new Event("change", { bubbles: true })); // the theme switches on it
    other.focus();
  });
}
