// The step-by-step panes of the grid-search room: pseudocode with the current line lit, the open
// list (queue, stack or priority queue) as it is after the step, one line of narration, and a
// cell inspector. Everything comes from the server's record of the search (mazekit.search.teach);
// this file only shows the step the player is at.
import { $, el, unpack } from "./common.js";

const SHOWN = 8;  // entries of the open list the pane lists

/** "(r, c)" of a flat cell index. */
export const rc = (i, cols) => `(${Math.floor(i / cols)}, ${i % cols})`;
const num = (x) => (x === null || x === undefined ? "?" : Number.isInteger(x) ? String(x) : x.toFixed(2));

export class TeachPanes {
  constructor() {
    this.lesson = null; this.cols = 0; this.rows = 0; this.ats = []; this.k = -1; this.order = null;
    this.start = null; this.routeTo = null; this.inspected = null;
    this.narration = $("#narration"); this.code = $("#code"); this.ds = $("#ds");
    this.onRoute = null;  // called when "route to it" is asked (the room redraws)
  }

  /** The inspector's box (the room puts it under its grid). */
  get inspect() { return $("#inspect"); }

  /** A new record (or none: `note` says why the panes are empty). */
  load(lesson, { rows, cols, start, order, note = "" }) {
    this.lesson = lesson; this.rows = rows; this.cols = cols; this.start = start; this.order = order;
    this.routeTo = null; this.inspected = null; this.k = -2;
    this.code.replaceChildren(); this.ds.replaceChildren();
    if (!lesson) {
      this.narration.textContent = note;
      this.inspect.textContent = order ? "Hover or tap a cell to see when it was visited." : "";
      return;
    }
    this.ats = lesson.steps.map((s) => s.at);
    this.gArr = unpack(lesson.g); this.hArr = unpack(lesson.h); this.parent = unpack(lesson.parent);
    lesson.code.forEach((line, i) => this.code.append(el("li", { "data-line": String(i) }, [line])));
    this.inspect.textContent = "Hover or tap a cell to inspect it.";
  }

  /** The index of the step shown after t steps of the player (-1 before the first). */
  stepAt(t) {
    let lo = 0, hi = this.ats.length;  // the number of steps with at < t
    while (lo < hi) { const m = (lo + hi) >> 1; if (this.ats[m] < t) lo = m + 1; else hi = m; }
    return lo - 1;
  }

  /** The step shown after t player steps, or null. */
  current(t) {
    if (!this.lesson) return null;
    const k = this.stepAt(t);
    return k >= 0 ? this.lesson.steps[k] : null;
  }

  show(t) {
    if (!this.lesson) return;
    const k = this.stepAt(t);
    if (k === this.k) return;
    this.k = k;
    const L = this.lesson, step = k >= 0 ? L.steps[k] : null, cols = this.cols;
    const current = step ? step.line : 0, ran = new Set(step ? step.lines : [0]);
    for (const li of this.code.children) {
      const i = +li.dataset.line;
      li.classList.toggle("current", i === current);
      li.classList.toggle("ran", i !== current && ran.has(i));
    }
    const s0 = this.start[0] * cols + this.start[1];
    this.narration.textContent = step
      ? `Step ${k + 1} of ${L.steps.length}: ${step.text}`
      : `Step 0 of ${L.steps.length}: the ${L.structure} holds the start ${rc(s0, cols)}; press Play or Step (→).`;
    this.narration.dataset.step = String(k + 1);
    this._structure(step, s0);
  }

  _structure(step, s0) {
    const L = this.lesson, cols = this.cols;
    const first = step ? step.first : [[s0, 0, null, null, false]];
    const size = step ? step.size : 1;
    const added = new Set([...(step?.added || []), ...(step?.updated || [])]);
    const order = { queue: "front first", stack: "top first", "priority queue": "next out first" }[L.structure];
    const head = el("div", { class: "ds-head", title: L.rule }, [`${L.structure[0].toUpperCase()}${L.structure.slice(1)}: `,
      el("b", { "data-role": "size" }, [String(size)]), ` ${size === 1 ? "entry" : "entries"}, ${order}`, el("br"), el("span", { class: "hint" }, [`Out next: ${L.rule}.`])]);
    const box = [head];
    if (step) {
      const what = L.structure === "stack" ? "entered" : "taken out";
      box.push(el("div", { class: "ds-taken" }, [`${what}: `, el("span", { class: "chip taken", "data-cell": rc(step.cell, cols) },
        [rc(step.cell, cols) + keys(L.algorithm, step.g, step.h, step.f)])]));
    }
    const list = el("ol", { class: "ds-list", "data-role": "entries" });
    for (const [cell, g, h, f, stale] of first.slice(0, SHOWN)) {
      const cls = ["chip", added.has(cell) ? "added" : "", stale ? "stale" : ""].join(" ").trim();
      list.append(el("li", { class: cls, "data-cell": rc(cell, cols), title: stale ? "an older entry: skipped when it comes out" : "" },
        [rc(cell, cols) + keys(L.algorithm, g, h, f)]));
    }
    if (size === 0) list.append(el("li", { class: "hint" }, ["(empty)"]));
    box.push(list);
    if (size > Math.min(SHOWN, first.length)) box.push(el("div", { class: "hint" }, [`… and ${size - Math.min(SHOWN, first.length)} more`]));
    if (step && added.size) {
      const where = L.structure === "queue" ? "added at the back" : L.structure === "stack" ? "pushed" : "added";
      box.push(el("div", { class: "ds-added" }, [`${where}: `, ...[...added].map((c) => el("span", { class: "chip added" }, [rc(c, cols)]))]));
    }
    this.ds.replaceChildren(...box);
  }

