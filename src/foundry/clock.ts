/**
 * The glue's one way to read the time and wait (issue 11 item 6): the sides countdown asks this
 * clock, never `Date.now` or `setTimeout` directly.
 *
 * It reads the page's own `Date.now` and `setTimeout` / `clearTimeout` at each call, so in Foundry
 * it is the browser's clock, exactly as before. A host that owns the page's timer globals controls
 * it too: the simulated Foundry (`createSim({ manualClock: true })`) gives each client realm a
 * manual clock as those globals, and a test advances it (`sim.clock.advance(ms)`) instead of sleeping.
 */

/** Cancels a timer from {@link Clock.after}; calling it again, or after the timer fired, does nothing. */
export type Cancel = () => void;

export interface Clock {
  /** Epoch milliseconds now. */
  now(): number;
  /** Run `fn` once after `ms` milliseconds (0 when negative). */
  after(ms: number, fn: () => void): Cancel;
}

/** The page's clock. */
export const clock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    return () => {
      clearTimeout(timer);
    };
  },
};
