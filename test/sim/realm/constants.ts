/** What every room of a simulated Foundry realm shares: Foundry's `CONST` values and small helpers. */

export type Fn = (...args: unknown[]) => unknown;
export const call = (fn: unknown, self: unknown, ...args: unknown[]): unknown =>
  typeof fn === "function" ? (fn as Fn).apply(self, args) : undefined;

/** CONST values (https://foundryvtt.com/api/modules/CONST.html). */
export const CONST = {
  DOCUMENT_OWNERSHIP_LEVELS: { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 },
  USER_ROLES: { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 },
  TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
  // https://foundryvtt.com/api/v11/enums/foundry.CONST.DICE_ROLL_MODES.html
  DICE_ROLL_MODES: { PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" },
  SETTING_SCOPES: { CLIENT: "client", WORLD: "world", USER: "user" },
  /** https://foundryvtt.com/api/enums/foundry.CONST.KEYBINDING_PRECEDENCE.html */
  KEYBINDING_PRECEDENCE: { PRIORITY: 0, NORMAL: 1, DEFERRED: 2 },
} as const;
export const LEVELS: Record<string, number> = CONST.DOCUMENT_OWNERSHIP_LEVELS;

/** A class and its ancestors up to `root`, nearest first. */
export function classChain<T>(start: T, root: T): T[] {
  const out: T[] = [];
  for (let cls: unknown = start; typeof cls === "function"; cls = Object.getPrototypeOf(cls)) {
    out.push(cls as T);
    if (cls === root) break;
  }
  return out;
}

/** `foundry.utils.debounce` as the sim offers it: `fn` runs once, `delay` ms after the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => unknown, delay: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => fn(...args), delay);
  };
}
