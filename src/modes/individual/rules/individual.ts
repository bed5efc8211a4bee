/**
 * The `individual` mode (RULES.md §2): every combatant makes one initiative check at the start of
 * the battle and all act from the highest result to the lowest, in that same order every round.
 *
 * - Ties: the higher initiative modifier acts first; still tied → a roll-off between exactly those
 *   tied. Roll-off results are kept (compared in the sequence they were made), so a roll-off that
 *   ties again is followed by another one between those still tied.
 * - Group checks: the GM rolls one check for a named group of NPCs; the group ranks with the lowest
 *   modifier of its members and its members act one after the other.
 * - Joining: a combatant added after the start has no turn until it rolls; it is then inserted at the
 *   place its result gives in the stored order, and acts this round if that place is still to come.
 * - Surprise round: only combatants marked aware act in round 1; every combatant present at the
 *   start is flat-footed until its first regular (non-surprise) turn begins.
 * - Delay and ready move a combatant; the order is stored state, so the new place holds.
 *
 * Invariants of a started state:
 * - `order` holds each placed combatant once. A combatant that is delaying is *not* in `order` (it is
 *   in `delaying`); a joiner that has not rolled, or whose place waits on a roll-off, is in neither.
 * - `current`, when not null, is in `order`. Combatants in `acted` that stand after `current` in
 *   `order` are the ones whose turn was interrupted (by a delayer or a readied action): when the turn
 *   comes back to them it resumes, and is not a new turn.
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
  dispatch,
  type Handlers,
  canControl,
  findById,
  updateCombatant,
  insertAt,
  isFiniteNumber,
  isId,
  isRecord,
  isText,
  oncePerId,
  parseByTable,
  required,
  absentOr,
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

/** A combatant as the individual mode tracks it (`typed`: its initiative was typed by the GM). */
export interface IndividualCombatant extends TypedMark {
  readonly id: string;
  readonly name: string;
  /** Has a player owner. */
  readonly isPC: boolean;
  /** The initiative check result; null until rolled. A group member holds its group's total. */
  readonly initiative: number | null;
  /** The initiative check modifier; null until known. */
  readonly modifier: number | null;
  /** The initiative group (NPCs only), or null. */
  readonly groupId: string | null;
  /** Marked aware by the GM: acts in a surprise round. */
  readonly aware: boolean;
  /** Marked defeated. */
  readonly defeated: boolean;
  /** The trigger text of a readied action, or null. */
  readonly ready: string | null;
}

/** One combatant's result in a roll-off. */
export interface RollOffResult {
  readonly combatantId: string;
  readonly total: number;
}

/** A combatant that has delayed: out of the order until it acts. */
export interface DelayEntry {
  readonly combatantId: string;
  /** Resume automatically right after this combatant's turn ends; null: only on request or at the round's end. */
  readonly after: string | null;
}

/** The individual mode's state. Plain JSON data; never mutated. */
export interface IndividualState {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly IndividualCombatant[];
  /**
   * Every roll-off, oldest first. A group's result is recorded for each of its members. Two tied
   * combatants are ordered by the first roll-off in which both took part and got different totals.
   */
  readonly rollOffs: readonly (readonly RollOffResult[])[];
  /** Defeated combatants get no turn. */
  readonly skipDefeated: boolean;
  readonly started: boolean;
  /** 0 before the start; a surprise round is round 1. */
  readonly round: number;
  /** The battle began with a surprise round. */
  readonly surpriseBattle: boolean;
  /** The current round is the surprise round. */
  readonly surpriseRound: boolean;
  /** The stored turn order (empty before the start: the order is derived until then). */
  readonly order: readonly string[];
  /** Who acts now. */
  readonly current: string | null;
  /** Whose turn has begun this round. */
  readonly acted: readonly string[];
  /** Who has delayed or readied this round (at most once a round). */
  readonly waited: readonly string[];
  /** Who is delaying now, in the order they delayed. */
  readonly delaying: readonly DelayEntry[];
  /** Who is still flat-footed (present at the start of a surprise battle, no regular turn yet). */
  readonly flatFooted: readonly string[];
  /** Whose place in the order comes from a delay or a readied action (not from the initiative). */
  readonly moved: readonly string[];
}

