/** The `slots` command handlers and the refusal checks they share with the allowed actions. */

import { type Outcome, refuse, type Requester, accept } from "../../../core/engine";
import {
  findById,
  canControl,
  type Handlers,
  addToRoster,
  without,
  updateCombatant,
  isFlag,
  isId,
  markTyped,
  stepKind,
  runHandler,
  gmCombatantRefusal,
} from "../../../core/common";
import type { InitiativeSlot, SlotsState, SlotsCombatant, SlotsCommand, SlotsEvent, SlotsCheck } from "./types";
import { kindOf, isScore } from "./ranking";
import { isPassed, claimOf, checksNeeded } from "./derived";
import {
  newCombatant,
  dropSlotOf,
  dropClaims,
  endTurn,
  settle,
  insertSlot,
  startRound,
  fill,
  setSlot,
  advance,
} from "./flow";

/** The holder of a slot (its filler or claimant), or null. */
export function holder(slot: InitiativeSlot): string | null {
  return slot.filledBy ?? slot.claimedBy;
}

/** The refusal of a slot someone holds: taken (filled) or claimed, naming the holder; null when free. */
function heldRefusal(slot: InitiativeSlot): Outcome<SlotsState> | null {
  if (slot.filledBy !== null) return refuse("slotTaken", slot.filledBy);
  return slot.claimedBy === null ? null : refuse("slotClaimed", slot.claimedBy);
}

/** Why `c` may not take slot `slot` of kind `kind` now, or null. Shared by claims and fills. */
function takeRefusal(state: SlotsState, slot: InitiativeSlot, c: SlotsCombatant): Outcome<SlotsState> | null {
  if (kindOf(c) !== slot.kind) return refuse("wrongSlotKind", c.id);
  if (c.defeated) return refuse("combatantDefeated", c.id);
  if (c.check === null) return refuse("initiativeMissing", c.id);
  if (state.acted.includes(c.id)) return refuse("alreadyActed", c.id);
  return null;
}

type ClaimCommand = Extract<SlotsCommand, { type: "claimSlot" }>;
type FillCommand = Extract<SlotsCommand, { type: "fillSlot" }>;

/** Why `who` may not claim the slot now, or null (then `claimSlot` accepts it). */
export function claimRefusal(
  state: SlotsState,
  { slot: index, combatantId }: ClaimCommand,
  who: Requester,
): Outcome<SlotsState> | null {
  if (!state.started) return refuse("notStarted");
  const c = findById(state.combatants, combatantId);
  if (c === undefined) return refuse("unknownCombatant", combatantId);
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  const slot = state.slots[index];
  if (slot === undefined) return refuse("unknownSlot");
  if (isPassed(state, index)) return refuse("slotPassed");
  const held = heldRefusal(slot);
  if (held !== null) return held;
  // Only PC slots are claimed; the GM fills NPC slots when they come up.
  if (slot.kind !== "pc") return refuse("wrongSlotKind", combatantId);
  const why = takeRefusal(state, slot, c);
  if (why !== null) return why;
  // The slot whose turn it is now is filled at once; any other is one claim per PC.
  if (index !== state.slotIndex && claimOf(state, combatantId) !== null) return refuse("alreadyClaimed", combatantId);
  return null;
}

/** Why `who` may not fill the slot now, or null (then `fillSlot` accepts it). */
export function fillRefusal(
  state: SlotsState,
  { slot: index, combatantId }: FillCommand,
  who: Requester,
): Outcome<SlotsState> | null {
  if (!state.started) return refuse("notStarted");
  const c = findById(state.combatants, combatantId);
  if (c === undefined) return refuse("unknownCombatant", combatantId);
  const slot = state.slots[index];
  if (slot === undefined) return refuse("unknownSlot");
  if (isPassed(state, index)) return refuse("slotPassed");
  // An NPC slot is the GM's alone, now or later: a player can neither fill nor claim it.
  if (slot.kind === "npc" && !who.isGM) return refuse("notGM");
  if (index !== state.slotIndex) return refuse("notCurrentSlot");
  const held = heldRefusal(slot);
  if (held !== null) return held;
  // A PC slot: the GM or a player who owns the PC.
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  return takeRefusal(state, slot, c);
}

