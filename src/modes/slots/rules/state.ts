/**
 * Narrowing of stored `slots` state. The state comes back from document flags, which a bug, a macro
 * or a bad migration can corrupt: anything that is not a well-formed, internally consistent state is
 * rejected (null), so the glue can say so and offer a reset instead of running on garbage.
 */
import { isFlag, isId, isIdList, isText, isTypedField, isWhole, listOf, orNull, shapeOf } from "../../../core/common";
import { isScore } from "./ranking";
import type { InitiativeSlot, SlotsCheck, SlotsCombatant, SlotsState } from "./types";

const isCheck = shapeOf<SlotsCheck>({ primary: isScore, secondary: isScore, skill: orNull(isId), typed: isTypedField });

const isCombatant = shapeOf<SlotsCombatant>({
  id: isId,
  name: isText,
  isPC: isFlag,
  check: orNull(isCheck),
  defeated: isFlag,
  slotted: isFlag,
});

const isSlot = shapeOf<InitiativeSlot>({
  kind: (value) => value === "pc" || value === "npc",
  primary: isScore,
  secondary: isScore,
  filledBy: orNull(isId),
  claimedBy: orNull(isId),
  leaving: isFlag,
});

const isShaped = shapeOf<SlotsState>({
  combatants: listOf(isCombatant),
  slots: listOf(isSlot),
  keepSlots: shapeOf({ pc: isFlag, npc: isFlag }),
  started: isFlag,
  round: (value) => isWhole(value, Infinity),
  slotIndex: (value) => value === null || Number.isInteger(value),
  acted: isIdList,
});

const rankKey = (kind: string, primary: number, secondary: number): string => `${kind}:${primary}:${secondary}`;

/** The slots are best first: primary, then secondary high → low; a PC slot before an NPC slot with equal scores. */
function isRanked(slots: readonly InitiativeSlot[]): boolean {
  return slots.every((b, i) => {
    const a = slots[i - 1];
    if (a === undefined) return true;
    const byKind = (a.kind === "pc" ? 0 : 1) - (b.kind === "pc" ? 0 : 1);
    return (b.primary - a.primary || b.secondary - a.secondary || byKind) <= 0;
  });
}

/** Every slotted combatant has a slot of its kind with its scores (several combatants, as many slots). */
function slottedHaveSlots(state: SlotsState): boolean {
  const available = new Map<string, number>();
  for (const s of state.slots) {
    if (s.leaving) continue;
    const key = rankKey(s.kind, s.primary, s.secondary);
    available.set(key, (available.get(key) ?? 0) + 1);
  }
  for (const c of state.combatants) {
    if (!c.slotted) continue;
    if (c.check === null) return false;
    const key = rankKey(c.isPC ? "pc" : "npc", c.check.primary, c.check.secondary);
    const left = available.get(key) ?? 0;
    if (left === 0) return false;
    available.set(key, left - 1);
  }
  return true;
}

function turnsConsistent(state: SlotsState): boolean {
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  const { slotIndex } = state;
  if (!state.started) {
    return (
      state.round === 0 &&
      slotIndex === null &&
      state.acted.length === 0 &&
      state.slots.every((s) => s.filledBy === null && s.claimedBy === null && !s.leaving)
    );
  }
  if (state.round < 1) return false;
  if (slotIndex !== null && (slotIndex < 0 || slotIndex >= state.slots.length)) return false;
  // Slots up to the current one have come up; the rest are still to come.
  const reached = (i: number): boolean => slotIndex === null || i <= slotIndex;
  const fillers: string[] = [];
  const claimants: string[] = [];
  for (const [i, s] of state.slots.entries()) {
    if (s.filledBy !== null) {
      const c = byId.get(s.filledBy);
      if (c === undefined || !reached(i) || c.isPC !== (s.kind === "pc") || !state.acted.includes(c.id)) return false;
      fillers.push(c.id);
    }
    if (s.claimedBy !== null) {
      const c = byId.get(s.claimedBy);
      if (c === undefined || reached(i) || s.filledBy !== null || s.kind !== "pc" || !c.isPC) return false;
      if (c.defeated || c.check === null || state.acted.includes(c.id)) return false;
      claimants.push(c.id);
    }
    if (s.leaving && !reached(i)) return false;
  }
  return new Set(fillers).size === fillers.length && new Set(claimants).size === claimants.length;
}

/** Narrow untrusted data to a slots state, or null when it is malformed or inconsistent. */
export function parseSlotsState(data: unknown): SlotsState | null {
  if (!isShaped(data)) return null;
  const state = data;
  // Consistency: ids unique, every referenced id a known combatant, slots ranked, turns coherent.
  const known = new Set(state.combatants.map((c) => c.id));
  if (known.size !== state.combatants.length) return null;
  if (new Set(state.acted).size !== state.acted.length || !state.acted.every((id) => known.has(id))) return null;
  if (!isRanked(state.slots) || !slottedHaveSlots(state) || !turnsConsistent(state)) return null;
  return state;
}
