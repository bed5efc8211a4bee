/**
 * The `phases` mode (RULES.md §5, rulebook excerpt 004): foes declare, heroes act in the order they
 * choose, foes resolve.
 *
 * A round has three phases:
 * 1. **Foes declare** (`foesDeclare`). The GM records one intent per foe: a short text, a kind
 *    (attack or other) and, for an attack, its target or targets among the PCs. A foe with no intent
 *    does nothing this round. The GM may spend a **Collapse point** on an extra attack for a foe.
 * 2. **Heroes act** (`heroes`). Each PC takes one turn, in any order: while nobody is acting, a
 *    player starts the turn of a PC it owns that has not acted (the GM may start anyone's). In
 *    **hand-off** order ("the players cannot agree", set per round by the GM) the GM picks the first
 *    PC and, at the end of each turn, the owner of the PC that just finished picks the next. A PC
 *    finishes its whole turn before the next begins; when every live PC has acted, phase 2 ends.
 *    If the foes caught every PC unaware (`start {surprise: true}`), round 1 skips phase 2.
 *    - **Press your luck.** The first skill action of a turn has complexity 2, each further one adds
 *      1. Complexity *n* rolls *n* dice of the skill's die size (d4…d12). Any two equal dice
 *      (doubles) fail the roll: the turn ends at once and waits for the GM's choice: a failure effect
 *      (free text) or +1 Collapse point. After a success the hero may act again or end the turn.
 *    - **Free actions** do not raise the complexity: the one free move per turn, an item that needs
 *      no roll. A second move needs a skill roll; a move made with a skill roll while the free move
 *      is unused (stealth, a jump) is a skill action and uses up the free move.
 *    - **Active defense.** A skill roll may be aimed at one declared foe attack (on the hero itself or
 *      an ally); success marks the attack foiled.
 *    - **Advantages.** A successful roll marked "gains an advantage" adds 1 to a shared pool, capped
 *      by `poolCap` (the ship's Livability Rating). Anyone may spend one, with a note.
 * 3. **Foes resolve** (`foesResolve`). The GM steps through the foes that have intents, in roster
 *    order (`nextTurn`): each moves, then its intents resolve. A foiled attack resolves as "foiled, no
 *    effect"; the GM may mark an intent out of reach. After the last foe the next round starts at
 *    phase 1, with the intents and the heroes' turns cleared.
 *
 * Choices the rules leave open (docs/modes/phases.md explains them):
 * - Phase 1: the GM records intents in any order. `view().current` is the first live foe in roster
 *   order that has no intent yet (the one the tracker asks about); null once every foe has one.
 * - Phase 2: `current` is the acting hero, also while its failed roll waits for the GM's answer (the
 *   turn has ended, but no other turn may start until the GM answers); `next` is null (free order).
 * - Phase 3: `current` is the first live foe in roster order with an intent still to resolve.
 *   A defeated foe's intents do not resolve (it is no longer in the fight).
 * - A gain of an Advantage past the cap refuses the whole roll (`poolFull`), whatever the dice: the
 *   pool is known before rolling, so the tracker withholds the mark and nothing rolled is lost.
 * - Lowering `poolCap` below the pool discards the excess (reported as `advantagesLost`).
 * - The turn a defeat or a removal ends does not end phase 2 by itself: the GM moves on with
 *   `nextPhase`. Ending a turn (`endTurn`, or the GM's answer to a failure) does, when it was the last.
 * - The pools live in the encounter's state, so they empty when the combat ends.
 *
 * Invariants of a started state:
 * - Only PCs have `acted`; a running turn (`turn`) is only in phase 2 and is the turn of a PC that
 *   has acted. At most one turn runs at a time.
 * - Each foe has at most one intent of its own per round (`collapse: false`); extra attacks bought
 *   with Collapse points are `collapse: true`. Targets are PCs. Resolved intents only in phase 3.
 * - `0 ≤ pool ≤ poolCap`.
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
  isId,
  isText,
  oncePerId,
  parseByTable,
  required,
  optional,
  absentOr,
  isFlag,
  BAD,
  ID_FIELD,
  type FieldReader,
  type CommandTable,
  stepKind,
  type Probe,
} from "../../../core/common";

// ---------------------------------------------------------------------------------------------
// State, commands, events
// ---------------------------------------------------------------------------------------------

/** The phases of a round, in order; `setup` comes before the start. Keys under `STRUCTURED_INITIATIVE.Step`. */
export const PHASES = ["foesDeclare", "heroes", "foesResolve"] as const;
/** One phase of a round. */
export type Phase = (typeof PHASES)[number];
/** Step keys of `TurnView.step` in this mode. */
export type PhasesStep = "setup" | Phase;

/** The die sizes a skill can have. */
export const DIE_SIZES = [4, 6, 8, 10, 12] as const;
/** A skill's die size. */
export type DieSize = (typeof DIE_SIZES)[number];

/** The complexity of the first skill action of a turn; each further one adds 1. */
export const FIRST_COMPLEXITY = 2;
/** Default number of Collapse points the GM starts an encounter with. */
export const DEFAULT_COLLAPSE = 2;
/** Default cap of the Advantage pool (the ship's Livability Rating) when none is configured. */
export const DEFAULT_POOL_CAP = 3;
/** Largest Collapse count or pool cap accepted. */
export const MAX_POINTS = 99;
/** Most skill actions tracked in one turn (more dice than faces always roll doubles well before). */
export const MAX_SKILL_ACTIONS = 99;
/** Most dice accepted in one roll from untrusted data. */
export const MAX_DICE = 64;
/** Most targets one intent may name. */
export const MAX_TARGETS = 50;

/** What a foe means to do: an attack (with PC targets) or anything else. */
export type IntentKind = "attack" | "other";
/** A free action: the one free move, or an item that needs no roll. */
export type FreeActionKind = "move" | "item";

/** A combatant as the phases mode tracks it. */
export interface PhasesCombatant {
  readonly id: string;
  readonly name: string;
  /** Has a player owner: a hero. Otherwise a foe. */
  readonly isPC: boolean;
  /** Marked defeated: takes no turn, declares and resolves nothing. */
  readonly defeated: boolean;
  /** A hero that has started its one turn this round (always false for foes). */
  readonly acted: boolean;
}

