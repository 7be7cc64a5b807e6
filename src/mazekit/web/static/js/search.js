// Grid search room: paint walls and weights, move start and goal, watch one or two searches.
import { $, api, COLORS, patiently, css, decodeGrid, el, encodeGrid, header, heat, legend, stats, status, typing, unpack, unpackPairs, urlState } from "./common.js";
import { GridView, rgba } from "./gridview.js";
import { Player, fmt } from "./player.js";
import { TeachPanes } from "./teach.js";

const ALGORITHMS = { bfs: "BFS", dfs: "DFS", "dfs-random": "DFS, random order", greedy: "Greedy best-first", astar: "A*", dijkstra: "Dijkstra" };
const HEURISTICS = { default: "default (admissible)", manhattan: "Manhattan", octile: "octile", euclidean: "Euclidean", chebyshev: "Chebyshev", zero: "zero (= Dijkstra)" };
const MAX_SIDE = 300;

header("search");
const S = {
  rows: 25, cols: 40, walls: null, weights: null, start: [12, 5], goal: [12, 34],
  brush: "wall", results: [], drag: null, autoRun: false, base: 0, lesson: null, note: "", ticket: 0,
};
const panes = new TeachPanes();
const teachOn = $("#teach-on");
const statusLine = $("#status");
const stage = $("#stage");

// ---- controls ----
const algSel = $("#alg"), alg2Sel = $("#alg2"), hSel = $("#heuristic"), connSel = $("#conn");
for (const [k, v] of Object.entries(ALGORITHMS)) { algSel.append(el("option", { value: k }, [v])); alg2Sel.append(el("option", { value: k }, [v])); }
for (const [k, v] of Object.entries(HEURISTICS)) hSel.append(el("option", { value: k }, [v]));

// ---- the views (one per algorithm compared) ----
const WALL = rgba(COLORS.wall), FREE = rgba(COLORS.free), FRONTIER = rgba(COLORS.frontier);
const HEAT = Array.from({ length: 256 }, (_, i) => rgba(heat(i / 255)));
const WEIGHT = Array.from({ length: 10 }, (_, w) => rgba(w <= 1 ? COLORS.free : [236 - w * 14, 222 - w * 12, 200 - w * 14]));
// a visited weighted cell: the visit colour, darker the more it costs (the weight stays readable)
const HEAT_W = Array.from({ length: 10 }, (_, w) => Array.from({ length: 256 }, (_, i) => {
  const k = w <= 1 ? 1 : 1 - 0.055 * w, c = heat(i / 255);
  return rgba([c[0] * k, c[1] * k, c[2] * k]);
}));

function makeView(index) {
  const title = el("h3", {}, [""]);
  const canvas = el("canvas", { class: "grid", "data-view": String(index), "aria-label": "search grid" });
  const dl = el("dl", { class: "stats" });
  // the cell inspector sits under the first grid, where the eye already is
  const box = el("div", { class: "view" }, index === 0 ? [title, canvas, el("div", { id: "inspect", class: "inspect", "aria-live": "polite" }), dl] : [title, canvas, dl]);
  stage.append(box);
  const view = new GridView(canvas, { maxWidth: 760, maxHeight: 600 });
  view.pointer = { down: pointerDown, move: pointerMove, up: pointerUp };
  return { box, title, canvas, dl, view, t: 0 };
}
const views = [makeView(0), makeView(1)];
views[1].box.classList.add("hidden");

const playerBox = $("#player-box");
const player = new Player(playerBox, (t) => draw(t), { speed: 300, label: "step" });
player.bindKeys();
$("#legend-box").append(legend([
  [COLORS.wall, "wall"], [COLORS.free, "free"], [`linear-gradient(90deg, ${css(heat(0))}, ${css(heat(0.5))}, ${css(heat(1))})`, "visited (early → late)"],
  [COLORS.frontier, "frontier"], [COLORS.route, "route"], [COLORS.start, "start"], [COLORS.goal, "goal"], [[194, 186, 144], "weighted cell (darker costs more)"],
  ["#2f6fdd", "the step's cell (blue ring), cells it added (blue dots), walls it skipped (red ×)"],
]));

