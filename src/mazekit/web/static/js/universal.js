// Universal escape room: one string of U D L R that frees the robot from every start at once.
// The server finds strings (POST /api/universal), checks them and walks every robot through them
// (POST /api/universal/verify); this page only draws the positions it gets back.
import { $, api, capNote, COLORS, css, decodeGrid, el, encodeGrid, header, legend, stats, status, typing, unpack, urlState } from "./common.js";
import { GridView, fitIn, rgba } from "./gridview.js";
import { Player, fmt } from "./player.js";

const GENERATORS = ["backtracker", "prim", "kruskal", "wilson", "aldous-broder", "hunt-and-kill", "growing-tree",
  "eller", "binary-tree", "sidewinder", "division", "caves"];
const ROBOT = [47, 111, 221], FREED = [214, 240, 220], STUCK = [250, 205, 200];
const MAX_SIDE = 101;

header("universal");
const S = {
  rows: 0, cols: 0, walls: null, exit: null,
  brush: "wall", paint: null,
  result: null,   // the last /api/universal answer (for this grid)
  walk: null,     // {trace, n, len, commands, sampled}
  stuck: null,    // Set of flat indices that cannot reach the exit
};
const statusLine = $("#status");
const cmdBox = $("#commands"), freedLine = $("#freed");
const genSel = $("#gen");
for (const g of GENERATORS) genSel.append(el("option", { value: g }, [g]));

// ---- the view ----
const title = el("h3", {}, ["The maze"]);
const canvas = el("canvas", { class: "grid", "data-view": "0", "aria-label": "maze with robots" });
const cmdLine = el("div", { class: "cmdline", id: "cmdline", "aria-label": "commands played" });
const dl = el("dl", { class: "stats", id: "walk-stats" });
$("#stage").append(el("div", { class: "view" }, [title, canvas, cmdLine, dl]));
const view = new GridView(canvas, { maxWidth: 640, maxHeight: 480, maxCell: 40, fit: fitIn($("#stage"), { below: 120 }) });
view.pointer = { down: pointerDown, move: pointerMove, up: pointerUp };

const WALL = rgba(COLORS.wall), FREE = rgba(COLORS.free), FREED_PX = rgba(FREED), STUCK_PX = rgba(STUCK), EXIT_PX = rgba([255, 226, 222]);

const playerBox = $("#player-box");
const player = new Player(playerBox, (t) => draw(t), { speed: 6, label: "command", onEnd: () => ended() });
view.refitOnResize(() => draw(player.t));
player.bindKeys();
playerBox.append(legend([
  [COLORS.wall, "obstacle"], [COLORS.free, "free"], [COLORS.goal, "exit"], [ROBOT, "robots (number: how many on that cell)"],
  [FREED, "start whose robot has left"], [STUCK, "cannot reach the exit"],
]));

function setSpeed(perSecond) {
  player.speed.value = String(Math.round(20 * Math.log10(Math.max(1, perSecond))));
  player.speed.dispatchEvent(new Event("input"));
}

// ---- drawing ----
function draw(t) {
  if (!S.walls) return;
  const px = view.pixels, n = S.rows * S.cols, W = S.walk, ex = S.exit[0] * S.cols + S.exit[1];
  for (let i = 0; i < n; i++) px[i] = S.walls[i] ? WALL : (S.stuck && S.stuck.has(i) ? STUCK_PX : FREE);
  px[ex] = EXIT_PX;
  const counts = new Map();
  let freed = 0;
  if (!W) {  // before a walk: one robot on every start (every free cell but the exit)
    for (let i = 0; i < n; i++) if (!S.walls[i] && i !== ex) counts.set(i, 1);
  } else {
    const row = Math.min(t, W.len) * W.n;
    for (let j = 0; j < W.n; j++) {
      const p = W.trace[row + j];
      if (p < 0) { freed++; px[W.trace[j]] = FREED_PX; }
      else counts.set(p, (counts.get(p) || 0) + 1);
    }
  }
  view.overlay = () => {
    view.marker(S.exit[0], S.exit[1], css(COLORS.goal), "X", 0.45);
    for (const [p, k] of counts) {
      const r = (p / S.cols) | 0, c = p % S.cols;
      view.marker(r, c, css(ROBOT), k > 1 ? String(k) : "", k > 1 ? 0.4 : 0.3);
    }
  };
  view.flush();
  showCommands(t);
  showWalkStats(t, freed);
}

