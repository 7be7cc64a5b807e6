// Sokoban room: play the bundled levels or a pasted one, let the solver finish them.
// The page keeps only the move string (LURD, upper case a push) and asks the server for the
// board after it: it never applies a rule of the game itself. Undo/redo are edits of that string.
import { $, api, capNote, COLORS, css, el, header, legend, stats, status, typing, unpack, urlState } from "./common.js";
import { GridView, fitIn, rgba } from "./gridview.js";
import { Player, fmt } from "./player.js";

header("sokoban");

const COL = {
  box: [201, 140, 62], boxEdge: [120, 78, 24], boxHome: COLORS.start, boxHomeEdge: [20, 100, 45],
  player: [47, 111, 221], fake: [142, 68, 173], outside: [238, 240, 244], stuck: [200, 0, 90],
};
const DIRS = { ArrowUp: "u", ArrowDown: "d", ArrowLeft: "l", ArrowRight: "r", w: "u", s: "d", a: "l", d: "r" };
const ARROWS = { u: "^", d: "v", l: "<", r: ">" };
const MAX_URL_TEXT = 1500, MAX_URL_MOVES = 4000;
const STORE = "mazekit.sokoban.progress";

const S = {
  collections: [],    // from GET /api/sokoban/levels
  source: null,       // {collection} or {text}
  index: 0,
  count: 0,
  moves: "",          // the current move string
  undo: [], redo: [], // actions: {kind: "move", ch} | {kind: "set", before, after}
  answer: null,       // the last /api/sokoban/state answer shown
  ws: null,           // the solver's or the optimiser's socket while it runs
  solution: null,     // {base, full, frames, moves, pushes, label} while a solution is shown
};

const statusLine = $("#status"), solverLine = $("#solver-status"), solverBar = $("#solver-bar");
const collSel = $("#collection"), levelSel = $("#level");
const view = new GridView($("#board"), { maxWidth: 640, maxHeight: 520, maxCell: 56, fit: fitIn($("#board").parentElement, { below: 60 }) });
const LEGEND = [
  [COLORS.wall, "wall"], [COLORS.free, "floor"], [COLORS.goal, "goal"], [COL.box, "box"],
  [COL.boxHome, "box on a goal"], [COL.player, "player"],
];
// The board's deadlock rules (the API's "dead"), in a player's words.
const DEAD_WHY = {
  "dead square": "a box stands where it can never be pushed onto a goal",
  "2x2 block": "boxes and walls close a 2x2 square, and none of its boxes can move",
  "freeze": "a box off its goal can never move again",
  "bipartite": "some boxes have fewer goals within their reach than there are of them",
  "dead pair": "two boxes can never both reach goals, even alone on the level",
};

function showLegend(fake, stuck = false) {
  const items = [...LEGEND];
  if (fake) items.push([COL.fake, "fake target (does not count)"]);
  if (stuck) items.push([COL.stuck, "ring: the boxes the deadlock is about"]);
  $("#legend").replaceChildren(legend(items));
}
showLegend(false);

// ---------------------------------------------------------------- progress (localStorage)
function loadProgress() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}") || {}; } catch { return {}; }
}
function saveProgress(p) { try { localStorage.setItem(STORE, JSON.stringify(p)); } catch { /* private mode */ } }
function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619); }
  return (h >>> 0).toString(36);
}
function setKey(source = S.source) { return source.collection ? `c:${source.collection}` : `t:${hash(source.text)}`; }
function levelKey(i = S.index) { return `${setKey()}:${i}`; }
function markSolved(moves, pushes) {
  const p = loadProgress(), k = levelKey(), old = p[k];
  if (!old || moves < old.moves) p[k] = { moves, pushes };
  saveProgress(p);
  fillLevels();
}
function nextUnsolved() {
  const p = loadProgress();
  for (let k = 1; k <= S.count; k++) {
    const i = (S.index + k) % S.count;
    if (!p[levelKey(i)]) return i;
  }
  return null;
}

