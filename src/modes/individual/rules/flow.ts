/** The `individual` turn flow: a fresh state, turns beginning and ending, delayers, new rounds, joiners placed. */

import { accept, type Outcome, type RosterEntry, type RuleEvent } from "../../../core/engine";
import { findById, insertAt, oncePerId, stepKind, updateCombatant, withItem, without } from "../../../core/common";
import type { IndividualCombatant, IndividualState } from "./types";
import { placement, unitOf } from "./ranking";
import { delayingIds, unplaced } from "./derived";

/** Insert every rolled joiner whose place is decided. */
export function placeJoiners(state: IndividualState, events: RuleEvent[]): IndividualState {
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

function eligible(state: IndividualState, id: string): boolean {
  const c = findById(state.combatants, id);
  if (c === undefined) return false;
  if (state.surpriseRound && !c.aware) return false;
  return !(state.skipDefeated && c.defeated);
}

/** Make `id` current. A combatant whose turn already began this round resumes it; else its turn begins. */
export function beginTurn(state: IndividualState, id: string, events: RuleEvent[]): IndividualState {
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

export function startRound(
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
export function appendDelayers(state: IndividualState, events: RuleEvent[]): IndividualState {
  if (state.delaying.length === 0) return state;
  for (const d of state.delaying) events.push({ type: "delayEnded", round: state.round, combatantId: d.combatantId });
  return { ...state, order: [...state.order, ...delayingIds(state)], delaying: [] };
}

/** The next eligible combatant at or after `index` acts; when the round runs out, delayers act last, then a new round begins. */
export function continueFrom(state: IndividualState, index: number, events: RuleEvent[]): IndividualState {
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
export function endTurn(state: IndividualState, events: RuleEvent[]): IndividualState {
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
export function actNow(state: IndividualState, id: string): IndividualState {
  const order = without(state.order, id);
  const at = state.current === null ? order.length : order.indexOf(state.current);
  return { ...state, order: insertAt(order, at < 0 ? order.length : at, id), current: id };
}

export function turnOutcome(
  before: IndividualState,
  after: IndividualState,
  events: readonly RuleEvent[],
): Outcome<IndividualState> {
  return accept(after, events, stepKind(before.round, after.round));
}

export function removeRollOffEntries(
  rollOffs: IndividualState["rollOffs"],
  ids: readonly string[],
): IndividualState["rollOffs"] {
  if (ids.length === 0) return rollOffs;
  return rollOffs
    .map((record) => record.filter((r) => !ids.includes(r.combatantId)))
    .filter((record) => record.length >= 2);
}

export function newCombatant(entry: RosterEntry): IndividualCombatant {
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

export function create(roster: readonly RosterEntry[]): IndividualState {
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