function showCommands(t) {
  const W = S.walk;
  if (!W) { cmdLine.replaceChildren(el("span", { class: "rest" }, ["Play a string to see every robot move at once."])); return; }
  const s = W.commands, lo = Math.max(0, t - 60), hi = Math.min(s.length, t + 60);
  cmdLine.replaceChildren(
    el("span", { class: "rest" }, [lo > 0 ? "…" : ""]),
    el("span", { class: "done" }, [s.slice(lo, t)]),
    el("span", { class: "next" }, [s.slice(t, t + 1)]),
    el("span", { class: "rest" }, [s.slice(t + 1, hi) + (hi < s.length ? "…" : "")]),
  );
}

function showWalkStats(t, freed) {
  const W = S.walk, N = W ? W.total : null;
  const pairs = [["grid", `${S.rows} × ${S.cols}`], ["exit (row, column from 0)", S.exit.join(", ")]];
  if (W) {
    pairs.push(["commands played", `${fmt(Math.min(t, W.len))} of ${fmt(W.len)}`]);
    pairs.push(["robots freed", W.sampled ? `${fmt(freed)} of ${fmt(W.n)} shown (sampled from ${fmt(N)})` : `${fmt(freed)} of ${fmt(N)}`]);
    pairs.push(["still inside", fmt(W.n - freed)]);
  }
  stats(dl, pairs);
}

function ended() {
  const W = S.walk;
  if (!W || player.total === 0) return;
  status(statusLine, `${W.text}: ${W.freed} of ${W.total} freed after ${fmt(W.len)} commands` + (W.freed === W.total ? " — the string is universal." : "."), W.freed === W.total ? "good" : "");
}

// ---- the grid ----
function setGrid(rows01, exit) {
  S.rows = rows01.length; S.cols = rows01[0].length;
  S.walls = new Uint8Array(S.rows * S.cols);
  rows01.forEach((row, r) => { for (let c = 0; c < S.cols; c++) S.walls[r * S.cols + c] = row[c] === "1" ? 1 : 0; });
  S.exit = exit; S.walls[exit[0] * S.cols + exit[1]] = 0;
  view.resize(S.rows, S.cols);
  changed({ keepCommands: true });
}

/** Rows of 0/1/x (x at the exit) as the API reads them; `plain`: without the x, for the URL. */
function gridRows(plain = false) {
  const out = [];
  for (let r = 0; r < S.rows; r++) {
    let s = "";
    for (let c = 0; c < S.cols; c++) s += !plain && r === S.exit[0] && c === S.exit[1] ? "x" : S.walls[r * S.cols + c] ? "1" : "0";
    out.push(s);
  }
  return out;
}

function splitX(rows) {
  let exit = null;
  rows.forEach((row, r) => { const c = row.indexOf("x"); if (c >= 0 && !exit) exit = [r, c]; });
  return [rows.map((row) => row.replace(/x/g, "0")), exit];
}

/** The grid changed: answers and walks are stale; check the typed string again. */
function changed({ keepCommands = false } = {}) {
  S.result = null; S.walk = null; S.stuck = null;
  showAnswer();
  player.load(0);
  saveUrl();
  if (!keepCommands) liveVerify();
}

// ---- editing ----
function pointerDown(r, c) {
  const i = r * S.cols + c;
  if (S.brush === "exit") {
    if (r === S.exit[0] && c === S.exit[1]) return;
    S.exit = [r, c]; S.walls[i] = 0; S.paint = "exit";
    draw(0);
    return;
  }
  if (r === S.exit[0] && c === S.exit[1]) { status(statusLine, "the exit cannot be an obstacle: move it with the Exit brush first"); return; }
  S.paint = S.walls[i] ? 0 : 1;
  S.walls[i] = S.paint;
  S.walk = null; S.stuck = null;
  draw(0);
}
function pointerMove(r, c) {
  if (S.paint === null || S.paint === "exit") return;
  if (r === S.exit[0] && c === S.exit[1]) return;
  S.walls[r * S.cols + c] = S.paint;
  draw(0);
}
function pointerUp() {
  if (S.paint === null) return;
  S.paint = null;
  changed();
  status(statusLine, "maze edited: Compute finds a string for it; the typed string is checked again");
}

function setBrush(name) {
  S.brush = name;
  for (const b of document.querySelectorAll("[data-brush]")) b.setAttribute("aria-pressed", String(b.dataset.brush === name));
}