/** A foe's declared intent for this round. */
export interface PhasesIntent {
  /** `i<n>`, unique in the encounter. */
  readonly id: string;
  readonly foeId: string;
  readonly text: string;
  readonly kind: IntentKind;
  /** The PCs it is aimed at (at least one for an attack when declared). */
  readonly targets: readonly string[];
  /** An extra attack bought with a Collapse point. */
  readonly collapse: boolean;
  /** Foiled by a successful active defense. */
  readonly foiled: boolean;
  /** The hero whose defense foiled it (null if not foiled, or if that hero has left). */
  readonly foiledBy: string | null;
  /** Marked by the GM in phase 3: its target is out of reach. */
  readonly outOfReach: boolean;
  /** Resolved in phase 3. */
  readonly resolved: boolean;
}

/** The hero turn that is running now. */
export interface HeroTurn {
  readonly combatantId: string;
  /** Skill actions taken this turn: the next one has complexity `FIRST_COMPLEXITY + skillActions`. */
  readonly skillActions: number;
  /** The free move is used up (moved freely, or a first move made with a skill roll). */
  readonly freeMoveUsed: boolean;
  /** A roll failed: the turn has ended and waits for the GM's failure choice. */
  readonly failed: boolean;
}

/** The GM's answer to a failed roll. */
export type FailureAnswer = { readonly choice: "effect"; readonly text: string } | { readonly choice: "collapse" };

/** The last skill roll of this round. */
export interface PhasesRoll {
  readonly combatantId: string;
  /** The skill's name, for display; null when not given. */
  readonly skill: string | null;
  readonly dieSize: DieSize;
  readonly complexity: number;
  /** The faces, as rolled (a success has no doubles: see `rollSucceeded`). */
  readonly dice: readonly number[];
  /** The intent it defended against, or null. */
  readonly defends: string | null;
  /** Marked "gains an advantage". */
  readonly gainsAdvantage: boolean;
  /** A movement made with a skill roll. */
  readonly move: boolean;
  /** For a failure: the GM's answer, null until given. */
  readonly answer: FailureAnswer | null;
}

/** The phases mode's state. Plain JSON data; never mutated. */
export interface PhasesState {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly PhasesCombatant[];
  readonly started: boolean;
  /** 0 before the start. */
  readonly round: number;
  readonly phase: PhasesStep;
  /** The foes caught every PC unaware: round 1 skips phase 2. */
  readonly surprise: boolean;
  /** This round's intents, in the order they were declared. */
  readonly intents: readonly PhasesIntent[];
  /** The number in the next intent's id. */
  readonly nextIntent: number;
  /** The hero turn running now, or null. */
  readonly turn: HeroTurn | null;
  /** The hero whose turn ended last this round (its owner picks the next in hand-off order), or null. */
  readonly lastHero: string | null;
  /** Hand-off order this round: the GM picks the first hero, each finished hero's owner the next. */
  readonly handOff: boolean;
  /** The last skill roll this round, or null. */
  readonly lastRoll: PhasesRoll | null;
  /** Advantages in the shared pool. */
  readonly pool: number;
  /** The pool's cap: the ship's Livability Rating. */
  readonly poolCap: number;
  /** The GM's Collapse points. */
  readonly collapse: number;
}

/** Commands of the phases mode. */
export type PhasesCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean }
  | { readonly type: "setPoolCap"; readonly cap: number }
  | { readonly type: "setCollapse"; readonly points: number }
  | { readonly type: "start"; readonly surprise: boolean }
  | {
      readonly type: "declareIntent";
      readonly foeId: string;
      readonly text: string;
      readonly kind: IntentKind;
      readonly targets: readonly string[];
    }
  | {
      readonly type: "spendCollapse";
      readonly foeId: string;
      readonly text: string;
      readonly targets: readonly string[];
    }
  /** GM: phase 1 → 2 (→ 3 when skipped by surprise), 2 → 3, 3 → the next round. Not while a turn runs. */
  | { readonly type: "nextPhase" }
  /**
   * Phase 2 with a turn running: ends it (its owner or the GM). Phase 3: the GM resolves the current
   * foe's intents (after the last foe, the next round starts). Otherwise the GM's `nextPhase`.
   */
  | { readonly type: "nextTurn" }
  /** GM: the next round starts at once, at phase 1. Not while a turn runs. */
  | { readonly type: "nextRound" }
  | { readonly type: "setHandOff"; readonly on: boolean }
  | { readonly type: "startTurn"; readonly combatantId: string }
  | { readonly type: "pickNext"; readonly combatantId: string }
  | {
      readonly type: "skillRoll";
      readonly combatantId: string;
      /** d4…d12; anything else is refused (`invalidValue`). */
      readonly dieSize: number;
      /** The faces: as many as the complexity, each 1…dieSize (else `wrongDice`). */
      readonly dice: readonly number[];
      readonly skill?: string;
      readonly gainsAdvantage?: boolean;
      /** The id of a declared attack this roll defends against. */
      readonly defendsIntent?: string;
      /** A movement made with a skill roll (uses up an unused free move). */
      readonly move?: boolean;
    }
  | { readonly type: "freeAction"; readonly combatantId: string; readonly kind: FreeActionKind; readonly note?: string }
  | { readonly type: "endTurn"; readonly combatantId: string }
  | { readonly type: "resolveFailure"; readonly choice: "effect"; readonly text: string }
  | { readonly type: "resolveFailure"; readonly choice: "collapse" }
  | { readonly type: "spendAdvantage"; readonly note: string; readonly combatantId?: string }
  | { readonly type: "markOutOfReach"; readonly intentId: string; readonly outOfReach: boolean };

/** The `type` of every phases-mode command. */
export type PhasesCommandType = PhasesCommand["type"];

/**
 * Refusal codes this mode adds to the shared `REFUSAL_CODES`; each has a message
 * `STRUCTURED_INITIATIVE.Refusal.<code>` (`{name}` is the refusal's combatant).
 */