  /** The inspector for cell (r, c) after t player steps. */
  inspectCell(r, c, t, total) {
    const i = r * this.cols + c, cols = this.cols;
    this.inspected = [r, c];
    const lines = [el("b", {}, [`cell (${r}, ${c})`])];
    const o = this.order ? this.order[i] : -1;
    if (o < 0) lines.push(" never visited");
    else lines.push(` visited at step ${o + 1} of ${total}${o >= t ? " (not yet, at this step)" : ""}`);
    if (this.lesson && this.gArr[i] >= 0) {
      const dfs = this.lesson.algorithm.startsWith("dfs");
      lines.push(el("br"), `${dfs ? "depth in the search tree" : "distance from the start (g)"}: ${num(this.gArr[i])}`);
      if (this.hArr[i] >= 0) lines.push(`, h ${num(this.hArr[i])}, f ${num(this.gArr[i] + this.hArr[i])}`);
      const p = this.parent[i];
      lines.push(el("br"), p >= 0 ? `parent ${rc(p, cols)}` : "the start: no parent");
      const btn = el("button", { type: "button", "data-role": "route-to" }, ["Show the route to it"]);
      btn.addEventListener("click", () => { this.routeTo = this.route(i); this.onRoute?.(); });
      lines.push(" ", btn);
    }
    this.inspect.replaceChildren(...lines);
  }

  /** The cells [[r, c], ...] from the start to flat cell i, by the parents. */
  route(i) {
    const out = [];
    for (let v = i, n = 0; v >= 0 && n <= this.parent.length; v = this.parent[v], n++) out.push([Math.floor(v / this.cols), v % this.cols]);
    return out.reverse();
  }
}

function keys(alg, g, h, f) {
  if (alg === "astar") return ` f ${num(f)} = g ${num(g)} + h ${num(h)}`;
  if (alg === "greedy") return ` h ${num(h)}`;
  if (alg === "dijkstra") return ` g ${num(g)}`;
  return g === null || g === undefined ? "" : ` d ${num(g)}`;
}

/** The maze room's panes: a generator's core loop (mazekit.generate.teach) as the carving plays. */
export class CarvePanes {
  constructor() {
    this.lesson = null; this.ats = []; this.k = -2;
    this.narration = $("#narration"); this.code = $("#code"); this.ds = $("#ds");
  }

  load(lesson, note = "") {
    this.lesson = lesson; this.k = -2;
    this.code.replaceChildren(); this.ds.replaceChildren();
    if (!lesson) { this.narration.textContent = note; this.narration.dataset.step = "0"; return; }
    this.ats = lesson.steps.map((s) => s.at);
    lesson.code.forEach((line, i) => this.code.append(el("li", { "data-line": String(i) }, [line])));
  }

  /** The step shown after t steps of the carving (null before the first). */
  current(t) {
    if (!this.lesson) return null;
    let lo = 0, hi = this.ats.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (this.ats[m] < t) lo = m + 1; else hi = m; }
    return lo > 0 ? this.lesson.steps[lo - 1] : null;
  }

  show(t) {
    if (!this.lesson) return;
    const step = this.current(t), k = step ? this.lesson.steps.indexOf(step) : -1;
    if (k === this.k) return;
    this.k = k;
    const L = this.lesson, current = step ? step.line : 0, ran = new Set(step ? step.lines : [0]);
    for (const li of this.code.children) {
      const i = +li.dataset.line;
      li.classList.toggle("current", i === current);
      li.classList.toggle("ran", i !== current && ran.has(i));
    }
    this.narration.textContent = step ? `Step ${k + 1} of ${L.steps.length}: ${step.text}` : `Step 0 of ${L.steps.length}: press Play or Step (→).`;
    this.narration.dataset.step = String(k + 1);
    const size = step ? step.size : 0;
    const head = el("div", { class: "ds-head" }, [`${L.structure[0].toUpperCase()}${L.structure.slice(1)}: `,
      el("b", { "data-role": "size" }, [String(size)]), ` ${size === 1 ? "entry" : "entries"}`]);
    const list = el("ol", { class: "ds-list", "data-role": "entries" });
    for (const entry of step ? step.first : []) list.append(el("li", { class: "chip" }, [entry]));
    const more = step && size > step.first.length ? [el("div", { class: "hint" }, [`… and ${size - step.first.length} more`])] : [];
    this.ds.replaceChildren(head, list, ...more);
  }
}
