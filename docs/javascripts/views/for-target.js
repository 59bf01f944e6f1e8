// Blocks of the essay written for one target each ([data-for-target]: the decision rule's table
// of typical acceptance): the one for the simulation's target shows, as the figures beside it
// follow that target (found by a cold read: the table stayed on the starting target's while the
// map under it showed another's). The build shows the starting target's; spec.css hides them all
// while a linked state is on its way.
import { fitWideTables } from "./wide-tables.js";

export function showTargetBlocks(root, state) {
  for (const block of root.querySelectorAll("[data-for-target]")) {
    const shown = block.dataset.forTarget === state.target;
    if (block.hidden !== shown) continue;
    block.hidden = !shown;
    // a table shown for the first time is measured now: cards where it does not fit
    if (shown) fitWideTables(block);
  }
}
