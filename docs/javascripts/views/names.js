// A short name with a hyphen or a slash in it ("Qwen3-30B-A3B", "Llama-3.2-1B", `fit-metrics`)
// is kept on one line: a narrow column or a line's end would break it after the hyphen, which
// reads as two names. Used in tables (views/wide-tables.js), inline code (views/code-breaks.js)
// and the paste box (views/metrics.js). Each once: text already kept whole is left alone.
const NAME = /[^\s,;()]*[\p{L}\p{N}][-/][^\s,;()]*[\p{L}\p{N}]/gu;
const NAME_CHARS = 24; // longer ones may still wrap: they can be longer than a phone's line

// `versioned`: only names with a digit in them (a model, a version): in a table's prose an
// ordinary hyphenated word ("all-reduce") may break as words do.
export function keepNamesWhole(el, { versioned = false } = {}) {
  keepWhole(el, NAME, (text) => text.length <= NAME_CHARS && (!versioned || /\d/.test(text)));
}

// What the page writes in sentences of its own (the paste box's summary and answer): a name as
// above, a symbol with its value ("α = 0.75", "γ = 4", "α ≈ 0.30") and an amount with its unit
// ("80 GB"), each on one line, as the build's prose keeps them (generator/typography.py). Spans,
// not no-break spaces: the text stays the command line's, word for word. Found by a cold read:
// at 375 px the summary ended a line on "α =" and split "n-gram" and "Llama-3.3-70B-Instruct".
const PHRASE = new RegExp(
  `(?<![\\w\`])[γαB] [=≈] [\\d.,]*\\d|[\\d.,]*\\d (?:GB|GiB|MB|kB|ms|µs|TB/s|GB/s|TFLOP|TFLOP/s|PFLOP/s|W)(?![\\w/])` +
    // a GPU's name and a count of GPUs (generator/typography.py GPU_PHRASE)
    `|\\b[A-Z]+\\d+[A-Z]* (?:SXM|PCIe|NVL)\\b|\\b\\d+ (?:GPUs?|H100s|H200s)\\b|${NAME.source}`,
  "gu",
);

export function keepPhrasesWhole(el) {
  keepWhole(el, PHRASE, (text) => text.length <= NAME_CHARS);
}

function keepWhole(el, pattern, keep) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement.closest(".spec-nowrap, pre")) nodes.push(n);
  }
  for (const node of nodes) {
    const pieces = [];
    let from = 0;
    for (const match of node.data.matchAll(pattern)) {
      if (!keep(match[0])) continue;
      pieces.push(node.data.slice(from, match.index));
      pieces.push(Object.assign(document.createElement("span"), { className: "spec-nowrap", textContent: match[0] }));
      from = match.index + match[0].length;
    }
    if (pieces.length === 0) continue;
    pieces.push(node.data.slice(from));
    node.replaceWith(...pieces.filter((piece) => piece !== ""));
  }
}
