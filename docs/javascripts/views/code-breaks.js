// Code wraps rather than scroll sideways (spec.css), and a long identifier or expression with no
// space in it (a PromQL query, a metric name, a JSON flag) would then be cut wherever the line
// ends, mid-word. A <wbr> after each of its separators lets it break there instead. <wbr> is an
// element, not a character: what a reader copies is the code as written.
const SEPARATED = /(?<=[_:/,([{=&|])(?=\S)/;

export function breakAtSeparators(code) {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  for (const node of nodes) {
    const parts = node.data.split(SEPARATED);
    if (parts.length < 2) continue;
    const pieces = parts.flatMap((part, i) => (i === 0 ? [part] : [document.createElement("wbr"), part]));
    node.replaceWith(...pieces);
  }
}

// Every code block under `root`, once.
export function breakCodeAtSeparators(root) {
  for (const code of root.querySelectorAll(".md-typeset pre > code:not([data-breaks])")) {
    code.dataset.breaks = "";
    breakAtSeparators(code);
  }
}
