/** Helpers derived from the `slots` state: the current slot, ties, the slots view, who may fill. */

import type { SlotsState, SlotView, SlotsCombatant } from "./types";
import { compareRank, kindOf } from "./ranking";

/** The current slot's index, or null (before the start, or when the round has run out of slots). */
export function currentSlot(state: SlotsState): number | null {
  return state.started ? state.slotIndex : null;
}

/** Whether slot `index` has passed this round. */
export function isPassed(state: SlotsState, index: number): boolean {
  if (!state.started) return false;
  return state.slotIndex === null || index < state.slotIndex;
}

/** Groups of slot indices that are tied (same kind, same scores), best first; singletons left out. */
export function tiedSlots(state: SlotsState): readonly (readonly number[])[] {
  const groups: number[][] = [];
  state.slots.forEach((slot, index) => {
    const last = groups[groups.length - 1];
    const prevIndex = last?.[last.length - 1];
    const prev = prevIndex === undefined ? undefined : state.slots[prevIndex];
    if (last !== undefined && prev !== undefined && prevIndex === index - 1 && compareRank(prev, slot) === 0) {
      last.push(index);
    } else {
      groups.push([index]);
    }
  });
  return groups.filter((g) => g.length > 1);
}

/** The slot list as the tracker shows it. */
export function slotsView(state: SlotsState): readonly SlotView[] {
  const tied = new Set(tiedSlots(state).flat());
  return state.slots.map((slot, index) => ({
    index,
    kind: slot.kind,
    primary: slot.primary,
    secondary: slot.secondary,
    filledBy: slot.filledBy,
    claimedBy: slot.claimedBy,
    current: currentSlot(state) === index,
    passed: isPassed(state, index),
    tied: tied.has(index),
    leaving: slot.leaving,
  }));
}

/** Live combatants that still need an initiative check, in joining order. */
export function checksNeeded(state: SlotsState): readonly string[] {
  return state.combatants.filter((c) => c.check === null && !c.defeated).map((c) => c.id);
}

/** Whether the combatant may fill a slot of its kind this round: rolled, not defeated, not acted (the tracker's "to act"). */
export function canAct(state: SlotsState, c: SlotsCombatant): boolean {
  return c.check !== null && !c.defeated && !state.acted.includes(c.id);
}

/** Who may fill slot `index` now or later this round (by kind; permissions aside), in joining order. */
export function eligibleFillers(state: SlotsState, index: number): readonly string[] {
  const slot = state.slots[index];
  if (slot === undefined || !state.started || isPassed(state, index) || slot.filledBy !== null) return [];
  return state.combatants.filter((c) => kindOf(c) === slot.kind && canAct(state, c)).map((c) => c.id);
}

/** The slot the combatant has claimed this round, or null. */
export function claimOf(state: SlotsState, combatantId: string): number | null {
  const index = state.slots.findIndex((s) => s.claimedBy === combatantId);
  return index < 0 ? null : index;
}