export const PHASES_REFUSALS = [
  /** A turn was started (or picked) while another hero's turn runs; names the acting hero. */
  "heroActing",
  /** A failed roll waits for the GM's choice; names the hero who failed. */
  "failurePending",
  /** The dice do not match the complexity (count) or the die size (faces). */
  "wrongDice",
  /** A roll marked "gains an advantage" while the pool is at its cap. */
  "poolFull",
  /** A Collapse spend with no Collapse points left. */
  "noCollapse",
  /** A second free move in a turn; names the hero. */
  "freeMoveUsed",
  /** No such intent this round. */
  "unknownIntent",
  /** Active defense aimed at an intent that is not an attack. */
  "notAnAttack",
  /** Active defense aimed at an attack already foiled. */
  "alreadyFoiled",
  /** The intent has already resolved. */
  "intentResolved",
  /** The combatant is not a PC (a turn, a target); names it. */
  "notPC",
  /** The combatant is not a foe (an intent); names it. */
  "notFoe",
  /** The GM's answer was sent while no failed roll waits for one. */
  "noFailure",
  /** Hand-off order: the owner of the named hero picks who acts next. */
  "pickerChooses",
  /** `pickNext` while the heroes choose their own order. */
  "notHandOff",
  /** An Advantage spend from an empty pool. */
  "noAdvantage",
] as const;
/** One phases-mode refusal code. */
export type PhasesRefusal = (typeof PHASES_REFUSALS)[number];

/** Events the phases mode emits (`RuleEvent.type`). */
export const PHASES_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "defeatedChanged",
  "poolCapChanged",
  "collapseChanged",
  "combatStarted",
  "roundStarted",
  "phaseStarted",
  "heroesSkipped",
  "intentDeclared",
  "collapseSpent",
  "handOffChanged",
  "turnStarted",
  "skillRolled",
  "rollFailed",
  "intentFoiled",
  "advantageGained",
  "advantagesLost",
  "advantageSpent",
  "freeAction",
  "failureEffect",
  "collapseGained",
  "turnEnded",
  "outOfReachChanged",
  "intentResolved",
] as const;
/** One phases-mode event type. */
export type PhasesEventType = (typeof PHASES_EVENTS)[number];

/** How an intent came out in phase 3. */
export type IntentOutcome = "resolves" | "foiled" | "outOfReach";

/** A phases-mode event: a rule event with the details the glue announces. */
export interface PhasesEvent extends RuleEvent {
  readonly type: PhasesEventType;
  /** The phase that started (`phaseStarted`). */
  readonly phase?: PhasesStep;
  /** The intent it is about. */
  readonly intentId?: string;
  /** Intent text, failure effect text, free action or spend note. */
  readonly text?: string;
  /** How many points (Collapse gained or spent, Advantages lost). */
  readonly amount?: number;
  /** The roll, for `skillRolled` and `rollFailed`. */
  readonly roll?: PhasesRoll;
  /** For `intentResolved`. */
  readonly outcome?: IntentOutcome;
}

