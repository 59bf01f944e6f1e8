// A table wider than the page scrolls sideways inside its wrapper; a keyboard reader can scroll it
// only if the wrapper takes focus. Wrappers that overflow get a tab stop and a name (the table's
// caption, else its summary or heading); the others stay out of the tab order.
const WRAPPERS = ".md-typeset__scrollwrap";

function name(wrapper) {
  const table = wrapper.querySelector("table");
  const caption = table?.caption?.textContent.trim();
  const summary = wrapper.closest("details")?.querySelector("summary")?.textContent.trim();
  const headers = [...(table?.tHead?.rows[0]?.cells ?? [])].map((c) => c.textContent.trim()).slice(0, 3);
  return caption || summary || (headers.length ? `Table: ${headers.join(", ")}…` : "Table");
}

function mark(root) {
  for (const wrapper of root.querySelectorAll(WRAPPERS)) {
    const overflows = wrapper.scrollWidth > wrapper.clientWidth + 1;
    if (overflows && !wrapper.hasAttribute("tabindex")) {
      wrapper.tabIndex = 0;
      wrapper.setAttribute("role", "region");
      wrapper.setAttribute("aria-label", name(wrapper));
    } else if (!overflows && wrapper.getAttribute("tabindex") === "0") {
      wrapper.removeAttribute("tabindex");
      wrapper.removeAttribute("role");
      wrapper.removeAttribute("aria-label");
    }
  }
}

let installed = false;

export function markScrollRegions(root) {
  mark(root);
  if (installed) return;
  installed = true;
  // Overflow changes with the window's width, and a table inside a closed disclosure has none.
  let pending = false;
  const later = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      mark(document);
    });
  };
  addEventListener("resize", later);
  document.addEventListener("toggle", later, true);
}
