/**
 * The `slots` mode (RULES.md §4, rulebook excerpt 003): initiative slots, as in Edge of the Empire
 * and Genesys.
 *
 * - Every combatant makes one initiative check (successes are the primary score, advantages the
 *   secondary). The results are ranked: primary high → low, then secondary high → low; a PC and an
 *   NPC still tied → the PC ranks higher. Other ties (same kind, same scores) stay in the order the
 *   slots were made and are shown as tied ({@link tiedSlots}).
 * - Each result becomes a PC slot or an NPC slot; **the names are then dropped**: a slot stores its
 *   kind and scores, never who rolled it.
 * - Each round, turns go down the slot list. A PC slot is filled by any PC who has not acted this
 *   round (claimed by a player who owns it, or assigned by the GM); an NPC slot by the GM with any NPC
 *   who has not acted. A combatant acts at most once a round; a slot is filled at most once a round.
 * - A player may claim any later open PC slot of this round ahead of time for one PC it owns; the
 *   claimant fills the slot when the slot comes up. A claim can be released until then.
 *
 * Choices the rules leave open (docs/modes/slots.md explains them):
 * - A slot nobody can fill (no live combatant of its kind who has rolled and not acted) is skipped.
 *   The GM may also end an open slot with next turn: the slot passes unfilled.
 * - Next turn on the last slot starts the next round.
 * - A slot that joins above the current slot (a joiner's check) is passed this round; it is used
 *   from the next round. The joiner may still fill a later slot of its kind this round.
 * - A defeated or removed combatant's slot (the slot with its kind and scores) is removed or kept by
 *   `keepSlots`. A slot still to come is removed at once; a slot that has passed, or that someone
 *   else is filling now, is marked `leaving` and goes when its turn ends or the round ends.
 *
 * Invariants of a started state:
 * - `slotIndex` is null (no slot is current: the round has run out) or the index of the current slot.
 *   Slots before it have passed; only they and the current slot can be filled or leaving.
 * - Claims are only on PC slots after the current one, by live PCs that have rolled and not acted,
 *   one claim per PC. A claimed slot is filled by its claimant as soon as it becomes current.
 * - `acted` lists who filled a slot this round, in the order they did; every filler is in it.
 */

import {
  accept,
  refuse,
  type AllowedAction,
  type ModeDefinition,
  type Outcome,
  type Requester,
  type RosterEntry,
  type RuleEvent,
  type TurnView,
} from "../../../core/engine";
import {
  addToRoster,
  allowedByTrial,
  probe,
  dispatch,
  type Handlers,
  type RefusalChecks,
  canControl,
  findById,
  updateCombatant,
  insertAt,
  isId,
  isRecord,
  oncePerId,
  parseByTable,
  required,
  optional,
  isFlag,
  BAD,
  ID_FIELD,
  TYPED_FIELD,
  type FieldReader,
  type CommandTable,
  stepKind,
  withItem,
  without,
  markTyped,
  type TypedMark,
} from "../../../core/common";

// ---------------------------------------------------------------------------------------------
// State, commands, events
// ---------------------------------------------------------------------------------------------

/** Whether a slot is for player characters or for the GM's characters. */
export type SlotKind = "pc" | "npc";

/** Largest initiative score (successes or advantages, in absolute value) accepted. */
export const MAX_CHECK_SCORE = 999;
/** Largest slot index accepted from untrusted data. */
export const MAX_SLOT_INDEX = 9999;

/** One initiative check result. */
export interface SlotsCheck extends TypedMark {
  /** Successes (or the generic primary score): ranks first. */
  readonly primary: number;
  /** Advantages (or the generic secondary score): breaks ties in the primary score. */
  readonly secondary: number;
  /** The skill used ("cool", "vigilance"…), for display only; null when not given. */
  readonly skill: string | null;
}

/** A combatant as the slots mode tracks it. */
export interface SlotsCombatant {
  readonly id: string;
  readonly name: string;
  /** Has a player owner: fills PC slots. */
  readonly isPC: boolean;
  /** Its initiative check; null until rolled. */
  readonly check: SlotsCheck | null;
  /** Marked defeated: fills no slot. */
  readonly defeated: boolean;
  /**
   * Its check has a slot in the list. Not which slot (the names are dropped): a slot of its kind with
   * its scores. False before it rolls, and after its slot was removed by the `keepSlots` policy.
   */
  readonly slotted: boolean;
}

/** One initiative slot: a result with the name dropped, plus who fills or has claimed it this round. */
export interface InitiativeSlot {
  readonly kind: SlotKind;
  readonly primary: number;
  readonly secondary: number;
  /** Who filled it this round, or null. */
  readonly filledBy: string | null;
  /** Who has claimed it for later this round, or null. */
  readonly claimedBy: string | null;
  /** Its combatant is gone (by the `keepSlots` policy): the slot goes when its turn or the round ends. */
  readonly leaving: boolean;
}

