/** The `declare-resolve` round flow: a new encounter's state, its phases and what moves a round on. */
import type { RosterEntry } from "../../../core/engine";
import { oncePerId, isWhole, updateCombatant } from "../../../core/common";
import {
  type DeclareResolveState,
  type DeclareResolvePhase,
  type DeclareResolveEvent,
  type DeclareResolveCombatant,
  type Conditions,
  type DeclaredAction,
  type Declaration,
  DEFAULT_AP_BUDGET,
  MAX_AP_BUDGET,
} from "./types";
import { rollsNeeded, tiePending, declarationOf, carriedInOf } from "./points";
import { upkeepPreview, expiringIPChanges } from "./resolution";
import { currentStep, currentDeclarer, currentResolver, currentTurn } from "./derived";

export function enterPhase(state: DeclareResolveState, phase: DeclareResolvePhase, events: DeclareResolveEvent[]) {
  const s: DeclareResolveState = { ...state, phase };
  events.push({ type: "stepStarted", round: s.round, step: currentStep(s) });
  return s;
}

/**
 * Round `round` begins. No combatant changes: last round's declarations now count as none, and
 * their long actions as carried in (see {@link declarationOf} and {@link carriedInOf}).
 */
export function startRound(
  state: DeclareResolveState,
  round: number,
  events: DeclareResolveEvent[],
): DeclareResolveState {
  events.push({ type: "roundStarted", round });
  const s: DeclareResolveState = { ...state, round };
  return enterPhase(s, rollsNeeded(s).length > 0 ? "roll" : "declare", events);
}

/** Take every step that needs nobody; nothing moves while a tie waits for the GM. */
export function settle(state: DeclareResolveState, events: DeclareResolveEvent[]): DeclareResolveState {
  let s = state;
  for (;;) {
    if (s.phase === "setup" || s.phase === "upkeep" || tiePending(s)) return s;
    if (s.phase === "roll" && rollsNeeded(s).length === 0) s = enterPhase(s, "declare", events);
    else if (s.phase === "declare" && currentDeclarer(s) === null) s = enterPhase(s, "resolve", events);
    else if (s.phase === "resolve" && currentResolver(s) === null) s = enterPhase(s, "upkeep", events);
    else return s;
  }
}

/** The GM confirms the upkeep: conditions tick, expired IP changes revert, the next round begins. */
function doUpkeep(state: DeclareResolveState, events: DeclareResolveEvent[]): DeclareResolveState {
  const round = state.round;
  for (const entry of upkeepPreview(state)) {
    const { combatantId } = entry;
    events.push({
      type: "upkeepApplied",
      round,
      combatantId,
      hits: entry.hits,
      dazed: entry.dazed.to,
      stunned: entry.stunned.to,
    });
    if (entry.dazed.from > 0 && entry.dazed.to === 0) {
      events.push({ type: "conditionEnded", round, combatantId, condition: "dazed" });
    }
    if (entry.stunned.from > 0 && entry.stunned.to === 0) {
      events.push({ type: "conditionEnded", round, combatantId, condition: "stunned" });
    }
  }
  for (const { combatantId, changeId } of expiringIPChanges(state)) {
    events.push({ type: "ipChangeExpired", round, combatantId, changeId });
  }
  // A combatant the upkeep leaves as it is stays the same object (the stored form's encoding and
  // diff skip it).
  const combatants = state.combatants.map((c): DeclareResolveCombatant => {
    const { bleeding, dazed, stunned } = c.conditions;
    const ticks = !c.defeated && (dazed > 0 || stunned > 0);
    const conditions = ticks
      ? { bleeding, dazed: Math.max(0, dazed - 1), stunned: Math.max(0, stunned - 1) }
      : c.conditions;
    const ipChanges = c.ipChanges.filter((x) => x.lastRound === null || x.lastRound > round);
    const expired = ipChanges.length !== c.ipChanges.length;
    if (!ticks && !expired) return c;
    return { ...c, conditions, ipChanges: expired ? ipChanges : c.ipChanges };
  });
  return startRound({ ...state, combatants }, round + 1, events);
}

/** One "next turn" as the GM gives it: skip the roll, skip the declarer, end the resolver's turn, confirm the upkeep. */
export function advance(state: DeclareResolveState, events: DeclareResolveEvent[]): DeclareResolveState {
  switch (state.phase) {
    case "roll":
      return settle(enterPhase(state, "declare", events), events);
    case "declare": {
      const id = currentDeclarer(state);
      if (id === null) return state;
      events.push({ type: "declarationSkipped", round: state.round, combatantId: id });
      return settle(
        updateCombatant(state, id, (c) => ({ ...c, declaration: newDeclaration(state, c, [], 0, true) })),
        events,
      );
    }
    case "resolve": {
      const id = currentResolver(state);
      const turn = currentTurn(state);
      if (id === null || turn === null) return state;
      events.push({ type: "actionsResolved", round: state.round, combatantId: id, pass: turn.pass });
      return settle(
        updateCombatant(state, id, (c) => {
          // A combatant that missed the declaration (defeated then) resolves only what it carried in.
          const d = declarationOf(state, c) ?? newDeclaration(state, c, [], 0, true);
          return { ...c, declaration: { ...d, resolved: d.resolved + 1 } };
        }),
        events,
      );
    }
    case "upkeep":
      return settle(doUpkeep(state, events), events);
    case "setup":
      return state;
  }
}

const NO_CONDITIONS: Conditions = { bleeding: 0, dazed: 0, stunned: 0 };

/** A declaration made now: what was carried in is fixed with it, and nothing is resolved yet. */
export function newDeclaration(
  state: DeclareResolveState,
  c: DeclareResolveCombatant,
  actions: readonly DeclaredAction[],
  carry: number,
  skipped: boolean,
): Declaration {
  return { round: state.round, actions, carry, skipped, carriedIn: carriedInOf(state, c), resolved: 0 };
}

export function newCombatant(entry: RosterEntry): DeclareResolveCombatant {
  return {
    id: entry.id,
    name: entry.name,
    isPC: entry.isPC,
    defeated: false,
    ip: null,
    ipChanges: [],
    tieBreak: null,
    declaration: null,
    conditions: NO_CONDITIONS,
  };
}

/** A fresh encounter with this AP budget per round (the world setting; {@link DEFAULT_AP_BUDGET} otherwise). */
export function createDeclareResolve(
  roster: readonly RosterEntry[],
  budget: number = DEFAULT_AP_BUDGET,
): DeclareResolveState {
  return {
    combatants: oncePerId(roster, newCombatant),
    budget: isWhole(budget, MAX_AP_BUDGET, 1) ? budget : DEFAULT_AP_BUDGET,
    round: 0,
    phase: "setup",
    tiesOrdered: 0,
  };
}