// ---------------------------------------------------------------- level choice
function fillCollections() {
  collSel.replaceChildren();
  for (const c of S.collections) collSel.append(el("option", { value: c.name }, [`${c.name} (${c.levels.length})`]));
  if (S.source && S.source.text != null) collSel.append(el("option", { value: "" }, ["pasted text"]));
  collSel.value = S.source && S.source.collection ? S.source.collection : "";
}

function fillLevels() {
  const p = loadProgress();
  levelSel.replaceChildren();
  const coll = S.source && S.source.collection ? S.collections.find((c) => c.name === S.source.collection) : null;
  for (let i = 0; i < S.count; i++) {
    let title = coll ? coll.levels[i].title : `Level ${i + 1}`;
    if (!coll && i === S.index && S.answer && S.answer.level.title) title = S.answer.level.title;
    const done = p[levelKey(i)];
    levelSel.append(el("option", { value: String(i) }, [`${i + 1}. ${title}${done ? `  ✓ ${done.moves}` : ""}`]));
  }
  levelSel.value = String(S.index);
  const solved = Array.from({ length: S.count }, (_, i) => p[levelKey(i)]).filter(Boolean).length;
  $("#progress").textContent = S.count ? `You have solved ${solved} of ${S.count} level${S.count === 1 ? "" : "s"} here (remembered in this browser).` : "";
}

function levelRef() {
  return S.source.collection ? { collection: S.source.collection, index: S.index } : { text: S.source.text, index: S.index };
}

/** Open a level (a new source, or another index); `moves` is the position to start from. */
async function openLevel(source, index, moves = "") {
  stopSolver(); closeSolution();
  const before = { source: S.source, index: S.index, count: S.count };
  S.source = source; S.index = index;
  try {
    const a = await fetchState(moves, { strict: true });
    S.count = a.level.count;
    S.undo = []; S.redo = [];
    S.moves = a.lurd;
    show(a);
    fillCollections(); fillLevels();
    if (a.illegal) status(statusLine, `The link's moves stop at an illegal one (${a.illegal.message}); showing the ${a.illegal.legal} legal moves before it.`, "error");
    else if (!S.answer.solved && !a.dead) status(statusLine, a.level.kind === "assignment" ? "The assignment's map: push the box onto the red goal; the purple ✕ is the fake target." : "Push every box onto a goal.");
    $("#solver-stats").replaceChildren(); status(solverLine, "");
    return true;
  } catch (e) {
    Object.assign(S, before);
    // the server counts levels from 0, the room from 1
    const range = /^The level number (\d+) is out of range: (.*) has (\d+) level\(s\), numbered from 0$/.exec(e.message);
    status(statusLine, range ? `There is no level ${+range[1] + 1}: ${range[2]} has ${range[3]} level${range[3] === "1" ? "" : "s"}` : e.message, "error");
    return false;
  }
}

function fetchState(moves, extra = {}) {
  return api("/api/sokoban/state", { level: levelRef(), moves, ...extra });
}

