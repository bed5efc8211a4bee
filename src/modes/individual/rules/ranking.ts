/**
 * How the `individual` checks rank (RULES.md §2): a combatant alone, or a whole group, ranks as one
 * unit, by initiative, then modifier, then the roll-offs; where a rolled joiner goes.
 */

import type { IndividualState } from "./types";

export interface Unit {
  /** The member that stands for the unit in roll-offs (the group's first member). */
  readonly rep: string;
  readonly members: readonly string[];
  readonly groupId: string | null;
  readonly initiative: number | null;
  readonly modifier: number;
  /** Position of the representative in the roster: the last tie-break, for display only. */
  readonly joinIndex: number;
}

export function unitsOf(state: IndividualState): Unit[] {
  const units: Unit[] = [];
  state.combatants.forEach((c, joinIndex) => {
    const i = c.groupId === null ? -1 : units.findIndex((u) => u.groupId === c.groupId);
    const existing = units[i];
    if (existing === undefined) {
      units.push({
        rep: c.id,
        members: [c.id],
        groupId: c.groupId,
        initiative: c.initiative,
        modifier: c.modifier ?? 0,
        joinIndex,
      });
    } else {
      units[i] = {
        ...existing,
        members: [...existing.members, c.id],
        modifier: Math.min(existing.modifier, c.modifier ?? 0),
      };
    }
  });
  return units;
}

export function unitOf(state: IndividualState, combatantId: string): Unit | undefined {
  return unitsOf(state).find((u) => u.members.includes(combatantId));
}

/** Whether `a` won a roll-off against `b` (the first roll-off both took part in that split them). */
export function wonRollOff(state: IndividualState, a: Unit, b: Unit): boolean {
  for (const record of state.rollOffs) {
    const ra = record.find((r) => r.combatantId === a.rep);
    const rb = record.find((r) => r.combatantId === b.rep);
    if (ra !== undefined && rb !== undefined && ra.total !== rb.total) return ra.total > rb.total;
  }
  return false;
}

/** Negative: `a` acts first; positive: `b` first; 0: tied (a roll-off is needed). Both must have rolled. */
export function compareUnits(state: IndividualState, a: Unit, b: Unit): number {
  const byInitiative = (b.initiative ?? 0) - (a.initiative ?? 0);
  if (byInitiative !== 0) return byInitiative;
  const byModifier = b.modifier - a.modifier;
  if (byModifier !== 0) return byModifier;
  if (wonRollOff(state, a, b)) return -1;
  if (wonRollOff(state, b, a)) return 1;
  return 0;
}

export interface Derived {
  /** Rolled units, best first (units still tied stand in joining order). */
  readonly units: readonly Unit[];
  /** Sets of units still tied, each needing a roll-off. */
  readonly pending: readonly (readonly Unit[])[];
}

/**
 * The order before the start. Units are ranked by initiative, then modifier; inside a set with equal
 * initiative and modifier, roll-offs decide. Repeatedly take the units no remaining unit beats: one
 * unit is placed; several are an unresolved tie (one pending roll-off per set at a time).
 */
export function deriveOrder(state: IndividualState): Derived {
  const rolled = unitsOf(state)
    .filter((u) => u.initiative !== null)
    .sort((a, b) => (b.initiative ?? 0) - (a.initiative ?? 0) || b.modifier - a.modifier || a.joinIndex - b.joinIndex);
  const units: Unit[] = [];
  const pending: Unit[][] = [];
  let start = 0;
  while (start < rolled.length) {
    const first = rolled[start];
    let end = start + 1;
    while (end < rolled.length && first !== undefined && sameKey(first, rolled[end])) end++;
    let remaining = rolled.slice(start, end);
    let reported = false;
    while (remaining.length > 0) {
      const rest = remaining;
      let best = rest.filter((u) => !rest.some((v) => v !== u && wonRollOff(state, v, u)));
      // Cannot happen while roll-offs are only recorded for true ties; keep the order total anyway.
      if (best.length === 0) best = rest.slice(0, 1);
      if (best.length > 1 && !reported) {
        pending.push(best);
        reported = true;
      }
      units.push(...best);
      remaining = rest.filter((u) => !best.includes(u));
    }
    start = end;
  }
  return { units, pending };
}

function sameKey(a: Unit, b: Unit | undefined): boolean {
  return b !== undefined && a.initiative === b.initiative && a.modifier === b.modifier;
}

export type Placement = { readonly index: number } | { readonly tiedWith: Unit };

/** Where a rolled joiner goes in the stored order: before the first combatant it beats. */
export function placement(state: IndividualState, joiner: Unit): Placement {
  const units = unitsOf(state);
  for (let index = 0; index < state.order.length; index++) {
    const id = state.order[index];
    const other = units.find((u) => id !== undefined && u.members.includes(id));
    if (other === undefined) continue;
    const cmp = compareUnits(state, joiner, other);
    if (cmp < 0) return { index };
    if (cmp === 0) return { tiedWith: other };
  }
  return { index: state.order.length };
}
