// Runs the page's board module (gatebot/web/static/board.js) on a small stand-in for the DOM, for
// tests/web/test_board_js.py: reads {"module", "view", "width", "height", "script"} as JSON on stdin,
// plays the script's taps and prints what the board did (moves sent, sentences said, what it drew).
import { readFileSync } from "node:fs";

class ClassList {
  constructor() { this.set = new Set(); }
  add(...names) { names.forEach((n) => this.set.add(n)); }
  remove(...names) { names.forEach((n) => this.set.delete(n)); }
  toggle(name, on) { if (on ?? !this.set.has(name)) this.set.add(name); else this.set.delete(name); }
  contains(name) { return this.set.has(name); }
}

class Element {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.children = [];
    this.parent = null;
    this.classList = new ClassList();
    this.style = {};
    this.dataset = {};
    this.attributes = {};
    this.listeners = {};
    this.textContent = "";
    this.hidden = false;
    this.clientWidth = 0;
  }
  get className() { return [...this.classList.set].join(" "); }
  set className(text) { this.classList.set = new Set(String(text).split(/\s+/).filter(Boolean)); }
  get firstChild() { return this.children[0]; }
  get lastChild() { return this.children[this.children.length - 1]; }
  setAttribute(name, value) { this.attributes[name] = String(value); }
  getAttribute(name) { return this.attributes[name]; }
  addEventListener(type, listener) { (this.listeners[type] ??= []).push(listener); }
  removeEventListener(type, listener) { this.listeners[type] = (this.listeners[type] ?? []).filter((l) => l !== listener); }
  dispatch(type, event = {}) { for (const l of this.listeners[type] ?? []) l({ currentTarget: this, target: this, ...event }); }
  append(...nodes) { for (const n of nodes) { n.remove(); n.parent = this; this.children.push(n); } }
  remove() { if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this); this.parent = null; }
  matches(selector) {
    return selector.split(",").map((s) => s.trim()).some((s) =>
      s.startsWith(".") ? this.classList.contains(s.slice(1)) : s === "[data-pile]" ? "pile" in this.dataset : false);
  }
  *descendants() { for (const c of this.children) { yield c; yield* c.descendants(); } }
  querySelectorAll(selector) { return [...this.descendants()].filter((e) => e.matches(selector)); }
  closest(selector) { for (let e = this; e; e = e.parent) if (e.matches(selector)) return e; return null; }
  focus() { globalThis.document.activeElement = this; }
  setPointerCapture() {}
  getBoundingClientRect() { return { top: 40, left: 0 }; }
}

const input = JSON.parse(readFileSync(0, "utf8"));
globalThis.window = { innerHeight: input.height, addEventListener() {} };
globalThis.document = { createElement: (tag) => new Element(tag), activeElement: null, elementFromPoint: () => null };
const { createBoard } = await import(input.module);

const root = new Element("div");
root.clientWidth = input.width;
const moves = [], said = [];
const board = createBoard(root, { onMove: (m) => moves.push(m), onSay: (s) => said.push(s) });
board.set(input.view, false);

const byLabel = (label) => root.querySelectorAll(".card, .slot").find((e) => e.getAttribute("aria-label") === label);
const px = (value) => Number.parseFloat(value);
const snapshot = () => ({
  moves: [...moves],
  said: [...said],
  height: px(root.style.height),
  cards: root.querySelectorAll(".card").filter((e) => e.dataset.index !== undefined).map((e) => ({
    label: e.getAttribute("aria-label"), width: px(e.style.width), classes: e.className, pile: e.dataset.pile,
  })),
  slots: root.querySelectorAll(".slot, .back").map((e) => ({ label: e.getAttribute("aria-label"), classes: e.className,
    pile: e.dataset.pile })),
});

const steps = [];
for (const [action, label] of input.script) {
  const target = byLabel(label);
  if (!target) { steps.push({ missing: label }); continue; }
  if (action === "tap") target.dispatch("click");
  steps.push(snapshot());
}
console.log(JSON.stringify({ first: steps.length ? null : snapshot(), steps, last: snapshot() }));