// ---------------------------------------------------------------- drawing
function show(a) {
  if (a.lurd && statusLine.textContent.startsWith("Restarted")) status(statusLine, "");  // moved on since
  S.answer = a;
  const [rows, cols] = a.shape;
  if (view.rows !== rows || view.cols !== cols) view.resize(rows, cols);
  const title = a.level.title || `Level ${a.level.index + 1}`;
  $("#title").textContent = `${a.level.collection ? a.level.collection : "pasted"} · ${a.level.index + 1}. ${title}`;
  const stuck = a.dead_boxes || [];
  draw(a.player, a.boxes, stuck);
  showStats(a.moves, a.pushes, a.boxes);
  const win = $("#win");
  if (a.solved && a.moves > 0 && !S.solution) {
    markSolved(a.moves, a.pushes);
    const next = nextUnsolved();
    const mine = S.moves;
    win.replaceChildren(`Solved in ${fmt(a.moves)} moves and ${fmt(a.pushes)} pushes!`,
      next !== null ? el("button", { type: "button", class: "primary", onclick: () => openLevel(S.source, next) }, [`Next unsolved: ${next + 1}`])
        : el("span", {}, [" Every level here is solved."]),
      el("button", { type: "button", "data-role": "shorten-mine", title: "Look for a shorter solution than yours (the optimiser; the solver's time limit)",
        onclick: () => shorten(mine, "your solution") }, ["Shorten my solution"]));
    win.classList.remove("hidden");
    status(statusLine, "Solved! Undo (U) to look back, or go on to the next level (N).", "good");
  } else {
    win.classList.add("hidden");
    const ringed = stuck.length ? " (ringed on the board)" : "";
    if (a.dead) status(statusLine, `This position cannot be solved any more: ${DEAD_WHY[a.dead] || a.dead}${ringed}. Undo (U) or restart (R).`, "error");
  }
  showLegend(Boolean(a.level.fake_targets), stuck.length > 0);
  const note = $("#assignment-note");
  if (a.level.assignment) {
    const m = a.level.assignment;
    const arrows = m.moves.split("").map((c) => ARROWS[c]).join("");
    note.textContent = `The assignment's file: only the red goal counts, the purple ✕ is its fake target. Its moves ${arrows || "(none)"} end in ${m.outcome}${m.reason ? ` (${m.reason})` : ""} in the assignment's simulator (mazekit sokoban run), where a blocked move still counts.`;
    note.classList.remove("hidden");
  } else note.classList.add("hidden");
  $("#undo").disabled = S.undo.length === 0; $("#redo").disabled = S.redo.length === 0;
  const out = $("#lurd");
  out.textContent = S.moves ? `moves: ${S.moves}` : ""; out.classList.toggle("hidden", !S.moves);
  saveUrl();
}

function showStats(moves, pushes, boxes) {
  const a = S.answer;
  const home = boxes.filter(([r, c]) => a.board[r][c] === ".").length;
  stats($("#stats"), [["moves", fmt(moves)], ["pushes", fmt(pushes)], ["boxes on goals", `${home} / ${boxes.length}`]]);
}

const PIX = { "#": rgba(COLORS.wall), "-": rgba(COLORS.free), ".": rgba(COLORS.free), x: rgba(COLORS.free), " ": rgba(COL.outside) };

// The walls that touch the level's floor (the 8 cells round them): the rest of the walls, like
// the cells outside them, are drawn as the outside, so every level looks alike whether its file
// fills the space round it with walls (the assignment's map) or leaves it blank (XSB).
function innerWalls(a) {
  if (a._inner) return a._inner;
  const [rows, cols] = a.shape, out = new Uint8Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    if (a.board[r][c] !== "#") continue;
    for (let dr = -1; dr <= 1 && !out[r * cols + c]; dr++) for (let dc = -1; dc <= 1; dc++) {
      const ch = a.board[r + dr]?.[c + dc];
      if (ch === "-" || ch === "." || ch === "x") { out[r * cols + c] = 1; break; }
    }
  }
  a._inner = out;
  return out;
}

