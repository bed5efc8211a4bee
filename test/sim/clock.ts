/**
 * A manual clock for the simulated Foundry (issue 11 item 6): `createSim({ manualClock: true })`
 * installs one as every client realm's `Date.now`, `setTimeout`, `clearTimeout`, `setInterval` and
 * `clearInterval`, so time in the module (the sides countdown, request timeouts) moves only when a
 * test calls `sim.clock.advance(ms)`. One clock serves all clients, like one wall clock for a table.
 * The sim's own machinery (message delivery, `settle()`) still runs on the host's event loop.
 */
import type { Dict } from "./utils.js";

interface Timer {
  due: number;
  /** Creation order: timers due at the same instant fire in the order they were set. */
  readonly seq: number;
  readonly fn: () => void;
  /** Interval period; null for a one-shot timer. */
  readonly every: number | null;
}

/** 2025-01-01T00:00:00Z: a fixed start so that deadlines are the same on every run. */
export const MANUAL_CLOCK_START = Date.UTC(2025, 0, 1);

export class ManualClock {
  private time: number;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  /**
   * @param flush awaited after each timer fires and at the end of `advance`, so that what a timer
   *   starts (a request, a document write) completes before the next one fires; the sim passes
   *   its `settle()`.
   */
  constructor(
    private readonly flush: () => Promise<void> = () => Promise.resolve(),
    start = MANUAL_CLOCK_START,
  ) {
    this.time = start;
  }

  /** Epoch milliseconds on this clock. */
  now(): number {
    return this.time;
  }

  /** Timers set and not yet fired or cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /** Milliseconds until the next timer fires; null when none is set. */
  nextIn(): number | null {
    const next = this.earliest(Infinity);
    return next === null ? null : Math.max(0, next.due - this.time);
  }

  readonly setTimeout = (handler: unknown, ms?: unknown, ...args: unknown[]): number =>
    this.add(handler, ms, args, false);

  readonly setInterval = (handler: unknown, ms?: unknown, ...args: unknown[]): number =>
    this.add(handler, ms, args, true);

  readonly clearTimeout = (id?: unknown): void => {
    if (typeof id === "number") this.timers.delete(id);
  };

  readonly clearInterval = this.clearTimeout;

  /**
   * Move time forward by `ms`, firing every timer that falls due on the way at its own instant, in
   * order, flushing after each; then flush once more. Timers set by a fired timer fire in the same
   * call when they fall due within the window.
   */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`ManualClock.advance: ${ms} is not a duration`);
    const target = this.time + ms;
    let failure: unknown = null;
    for (;;) {
      const timer = this.earliest(target);
      if (timer === null) break;
      this.time = Math.max(this.time, timer.due);
      if (timer.every === null) this.timers.delete(timer.seq);
      else timer.due += timer.every;
      try {
        timer.fn();
      } catch (error) {
        failure ??= error;
      }
      await this.flush();
    }
    this.time = target;
    await this.flush();
    if (failure !== null) throw new Error(`ManualClock: a timer threw: ${String(failure)}`, { cause: failure });
  }

  /** Make this clock a realm's time: its `Date.now` and timer globals. */
  install(realm: Dict): void {
    const RealmDate = realm.Date as DateConstructor;
    RealmDate.now = () => this.now();
    realm.setTimeout = this.setTimeout;
    realm.clearTimeout = this.clearTimeout;
    realm.setInterval = this.setInterval;
    realm.clearInterval = this.clearInterval;
  }

  private add(handler: unknown, ms: unknown, args: unknown[], repeat: boolean): number {
    if (typeof handler !== "function") throw new TypeError("ManualClock: only function handlers are supported");
    const delay = typeof ms === "number" && Number.isFinite(ms) ? Math.max(0, ms) : 0;
    const seq = ++this.seq;
    const fn = () => {
      (handler as (...a: unknown[]) => unknown)(...args);
    };
    // A zero interval would never let time move on; browsers clamp it too.
    this.timers.set(seq, { due: this.time + delay, seq, fn, every: repeat ? Math.max(1, delay) : null });
    return seq;
  }

  private earliest(limit: number): Timer | null {
    let best: Timer | null = null;
    for (const t of this.timers.values()) {
      if (t.due > limit) continue;
      if (best === null || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