/** Commands of the individual mode. */
export type IndividualCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean }
  | { readonly type: "setSkipDefeated"; readonly skip: boolean }
  | {
      readonly type: "recordInitiative";
      readonly combatantId: string;
      readonly total: number;
      readonly modifier: number;
      /** Typed, not rolled (set by the authority; only the GM may). */
      readonly typed?: boolean;
    }
  | {
      readonly type: "setGroup";
      readonly combatantId: string;
      /** The group to join; null leaves any group. */
      readonly groupId: string | null;
      /** The member's own initiative modifier (required to join a group: the group uses the lowest). */
      readonly modifier?: number;
    }
  | {
      readonly type: "recordGroupInitiative";
      readonly groupId: string;
      readonly total: number;
      readonly typed?: boolean;
    }
  | {
      readonly type: "recordRollOff";
      /** One result per tied combatant; a group is named by any one of its members. */
      readonly results: readonly RollOffResult[];
    }
  | { readonly type: "setAware"; readonly combatantId: string; readonly aware: boolean }
  | { readonly type: "start"; readonly surprise?: boolean }
  | { readonly type: "nextTurn" }
  | { readonly type: "nextRound" }
  | { readonly type: "delay"; readonly combatantId: string; readonly after?: string | null }
  | { readonly type: "endDelay"; readonly combatantId: string }
  | { readonly type: "ready"; readonly combatantId: string; readonly trigger: string }
  | { readonly type: "triggerReady"; readonly combatantId: string };

/** The `type` of every individual-mode command. */
export type IndividualCommandType = IndividualCommand["type"];

/** Events the individual mode emits (`RuleEvent.type`). */
export const INDIVIDUAL_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "defeatedChanged",
  "initiativeRecorded",
  "groupChanged",
  "rollOffRecorded",
  "awareChanged",
  "enteredOrder",
  "combatStarted",
  "roundStarted",
  "turnStarted",
  "turnResumed",
  "flatFootedEnded",
  "delayed",
  "delayEnded",
  "readied",
  "readyTriggered",
  "readyLapsed",
] as const;
/** One individual-mode event type. */
export type IndividualEventType = (typeof INDIVIDUAL_EVENTS)[number];

/** Step keys of `TurnView.step` in this mode. */
export type IndividualStep = "setup" | "surprise" | "round";

// ---------------------------------------------------------------------------------------------
// Units: a combatant alone, or a whole group, ranks as one
// ---------------------------------------------------------------------------------------------

interface Unit {
  /** The member that stands for the unit in roll-offs (the group's first member). */
  readonly rep: string;
  readonly members: readonly string[];
  readonly groupId: string | null;
  readonly initiative: number | null;
  readonly modifier: number;
  /** Position of the representative in the roster: the last tie-break, for display only. */
  readonly joinIndex: number;
}

