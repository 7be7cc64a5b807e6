// Shared by every room: the header, API calls, packed arrays, URL state, small DOM helpers.

export const ROOMS = [
  ["search", "Grid search"],
  ["maze", "Mazes"],
  ["universal", "Universal escape"],
  ["mines", "Minesweeper"],
  ["sokoban", "Sokoban"],
];

// Colours by role, the same as mazekit's pictures (mazekit/render/_colors.py).
export const COLORS = {
  wall: [30, 34, 46], free: [250, 250, 247], route: [255, 128, 0], start: [40, 170, 80],
  goal: [214, 48, 49], grid: [200, 204, 212], fresh: [255, 200, 60], frontier: [236, 96, 180],
};
const RAMP = [[45, 20, 100], [40, 80, 160], [30, 150, 160], [90, 200, 110], [230, 230, 80]];

/** RGB along the heat ramp for t in [0, 1] (early visits dark blue, late light yellow). */
export function heat(t) {
  t = Math.min(1, Math.max(0, t)) * (RAMP.length - 1);
  const i = Math.min(Math.floor(t), RAMP.length - 2), f = t - i, a = RAMP[i], b = RAMP[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

export const css = (rgb) => `rgb(${rgb[0] | 0}, ${rgb[1] | 0}, ${rgb[2] | 0})`;

/** The top bar: brand, one link per room (the current one marked), and a "Copy link" button. */
export function header(current) {
  const bar = el("header", { class: "top" });
  bar.append(el("a", { class: "brand", href: "/" }, ["maze", el("span", {}, ["kit"]), el("em", {}, [" playground"])]));
  const nav = el("nav", { "aria-label": "rooms" });
  for (const [name, title] of ROOMS) {
    const a = el("a", { href: `/${name}` }, [title]);
    if (name === current) a.setAttribute("aria-current", "page");
    nav.append(a);
  }
  bar.append(nav);
  // on a phone the links scroll sideways: keep the current room's in view
  requestAnimationFrame(() => { const here = nav.querySelector("[aria-current]"); if (here) nav.scrollLeft = here.offsetLeft - nav.offsetLeft - 8; });
  if (current) {
    const share = el("button", { class: "share", type: "button", title: "Copy a link that reproduces this view" }, ["Copy link"]);
    share.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(location.href); share.textContent = "Link copied"; }
      catch { prompt("Copy this link:", location.href); }
      setTimeout(() => (share.textContent = "Copy link"), 1500);
    });
    bar.append(share);
  }
  document.body.prepend(bar);
  return bar;
}

/** An element: el("button", {class: "primary", onclick: f}, ["Run"]). */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

export const $ = (sel, root = document) => root.querySelector(sel);

/** An error the server answered (status and its one-line message). */
export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

/** POST JSON to an API route; resolves to the answer, rejects with ApiError(status, message). */
export async function api(path, body) {
  let res;
  try {
    res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, "the playground server is not answering (was it stopped?)");
  }
  let data;
  try { data = await res.json(); } catch { throw new ApiError(res.status, `the server answered ${res.status} without JSON`); }
  if (!res.ok) throw new ApiError(res.status, data.error ? plain(data.error) : `error ${res.status}`);
  return data;
}

// The API's messages name the JSON field at fault ('level.text': ...); a room says it in words.
const FIELDS = { "level.text": "the pasted level", "level.index": "the level number", "level.collection": "the collection",
  lurd: "the moves", moves: "the moves", time_limit: "the time limit", cell: "the cell", grid: "the grid", weights: "the weights" };

/** An API error message as a room shows it: the leading field name in words. */
export function plain(message) {
  return message.replace(/^'([a-z_]+(?:\.[a-z_]+)*)'(:?)/, (all, key, colon) => {
    const words = FIELDS[key] || key.split(".").pop().replace(/_/g, " ");
    return (words[0].toUpperCase() + words.slice(1)) + colon;
  });
}

const TYPED = { int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array,
  uint32: Uint32Array, float32: Float32Array, float64: Float64Array };

