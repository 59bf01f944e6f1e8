// Typing in the header's search field, Chromium scrolls the page under it 41 px a keystroke (the
// field sits in the theme's sticky header; found by a cold read, and with the site's own scripts
// off too), so Back from a search result landed a screen above where the reader had been. Each
// keystroke's scroll is undone: the page stays where the reader left it.
export function holdPageWhileSearchTyping() {
  document.addEventListener("input", (event) => {
    if (!event.target.matches?.(".md-search__input")) return;
    const y = scrollY;
    const back = () => {
      if (scrollY !== y) scrollTo({ left: scrollX, top: y, behavior: "instant" });
    };
    addEventListener("scroll", back, { once: true });
    // (the keystroke's scroll comes with the next frame; a scroll after that is the reader's)
    requestAnimationFrame(() => requestAnimationFrame(() => removeEventListener("scroll", back)));
  }, true);
}
