// Writes that leave the DOM alone when it already says the same thing. A slider dragged
// re-renders every readout and control on each step, and most of them do not change: writing
// the same text anyway replaces a text node and makes the browser restyle and lay out again
// (`make bench`, input → readouts).

export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

export function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}
