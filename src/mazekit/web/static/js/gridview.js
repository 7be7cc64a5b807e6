// A grid on a <canvas>: one pixel per cell in an offscreen image, scaled up without smoothing,
// then vector overlays (routes, markers, robots) in cell coordinates. Pointer input as cells.

/** A colour as the 32-bit word an ImageData's Uint32Array view expects (little-endian RGBA). */
export function rgba(rgb, alpha = 255) {
  return ((alpha << 24) | ((rgb[2] & 255) << 16) | ((rgb[1] & 255) << 8) | (rgb[0] & 255)) >>> 0;
}

/** A `fit` for GridView: the width of `box` (less `side` px kept for a panel beside the board on
 *  wide screens) and the height left in the window below the top of `box` (less `below` px). */
export function fitIn(box, { side = 0, below = 40 } = {}) {
  return () => {
    const wide = window.innerWidth > 820;
    const top = box.getBoundingClientRect().top + window.scrollY;
    return { width: box.clientWidth - 24 - (wide ? side : 0), height: window.innerHeight - top - below };
  };
}

export class GridView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{maxWidth?: number, maxHeight?: number, minCell?: number | (() => number), maxCell?: number,
   *          fit?: () => {width: number, height: number}}} opts  fit: the space the room has for the board now;
   *          minCell: a number, or the least cell size for the screen now (a board wider than its box then
   *          scrolls in it)
   */
  constructor(canvas, opts = {}) {
    this.canvas = canvas;
    this.opts = { maxWidth: 760, maxHeight: 620, minCell: 1, maxCell: 40, ...opts };
    this.ctx = canvas.getContext("2d");
    this.off = document.createElement("canvas");
    this.offCtx = this.off.getContext("2d");
    this.rows = 0; this.cols = 0; this.cell = 1;
    this.overlay = null;          // (ctx, view) => void, drawn after the cells
    this.pointer = null;          // {down(r, c, ev), move(r, c, ev), up(ev)}
    this._last = null;
    this._bindPointer();
  }

  /** The cell size that fits a `rows` x `cols` grid in the box (and the room's space, with `fit`). */
  cellFor(rows, cols) {
    let { maxWidth, maxHeight, minCell, maxCell } = this.opts;
    if (typeof minCell === "function") minCell = minCell();
    if (this.opts.fit) {  // the room's room for the board now (the window's size, the panels beside)
      const room = this.opts.fit();
      maxWidth = Math.min(maxWidth, Math.max(120, room.width));
      maxHeight = Math.min(maxHeight, Math.max(120, room.height));
    }
    return Math.max(minCell, Math.min(maxCell, Math.floor(Math.min(maxWidth / cols, maxHeight / rows))));
  }

  /** Set the grid size; picks the cell size that fits the box (or `cell` when given). */
  resize(rows, cols, cell = null) {
    this.rows = rows; this.cols = cols;
    this.cell = cell || this.cellFor(rows, cols);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(cols * this.cell * dpr);
    this.canvas.height = Math.round(rows * this.cell * dpr);
    this.canvas.style.width = `${cols * this.cell}px`;
    this.canvas.style.height = `${rows * this.cell}px`;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.off.width = cols; this.off.height = rows;
    this.image = this.offCtx.createImageData(cols, rows);
    this.pixels = new Uint32Array(this.image.data.buffer);
  }

  /** Fit the board to the room's space again when the window's size changes (a phone turned, a
   *  window dragged), then `redraw()`: only for a view with a `fit`, only when the cell size changes. */
  refitOnResize(redraw) {
    let pending = null;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(() => {
        if (!this.rows || !this.opts.fit || this.cellFor(this.rows, this.cols) === this.cell) return;
        this.resize(this.rows, this.cols);
        redraw();
      }, 120);
    });
  }

  /** Draw the cell colours in `this.pixels`, grid lines when cells are big, then the overlay. */
  flush() {
    const { ctx, cell, rows, cols } = this;
    this.offCtx.putImageData(this.image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, cols * cell, rows * cell);
    ctx.drawImage(this.off, 0, 0, cols * cell, rows * cell);
    if (cell >= 10) {
      ctx.strokeStyle = "rgba(30, 34, 46, 0.12)";
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let r = 1; r < rows; r++) { ctx.moveTo(0, r * cell + 0.5); ctx.lineTo(cols * cell, r * cell + 0.5); }
      for (let c = 1; c < cols; c++) { ctx.moveTo(c * cell + 0.5, 0); ctx.lineTo(c * cell + 0.5, rows * cell); }
      ctx.stroke();
    }
    if (this.overlay) this.overlay(ctx, this);
  }

  /** The centre of a cell, in canvas (CSS) pixels. */
  center(r, c) { return [(c + 0.5) * this.cell, (r + 0.5) * this.cell]; }

  /** A polyline through cells [[r, c], ...]. */
  path(points, color, width = null) {
    if (!points || points.length === 0) return;
    const ctx = this.ctx;
    ctx.save();
    ctx.strokeStyle = color; ctx.lineJoin = "round"; ctx.lineCap = "round";
    ctx.lineWidth = width || Math.max(1.5, this.cell * 0.35);
    ctx.beginPath();
    points.forEach(([r, c], i) => { const [x, y] = this.center(r, c); i ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    if (points.length === 1) { const [x, y] = this.center(points[0][0], points[0][1]); ctx.lineTo(x + 0.01, y); }
    ctx.stroke();
    ctx.restore();
  }

  /** A round marker with an optional letter (start, goal, exit, robot). */
  marker(r, c, color, label = "", scale = 0.42) {
    const ctx = this.ctx, [x, y] = this.center(r, c), rad = Math.max(2.5, this.cell * scale);
    ctx.save();
    ctx.fillStyle = color; ctx.strokeStyle = "#fff"; ctx.lineWidth = Math.max(1, this.cell * 0.08);
    ctx.beginPath(); ctx.arc(x, y, rad, 0, Math.PI * 2); ctx.fill(); if (this.cell >= 6) ctx.stroke();
    if (label && this.cell >= 12) {
      ctx.fillStyle = "#fff"; ctx.font = `bold ${Math.round(this.cell * 0.5)}px system-ui, sans-serif`;
      ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText(label, x, y + 0.5);
    }
    ctx.restore();
  }

  /** Text centred in a cell (numbers on Minesweeper cells, weights). */
  text(r, c, s, color = "#1e222e", size = 0.6) {
    if (this.cell < 8) return;
    const ctx = this.ctx, [x, y] = this.center(r, c);
    ctx.fillStyle = color; ctx.font = `bold ${Math.round(this.cell * size)}px system-ui, sans-serif`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText(s, x, y + 0.5);
  }

  /** The cell under a pointer event, or null outside the grid. */
  cellAt(ev) {
    const box = this.canvas.getBoundingClientRect();
    const c = Math.floor((ev.clientX - box.left) / (box.width / this.cols));
    const r = Math.floor((ev.clientY - box.top) / (box.height / this.rows));
    return r >= 0 && r < this.rows && c >= 0 && c < this.cols ? [r, c] : null;
  }

  _bindPointer() {
    const cv = this.canvas;
    cv.addEventListener("contextmenu", (ev) => { if (this.pointer) ev.preventDefault(); });
    cv.addEventListener("pointerdown", (ev) => {
      if (!this.pointer) return;
      const cell = this.cellAt(ev);
      if (!cell) return;
      ev.preventDefault();
      cv.setPointerCapture(ev.pointerId);
      this._last = cell;
      this.pointer.down?.(cell[0], cell[1], ev);
    });
    cv.addEventListener("pointermove", (ev) => {
      if (!this.pointer || !this._last) return;
      const cell = this.cellAt(ev);
      if (!cell || (cell[0] === this._last[0] && cell[1] === this._last[1])) return;
      // every cell on the way, so a quick drag leaves no gaps
      for (const [r, c] of line(this._last, cell)) this.pointer.move?.(r, c, ev);
      this._last = cell;
    });
    const end = (ev) => { if (this._last) { this._last = null; this.pointer?.up?.(ev); } };
    cv.addEventListener("pointerup", end);
    cv.addEventListener("pointercancel", end);
  }
}

/** The cells from a (exclusive) to b (inclusive) on a straight line (Bresenham). */
export function line([r0, c0], [r1, c1]) {
  const out = [], dr = Math.abs(r1 - r0), dc = Math.abs(c1 - c0), sr = r0 < r1 ? 1 : -1, sc = c0 < c1 ? 1 : -1;
  let err = dc - dr, r = r0, c = c0;
  while (r !== r1 || c !== c1) {
    const e2 = 2 * err;
    if (e2 > -dr) { err -= dr; c += sc; }
    if (e2 < dc) { err += dc; r += sr; }
    out.push([r, c]);
  }
  return out;
}