function resizeViews() {
  // two views share the width side by side; the grid fits the window's height below the player
  const n = alg2Sel.value ? 2 : 1;
  const width = Math.max(160, (stage.clientWidth || 900) / n - 12 * n - 8);
  const top = stage.getBoundingClientRect().top + window.scrollY;
  const height = Math.max(200, window.innerHeight - top - (window.innerWidth > 820 ? 110 : 60));
  for (const v of views) {
    v.view.opts.maxWidth = width; v.view.opts.maxHeight = height; v.view.resize(S.rows, S.cols);
    v.box.style.maxWidth = `${S.cols * v.view.cell + 20}px`;  // its words wrap under the grid: two fit side by side
  }
}
let resizing = null;
window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(() => { resizeViews(); draw(player.t); }, 100); });

function draw(t) {
  const n = S.rows * S.cols;
  views.forEach((v, k) => {
    if (k === 1 && !alg2Sel.value) return;
    const res = S.results[k], px = v.view.pixels;
    for (let i = 0; i < n; i++) px[i] = S.walls[i] ? WALL : WEIGHT[S.weights[i]];
    if (res && res.order && res.shape[0] === S.rows && res.shape[1] === S.cols) {
      const order = res.order, disc = res.discovered, scale = 255 / Math.max(1, res.steps - 1);
      for (let i = 0; i < n; i++) {
        const o = order[i];
        if (o >= 0 && o < t) px[i] = HEAT_W[S.weights[i]][(o * scale) | 0];
        else if (disc && disc[i] >= 0 && disc[i] < t && !S.walls[i]) px[i] = FRONTIER;
      }
    }
    v.view.overlay = (ctx, view) => {
      if (S.weights && view.cell >= 10) {
        // the digit, with a light halo so it reads on the dark visit colours too
        const ctx = view.ctx;
        ctx.save(); ctx.lineWidth = 2.5; ctx.strokeStyle = "rgba(255,255,255,.8)"; ctx.lineJoin = "round";
        ctx.font = `bold ${Math.round(view.cell * 0.5)}px system-ui, sans-serif`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
        for (let i = 0; i < n; i++) {
          if (S.weights[i] <= 1 || S.walls[i]) continue;
          const [x, y] = view.center((i / S.cols) | 0, i % S.cols);
          ctx.strokeText(String(S.weights[i]), x, y + 0.5); ctx.fillStyle = "#1e222e"; ctx.fillText(String(S.weights[i]), x, y + 0.5);
        }
        ctx.restore();
      }
      if (res && res.found && t >= res.steps) view.path(res.path, css(COLORS.route), Math.max(1.5, view.cell * (view.cell >= 6 ? 0.3 : 0.2)));
      if (k === 0 && teachOn.checked) stepMarks(view, t);
      view.marker(S.start[0], S.start[1], css(COLORS.start), "S");
      if (S.goal) view.marker(S.goal[0], S.goal[1], css(COLORS.goal), "G");
    };
    v.view.flush();
    showStats(k, t);
  });
  if (teachOn.checked) panes.show(t);
}

/** The current step on the grid: its cell ringed, the cells it added dotted, skipped walls crossed. */
function stepMarks(view, t) {
  const step = panes.current(t), ctx = view.ctx, cell = view.cell, cols = S.cols;
  if (panes.routeTo) view.path(panes.routeTo, "#2f6fdd", Math.max(1.5, cell * 0.18));
  if (!step) return;
  const at = (i) => [Math.floor(i / cols), i % cols];
  ctx.save();
  ctx.fillStyle = "#2f6fdd";
  for (const i of [...(step.added || []), ...(step.updated || [])]) {
    const [x, y] = view.center(...at(i));
    ctx.beginPath(); ctx.arc(x, y, Math.max(1.5, cell * 0.18), 0, Math.PI * 2); ctx.fill();
  }
  ctx.strokeStyle = "#e03131"; ctx.lineWidth = Math.max(1, cell * 0.12);
  for (const i of step.walls || []) {
    const [r, c] = at(i), d = cell * 0.3, [x, y] = view.center(r, c);
    ctx.beginPath(); ctx.moveTo(x - d, y - d); ctx.lineTo(x + d, y + d); ctx.moveTo(x + d, y - d); ctx.lineTo(x - d, y + d); ctx.stroke();
  }
  const [r, c] = at(step.cell), lw = Math.max(2, cell * 0.16);
  // a blue ring with a white rim: it shows on the dark visit colours and on the light ones
  ctx.strokeStyle = "#fff"; ctx.lineWidth = lw + 2;
  ctx.strokeRect(c * cell - 1, r * cell - 1, cell + 2, cell + 2);
  ctx.strokeStyle = "#2f6fdd"; ctx.lineWidth = lw;
  ctx.strokeRect(c * cell + lw / 2, r * cell + lw / 2, cell - lw, cell - lw);
  ctx.restore();
  view.canvas.dataset.step = `${step.cell}`;
}