// Boxes the board's deadlock rule names (``dead_boxes``): ringed, and the legend says so.
function draw(player, boxes, stuck = []) {
  const a = S.answer, [rows, cols] = a.shape, px = view.pixels;
  const inner = innerWalls(a);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const ch = a.board[r][c];
    px[r * cols + c] = ch === "#" && !inner[r * cols + c] ? PIX[" "] : PIX[ch] ?? PIX[" "];
  }
  view.overlay = (ctx, v) => {
    const s = v.cell;
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const ch = a.board[r][c], [x, y] = v.center(r, c);
      if (ch === ".") {
        ctx.fillStyle = css(COLORS.goal);
        ctx.beginPath(); ctx.arc(x, y, Math.max(2, s * 0.2), 0, Math.PI * 2); ctx.fill();
      } else if (ch === "x") {
        ctx.save();
        ctx.strokeStyle = css(COL.fake); ctx.lineWidth = Math.max(1.5, s * 0.09); ctx.setLineDash([Math.max(2, s * 0.12), Math.max(2, s * 0.08)]);
        ctx.strokeRect(x - s * 0.38, y - s * 0.38, s * 0.76, s * 0.76);
        ctx.setLineDash([]); ctx.beginPath();
        const k = s * 0.2;
        ctx.moveTo(x - k, y - k); ctx.lineTo(x + k, y + k); ctx.moveTo(x + k, y - k); ctx.lineTo(x - k, y + k); ctx.stroke();
        ctx.restore();
      }
    }
    for (const [r, c] of boxes) {
      const home = a.board[r][c] === ".", [x, y] = v.center(r, c), h = s * 0.4;
      ctx.fillStyle = css(home ? COL.boxHome : COL.box);
      ctx.strokeStyle = css(home ? COL.boxHomeEdge : COL.boxEdge); ctx.lineWidth = Math.max(1, s * 0.07);
      ctx.beginPath(); ctx.roundRect(x - h, y - h, 2 * h, 2 * h, s * 0.1); ctx.fill(); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(x - h * 0.6, y - h * 0.6); ctx.lineTo(x + h * 0.6, y + h * 0.6);
      ctx.moveTo(x + h * 0.6, y - h * 0.6); ctx.lineTo(x - h * 0.6, y + h * 0.6); ctx.globalAlpha = 0.35; ctx.stroke(); ctx.globalAlpha = 1;
    }
    for (const [r, c] of stuck) {
      const [x, y] = v.center(r, c);
      ctx.save();
      ctx.strokeStyle = css(COL.stuck); ctx.lineWidth = Math.max(2, s * 0.1); ctx.setLineDash([Math.max(2, s * 0.14), Math.max(2, s * 0.08)]);
      ctx.beginPath(); ctx.arc(x, y, s * 0.47, 0, Math.PI * 2); ctx.stroke();
      ctx.restore();
    }
    v.marker(player[0], player[1], css(COL.player), "", 0.32);
    if (a.board[player[0]][player[1]] === ".") {  // the goal under the player stays visible
      const [x, y] = v.center(player[0], player[1]);
      ctx.strokeStyle = css(COLORS.goal); ctx.lineWidth = Math.max(1.5, s * 0.08);
      ctx.beginPath(); ctx.arc(x, y, s * 0.43, 0, Math.PI * 2); ctx.stroke();
    }
  };
  view.flush();
}

// ---------------------------------------------------------------- moving, undo, redo
let chain = Promise.resolve();
function enqueue(fn) {
  chain = chain.then(fn).catch((e) => status(statusLine, e.message, "error"));
  return chain;
}

function move(d) {
  enqueue(async () => {
    if (!S.answer) return;
    takeOver();
    const a = await fetchState(S.moves + d, { strict: false });
    if (a.illegal) { status(statusLine, `Can't move ${{ u: "up", d: "down", l: "left", r: "right" }[d]}: ${a.illegal.message.replace(/^move \d+ '.': /, "")}.`); return; }
    const ch = a.lurd.slice(-1), top = S.redo[S.redo.length - 1];
    if (top && top.kind === "move" && top.ch === ch) S.redo.pop(); else S.redo = [];
    S.undo.push({ kind: "move", ch });
    S.moves = a.lurd;
    show(a);
    if (!a.solved && !a.dead) status(statusLine, "");
  });
}

function setMoves(after) {
  enqueue(async () => {
    if (after === S.moves) return;
    const a = await fetchState(after);
    S.undo.push({ kind: "set", before: S.moves, after: a.lurd }); S.redo = [];
    S.moves = a.lurd; show(a);
  });
}

function undo() {
  enqueue(async () => {
    takeOver();
    const act = S.undo.pop();
    if (!act) return;
    const moves = act.kind === "move" ? S.moves.slice(0, -1) : act.before;
    const a = await fetchState(moves);
    S.redo.push(act); S.moves = a.lurd; show(a);
    status(statusLine, act.kind === "set" ? "Undone: the moves are back." : "");
  });
}

