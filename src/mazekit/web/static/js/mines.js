// Minesweeper room: the game lives on the server (/api/mines/*); this page draws its views,
// sends clicks and keys, animates openings in flood order, shows hints and probabilities.
import { $, api, COLORS, css, el, header, legend, stats, status, typing, unpack, urlState } from "./common.js";
import { GridView, fitIn, rgba } from "./gridview.js";
import { Player, fmt } from "./player.js";

// View codes sent by the server (docs/playground/mines.md).
const CLOSED = 9, FLAG = 10, MINE = 11, EXPLODED = 12, WRONG_FLAG = 13;
const LEVELS = { beginner: [9, 9, 10], intermediate: [16, 16, 40], expert: [16, 30, 99] };
const NUMBER_COLORS = ["", "#1f4fd1", "#1b7f3b", "#d63031", "#142a7a", "#7a1c1c", "#10808a", "#1e222e", "#6b6f7a"];
const C_CLOSED = [176, 184, 199], C_OPEN = COLORS.free, C_REVEALED = [226, 228, 234], C_HIT = COLORS.goal;
const P_SAFE = [40, 170, 80], P_MINE = [214, 48, 49];
const P_RAMP = [[205, 228, 130], [245, 170, 55], [214, 48, 49]];   // just above 0% → 50% → 100%

/** The colour of a mine probability: proved safe green, proved mine red, a ramp between. */
function pColor(p) {
  if (p <= 0) return P_SAFE;
  if (p >= 1) return P_MINE;
  const t = p * 2, i = Math.min(1, Math.floor(t)), f = t - i, a = P_RAMP[i], b = P_RAMP[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}
const P_PIX = Array.from({ length: 101 }, (_, i) => rgba(pColor(i === 0 || i === 100 ? i / 100 : Math.min(0.995, Math.max(0.005, i / 100)))));

header("mines");
const S = {
  view: null, board: null, rows: 9, cols: 9, receivedAt: 0, cursor: [4, 4], showCursor: false,
  anim: null, hint: null, prob: null, showProbs: false, queue: Promise.resolve(), seedDirty: false, busy: false,
};
const statusLine = $("#status"), canvas = $("#board");
// On a phone a cell stays big enough to tap (20 px): the expert board is then wider than the
// screen and scrolls sideways in its view; elsewhere the whole board fits.
const PHONE = window.matchMedia("(max-width: 820px)");
const boardScroll = $("#board-scroll"), boardNote = $("#board-note");
const view = new GridView(canvas, { maxWidth: 900, maxHeight: 600, maxCell: 40, minCell: () => (PHONE.matches ? 20 : 6), fit: fitIn(canvas.closest(".stage"), { side: 330, below: 110 }) });
view.refitOnResize(() => draw());
// the line under the board shows while the board is wider than its view (its size or the view's changed)
const overflow = new ResizeObserver(() => boardNote.classList.toggle("hidden", boardScroll.scrollWidth <= boardScroll.clientWidth + 1));
overflow.observe(boardScroll); overflow.observe(canvas);

// ---- legends ----
$("#legend").append(legend([
  [C_CLOSED, "closed"], [C_OPEN, "open (number = mines around)"], [COLORS.goal, "flag / the mine hit"],
  [C_REVEALED, "mine shown at the end"], [COLORS.route, "hint"], ["#2f6fdd", "why (the hint rests on these)"],
]));
const probLegend = legend([
  [`linear-gradient(90deg, ${css(P_RAMP[0])}, ${css(P_RAMP[1])}, ${css(P_RAMP[2])})`, "mine probability: low → 50% → high"],
  [P_SAFE, "proved safe (0%)"], [P_MINE, "proved mine (100%)"],
]);
probLegend.querySelector("i").classList.add("ramp");
$("#prob-legend").append(probLegend);

// ---- drawing ----
function draw() {
  if (!S.board) return;
  const { rows, cols } = S, n = rows * cols, px = view.pixels, board = S.board;
  const hidden = animHidden(), won = S.view.state === "won";
  const probs = S.showProbs && S.prob && S.view.state !== "won" && S.view.state !== "lost" ? S.prob : null;
  for (let i = 0; i < n; i++) {
    let v = board[i];
    if (hidden && hidden[i]) v = CLOSED;
    if (v === MINE && won) v = FLAG;   // a won game shows its mines flagged
    if (v <= 8) px[i] = rgba(C_OPEN);
    else if (v === EXPLODED) px[i] = rgba(C_HIT);
    else if (v === MINE) px[i] = rgba(C_REVEALED);
    else if (v === CLOSED && probs && !Number.isNaN(probs[i])) px[i] = probs[i] <= 0 ? P_PIX[0] : probs[i] >= 1 ? P_PIX[100] : P_PIX[Math.min(99, Math.max(1, Math.round(probs[i] * 100)))];
    else px[i] = rgba(C_CLOSED);
  }
  view.overlay = (ctx, vw) => overlay(ctx, vw, hidden, probs);
  view.flush();
}

function animHidden() {
  const a = S.anim;
  if (!a) return null;
  const wave = (performance.now() - a.t0) / a.perWave;
  if (wave > a.maxWave) { S.anim = null; return null; }
  const hidden = new Uint8Array(S.rows * S.cols);
  a.cells.forEach(([r, c], k) => { if (a.wave[k] > wave) hidden[r * S.cols + c] = 1; });
  return hidden;
}

function overlay(ctx, vw, hidden, probs) {
  const { rows, cols } = S, cell = vw.cell, board = S.board;
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const i = r * cols + c;
    let v = board[i];
    if (hidden && hidden[i]) v = CLOSED;
    if (v === MINE && S.view.state === "won") v = FLAG;
    const x = c * cell, y = r * cell;
    if (v >= 1 && v <= 8) vw.text(r, c, String(v), NUMBER_COLORS[v], 0.62);
    else if (v === CLOSED || v === FLAG || v === WRONG_FLAG) {
      if (cell >= 12) bevel(ctx, x, y, cell);
      if (v === FLAG || v === WRONG_FLAG) flag(ctx, x, y, cell, v === WRONG_FLAG);
      else if (probs && cell >= 26 && !Number.isNaN(probs[i])) {
        const p = probs[i] * 100;
        vw.text(r, c, p === 0 || p === 100 || p >= 9.95 ? String(Math.round(p)) : p.toFixed(1), "rgba(20,22,30,.85)", 0.34);
      }
    } else if (v === MINE || v === EXPLODED) mine(ctx, x, y, cell);
  }
  if (S.hint && S.hint.cell) {
    for (const [r, c] of S.hint.because || []) box(ctx, r, c, cell, "#2f6fdd", 2, [4, 3]);
    box(ctx, S.hint.cell[0], S.hint.cell[1], cell, css(COLORS.route), 3);
  }
  if (S.showCursor) box(ctx, S.cursor[0], S.cursor[1], cell, "#1e222e", 2);
}

