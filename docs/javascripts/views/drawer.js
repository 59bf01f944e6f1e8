// The theme's navigation drawer (MkDocs Material, below 1,220 px wide: the site's pages and the
// table of contents) opens while the keyboard is in it and closes as the keyboard leaves it. The
// theme opens it only from its menu button, a label the keyboard cannot reach, and Tab walked
// through its links while it sat off screen, the focus nowhere to be seen (found by a cold read
// at 768 px: 32 Tab presses with no focus in sight). Within it, the page's table of contents is
// a panel of its own that the theme slides in from the page's entry: it slides in while the
// keyboard is in it and out as the keyboard moves on to the other pages (found by a cold read:
// the drawer opened, blank, while Tab walked the panel's links unseen).
const DRAWER = "#__drawer";
const SIDEBAR = ".md-sidebar--primary";
const TOC = "#__toc";
const TOC_PANEL = ".md-nav--secondary";

let installed = false;

export function installDrawerFocus() {
  if (installed) return;
  installed = true;
  const set = (selector, checked) => {
    const toggle = document.querySelector(selector);
    if (!toggle || toggle.checked === checked) return;
    toggle.checked = checked;
    toggle.dispatchEvent(new Event("change", { bubbles: true }));
  };
  // (the theme's own toggle is a checkbox the drawer's CSS follows; where the drawer is a sidebar,
  // its state changes nothing)
  document.addEventListener("focusin", (event) => {
    const inDrawer = event.target instanceof Element && event.target.closest(SIDEBAR);
    if (inDrawer && event.target.matches(":focus-visible")) {
      set(DRAWER, true);
      set(TOC, Boolean(event.target.closest(TOC_PANEL)));
    } else if (!inDrawer && document.querySelector(DRAWER)?.checked && event.relatedTarget?.closest?.(SIDEBAR)) {
      set(TOC, false);
      set(DRAWER, false);
    }
  });
}