function redo() {
  enqueue(async () => {
    takeOver();
    const act = S.redo.pop();
    if (!act) return;
    const moves = act.kind === "move" ? S.moves + act.ch : act.after;
    const a = await fetchState(moves);
    S.undo.push(act); S.moves = a.lurd; show(a);
  });
}

function restart() {
  takeOver(true);
  if (S.moves) { setMoves(""); enqueue(async () => status(statusLine, "Restarted: undo (U) brings the moves back.")); }
}

// ---------------------------------------------------------------- the solver and the optimiser (WebSockets)
function setSolving(on) {
  $("#solve").disabled = on; $("#stop").disabled = !on; $("#shorten").disabled = on;
  if (!on) showBar(undefined);
}

/** The bar under the solver's line: `fraction` in [0, 1], null while there is no measure yet
 *  (an indeterminate bar), undefined to hide it; `label` says what it measures. */
function showBar(fraction, label = "") {
  solverBar.classList.toggle("hidden", fraction === undefined);
  if (fraction === null || fraction === undefined) solverBar.removeAttribute("value");
  else solverBar.value = Math.min(1, Math.max(0, fraction));
  solverBar.title = label;
  solverBar.setAttribute("aria-valuetext", label);
}

/** Run a job over the WebSocket at `path` (the solver's protocol): send `body`, hand the
 *  `started`, `progress` and `result` messages to `on`; an error goes to the solver's line.
 *  The bar shows the share of the time limit used (`fraction` of a progress message; no
 *  measure before the first, or while queued, preparing or compiling) and goes at the end.
 *  Stop sends {"stop": true}; `what` names the job in messages. */
function runSocket(path, body, what, on) {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`);
  let finished = false;
  S.ws = ws; setSolving(true);
  status(solverLine, `connecting to the ${what}…`);
  // the bar and Stop live in the solver's panel: on a short window, "Shorten it" (under the
  // board) can be clicked with that panel scrolled out of sight
  const panel = solverLine.closest(".panel"), box = panel.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) panel.scrollIntoView({ block: "nearest" });
  ws.onopen = () => ws.send(JSON.stringify(body));
  ws.onmessage = async (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "error") {
      finished = true; showBar(undefined);
      status(solverLine, m.error, "error");
      return;
    }
    if (m.type === "started") showBar(null, "starting");
    else if (m.type === "progress") showBar(m.fraction, m.fraction === null ? m.phase : `${m.used.toFixed(1)} s of the ${m.time_limit} s time limit used`);
    else if (m.type === "result") {
      // the run is over with its answer: Solve and Shorten come back, Stop goes, before the socket closes
      finished = true;
      if (S.ws === ws) { S.ws = null; setSolving(false); }
    }
    if (on[m.type]) await on[m.type](m);
  };
  ws.onerror = () => { if (!finished) status(solverLine, `the ${what}'s connection failed (is the server still running?)`, "error"); };
  ws.onclose = () => {
    if (S.ws === ws) { S.ws = null; setSolving(false); }
    if (!finished && solverLine.className.indexOf("error") < 0) status(solverLine, `the ${what}'s connection closed before an answer`, "error");
  };
}

function solve() {
  if (S.ws || !S.answer) return;
  closeSolution();
  const tl = Math.max(1, +$("#time-limit").value || 10), key = levelKey();
  let limit = tl;  // the server's, which may cap what was asked
  runSocket("/api/sokoban/solve", { level: levelRef(), moves: S.moves, time_limit: tl }, "solver", {
    started: (m) => {
      limit = m.time_limit ?? limit;
      if (limit < tl) $("#time-limit").value = String(limit);  // the box shows what runs (capNote says why)
      status(solverLine, m.queued ? `waiting for a free solver slot: place ${m.position} in line…` : `solver started (time limit ${limit} s${capNote(limit, tl)})`);
    },
    progress: (m) => {
      status(solverLine, m.fraction === null && m.phase !== "queued" ? `${m.message} · ${m.elapsed.toFixed(1)} s` : m.message);
      stats($("#solver-stats"), [["elapsed", `${m.elapsed.toFixed(1)} s`], ["states stored", fmt(m.nodes)], ["expanded", fmt(m.expanded)]]);
    },
    result: async (m) => {
      stats($("#solver-stats"), [["time", `${m.time.toFixed(2)} s`], ["states stored", fmt(m.nodes)], ["expanded", fmt(m.expanded)],
        ...(m.compile_time > 0.5 ? [["of which compiling", `${m.compile_time.toFixed(1)} s`]] : []),
        ...(m.solved ? [["solution", `${fmt(m.moves)} moves, ${fmt(m.pushes)} pushes`]] : [])]);
      status(solverLine, m.message + (m.stopped === "time" ? capNote(limit, tl) : ""),
        m.solved ? "good" : (m.stopped === "interrupted" ? "" : "error"));
      if (m.solved && m.lurd && key === levelKey()) await showSolution(m);
    },
  });
}