function bevel(ctx, x, y, s) {
  ctx.fillStyle = "rgba(255,255,255,.55)"; ctx.fillRect(x + 1, y + 1, s - 2, 2); ctx.fillRect(x + 1, y + 1, 2, s - 2);
  ctx.fillStyle = "rgba(30,34,46,.25)"; ctx.fillRect(x + 1, y + s - 3, s - 2, 2); ctx.fillRect(x + s - 3, y + 1, 2, s - 2);
}

function flag(ctx, x, y, s, wrong) {
  ctx.save();
  ctx.strokeStyle = "#1e222e"; ctx.lineWidth = Math.max(1, s * 0.07);
  ctx.beginPath(); ctx.moveTo(x + s * 0.38, y + s * 0.2); ctx.lineTo(x + s * 0.38, y + s * 0.8); ctx.stroke();
  ctx.fillStyle = css(COLORS.goal);
  ctx.beginPath(); ctx.moveTo(x + s * 0.38, y + s * 0.2); ctx.lineTo(x + s * 0.76, y + s * 0.36); ctx.lineTo(x + s * 0.38, y + s * 0.52); ctx.fill();
  ctx.fillStyle = "#1e222e"; ctx.fillRect(x + s * 0.26, y + s * 0.76, s * 0.36, Math.max(1, s * 0.08));
  if (wrong) {
    ctx.strokeStyle = "#1e222e"; ctx.lineWidth = Math.max(1.5, s * 0.09);
    ctx.beginPath(); ctx.moveTo(x + s * 0.2, y + s * 0.2); ctx.lineTo(x + s * 0.8, y + s * 0.8);
    ctx.moveTo(x + s * 0.8, y + s * 0.2); ctx.lineTo(x + s * 0.2, y + s * 0.8); ctx.stroke();
  }
  ctx.restore();
}

