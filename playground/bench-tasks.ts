/**
 * The render benchmark's macrotasks (imported first by bench.ts and bench-gm.ts, before the sim).
 * The simulated server delivers each message on a macrotask (`setImmediate` where it exists, else
 * `setTimeout(fn, 0)`). Browsers clamp nested zero timeouts to 4 ms after a few levels, so each
 * delivery and each tick of `settle()` waited 4 ms of idle time: at 200 combatants the bench spent
 * most of its wall time asleep. A `setImmediate` on a MessageChannel is still a task (microtasks
 * run before it, other tasks interleave as they would) without the clamp.
 */
const scope = globalThis as { setImmediate?: (fn: () => void) => void };
if (typeof scope.setImmediate !== "function") {
  const channel = new MessageChannel();
  const queue: Array<() => void> = [];
  channel.port1.onmessage = () => {
    queue.shift()?.();
  };
  scope.setImmediate = (fn: () => void): void => {
    queue.push(fn);
    channel.port2.postMessage(null);
  };
}

export {};