function stopSolver() {
  if (!S.ws) return;
  const ws = S.ws;
  if (ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ stop: true })); status(solverLine, "stopping…"); }
  else { ws.close(); S.ws = null; setSolving(false); }
}

// ---------------------------------------------------------------- shortening a solution
/** Ask the optimiser for a shorter solution than `full` (moves from the start that solve the
 *  level) over its socket, with a bar of the time limit used and Stop keeping the best so far;
 *  play the result back. `whose` names it in the status line. */
function shorten(full, whose) {
  if (S.ws || !S.answer) return;
  const tl = Math.max(1, +$("#time-limit").value || 10), key = levelKey();
  const Whose = `${whose[0].toUpperCase()}${whose.slice(1)}`;
  let limit = tl;  // the server's, which may cap what was asked
  runSocket("/api/sokoban/optimise", { level: levelRef(), lurd: full, time_limit: tl }, "optimiser", {
    started: (m) => {
      limit = m.time_limit ?? limit;
      if (limit < tl) $("#time-limit").value = String(limit);  // the box shows what runs (capNote says why)
      stats($("#solver-stats"), [["moves", fmt(m.before_moves)], ["pushes", fmt(m.before_pushes)]]);
      status(solverLine, m.queued ? `waiting for a free solver slot: place ${m.position} in line…`
        : `shortening ${whose} (${fmt(m.before_moves)} moves, ${fmt(m.before_pushes)} pushes) for up to ${limit} s${capNote(limit, tl)}…`);
    },
    progress: (m) => {
      status(solverLine, m.message);
      stats($("#solver-stats"), [["moves", `${fmt(m.before_moves)} → ${fmt(m.moves)}`], ["pushes", `${fmt(m.before_pushes)} → ${fmt(m.pushes)}`],
        ["windows shortened", fmt(m.improvements)], ["elapsed", `${m.elapsed.toFixed(1)} s`]]);
    },
    result: async (r) => {
      const shorter = r.moves < r.before_moves || r.pushes < r.before_pushes;
      stats($("#solver-stats"), [["before", `${fmt(r.before_moves)} moves, ${fmt(r.before_pushes)} pushes`],
        ["after", `${fmt(r.moves)} moves, ${fmt(r.pushes)} pushes`], ["time", `${r.time.toFixed(1)} s`],
        ["windows shortened", fmt(r.improvements)]]);
      // the status line comes last, so that once it says "shortened" the shorter solution is shown
      try {
        if (shorter && key === levelKey()) {
          closeSolution();
          await showSolution({ from: "", from_moves: 0, lurd: r.lurd, moves: r.moves, label: "The shortened solution" });
        }
      } finally {
        status(solverLine, `${Whose}: ${r.message}${r.stopped === "time" ? ` (more time may find more${capNote(limit, tl)})` : ""}`, shorter ? "good" : "");
      }
    },
  });
}

// ---------------------------------------------------------------- playing a solution back
const playerBox = $("#player-box");
const player = new Player(playerBox, (t) => drawFrame(t), { speed: 8, label: "move", onEnd: () => endOfSolution() });
view.refitOnResize(() => { if (S.solution) drawFrame(player.t); else if (S.answer) draw(S.answer.player, S.answer.boxes, S.answer.dead_boxes || []); });

