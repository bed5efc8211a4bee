/** Helpers derived from the `individual` state: who is unplaced, roll-offs pending, groups, rolls needed. */

import type { IndividualCombatant, IndividualState } from "./types";
import { deriveOrder, placement, unitOf, unitsOf } from "./ranking";

/** Live combatants of a started battle that are neither in the order nor delaying. */
export function unplaced(state: IndividualState): IndividualCombatant[] {
  if (!state.started) return [];
  const placed = new Set(state.order);
  for (const d of state.delaying) placed.add(d.combatantId);
  return state.combatants.filter((c) => !placed.has(c.id));
}

/** Whether the combatant is flat-footed: present when a surprise battle began, no regular turn yet. */
export function flatFooted(state: IndividualState, combatantId: string): boolean {
  return state.flatFooted.includes(combatantId);
}

/** Whether the current round is the surprise round. */
export function isSurpriseRound(state: IndividualState): boolean {
  return state.started && state.surpriseRound;
}

/**
 * The roll-offs still needed. Each is the list of combatant ids that must roll off against each
 * other (a group is named by its first member). `recordRollOff` must carry exactly one such list.
 */
export function pendingRollOffs(state: IndividualState): readonly (readonly string[])[] {
  if (!state.started) return deriveOrder(state).pending.map((set) => set.map((u) => u.rep));
  const sets: string[][] = [];
  for (const c of unplaced(state)) {
    if (c.initiative === null) continue;
    const unit = unitOf(state, c.id);
    if (unit === undefined) continue;
    const where = placement(state, unit);
    if ("tiedWith" in where) sets.push([unit.rep, where.tiedWith.rep]);
  }
  return sets;
}

/** Members of a group, in joining order (empty for an unknown group). */
export function groupMembers(state: IndividualState, groupId: string): readonly string[] {
  return state.combatants.filter((c) => c.groupId === groupId).map((c) => c.id);
}

/** Ids of the groups that have members, in joining order. */
export function groupIds(state: IndividualState): readonly string[] {
  const ids: string[] = [];
  for (const c of state.combatants) if (c.groupId !== null && !ids.includes(c.groupId)) ids.push(c.groupId);
  return ids;
}

/** The modifier a group rolls and ranks with: the lowest of its members'; null for an unknown group. */
export function groupModifier(state: IndividualState, groupId: string): number | null {
  const unit = unitsOf(state).find((u) => u.groupId === groupId);
  return unit === undefined ? null : unit.modifier;
}

/** The rolls still needed: ungrouped combatants without a result, and groups without one. */
export function rollsNeeded(state: IndividualState): {
  readonly combatants: readonly string[];
  readonly groups: readonly string[];
} {
  const needy = state.combatants.filter((c) => c.initiative === null);
  const groups: string[] = [];
  for (const c of needy) if (c.groupId !== null && !groups.includes(c.groupId)) groups.push(c.groupId);
  return { combatants: needy.filter((c) => c.groupId === null).map((c) => c.id), groups };
}

/** Combatants that are delaying now, in the order they delayed. */
export function delayingIds(state: IndividualState): readonly string[] {
  return state.delaying.map((d) => d.combatantId);
}