/** A packed array record {dtype, shape, data(base64)} as a typed array (with .shape). */
export function unpack(rec) {
  const bin = atob(rec.data), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const T = TYPED[rec.dtype];
  if (!T) throw new Error(`unknown dtype ${rec.dtype}`);
  const out = new T(bytes.buffer);
  out.shape = rec.shape;
  return out;
}

/** A packed (n, 2) array record (a route: ``"pack_path": true`` of /api/search) as [[r, c], ...]. */
export function unpackPairs(rec) {
  const flat = unpack(rec), out = new Array(flat.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = [flat[2 * i], flat[2 * i + 1]];
  return out;
}

/** The page's state in its URL: read once at start, written (replaceState) as it changes. */
export const urlState = {
  get(key, fallback = null) {
    const v = new URLSearchParams(location.search).get(key);
    return v === null ? fallback : v;
  },
  set(values) {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(values)) {
      if (v === null || v === undefined || v === "") p.delete(k); else p.set(k, String(v));
    }
    const q = p.toString();
    history.replaceState(null, "", q ? `${location.pathname}?${q}` : location.pathname);
  },
};

/** A grid of 0/1 row strings as short text for a URL: "w" wall, "f" free, a count before a run
 *  ("3w2f" = "11100"), rows joined by "-". */
export function encodeGrid(rows) {
  return rows.map((row) => row.replace(/(.)\1*/g, (m) => (m.length > 1 ? m.length : "") + (m[0] === "1" ? "w" : "f"))).join("-");
}

/** The inverse of encodeGrid (characters other than counts, "w" and "f" are ignored). */
export function decodeGrid(text) {
  return text.split("-").map((row) => row.replace(/(\d*)([wf])|[^wf\d]+|\d+$/g, (_, n, ch) =>
    (ch ? (ch === "w" ? "1" : "0").repeat(Math.min(+(n || 1), 4096)) : "")));
}

/** Say under the room's header what a link asked that the room could not do (and what it shows
 *  instead); nothing when `notes` is empty. The note stays until closed. */
export function linkNotice(notes, instead = "showing the rest of it with defaults") {
  if (!notes.length) return;
  const close = el("button", { type: "button", class: "close", "aria-label": "close" }, ["×"]);
  const box = el("p", { class: "link-note", role: "alert" }, [`The link's ${notes.join("; ")}: ${instead}.`, close]);
  close.addEventListener("click", () => box.remove());
  document.querySelector("main").before(box);
}

/** Show a message in a status line; kind "error" | "good" | "" (plain). */
export function status(node, message, kind = "") {
  node.textContent = message;
  node.className = `status ${kind}`;
  node.setAttribute("role", kind === "error" ? "alert" : "status");
}

/** What to add to a status line when the server capped the time limit asked for (`mazekit
 *  playground --solver-seconds` sets the cap): nothing when it did not. */
export function capNote(limit, asked) {
  return limit < asked
    ? `; ${asked} s asked, the playground allows ${limit} s: start it with mazekit playground --solver-seconds ${asked} for more`
    : "";
}

/** While `promise` is pending, after `ms`, say in the status line why it may take a while
 *  (a fresh install compiles the kernels on its first requests); resolves like `promise`. */
export async function patiently(node, promise, ms = 1500) {
  const timer = setTimeout(() => status(node, "still working: the first requests after installing compile "
    + "mazekit's kernels (once per installation, up to a minute)…"), ms);
  try { return await promise; } finally { clearTimeout(timer); }
}

/** A legend: [[rgb or css colour, label], ...]. */
export function legend(items) {
  const box = el("div", { class: "legend" });
  for (const [color, label] of items) {
    const sw = el("i");
    sw.style.background = Array.isArray(color) ? css(color) : color;
    box.append(el("span", {}, [sw, label]));
  }
  return box;
}

/** Stats as a definition list: stats(node, [["visited", 120], ...]). */
export function stats(node, pairs) {
  node.replaceChildren();
  for (const [k, v] of pairs) node.append(el("dt", {}, [k]), el("dd", {}, [String(v)]));
}

/** Is the key event aimed at a text field (so room shortcuts should leave it alone)? */
export function typing(event) {
  const t = event.target;
  return t && (t.tagName === "INPUT" && t.type !== "range" && t.type !== "checkbox" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
}
