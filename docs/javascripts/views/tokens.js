// The token row: one sample pass per line, one cell per token. The kinds of each pass come from
// the data (the build chose the passes); their symbols and the sentences a screen reader hears
// are the manifest's (generator/contract.py), as the build wrote them into the page.

function sentence(contract, number, kinds) {
  const gamma = kinds.length - 1;
  const counts = {
    pass: number,
    accepted: [...kinds].filter((k) => k === "a").length,
    gamma,
    discarded: [...kinds].filter((k) => k === "d").length,
    guesses: contract.guess_nouns[gamma === 1 ? "one" : "other"],
  };
  const which = kinds.endsWith("b") ? "bonus" : counts.discarded ? "discarded" : "rejected";
  return contract.token_sentences[which].replace(/\{(\w+)\}/g, (_, name) => String(counts[name]));
}

export function renderTokenRow(list, passes, contract) {
  const key = passes.join(" ");
  if (list.dataset.passes === key) return; // the same passes: the row on screen shows them
  list.dataset.passes = key;
  const items = passes.map((kinds, i) => {
    const li = document.createElement("li");
    li.className = "spec-tokens__iteration";
    const text = document.createElement("span");
    text.className = "spec-visually-hidden";
    text.textContent = sentence(contract, i + 1, kinds);
    li.append(text);
    for (const k of kinds) {
      const cell = document.createElement("span");
      cell.className = `spec-token spec-token--${contract.token_kinds[k].kind}`;
      cell.setAttribute("aria-hidden", "true");
      cell.textContent = contract.token_kinds[k].symbol;
      li.append(cell);
    }
    return li;
  });
  list.replaceChildren(...items);
}
