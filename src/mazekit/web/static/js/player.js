// Play a trace step by step: play / pause, one step, speed, instant, and a position slider.
// The room gives the number of steps and a draw(t) that shows the state after t steps.
import { el, typing } from "./common.js";

export class Player {
  /**
   * @param {HTMLElement} mount  where the controls go
   * @param {(t: number) => void} draw
   * @param {{speed?: number, label?: string, onEnd?: () => void}} opts  speed in steps per second
   */
  constructor(mount, draw, opts = {}) {
    this.draw = draw; this.total = 0; this.t = 0; this.playing = false; this.onEnd = opts.onEnd || null;
    this.label = opts.label || "step";
    this._carry = 0; this._prev = 0;
    const b = (text, title, fn, attrs = {}) => el("button", { type: "button", title, onclick: fn, ...attrs }, [text]);
    this.playBtn = b("▶ Play", "Play or pause (Space)", () => this.toggle(), { "aria-pressed": "false", "data-role": "play" });
    this.stepBtn = b("Step", "One step (→)", () => this.step(1), { "data-role": "step" });
    this.backBtn = b("Back", "One step back (←)", () => this.step(-1), { "data-role": "back" });
    this.endBtn = b("Instant", "Jump to the end (End)", () => this.seek(this.total), { "data-role": "instant" });
    this.speed = el("input", { type: "range", min: "0", max: "100", value: String(speedToSlider(opts.speed || 200)),
      title: "Speed", "aria-label": "speed", "data-role": "speed" });
    this.speedOut = el("span", { class: "pos" });
    this.pos = el("input", { type: "range", min: "0", max: "0", value: "0", "aria-label": "position", "data-role": "position" });
    this.posOut = el("span", { class: "pos", "data-role": "position-text" });
    this.speed.addEventListener("input", () => this._showSpeed());
    this.pos.addEventListener("input", () => { this.pause(); this.seek(+this.pos.value); });
    this.box = el("div", { class: "player" }, [this.playBtn, this.backBtn, this.stepBtn, this.endBtn,
      el("label", { class: "hint" }, ["speed ", this.speed]), this.speedOut, this.pos, this.posOut]);
    mount.append(this.box);
    this._showSpeed();
    this._tick = this._tick.bind(this);
  }

  /** Steps per second, from the slider (1 to 100,000 on a log scale). */
  get rate() { return sliderToSpeed(+this.speed.value); }

  _showSpeed() { this.speedOut.textContent = `${fmt(this.rate)}/s`; }

  /** A new trace of `total` steps; shows step 0 (or the end when `instant`). */
  load(total, { autoplay = true, instant = false } = {}) {
    this.pause();
    this.total = total; this.pos.max = String(total);
    this.seek(instant ? total : 0);
    if (autoplay && !instant && total > 0) this.play();
  }

  seek(t) {
    this.t = Math.max(0, Math.min(this.total, Math.round(t)));
    this.pos.value = String(this.t);
    this.posOut.textContent = `${this.label} ${fmt(this.t)} / ${fmt(this.total)}`;
    this.draw(this.t);
    if (this.t >= this.total) { this.pause(); this.onEnd?.(); }
  }

  step(n) { this.pause(); this.seek(this.t + n); }

  play() {
    if (this.t >= this.total) this.seek(0);
    if (this.playing) return;
    this.playing = true; this.playBtn.textContent = "❚❚ Pause"; this.playBtn.setAttribute("aria-pressed", "true");
    this._prev = performance.now(); this._carry = 0;
    requestAnimationFrame(this._tick);
  }

  pause() {
    this.playing = false; this.playBtn.textContent = "▶ Play"; this.playBtn.setAttribute("aria-pressed", "false");
  }

  toggle() { this.playing ? this.pause() : this.play(); }

  _tick(now) {
    if (!this.playing) return;
    this._carry += ((now - this._prev) / 1000) * this.rate;
    this._prev = now;
    const n = Math.floor(this._carry);
    if (n > 0) { this._carry -= n; this.seek(this.t + n); }
    if (this.playing) requestAnimationFrame(this._tick);
  }

  /** Space, arrows, Home and End drive the player unless a text field has the focus. */
  bindKeys(target = window) {
    target.addEventListener("keydown", (ev) => {
      if (typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const keys = { " ": () => this.toggle(), ArrowRight: () => this.step(1), ArrowLeft: () => this.step(-1),
        End: () => this.seek(this.total), Home: () => { this.pause(); this.seek(0); } };
      if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
    });
  }
}

const sliderToSpeed = (v) => Math.round(10 ** (v / 20));           // 0..100 -> 1..100000
const speedToSlider = (s) => Math.round(20 * Math.log10(Math.max(1, s)));
export const fmt = (n) => (Number.isInteger(n) ? n.toLocaleString("en-US") : n.toFixed(2));