function showStats(k, t) {
  const res = S.results[k], v = views[k];
  const alg = k === 0 ? algSel.value : alg2Sel.value;
  v.title.textContent = ALGORITHMS[alg] + (alg === "astar" || alg === "greedy" ? `, ${hSel.value === "default" ? "default heuristic" : hSel.value}` : "") + `, ${connSel.value}-connected`;
  if (!res) { stats(v.dl, [["cells", `${S.rows} × ${S.cols}`]]); return; }
  const shown = Math.min(t, res.steps);
  stats(v.dl, [
    ["cells visited", `${fmt(res.visited)}${shown < res.steps ? ` (showing ${fmt(shown)})` : ""}`],
    ["route length", res.found ? `${fmt(res.length)} steps` : "no route"],
    ["route cost", res.found ? (Number.isInteger(res.cost) ? fmt(res.cost) : res.cost.toFixed(3)) : "—"],
    ["time on the server", `${res.time_ms.toFixed(1)} ms`],
  ]);
}

// ---- the grid model ----
function emptyGrid(rows, cols) {
  S.rows = rows; S.cols = cols;
  S.walls = new Uint8Array(rows * cols); S.weights = new Uint8Array(rows * cols).fill(1);
  S.start = [Math.floor(rows / 2), Math.min(2, cols - 1)];
  S.goal = [Math.floor(rows / 2), Math.max(0, cols - 3)];
  S.results = []; resizeViews();
}

