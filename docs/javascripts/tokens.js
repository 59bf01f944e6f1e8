// The token row: one sample iteration per line, one cell per token position. Mirrors the
// token_row macro of generator/templates/simulation.html.j2 (the no-JS rendering).

// Colour alone does not tell the kinds apart (colour-blind readers, print): each has a symbol.
export const TOKEN_KINDS = {
  accepted: "✓",
  rejected: "✗",
  discarded: "–",
  corrected: "↻",
  bonus: "+",
};

// k accepted of γ: k accepted, then either (rejected, γ−k−1 discarded, corrected) or a bonus.
export function tokenKinds(gamma, k) {
  const kinds = Array(k).fill("accepted");
  if (k < gamma) kinds.push("rejected", ...Array(gamma - k - 1).fill("discarded"), "corrected");
  else kinds.push("bonus");
  return kinds;
}

function describe(pass, gamma, k) {
  if (k === gamma) return `Pass ${pass}: ${k} of ${gamma} guesses accepted, then a bonus token.`;
  const discarded = gamma - k - 1;
  const tail = discarded > 0 ? `, ${discarded} discarded` : "";
  return `Pass ${pass}: ${k} of ${gamma} guesses accepted, then a rejected guess${tail} and a corrected token.`;
}

export function renderTokenRow(list, gamma, counts) {
  const items = counts.map((k, i) => {
    const li = document.createElement("li");
    li.className = "spec-tokens__iteration";
    const text = document.createElement("span");
    text.className = "spec-visually-hidden";
    text.textContent = describe(i + 1, gamma, k);
    li.append(text);
    for (const kind of tokenKinds(gamma, k)) {
      const cell = document.createElement("span");
      cell.className = `spec-token spec-token--${kind}`;
      cell.setAttribute("aria-hidden", "true");
      cell.textContent = TOKEN_KINDS[kind];
      li.append(cell);
    }
    return li;
  });
  list.replaceChildren(...items);
}
