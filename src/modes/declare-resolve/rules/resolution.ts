/** The resolution's passes and turns, and the upkeep the GM confirms after it. */
import type { DeclaredAction, DeclareResolveState, DeclareResolveCombatant } from "./types";
import { carriedInOf, declarationOf, sortedBySpeed, participants, resolvedOf } from "./points";

/** One resolution turn: a combatant's part of a pass. */
export interface ResolutionTurn {
  readonly combatantId: string;
  /** 0: a carried action finishing; 1: the initial actions; k ≥ 2: the k-th attack. */
  readonly pass: number;
  readonly actions: readonly DeclaredAction[];
  /** A carried action finishing (pass 0). */
  readonly finishing: boolean;
}

/** A combatant's resolution turns this round, done or not, in the order it takes them. */
export function resolutionTurns(state: DeclareResolveState, c: DeclareResolveCombatant): ResolutionTurn[] {
  const turns: ResolutionTurn[] = [];
  const combatantId = c.id;
  const carried = carriedInOf(state, c);
  if (carried !== null) turns.push({ combatantId, pass: 0, actions: [carried.action], finishing: true });
  const actions = declarationOf(state, c)?.actions ?? [];
  const initial: DeclaredAction[] = [];
  const extra: DeclaredAction[] = [];
  let attacks = 0;
  for (const a of actions) {
    if (a.kind === "attack") attacks++;
    if (a.kind === "attack" && attacks > 1) extra.push(a);
    else initial.push(a);
  }
  if (initial.length > 0) turns.push({ combatantId, pass: 1, actions: initial, finishing: false });
  extra.forEach((a, i) => turns.push({ combatantId, pass: i + 2, actions: [a], finishing: false }));
  return turns;
}

interface TurnEntry {
  readonly turn: ResolutionTurn;
  readonly done: boolean;
}

/** Every resolution turn of the round, done or not, in resolution order. */
export function allTurns(state: DeclareResolveState): readonly TurnEntry[] {
  return listTurns(state);
}

function listTurns(state: DeclareResolveState): readonly TurnEntry[] {
  const ordered = sortedBySpeed(state, participants(state));
  const list = ordered.flatMap((c, speed) =>
    resolutionTurns(state, c).map((turn, i) => ({ turn, done: i < resolvedOf(state, c), speed, index: i })),
  );
  // Each combatant's turns are in pass order, so sorting by pass keeps its own order.
  list.sort((a, b) => a.turn.pass - b.turn.pass || a.speed - b.speed);
  return list.map(({ turn, done }) => ({ turn, done }));
}

/** The resolution turns still to come this round (during the resolution), the current one first. */
export function resolutionQueue(state: DeclareResolveState): readonly ResolutionTurn[] {
  if (state.phase !== "resolve") return [];
  return allTurns(state)
    .filter((t) => !t.done)
    .map((t) => t.turn);
}

/** The extra attacks still to come this round, in the order they resolve (every second attack, then every third…). */
export function extraAttackQueue(state: DeclareResolveState): readonly ResolutionTurn[] {
  if (state.phase === "declare" || state.phase === "resolve") {
    return allTurns(state)
      .filter((t) => !t.done && t.turn.pass >= 2)
      .map((t) => t.turn);
  }
  return [];
}

/** Whether the combatant's carried action still has to finish this round (the tracker's "finishing"). */
export function isFinishing(state: DeclareResolveState, c: DeclareResolveCombatant): boolean {
  return (
    carriedInOf(state, c) !== null && resolvedOf(state, c) === 0 && state.phase !== "upkeep" && state.phase !== "setup"
  );
}

export function nextTurnOf(state: DeclareResolveState, c: DeclareResolveCombatant): ResolutionTurn | undefined {
  return resolutionTurns(state, c)[resolvedOf(state, c)];
}

/** What the upkeep will do to one combatant. */
export interface UpkeepEntry {
  readonly combatantId: string;
  /** Hits to remove (its bleeding). */
  readonly hits: number;
  readonly dazed: { readonly from: number; readonly to: number };
  readonly stunned: { readonly from: number; readonly to: number };
}

/** What the upkeep will do: one entry per live combatant with bleeding, dazed or stunned, in joining order. */
export function upkeepPreview(state: DeclareResolveState): readonly UpkeepEntry[] {
  return state.combatants
    .filter((c) => !c.defeated)
    .filter((c) => c.conditions.bleeding > 0 || c.conditions.dazed > 0 || c.conditions.stunned > 0)
    .map((c) => ({
      combatantId: c.id,
      hits: c.conditions.bleeding,
      dazed: { from: c.conditions.dazed, to: Math.max(0, c.conditions.dazed - 1) },
      stunned: { from: c.conditions.stunned, to: Math.max(0, c.conditions.stunned - 1) },
    }));
}

/** IP changes that revert when the current round ends, per combatant. */
export function expiringIPChanges(state: DeclareResolveState): readonly { combatantId: string; changeId: string }[] {
  return state.combatants.flatMap((c) =>
    c.ipChanges
      .filter((x) => x.lastRound !== null && x.lastRound <= state.round)
      .map((x) => ({ combatantId: c.id, changeId: x.id })),
  );
}