async function showSolution(m) {
  const full = m.from + m.lurd;
  const a = await fetchState(full, { frames: true });
  const f = a.frames;
  S.solution = { base: m.from_moves, full: a.lurd, player: unpack(f.player), boxes: unpack(f.boxes), pushes: unpack(f.pushes), nb: a.boxes.length, moves: m.moves,
    label: m.label || "The solver's solution" };
  playerBox.classList.remove("hidden");
  $("#win").classList.add("hidden");
  if (statusLine.textContent.startsWith("Restarted")) status(statusLine, "");  // a new playback: the restart is old news
  const out = $("#lurd");
  out.textContent = `${m.from ? `your moves: ${m.from}\n` : ""}${(m.label || "the solver's solution").toLowerCase()}: ${m.lurd}`; out.classList.remove("hidden");
  player.load(m.moves);
}

function drawFrame(t) {
  const sol = S.solution;
  if (!sol || !S.answer) return;
  const k = sol.base + t, cols = S.answer.shape[1];
  const rc = (x) => [Math.floor(x / cols), x % cols];
  const boxes = Array.from(sol.boxes.subarray(k * sol.nb, (k + 1) * sol.nb), rc);
  draw(rc(sol.player[k]), boxes);
  showStats(k, sol.pushes[k], boxes);
}

function endOfSolution() {
  const sol = S.solution;
  if (!sol) return;
  const win = $("#win");
  win.replaceChildren(`${sol.label}: ${fmt(sol.base + sol.moves)} moves and ${fmt(sol.pushes[sol.base + sol.moves])} pushes in all, every box home.`);
  win.classList.remove("hidden");
}

/** Leave the playback at the position shown and play on from there (undoable). With `refresh`
 *  the board is fetched again; a move, undo or redo that takes over fetches it itself. */
function takeOver(refresh = false) {
  const sol = S.solution;
  if (!sol) return;
  const after = sol.full.slice(0, sol.base + player.t);
  player.pause();
  S.solution = null;
  playerBox.classList.add("hidden");
  if (after !== S.moves) {
    S.undo.push({ kind: "set", before: S.moves, after }); S.redo = [];
    S.moves = after;
  }
  if (refresh) enqueue(async () => { show(await fetchState(S.moves)); status(statusLine, "Your turn from here (undo goes back to where you were before the solution)."); });
}

function closeSolution() {
  if (!S.solution) return;
  player.pause();
  S.solution = null;
  playerBox.classList.add("hidden");
  if (S.answer) show(S.answer);
}

// ---------------------------------------------------------------- the URL
function saveUrl() {
  if (!S.source) return;
  let note = "";
  const vals = { c: null, t: null, i: S.index || null, m: S.moves || null };
  if (S.source.collection) vals.c = S.source.collection;
  else if (S.source.text.length <= MAX_URL_TEXT) vals.t = S.source.text;
  else note = `The pasted level is ${S.source.text.length} characters long: too long for a link, so "Copy link" will not reproduce it.`;
  if (S.moves.length > MAX_URL_MOVES) { vals.m = null; note = note || `${S.moves.length} moves are too many for a link: it holds the level only.`; }
  urlState.set(vals);
  S.urlNote = note;
  if (note) $("#progress").textContent = note;
}

