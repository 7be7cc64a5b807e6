// Mazes room: pick one of the sixteen generators, watch the carving, then watch a search solve it.
// The server makes the maze (POST /api/maze/generate) and solves it (POST /api/search); this page draws.
import { $, api, COLORS, patiently, css, el, header, heat, legend, linkNotice, stats, status, typing, unpack, unpackPairs, urlState } from "./common.js";
import { GridView, fitIn, rgba } from "./gridview.js";
import { Player, fmt } from "./player.js";
import { CarvePanes } from "./teach.js";

const GENERATORS = {
  backtracker: ["Recursive backtracker", "Depth-first search with a stack: long winding corridors, few dead ends."],
  prim: ["Prim (the article's)", "Randomized Prim over a list of walls: many short dead ends."],
  "simplified-prim": ["Simplified Prim", "A random frontier cell joins the maze: short branches radiating from the start."],
  "true-prim": ["True Prim", "Minimum spanning tree of random edge weights."],
  kruskal: ["Kruskal", "Open walls in random order unless they would close a loop (union-find)."],
  wilson: ["Wilson", "Loop-erased random walks: a uniform spanning tree, unbiased."],
  "aldous-broder": ["Aldous-Broder", "A random walk that carves into unvisited cells: uniform, slow to finish."],
  "hunt-and-kill": ["Hunt-and-kill", "Random walks; when stuck, hunt row by row for a cell next to the maze."],
  "growing-tree": ["Growing tree (mixed)", "Growing tree taking the newest or a random active cell, half and half."],
  "growing-tree-newest": ["Growing tree (newest)", "Always the newest active cell: the same as the backtracker."],
  "growing-tree-random": ["Growing tree (random)", "A random active cell: like simplified Prim."],
  eller: ["Eller", "Row by row with sets: needs only one row of memory."],
  "binary-tree": ["Binary tree", "Every cell opens north or east: two open sides, a diagonal bias."],
  sidewinder: ["Sidewinder", "Runs along each row, each closed by a passage north: an open top row."],
  division: ["Recursive division", "Starts open and adds walls with one gap each: long straight walls, boxy rooms."],
  caves: ["Caves (cellular automaton)", "Random rock smoothed into caverns: a plain grid (size in squares), not a maze; no carving to replay."],
};
const SOLVERS = { bfs: "BFS", dfs: "DFS", "dfs-random": "DFS, random order", greedy: "Greedy best-first", astar: "A*", dijkstra: "Dijkstra" };

header("maze");
const S = {
  maze: null,      // the answer of /api/maze/generate, with .order unpacked and .free (Uint8Array)
  start: null, goal: null,
  phase: "carve",  // "carve": the player shows the generation; "solve": the search
  search: null,    // the answer of /api/search, with .order/.discovered unpacked
  drag: null, busy: false, again: false, solvedInUrl: false,
};
const statusLine = $("#status");
const panes = new CarvePanes(), teachOn = $("#teach-on");
const algSel = $("#alg"), solverSel = $("#solver"), colourSel = $("#colour");
for (const [k, [name]] of Object.entries(GENERATORS)) algSel.append(el("option", { value: k }, [name]));
for (const [k, v] of Object.entries(SOLVERS)) solverSel.append(el("option", { value: k }, [v]));

// ---- the view ----
const title = el("h3", {}, [""]);
const canvas = el("canvas", { class: "grid", "data-view": "0", "aria-label": "maze" });
const dl = el("dl", { class: "stats", id: "maze-stats" });
$("#stage").append(el("div", { class: "view" }, [title, canvas, dl]));
const view = new GridView(canvas, { maxWidth: 760, maxHeight: 600, fit: fitIn($("#stage"), { below: 50 }) });
view.pointer = { down: pointerDown, move: pointerMove, up: pointerUp };

