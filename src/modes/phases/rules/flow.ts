/** The `phases` round flow: a fresh state, phases and rounds starting, heroes' turns beginning and ending. */

import type { RosterEntry } from "../../../core/engine";
import { updateCombatant, oncePerId } from "../../../core/common";
import {
  type PhasesState,
  type PhasesIntent,
  type PhasesCombatant,
  type PhasesStep,
  type PhasesEvent,
  type PhasesSettings,
  MAX_POINTS,
  DEFAULT_POOL_CAP,
  DEFAULT_COLLAPSE,
} from "./types";
import { heroesSkipped, heroesToAct, foesToResolve, outcomeOf } from "./derived";

export function updateIntent(state: PhasesState, id: string, change: (i: PhasesIntent) => PhasesIntent): PhasesState {
  return { ...state, intents: state.intents.map((i) => (i.id === id ? change(i) : i)) };
}

export function newCombatant(entry: RosterEntry): PhasesCombatant {
  return { id: entry.id, name: entry.name, isPC: entry.isPC, defeated: false, acted: false };
}

function phaseStarted(state: PhasesState, phase: PhasesStep, events: PhasesEvent[]): PhasesState {
  events.push({ type: "phaseStarted", round: state.round, phase });
  return { ...state, phase };
}

/** A new round at phase 1: intents, turns, hand-off and the last roll cleared. The pools carry over. */
export function startRound(state: PhasesState, round: number, events: PhasesEvent[]): PhasesState {
  events.push({ type: "roundStarted", round });
  const s: PhasesState = {
    ...state,
    round,
    intents: [],
    turn: null,
    lastHero: null,
    handOff: false,
    lastRoll: null,
    combatants: state.combatants.map((c) => (c.acted ? { ...c, acted: false } : c)),
  };
  return phaseStarted(s, "foesDeclare", events);
}

/** Phase 3 begins. */
function enterResolve(state: PhasesState, events: PhasesEvent[]): PhasesState {
  return phaseStarted(state, "foesResolve", events);
}

/** Phase 2 begins, unless it is skipped (surprise in round 1): then phase 3. */
function enterHeroes(state: PhasesState, events: PhasesEvent[]): PhasesState {
  if (heroesSkipped(state)) {
    events.push({ type: "heroesSkipped", round: state.round });
    return enterResolve(state, events);
  }
  return phaseStarted(state, "heroes", events);
}

/** The running turn ends; when it was the last hero to act, phase 2 ends too. */
export function finishTurn(state: PhasesState, events: PhasesEvent[]): PhasesState {
  const t = state.turn;
  if (t === null) return state;
  events.push({ type: "turnEnded", round: state.round, combatantId: t.combatantId });
  const s: PhasesState = { ...state, turn: null, lastHero: t.combatantId };
  return s.phase === "heroes" && heroesToAct(s).length === 0 ? enterResolve(s, events) : s;
}

/** A hero's turn begins. */
export function beginTurn(state: PhasesState, combatantId: string, events: PhasesEvent[]): PhasesState {
  events.push({ type: "turnStarted", round: state.round, combatantId });
  return {
    ...updateCombatant(state, combatantId, (c) => ({ ...c, acted: true })),
    turn: { combatantId, skillActions: 0, freeMoveUsed: false, failed: false },
  };
}

/** Phase 3: the current foe's intents resolve; after the last foe the next round starts. */
export function resolveNextFoe(state: PhasesState, events: PhasesEvent[]): PhasesState {
  const foe = foesToResolve(state)[0];
  if (foe === undefined) return startRound(state, state.round + 1, events);
  let s = state;
  for (const intent of state.intents) {
    if (intent.foeId !== foe || intent.resolved) continue;
    events.push({
      type: "intentResolved",
      round: state.round,
      combatantId: foe,
      intentId: intent.id,
      outcome: outcomeOf(intent),
    });
    s = updateIntent(s, intent.id, (i) => ({ ...i, resolved: true }));
  }
  return foesToResolve(s).length === 0 ? startRound(s, s.round + 1, events) : s;
}

export function nextPhaseOf(state: PhasesState, events: PhasesEvent[]): PhasesState {
  switch (state.phase) {
    case "foesDeclare":
      return enterHeroes(state, events);
    case "heroes":
      return enterResolve(state, events);
    default:
      return startRound(state, state.round + 1, events);
  }
}

/** A fresh, not yet started state with these settings (clamped to 0…{@link MAX_POINTS}). */
export function createPhases(roster: readonly RosterEntry[], settings: Partial<PhasesSettings> = {}): PhasesState {
  const clamp = (n: number | undefined, fallback: number): number =>
    n === undefined || !Number.isInteger(n) ? fallback : Math.min(Math.max(n, 0), MAX_POINTS);
  return {
    combatants: oncePerId(roster, newCombatant),
    started: false,
    round: 0,
    phase: "setup",
    surprise: false,
    intents: [],
    nextIntent: 0,
    turn: null,
    lastHero: null,
    handOff: false,
    lastRoll: null,
    pool: 0,
    poolCap: clamp(settings.poolCap, DEFAULT_POOL_CAP),
    collapse: clamp(settings.collapse, DEFAULT_COLLAPSE),
  };
}
