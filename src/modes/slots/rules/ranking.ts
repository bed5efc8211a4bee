/** How the `slots` checks rank: higher score first, then PCs before NPCs (RULES.md §2). */

import { type SlotKind, MAX_CHECK_SCORE } from "./types";

export interface Ranked {
  readonly kind: SlotKind;
  readonly primary: number;
  readonly secondary: number;
}

/** Negative: `a` ranks higher; positive: `b` does; 0: tied (same kind, same scores). */
export function compareRank(a: Ranked, b: Ranked): number {
  const kindRank = (r: Ranked): number => (r.kind === "pc" ? 0 : 1);
  return b.primary - a.primary || b.secondary - a.secondary || kindRank(a) - kindRank(b);
}

export function kindOf(c: { readonly isPC: boolean }): SlotKind {
  return c.isPC ? "pc" : "npc";
}

/** A check score within bounds (stored or sent). */
export function isScore(value: unknown): value is number {
  return Number.isInteger(value) && Math.abs(value as number) <= MAX_CHECK_SCORE;
}
