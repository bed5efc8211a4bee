/** The `slots` round flow: a fresh state, the slot list's edits, filling, settling and the next round. */

import type { RosterEntry } from "../../../core/engine";
import { insertAt, withItem, oncePerId } from "../../../core/common";
import {
  type SlotsState,
  type InitiativeSlot,
  type SlotsEvent,
  type SlotKind,
  type SlotsCheck,
  type SlotsCombatant,
  DEFAULT_KEEP_SLOTS,
} from "./types";
import { claimOf, canAct } from "./derived";
import { compareRank, type Ranked, kindOf } from "./ranking";

export function setSlot(state: SlotsState, index: number, change: (s: InitiativeSlot) => InitiativeSlot): SlotsState {
  return { ...state, slots: state.slots.map((s, i) => (i === index ? change(s) : s)) };
}

/** Drop every claim the combatant holds. */
export function dropClaims(state: SlotsState, combatantId: string, events: SlotsEvent[]): SlotsState {
  const index = claimOf(state, combatantId);
  if (index === null) return state;
  events.push({ type: "claimReleased", round: state.round, combatantId, slot: index });
  return setSlot(state, index, (s) => ({ ...s, claimedBy: null }));
}

/** Take slot `index` out of the list, keeping the current slot where it is. */
function removeSlotAt(state: SlotsState, index: number, events: SlotsEvent[]): SlotsState {
  const gone = state.slots[index];
  if (gone === undefined) return state;
  if (gone.claimedBy !== null) {
    events.push({ type: "claimReleased", round: state.round, combatantId: gone.claimedBy, slot: index });
  }
  events.push({ type: "slotRemoved", round: state.round, slot: index });
  const slotIndex = state.slotIndex !== null && index < state.slotIndex ? state.slotIndex - 1 : state.slotIndex;
  return { ...state, slots: state.slots.filter((_, i) => i !== index), slotIndex };
}

/** Add a slot for a check at its ranked place (after the slots it ties with). Above the current slot it is passed. */
export function insertSlot(state: SlotsState, kind: SlotKind, check: SlotsCheck, events: SlotsEvent[]): SlotsState {
  const slot: InitiativeSlot = {
    kind,
    primary: check.primary,
    secondary: check.secondary,
    filledBy: null,
    claimedBy: null,
    leaving: false,
  };
  const found = state.slots.findIndex((s) => compareRank(slot, s) < 0);
  const at = found < 0 ? state.slots.length : found;
  events.push({ type: "slotAdded", round: state.round, slot: at });
  const slotIndex = state.slotIndex !== null && at <= state.slotIndex ? state.slotIndex + 1 : state.slotIndex;
  return { ...state, slots: insertAt(state.slots, at, slot), slotIndex };
}

/**
 * Remove the slot that stands for this combatant's check: one of its kind with its scores (which one
 * does not matter, the names are dropped, so the least disruptive is chosen). A slot still to come
 * goes at once (its own claim first, then an unclaimed one); so does the current slot while open.
 * Otherwise the last such slot that has passed, or is being filled now, is marked leaving.
 */
export function dropSlotOf(state: SlotsState, c: SlotsCombatant, events: SlotsEvent[]): SlotsState {
  const check = c.check;
  if (check === null) return state;
  const mine: Ranked = { kind: kindOf(c), primary: check.primary, secondary: check.secondary };
  const matches = state.slots.flatMap((s, i) => (!s.leaving && compareRank(s, mine) === 0 ? [i] : []));
  const last = (list: readonly number[]): number | undefined => list[list.length - 1];
  if (!state.started) {
    const pick = last(matches);
    return pick === undefined ? state : removeSlotAt(state, pick, events);
  }
  const current = state.slotIndex;
  const future = matches.filter((i) => current !== null && i > current);
  const claimedBy = (i: number): string | null => state.slots[i]?.claimedBy ?? null;
  const pick =
    future.find((i) => claimedBy(i) === c.id) ??
    last(future.filter((i) => claimedBy(i) === null)) ??
    last(future) ??
    (current !== null && matches.includes(current) && state.slots[current]?.filledBy === null ? current : undefined);
  if (pick !== undefined) return removeSlotAt(state, pick, events);
  const passed = last(matches);
  if (passed === undefined) return state;
  events.push({ type: "slotLeaving", round: state.round, slot: passed });
  return setSlot(state, passed, (s) => ({ ...s, leaving: true }));
}

