/**
 * The realm's `Hooks` (https://foundryvtt.com/api/classes/foundry.helpers.Hooks.html): `call` stops at
 * the first `false`; `callAll` runs every listener; errors in listeners are reported and do not stop
 * others. Every call is logged in `hookLog` for the tests.
 */
import type { Fn } from "./constants.js";

interface HookEntry {
  fn: Fn;
  once: boolean;
  id: number;
}

/** One realm's hooks; `recordError` reports a listener's error. */
export function createHooks(
  hookLog: Array<{ name: string; args: unknown[] }>,
  recordError: (where: string, err: unknown) => void,
) {
  // https://foundryvtt.com/api/classes/foundry.helpers.Hooks.html: `call` stops at the first
  // `false`; `callAll` runs every listener; errors in listeners are reported and do not stop others.
  const hookMap = new Map<string, HookEntry[]>();
  let hookId = 0;
  const runHook = (name: string, args: unknown[], stopOnFalse: boolean): boolean => {
    hookLog.push({ name, args });
    for (const entry of [...(hookMap.get(name) ?? [])]) {
      if (entry.once) Hooks.off(name, entry.id);
      let result: unknown;
      try {
        result = entry.fn(...args);
      } catch (err) {
        recordError(`hook ${name}`, err);
        continue;
      }
      if (result instanceof Object && "then" in result && typeof result.then === "function") {
        (result as Promise<unknown>).then(undefined, (err: unknown) => {
          recordError(`hook ${name}`, err);
        });
      }
      if (stopOnFalse && result === false) return false;
    }
    return true;
  };
  const Hooks = {
    get events(): Record<string, HookEntry[]> {
      return Object.fromEntries(hookMap);
    },
    on(name: string, fn: Fn, { once = false }: { once?: boolean } = {}): number {
      const list = hookMap.get(name) ?? [];
      list.push({ fn, once, id: ++hookId });
      hookMap.set(name, list);
      return hookId;
    },
    once(name: string, fn: Fn): number {
      return Hooks.on(name, fn, { once: true });
    },
    off(name: string, fn: Fn | number): void {
      const list = hookMap.get(name);
      if (!list) return;
      const i = list.findIndex((e) => (typeof fn === "number" ? e.id === fn : e.fn === fn));
      if (i >= 0) list.splice(i, 1);
    },
    call: (name: string, ...args: unknown[]): boolean => runHook(name, args, true),
    callAll: (name: string, ...args: unknown[]): true => (runHook(name, args, false), true),
    onError: (location: string, error: unknown): void => {
      recordError(location, error);
    },
  };
  return Hooks;
}

export type SimHooks = ReturnType<typeof createHooks>;