// ---- answers ----
function showAnswer() {
  const a = S.result, box = $("#answer-stats");
  if (!a) { stats(box, []); return; }
  if (!a.found) {
    stats(box, [["starts", fmt(a.starts)], ["no string", a.stuck_count ? `${fmt(a.stuck_count)} cells cannot reach the exit` : `none found (bound ${a.lower_bound})`]]);
    return;
  }
  stats(box, [
    ["length", fmt(a.length)],
    ["lower bound", fmt(a.lower_bound)],
    ["verdict", a.proven ? "proven shortest" : `not proven (gap ${fmt(a.length - a.lower_bound)})`],
    ["pair bound", a.pair_bound < 0 ? "not computed" : fmt(a.pair_bound) + (a.pair_bound_exhaustive ? "" : " (sampled)")],
    ["distance bound", fmt(a.distance_bound)],
    ["starts (N)", fmt(a.starts)],
    ["found by", `${a.method}${a.complete ? "" : ", time limit reached"}${!a.complete && a.asked > a.time_limit
      ? ` (${a.asked} s asked, ${a.time_limit} s allowed)` : ""}`],
    ["time on the server", `${(a.time_ms / 1000).toFixed(2)} s`],
  ]);
  box.querySelector("dd:nth-of-type(3)").classList.toggle("proven", a.proven);
}

async function compute() {
  status(statusLine, "searching for a universal string…");
  $("#compute").disabled = true;
  try {
    const asked = +$("#time-limit").value || 10;
    const a = await api("/api/universal", { grid: gridRows(), method: $("#method").value, time_limit: asked });
    S.result = { ...a, asked };
    showAnswer();
    // the server cuts a time limit above its --solver-seconds: say so when the search ran out of it
    const cut = a.complete ? "" : capNote(a.time_limit, asked);
    if (!a.found) {
      S.stuck = new Set(a.stuck.map(([r, c]) => r * S.cols + c));
      S.walk = null; player.load(0);
      status(statusLine, a.stuck_count ? `no universal string: ${fmt(a.stuck_count)} of ${fmt(a.starts)} free cells cannot reach the exit (shown in red)` : `no string found${cut}`, "error");
      return;
    }
    cmdBox.value = a.commands;
    await play({ quiet: true });
    status(statusLine, `${fmt(a.length)} commands, lower bound ${fmt(a.lower_bound)}: ${a.proven ? "proven shortest" : "not proven shortest"}${cut}. Playing it from all ${fmt(a.starts)} starts…`, "good");
  } catch (e) {
    status(statusLine, e.message, "error");
  } finally {
    $("#compute").disabled = false;
  }
}

async function play({ instant = false, quiet = false } = {}) {
  const commands = cmdBox.value;
  try {
    const a = await api("/api/universal/verify", { grid: gridRows(), commands });
    showFreed(a);
    if (!a.trace) { S.walk = null; player.load(0); status(statusLine, a.trace_note || "no walk trace", "error"); return; }
    const trace = unpack(a.trace);
    S.walk = { trace, n: a.trace.shape[1], len: a.length, total: a.total, freed: a.freed, text: a.text,
      commands: commands.replace(/\s+/g, ""), sampled: a.trace_sampled };
    saveUrl();
    setSpeed(Math.max(4, Math.min(400, a.length / 8)));
    player.load(a.length, { instant });
    if (a.trace_note) status(statusLine, a.trace_note);
    else if (!quiet && !instant) status(statusLine, `playing ${fmt(a.length)} commands from ${fmt(a.total)} starts…`);
  } catch (e) {
    status(statusLine, e.message, "error");
  }
}

function showFreed(a) {
  freedLine.textContent = `${a.freed} of ${a.total} freed` + (a.ok && a.total ? " — universal" : "");
  freedLine.classList.toggle("ok", a.ok);
}

let verifyTimer = null, verifyTicket = 0;
function liveVerify() {
  clearTimeout(verifyTimer);
  verifyTimer = setTimeout(async () => {
    const ticket = ++verifyTicket;
    try {
      const a = await api("/api/universal/verify", { grid: gridRows(), commands: cmdBox.value, trace: false });
      if (ticket !== verifyTicket) return;
      showFreed(a);
      if (statusLine.classList.contains("error")) status(statusLine, "");
    } catch (e) {
      if (ticket !== verifyTicket) return;
      freedLine.textContent = "—"; freedLine.classList.remove("ok");
      status(statusLine, e.message, "error");
    }
  }, 120);
}

// ---- loading ----
async function loadArticle() {
  try {
    const a = await api("/api/universal/example", { name: "julia" });
    const [rows, exit] = splitX(a.grid);
    setGrid(rows, exit);
    status(statusLine, "The article's maze: 70 starts, one exit. Press Compute (Enter) for the shortest string that frees them all.");
  } catch (e) {
    status(statusLine, e.message, "error");
  }
}

