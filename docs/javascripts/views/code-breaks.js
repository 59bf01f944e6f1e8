// Code wraps rather than scroll sideways (spec.css). Left to the browser, a wrapped line is cut
// wherever it ends: mid-identifier ("draft_model_iteration_per_" / "seq_s"), or after any hyphen
// or slash ("--speculative-" / "config"), and a reader copying or reading the name gets one that
// does not exist. So the code is cut into pieces that may not be broken: a run of characters
// without a space, or in a long run (a PromQL query, a JSON flag) the part up to and including
// each punctuation mark between names. A piece the browser could cut (it has an underscore,
// colon, hyphen or slash inside) is kept whole as an inline block: it moves to the next line
// entire, and only a piece longer than a whole line breaks inside, after its underscores and
// colons (a <wbr> each). <wbr> and the span are elements, not characters: what a reader copies is
// the code as written.
import { keepNamesWhole } from "./names.js";

const PUNCTUATION = /[,([{=&|]/; // a long run may break after these
const BREAKS_INSIDE = /[_:/-]/; // where a browser or a <wbr> could cut a piece
const WBR_AFTER = /[_:]/; // inside a piece longer than a line
const HF_ID = /^(["']?[\w.-]+\/)[\w.-]+["',]*$/; // "org/name", quoted or not: [1] up to the slash
const LONG = 24;
const RUN = /\S+/g; // characters without a space, across the highlighter's spans

// The text nodes under `code`, and where each starts in their joined text.
function textNodes(code) {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const nodes = [];
  let start = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push({ node, start });
    start += node.data.length;
  }
  return nodes;
}

// A DOM position for `offset` in the joined text (the end of a node rather than the start of the
// next: a range ending there does not reach into the next highlighter span).
function position(nodes, offset, preferEnd) {
  for (let i = 0; i < nodes.length; i++) {
    const { node, start } = nodes[i];
    const end = start + node.data.length;
    if (offset < end || (offset === end && (preferEnd || i === nodes.length - 1))) return [node, offset - start];
  }
  const last = nodes[nodes.length - 1];
  return [last.node, last.node.data.length];
}

export function breakAtSeparators(code) {
  if (code.querySelector(".spec-ident, wbr")) return; // done already, since its text was last set
  const text = textNodes(code).map(({ node }) => node.data).join("");
  // [start, end) of each piece to keep whole, and the offsets of <wbr>s: after punctuation in a
  // long run, and after _ or : inside a piece.
  const pieces = [];
  const breaks = [];
  for (const run of text.matchAll(RUN)) {
    const cuts = [0];
    if (run[0].length >= LONG) {
      for (let i = 0; i < run[0].length - 1; i++) if (PUNCTUATION.test(run[0][i])) cuts.push(i + 1);
    }
    cuts.push(run[0].length);
    for (let k = 0; k + 1 < cuts.length; k++) {
      const [start, end] = [run.index + cuts[k], run.index + cuts[k + 1]];
      if (k > 0) breaks.push(start);
      const piece = text.slice(start, end);
      if (!BREAKS_INSIDE.test(piece.slice(1, -1))) continue;
      pieces.push([start, end]);
      // a Hugging Face id longer than a line breaks after its slash, each side kept whole, not
      // at a hyphen in the name (found by a cold read at 375 px: "meta-llama/Llama-3.2-1B-" |
      // "Instruct")
      const id = HF_ID.exec(piece);
      if (id) pieces.push([start, start + id[1].length], [start + id[1].length, end]);
      for (let i = 0; i < piece.length - 1; i++) if (WBR_AFTER.test(piece[i])) breaks.push(start + i + 1);
    }
  }
  if (pieces.length === 0 && breaks.length === 0) return;
  // An element adds no text: each offset names the same character whatever was inserted before.
  const edits = [...breaks.map((at) => ({ at, wbr: true })), ...pieces.map(([at, end]) => ({ at, end }))];
  for (const edit of edits) {
    const nodes = textNodes(code);
    const range = document.createRange();
    if (edit.wbr) {
      range.setStart(...position(nodes, edit.at, true));
      range.collapse(true);
      range.insertNode(document.createElement("wbr"));
      continue;
    }
    range.setStart(...position(nodes, edit.at, false));
    range.setEnd(...position(nodes, edit.end, true));
    // The highlighter's spans inside are split at the piece's ends, and keep their colours.
    // (a part of one, an id's side of its slash, inside the piece's own span)
    const inside = edits.some((other) => other !== edit && !other.wbr && other.at <= edit.at && other.end >= edit.end
      && other.end - other.at > edit.end - edit.at);
    const whole = Object.assign(document.createElement("span"), { className: inside ? "spec-ident-part" : "spec-ident" });
    whole.append(range.extractContents());
    range.insertNode(whole);
  }
  code.normalize();
}

// Inline code keeps its short names whole (`fit-metrics`, `whole-pass`): views/names.js.
function keepInlineNamesWhole(root) {
  for (const code of root.querySelectorAll(".md-typeset :not(pre) > code")) keepNamesWhole(code);
}

// Every code block under `root`, once.
export function breakCodeAtSeparators(root) {
  keepInlineNamesWhole(root);
  for (const code of root.querySelectorAll(".md-typeset pre > code:not([data-breaks])")) {
    code.dataset.breaks = "";
    breakAtSeparators(code);
  }
}
