// What the reader is reading stays where it is on screen while a state they asked for from the
// page (an explorable link, Back or Forward, a click on a chart) is drawn; and where the reader
// was in each history entry, so that Back and Forward return to it.
//
// The browser's scroll anchoring keeps most of the page still, but it anchors to a block that
// is partly on screen, and a change inside that block below its top moves everything after it:
// a figure taller than the window that gains a "does not fit" note at its foot, a chart whose
// legend gains a row as it comes on screen, after the numbers. Safari has no scroll anchoring
// at all. So the page holds an element itself: the link clicked, the chart clicked, or after
// Back the link last clicked if it is still on screen, else the first block whose top is.

// The blocks a reader's eye rests on, outside the simulation (which is held by its own top).
const READING_BLOCKS = "p, li, h2, h3, h4, dt, dd, figure, table, pre, blockquote, details";
// Input that moves the page or starts something else: from then on the reader chose where they are.
const READER_MOVES = ["wheel", "touchstart", "keydown", "pointerdown"];
// Held until every chart shows the state (page.js releases it then) or the reader moves, and
// no longer than this.
const HOLD_MS = 8000;

// The blocks in the order of the page, and the simulation; nothing inside the simulation or a
// figure, which change inside.
function readingBlocks(article, sim) {
  return [...article.querySelectorAll(sim?.id ? `#${sim.id}, ${READING_BLOCKS}` : READING_BLOCKS)]
    .filter((el) => el === sim || (!sim?.contains(el) && !el.parentElement?.closest("figure")));
}

// (an element not drawn, such as the paste box's no-JavaScript note, has a box of nothing at the
// window's top: it is no place to read)
const drawn = (el) => el.getClientRects().length > 0;

function topOnScreen(el) {
  if (!drawn(el)) return false;
  const { top } = el.getBoundingClientRect();
  return top >= 0 && top < innerHeight;
}

// Where no block's top is on screen (a figure taller than the window fills it), the innermost
// block across the window's top edge is what the reader is reading.
function acrossTheTop(el) {
  if (!drawn(el)) return false;
  const { top, bottom } = el.getBoundingClientRect();
  return top < 0 && bottom > 0;
}

function readingIndex(blocks) {
  const index = blocks.findIndex(topOnScreen);
  return index >= 0 ? index : blocks.findLastIndex(acrossTheTop);
}

export class ReadingAnchor {
  /** Holds `element` where it is on screen now, through every change of the page's height, until
   *  the reader moves the page, HOLD_MS pass, or release() is called. `afterTraversal`: called
   *  from a popstate handler, where the browser is about to scroll the page back to where it was
   *  when the reader left that entry (Chromium does so even if the handler sets
   *  history.scrollRestoration to "manual"): that scroll, in the next frame, is not the reader's. */
  constructor(element, { afterTraversal = false } = {}) {
    this.element = element;
    this.top = element.getBoundingClientRect().top;
    this.pageTop = this.top + scrollY;
    this.at = performance.now();
    this.released = false;
    this.restoring = afterTraversal;
    if (afterTraversal) requestAnimationFrame(() => requestAnimationFrame(() => { this.restoring = false; }));
    this.release = this.release.bind(this);
    this.onScroll = this.onScroll.bind(this);
    for (const type of READER_MOVES) addEventListener(type, this.release, { capture: true, passive: true });
    addEventListener("scroll", this.onScroll, { passive: true });
    // A resize is reported after layout and before paint: the reader never sees the move. Each
    // block of the page is watched, not only the body: a block above the reader that grows as one
    // below shrinks leaves the body's height as it was.
    this.resizes = new ResizeObserver(() => this.hold());
    this.resizes.observe(document.body);
    for (const block of element.closest("article")?.children ?? []) this.resizes.observe(block);
  }

  /** The element to hold after Back or Forward: `lastLink` if any of it is on screen, else the
   *  first reading block in `article` (or `sim`) whose top is on screen; null if none is. */
  static onScreen(article, sim, lastLink) {
    const inView = (el) => {
      const { top, bottom } = el.getBoundingClientRect();
      return bottom > 0 && top < innerHeight;
    };
    if (lastLink?.isConnected && inView(lastLink)) return lastLink;
    const blocks = readingBlocks(article, sim);
    return blocks[readingIndex(blocks)] ?? null;
  }

  /** Where the reader is, to keep with a history entry: {index, top}, the first drawn reading
   *  block whose top is on screen, else the innermost one across the window's top (its index
   *  among the page's blocks, which no state changes) and that top in the window, in px (below
   *  0 for a block across the top); null if there is neither. */
  static where(article, sim) {
    const blocks = readingBlocks(article, sim);
    const index = readingIndex(blocks);
    return index < 0 ? null : { index, top: blocks[index].getBoundingClientRect().top };
  }

  /** The block a `where()` named, or null if the page has no such block. */
  static at(article, sim, where) {
    return Number.isInteger(where?.index) && Number.isFinite(where?.top) ? readingBlocks(article, sim)[where.index] ?? null : null;
  }

  /** Scrolls the element back to where it was (now: the page calls it as soon as it has changed
   *  the page, so a script reading positions next sees them in place). */
  hold() {
    if (this.released) return;
    if (!this.element.isConnected || performance.now() - this.at > HOLD_MS) {
      this.release();
      return;
    }
    const top = this.element.getBoundingClientRect().top;
    this.pageTop = top + scrollY;
    if (Math.abs(top - this.top) >= 1) scrollBy({ top: top - this.top, behavior: "instant" });
  }

  /** A scroll that moved the element while the page above it kept its layout came from the
   *  reader (the scroll bar, which sends none of READER_MOVES) or a script they started: let go.
   *  One that follows a change of layout (the browser's scroll anchoring) or a traversal is
   *  corrected. */
  onScroll() {
    if (this.released) return;
    const top = this.element.getBoundingClientRect().top;
    if (Math.abs(top + scrollY - this.pageTop) < 1 && !this.restoring) {
      if (Math.abs(top - this.top) >= 1) this.release();
    } else {
      this.hold();
    }
  }

  release() {
    if (this.released) return;
    this.released = true;
    this.resizes.disconnect();
    for (const type of READER_MOVES) removeEventListener(type, this.release, { capture: true });
    removeEventListener("scroll", this.onScroll);
  }
}

