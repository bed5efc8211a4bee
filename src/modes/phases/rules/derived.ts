/** Helpers derived from the `phases` state: who declares, acts and resolves; the tracker's views of it. */

import { findById } from "../../../core/common";
import {
  type PhasesCombatant,
  type PhasesState,
  type PhasesStep,
  type Phase,
  PHASES,
  type IntentKind,
  type IntentOutcome,
  type PhasesIntent,
  type DieSize,
  type PhasesRoll,
} from "./types";
import { complexityAfter, type DicePool, dicePool, hasDoubles, doublesIn } from "./dice";

export function isFoe(c: PhasesCombatant): boolean {
  return !c.isPC;
}

/** The foe whose intent the tracker asks for in phase 1: the first live foe without one, or null. */
export function declaringFoe(state: PhasesState): string | null {
  return foesToDeclare(state)[0] ?? null;
}

/** Live foes (roster order) that have no intent of their own yet this round. */
export function foesToDeclare(state: PhasesState): readonly string[] {
  const declared = new Set(state.intents.filter((i) => !i.collapse).map((i) => i.foeId));
  return state.combatants.filter((c) => isFoe(c) && !c.defeated && !declared.has(c.id)).map((c) => c.id);
}

/** Live foes (roster order) with an intent still to resolve. */
export function foesToResolve(state: PhasesState): readonly string[] {
  const waiting = new Set(state.intents.filter((i) => !i.resolved).map((i) => i.foeId));
  return state.combatants.filter((c) => isFoe(c) && !c.defeated && waiting.has(c.id)).map((c) => c.id);
}

/** Live heroes that have not taken their turn this round, in roster order. */
export function heroesToAct(state: PhasesState): readonly string[] {
  return state.combatants.filter((c) => c.isPC && !c.defeated && !c.acted).map((c) => c.id);
}

/** The phase banner: the three phases of a round, which one is now, and which are done or skipped. */
export interface PhaseBanner {
  readonly round: number;
  /** `setup` before the start. */
  readonly step: PhasesStep;
  readonly phases: readonly {
    readonly phase: Phase;
    readonly current: boolean;
    readonly done: boolean;
    /** Phase 2 of a surprised round 1. */
    readonly skipped: boolean;
  }[];
}

/** Whether this round skips phase 2 (the foes caught every PC unaware, round 1). */
export function heroesSkipped(state: PhasesState): boolean {
  return state.started && state.surprise && state.round === 1;
}

/** The banner data: Foes declare → Heroes act → Foes resolve, with the current phase marked. */
export function phaseBanner(state: PhasesState): PhaseBanner {
  const now = state.phase === "setup" ? -1 : PHASES.indexOf(state.phase);
  return {
    round: state.round,
    step: state.phase,
    phases: PHASES.map((phase, i) => ({
      phase,
      current: i === now,
      done: i < now,
      skipped: phase === "heroes" && heroesSkipped(state),
    })),
  };
}

/** One row of the tracker's intent list. */
export interface IntentView {
  readonly id: string;
  readonly foeId: string;
  readonly text: string;
  readonly kind: IntentKind;
  readonly targets: readonly string[];
  readonly collapse: boolean;
  readonly foiled: boolean;
  readonly foiledBy: string | null;
  readonly outOfReach: boolean;
  readonly resolved: boolean;
  /** Its foe is defeated: it will not resolve. */
  readonly foeDefeated: boolean;
  /** Its foe is the one resolving now (phase 3). */
  readonly resolving: boolean;
  /** How it comes out when it resolves: foiled ("foiled, no effect"), out of reach, or it resolves. */
  readonly outcome: IntentOutcome;
}

export function outcomeOf(intent: PhasesIntent): IntentOutcome {
  if (intent.foiled) return "foiled";
  return intent.outOfReach ? "outOfReach" : "resolves";
}

/** This round's intents as the tracker shows them, in the order they were declared. */
export function intentsView(state: PhasesState): readonly IntentView[] {
  const resolving = state.phase === "foesResolve" ? (foesToResolve(state)[0] ?? null) : null;
  return state.intents.map((i) => ({
    id: i.id,
    foeId: i.foeId,
    text: i.text,
    kind: i.kind,
    targets: i.targets,
    collapse: i.collapse,
    foiled: i.foiled,
    foiledBy: i.foiledBy,
    outOfReach: i.outOfReach,
    resolved: i.resolved,
    foeDefeated: findById(state.combatants, i.foeId)?.defeated ?? false,
    resolving: i.foeId === resolving && !i.resolved,
    outcome: outcomeOf(i),
  }));
}

/** Attacks a hero may defend against now: declared, not foiled, not resolved (any target). */
export function defendableIntents(state: PhasesState): readonly string[] {
  return state.intents.filter((i) => i.kind === "attack" && !i.foiled && !i.resolved).map((i) => i.id);
}