function mine(ctx, x, y, s) {
  const cx = x + s / 2, cy = y + s / 2, rad = s * 0.24;
  ctx.save();
  ctx.strokeStyle = "#1e222e"; ctx.fillStyle = "#1e222e"; ctx.lineWidth = Math.max(1, s * 0.07);
  ctx.beginPath();
  for (let k = 0; k < 4; k++) {
    const a = (k * Math.PI) / 4;
    ctx.moveTo(cx - Math.cos(a) * rad * 1.5, cy - Math.sin(a) * rad * 1.5); ctx.lineTo(cx + Math.cos(a) * rad * 1.5, cy + Math.sin(a) * rad * 1.5);
  }
  ctx.stroke();
  ctx.beginPath(); ctx.arc(cx, cy, rad, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = "#fff"; ctx.beginPath(); ctx.arc(cx - rad * 0.35, cy - rad * 0.35, rad * 0.25, 0, Math.PI * 2); ctx.fill();
  ctx.restore();
}

function box(ctx, r, c, s, color, width, dash = []) {
  ctx.save();
  ctx.strokeStyle = color; ctx.lineWidth = width; ctx.setLineDash(dash);
  ctx.strokeRect(c * s + width / 2, r * s + width / 2, s - width, s - width);
  ctx.restore();
}

function animate() {
  draw();
  if (S.anim) requestAnimationFrame(animate);
}

// ---- stats and counters ----
const pad3 = (n) => (n < 0 ? "-" + String(-n).padStart(2, "0") : String(Math.min(999, n)).padStart(3, "0"));

function elapsed() {
  const v = S.view;
  if (!v) return 0;
  return v.state === "playing" ? v.elapsed + (performance.now() - S.receivedAt) / 1000 : v.elapsed;
}

function showStats() {
  const v = S.view;
  if (!v) return;
  const t = elapsed();
  $("#mines-left").textContent = pad3(v.mines_left);
  $("#timer").textContent = pad3(Math.floor(t));
  const face = $("#face");
  face.textContent = { ready: "ready: click any cell", playing: "playing", won: "won!", lost: "boom: lost" }[v.state];
  face.className = `face ${v.state}`;
  stats($("#stats"), [
    ["mines left", v.mines_left],
    ["time", `${t.toFixed(1)} s`],
    ["clicks", v.clicks],
    ["3BV (done / board)", v.three_bv != null ? `${v.three_bv_done} / ${v.three_bv}` : "— (laid out at the first click)"],
    ["3BV/s", v.three_bv_per_s != null ? v.three_bv_per_s.toFixed(2) : "—"],
    ["efficiency (3BV done / clicks)", v.efficiency != null && v.clicks > 0 ? `${Math.round(100 * v.efficiency)}%` : "—"],
    ["seed", v.seed],
  ]);
}
setInterval(() => { if (S.view && S.view.state === "playing") showStats(); }, 250);

function title(v) {
  const size = `${v.rows}×${v.cols}, ${v.mines} mines`;
  const name = v.level === "custom" ? "Custom" : v.level[0].toUpperCase() + v.level.slice(1);
  return `${name} (${size})${v.no_guess ? ", no-guess" : ""}, first click ${v.first_click}`;
}

// ---- talking to the server ----
function take(v, { flood = true } = {}) {
  const resized = !S.view || v.rows !== S.rows || v.cols !== S.cols;
  S.view = v; S.rows = v.rows; S.cols = v.cols; S.board = unpack(v.board); S.receivedAt = performance.now();
  if (resized) { view.resize(v.rows, v.cols); S.cursor = [Math.floor(v.rows / 2), Math.floor(v.cols / 2)]; }
  $("#title").textContent = title(v);
  canvas.dataset.game = v.id; canvas.dataset.state = v.state; canvas.dataset.rows = v.rows; canvas.dataset.cols = v.cols; canvas.dataset.moves = v.moves.length;
  S.hint = null; $("#hint-text").textContent = "";
  if (flood && v.opened && v.opened.length > 1) {
    const maxWave = v.wave[v.wave.length - 1] ?? 0;
    const perWave = Math.max(8, Math.min(45, 700 / Math.max(1, maxWave)));
    S.anim = { cells: v.opened, wave: v.wave, maxWave: Math.max(...v.wave), t0: performance.now(), perWave };
    requestAnimationFrame(animate);
  } else S.anim = null;
  saveUrl();
  showStats();
  draw();
  if (v.state === "won") status(statusLine, `You ${v.result}.`, "good");
  else if (v.state === "lost") status(statusLine, `Boom: ${v.result}. Press N for a new game.`, "error");
  else if (v.state === "playing" && !statusLine.classList.contains("error")) status(statusLine, "");
  if (S.showProbs) refreshProbs();
}

async function refreshProbs() {
  const v = S.view;
  if (!v || v.state === "won" || v.state === "lost") { S.prob = null; draw(); return; }
  try {
    const a = await api("/api/mines/probabilities", { id: v.id });
    if (S.view && S.view.id === a.id && S.showProbs) {
      S.prob = unpack(a.p); draw();
      $("#hint-text").textContent ||= `The solver proves ${a.safe} closed cell${a.safe === 1 ? "" : "s"} safe and ${a.mines} a mine (flags are not counted as knowledge).`;
    }
  } catch (e) { fail(e); }
}

function fail(e) {
  if (e.message && e.message.includes("no longer on the server")) {
    status(statusLine, `${e.message} (press N).`, "error");
  } else status(statusLine, e.message, "error");
}

function setBusy(on) { S.busy = on; canvas.classList.toggle("busy", on); canvas.setAttribute("aria-busy", String(on)); }

function settings() {
  const level = $("#level").value;
  const body = { level, first_click: $("#first-click").value, no_guess: $("#no-guess").checked };
  if (level === "custom") { body.rows = +$("#rows").value; body.cols = +$("#cols").value; body.mines = +$("#mines").value; }
  return body;
}

async function newGame({ seed = null, moves = [], note = "" } = {}) {
  const body = settings();
  const typed = $("#seed").value.trim();
  if (seed !== null) body.seed = seed;
  else if (S.seedDirty && typed !== "") body.seed = /^\d+$/.test(typed) ? +typed : typed;
  if (moves.length) body.moves = moves;
  const slow = body.no_guess && moves.length;
  status(statusLine, slow ? "generating a no-guess board…" : moves.length ? "replaying the moves of the link…" : "");
  if (slow) setBusy(true);
  try {
    const v = await api("/api/mines/new", body);
    $("#seed").value = String(v.seed); S.seedDirty = false;
    S.prob = null;
    take(v, { flood: false });
    if (v.state === "ready") status(statusLine, note + (v.no_guess ? "Click any cell: the no-guess board is laid out around your first click." : "Click any cell to start."));
    else if (v.state === "playing") status(statusLine, `${note}Replayed ${v.moves.length} move${v.moves.length === 1 ? "" : "s"} from the link.`);
    else if (note) status(statusLine, note);
    if (note) statusLine.classList.add("error");
    saveUrl();
  } catch (e) {
    setBusy(false);
    // a link that cannot be replayed still gives a board to play, and says why
    if (moves.length) return newGame({ seed, note: `${note}The link's moves could not be replayed (${e.message}): the board without them. ` });
    if (e.status === 400 && $("#level").value === "custom") {
      $("#level").value = "beginner"; syncCustom();
      return newGame({ seed, note: `${note}The link's board could not be made (${e.message}): a beginner board instead. ` });
    }
    fail(e);
  }
  finally { setBusy(false); }
}

function act(action, r, c) {
  S.queue = S.queue.then(async () => {
    const v = S.view;
    if (!v || v.state === "won" || v.state === "lost") return;
    const generating = v.state === "ready" && action === "open" && v.no_guess;
    if (generating) { status(statusLine, "generating a no-guess board…"); setBusy(true); }
    try {
      const a = await api("/api/mines/act", { id: v.id, action, cell: [r, c] });
      if (generating || statusLine.classList.contains("error")) status(statusLine, "");
      take(a);
    } catch (e) { fail(e); }
    finally { if (generating) setBusy(false); }
  });
  return S.queue;
}

/** Scroll the board's view (on a phone, where the board is wider than the screen) so that cell
 *  (r, c) is in sight. */
function showCell(r, c) {
  const x = c * view.cell, w = boardScroll.clientWidth;
  if (x < boardScroll.scrollLeft || x + view.cell > boardScroll.scrollLeft + w) boardScroll.scrollLeft = Math.max(0, x - (w - view.cell) / 2);
}

async function hint() {
  const v = S.view;
  if (!v) return;
  try {
    const h = await api("/api/mines/hint", { id: v.id });
    S.hint = h;
    if (h.cell) { S.cursor = [...h.cell]; showCell(...h.cell); }
    const what = h.cell ? (h.kind === "flag" ? "Flag" : "Open") + ` row ${h.cell[0] + 1}, column ${h.cell[1] + 1}` + (h.proved ? "" : ` (a guess, ${(100 * h.p_mine).toFixed(1)}% mine)`) + ". " : "";
    $("#hint-text").textContent = what + h.reason;
    // the panel has the reason (and speaks it); under the board, only the move
    status(statusLine, h.cell ? `Hint: ${what.trim()}` : "");
    draw();
  } catch (e) { fail(e); }
}

// ---- input ----
function primary(r, c) {
  const v = S.board[r * S.cols + c];
  return act(v >= 1 && v <= 8 ? "chord" : "open", r, c);
}

let press = null;
view.pointer = {
  down(r, c, ev) {
    S.showCursor = false; S.cursor = [r, c];
    if (ev.pointerType === "touch") {
      press = { r, c, fired: false, timer: setTimeout(() => { press.fired = true; act("flag", r, c); navigator.vibrate?.(30); }, 450) };
      return;
    }
    if (ev.button === 2) act("flag", r, c);
    else if (ev.button === 1) act("chord", r, c);
    else if (ev.button === 0) primary(r, c);
  },
  move() { if (press) { clearTimeout(press.timer); press = null; } },
  up(ev) {
    if (!press) return;
    clearTimeout(press.timer);
    // a touch the browser took over (the board scrolled sideways) opens nothing
    if (!press.fired && ev.type !== "pointercancel") primary(press.r, press.c);
    press = null;
  },
};
canvas.addEventListener("auxclick", (ev) => ev.preventDefault());

window.addEventListener("keydown", (ev) => {
  if (typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey || !S.view) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const [r, c] = S.cursor;
  if (moves[ev.key]) {
    ev.preventDefault();
    const [dr, dc] = moves[ev.key];
    S.cursor = [Math.min(S.rows - 1, Math.max(0, r + dr)), Math.min(S.cols - 1, Math.max(0, c + dc))];
    S.showCursor = true; showCell(...S.cursor); draw(); return;
  }
  const key = ev.key.toLowerCase();
  const fn = {
    " ": () => primary(r, c), enter: () => primary(r, c), f: () => act("flag", r, c), c: () => act("chord", r, c),
    h: () => hint(), n: () => newGame(), p: () => toggleProbs(),
  }[key];
  if (!fn) return;
  if (ev.target.tagName === "BUTTON" && (key === " " || key === "enter")) return;  // let buttons be pressed
  ev.preventDefault();
  if (key === " " || key === "enter" || key === "f" || key === "c") S.showCursor = true;
  fn();
});

function toggleProbs() {
  S.showProbs = !S.showProbs;
  $("#probs").setAttribute("aria-pressed", String(S.showProbs));
  $("#prob-legend").classList.toggle("hidden", !S.showProbs);
  if (S.showProbs) refreshProbs(); else { S.prob = null; draw(); }
  saveUrl();
}

// ---- the URL: level/size, seed, no-guess, first click, probabilities and the moves ----
const encodeMoves = (moves) => moves.map(([a, r, c]) => `${a[0]}${r}.${c}`).join("_");
function decodeMoves(text) {
  const names = { o: "open", f: "flag", c: "chord" }, out = [];
  for (const part of (text || "").split("_")) {
    const m = /^([ofc])(\d+)\.(\d+)$/.exec(part);
    if (m) out.push([names[m[1]], +m[2], +m[3]]);
  }
  return out;
}

function saveUrl() {
  const v = S.view;
  if (!v) return;
  urlState.set({
    level: v.level, rows: v.level === "custom" ? v.rows : null, cols: v.level === "custom" ? v.cols : null,
    mines: v.level === "custom" ? v.mines : null, seed: v.seed, ng: v.no_guess ? 1 : null,
    fc: v.first_click === "zero" ? "zero" : null, p: S.showProbs ? 1 : null, m: v.moves.length ? encodeMoves(v.moves) : null,
  });
}

function loadUrl() {
  const level = urlState.get("level", "beginner"), notes = [];
  $("#level").value = level in LEVELS || level === "custom" ? level : "beginner";
  if ($("#level").value !== level) notes.push(`level=${level} is not beginner, intermediate, expert or custom`);
  if (level === "custom") {
    for (const k of ["rows", "cols", "mines"]) if (urlState.get(k)) $(`#${k}`).value = urlState.get(k);
  }
  $("#no-guess").checked = urlState.get("ng") === "1";
  $("#first-click").value = urlState.get("fc") === "zero" ? "zero" : "safe";
  syncCustom();
  if (urlState.get("p") === "1") toggleProbs();
  const seed = urlState.get("seed"), m = urlState.get("m");
  const good = seed !== null && /^\d+$/.test(seed) && +seed < 2 ** 32;
  if (seed !== null && !good) notes.push(`seed=${seed} is not a whole number below 2^32 (a random board instead)`);
  const moves = good || seed === null ? decodeMoves(m) : [];
  if (m && !moves.length && seed !== null && !good) notes.push("moves belong to that seed's board: left out");
  else if (m && moves.length !== m.split("_").length) notes.push(`moves ${m.split("_").filter((x) => !/^[ofc]\d+\.\d+$/.test(x)).join(", ")} are not like o3.4 (open), f3.4 (flag) or c3.4 (chord)`);
  newGame({ seed: good ? +seed : null, moves, note: notes.length ? `The link's ${notes.join("; ")}. ` : "" });
}

function syncCustom() {
  const custom = $("#level").value === "custom";
  $("#custom").classList.toggle("hidden", !custom);
  if (!custom) { const [r, c, m] = LEVELS[$("#level").value]; $("#rows").value = r; $("#cols").value = c; $("#mines").value = m; }
}

// ---- wiring ----
$("#new").addEventListener("click", () => newGame());
$("#hint").addEventListener("click", () => hint());
$("#probs").addEventListener("click", () => toggleProbs());
$("#level").addEventListener("change", () => { syncCustom(); newGame(); });
$("#first-click").addEventListener("change", () => newGame());
$("#no-guess").addEventListener("change", () => newGame());
$("#seed").addEventListener("input", () => { S.seedDirty = true; });
$("#seed").addEventListener("keydown", (ev) => { if (ev.key === "Enter") newGame(); });
for (const id of ["#rows", "#cols", "#mines"]) $(id).addEventListener("keydown", (ev) => { if (ev.key === "Enter") newGame(); });

// ---- the article's flood fill ----
const A = { data: null, board: null };
const aView = new GridView($("#article-canvas"), { maxWidth: 270, maxHeight: 220, maxCell: 30 });
const aPlayer = new Player($("#article-player"), (t) => drawArticle(t), { speed: 12, label: "cell" });

function drawArticle(t) {
  const a = A.data;
  if (!a) return;
  const n = a.rows * a.cols, shown = new Uint8Array(n), px = aView.pixels;
  for (let k = 0; k < Math.min(t, a.opened.length); k++) shown[a.opened[k][0] * a.cols + a.opened[k][1]] = 1;
  for (let i = 0; i < n; i++) px[i] = rgba(shown[i] ? (A.mines[i] ? C_HIT : C_OPEN) : C_CLOSED);
  aView.overlay = (ctx, vw) => {
    for (let i = 0; i < n; i++) {
      const r = (i / a.cols) | 0, c = i % a.cols;
      if (shown[i] && A.mines[i]) mine(ctx, c * vw.cell, r * vw.cell, vw.cell);
      else if (shown[i] && A.density[i] > 0) vw.text(r, c, String(A.density[i]), NUMBER_COLORS[A.density[i]], 0.62);
      else if (!shown[i] && vw.cell >= 12) bevel(ctx, c * vw.cell, r * vw.cell, vw.cell);
    }
    box(ctx, a.click[0], a.click[1], vw.cell, css(COLORS.route), 2);
  };
  aView.flush();
}

async function runArticle(text = "", { quiet = false } = {}) {
  try {
    const a = await api("/api/mines/article", { example: $("#example").value, text });
    A.data = a; A.mines = unpack(a.mines); A.density = unpack(a.density);
    if (!text) $("#article-text").value = a.input;
    aView.resize(a.rows, a.cols);
    const out = $("#article-out");
    out.textContent = a.output; out.classList.remove("hidden");
    aPlayer.load(a.opened.length);
    if (!quiet) status(statusLine, a.boom ? "The article: the click is on a mine, so the answer is BOOM."
      : `The article: the click opens ${fmt(a.opened.length)} cells, breadth-first from the click, spreading only from zeros; the text is mazekit mines open's output.`, "good");
  } catch (e) { fail(e); }
}
$("#article-run").addEventListener("click", () => runArticle());
$("#example").addEventListener("change", () => runArticle());
$("#article-run-text").addEventListener("click", () => runArticle($("#article-text").value));

loadUrl();
runArticle("", { quiet: true });