function mulberry32(a) {
  return () => { a |= 0; a = (a + 0x6d2b79f5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

function randomWalls(density, seed = (Math.random() * 2 ** 31) | 0) {
  const rnd = mulberry32(seed);
  for (let i = 0; i < S.walls.length; i++) S.walls[i] = rnd() < density ? 1 : 0;
  clearEnds();
}

function clearEnds() {
  S.walls[S.start[0] * S.cols + S.start[1]] = 0;
  if (S.goal) S.walls[S.goal[0] * S.cols + S.goal[1]] = 0;
}

function gridRows() {
  const rows = [];
  for (let r = 0; r < S.rows; r++) {
    let s = "";
    for (let c = 0; c < S.cols; c++) s += S.walls[r * S.cols + c] ? "1" : "0";
    rows.push(s);
  }
  return rows;
}

function weightRows() {
  if (!S.weights.some((w) => w > 1)) return null;
  const rows = [];
  for (let r = 0; r < S.rows; r++) rows.push(Array.from(S.weights.subarray(r * S.cols, (r + 1) * S.cols)).join(""));
  return rows;
}

// ---- painting ----
function pointerDown(r, c, ev) {
  const same = (p) => p && p[0] === r && p[1] === c;
  if (S.brush === "inspect") { inspect(r, c); return; }
  if (same(S.start)) S.drag = "start";
  else if (same(S.goal)) S.drag = "goal";
  else S.drag = ev.button === 2 ? "erase" : S.brush;
  paint(r, c);
}
function pointerMove(r, c) { if (S.drag) paint(r, c); }
function pointerUp() { if (S.drag) { S.drag = null; edited(); } }

function paint(r, c) {
  const i = r * S.cols + c;
  if (S.drag === "start" || S.drag === "goal") {
    const other = S.drag === "start" ? S.goal : S.start;
    if (other && other[0] === r && other[1] === c) return;
    S[S.drag] = [r, c]; S.walls[i] = 0;
  } else if (S.drag === "wall") {
    if ((S.start[0] === r && S.start[1] === c) || (S.goal && S.goal[0] === r && S.goal[1] === c)) return;
    S.walls[i] = 1; S.weights[i] = 1;
  } else if (S.drag === "erase") { S.walls[i] = 0; S.weights[i] = 1; }
  else if (S.drag === "weight") { S.walls[i] = 0; S.weights[i] = Math.max(2, Math.min(9, +$("#weight").value || 5)); }
  if (S.results.length) S.results = S.results.map((res) => res && { ...res, stale: true });
  S.lesson = null;
  draw(S.results.length ? player.t : 0);
}

function inspect(r, c) {
  const res = S.results[0];
  if (!res || !res.order) { $("#inspect").textContent = "Run a search first: then hover or tap a cell to inspect it."; return; }
  panes.inspectCell(r, c, player.t, res.steps);
}
views[0].canvas.addEventListener("pointermove", (ev) => {
  if (ev.buttons || ev.pointerType === "touch" || !teachOn.checked) return;
  const cell = views[0].view.cellAt(ev);
  if (cell && (!panes.inspected || panes.inspected[0] !== cell[0] || panes.inspected[1] !== cell[1])) inspect(cell[0], cell[1]);
});
panes.onRoute = () => draw(player.t);

let rerun = null;
function edited() {
  showLesson();  // an edited grid is no longer the lesson's
  saveUrl();
  if (S.autoRun) { clearTimeout(rerun); rerun = setTimeout(() => run({ instant: true }), 60); }
}

// ---- running ----
async function run({ instant = false } = {}) {
  S.base = 0; $("#article-out").classList.add("hidden");
  const algs = [algSel.value, alg2Sel.value].filter(Boolean);
  const ticket = ++S.ticket;  // a newer run makes this one's answer stale
  status(statusLine, "searching…");
  try {
    const common = { grid: gridRows(), start: S.start, goal: S.goal, connectivity: +connSel.value, heuristic: hSel.value };
    const w = weightRows(); if (w) common.weights = w;
    const teach = teachOn.checked;
    const answers = await patiently(statusLine, Promise.all(algs.map((a, k) => api("/api/search", { ...common, algorithm: a, teach: teach && k === 0, pack_path: true }))));
    if (ticket !== S.ticket) return;
    S.results = answers.map((a) => ({ ...a, path: unpackPairs(a.path), order: unpack(a.order), discovered: unpack(a.discovered) }));
    S.autoRun = true;
    const first = S.results[0];
    panes.load(teach ? first.lesson || null : null, { rows: S.rows, cols: S.cols, start: S.start, order: first.order,
      note: first.lesson_note ? `${first.lesson_note[0].toUpperCase()}${first.lesson_note.slice(1)}.` : "" });
    const total = Math.max(...S.results.map((r) => r.steps));
    player.load(total, { instant });
    const words = S.results.map((r, k) => `${ALGORITHMS[algs[k]]}: ${r.found ? `route of ${r.length} steps` : "no route"}, ${fmt(r.visited)} cells visited`);
    status(statusLine, (S.note ? `${S.note} ` : "") + words.join(" · "), S.note ? "error" : "good");
    S.note = "";
  } catch (e) {
    if (ticket === S.ticket) status(statusLine, e.message, "error");
  }
}

async function runArticle(article, text = "") {
  S.ticket++;  // a search still out is stale now
  status(statusLine, `running the ${article} article…`);
  try {
    const a = await api("/api/article", { article, text });
    const [rows, cols] = a.shape;
    S.rows = rows; S.cols = cols;
    S.walls = new Uint8Array(rows * cols); S.weights = new Uint8Array(rows * cols).fill(1);
    a.grid.forEach((row, r) => { for (let c = 0; c < cols; c++) S.walls[r * cols + c] = row[c] === "1" ? 1 : 0; });
    S.start = a.start; S.goal = a.goal;
    $("#rows").value = rows; $("#cols").value = cols;
    algSel.value = a.algorithm; alg2Sel.value = ""; connSel.value = "4"; syncControls();
    resizeViews();
    const order = a.order ? unpack(a.order) : new Int32Array(rows * cols).fill(-1);
    S.results = [{ found: a.path.length > 0, path: a.path, length: a.path.length - 1, cost: a.path.length - 1,
      visited: order.filter((o) => o >= 0).length, steps: a.steps || 0, order, discovered: null, shape: a.shape, time_ms: 0 }];
    S.autoRun = false;
    panes.load(null, { rows, cols, start: S.start, order, note: "The articles' runs show their own output; run a search for the step-by-step panes." });
    const out = $("#article-out");
    out.textContent = a.output; out.classList.remove("hidden");
    player.load(S.results[0].steps);
    status(statusLine, `${article === "robot" ? "Article 1 (BFS, cells count from 1)" : "Article 2 (DFS to the first border cell, cells count from 0)"}: the output is the article's, byte for byte`, "good");
    saveUrl({ article });
  } catch (e) {
    status(statusLine, e.message, "error");
  }
}

// ---- the URL ----
function saveUrl(extra = {}) {
  const w = weightRows();
  urlState.set({
    rows: S.rows, cols: S.cols, grid: encodeGrid(gridRows()), weights: w ? w.join("-") : null,
    start: S.start.join(","), goal: S.goal ? S.goal.join(",") : null,
    alg: algSel.value, alg2: alg2Sel.value || null, conn: connSel.value, h: hSel.value === "default" ? null : hSel.value,
    article: extra.article || null, lesson: S.lesson, teach: teachOn.checked ? null : "0",
  });
}

function loadUrl() {
  const article = urlState.get("article");
  const notes = [];
  const lesson = LESSONS[urlState.get("lesson")] ? urlState.get("lesson") : null;
  if (urlState.get("lesson") && !lesson) notes.push(`lesson=${urlState.get("lesson")} is not one of ${Object.keys(LESSONS).join(", ")}`);
  const choice = (key, table, fallback) => {
    const v = urlState.get(key, fallback);
    if (v in table) return v;
    notes.push(`${key}=${v} is not one of ${Object.keys(table).join(", ")}`);
    return fallback;
  };
  algSel.value = choice("alg", ALGORITHMS, "astar");
  alg2Sel.value = urlState.get("alg2") === null ? "" : choice("alg2", ALGORITHMS, "") || "";
  const conn = urlState.get("conn", "4");
  if (conn !== "4" && conn !== "8") notes.push(`conn=${conn} is not 4 or 8`);
  connSel.value = conn === "8" ? "8" : "4";
  hSel.value = choice("h", HEURISTICS, "default");
  teachOn.checked = urlState.get("teach") !== "0";
  $("#teach-body").classList.toggle("hidden", !teachOn.checked);
  syncControls();
  if (article === "robot" || article === "forest") { runArticle(article); return; }
  if (article) notes.push(`article=${article} is not robot or forest`);
  const side = (key, fallback) => {
    const text = urlState.get(key);
    if (text === null) return fallback;
    const n = Number(text);
    if (Number.isInteger(n) && n >= 2 && n <= MAX_SIDE) return n;
    notes.push(`${key}=${text} is not a whole number from 2 to ${MAX_SIDE}`);
    return fallback;
  };
  emptyGrid(side("rows", 25), side("cols", 40));
  const g = urlState.get("grid");
  const cell = (key) => {
    const text = urlState.get(key);
    if (text === null) return null;
    const p = text.split(",").map(Number);
    if (p.length === 2 && p.every((x) => Number.isInteger(x)) && p[0] >= 0 && p[0] < S.rows && p[1] >= 0 && p[1] < S.cols) return p;
    notes.push(`${key}=${text} is not a cell of the ${S.rows} × ${S.cols} grid`);
    return null;
  };
  if (g) {
    decodeGrid(g).slice(0, S.rows).forEach((row, r) => { for (let c = 0; c < Math.min(S.cols, row.length); c++) S.walls[r * S.cols + c] = row[c] === "1" ? 1 : 0; });
    const w = urlState.get("weights");
    if (w) w.split("-").slice(0, S.rows).forEach((row, r) => { for (let c = 0; c < Math.min(S.cols, row.length); c++) S.weights[r * S.cols + c] = Math.max(1, Math.min(9, +row[c] || 1)); });
  } else {
    randomWalls(0.25, 7);
  }
  S.start = cell("start") || S.start; S.goal = cell("goal") || S.goal;
  if (S.goal[0] === S.start[0] && S.goal[1] === S.start[1]) { notes.push("start and goal are the same cell (the goal is moved to the far corner)"); S.goal = [S.rows - 1, S.cols - 1]; }
  clearEnds();
  $("#rows").value = S.rows; $("#cols").value = S.cols;
  S.lesson = lesson;
  showLesson();
  if (notes.length) { S.note = `The link's ${notes.join("; ")}: showing the rest of it with defaults.`; saveUrl(); }
  draw(0);
  run();
}

// ---- lessons: a small fixed grid per algorithm, chosen to show its point ----
const LESSONS = {
  bfs: { title: "BFS grows in rings", alg: "bfs", alg2: "", conn: "4", start: [7, 7], goal: [0, 14], rows: Array(15).fill("0".repeat(15)),
    text: "BFS takes cells in the order they were added: every cell at distance d before any at d + 1, so the visited area grows as a diamond of rings around the start, and the queue holds one ring's end and the next ring's start." },
  dfs: { title: "DFS takes long detours", alg: "dfs", alg2: "bfs", conn: "4", start: [5, 4], goal: [5, 7], rows: Array(11).fill("0".repeat(15)),
    text: "The goal is 3 steps away, but DFS always goes up first and as deep as it can: it sweeps the grid in long runs and finds a route of 45 steps, where BFS (the second grid) finds the 3-step one. The stack is the road back." },
  "dfs-random": { title: "In a perfect maze, one route", alg: "dfs-random", alg2: "bfs", conn: "4", start: [1, 1], goal: [9, 15],
    rows: ["11111111111111111", "10100000000010001", "10101110111010101", "10001000101010101", "10111011101010101", "10001010001000101",
      "11111010111111101", "10001010000000101", "10101010111110101", "10100010000010001", "11111111111111111"],
    text: "A perfect maze has exactly one route between two cells, so the random DFS (the maze article's solver) finds the same 34-step route as BFS (the second grid): they differ only in the cells they visit on the way, 39 against 57 here. Its stack is always the route so far." },
  greedy: { title: "Greedy is trapped behind a wall", alg: "greedy", alg2: "astar", conn: "4", start: [11, 1], goal: [1, 18],
    rows: ["00000010000000000000", "00000010000000000000", "00000010000000000000", "00000010000000000000", "00000010000000000000", "00000010000000000000",
      "00000010000000000000", "00000010000000000000", "00000110000000000000", "00000010000000000000", "00000010000000000000", "00000000000000000000"],
    text: "Greedy best-first follows h alone: it climbs along the wall towards the goal, finds the top closed, and its route comes back down the same side: 47 steps where A* (the second grid), which weighs the steps already taken, finds 27." },
  astar: { title: "A* with a heuristic that overestimates", alg: "astar", alg2: "dijkstra", conn: "8", h: "manhattan", start: [1, 1], goal: [10, 16],
    rows: ["011100000001010100", "101100000000001000", "000000000010100101", "010011011010100100", "000000000000000010", "001000100001001000",
      "100101000101000011", "011100001000000001", "001000101010010100", "000010000001000000", "011001000010010000", "000101000100101010"],
    text: "With diagonal steps, the Manhattan distance counts a diagonal as 2 while it costs √2: h overestimates, A* trusts it too much and settles for a route of cost 20.14 after 21 cells; Dijkstra (the second grid) proves 18.73 is the cheapest. An admissible h (octile, the default) never overestimates." },
  dijkstra: { title: "Dijkstra goes round the swamp", alg: "dijkstra", alg2: "bfs", conn: "4", start: [6, 1], goal: [6, 18], rows: Array(13).fill("0".repeat(20)),
    weights: Array.from({ length: 13 }, (_, r) => Array.from({ length: 20 }, (_, c) => (r >= 2 && r <= 10 && c >= 6 && c <= 13 ? "9" : "1")).join("")),
    text: "The brown cells cost 9 to enter. Dijkstra takes the cheapest entry first, so its frontier creeps slowly into the swamp while it races round it: its route goes round (27 steps, cost 27) where BFS (the second grid), which counts steps only, wades straight through: 17 steps, which cost 81 with the weights (its own cost line counts steps)." },
};

function lessonHref(name) {
  const L = LESSONS[name];
  const q = new URLSearchParams({ rows: L.rows.length, cols: L.rows[0].length, grid: encodeGrid(L.rows), start: L.start.join(","), goal: L.goal.join(","),
    alg: L.alg, conn: L.conn, lesson: name });
  if (L.alg2) q.set("alg2", L.alg2);
  if (L.h) q.set("h", L.h);
  if (L.weights) q.set("weights", L.weights.join("-"));
  return `/search?${q}`;
}

for (const name of Object.keys(LESSONS)) {
  $("#lessons").append(el("li", {}, [el("a", { href: lessonHref(name), "data-lesson": name }, [`${ALGORITHMS[LESSONS[name].alg]}: ${LESSONS[name].title}`])]));
}

function showLesson() {
  const box = $("#lesson-text");
  box.classList.toggle("hidden", !S.lesson);
  box.textContent = S.lesson ? `Lesson: ${LESSONS[S.lesson].text}` : "";
  for (const a of document.querySelectorAll("[data-lesson]")) a.toggleAttribute("aria-current", a.dataset.lesson === S.lesson);
}

function syncControls() {
  const a = algSel.value;
  hSel.disabled = !(a === "astar" || a === "greedy" || alg2Sel.value === "astar" || alg2Sel.value === "greedy");
  const compare = !views[1].box.classList.contains("hidden");
  views[1].box.classList.toggle("hidden", !alg2Sel.value);
  if (compare !== Boolean(alg2Sel.value) && S.walls) resizeViews();
  $("#conn-help").textContent = connSel.value === "8"
    ? "Diagonal steps allowed, even between two walls that touch at a corner; a diagonal step costs √2 × the cell's cost (BFS and DFS count it as one step)."
    : "Steps go up, down, left and right; each costs the weight of the cell entered (1 unless painted).";
}

// ---- wiring ----
$("#run").addEventListener("click", () => run());
teachOn.addEventListener("change", () => {
  $("#teach-body").classList.toggle("hidden", !teachOn.checked);
  saveUrl(); resizeViews();
  if (S.results.length && !S.results[0].lesson && teachOn.checked) run({ instant: player.t >= player.total });
  else draw(player.t);
});
$("#clear-trace").addEventListener("click", () => { S.results = []; S.autoRun = false; player.load(0); draw(0); });
for (const sel of [algSel, alg2Sel, hSel, connSel]) sel.addEventListener("change", () => { syncControls(); saveUrl(); if (S.autoRun) run({ instant: true }); else draw(0); });
for (const b of document.querySelectorAll("[data-brush]")) b.addEventListener("click", () => setBrush(b.dataset.brush));
function setBrush(name) {
  S.brush = name;
  for (const x of document.querySelectorAll("[data-brush]")) x.setAttribute("aria-pressed", String(x.dataset.brush === name));
}
function sizeFromInputs() {
  const clamp = (n) => Math.max(2, Math.min(MAX_SIDE, Math.round(+n || 2)));
  const rows = clamp($("#rows").value), cols = clamp($("#cols").value);
  $("#rows").value = rows; $("#cols").value = cols;
  return [rows, cols];
}
$("#random").addEventListener("click", () => { const [r, c] = sizeFromInputs(); emptyGrid(r, c); randomWalls(Math.min(0.6, Math.max(0, +$("#density").value / 100))); S.autoRun = false; player.load(0); draw(0); saveUrl(); });
$("#empty").addEventListener("click", () => { const [r, c] = sizeFromInputs(); emptyGrid(r, c); S.autoRun = false; player.load(0); draw(0); saveUrl(); });
$("#robot").addEventListener("click", () => runArticle("robot"));
$("#forest").addEventListener("click", () => runArticle("forest"));
$("#article-run-robot").addEventListener("click", () => runArticle("robot", $("#article-text").value));
$("#article-run-forest").addEventListener("click", () => runArticle("forest", $("#article-text").value));
window.addEventListener("keydown", (ev) => {
  if (typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Enter") { ev.preventDefault(); run(); }
  const brush = { w: "wall", e: "erase", g: "weight", i: "inspect" }[ev.key.toLowerCase()];
  if (brush) setBrush(brush);
});

loadUrl();