// ---------------------------------------------------------------- wiring
collSel.addEventListener("change", () => {
  if (collSel.value) openLevel({ collection: collSel.value }, 0);
  else if (S.source.text == null) fillCollections();
});
levelSel.addEventListener("change", () => openLevel(S.source, +levelSel.value));
const step = (k) => { if (S.count) openLevel(S.source, (S.index + k + S.count) % S.count); };
$("#prev").addEventListener("click", () => step(-1));
$("#next").addEventListener("click", () => step(1));
$("#next-unsolved").addEventListener("click", () => {
  const i = nextUnsolved();
  if (i === null) status(statusLine, "Every level here is solved.", "good"); else openLevel(S.source, i);
});
$("#load-paste").addEventListener("click", async () => {
  const text = $("#paste").value;
  if (!text.trim()) { status(statusLine, "The box is empty: paste XSB rows or the assignment's map first.", "error"); return; }
  if (await openLevel({ text }, 0)) status(statusLine, `Loaded ${S.count} level${S.count === 1 ? "" : "s"} from the text.` + (S.answer.level.kind === "assignment" ? " The purple ✕ is the assignment's fake target: it does not count." : ""), "good");
});
$("#example-assignment").addEventListener("click", async () => {
  try {
    const res = await fetch("/api/sokoban/levels");
    const data = await res.json();
    const c = data.collections.find((x) => x.name === "assignment");
    if (c) $("#paste").value = c.text || "";
  } catch { /* the button is a convenience */ }
});
for (const b of document.querySelectorAll("[data-dir]")) b.addEventListener("click", () => move(b.dataset.dir));
$("#undo").addEventListener("click", undo);
$("#redo").addEventListener("click", redo);
$("#restart").addEventListener("click", restart);
$("#solve").addEventListener("click", solve);
$("#stop").addEventListener("click", stopSolver);
$("#take-over").addEventListener("click", () => takeOver(true));
$("#shorten").addEventListener("click", () => { if (S.solution) shorten(S.solution.full, S.solution.label.toLowerCase()); });

window.addEventListener("keydown", (ev) => {
  if (typing(ev) || ev.altKey) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (ev.ctrlKey || ev.metaKey) {
    if (key === "z" && !ev.shiftKey) { ev.preventDefault(); undo(); }
    else if (key === "y" || (key === "z" && ev.shiftKey)) { ev.preventDefault(); redo(); }
    return;
  }
  if ((key === "Enter" || key === " ") && ev.target && ev.target.tagName === "BUTTON") return;  // the button's own click
  const d = DIRS[key];
  if (d) { ev.preventDefault(); move(d); return; }
  const actions = { u: undo, y: redo, r: restart, n: () => step(1), p: () => step(-1), Enter: solve,
    " ": () => { if (S.solution) player.toggle(); } };
  if (actions[key]) { ev.preventDefault(); actions[key](); }
});

// swipes on the board
{
  const cv = $("#board");
  let start = null;
  cv.addEventListener("pointerdown", (ev) => { start = [ev.clientX, ev.clientY]; cv.focus(); });
  cv.addEventListener("pointerup", (ev) => {
    if (!start) return;
    const dx = ev.clientX - start[0], dy = ev.clientY - start[1];
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "r" : "l") : (dy > 0 ? "d" : "u"));
  });
  cv.addEventListener("pointercancel", () => { start = null; });
}

async function init() {
  try {
    const res = await fetch("/api/sokoban/levels");
    if (!res.ok) throw new Error(`the level list answered ${res.status}`);
    S.collections = (await res.json()).collections;
  } catch (e) {
    status(statusLine, `Could not load the level list: ${e.message}`, "error");
    return;
  }
  const c = urlState.get("c"), t = urlState.get("t"), m = urlState.get("m", "");
  const i = Math.max(0, Math.floor(+urlState.get("i", 0)) || 0);
  if (t) { $("#paste").value = t; $("#paste-box").open = true; }
  const known = S.collections.some((x) => x.name === c);
  const source = t ? { text: t } : { collection: known ? c : S.collections[0].name };
  if (c && !t && !known) {
    // an unknown collection: say so, and open the first level of the first one
    const names = S.collections.map((x) => x.name).join(", ");
    if (await openLevel(source, 0)) status(statusLine, `The link's collection "${c}" is not one of ${names}: showing ${names.split(",")[0]}'s first level instead.`, "error");
    return;
  }
  if (!(await openLevel(source, i, m))) {
    const msg = statusLine.textContent;
    if (await openLevel({ collection: S.collections[0].name }, 0)) status(statusLine, `The link's level could not be opened (${msg}): showing the first level instead.`, "error");
  }
}

init();