/** An allowed action, with what it is about. */
export interface PhasesAllowedAction extends AllowedAction {
  /** The intent the action is about (defend against…, mark out of reach). */
  readonly intentId?: string;
  /** For `freeAction`: which one. */
  readonly kind?: FreeActionKind;
  /** For `skillRoll`: the roll may be marked "gains an advantage". */
  readonly gainsAdvantage?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Dice
// ---------------------------------------------------------------------------------------------

/** Whether `value` is a die size a skill can have (d4…d12). */
export function isDieSize(value: unknown): value is DieSize {
  return DIE_SIZES.some((size) => size === value);
}

/** The complexity of a skill action after `skillActions` of them this turn. */
export function complexityAfter(skillActions: number): number {
  return FIRST_COMPLEXITY + skillActions;
}

/** Indices of the dice that show a face another die also shows (the doubles), in roll order. */
export function doublesIn(dice: readonly number[]): readonly number[] {
  const counts = new Map<number, number>();
  for (const face of dice) counts.set(face, (counts.get(face) ?? 0) + 1);
  return dice.flatMap((face, i) => ((counts.get(face) ?? 0) > 1 ? [i] : []));
}

/** Whether a roll has doubles (any two equal dice): it fails. */
export function hasDoubles(dice: readonly number[]): boolean {
  return new Set(dice).size !== dice.length;
}

/** Whether `dice` are a fair roll of `count` dice of `dieSize`: that many, each 1…dieSize. */
export function diceMatch(dice: readonly number[], count: number, dieSize: number): boolean {
  return dice.length === count && dice.every((face) => Number.isInteger(face) && face >= 1 && face <= dieSize);
}

/** A dice pool: how many dice of which size, and its Foundry formula ("3d10"). */
export interface DicePool {
  readonly count: number;
  readonly dieSize: DieSize;
  readonly formula: string;
}

/** The pool a skill action of `complexity` rolls with a skill of `dieSize`. */
export function dicePool(complexity: number, dieSize: DieSize): DicePool {
  return { count: complexity, dieSize, formula: `${complexity}d${dieSize}` };
}

// ---------------------------------------------------------------------------------------------
// Derived helpers for the tracker
// ---------------------------------------------------------------------------------------------

function isFoe(c: PhasesCombatant): boolean {
  return !c.isPC;
}

/** The foe whose intent the tracker asks for in phase 1: the first live foe without one, or null. */
function declaringFoe(state: PhasesState): string | null {
  return foesToDeclare(state)[0] ?? null;
}

/** Live foes (roster order) that have no intent of their own yet this round. */
function foesToDeclare(state: PhasesState): readonly string[] {
  const declared = new Set(state.intents.filter((i) => !i.collapse).map((i) => i.foeId));
  return state.combatants.filter((c) => isFoe(c) && !c.defeated && !declared.has(c.id)).map((c) => c.id);
}

/** Live foes (roster order) with an intent still to resolve. */
function foesToResolve(state: PhasesState): readonly string[] {
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

function outcomeOf(intent: PhasesIntent): IntentOutcome {
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

/** The heroes whose turn `who` may start now ("Take turn" buttons): free order or, in hand-off order, a pick. */
export function startableHeroes(state: PhasesState, who: Requester): readonly string[] {
  const type = state.handOff ? "pickNext" : "startTurn";
  return state.combatants
    .filter((c) => c.isPC && applyCommand(state, { type, combatantId: c.id }, who).ok)
    .map((c) => c.id);
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
function livePicker(state: PhasesState): string | null {
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

// ---------------------------------------------------------------------------------------------
// Edits
// ---------------------------------------------------------------------------------------------

function updateIntent(state: PhasesState, id: string, change: (i: PhasesIntent) => PhasesIntent): PhasesState {
  return { ...state, intents: state.intents.map((i) => (i.id === id ? change(i) : i)) };
}

function newCombatant(entry: RosterEntry): PhasesCombatant {
  return { id: entry.id, name: entry.name, isPC: entry.isPC, defeated: false, acted: false };
}

function phaseStarted(state: PhasesState, phase: PhasesStep, events: PhasesEvent[]): PhasesState {
  events.push({ type: "phaseStarted", round: state.round, phase });
  return { ...state, phase };
}

/** A new round at phase 1: intents, turns, hand-off and the last roll cleared. The pools carry over. */
function startRound(state: PhasesState, round: number, events: PhasesEvent[]): PhasesState {
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
function finishTurn(state: PhasesState, events: PhasesEvent[]): PhasesState {
  const t = state.turn;
  if (t === null) return state;
  events.push({ type: "turnEnded", round: state.round, combatantId: t.combatantId });
  const s: PhasesState = { ...state, turn: null, lastHero: t.combatantId };
  return s.phase === "heroes" && heroesToAct(s).length === 0 ? enterResolve(s, events) : s;
}

/** A hero's turn begins. */
function beginTurn(state: PhasesState, combatantId: string, events: PhasesEvent[]): PhasesState {
  events.push({ type: "turnStarted", round: state.round, combatantId });
  return {
    ...updateCombatant(state, combatantId, (c) => ({ ...c, acted: true })),
    turn: { combatantId, skillActions: 0, freeMoveUsed: false, failed: false },
  };
}

/** Phase 3: the current foe's intents resolve; after the last foe the next round starts. */
function resolveNextFoe(state: PhasesState, events: PhasesEvent[]): PhasesState {
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

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

function isPoints(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_POINTS;
}

/** Config changes are undo steps once the combat runs (before the start nothing is a step). */
function configStep(state: PhasesState): "turn" | undefined {
  return state.started ? "turn" : undefined;
}

/** Why the targets of a declared attack are not acceptable, or null. */
function targetsRefusal(state: PhasesState, targets: readonly string[], needOne: boolean): Outcome<PhasesState> | null {
  if (targets.length > MAX_TARGETS || new Set(targets).size !== targets.length) return refuse("invalidValue");
  if (needOne && targets.length === 0) return refuse("invalidValue");
  for (const id of targets) {
    const t = findById(state.combatants, id);
    if (t === undefined) return refuse("unknownCombatant", id);
    if (!t.isPC) return refuse("notPC", id);
    if (t.defeated) return refuse("combatantDefeated", id);
  }
  return null;
}

/** Why the foe may not have an intent now, or null. */
function foeRefusal(state: PhasesState, foeId: string): Outcome<PhasesState> | null {
  const foe = findById(state.combatants, foeId);
  if (foe === undefined) return refuse("unknownCombatant", foeId);
  if (foe.isPC) return refuse("notFoe", foeId);
  if (foe.defeated) return refuse("combatantDefeated", foeId);
  return null;
}

function addIntent(
  state: PhasesState,
  foeId: string,
  text: string,
  kind: IntentKind,
  targets: readonly string[],
  collapse: boolean,
  events: PhasesEvent[],
): PhasesState {
  const id = `i${state.nextIntent}`;
  const intent: PhasesIntent = {
    id,
    foeId,
    text,
    kind,
    targets: [...targets],
    collapse,
    foiled: false,
    foiledBy: null,
    outOfReach: false,
    resolved: false,
  };
  events.push({ type: "intentDeclared", round: state.round, combatantId: foeId, intentId: id, text });
  return { ...state, intents: [...state.intents, intent], nextIntent: state.nextIntent + 1 };
}

/** Why no hero turn may begin now (a turn runs, or a failure waits), or null. */
function busyRefusal(state: PhasesState): Outcome<PhasesState> | null {
  const t = state.turn;
  if (t === null) return null;
  return refuse(t.failed ? "failurePending" : "heroActing", t.combatantId);
}

/** Why `combatantId` may not begin a turn now, permissions aside, or null. */
function turnRefusal(state: PhasesState, combatantId: string): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  const c = findById(state.combatants, combatantId);
  if (c === undefined) return refuse("unknownCombatant", combatantId);
  if (!c.isPC) return refuse("notPC", combatantId);
  if (state.phase !== "heroes") return refuse("wrongStep");
  if (c.defeated) return refuse("combatantDefeated", combatantId);
  return busyRefusal(state) ?? (c.acted ? refuse("alreadyActed", combatantId) : null);
}

/** Why `who` may not act in `combatantId`'s running turn now, or null. */
function actingRefusal(state: PhasesState, combatantId: string, who: Requester): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  if (state.phase !== "heroes") return refuse("wrongStep");
  const t = state.turn;
  if (t === null) return refuse("notYourTurn", combatantId);
  // Another hero's turn runs: that is the reason (only its owner or the GM ends it).
  if (t.combatantId !== combatantId) return refuse("heroActing", t.combatantId);
  if (t.failed) return refuse("failurePending", combatantId);
  return null;
}

/** Why the GM may not move to another phase or round now, or null. */
function advanceRefusal(state: PhasesState, who: Requester): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  return busyRefusal(state);
}

/** Why `who` may not take the next turn now, or null (then `nextTurn` accepts it). */
function nextTurnRefusal(state: PhasesState, who: Requester): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  const t = state.turn;
  // In phase 2 the acting hero's owner (or the GM) ends the turn.
  if (state.phase === "heroes" && t !== null) return actingRefusal(state, t.combatantId, who);
  return advanceRefusal(state, who);
}

function nextPhaseOf(state: PhasesState, events: PhasesEvent[]): PhasesState {
  switch (state.phase) {
    case "foesDeclare":
      return enterHeroes(state, events);
    case "heroes":
      return enterResolve(state, events);
    default:
      return startRound(state, state.round + 1, events);
  }
}

type Of<T extends PhasesCommand["type"]> = Extract<PhasesCommand, { readonly type: T }>;

/** Why `who` may not remove a combatant or change its defeat, or null (then the handler accepts). */
function rosterRefusal(state: PhasesState, combatantId: string, who: Requester): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  return null;
}

/** Why `who` may not declare this intent now, or null (then `declareIntent` accepts it). */
function declareRefusal(
  state: PhasesState,
  { foeId, text, kind, targets }: Of<"declareIntent">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (state.phase !== "foesDeclare") return refuse("wrongStep");
  if (!isText(text)) return refuse("invalidValue");
  const why = foeRefusal(state, foeId) ?? targetsRefusal(state, targets, kind === "attack");
  if (why !== null) return why;
  if (state.intents.some((i) => i.foeId === foeId && !i.collapse)) return refuse("alreadyDeclared", foeId);
  return null;
}

/** Why `who` may not spend a Collapse point on this attack now, or null (then `spendCollapse` accepts it). */
function collapseRefusal(
  state: PhasesState,
  { foeId, text, targets }: Of<"spendCollapse">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (!collapseWindow(state)) return refuse("wrongStep");
  if (!isText(text)) return refuse("invalidValue");
  const why = foeRefusal(state, foeId) ?? targetsRefusal(state, targets, true);
  if (why !== null) return why;
  if (state.collapse <= 0) return refuse("noCollapse");
  return null;
}

/** Why `who` may not start this hero's turn now, or null (then `startTurn` accepts it). */
function startRefusal(
  state: PhasesState,
  { combatantId }: Of<"startTurn">,
  who: Requester,
): Outcome<PhasesState> | null {
  const why = turnRefusal(state, combatantId);
  if (why !== null) return why;
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  // In hand-off order the players do not start turns; the GM can override.
  if (state.handOff && !who.isGM) {
    const picker = livePicker(state);
    return picker === null ? refuse("notGM") : refuse("pickerChooses", picker);
  }
  return null;
}

/** Why `who` may not pick this hero to act next now, or null (then `pickNext` accepts it). */
function pickRefusal(state: PhasesState, { combatantId }: Of<"pickNext">, who: Requester): Outcome<PhasesState> | null {
  const why = turnRefusal(state, combatantId);
  if (why !== null) return why;
  if (!state.handOff) return refuse("notHandOff");
  const picker = livePicker(state);
  if (!who.isGM && (picker === null || !who.owns.includes(picker))) {
    return picker === null ? refuse("notGM") : refuse("pickerChooses", picker);
  }
  return null;
}

/** Why `who` may not make this skill roll now, or null (then `skillRoll` accepts it). */
function rollRefusal(state: PhasesState, command: Of<"skillRoll">, who: Requester): Outcome<PhasesState> | null {
  const { combatantId, dieSize, dice } = command;
  const why = actingRefusal(state, combatantId, who);
  if (why !== null) return why;
  const t = state.turn;
  if (t === null) return refuse("notYourTurn", combatantId);
  if (!isDieSize(dieSize)) return refuse("invalidValue", combatantId);
  if (!diceMatch(dice, complexityAfter(t.skillActions), dieSize)) return refuse("wrongDice", combatantId);
  if (t.skillActions >= MAX_SKILL_ACTIONS) return refuse("invalidValue", combatantId);
  const skill = command.skill ?? null;
  if (skill !== null && !isId(skill)) return refuse("invalidValue", combatantId);
  const defends = command.defendsIntent ?? null;
  if (defends !== null) {
    const intent = findById(state.intents, defends);
    if (intent === undefined) return refuse("unknownIntent");
    if (intent.kind !== "attack") return refuse("notAnAttack");
    if (intent.foiled) return refuse("alreadyFoiled");
    if (intent.resolved) return refuse("intentResolved");
  }
  if ((command.gainsAdvantage ?? false) && state.pool >= state.poolCap) return refuse("poolFull", combatantId);
  return null;
}

/** Why `who` may not take this free action now, or null (then `freeAction` accepts it). */
function freeRefusal(
  state: PhasesState,
  { combatantId, kind, note }: Of<"freeAction">,
  who: Requester,
): Outcome<PhasesState> | null {
  const why = actingRefusal(state, combatantId, who);
  if (why !== null) return why;
  const t = state.turn;
  if (t === null) return refuse("notYourTurn", combatantId);
  if (note !== undefined && !isText(note)) return refuse("invalidValue", combatantId);
  if (kind === "move" && t.freeMoveUsed) return refuse("freeMoveUsed", combatantId);
  return null;
}

/** Why `who` may not spend an Advantage now, or null (then `spendAdvantage` accepts it). */
function advantageRefusal(
  state: PhasesState,
  { note, combatantId }: Of<"spendAdvantage">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!state.started) return refuse("notStarted");
  if (!isText(note)) return refuse("invalidValue");
  if (combatantId !== undefined) {
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  }
  if (state.pool <= 0) return refuse("noAdvantage");
  return null;
}

/** Why `who` may not mark this intent (out of reach or back in reach) now, or null (then `markOutOfReach` accepts it). */
function reachRefusal(
  state: PhasesState,
  { intentId, outOfReach }: Of<"markOutOfReach">,
  who: Requester,
): Outcome<PhasesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (state.phase !== "foesResolve") return refuse("wrongStep");
  const intent = findById(state.intents, intentId);
  if (intent === undefined) return refuse("unknownIntent");
  if (intent.resolved) return refuse("intentResolved");
  if (intent.outOfReach === outOfReach) return refuse("invalidValue");
  return null;
}