export const handlers: Handlers<SlotsState, SlotsCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const gone = findById(state.combatants, combatantId);
    if (gone === undefined) return refuse("unknownCombatant", combatantId);
    const events: SlotsEvent[] = [{ type: "combatantRemoved", round: state.round, combatantId }];
    let s = gone.slotted && !state.keepSlots[kindOf(gone)] ? dropSlotOf(state, gone, events) : state;
    s = dropClaims(s, combatantId, events);
    const filling = s.slotIndex !== null && s.slots[s.slotIndex]?.filledBy === combatantId;
    // Its turn, if it was filling the current slot, ends now: the next slot comes up.
    if (state.started && filling) s = endTurn(s, events);
    s = {
      ...s,
      combatants: s.combatants.filter((c) => c.id !== combatantId),
      slots: s.slots.map((x) => (x.filledBy === combatantId ? { ...x, filledBy: null } : x)),
      acted: without(s.acted, combatantId),
    };
    // With it gone, the current open slot may have nobody left to fill it.
    return accept(settle(s, events), events);
  },

  setDefeated(state, { combatantId, defeated }, who) {
    const why = gmCombatantRefusal(state, combatantId, who);
    if (why !== null) return why;
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    const events: SlotsEvent[] = [{ type: "defeatedChanged", round: state.round, combatantId }];
    let s = updateCombatant(state, combatantId, (x) => ({ ...x, defeated }));
    if (defeated && !c.defeated) {
      if (c.slotted && !state.keepSlots[kindOf(c)]) {
        s = updateCombatant(dropSlotOf(s, c, events), combatantId, (x) => ({ ...x, slotted: false }));
      }
      s = dropClaims(s, combatantId, events);
    } else if (!defeated && c.defeated && !c.slotted && c.check !== null) {
      // Back in the fight: its slot comes back at its ranked place, like a joiner's.
      s = updateCombatant(insertSlot(s, kindOf(c), c.check, events), combatantId, (x) => ({ ...x, slotted: true }));
    }
    return accept(settle(s, events), events);
  },

  setKeepSlots(state, { keepSlots }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isFlag(keepSlots.pc) || !isFlag(keepSlots.npc)) return refuse("invalidValue");
    return accept({ ...state, keepSlots: { pc: keepSlots.pc, npc: keepSlots.npc } }, [
      { type: "keepSlotsChanged", round: state.round },
    ]);
  },

  recordCheck(state, { combatantId, primary, secondary, skill, typed }, who) {
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (typed === true && !who.isGM) return refuse("typedResult", combatantId);
    if (!isScore(primary) || !isScore(secondary)) return refuse("invalidValue", combatantId);
    if (skill !== undefined && !isId(skill)) return refuse("invalidValue", combatantId);
    // After the start only a joiner that has not rolled may roll.
    if (state.started && c.check !== null) return refuse("alreadyStarted", combatantId);
    // Players roll once, as in core; only the GM rolls again (the earlier roll stays in chat).
    if (!who.isGM && c.check !== null) return refuse("rerollGMOnly", combatantId);
    const check: SlotsCheck = markTyped({ primary, secondary, skill: skill ?? null }, typed);
    const events: SlotsEvent[] = [{ type: "checkRecorded", round: state.round, combatantId }];
    // Before the start a new check replaces the old one and its slot.
    let s = c.slotted ? dropSlotOf(state, c, events) : state;
    const slotted = !(c.defeated && !state.keepSlots[kindOf(c)]);
    if (slotted) s = insertSlot(s, kindOf(c), check, events);
    s = updateCombatant(s, combatantId, (x) => ({ ...x, check, slotted }));
    return accept(s, events);
  },

  start(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (state.started) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    const missing = checksNeeded(state)[0];
    if (missing !== undefined) return refuse("initiativeMissing", missing);
    const events: SlotsEvent[] = [{ type: "combatStarted", round: 1 }];
    return accept(startRound({ ...state, started: true }, 1, events), events, "round");
  },

  claimSlot(state, command, who) {
    const why = claimRefusal(state, command, who);
    if (why !== null) return why;
    const { slot: index, combatantId } = command;
    const events: SlotsEvent[] = [];
    // Claiming the slot whose turn it is now fills it at once.
    if (index === state.slotIndex) return accept(fill(state, index, combatantId, events), events, "turn");
    events.push({ type: "slotClaimed", round: state.round, combatantId, slot: index });
    return accept(
      setSlot(state, index, (x) => ({ ...x, claimedBy: combatantId })),
      events,
      "turn",
    );
  },

  releaseClaim(state, { slot: index }, who) {
    const slot = state.slots[index];
    if (slot === undefined) return refuse("unknownSlot");
    const claimant = slot.claimedBy;
    if (claimant === null) return refuse("notClaimed");
    if (!canControl(who, claimant)) return refuse("notOwner", claimant);
    const events: SlotsEvent[] = [];
    return accept(dropClaims(state, claimant, events), events, "turn");
  },

  fillSlot(state, command, who) {
    const why = fillRefusal(state, command, who);
    if (why !== null) return why;
    const events: SlotsEvent[] = [];
    return accept(fill(state, command.slot, command.combatantId, events), events, "turn");
  },

  nextTurn(state, _command, who) {
    if (!state.started) return refuse("notStarted");
    const filler = state.slotIndex === null ? null : (state.slots[state.slotIndex]?.filledBy ?? null);
    // The GM may also end an open slot (it passes unfilled) or a round that has run out.
    if (!who.isGM && filler === null) return refuse("notYourTurn");
    // Someone else's combatant is acting: the reason is ownership, not whose turn it is.
    if (!who.isGM && filler !== null && !who.owns.includes(filler)) return refuse("notOwner", filler);
    const events: SlotsEvent[] = [];
    const s = advance(state, events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  nextRound(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    const events: SlotsEvent[] = [];
    return accept(startRound(state, state.round + 1, events), events, "round");
  },
};

export function applyCommand(state: SlotsState, command: SlotsCommand, who: Requester): Outcome<SlotsState> {
  return runHandler(handlers, state, command, who);
}
