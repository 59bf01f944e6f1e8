// A small observable store: the page's state lives in one place, and every view subscribes to
// it and updates its own part of the page (the way MkDocs Material's components watch the
// location). Listeners run in subscription order; set() with an equal value notifies nobody.

export class Store {
  constructor(value, equal = Object.is) {
    this.value = value;
    this.equal = equal;
    this.listeners = new Set();
  }

  get() {
    return this.value;
  }

  // `meta` travels with the change (who made it: the controls, a link, history…).
  set(value, meta = {}) {
    if (this.equal(value, this.value)) return;
    this.value = value;
    for (const listener of [...this.listeners]) listener(value, meta);
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