/** One hero row. */
export interface HeroView {
  readonly id: string;
  readonly acted: boolean;
  /** Its turn is running now (or its failed roll waits for the GM). */
  readonly acting: boolean;
  readonly defeated: boolean;
}

/** The heroes in roster order, each marked acted or not. */
export function heroesView(state: PhasesState): readonly HeroView[] {
  return state.combatants
    .filter((c) => c.isPC)
    .map((c) => ({ id: c.id, acted: c.acted, acting: state.turn?.combatantId === c.id, defeated: c.defeated }));
}

/** The hand-off picker: shown only in hand-off order while nobody acts and a hero is still to act. */
export interface HandOffPicker {
  /** The hero whose owner picks (the last to finish), or null: the GM picks (the first of the round). */
  readonly picker: string | null;
  /** Who can be picked. */
  readonly choices: readonly string[];
}

/** Whether a turn is running, or a failed roll waits for the GM (no other turn may start). */
function busy(state: PhasesState): boolean {
  return state.turn !== null;
}

/** The hand-off picker now, or null when there is none to show. The GM can always override. */
export function handOffPicker(state: PhasesState): HandOffPicker | null {
  if (!state.started || state.phase !== "heroes" || !state.handOff || busy(state)) return null;
  const choices = heroesToAct(state);
  if (choices.length === 0) return null;
  return { picker: livePicker(state), choices };
}

/** The last hero to finish, if still in the fight: its owner picks next in hand-off order. */
export function livePicker(state: PhasesState): string | null {
  const last = state.lastHero === null ? undefined : findById(state.combatants, state.lastHero);
  return last === undefined || last.defeated ? null : last.id;
}

/** The press-your-luck panel of the running turn. */
export interface PressYourLuck {
  readonly combatantId: string;
  /** Skill actions taken this turn. */
  readonly skillActions: number;
  /** The complexity (number of dice) of the next skill action. */
  readonly complexity: number;
  readonly freeMoveUsed: boolean;
  /** The turn ended on doubles and waits for the GM's choice. */
  readonly failed: boolean;
}

/** The running turn's press-your-luck data, or null when no turn runs. */
export function pressYourLuck(state: PhasesState): PressYourLuck | null {
  const t = state.turn;
  if (t === null) return null;
  return {
    combatantId: t.combatantId,
    skillActions: t.skillActions,
    complexity: complexityAfter(t.skillActions),
    freeMoveUsed: t.freeMoveUsed,
    failed: t.failed,
  };
}

/** The complexity of the acting hero's next skill action, or null when no turn runs. */
export function nextComplexity(state: PhasesState): number | null {
  return state.turn === null ? null : complexityAfter(state.turn.skillActions);
}

/** The dice the acting hero's next skill action rolls with a skill of `dieSize`, or null. */
export function nextDice(state: PhasesState, dieSize: DieSize): DicePool | null {
  const complexity = nextComplexity(state);
  return complexity === null ? null : dicePool(complexity, dieSize);
}

/** Whether a skill roll succeeded: it rolled no doubles (derived, never stored). */
export function rollSucceeded(roll: PhasesRoll): boolean {
  return !hasDoubles(roll.dice);
}

/** The last roll with its doubles marked (indices into `dice`) and whether it succeeded, or null. */
export interface RollView extends PhasesRoll {
  readonly doubles: readonly number[];
  readonly success: boolean;
}

/** The last skill roll of this round, with any doubles, or null. */
export function lastRollView(state: PhasesState): RollView | null {
  const r = state.lastRoll;
  return r === null ? null : { ...r, doubles: doublesIn(r.dice), success: rollSucceeded(r) };
}

/** The shared Advantage pool against its cap. */
export function advantagePool(state: PhasesState): {
  readonly pool: number;
  readonly cap: number;
  readonly full: boolean;
} {
  return { pool: state.pool, cap: state.poolCap, full: state.pool >= state.poolCap };
}

/** The GM's Collapse points. */
export function collapsePoints(state: PhasesState): number {
  return state.collapse;
}

/** The failed roll waiting for the GM's choice (failure effect or +1 Collapse), or null. */
export function pendingFailure(
  state: PhasesState,
): { readonly combatantId: string; readonly roll: PhasesRoll | null } | null {
  const t = state.turn;
  if (t === null || !t.failed) return null;
  const roll = state.lastRoll?.combatantId === t.combatantId ? state.lastRoll : null;
  return { combatantId: t.combatantId, roll };
}

/** Whether the GM may now spend a Collapse point on an extra attack (phase 1, or phase 2 while a PC has not finished). */
export function collapseWindow(state: PhasesState): boolean {
  if (!state.started) return false;
  if (state.phase === "foesDeclare") return true;
  return state.phase === "heroes" && (busy(state) || heroesToAct(state).length > 0);
}