async function loadGenerated() {
  const body = { algorithm: genSel.value, rows: +$("#g-rows").value, cols: +$("#g-cols").value, seed: +$("#g-seed").value, exit: true };
  try {
    const a = await api("/api/maze/generate", body);
    const [rows, exit] = splitX(a.grid);
    if (!exit) throw new Error("the generated grid has no free cell for the exit");
    let e = exit;
    const [H, W] = a.shape;
    if ($("#g-exit").value === "border") {
      const onBorder = ([r, c]) => r >= 0 && c >= 0 && r < H && c < W && (r === 0 || c === 0 || r === H - 1 || c === W - 1);
      const near = [[e[0], e[1] + 1], [e[0] + 1, e[1]], [e[0], e[1] - 1], [e[0] - 1, e[1]]].find(onBorder);
      if (near) e = near;
    }
    setGrid(rows, e);
    cmdBox.value = ""; freedLine.textContent = ""; liveVerify(); saveUrl();
    const starts = S.walls.reduce((k, w) => k + (w ? 0 : 1), 0) - 1;
    status(statusLine, `${a.algorithm} ${a.rows} × ${a.cols}, seed ${a.seed}: ${fmt(starts)} starts. Press Compute.`);
  } catch (e) {
    status(statusLine, e.message, "error");
  }
}

function emptyGrid() {
  const rows = Array.from({ length: S.rows }, () => "0".repeat(S.cols));
  setGrid(rows, S.exit);
  cmdBox.value = ""; liveVerify(); saveUrl();
}

// ---- the URL ----
function saveUrl() {
  urlState.set({
    grid: encodeGrid(gridRows(true)), exit: S.exit.join(","),
    cmd: cmdBox.value.replace(/\s+/g, "") || null,
    method: $("#method").value === "auto" ? null : $("#method").value,
  });
}

async function loadUrl() {
  const m = urlState.get("method"), cmd = urlState.get("cmd");
  if (m === "exact" || m === "heuristic") $("#method").value = m;
  const g = urlState.get("grid"), ex = (urlState.get("exit") || "").split(",").map(Number);
  let ok = false;
  if (g) {
    const rows = decodeGrid(g);
    const C = rows[0].length;
    ok = rows.length >= 1 && rows.length <= MAX_SIDE && C >= 1 && C <= MAX_SIDE && rows.every((row) => row.length === C && /^[01]*$/.test(row))
      && ex.length === 2 && ex.every(Number.isInteger) && ex[0] >= 0 && ex[0] < rows.length && ex[1] >= 0 && ex[1] < C;
    if (ok) setGrid(rows, ex);
    else status(statusLine, "the link's grid could not be read: showing the article's maze", "error");
  }
  if (!ok) await loadArticle();
  if (cmd) {
    cmdBox.value = cmd.toUpperCase();
    await play({ instant: true });
    liveVerify();
  } else {
    liveVerify();
  }
}

// ---- wiring ----
$("#compute").addEventListener("click", () => compute());
$("#play").addEventListener("click", () => play());
$("#clear-cmd").addEventListener("click", () => { cmdBox.value = ""; S.walk = null; player.load(0); liveVerify(); saveUrl(); });
$("#article").addEventListener("click", async () => { await loadArticle(); cmdBox.value = ""; liveVerify(); saveUrl(); });
$("#empty").addEventListener("click", () => emptyGrid());
$("#load-gen").addEventListener("click", () => loadGenerated());
$("#method").addEventListener("change", () => saveUrl());
for (const b of document.querySelectorAll("[data-brush]")) b.addEventListener("click", () => setBrush(b.dataset.brush));
cmdBox.addEventListener("input", () => {
  // u d l r read as U D L R: shown in upper case as they are typed
  if (/[udlr]/.test(cmdBox.value)) { const at = cmdBox.selectionStart; cmdBox.value = cmdBox.value.toUpperCase(); cmdBox.setSelectionRange(at, at); }
  liveVerify(); saveUrl();
});
cmdBox.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); play(); } });
window.addEventListener("keydown", (ev) => {
  if (typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Enter" && !(ev.target instanceof HTMLButtonElement)) { ev.preventDefault(); compute(); }
  const brush = { w: "wall", x: "exit" }[ev.key.toLowerCase()];
  if (brush) setBrush(brush);
});

loadUrl();
