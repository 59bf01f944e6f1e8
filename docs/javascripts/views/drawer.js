// The theme's navigation drawer (MkDocs Material, below 1,220 px wide: the site's pages and the
// table of contents) opens while the keyboard is in it and closes as the keyboard leaves it. The
// theme opens it only from its menu button, a label the keyboard cannot reach, and Tab walked
// through its links while it sat off screen, the focus nowhere to be seen (found by a cold read
// at 768 px: 32 Tab presses with no focus in sight).
const DRAWER = "#__drawer";
const SIDEBAR = ".md-sidebar--primary";

let installed = false;

export function installDrawerFocus() {
  if (installed) return;
  installed = true;
  const toggle = (open) => {
    const drawer = document.querySelector(DRAWER);
    if (!drawer || drawer.checked === open) return;
    drawer.checked = open;
    drawer.dispatchEvent(new Event("change", { bubbles: true }));
  };
  // (the theme's own toggle is a checkbox the drawer's CSS follows; where the drawer is a sidebar,
  // its state changes nothing)
  document.addEventListener("focusin", (event) => {
    const inDrawer = event.target instanceof Element && event.target.closest(SIDEBAR);
    if (inDrawer && event.target.matches(":focus-visible")) toggle(true);
    else if (!inDrawer && document.querySelector(DRAWER)?.checked && event.relatedTarget?.closest?.(SIDEBAR)) toggle(false);
  });
}