/** Whether a defeated or removed combatant's slot stays in the list, per kind. */
export interface KeepSlots {
  readonly pc: boolean;
  readonly npc: boolean;
}

/** The default policy: a PC's slot stays, an NPC's slot goes. */
export const DEFAULT_KEEP_SLOTS: KeepSlots = { pc: true, npc: false };

/** The slots mode's state. Plain JSON data; never mutated. */
export interface SlotsState {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly SlotsCombatant[];
  /** The slots, best first. */
  readonly slots: readonly InitiativeSlot[];
  readonly keepSlots: KeepSlots;
  readonly started: boolean;
  /** 0 before the start. */
  readonly round: number;
  /** The current slot; null before the start and when the round has run out of slots. */
  readonly slotIndex: number | null;
  /** Who has filled a slot this round, in the order they did. */
  readonly acted: readonly string[];
}

/** Commands of the slots mode. */
export type SlotsCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean }
  | { readonly type: "setKeepSlots"; readonly keepSlots: KeepSlots }
  | {
      readonly type: "recordCheck";
      readonly combatantId: string;
      /** Successes: an integer, at most {@link MAX_CHECK_SCORE} either way. */
      readonly primary: number;
      /** Advantages: an integer, at most {@link MAX_CHECK_SCORE} either way. */
      readonly secondary: number;
      /** Typed, not rolled (set by the authority; only the GM may). */
      readonly typed?: boolean;
      readonly skill?: string;
    }
  | { readonly type: "start" }
  | { readonly type: "claimSlot"; readonly slot: number; readonly combatantId: string }
  | { readonly type: "releaseClaim"; readonly slot: number }
  | { readonly type: "fillSlot"; readonly slot: number; readonly combatantId: string }
  | { readonly type: "nextTurn" }
  | { readonly type: "nextRound" };

/** The `type` of every slots-mode command. */
export type SlotsCommandType = SlotsCommand["type"];

/** Events the slots mode emits (`RuleEvent.type`). */
export const SLOTS_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "defeatedChanged",
  "keepSlotsChanged",
  "checkRecorded",
  "slotAdded",
  "slotRemoved",
  "slotLeaving",
  "combatStarted",
  "roundStarted",
  "slotClaimed",
  "claimReleased",
  "slotFilled",
  "slotSkipped",
  "turnEnded",
] as const;
/** One slots-mode event type. */
export type SlotsEventType = (typeof SLOTS_EVENTS)[number];

/** A slots-mode event: a rule event that may name the slot it is about. */
export interface SlotsEvent extends RuleEvent {
  readonly type: SlotsEventType;
  /** The slot's index at the time of the event. */
  readonly slot?: number;
}

/** Step keys of `TurnView.step` in this mode. */
export type SlotsStep = "setup" | "round";

/** An allowed action that may be about a slot. */
export interface SlotsAllowedAction extends AllowedAction {
  readonly slot?: number;
}

/** One row of the tracker's slot list. */
export interface SlotView {
  readonly index: number;
  readonly kind: SlotKind;
  readonly primary: number;
  readonly secondary: number;
  readonly filledBy: string | null;
  readonly claimedBy: string | null;
  /** The slot whose turn it is now. */
  readonly current: boolean;
  /** Passed this round (filled or not). */
  readonly passed: boolean;
  /** Another slot of the same kind has the same scores. */
  readonly tied: boolean;
  /** Goes when its turn or the round ends. */
  readonly leaving: boolean;
}

// ---------------------------------------------------------------------------------------------
// Ranking
// ---------------------------------------------------------------------------------------------

interface Ranked {
  readonly kind: SlotKind;
  readonly primary: number;
  readonly secondary: number;
}

/** Negative: `a` ranks higher; positive: `b` does; 0: tied (same kind, same scores). */
function compareRank(a: Ranked, b: Ranked): number {
  const kindRank = (r: Ranked): number => (r.kind === "pc" ? 0 : 1);
  return b.primary - a.primary || b.secondary - a.secondary || kindRank(a) - kindRank(b);
}

function kindOf(c: { readonly isPC: boolean }): SlotKind {
  return c.isPC ? "pc" : "npc";
}

/** A check score within bounds (stored or sent). */
export function isScore(value: unknown): value is number {
  return Number.isInteger(value) && Math.abs(value as number) <= MAX_CHECK_SCORE;
}

// ---------------------------------------------------------------------------------------------
// Derived helpers for the tracker
// ---------------------------------------------------------------------------------------------

