// Code wraps rather than scroll sideways (spec.css), and a long identifier or expression with no
// space in it (a PromQL query, a metric name, a JSON flag) would then be cut wherever the line
// ends, mid-word. A <wbr> after each of its separators lets it break there instead. Only long runs
// get them: a short one ("L(m)", "kv_bytes") fits on any line, and breaking it where a space would
// do reads as two words. The browser breaks after a hyphen or a slash of its own accord
// ("Qwen/Qwen3-|0.6B"), so a short run with one is kept whole. <wbr> and the span are elements,
// not characters: what a reader copies is the code as written.
const SEPARATOR = /[_:/,([{=&|]/;
const LONG = 24;
const RUN = /\S+/g; // characters without a space, across the highlighter's spans
const BREAKS_BY_ITSELF = /[-/?!%}\])\u2010-\u2014]/;

function keptWhole(text) {
  return Object.assign(document.createElement("span"), { className: "spec-nowrap", textContent: text });
}

export function breakAtSeparators(code) {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  const text = nodes.map((node) => node.data).join("");
  // Offsets in `text` where a break may go: after a separator, inside a long run, not at its end.
  // and the short runs to keep whole: [start, end) in `text`.
  const breaks = new Set();
  const whole = [];
  for (const run of text.matchAll(RUN)) {
    const chars = run[0];
    if (chars.length >= LONG) {
      for (let i = 0; i < chars.length - 1; i++) if (SEPARATOR.test(chars[i])) breaks.add(run.index + i + 1);
    } else if (BREAKS_BY_ITSELF.test(chars.slice(0, -1))) {
      whole.push([run.index, run.index + chars.length]);
    }
  }
  if (breaks.size === 0 && whole.length === 0) return;
  let start = 0;
  for (const node of nodes) {
    const end = start + node.data.length;
    // Cut points in this node: each break (one at a boundary between two spans goes at the end of
    // the first), and each end of a run kept whole, clipped to the node (the highlighter's spans
    // already part the run there, so the browser sees each part whole).
    const cuts = new Map(); // offset in node → [what goes there]
    for (const at of breaks) if (at > start && at <= end) cuts.set(at - start, "wbr");
    const spans = whole
      .map(([a, b]) => [Math.max(a, start) - start, Math.min(b, end) - start])
      .filter(([a, b]) => b - a > 1 && BREAKS_BY_ITSELF.test(node.data.slice(a, b - 1)));
    if (cuts.size === 0 && spans.length === 0) {
      start = end;
      continue;
    }
    const pieces = [];
    let from = 0;
    const points = [...new Set([...cuts.keys(), ...spans.flat()])].sort((a, b) => a - b);
    for (const at of points) {
      const span = spans.find(([a]) => a === from);
      const piece = node.data.slice(from, at);
      pieces.push(span ? keptWhole(piece) : piece);
      if (cuts.has(at)) pieces.push(document.createElement("wbr"));
      from = at;
    }
    const rest = node.data.slice(from);
    pieces.push(spans.find(([a]) => a === from) ? keptWhole(rest) : rest);
    node.replaceWith(...pieces.filter((piece) => piece !== ""));
    start = end;
  }
}

// Every code block under `root`, once.
export function breakCodeAtSeparators(root) {
  for (const code of root.querySelectorAll(".md-typeset pre > code:not([data-breaks])")) {
    code.dataset.breaks = "";
    breakAtSeparators(code);
  }
}
