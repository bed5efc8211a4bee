/** The sides mode's round flow: a new encounter's state, the steps of a round and what moves it on. */
import type { RosterEntry, RuleEvent } from "../../../core/engine";
import { findById, oncePerId, without } from "../../../core/common";
import {
  type SidesState,
  type HeldFacts,
  type Declaration,
  type SidesCombatant,
  DEFAULT_MAX_ACTIONS,
  DEFAULT_MAX_REACTIONS,
  DEFAULT_ACTION_PENALTY,
} from "./types";
import {
  declaringSides,
  slowedWaiting,
  activeSides,
  sidesToRoll,
  pendingSideTies,
  currentDeclarer,
  passCurrent,
  currentFacts,
  naturalOrder,
  factsOf,
} from "./derived";

/** What a round records, empty (fresh arrays): each new round, and a new encounter, starts from these. */
function roundRecords() {
  return {
    pass: 0,
    rolls: [],
    sideTieOrders: [],
    sideOrder: [],
    declarations: [],
    done: [],
    due: [],
    slowed: [],
    held: [],
    lost: [],
    tieOrders: [],
  } satisfies Partial<SidesState>;
}

export function startRound(state: SidesState, round: number, events: RuleEvent[]): SidesState {
  events.push({ type: "roundStarted", round });
  return {
    ...state,
    round,
    step: "initiative",
    ...roundRecords(),
  };
}

function beginDeclaration(state: SidesState, events: RuleEvent[]): SidesState {
  const sideOrder = declaringSides(state);
  events.push({ type: "sidesOrdered", round: state.round }, { type: "declarationStarted", round: state.round });
  return { ...state, step: "declaration", sideOrder, held: [] };
}

/** Pass `k` begins with every character with at least k declared actions; with none, the next round. */
function beginPass(state: SidesState, k: number, events: RuleEvent[]): SidesState {
  const actors = state.declarations.filter((d) => !d.hesitated && d.actions.length >= k);
  if (actors.length === 0) return startRound(state, state.round + 1, events);
  events.push({ type: "passStarted", round: state.round });
  // The pass is ordered by the facts of its start: what was held for the step before is let go.
  return { ...state, step: "pass", pass: k, done: [], due: [], slowed: [], held: [] };
}

/** The pass ends: slowed actions still waiting are lost (their penalty stands); the next pass begins. */
function endPass(state: SidesState, events: RuleEvent[]): SidesState {
  const waiting = slowedWaiting(state);
  for (const entry of waiting) {
    events.push({ type: "slowedActionLost", round: state.round, combatantId: entry.combatantId });
  }
  const lost = [...state.lost, ...waiting.map((entry) => ({ combatantId: entry.combatantId, pass: state.pass }))];
  return beginPass({ ...state, lost }, state.pass + 1, events);
}

/** Whether every side with members has rolled and no tie waits for the GM. */
function initiativeComplete(state: SidesState): boolean {
  return activeSides(state).length > 0 && sidesToRoll(state).length === 0 && pendingSideTies(state).length === 0;
}

/** Take every step that needs nobody: all sides rolled, everyone declared, a pass run out. */
export function settle(state: SidesState, events: RuleEvent[]): SidesState {
  if (!state.started) return state;
  if (state.step === "initiative" && initiativeComplete(state)) return settle(beginDeclaration(state, events), events);
  if (state.step === "declaration" && currentDeclarer(state) === null)
    return settle(beginPass(state, 1, events), events);
  if (state.step === "pass" && passCurrent(state) === null) return settle(endPass(state, events), events);
  return state;
}

/**
 * The current actor's action is done (or, `lost`, its moment passed without it acting: the action is
 * lost and its penalty stands); characters slowed to follow it act next, in the order they slowed.
 */
export function finishAction(state: SidesState, events: RuleEvent[], lost = false): SidesState {
  const current = passCurrent(state);
  if (current === null) return state;
  events.push({ type: lost ? "slowedActionLost" : "actionTaken", round: state.round, combatantId: current });
  const followers = slowedWaiting(state)
    .filter((entry) => entry.after === current)
    .map((entry) => entry.combatantId);
  return {
    ...state,
    done: [...state.done, current],
    // The followers act next, before any earlier follower still due.
    due: [...followers, ...without(state.due, current)],
    lost: lost ? [...state.lost, { combatantId: current, pass: state.pass }] : state.lost,
  };
}

/** Who declares or acts now. */
export function currentOf(state: SidesState): string | null {
  return currentDeclarer(state) ?? passCurrent(state);
}

/**
 * Keep a combatant's facts as they are before a side or trait change in the declaration step or a
 * pass, the first time they change there: the running step's orders keep using them.
 */
export function holdFacts(state: SidesState, combatantId: string): SidesState {
  if (!state.started || (state.step !== "declaration" && state.step !== "pass")) return state;
  const c = findById(state.combatants, combatantId);
  if (c === undefined || state.held.some((h) => h.combatantId === combatantId)) return state;
  return { ...state, held: [...state.held, currentFacts(c)] };
}

/** `tied` with each of `ids` holding the pass facts of the place it takes in `state`'s pass order. */
export function fillTiedPlaces(state: SidesState, tied: SidesState, ids: readonly string[]): SidesState {
  const places = naturalOrder(state).filter((id) => ids.includes(id));
  const facts = new Map<string, HeldFacts>();
  ids.forEach((id, i) => {
    const c = findById(state.combatants, id);
    const from = findById(state.combatants, places[i] ?? id);
    if (c === undefined || from === undefined) return;
    const f = factsOf(state, from);
    facts.set(id, { combatantId: id, sideId: c.sideId, dexterity: f.dexterity, perception: f.perception });
  });
  const kept = tied.held.filter((h) => !facts.has(h.combatantId));
  return { ...tied, held: [...kept, ...ids.flatMap((id) => facts.get(id) ?? [])] };
}

export function updateDeclaration(state: SidesState, id: string, change: (d: Declaration) => Declaration): SidesState {
  return { ...state, declarations: state.declarations.map((d) => (d.combatantId === id ? change(d) : d)) };
}

export function withoutId(records: readonly (readonly string[])[], id: string): (readonly string[])[] {
  return records.map((record) => without(record, id)).filter((record) => record.length > 1);
}

export function newCombatant(entry: RosterEntry): SidesCombatant {
  return {
    id: entry.id,
    name: entry.name,
    isPC: entry.isPC,
    sideId: null,
    dexterity: null,
    perception: null,
    initiativeScore: null,
  };
}

export function create(roster: readonly RosterEntry[]): SidesState {
  const combatants = oncePerId(roster, newCombatant);
  return {
    combatants,
    sides: [],
    maxActions: DEFAULT_MAX_ACTIONS,
    maxReactions: DEFAULT_MAX_REACTIONS,
    actionPenalty: DEFAULT_ACTION_PENALTY,
    started: false,
    round: 0,
    step: "setup",
    ...roundRecords(),
  };
}