/** `combatantId` fills slot `index`, which becomes current; any claim it held elsewhere is dropped. */
export function fill(state: SlotsState, index: number, combatantId: string, events: SlotsEvent[]): SlotsState {
  const s = dropClaims(state, combatantId, events);
  events.push({ type: "slotFilled", round: s.round, combatantId, slot: index });
  return {
    ...setSlot(s, index, (x) => ({ ...x, filledBy: combatantId, claimedBy: null })),
    slotIndex: index,
    acted: withItem(s.acted, combatantId),
  };
}

/**
 * Make the first usable slot at or after `index` current: a filled slot stays current; a claimed slot
 * is filled by its claimant; an open slot waits for a filler if anyone can fill it, and is skipped if
 * nobody can. Past the last slot, no slot is current (the round has run out).
 */
function settleFrom(state: SlotsState, index: number, events: SlotsEvent[]): SlotsState {
  let s = state;
  let i = index;
  for (;;) {
    const slot = s.slots[i];
    if (slot === undefined) return { ...s, slotIndex: null };
    if (slot.filledBy !== null) return { ...s, slotIndex: i };
    if (slot.leaving) {
      s = removeSlotAt({ ...s, slotIndex: i }, i, events);
      continue;
    }
    if (slot.claimedBy !== null) return fill(s, i, slot.claimedBy, events);
    if (s.combatants.some((c) => kindOf(c) === slot.kind && canAct(s, c))) return { ...s, slotIndex: i };
    events.push({ type: "slotSkipped", round: s.round, slot: i });
    i++;
  }
}

/** Re-check the current slot after a change to who can act (a defeat, a removal). */
export function settle(state: SlotsState, events: SlotsEvent[]): SlotsState {
  if (!state.started || state.slotIndex === null) return state;
  return settleFrom(state, state.slotIndex, events);
}

/** The current turn ends: a leaving current slot goes, and the next usable slot becomes current. */
export function endTurn(state: SlotsState, events: SlotsEvent[]): SlotsState {
  const index = state.slotIndex;
  if (index === null) return state;
  const slot = state.slots[index];
  if (slot === undefined) return settleFrom(state, index, events);
  if (slot.filledBy !== null) events.push({ type: "turnEnded", round: state.round, combatantId: slot.filledBy });
  if (slot.leaving) return settleFrom(removeSlotAt(state, index, events), index, events);
  return settleFrom(state, index + 1, events);
}

/** A new round frees everyone: fills and claims are cleared, leaving slots go, the first slot comes up. */
export function startRound(state: SlotsState, round: number, events: SlotsEvent[]): SlotsState {
  const s: SlotsState = {
    ...state,
    round,
    acted: [],
    slots: state.slots.filter((x) => !x.leaving).map((x) => ({ ...x, filledBy: null, claimedBy: null })),
    slotIndex: 0,
  };
  events.push({ type: "roundStarted", round });
  return settleFrom(s, 0, events);
}

/** Next turn: the current turn ends; after the last slot the next round starts. */
export function advance(state: SlotsState, events: SlotsEvent[]): SlotsState {
  const s = endTurn(state, events);
  return s.slotIndex === null ? startRound(s, s.round + 1, events) : s;
}

export function newCombatant(entry: RosterEntry): SlotsCombatant {
  return { id: entry.id, name: entry.name, isPC: entry.isPC, check: null, defeated: false, slotted: false };
}

export function create(roster: readonly RosterEntry[]): SlotsState {
  const combatants = oncePerId(roster, newCombatant);
  return {
    combatants,
    slots: [],
    keepSlots: DEFAULT_KEEP_SLOTS,
    started: false,
    round: 0,
    slotIndex: null,
    acted: [],
  };
}