const WALL = rgba(COLORS.wall), FREE = rgba(COLORS.free), FRESH = rgba(COLORS.fresh), FRONTIER = rgba(COLORS.frontier), ROUTE = rgba(COLORS.route);
const HEAT = Array.from({ length: 256 }, (_, i) => rgba(heat(i / 255)));
const mix = (a, b, f) => [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
const AGE = Array.from({ length: 256 }, (_, i) => rgba(mix(heat(i / 255), COLORS.free, 0.55)));

const playerBox = $("#player-box");
const player = new Player(playerBox, (t) => draw(t), { speed: 400, label: "step", onEnd: () => ended() });
view.refitOnResize(() => draw(player.t));
/** What one step of the carving is: a grid square opened, unless the maze is braided (its last
 * step opens all the braided walls at once). Named so that the player's count is not read as the
 * step-by-step pane's (a cell joining the maze opens two squares: the wall before it and the cell). */
function carveUnit(m) {
  return m && m.extra_step ? "carving step" : "square";
}

function loadPlayer(steps, opts) {
  player.label = S.phase === "carve" ? carveUnit(S.maze) : "step";
  player.load(steps, opts);
}
player.bindKeys();
const legendBox = el("div");
playerBox.append(legendBox);

function showLegend() {
  const ramp = (f) => `linear-gradient(90deg, ${css(f(0))}, ${css(f(0.5))}, ${css(f(1))})`;
  const items = [[COLORS.wall, "wall"]];
  if (S.phase === "solve") {
    items.push([COLORS.free, "free"], [ramp(heat), "visited (early → late)"], [COLORS.frontier, "frontier"], [COLORS.route, "route"]);
  } else if (S.maze && !S.maze.plain) {
    items.push([COLORS.fresh, "just changed"]);
    items.push(colourSel.value === "age" ? [ramp((t) => mix(heat(t), COLORS.free, 0.55)), "carved (early → late)"] : [COLORS.free, "free"]);
  } else {
    items.push([COLORS.free, "free"]);
  }
  items.push([COLORS.start, "start"], [COLORS.goal, "goal"]);
  legendBox.replaceChildren(legend(items));
}

// ---- drawing ----
function draw(t) {
  const m = S.maze;
  if (!m) return;
  const px = view.pixels, free = m.free, n = free.length;
  if (S.phase === "solve" && S.search) {
    const res = S.search, order = res.order, disc = res.discovered, scale = 255 / Math.max(1, res.steps - 1);
    for (let i = 0; i < n; i++) {
      if (!free[i]) { px[i] = WALL; continue; }
      const o = order[i];
      if (o >= 0 && o < t) px[i] = HEAT[(o * scale) | 0];
      else if (disc[i] >= 0 && disc[i] < t) px[i] = FRONTIER;
      else px[i] = FREE;
    }
  } else if (m.order) {
    // a square changes at its step: before it, it shows the opposite state (carved: a wall; division: free)
    const order = m.order, age = colourSel.value === "age", scale = 255 / Math.max(1, m.steps - 1);
    const fresh = Math.max(1, Math.round(player.rate * 0.06));
    for (let i = 0; i < n; i++) {
      const o = order[i];
      const done = o < 0 || o < t;
      const open = done ? free[i] : !free[i];
      if (o >= 0 && o < t && o >= t - fresh && t < m.steps) px[i] = FRESH;
      else if (!open) px[i] = WALL;
      else px[i] = age && o >= 0 && done ? AGE[(o * scale) | 0] : FREE;
    }
  } else {
    for (let i = 0; i < n; i++) px[i] = free[i] ? FREE : WALL;
  }
  const res = S.search, routeShown = S.phase === "solve" && res && res.found && t >= res.steps;
  // small squares: the route's own squares are coloured (a line a pixel or two wide would cover
  // the corridors round it); big ones get a line down the middle
  const thin = view.cell < 4;
  if (routeShown && thin) for (const [r, c] of res.path) px[r * m.shape[1] + c] = ROUTE;
  const finished = S.phase === "solve" || !m.order || t >= m.steps;
  view.overlay = () => {
    if (routeShown && !thin) view.path(res.path, css(COLORS.route), Math.max(1, view.cell * 0.3));
    if (S.phase !== "solve" && teachOn.checked) carveMarks(t);
    if (finished && S.start) view.marker(S.start[0], S.start[1], css(COLORS.start), "S");
    if (finished && S.goal) view.marker(S.goal[0], S.goal[1], css(COLORS.goal), "G");
  };
  view.flush();
  if (S.phase !== "solve" && teachOn.checked) panes.show(t);
  showStats(t);
}

function showStats(t) {
  const m = S.maze, mt = m.metrics;
  const pairs = [["maze", `${m.rows} × ${m.cols} ${m.plain ? "squares" : "cells"} (grid ${m.shape[0]} × ${m.shape[1]})`], ["seed", m.seed]];
  if (m.order) pairs.push([m.extra_step ? "carving steps" : "squares carved", S.phase === "carve" && t < m.steps ? `${fmt(t)} of ${fmt(m.steps)}` : fmt(m.steps)]);
  pairs.push(
    ["open cells", fmt(mt.cells)],
    ["perfect (no loops)", mt.perfect ? "yes" : "no"],
    ["dead ends", fmt(mt.dead_ends)],
    ["junctions", fmt(mt.junctions)],
    ["straightness", mt.straightness == null ? "—" : mt.straightness.toFixed(2)],
    ["solution (corner to corner)", mt.solution_length < 0 ? "none" : m.plain ? `${fmt(mt.solution_length)} steps`
      : `${fmt(mt.solution_length)} cells (${fmt(2 * mt.solution_length)} squares)`],
  );
  const res = S.search;
  if (S.phase === "solve" && res) {
    const shown = Math.min(t, res.steps);
    pairs.push([`${SOLVERS[res.algorithm]} visited`, `${fmt(res.visited)}${shown < res.steps ? ` (showing ${fmt(shown)})` : ""}`],
      [`${SOLVERS[res.algorithm]} route`, res.found ? `${fmt(res.length)} steps` : "no route"]);
  }
  stats(dl, pairs);
}

function ended() {
  const m = S.maze;
  if (!m) return;
  if (S.phase === "carve" && m.order) {
    const carved = m.extra_step ? `carved in ${fmt(m.steps)} steps (the last one opens the braided walls)` : `carved ${fmt(m.steps)} squares`;
    status(statusLine, `${GENERATORS[m.algorithm][0]}: ${carved}. Press Solve to search it.`, "good");
  }
}

/** The generator's step on the maze: what its structure holds (blue squares), the cell it
 *  joined (a blue ring) and the wall it opened (an orange square). */
function carveMarks(t) {
  const step = panes.current(t), ctx = view.ctx, s = view.cell, C = S.maze.shape[1];
  if (!step) return;
  ctx.save();
  ctx.fillStyle = "rgba(47, 111, 221, 0.45)";
  for (const i of step.marks) ctx.fillRect((i % C) * s, Math.floor(i / C) * s, s, s);
  if (step.wall !== null) { ctx.fillStyle = css(COLORS.route); ctx.fillRect((step.wall % C) * s, Math.floor(step.wall / C) * s, s, s); }
  if (step.cell) {
    const r = 2 * step.cell[0] + 1, c = 2 * step.cell[1] + 1, lw = Math.max(1.5, s * 0.25);
    ctx.strokeStyle = "#fff"; ctx.lineWidth = lw + 2;
    ctx.strokeRect(c * s - lw / 2, r * s - lw / 2, s + lw, s + lw);
    ctx.strokeStyle = "#2f6fdd"; ctx.lineWidth = lw;
    ctx.strokeRect(c * s - lw / 2, r * s - lw / 2, s + lw, s + lw);
  }
  ctx.restore();
  canvas.dataset.step = String(panes.k + 1);
}

// ---- generating ----
function clampInt(v, lo, hi, fallback) {
  const n = Math.round(+v);
  return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : fallback;
}

async function generate({ instant = false, solveAfter = false } = {}) {
  if (S.busy) { S.again = true; return; }  // the controls changed while a request was out: run once more after it
  const body = {
    algorithm: algSel.value, rows: +$("#rows").value, cols: +$("#cols").value,
    seed: +$("#seed").value, braid: algSel.value === "caves" ? 0 : +$("#braid").value, teach: teachOn.checked,
  };
  S.busy = true;
  status(statusLine, "generating…");
  try {
    const a = await patiently(statusLine, api("/api/maze/generate", body));
    a.order = a.order ? unpack(a.order) : null;
    const [R, C] = a.shape;
    a.free = new Uint8Array(R * C);
    a.grid.forEach((row, r) => { for (let c = 0; c < C; c++) a.free[r * C + c] = row[c] === "1" ? 0 : 1; });
    S.maze = a; S.start = a.start; S.goal = a.goal; S.search = null; S.phase = "carve";
    panes.load(a.lesson || null, a.lesson_note ? `${a.lesson_note[0].toUpperCase()}${a.lesson_note.slice(1)}.` : "");
    view.resize(R, C);
    title.textContent = `${GENERATORS[a.algorithm][0]}${a.braid ? `, braided ${a.braid}` : ""}`;
    showLegend();
    saveUrl();
    if (a.order) {
      status(statusLine, instant ? "" : `${GENERATORS[a.algorithm][0]}: carving ${a.extra_step ? `in ${fmt(a.steps)} steps` : `${fmt(a.steps)} squares`}…`);
      loadPlayer(a.steps, { instant });
    } else {
      loadPlayer(0);
      status(statusLine, `${GENERATORS[a.algorithm][0]} makes a plain grid in one go: there is no carving order to animate. Press Solve to search it.`, "good");
    }
    S.busy = false;
    if (S.again) { S.again = false; return generate(); }
    if (solveAfter) await solve();
  } catch (e) {
    S.busy = false;
    status(statusLine, e.message, "error");
    if (S.again) { S.again = false; generate(); }
  }
}

function gridRows() {
  const [R, C] = S.maze.shape, rows = [];
  for (let r = 0; r < R; r++) {
    let s = "";
    for (let c = 0; c < C; c++) s += S.maze.free[r * C + c] ? "0" : "1";
    rows.push(s);
  }
  return rows;
}

async function solve({ instant = false } = {}) {
  if (!S.maze) { status(statusLine, "generate a maze first", "error"); return; }
  if (S.busy) return;
  S.busy = true;
  status(statusLine, "searching…");
  try {
    const a = await api("/api/search", { grid: gridRows(), start: S.start, goal: S.goal, algorithm: solverSel.value, seed: S.maze.seed, pack_path: true });
    a.path = unpackPairs(a.path); a.order = unpack(a.order); a.discovered = unpack(a.discovered);
    S.search = a; S.phase = "solve";
    panes.load(null, "The panes follow the carving: press Replay carving to see it again step by step.");
    showLegend();
    loadPlayer(a.steps, { instant });
    S.solvedInUrl = true; saveUrl();
    status(statusLine, `${SOLVERS[a.algorithm]}: ${a.found ? `route of ${fmt(a.length)} steps` : "no route between S and G"}, ${fmt(a.visited)} cells visited`, a.found ? "good" : "");
  } catch (e) {
    status(statusLine, e.message, "error");
  } finally {
    S.busy = false;
  }
}

function replay() {
  if (!S.maze) return;
  S.phase = "carve"; S.search = null; S.solvedInUrl = false; saveUrl(); showLegend();
  panes.load(S.maze.lesson || null, S.maze.lesson_note || "");
  if (S.maze.order) { status(statusLine, "replaying the carving…"); loadPlayer(S.maze.steps); }
  else { loadPlayer(0); status(statusLine, "caves makes a plain grid: there is no carving to replay"); }
}

// ---- moving start and goal ----
function pointerDown(r, c) {
  const same = (p) => p && p[0] === r && p[1] === c;
  S.drag = same(S.start) ? "start" : same(S.goal) ? "goal" : null;
}
function pointerMove(r, c) {
  if (!S.drag || !S.maze) return;
  const [, C] = S.maze.shape, other = S.drag === "start" ? S.goal : S.start;
  if (!S.maze.free[r * C + c] || (other && other[0] === r && other[1] === c)) return;
  S[S.drag] = [r, c];
  if (S.phase === "solve") { S.phase = "carve"; S.search = null; showLegend(); loadPlayer(S.maze.order ? S.maze.steps : 0, { instant: true }); }
  else draw(player.t);
}
function pointerUp() {
  if (!S.drag) return;
  S.drag = null; saveUrl();
  status(statusLine, "moved; press Solve to search again");
}

// ---- the URL ----
function saveUrl() {
  const m = S.maze;
  urlState.set({
    alg: algSel.value, rows: $("#rows").value, cols: $("#cols").value, seed: $("#seed").value,
    braid: +$("#braid").value ? $("#braid").value : null, solver: solverSel.value,
    colour: colourSel.value === "age" ? null : colourSel.value,
    start: m && S.start && (S.start[0] !== m.start[0] || S.start[1] !== m.start[1]) ? S.start.join(",") : null,
    goal: m && S.goal && (S.goal[0] !== m.goal[0] || S.goal[1] !== m.goal[1]) ? S.goal.join(",") : null,
    solved: S.solvedInUrl ? 1 : null,
  });
}

async function loadUrl() {
  const notes = [];
  const alg = urlState.get("alg", "backtracker");
  algSel.value = alg in GENERATORS ? alg : "backtracker";
  if (algSel.value !== alg) notes.push(`generator "${alg}" is not one of mazekit's ${Object.keys(GENERATORS).length}`);
  const solver = urlState.get("solver", "astar");
  solverSel.value = solver in SOLVERS ? solver : "astar";
  if (solverSel.value !== solver) notes.push(`solver "${solver}" is not one of ${Object.keys(SOLVERS).join(", ")}`);
  colourSel.value = urlState.get("colour") === "plain" ? "plain" : "age";
  const whole = (key, lo, hi, fallback) => {
    const text = urlState.get(key);
    if (text === null) return fallback;
    const n = Number(text);
    if (Number.isInteger(n) && n >= lo && n <= hi) return n;
    notes.push(`${key}=${text} is not a whole number from ${lo} to ${fmt(hi)}`);
    return fallback;
  };
  $("#rows").value = whole("rows", 1, 1000, 20);
  $("#cols").value = whole("cols", 1, 1000, 30);
  $("#seed").value = whole("seed", 0, 4294967295, 7);
  const braid = Number(urlState.get("braid", 0));
  if (!(braid >= 0 && braid <= 1)) notes.push(`braid=${urlState.get("braid")} is not a fraction from 0 to 1`);
  $("#braid").value = braid >= 0 && braid <= 1 ? braid : 0;
  linkNotice(notes);
  syncControls();
  const solved = urlState.get("solved") === "1";
  const start = urlState.get("start"), goal = urlState.get("goal");
  await generate({ instant: solved || !!start || !!goal });
  if (S.maze) {
    const [R, C] = S.maze.shape;
    const cell = (s) => {
      const p = (s || "").split(",").map(Number);
      return p.length === 2 && p.every(Number.isInteger) && p[0] >= 0 && p[0] < R && p[1] >= 0 && p[1] < C && S.maze.free[p[0] * C + p[1]] ? p : null;
    };
    S.start = cell(start) || S.start; S.goal = cell(goal) || S.goal;
    draw(player.t);
    if (solved) await solve({ instant: true });
  }
}

function syncControls() {
  const caves = algSel.value === "caves";
  $("#alg-help").textContent = GENERATORS[algSel.value][1];
  $("#size-label").textContent = caves ? "Size (squares)" : "Size (cells)";
  $("#braid").disabled = caves;
  $("#braid-out").textContent = caves ? "—" : (+$("#braid").value).toFixed(2);
}

// ---- wiring ----
$("#generate").addEventListener("click", () => generate());
$("#solve").addEventListener("click", () => solve());
$("#replay").addEventListener("click", () => replay());
teachOn.addEventListener("change", () => {
  $("#teach-body").classList.toggle("hidden", !teachOn.checked);
  if (teachOn.checked && S.maze && !S.maze.lesson && !S.maze.lesson_note) generate({ instant: player.t >= player.total });
  else draw(player.t);
});
$("#new-seed").addEventListener("click", () => { $("#seed").value = Math.floor(Math.random() * 4294967295); generate(); });
algSel.addEventListener("change", () => { syncControls(); generate(); });
solverSel.addEventListener("change", () => { saveUrl(); if (S.phase === "solve") solve(); });
colourSel.addEventListener("change", () => { saveUrl(); showLegend(); draw(player.t); });
$("#braid").addEventListener("input", syncControls);
$("#braid").addEventListener("change", () => generate());
for (const id of ["#rows", "#cols", "#seed"]) {
  $(id).addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); generate(); } });
}
window.addEventListener("keydown", (ev) => {
  if (typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Enter" && !(ev.target instanceof HTMLButtonElement)) { ev.preventDefault(); generate(); }
  else if (ev.key === "s" || ev.key === "S") { ev.preventDefault(); solve(); }
});

loadUrl();