function unitsOf(state: IndividualState): Unit[] {
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

function unitOf(state: IndividualState, combatantId: string): Unit | undefined {
  return unitsOf(state).find((u) => u.members.includes(combatantId));
}

/** Whether `a` won a roll-off against `b` (the first roll-off both took part in that split them). */
function wonRollOff(state: IndividualState, a: Unit, b: Unit): boolean {
  for (const record of state.rollOffs) {
    const ra = record.find((r) => r.combatantId === a.rep);
    const rb = record.find((r) => r.combatantId === b.rep);
    if (ra !== undefined && rb !== undefined && ra.total !== rb.total) return ra.total > rb.total;
  }
  return false;
}

/** Negative: `a` acts first; positive: `b` first; 0: tied (a roll-off is needed). Both must have rolled. */
function compareUnits(state: IndividualState, a: Unit, b: Unit): number {
  const byInitiative = (b.initiative ?? 0) - (a.initiative ?? 0);
  if (byInitiative !== 0) return byInitiative;
  const byModifier = b.modifier - a.modifier;
  if (byModifier !== 0) return byModifier;
  if (wonRollOff(state, a, b)) return -1;
  if (wonRollOff(state, b, a)) return 1;
  return 0;
}

interface Derived {
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
function deriveOrder(state: IndividualState): Derived {
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

/** Live combatants of a started battle that are neither in the order nor delaying. */
function unplaced(state: IndividualState): IndividualCombatant[] {
  if (!state.started) return [];
  const placed = new Set(state.order);
  for (const d of state.delaying) placed.add(d.combatantId);
  return state.combatants.filter((c) => !placed.has(c.id));
}

type Placement = { readonly index: number } | { readonly tiedWith: Unit };

/** Where a rolled joiner goes in the stored order: before the first combatant it beats. */
function placement(state: IndividualState, joiner: Unit): Placement {
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

/** Insert every rolled joiner whose place is decided. */
function placeJoiners(state: IndividualState, events: RuleEvent[]): IndividualState {
  let s = state;
  for (const c of unplaced(state)) {
    if (c.initiative === null) continue;
    const unit = unitOf(s, c.id);
    if (unit === undefined) continue;
    const where = placement(s, unit);
    if (!("index" in where)) continue;
    s = { ...s, order: insertAt(s.order, where.index, c.id) };
    events.push({ type: "enteredOrder", round: s.round, combatantId: c.id });
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Derived helpers for the tracker
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Turn flow
// ---------------------------------------------------------------------------------------------

function eligible(state: IndividualState, id: string): boolean {
  const c = findById(state.combatants, id);
  if (c === undefined) return false;
  if (state.surpriseRound && !c.aware) return false;
  return !(state.skipDefeated && c.defeated);
}

/** Make `id` current. A combatant whose turn already began this round resumes it; else its turn begins. */
function beginTurn(state: IndividualState, id: string, events: RuleEvent[]): IndividualState {
  if (state.acted.includes(id)) {
    events.push({ type: "turnResumed", round: state.round, combatantId: id });
    return { ...state, current: id };
  }
  let s = state;
  const c = findById(s.combatants, id);
  if (c !== undefined && c.ready !== null) {
    s = updateCombatant(s, id, (x) => ({ ...x, ready: null }));
    events.push({ type: "readyLapsed", round: s.round, combatantId: id });
  }
  s = { ...s, current: id, acted: withItem(s.acted, id) };
  events.push({ type: "turnStarted", round: s.round, combatantId: id });
  if (!s.surpriseRound && s.flatFooted.includes(id)) {
    s = { ...s, flatFooted: without(s.flatFooted, id) };
    events.push({ type: "flatFootedEnded", round: s.round, combatantId: id });
  }
  return s;
}

function startRound(
  state: IndividualState,
  round: number,
  surpriseRound: boolean,
  events: RuleEvent[],
): IndividualState {
  const s: IndividualState = { ...state, round, surpriseRound, current: null, acted: [], waited: [] };
  events.push({ type: "roundStarted", round });
  const first = s.order.find((id) => eligible(s, id));
  return first === undefined ? s : beginTurn(s, first, events);
}

/** Put every delayer at the end of the order (they act last in the round). */
function appendDelayers(state: IndividualState, events: RuleEvent[]): IndividualState {
  if (state.delaying.length === 0) return state;
  for (const d of state.delaying) events.push({ type: "delayEnded", round: state.round, combatantId: d.combatantId });
  return { ...state, order: [...state.order, ...delayingIds(state)], delaying: [] };
}

/** The next eligible combatant at or after `index` acts; when the round runs out, delayers act last, then a new round begins. */
function continueFrom(state: IndividualState, index: number, events: RuleEvent[]): IndividualState {
  for (let i = Math.max(index, 0); i < state.order.length; i++) {
    const id = state.order[i];
    if (id !== undefined && eligible(state, id)) return beginTurn(state, id, events);
  }
  if (state.delaying.length > 0) {
    return continueFrom(appendDelayers(state, events), state.order.length, events);
  }
  return startRound(state, state.round + 1, false, events);
}

/** The current combatant's turn ends: delayers waiting for it resume, then the next one acts. */
function endTurn(state: IndividualState, events: RuleEvent[]): IndividualState {
  const current = state.current;
  const index = current === null ? -1 : state.order.indexOf(current);
  if (current === null || index < 0) return continueFrom({ ...state, current: null }, state.order.length, events);
  const waiting = state.delaying.filter((d) => d.after === current);
  let s = state;
  if (waiting.length > 0) {
    for (const d of waiting) events.push({ type: "delayEnded", round: s.round, combatantId: d.combatantId });
    s = {
      ...s,
      order: insertAt(s.order, index + 1, ...waiting.map((d) => d.combatantId)),
      delaying: s.delaying.filter((d) => d.after !== current),
    };
  }
  return continueFrom(s, index + 1, events);
}

/** Move `id` into the order just before the current combatant (or at the end) and make it current. */
function actNow(state: IndividualState, id: string): IndividualState {
  const order = without(state.order, id);
  const at = state.current === null ? order.length : order.indexOf(state.current);
  return { ...state, order: insertAt(order, at < 0 ? order.length : at, id), current: id };
}

function turnOutcome(
  before: IndividualState,
  after: IndividualState,
  events: readonly RuleEvent[],
): Outcome<IndividualState> {
  return accept(after, events, stepKind(before.round, after.round));
}

function removeRollOffEntries(
  rollOffs: IndividualState["rollOffs"],
  ids: readonly string[],
): IndividualState["rollOffs"] {
  if (ids.length === 0) return rollOffs;
  return rollOffs
    .map((record) => record.filter((r) => !ids.includes(r.combatantId)))
    .filter((record) => record.length >= 2);
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

function newCombatant(entry: RosterEntry): IndividualCombatant {
  return {
    id: entry.id,
    name: entry.name,
    isPC: entry.isPC,
    initiative: null,
    modifier: null,
    groupId: null,
    aware: false,
    defeated: false,
    ready: null,
  };
}

const handlers: Handlers<IndividualState, IndividualCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    if (!who.isGM) return refuse("notGM");
    const gone = findById(state.combatants, combatantId);
    if (gone === undefined) return refuse("unknownCombatant", combatantId);
    const events: RuleEvent[] = [{ type: "combatantRemoved", round: state.round, combatantId }];
    // Its group ranks differently without it: that group's roll-offs no longer apply.
    const cleared = gone.groupId === null ? [combatantId] : [...groupMembers(state, gone.groupId)];
    const index = state.order.indexOf(combatantId);
    let s: IndividualState = {
      ...state,
      combatants: state.combatants.filter((c) => c.id !== combatantId),
      rollOffs: removeRollOffEntries(state.rollOffs, cleared),
      order: without(state.order, combatantId),
      acted: without(state.acted, combatantId),
      waited: without(state.waited, combatantId),
      flatFooted: without(state.flatFooted, combatantId),
      moved: without(state.moved, combatantId),
      delaying: state.delaying
        .filter((d) => d.combatantId !== combatantId)
        .map((d) => (d.after === combatantId ? { combatantId: d.combatantId, after: null } : d)),
      current: state.current === combatantId ? null : state.current,
    };
    // The one acting is gone: the next in the order acts (a new round if it was the last).
    if (state.started && state.current === combatantId) s = continueFrom(s, index, events);
    return accept(s, events);
  },

  setDefeated(state, { combatantId, defeated }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    const s = updateCombatant(state, combatantId, (c) => ({ ...c, defeated }));
    return accept(s, [{ type: "defeatedChanged", round: s.round, combatantId }]);
  },

  setSkipDefeated(state, { skip }, who) {
    if (!who.isGM) return refuse("notGM");
    return accept({ ...state, skipDefeated: skip });
  },

  recordInitiative(state, { combatantId, total, modifier, typed }, who) {
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (typed === true && !who.isGM) return refuse("typedResult", combatantId);
    if (!isFiniteNumber(total) || !isFiniteNumber(modifier)) return refuse("invalidValue", combatantId);
    if (c.groupId !== null) return refuse("inGroup", combatantId);
    // After the start only a joiner that has not rolled may roll.
    if (state.started && (c.initiative !== null || state.order.includes(combatantId))) {
      return refuse("alreadyStarted", combatantId);
    }
    // Players roll once, as in core; only the GM rolls again (the earlier roll stays in chat).
    if (!who.isGM && c.initiative !== null) return refuse("rerollGMOnly", combatantId);
    const events: RuleEvent[] = [{ type: "initiativeRecorded", round: state.round, combatantId }];
    let s = updateCombatant(state, combatantId, (x) => markTyped({ ...x, initiative: total, modifier }, typed));
    s = { ...s, rollOffs: removeRollOffEntries(s.rollOffs, [combatantId]) };
    return accept(s, events);
  },

  setGroup(state, { combatantId, groupId, modifier }, who) {
    if (!who.isGM) return refuse("notGM");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (state.started) return refuse("alreadyStarted");
    if (c.isPC) return refuse("notNPC", combatantId);
    if (groupId !== null && (!isId(groupId) || !isFiniteNumber(modifier))) return refuse("invalidValue", combatantId);
    const others = groupId === null ? [] : groupMembers(state, groupId).filter((id) => id !== combatantId);
    const first = others[0] === undefined ? undefined : findById(state.combatants, others[0]);
    // A member takes its group's total (or none yet); leaving a group means rolling alone.
    const initiative = groupId === null ? null : (first?.initiative ?? null);
    const cleared = [combatantId, ...others, ...(c.groupId === null ? [] : groupMembers(state, c.groupId))];
    let s = updateCombatant(state, combatantId, (x) =>
      markTyped(
        { ...x, groupId, initiative, modifier: modifier === undefined ? x.modifier : modifier },
        initiative !== null && first?.typed === true,
      ),
    );
    s = { ...s, rollOffs: removeRollOffEntries(s.rollOffs, cleared) };
    return accept(s, [{ type: "groupChanged", round: s.round, combatantId }]);
  },

  recordGroupInitiative(state, { groupId, total, typed }, who) {
    if (!who.isGM) return refuse("notGM");
    const members = groupMembers(state, groupId);
    if (members.length === 0) return refuse("unknownGroup");
    if (state.started) return refuse("alreadyStarted");
    if (!isFiniteNumber(total)) return refuse("invalidValue");
    let s: IndividualState = {
      ...state,
      combatants: state.combatants.map((c) =>
        c.groupId === groupId ? markTyped({ ...c, initiative: total }, typed) : c,
      ),
    };
    s = { ...s, rollOffs: removeRollOffEntries(s.rollOffs, members) };
    return accept(
      s,
      members.map((combatantId) => ({ type: "initiativeRecorded", round: s.round, combatantId })),
    );
  },

  recordRollOff(state, { results }, who) {
    const first = results[0];
    if (first === undefined) return refuse("notTied");
    for (const r of results) {
      if (findById(state.combatants, r.combatantId) === undefined) return refuse("unknownCombatant", r.combatantId);
    }
    for (const r of results) {
      if (!canControl(who, r.combatantId)) return refuse("notOwner", r.combatantId);
    }
    const units = unitsOf(state);
    const reps: string[] = [];
    const record: RollOffResult[] = [];
    for (const r of results) {
      const unit = units.find((u) => u.members.includes(r.combatantId));
      if (!isFiniteNumber(r.total) || unit === undefined || reps.includes(unit.rep)) {
        return refuse("invalidValue", r.combatantId);
      }
      reps.push(unit.rep);
      for (const member of unit.members) record.push({ combatantId: member, total: r.total });
    }
    const matches = pendingRollOffs(state).some(
      (set) => set.length === reps.length && set.every((id) => reps.includes(id)),
    );
    if (!matches) return refuse("notTied", first.combatantId);
    const events: RuleEvent[] = [{ type: "rollOffRecorded", round: state.round, combatantId: first.combatantId }];
    return accept({ ...state, rollOffs: [...state.rollOffs, record] }, events);
  },

  setAware(state, { combatantId, aware }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (state.started) return refuse("alreadyStarted");
    const s = updateCombatant(state, combatantId, (c) => ({ ...c, aware }));
    return accept(s, [{ type: "awareChanged", round: s.round, combatantId }]);
  },

  start(state, { surprise = false }, who) {
    if (!who.isGM) return refuse("notGM");
    if (state.started) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    const missing = state.combatants.find((c) => c.initiative === null);
    if (missing !== undefined) return refuse("initiativeMissing", missing.id);
    const derived = deriveOrder(state);
    const tie = derived.pending[0]?.[0];
    if (tie !== undefined) return refuse("rollOffPending", tie.rep);
    if (surprise && !state.combatants.some((c) => c.aware)) return refuse("notAware");
    const events: RuleEvent[] = [{ type: "combatStarted", round: 1 }];
    const s: IndividualState = {
      ...state,
      started: true,
      surpriseBattle: surprise,
      order: derived.units.flatMap((u) => u.members),
      flatFooted: surprise ? state.combatants.map((c) => c.id) : [],
    };
    return accept(startRound(s, 1, surprise, events), events, "round");
  },

  nextTurn(state, _command, who) {
    if (!state.started) return refuse("notStarted");
    if (!who.isGM && state.current === null) return refuse("notYourTurn");
    // Someone else's combatant is acting: the reason is ownership, not whose turn it is.
    if (!who.isGM && state.current !== null && !who.owns.includes(state.current))
      return refuse("notOwner", state.current);
    const events: RuleEvent[] = [];
    return turnOutcome(state, endTurn(state, events), events);
  },

  nextRound(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    const events: RuleEvent[] = [];
    const s = startRound(appendDelayers(state, events), state.round + 1, false, events);
    return accept(s, events, "round");
  },

  delay(state, { combatantId, after = null }, who) {
    if (!state.started) return refuse("notStarted");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (state.current !== combatantId) return refuse("notYourTurn", combatantId);
    if (state.waited.includes(combatantId)) return refuse("alreadyWaiting", combatantId);
    const index = state.order.indexOf(combatantId);
    if (after !== null) {
      if (findById(state.combatants, after) === undefined) return refuse("unknownCombatant", after);
      const at = state.order.indexOf(after);
      if (after === combatantId || at < 0) return refuse("invalidValue", after);
      if (at < index || state.acted.includes(after)) return refuse("alreadyActed", after);
    }
    const events: RuleEvent[] = [{ type: "delayed", round: state.round, combatantId }];
    const s: IndividualState = {
      ...state,
      order: without(state.order, combatantId),
      delaying: [...state.delaying, { combatantId, after }],
      waited: withItem(state.waited, combatantId),
      moved: withItem(state.moved, combatantId),
      current: null,
    };
    return turnOutcome(state, continueFrom(s, index, events), events);
  },

  endDelay(state, { combatantId }, who) {
    if (!state.started) return refuse("notStarted");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (!state.delaying.some((d) => d.combatantId === combatantId)) return refuse("notDelaying", combatantId);
    const events: RuleEvent[] = [{ type: "delayEnded", round: state.round, combatantId }];
    const placed: IndividualState = {
      ...actNow(state, combatantId),
      delaying: state.delaying.filter((d) => d.combatantId !== combatantId),
    };
    // Its turn began before it delayed: this resumes it.
    return turnOutcome(state, beginTurn({ ...placed, current: null }, combatantId, events), events);
  },

  ready(state, { combatantId, trigger }, who) {
    if (!state.started) return refuse("notStarted");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (state.current !== combatantId) return refuse("notYourTurn", combatantId);
    if (!isText(trigger) || trigger.trim() === "") return refuse("invalidValue", combatantId);
    if (state.waited.includes(combatantId)) return refuse("alreadyWaiting", combatantId);
    const events: RuleEvent[] = [{ type: "readied", round: state.round, combatantId }];
    let s = updateCombatant(state, combatantId, (c) => ({ ...c, ready: trigger.trim() }));
    s = { ...s, waited: withItem(s.waited, combatantId) };
    return turnOutcome(state, endTurn(s, events), events);
  },

  triggerReady(state, { combatantId }, who) {
    if (!state.started) return refuse("notStarted");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (c.ready === null || !state.order.includes(combatantId)) return refuse("notReady", combatantId);
    const events: RuleEvent[] = [{ type: "readyTriggered", round: state.round, combatantId }];
    let s = updateCombatant(actNow(state, combatantId), combatantId, (x) => ({ ...x, ready: null }));
    s = { ...s, moved: withItem(s.moved, combatantId) };
    if (!s.acted.includes(combatantId)) {
      // Triggered before its own turn this round came up: this is its turn for the round.
      s = beginTurn({ ...s, current: null }, combatantId, events);
    }
    return turnOutcome(state, s, events);
  },
};

function applyCommand(state: IndividualState, command: IndividualCommand, who: Requester): Outcome<IndividualState> {
  const outcome = applyHandler(state, command, who);
  if (!outcome.ok || !outcome.state.started) return outcome;
  // Any change to the order (a delay, a removal, a roll-off) can decide where a rolled joiner goes.
  const events = [...outcome.events];
  const placed = placeJoiners(outcome.state, events);
  if (placed === outcome.state) return outcome;
  return accept(placed, events, outcome.step);
}

function applyHandler(state: IndividualState, command: IndividualCommand, who: Requester): Outcome<IndividualState> {
  return dispatch(handlers, state, command, who);
}

// ---------------------------------------------------------------------------------------------
// View and allowed actions
// ---------------------------------------------------------------------------------------------

function viewOrder(state: IndividualState): string[] {
  if (!state.started) {
    const ranked = deriveOrder(state).units.flatMap((u) => u.members);
    return [...ranked, ...state.combatants.filter((c) => !ranked.includes(c.id)).map((c) => c.id)];
  }
  return [...state.order, ...delayingIds(state), ...unplaced(state).map((c) => c.id)];
}

function view(state: IndividualState): TurnView {
  const step: IndividualStep = !state.started ? "setup" : state.surpriseRound ? "surprise" : "round";
  return {
    started: state.started,
    round: state.round,
    step,
    order: viewOrder(state),
    current: state.current,
    next: state.started ? endTurn(state, []).current : null,
  };
}

function probes(state: IndividualState, who: Requester): { action: AllowedAction; command: IndividualCommand }[] {
  const list: { action: AllowedAction; command: IndividualCommand }[] = [
    { action: { type: "start" }, command: { type: "start", surprise: false } },
    { action: { type: "start" }, command: { type: "start", surprise: true } },
    { action: { type: "nextTurn" }, command: { type: "nextTurn" } },
    { action: { type: "nextRound" }, command: { type: "nextRound" } },
  ];
  for (const c of state.combatants) {
    const combatantId = c.id;
    // Every per-combatant command needs the GM or the combatant's owner: skip the rest untried.
    if (!canControl(who, combatantId)) continue;
    const on = (command: IndividualCommand): { action: AllowedAction; command: IndividualCommand } => ({
      action: { type: command.type, combatantId },
      command,
    });
    list.push(
      on({ type: "recordInitiative", combatantId, total: 0, modifier: 0 }),
      on({ type: "setGroup", combatantId, groupId: c.groupId ?? "group", modifier: c.modifier ?? 0 }),
      on({ type: "setAware", combatantId, aware: !c.aware }),
      on({ type: "delay", combatantId }),
      on({ type: "endDelay", combatantId }),
      on({ type: "ready", combatantId, trigger: "trigger" }),
      on({ type: "triggerReady", combatantId }),
    );
  }
  for (const groupId of groupIds(state)) {
    list.push({
      action: { type: "recordGroupInitiative", groupId },
      command: { type: "recordGroupInitiative", groupId, total: 0 },
    });
  }
  for (const set of pendingRollOffs(state)) {
    const results = set.map((combatantId, i) => ({ combatantId, total: i }));
    const combatantId = set[0];
    list.push({
      action: combatantId === undefined ? { type: "recordRollOff" } : { type: "recordRollOff", combatantId },
      command: { type: "recordRollOff", results },
    });
  }
  if (who.isGM) {
    list.push({
      action: { type: "setSkipDefeated" },
      command: { type: "setSkipDefeated", skip: !state.skipDefeated },
    });
  }
  return list;
}

function allowed(state: IndividualState, who: Requester): readonly AllowedAction[] {
  const given: AllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  // Removing a combatant or marking it defeated is the GM's, for any known combatant: listed without a
  // trial apply, because each apply rebuilds the state and trying them for every row made this quadratic.
  if (who.isGM) {
    for (const c of state.combatants) {
      given.push({ type: "setDefeated", combatantId: c.id }, { type: "removeCombatant", combatantId: c.id });
    }
  }
  // A command the handler accepts is accepted: what follows (settling the steps that need nobody)
  // never refuses, so each trial stops at the handler, as in the sides rules.
  return allowedByTrial(state, who, given, probes(state, who), applyHandler);
}

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

function parseResults(data: unknown): RollOffResult[] | null {
  if (!Array.isArray(data) || data.length === 0 || data.length > 100) return null;
  const results: RollOffResult[] = [];
  for (const item of data as readonly unknown[]) {
    if (!isRecord(item) || !isId(item.combatantId) || !isFiniteNumber(item.total)) return null;
    results.push({ combatantId: item.combatantId, total: item.total });
  }
  return results;
}

const FINITE: FieldReader<number> = required(isFiniteNumber);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<IndividualCommand> = {
  endDelay: { combatantId: ID_FIELD },
  triggerReady: { combatantId: ID_FIELD },
  setSkipDefeated: { skip: required(isFlag) },
  recordInitiative: { combatantId: ID_FIELD, total: FINITE, modifier: FINITE, typed: TYPED_FIELD },
  setGroup: {
    combatantId: ID_FIELD,
    // No group (null or absent) leaves any group; joining one needs the member's modifier.
    groupId: (value) => (value === null || value === undefined ? null : isId(value) ? value : BAD),
    modifier: (value, d) => (d.groupId === null || d.groupId === undefined ? undefined : FINITE(value, d)),
  },
  recordGroupInitiative: { groupId: ID_FIELD, total: FINITE, typed: TYPED_FIELD },
  recordRollOff: { results: (value) => parseResults(value) ?? BAD },
  setAware: { combatantId: ID_FIELD, aware: required(isFlag) },
  start: { surprise: absentOr(isFlag, false) },
  nextTurn: {},
  nextRound: {},
  delay: {
    combatantId: ID_FIELD,
    after: (value) => (value === undefined || value === null ? null : isId(value) ? value : BAD),
  },
  ready: { combatantId: ID_FIELD, trigger: (value) => (isText(value) && value.trim() !== "" ? value : BAD) },
};

function parseCommand(data: unknown): IndividualCommand | null {
  return parseByTable(data, COMMANDS);
}

// ---------------------------------------------------------------------------------------------
// The mode
// ---------------------------------------------------------------------------------------------

function create(roster: readonly RosterEntry[]): IndividualState {
  const combatants = oncePerId(roster, newCombatant);
  return {
    combatants,
    rollOffs: [],
    skipDefeated: false,
    started: false,
    round: 0,
    surpriseBattle: false,
    surpriseRound: false,
    order: [],
    current: null,
    acted: [],
    waited: [],
    delaying: [],
    flatFooted: [],
    moved: [],
  };
}

/** Individual initiative (RULES.md §2): d20 checks, ties, group checks, joining, surprise, delay and ready. */
/** The acting turn: whoever acts now, named by round (surprise or regular) and combatant. */
export function individualTurnKey(state: IndividualState): string | null {
  if (!state.started || state.current === null) return null;
  return `${state.round}:${state.surpriseRound ? "surprise" : "round"}:${state.current}`;
}

export const individualMode: ModeDefinition<IndividualState, IndividualCommand> = {
  id: "individual",
  create,
  apply: applyCommand,
  view,
  allowed,
  isRosterCommand: (command) => command.type === "addCombatant" || command.type === "removeCombatant",
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: individualTurnKey,
};