const handlers: Handlers<PhasesState, PhasesCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    const why = rosterRefusal(state, combatantId, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [{ type: "combatantRemoved", round: state.round, combatantId }];
    const acting = state.turn?.combatantId === combatantId;
    if (acting) events.push({ type: "turnEnded", round: state.round, combatantId });
    const s: PhasesState = {
      ...state,
      combatants: state.combatants.filter((c) => c.id !== combatantId),
      // A foe that leaves takes its intents along; a hero that leaves is no one's target any more.
      intents: state.intents
        .filter((i) => i.foeId !== combatantId)
        .map((i) =>
          i.foiledBy === combatantId || i.targets.includes(combatantId)
            ? {
                ...i,
                targets: i.targets.filter((t) => t !== combatantId),
                foiledBy: i.foiledBy === combatantId ? null : i.foiledBy,
              }
            : i,
        ),
      turn: acting ? null : state.turn,
      lastHero: state.lastHero === combatantId ? null : state.lastHero,
      lastRoll: state.lastRoll?.combatantId === combatantId ? null : state.lastRoll,
    };
    return accept(s, events);
  },

  setDefeated(state, { combatantId, defeated }, who) {
    const why = rosterRefusal(state, combatantId, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [{ type: "defeatedChanged", round: state.round, combatantId }];
    let s = updateCombatant(state, combatantId, (c) => ({ ...c, defeated }));
    // A hero defeated in its own turn stops acting (a failure waiting for the GM still waits).
    const t = s.turn;
    if (defeated && t !== null && t.combatantId === combatantId && !t.failed) {
      events.push({ type: "turnEnded", round: s.round, combatantId });
      s = { ...s, turn: null, lastHero: combatantId };
    }
    return accept(s, events);
  },

  setPoolCap(state, { cap }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isPoints(cap)) return refuse("invalidValue");
    const events: PhasesEvent[] = [{ type: "poolCapChanged", round: state.round, amount: cap }];
    const lost = Math.max(state.pool - cap, 0);
    if (lost > 0) events.push({ type: "advantagesLost", round: state.round, amount: lost });
    return accept({ ...state, poolCap: cap, pool: state.pool - lost }, events, configStep(state));
  },

  setCollapse(state, { points }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isPoints(points)) return refuse("invalidValue");
    const events: PhasesEvent[] = [{ type: "collapseChanged", round: state.round, amount: points }];
    return accept({ ...state, collapse: points }, events, configStep(state));
  },

  start(state, { surprise }, who) {
    if (!who.isGM) return refuse("notGM");
    if (state.started) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    const events: PhasesEvent[] = [{ type: "combatStarted", round: 1 }];
    return accept(startRound({ ...state, started: true, surprise }, 1, events), events, "round");
  },

  declareIntent(state, command, who) {
    const why = declareRefusal(state, command, who);
    if (why !== null) return why;
    const { foeId, text, kind, targets } = command;
    const events: PhasesEvent[] = [];
    return accept(addIntent(state, foeId, text, kind, targets, false, events), events, "turn");
  },

  spendCollapse(state, command, who) {
    const why = collapseRefusal(state, command, who);
    if (why !== null) return why;
    const { foeId, text, targets } = command;
    const events: PhasesEvent[] = [{ type: "collapseSpent", round: state.round, combatantId: foeId, amount: 1 }];
    const s = addIntent({ ...state, collapse: state.collapse - 1 }, foeId, text, "attack", targets, true, events);
    return accept(s, events, "turn");
  },

  nextPhase(state, _command, who) {
    const why = advanceRefusal(state, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    const s = nextPhaseOf(state, events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  nextTurn(state, _command, who) {
    const why = nextTurnRefusal(state, who);
    if (why !== null) return why;
    // In phase 2 the acting hero's turn ends.
    if (state.phase === "heroes" && state.turn !== null) {
      const events: PhasesEvent[] = [];
      return accept(finishTurn(state, events), events, "turn");
    }
    const events: PhasesEvent[] = [];
    const s = state.phase === "foesResolve" ? resolveNextFoe(state, events) : nextPhaseOf(state, events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  nextRound(state, _command, who) {
    const why = advanceRefusal(state, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(startRound(state, state.round + 1, events), events, "round");
  },

  setHandOff(state, { on }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    if (state.phase !== "foesDeclare" && state.phase !== "heroes") return refuse("wrongStep");
    const events: PhasesEvent[] = [{ type: "handOffChanged", round: state.round }];
    return accept({ ...state, handOff: on }, events, "turn");
  },

  startTurn(state, command, who) {
    const why = startRefusal(state, command, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(beginTurn(state, command.combatantId, events), events, "turn");
  },

  pickNext(state, command, who) {
    const why = pickRefusal(state, command, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(beginTurn(state, command.combatantId, events), events, "turn");
  },

  skillRoll(state, command, who) {
    const why = rollRefusal(state, command, who);
    if (why !== null) return why;
    const { combatantId, dieSize, dice } = command;
    const t = state.turn;
    // Ruled out by `rollRefusal`; checked again for the types.
    if (t === null || !isDieSize(dieSize)) return refuse("notYourTurn", combatantId);
    const complexity = complexityAfter(t.skillActions);
    const skill = command.skill ?? null;
    const defends = command.defendsIntent ?? null;
    const gainsAdvantage = command.gainsAdvantage ?? false;
    const move = command.move ?? false;
    const success = !hasDoubles(dice);
    const roll: PhasesRoll = {
      combatantId,
      skill,
      dieSize,
      complexity,
      dice: [...dice],
      defends,
      gainsAdvantage,
      move,
      answer: null,
    };
    const round = state.round;
    const events: PhasesEvent[] = [{ type: success ? "skillRolled" : "rollFailed", round, combatantId, roll }];
    let s: PhasesState = {
      ...state,
      lastRoll: roll,
      turn: {
        combatantId,
        skillActions: t.skillActions + 1,
        freeMoveUsed: t.freeMoveUsed || move,
        failed: !success,
      },
    };
    if (success && defends !== null) {
      events.push({ type: "intentFoiled", round, combatantId, intentId: defends });
      s = updateIntent(s, defends, (i) => ({ ...i, foiled: true, foiledBy: combatantId }));
    }
    if (success && gainsAdvantage) {
      events.push({ type: "advantageGained", round, combatantId, amount: 1 });
      s = { ...s, pool: s.pool + 1 };
    }
    return accept(s, events, "turn");
  },

  freeAction(state, command, who) {
    const why = freeRefusal(state, command, who);
    if (why !== null) return why;
    const { combatantId, kind, note } = command;
    const t = state.turn;
    if (t === null) return refuse("notYourTurn", combatantId);
    const events: PhasesEvent[] = [
      { type: "freeAction", round: state.round, combatantId, text: note === undefined ? kind : `${kind}: ${note}` },
    ];
    const turn: HeroTurn = kind === "move" ? { ...t, freeMoveUsed: true } : t;
    return accept({ ...state, turn }, events, "turn");
  },

  endTurn(state, { combatantId }, who) {
    const why = actingRefusal(state, combatantId, who);
    if (why !== null) return why;
    const events: PhasesEvent[] = [];
    return accept(finishTurn(state, events), events, "turn");
  },

  resolveFailure(state, command, who) {
    if (!who.isGM) return refuse("notGM");
    const t = state.turn;
    if (!state.started || t === null || !t.failed) return refuse("noFailure");
    if (command.choice === "effect" && !isText(command.text)) return refuse("invalidValue");
    const round = state.round;
    const combatantId = t.combatantId;
    const answer: FailureAnswer =
      command.choice === "effect" ? { choice: "effect", text: command.text } : { choice: "collapse" };
    const events: PhasesEvent[] = [];
    let s = state;
    if (answer.choice === "effect") {
      events.push({ type: "failureEffect", round, combatantId, text: answer.text });
    } else {
      if (state.collapse >= MAX_POINTS) return refuse("invalidValue");
      events.push({ type: "collapseGained", round, combatantId, amount: 1 });
      s = { ...s, collapse: s.collapse + 1 };
    }
    const roll = s.lastRoll;
    if (roll !== null && roll.combatantId === combatantId) s = { ...s, lastRoll: { ...roll, answer } };
    return accept(finishTurn(s, events), events, "turn");
  },

  spendAdvantage(state, command, who) {
    const why = advantageRefusal(state, command, who);
    if (why !== null) return why;
    const { note, combatantId } = command;
    const event: PhasesEvent =
      combatantId === undefined
        ? { type: "advantageSpent", round: state.round, text: note, amount: 1 }
        : { type: "advantageSpent", round: state.round, combatantId, text: note, amount: 1 };
    return accept({ ...state, pool: state.pool - 1 }, [event], "turn");
  },

  markOutOfReach(state, command, who) {
    const why = reachRefusal(state, command, who);
    if (why !== null) return why;
    const { intentId, outOfReach } = command;
    const intent = findById(state.intents, intentId);
    if (intent === undefined) return refuse("unknownIntent");
    const events: PhasesEvent[] = [
      { type: "outOfReachChanged", round: state.round, combatantId: intent.foeId, intentId },
    ];
    return accept(
      updateIntent(state, intentId, (i) => ({ ...i, outOfReach })),
      events,
      "turn",
    );
  },
};

function applyCommand(state: PhasesState, command: PhasesCommand, who: Requester): Outcome<PhasesState> {
  return dispatch(handlers, state, command, who);
}

// ---------------------------------------------------------------------------------------------
// View and allowed actions
// ---------------------------------------------------------------------------------------------

/** Whoever is handled now: the foe being declared for, the acting hero, the resolving foe; or null. */
function currentOf(state: PhasesState): string | null {
  if (!state.started) return null;
  switch (state.phase) {
    case "foesDeclare":
      return declaringFoe(state);
    case "heroes":
      return state.turn?.combatantId ?? null;
    case "foesResolve":
      return foesToResolve(state)[0] ?? null;
    default:
      return null;
  }
}

/** Who comes after the current one, where the order is known (phases 1 and 3); null in phase 2. */
function nextOf(state: PhasesState): string | null {
  if (!state.started) return null;
  if (state.phase === "foesDeclare") return foesToDeclare(state)[1] ?? null;
  if (state.phase === "foesResolve") return foesToResolve(state)[1] ?? null;
  return null;
}

/** Foes first, then heroes, each in joining order: a stable order, so turn changes move no rows. */
function viewOrder(state: PhasesState): string[] {
  return [...state.combatants.filter(isFoe), ...state.combatants.filter((c) => c.isPC)].map((c) => c.id);
}

function view(state: PhasesState): TurnView {
  return {
    started: state.started,
    round: state.round,
    step: state.phase,
    order: viewOrder(state),
    current: currentOf(state),
    next: nextOf(state),
  };
}

/** A fair-looking roll of `count` dice (only the count and range matter to a probe). */
function probeDice(count: number): number[] {
  return Array.from({ length: count }, (_, i) => (i % 12) + 1);
}

type PhasesProbe = Probe<PhasesAllowedAction, PhasesCommand>;

/** A probe of `command` for the action of its type, about `about`. */
const on = (command: PhasesCommand, about?: Omit<PhasesAllowedAction, "type">): PhasesProbe => probe(command, about);

/**
 * The probes of what `who` may do now. Only those that can be accepted are made: the GM's commands
 * for the GM alone, an intent while phase 1 takes them, a Collapse attack while its window is open
 * and a point is left, a turn start or pick while phase 2 has no turn running, the acting hero's
 * commands (end, rolls, free actions) for that hero alone, an Advantage spend while the pool holds
 * one, a reach mark in phase 3 on an unresolved intent. Every other probe could only be refused
 * (test/rules/phases-allowed.property.test.ts compares this with trying them all).
 */
function probes(state: PhasesState, who: Requester): PhasesProbe[] {
  const list: PhasesProbe[] = [
    on({ type: "start", surprise: false }),
    on({ type: "nextPhase" }),
    on({ type: "nextTurn" }),
    on({ type: "nextRound" }),
    on({ type: "setPoolCap", cap: state.poolCap }),
    on({ type: "setCollapse", points: state.collapse }),
    on({ type: "setHandOff", on: !state.handOff }),
    on({ type: "resolveFailure", choice: "collapse" }),
    on({ type: "spendAdvantage", note: "" }),
  ];
  const gm = who.isGM;
  const declaring = gm && state.started && state.phase === "foesDeclare";
  const collapsing = gm && collapseWindow(state) && state.collapse > 0;
  const firstTarget = heroesToAct(state)[0] ?? state.combatants.find((c) => c.isPC && !c.defeated)?.id;
  const starting = state.started && state.phase === "heroes" && state.turn === null;
  const t = state.turn;
  const acting = state.started && state.phase === "heroes" && t !== null && !t.failed ? t.combatantId : null;
  const spending = state.started && state.pool > 0;
  const dice = probeDice(nextComplexity(state) ?? FIRST_COMPLEXITY);
  const defendable = acting === null ? [] : defendableIntents(state);
  for (const c of state.combatants) {
    const combatantId = c.id;
    const about = { combatantId };
    if (gm) {
      list.push(
        on({ type: "setDefeated", combatantId, defeated: !c.defeated }, about),
        on({ type: "removeCombatant", combatantId }, about),
      );
    }
    if (!c.isPC) {
      if (declaring)
        list.push(on({ type: "declareIntent", foeId: combatantId, text: "", kind: "other", targets: [] }, about));
      if (collapsing && firstTarget !== undefined) {
        list.push(on({ type: "spendCollapse", foeId: combatantId, text: "", targets: [firstTarget] }, about));
      }
      continue;
    }
    if (starting && !c.acted && !c.defeated) {
      list.push(on({ type: "startTurn", combatantId }, about), on({ type: "pickNext", combatantId }, about));
    }
    const roll = { type: "skillRoll", combatantId, dieSize: 12, dice } as const;
    if (combatantId === acting) {
      list.push(
        on({ type: "endTurn", combatantId }, about),
        on(roll, about),
        on({ ...roll, gainsAdvantage: true }, { combatantId, gainsAdvantage: true }),
        on({ type: "freeAction", combatantId, kind: "move" }, { combatantId, kind: "move" }),
        on({ type: "freeAction", combatantId, kind: "item" }, { combatantId, kind: "item" }),
      );
    }
    if (spending && canControl(who, combatantId))
      list.push(on({ type: "spendAdvantage", note: "", combatantId }, about));
    if (combatantId !== acting) continue;
    for (const intentId of defendable) list.push(on({ ...roll, defendsIntent: intentId }, { combatantId, intentId }));
  }
  if (gm && state.started && state.phase === "foesResolve") {
    for (const intent of state.intents) {
      if (intent.resolved) continue;
      list.push(
        on(
          { type: "markOutOfReach", intentId: intent.id, outOfReach: !intent.outOfReach },
          { intentId: intent.id, combatantId: intent.foeId },
        ),
      );
    }
  }
  return list;
}

/**
 * The commands tried by their refusal check alone: each handler, once past it, always accepts, so
 * that no new state is built per combatant, hero and intent, nor for a turn, phase or round moving
 * on. Every other command (one cheap probe each) is tried through the rules.
 */
const refusalChecks: RefusalChecks<PhasesState, PhasesCommand> = {
  nextTurn: (state, _command, who) => nextTurnRefusal(state, who),
  nextPhase: (state, _command, who) => advanceRefusal(state, who),
  nextRound: (state, _command, who) => advanceRefusal(state, who),
  removeCombatant: (state, { combatantId }, who) => rosterRefusal(state, combatantId, who),
  setDefeated: (state, { combatantId }, who) => rosterRefusal(state, combatantId, who),
  declareIntent: declareRefusal,
  spendCollapse: collapseRefusal,
  startTurn: startRefusal,
  pickNext: pickRefusal,
  endTurn: (state, { combatantId }, who) => actingRefusal(state, combatantId, who),
  skillRoll: rollRefusal,
  freeAction: freeRefusal,
  spendAdvantage: advantageRefusal,
  markOutOfReach: reachRefusal,
};

/** What this user may do now, with the combatant, intent or free action each control is about. */
export function phasesAllowed(state: PhasesState, who: Requester): readonly PhasesAllowedAction[] {
  const given: PhasesAllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  return allowedByTrial(state, who, given, probes(state, who), applyCommand, refusalChecks);
}

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

/** A list of at most `MAX_TARGETS` well-formed ids (intent targets, sent or stored). */
export function isTargetList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.length <= MAX_TARGETS && value.every(isId);
}

function isFace(value: unknown): value is number {
  return Number.isInteger(value) && Math.abs(value as number) <= 1000;
}

function isKind(value: unknown): value is IntentKind {
  return value === "attack" || value === "other";
}

/** A list of at most `MAX_TARGETS` well-formed ids, copied. */
const TARGETS: FieldReader<readonly string[]> = (value) => (isTargetList(value) ? [...value] : BAD);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<PhasesCommand> = {
  startTurn: { combatantId: ID_FIELD },
  pickNext: { combatantId: ID_FIELD },
  endTurn: { combatantId: ID_FIELD },
  setPoolCap: { cap: required(isPoints) },
  setCollapse: { points: required(isPoints) },
  // Combat#startCombat (core's "Begin combat") sends no surprise: the foes caught nobody unaware.
  start: { surprise: absentOr(isFlag, false) },
  declareIntent: { foeId: ID_FIELD, text: required(isText), kind: required(isKind), targets: TARGETS },
  spendCollapse: { foeId: ID_FIELD, text: required(isText), targets: TARGETS },
  setHandOff: { on: required(isFlag) },
  skillRoll: {
    combatantId: ID_FIELD,
    dieSize: (value) => (Number.isInteger(value) ? (value as number) : BAD),
    dice: (value) => (Array.isArray(value) && value.length <= MAX_DICE && value.every(isFace) ? [...value] : BAD),
    skill: optional(isId),
    gainsAdvantage: absentOr(isFlag),
    defendsIntent: optional(isId),
    move: absentOr(isFlag),
  },
  freeAction: {
    combatantId: ID_FIELD,
    kind: (value) => (value === "move" || value === "item" ? value : BAD),
    note: optional(isText),
  },
  resolveFailure: {
    choice: (value) => (value === "collapse" || value === "effect" ? value : BAD),
    text: (value, d) => (d.choice === "collapse" ? undefined : isText(value) ? value : BAD),
  },
  spendAdvantage: { note: required(isText), combatantId: optional(isId) },
  markOutOfReach: {
    intentId: ID_FIELD,
    outOfReach: (value) => {
      // Absent or null: marked out of reach.
      const outOfReach = value ?? true;
      return isFlag(outOfReach) ? outOfReach : BAD;
    },
  },
  nextPhase: {},
  nextTurn: {},
  nextRound: {},
};

function parseCommand(data: unknown): PhasesCommand | null {
  return parseByTable(data, COMMANDS);
}

// ---------------------------------------------------------------------------------------------
// The mode
// ---------------------------------------------------------------------------------------------

/** Encounter settings a new state starts with (the glue reads them from the world's configuration). */
export interface PhasesSettings {
  /** The Advantage pool's cap: the ship's Livability Rating. */
  readonly poolCap: number;
  /** The GM's Collapse points at the start of the encounter. */
  readonly collapse: number;
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

/** Foes declare, heroes act in any order with press-your-luck turns, foes resolve (RULES.md §5). */
/**
 * The acting turn: a hero's turn (phase 2) or a foe resolving its intents (phase 3), named by round,
 * phase and combatant. A foe declaring (phase 1) takes no turn.
 */
export function phasesTurnKey(state: PhasesState): string | null {
  if (!state.started || (state.phase !== "heroes" && state.phase !== "foesResolve")) return null;
  const current = currentOf(state);
  return current === null ? null : `${state.round}:${state.phase}:${current}`;
}

export const phasesMode: ModeDefinition<PhasesState, PhasesCommand> = {
  id: "phases",
  create: (roster) => createPhases(roster),
  apply: applyCommand,
  view,
  allowed: phasesAllowed,
  isRosterCommand: (command) => command.type === "addCombatant" || command.type === "removeCombatant",
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: phasesTurnKey,
};