/** The current slot's index, or null (before the start, or when the round has run out of slots). */
export function currentSlot(state: SlotsState): number | null {
  return state.started ? state.slotIndex : null;
}

/** Whether slot `index` has passed this round. */
function isPassed(state: SlotsState, index: number): boolean {
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

// ---------------------------------------------------------------------------------------------
// Slot list edits
// ---------------------------------------------------------------------------------------------

function setSlot(state: SlotsState, index: number, change: (s: InitiativeSlot) => InitiativeSlot): SlotsState {
  return { ...state, slots: state.slots.map((s, i) => (i === index ? change(s) : s)) };
}

/** Drop every claim the combatant holds. */
function dropClaims(state: SlotsState, combatantId: string, events: SlotsEvent[]): SlotsState {
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
function insertSlot(state: SlotsState, kind: SlotKind, check: SlotsCheck, events: SlotsEvent[]): SlotsState {
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
function dropSlotOf(state: SlotsState, c: SlotsCombatant, events: SlotsEvent[]): SlotsState {
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

// ---------------------------------------------------------------------------------------------
// Turn flow
// ---------------------------------------------------------------------------------------------

/** `combatantId` fills slot `index`, which becomes current; any claim it held elsewhere is dropped. */
function fill(state: SlotsState, index: number, combatantId: string, events: SlotsEvent[]): SlotsState {
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
function settle(state: SlotsState, events: SlotsEvent[]): SlotsState {
  if (!state.started || state.slotIndex === null) return state;
  return settleFrom(state, state.slotIndex, events);
}

/** The current turn ends: a leaving current slot goes, and the next usable slot becomes current. */
function endTurn(state: SlotsState, events: SlotsEvent[]): SlotsState {
  const index = state.slotIndex;
  if (index === null) return state;
  const slot = state.slots[index];
  if (slot === undefined) return settleFrom(state, index, events);
  if (slot.filledBy !== null) events.push({ type: "turnEnded", round: state.round, combatantId: slot.filledBy });
  if (slot.leaving) return settleFrom(removeSlotAt(state, index, events), index, events);
  return settleFrom(state, index + 1, events);
}

/** A new round frees everyone: fills and claims are cleared, leaving slots go, the first slot comes up. */
function startRound(state: SlotsState, round: number, events: SlotsEvent[]): SlotsState {
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
function advance(state: SlotsState, events: SlotsEvent[]): SlotsState {
  const s = endTurn(state, events);
  return s.slotIndex === null ? startRound(s, s.round + 1, events) : s;
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

function newCombatant(entry: RosterEntry): SlotsCombatant {
  return { id: entry.id, name: entry.name, isPC: entry.isPC, check: null, defeated: false, slotted: false };
}

/** The holder of a slot (its filler or claimant), or null. */
function holder(slot: InitiativeSlot): string | null {
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

/**
 * Why `who` may not remove a combatant or change its defeat, or null (then `removeCombatant` and
 * `setDefeated` accept it).
 */
function rosterRefusal(state: SlotsState, combatantId: string, who: Requester): Outcome<SlotsState> | null {
  if (!who.isGM) return refuse("notGM");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  return null;
}

type ClaimCommand = Extract<SlotsCommand, { type: "claimSlot" }>;
type FillCommand = Extract<SlotsCommand, { type: "fillSlot" }>;

/** Why `who` may not claim the slot now, or null (then `claimSlot` accepts it). */
function claimRefusal(
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
function fillRefusal(
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

const handlers: Handlers<SlotsState, SlotsCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    const why = rosterRefusal(state, combatantId, who);
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
    const why = rosterRefusal(state, combatantId, who);
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

function applyCommand(state: SlotsState, command: SlotsCommand, who: Requester): Outcome<SlotsState> {
  return dispatch(handlers, state, command, who);
}

// ---------------------------------------------------------------------------------------------
// View and allowed actions
// ---------------------------------------------------------------------------------------------

/** Who filled a slot this round, in that order; then claimants by slot; then the rest in joining order. */
function viewOrder(state: SlotsState): string[] {
  const claimants = state.slots.flatMap((s) => (s.claimedBy === null ? [] : [s.claimedBy]));
  const first = [...state.acted, ...claimants.filter((id) => !state.acted.includes(id))];
  return [...first, ...state.combatants.map((c) => c.id).filter((id) => !first.includes(id))];
}

function fillerOf(state: SlotsState): string | null {
  return state.slotIndex === null ? null : (state.slots[state.slotIndex]?.filledBy ?? null);
}

function view(state: SlotsState): TurnView {
  const step: SlotsStep = state.started ? "round" : "setup";
  return {
    started: state.started,
    round: state.round,
    step,
    order: viewOrder(state),
    current: state.started ? fillerOf(state) : null,
    next: state.started ? fillerOf(advance(state, [])) : null,
  };
}

interface Probe {
  readonly action: SlotsAllowedAction;
  readonly command: SlotsCommand;
}

/** A probe of `command` for the action of its type, about `about`. */
const on = (command: SlotsCommand, about?: Omit<SlotsAllowedAction, "type">): Probe => probe(command, about);

function probes(state: SlotsState): Probe[] {
  const list: Probe[] = [
    on({ type: "start" }),
    on({ type: "nextTurn" }),
    on({ type: "nextRound" }),
    on({ type: "setKeepSlots", keepSlots: state.keepSlots }),
  ];
  for (const c of state.combatants) {
    const combatantId = c.id;
    const about = { combatantId };
    list.push(
      on({ type: "recordCheck", combatantId, primary: 0, secondary: 0 }, about),
      on({ type: "setDefeated", combatantId, defeated: !c.defeated }, about),
      on({ type: "removeCombatant", combatantId }, about),
    );
  }
  state.slots.forEach((slot, index) => {
    if (slot.claimedBy !== null) {
      list.push(on({ type: "releaseClaim", slot: index }, { slot: index, combatantId: slot.claimedBy }));
    }
    // Only a slot that can be taken now is tried, by the combatants of its kind: every other claim
    // or fill would be refused (see `claimRefusal`, `fillRefusal`; the property tests compare this
    // with trying every combatant on every slot).
    if (!state.started || isPassed(state, index) || holder(slot) !== null) return;
    const claimable = slot.kind === "pc";
    const fillable = index === state.slotIndex;
    if (!claimable && !fillable) return;
    for (const c of state.combatants) {
      if (kindOf(c) !== slot.kind) continue;
      const about = { slot: index, combatantId: c.id };
      if (claimable) list.push(on({ type: "claimSlot", ...about }, about));
      if (fillable) list.push(on({ type: "fillSlot", ...about }, about));
    }
  });
  return list;
}

/**
 * The commands tried by their refusal check alone: their handlers, once past it, always accept (a
 * claim, a fill, a removal, a defeat), so that no new state is built for each combatant and each
 * slot it could take. Every other command is tried through the rules.
 */
const refusalChecks: RefusalChecks<SlotsState, SlotsCommand> = {
  claimSlot: claimRefusal,
  fillSlot: fillRefusal,
  removeCombatant: (state, { combatantId }, who) => rosterRefusal(state, combatantId, who),
  setDefeated: (state, { combatantId }, who) => rosterRefusal(state, combatantId, who),
};

/** What this user may do now, with the slot each claim, release or fill is about. */
export function slotsAllowed(state: SlotsState, who: Requester): readonly SlotsAllowedAction[] {
  const given: SlotsAllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  return allowedByTrial(state, who, given, probes(state), applyCommand, refusalChecks);
}

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

function isSlotIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_SLOT_INDEX;
}

const SCORE: FieldReader<number> = required(isScore);
const SLOT: FieldReader<number> = required(isSlotIndex);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<SlotsCommand> = {
  setKeepSlots: {
    keepSlots: (keep) => (isRecord(keep) && isFlag(keep.pc) && isFlag(keep.npc) ? { pc: keep.pc, npc: keep.npc } : BAD),
  },
  recordCheck: { combatantId: ID_FIELD, primary: SCORE, secondary: SCORE, typed: TYPED_FIELD, skill: optional(isId) },
  claimSlot: { slot: SLOT, combatantId: ID_FIELD },
  fillSlot: { slot: SLOT, combatantId: ID_FIELD },
  releaseClaim: { slot: SLOT },
  start: {},
  nextTurn: {},
  nextRound: {},
};

function parseCommand(data: unknown): SlotsCommand | null {
  return parseByTable(data, COMMANDS);
}

// ---------------------------------------------------------------------------------------------
// The mode
// ---------------------------------------------------------------------------------------------

function create(roster: readonly RosterEntry[]): SlotsState {
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

/** Initiative slots (RULES.md §4): checks, PC and NPC slots with the names dropped, claims and fills. */
/** The acting turn: a filled slot, named by round, slot and filler; an open slot is nobody's turn. */
export function slotsTurnKey(state: SlotsState): string | null {
  const filler = state.started ? fillerOf(state) : null;
  return filler === null ? null : `${state.round}:slot${String(state.slotIndex)}:${filler}`;
}

export const slotsMode: ModeDefinition<SlotsState, SlotsCommand> = {
  id: "slots",
  create,
  apply: applyCommand,
  view,
  allowed: slotsAllowed,
  isRosterCommand: (command) => command.type === "addCombatant" || command.type === "removeCombatant",
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: slotsTurnKey,
};
