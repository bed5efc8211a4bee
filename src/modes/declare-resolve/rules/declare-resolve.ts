/**
 * The `declare-resolve` mode (RULES.md §3, rulebook excerpt 002): the slowest declare first, the
 * fastest resolve first, with action points.
 *
 * - **Initiative Points (IP).** Each combatant rolls once per combat (`recordIP`: the roll happens in
 *   Foundry, the total and the modifier arrive as data). Before the start a new roll replaces the old;
 *   after it only a combatant that has not rolled (a joiner) may roll. Temporary IP changes
 *   (`addIPChange`) have a cause, an amount and a duration: this round, N rounds, or until removed;
 *   they revert on their own when their last round ends. The order uses the current IP (base + changes).
 * - **Ties.** One ranking serves both orders: higher current IP is faster; equal IP → the higher
 *   modifier is faster (declares later, resolves earlier); still tied → the GM orders them
 *   (`orderTied`, fastest first). The rules never pick silently: while a tie waits for the GM
 *   ({@link pendingTies}) nobody is current, and starting or moving on is refused (`ipTiePending`).
 * - **A round** has the steps roll (only when someone still needs a roll), declare, resolve (which
 *   the view shows as `extraAttacks` once the extra attacks resolve) and upkeep.
 * - **Declare**, slowest first. Only the combatant whose turn it is declares (its owner, or the GM);
 *   once a round. A declaration is an ordered list of actions `{name, cost, kind, def}`; an empty list
 *   is the explicit "no actions this round". The GM's next turn skips the current declarer (it
 *   declares nothing). Every declaration is in the state, visible to all.
 * - **Action points.** The AP available this round is the budget (default 5) minus what an action
 *   declared last round carried over. The costs must fit the available AP, except a single action
 *   that needs at least all of it: it takes all of it now and carries the rest into the next round
 *   (the rest may not exceed a round's budget: an action finishes the round after it is declared).
 * - **DEF.** Declared DEF changes add up for the whole round ({@link defChange}).
 * - **Resolve**, fastest first, in passes; each combatant's part of a pass is one turn, ended by its
 *   next turn. Pass 0: carried actions finish, at the start of the resolution. Pass 1: each combatant
 *   resolves its declared actions except its second and later attacks. Pass k ≥ 2: every k-th attack.
 *   Combatants with nothing in a pass are skipped.
 * - **Upkeep**: after the resolution the GM confirms the upkeep the rules computed
 *   ({@link upkeepPreview}): bleeding removes that many hits (reported in an `upkeepApplied` event;
 *   bleeding itself stays until the GM changes it), dazed and stunned go down by one (a status ends
 *   at 0). IP changes whose last round this was revert. Then the next round begins.
 *
 * A defeated combatant takes no part: it does not declare or resolve, is in no tie, needs no roll and
 * has no upkeep; its facts are kept for when it comes back.
 *
 * The state keeps per-combatant facts (IP, changes, tie break, its latest declaration); every order,
 * and who is current, is derived. A declaration carries its round, the action carried into that
 * round and how many resolution turns its combatant has had: a new round begins without touching any
 * combatant (an older round's declaration counts as none), so the upkeep writes only what it ticks.
 * One order is shown all round, fastest first: the declaration walks it from the bottom up.
 */

import {
  accept,
  type AllowedAction,
  type ModeDefinition,
  type Outcome,
  type Refusal,
  type Requester,
  type RosterEntry,
  type RuleEvent,
  type TurnView,
  refuse,
} from "../../../core/engine";
import {
  addToRoster,
  allowedByTrial,
  dispatch,
  type Handlers,
  type RefusalChecks,
  canControl,
  findById,
  isFiniteNumber,
  isId,
  isRecord,
  isText,
  oncePerId,
  sameSet,
  parseByTable,
  required,
  optional,
  BAD,
  ID_FIELD,
  type FieldReader,
  type CommandTable,
  stepKind,
  MAX_ID_LENGTH,
  MAX_TEXT_LENGTH,
  isWhole,
  updateCombatant,
} from "../../../core/common";

// ---------------------------------------------------------------------------------------------
// Limits and codes
// ---------------------------------------------------------------------------------------------

/** The AP budget per round unless the GM sets another. */
export const DEFAULT_AP_BUDGET = 5;
/** Largest AP budget accepted. */
export const MAX_AP_BUDGET = 99;
/** Largest AP cost of one action. */
export const MAX_ACTION_COST = 99;
/** Most actions in one declaration. */
export const MAX_DECLARED_ACTIONS = 20;
/** Longest action name. */
export const MAX_ACTION_NAME_LENGTH = 100;
/** Largest DEF change (either way) of one action. */
export const MAX_DEF_CHANGE = 99;
/** Largest IP total, modifier or change amount (either way). */
export const MAX_IP = 9999;
/** Longest cause of an IP change. */
export const MAX_CAUSE_LENGTH = 200;
/** Most IP changes on one combatant. */
export const MAX_IP_CHANGES = 50;
/** Longest duration of an IP change, in rounds. */
export const MAX_IP_CHANGE_ROUNDS = 999;
/** Largest bleeding, dazed or stunned value. */
export const MAX_CONDITION = 999;

/**
 * Refusal codes this mode adds to the shared `REFUSAL_CODES`. Each has a message
 * `STRUCTURED_INITIATIVE.Refusal.<code>`; `apOverBudget` and `actionTooLong` carry `total`,
 * `available` and `budget` ({@link BudgetRefusal}) for the `{total}` / `{available}` placeholders.
 */
export const DECLARE_RESOLVE_REFUSALS = [
  "apOverBudget",
  "actionTooLong",
  "invalidCost",
  "unknownAction",
  "ipAlreadyRolled",
  "ipTiePending",
  "notIPTied",
  "unknownIPChange",
] as const;
/** One of this mode's own refusal codes. */
export type DeclareResolveRefusalCode = (typeof DECLARE_RESOLVE_REFUSALS)[number];

/** A refused declaration that does not fit the AP: the sum of its costs and the AP available. */
export interface BudgetRefusal extends Refusal {
  readonly code: "apOverBudget" | "actionTooLong";
  /** The sum of the declared costs. */
  readonly total: number;
  /** The AP available this round (budget minus what was carried in). */
  readonly available: number;
  /** The AP budget per round. */
  readonly budget: number;
}

// ---------------------------------------------------------------------------------------------
// State, commands, events
// ---------------------------------------------------------------------------------------------

/** What kind of action a declared action is; second and later attacks resolve after everyone. */
export type ActionKind = "attack" | "defence" | "other";

/** The action kinds, in the catalogue's order. */
export const ACTION_KINDS: readonly ActionKind[] = ["attack", "defence", "other"];

/** A declared action, validated. */
export interface DeclaredAction {
  readonly name: string;
  /** AP cost: a whole number, 0 or more. */
  readonly cost: number;
  readonly kind: ActionKind;
  /** Change to the combatant's DEF for the whole round (0: none). */
  readonly def: number;
}

/** An action as a declaration sends it (the glue resolves catalogue entries into these); validated by `declare`. */
export interface ActionInput {
  readonly name: string;
  /** Not a whole number 0 or more (NaN, or -1 from `parseCommand`) when the sender gave something that is not a cost. */
  readonly cost: number;
  /** Checked against {@link ACTION_KINDS}. */
  readonly kind: string;
  readonly def?: number;
}

/** How long a temporary IP change lasts, as a command gives it. */
export type IPChangeDuration =
  { readonly kind: "round" } | { readonly kind: "rounds"; readonly rounds: number } | { readonly kind: "untilRemoved" };

/** A temporary change to a combatant's IP. */
export interface IPChange {
  /** Unique among the combatant's changes. */
  readonly id: string;
  readonly cause: string;
  readonly amount: number;
  /** The last round it applies to (it reverts when that round ends); null: until removed. */
  readonly lastRound: number | null;
}

/** A combatant's base IP roll. */
export interface InitiativePoints {
  /** The roll's total: the base IP for the whole combat. */
  readonly total: number;
  /** The roll's modifier (Speed and Wisdom bonus and others): breaks ties, higher is faster. */
  readonly modifier: number;
}

/**
 * The GM's order for a tie: it holds while the combatant's current IP is still `ip`, against others
 * placed in the same `tie` (a smaller `rank` is faster).
 */
export interface TieBreak {
  readonly ip: number;
  /** Which `orderTied` placed it (a serial number). */
  readonly tie: number;
  readonly rank: number;
}

/** Per-combatant statuses the upkeep handles. */
export interface Conditions {
  /** Hits lost at every upkeep. */
  readonly bleeding: number;
  /** Goes down by one at every upkeep. */
  readonly dazed: number;
  /** Goes down by one at every upkeep. */
  readonly stunned: number;
}

/** A combatant's declaration, for the round it was made in (see {@link declarationOf}). */
export interface Declaration {
  /** The round it was made in. */
  readonly round: number;
  /** In declared order; empty: no actions this round. */
  readonly actions: readonly DeclaredAction[];
  /** AP its single long action carries into the next round (0: none). */
  readonly carry: number;
  /** The GM skipped the combatant's turn to declare: it declared nothing. */
  readonly skipped: boolean;
  /** The action last round carried into this one (fixed when the declaration is made). */
  readonly carriedIn: CarriedAction | null;
  /** How many of its combatant's resolution turns are done in its round. */
  readonly resolved: number;
}

/** An action declared last round that finishes at the start of this round's resolution. */
export interface CarriedAction {
  readonly action: DeclaredAction;
  /** AP of this round it uses. */
  readonly ap: number;
}

/** A combatant as the declare-resolve mode tracks it. */
export interface DeclareResolveCombatant {
  readonly id: string;
  readonly name: string;
  readonly isPC: boolean;
  /** Takes no part while defeated. */
  readonly defeated: boolean;
  /** Its IP roll; null until rolled. */
  readonly ip: InitiativePoints | null;
  readonly ipChanges: readonly IPChange[];
  readonly tieBreak: TieBreak | null;
  /** Its latest declaration, of this round or an earlier one; null until it first declares. */
  readonly declaration: Declaration | null;
  readonly conditions: Conditions;
}

/** The stored step of a round; `setup` before the start. */
export type DeclareResolvePhase = "setup" | "roll" | "declare" | "resolve" | "upkeep";

/** `TurnView.step` of this mode (keys under `STRUCTURED_INITIATIVE.Step`). */
export type DeclareResolveStep = DeclareResolvePhase | "extraAttacks";

/** The declare-resolve mode's state. Plain JSON data; never mutated. */
export interface DeclareResolveState {
  /** Every combatant, in the order they joined. */
  readonly combatants: readonly DeclareResolveCombatant[];
  /** AP per round. */
  readonly budget: number;
  /** 0 before the start. */
  readonly round: number;
  readonly phase: DeclareResolvePhase;
  /** How many ties the GM has ordered (the serial number of the next {@link TieBreak}). */
  readonly tiesOrdered: number;
}

/** Commands of the declare-resolve mode. */
export type DeclareResolveCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean }
  | { readonly type: "setBudget"; readonly budget: number }
  | { readonly type: "recordIP"; readonly combatantId: string; readonly total: number; readonly modifier: number }
  | {
      readonly type: "addIPChange";
      readonly combatantId: string;
      /** Chosen by the rules when left out. */
      readonly changeId?: string;
      readonly cause: string;
      readonly amount: number;
      readonly duration: IPChangeDuration;
    }
  | { readonly type: "removeIPChange"; readonly combatantId: string; readonly changeId: string }
  /** `combatantIds`: exactly a pending tie, fastest first. */
  | { readonly type: "orderTied"; readonly combatantIds: readonly string[] }
  | { readonly type: "start" }
  | { readonly type: "declare"; readonly combatantId: string; readonly actions: readonly ActionInput[] }
  | { readonly type: "nextTurn" }
  | { readonly type: "nextRound" }
  /** The GM confirms the upkeep shown by {@link upkeepPreview}; the next round begins. */
  | { readonly type: "upkeep" }
  | {
      readonly type: "setConditions";
      readonly combatantId: string;
      readonly bleeding: number;
      readonly dazed: number;
      readonly stunned: number;
    };

/** The `type` of every declare-resolve command. */
export type DeclareResolveCommandType = DeclareResolveCommand["type"];

/** Events the declare-resolve mode emits (`RuleEvent.type`). */
export const DECLARE_RESOLVE_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "defeatedChanged",
  "budgetChanged",
  "ipRecorded",
  "ipChangeAdded",
  "ipChangeRemoved",
  "ipChangeExpired",
  "tieOrdered",
  "conditionsSet",
  "combatStarted",
  "roundStarted",
  "stepStarted",
  "declared",
  "declarationSkipped",
  "actionsResolved",
  "upkeepApplied",
  "conditionEnded",
  "turnStarted",
] as const;
/** One declare-resolve event type. */
export type DeclareResolveEventType = (typeof DECLARE_RESOLVE_EVENTS)[number];

/** A declare-resolve event, with the details the glue announces. */
export interface DeclareResolveEvent extends RuleEvent {
  readonly type: DeclareResolveEventType;
  /** `stepStarted`: the step that began. */
  readonly step?: DeclareResolveStep;
  /** `ipChange*`: the change. */
  readonly changeId?: string;
  /** `upkeepApplied`: hits to remove for bleeding. */
  readonly hits?: number;
  /** `upkeepApplied`: dazed after the upkeep. */
  readonly dazed?: number;
  /** `upkeepApplied`: stunned after the upkeep. */
  readonly stunned?: number;
  /** `conditionEnded`: which status reached 0. */
  readonly condition?: "dazed" | "stunned";
  /** `actionsResolved`: the pass (0 finishing, 1 initial actions, k ≥ 2 the k-th attacks). */
  readonly pass?: number;
}

// ---------------------------------------------------------------------------------------------
// IP and order
// ---------------------------------------------------------------------------------------------

/** A combatant's current IP: base + its changes; null until it rolls. */
/** The combatant's declaration this round, or null (it has not declared yet this round). */
export function declarationOf(state: DeclareResolveState, c: DeclareResolveCombatant): Declaration | null {
  const d = c.declaration;
  return d !== null && d.round === state.round ? d : null;
}

/** The action last round's declaration carried into this round, or null. */
export function carriedInOf(state: DeclareResolveState, c: DeclareResolveCombatant): CarriedAction | null {
  const d = c.declaration;
  if (d === null) return null;
  if (d.round === state.round) return d.carriedIn;
  const long = d.round === state.round - 1 && d.carry > 0 ? d.actions[0] : undefined;
  return long === undefined ? null : { action: long, ap: d.carry };
}

/** How many of the combatant's resolution turns are done this round. */
export function resolvedOf(state: DeclareResolveState, c: DeclareResolveCombatant): number {
  return declarationOf(state, c)?.resolved ?? 0;
}

export function currentIP(c: DeclareResolveCombatant): number | null {
  if (c.ip === null) return null;
  return c.ipChanges.reduce((sum, change) => sum + change.amount, c.ip.total);
}

/** Takes part in the round: rolled and not defeated. */
function takesPart(c: DeclareResolveCombatant): boolean {
  return c.ip !== null && !c.defeated;
}

function participants(state: DeclareResolveState): DeclareResolveCombatant[] {
  return state.combatants.filter(takesPart);
}

/** The GM's tie break, when it still holds (the combatant's IP has not moved since). */
function validTie(c: DeclareResolveCombatant): TieBreak | null {
  return c.tieBreak !== null && c.tieBreak.ip === currentIP(c) ? c.tieBreak : null;
}

/**
 * Negative: `a` is faster (resolves earlier, declares later). `joined` gives joining places, the last
 * resort (it only decides while a tie waits for the GM, and then nobody is current).
 */
function compareSpeed(
  a: DeclareResolveCombatant,
  b: DeclareResolveCombatant,
  joined: ReadonlyMap<string, number>,
): number {
  const byIP = (currentIP(b) ?? -Infinity) - (currentIP(a) ?? -Infinity);
  if (byIP !== 0) return byIP;
  const byModifier = (b.ip?.modifier ?? 0) - (a.ip?.modifier ?? 0);
  if (byModifier !== 0) return byModifier;
  const ta = validTie(a);
  const tb = validTie(b);
  if (ta !== null && tb !== null && ta.tie === tb.tie) return ta.rank - tb.rank;
  return (joined.get(a.id) ?? 0) - (joined.get(b.id) ?? 0);
}

/** Joining places by id. */
function joinIndex(state: DeclareResolveState): ReadonlyMap<string, number> {
  return new Map(state.combatants.map((c, i) => [c.id, i]));
}

function sortedBySpeed(
  state: DeclareResolveState,
  list: readonly DeclareResolveCombatant[],
): DeclareResolveCombatant[] {
  const joined = joinIndex(state);
  return [...list].sort((a, b) => compareSpeed(a, b, joined));
}

/**
 * Ties that wait for the GM (`orderTied`): sets of combatants taking part with the same current IP
 * and the same modifier that the GM has not (fully) ordered. Each set fastest first as it stands.
 */
export function pendingTies(state: DeclareResolveState): readonly (readonly string[])[] {
  return findTies(state);
}

function findTies(state: DeclareResolveState): readonly (readonly string[])[] {
  const groups = new Map<string, DeclareResolveCombatant[]>();
  for (const c of participants(state)) {
    const key = `${currentIP(c) ?? 0}|${c.ip?.modifier ?? 0}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const ties: string[][] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const breaks = group.map(validTie);
    const first = breaks[0];
    const ordered =
      first !== null &&
      first !== undefined &&
      breaks.every((t) => t !== null && t.tie === first.tie) &&
      new Set(breaks.map((t) => t?.rank)).size === group.length;
    if (!ordered) ties.push(sortedBySpeed(state, group).map((c) => c.id));
  }
  return ties;
}

function tiePending(state: DeclareResolveState): boolean {
  return pendingTies(state).length > 0;
}

/** Combatants taking part, fastest first (the resolve order). */
export function resolveOrder(state: DeclareResolveState): readonly string[] {
  return sortedBySpeed(state, participants(state)).map((c) => c.id);
}

/** Combatants taking part, slowest first (the declare order). */
export function declareOrder(state: DeclareResolveState): readonly string[] {
  return [...resolveOrder(state)].reverse();
}

/** Live combatants that still need an IP roll, in joining order. */
export function rollsNeeded(state: DeclareResolveState): readonly string[] {
  return state.combatants.filter((c) => c.ip === null && !c.defeated).map((c) => c.id);
}

// ---------------------------------------------------------------------------------------------
// Action points and DEF
// ---------------------------------------------------------------------------------------------

/** A combatant's AP this round, for the tracker's AP bar. */
export interface APView {
  readonly budget: number;
  /** Budget minus what was carried in (never below 0). */
  readonly available: number;
  /** Carried into this round by last round's action. */
  readonly carriedIn: number;
  /** Sum of this round's declared costs. */
  readonly declared: number;
  /** Carried into the next round by this round's single long action. */
  readonly carriedOut: number;
}

/** AP available to the combatant this round: the budget minus what an earlier action carried over. */
export function availableAP(state: DeclareResolveState, c: DeclareResolveCombatant): number {
  return Math.max(0, state.budget - (carriedInOf(state, c)?.ap ?? 0));
}

/** A combatant's AP this round. */
export function apView(state: DeclareResolveState, c: DeclareResolveCombatant): APView {
  const d = declarationOf(state, c);
  const declared = (d?.actions ?? []).reduce((sum, a) => sum + a.cost, 0);
  return {
    budget: state.budget,
    available: availableAP(state, c),
    carriedIn: carriedInOf(state, c)?.ap ?? 0,
    declared,
    carriedOut: d?.carry ?? 0,
  };
}

/** The change to the combatant's DEF this round: the sum of its declared DEF changes. */
export function defChange(state: DeclareResolveState, c: DeclareResolveCombatant): number {
  return (declarationOf(state, c)?.actions ?? []).reduce((sum, a) => sum + a.def, 0);
}

/** Whether a declaration may hold these actions, before sending it (the form's live legality). */
export type Legality =
  | {
      readonly ok: true;
      readonly actions: readonly DeclaredAction[];
      readonly total: number;
      readonly available: number;
      /** AP carried into the next round (0: none). */
      readonly carry: number;
    }
  | { readonly ok: false; readonly refusal: Refusal };

function isActionKind(value: unknown): value is ActionKind {
  return ACTION_KINDS.some((k) => k === value);
}

/**
 * Check a list of actions against the AP rule for this combatant: each action needs a name and a
 * known kind (else `unknownAction`), a whole non-negative cost (`invalidCost`) and a whole DEF change
 * (`invalidValue`); the costs must fit the AP available (`apOverBudget`, with the sum and the AP),
 * except one single action that needs at least all of it (and carries the rest, at most a budget,
 * into the next round; more is `actionTooLong`).
 */
export function declarationLegality(
  state: DeclareResolveState,
  combatantId: string,
  actions: readonly ActionInput[],
): Legality {
  const c = findById(state.combatants, combatantId);
  if (c === undefined) return { ok: false, refusal: { code: "unknownCombatant", combatantId } };
  if (actions.length > MAX_DECLARED_ACTIONS) return { ok: false, refusal: { code: "tooManyActions", combatantId } };
  const valid: DeclaredAction[] = [];
  for (const a of actions) {
    const name = typeof a.name === "string" ? a.name.trim() : "";
    if (name === "" || name.length > MAX_ACTION_NAME_LENGTH || !isActionKind(a.kind)) {
      return { ok: false, refusal: { code: "unknownAction", combatantId } };
    }
    if (!isWhole(a.cost, MAX_ACTION_COST)) return { ok: false, refusal: { code: "invalidCost", combatantId } };
    const def = a.def ?? 0;
    if (!isWhole(def, MAX_DEF_CHANGE, -MAX_DEF_CHANGE)) {
      return { ok: false, refusal: { code: "invalidValue", combatantId } };
    }
    // `+ 0` turns a -0 into 0, so a stored state survives JSON.
    valid.push({ name, cost: a.cost + 0, kind: a.kind, def: def + 0 });
  }
  const total = valid.reduce((sum, a) => sum + a.cost, 0);
  const available = availableAP(state, c);
  const over = (code: BudgetRefusal["code"]): Legality => {
    const refusal: BudgetRefusal = { code, combatantId, total, available, budget: state.budget };
    return { ok: false, refusal };
  };
  if (total <= available) return { ok: true, actions: valid, total, available, carry: 0 };
  // The one exception: a single action that needs all of this round's AP carries the rest over.
  if (valid.length !== 1 || available === 0) return over("apOverBudget");
  const carry = total - available;
  if (carry > state.budget) return over("actionTooLong");
  return { ok: true, actions: valid, total, available, carry };
}

// ---------------------------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------------------------

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
function allTurns(state: DeclareResolveState): readonly TurnEntry[] {
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

function nextTurnOf(state: DeclareResolveState, c: DeclareResolveCombatant): ResolutionTurn | undefined {
  return resolutionTurns(state, c)[resolvedOf(state, c)];
}

// ---------------------------------------------------------------------------------------------
// Who is current
// ---------------------------------------------------------------------------------------------

/** Who declares now (the slowest taking part who has not declared), or null outside the declare step or while a tie waits. */
export function currentDeclarer(state: DeclareResolveState): string | null {
  if (state.phase !== "declare" || tiePending(state)) return null;
  const waiting = participants(state).filter((c) => declarationOf(state, c) === null);
  return sortedBySpeed(state, waiting).pop()?.id ?? null;
}

/** Who resolves now, or null outside the resolution or while a tie waits. */
export function currentResolver(state: DeclareResolveState): string | null {
  if (state.phase !== "resolve" || tiePending(state)) return null;
  return allTurns(state).find((t) => !t.done)?.turn.combatantId ?? null;
}

/** The turn being resolved now, or null. */
export function currentTurn(state: DeclareResolveState): ResolutionTurn | null {
  const id = currentResolver(state);
  const c = id === null ? undefined : findById(state.combatants, id);
  return c === undefined ? null : (nextTurnOf(state, c) ?? null);
}

function currentOf(state: DeclareResolveState): string | null {
  return currentDeclarer(state) ?? currentResolver(state);
}

/** The step the view shows: the stored phase, with the resolution's later passes shown as `extraAttacks`. */
export function currentStep(state: DeclareResolveState): DeclareResolveStep {
  if (state.phase !== "resolve") return state.phase;
  const pass = allTurns(state).find((t) => !t.done)?.turn.pass ?? 1;
  return pass >= 2 ? "extraAttacks" : "resolve";
}

// ---------------------------------------------------------------------------------------------
// Upkeep
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// The tracker's row
// ---------------------------------------------------------------------------------------------

/** Everything the tracker shows on a combatant's row. */
export interface CombatantRow {
  readonly combatantId: string;
  /** Base IP (the roll), or null. */
  readonly baseIP: number | null;
  /** Base + changes, or null. */
  readonly currentIP: number | null;
  readonly modifier: number | null;
  readonly ipChanges: readonly IPChange[];
  readonly ap: APView;
  /** DEF change this round. */
  readonly def: number;
  readonly declaration: Declaration | null;
  readonly carriedIn: CarriedAction | null;
  /** Its carried action still has to finish. */
  readonly finishing: boolean;
  readonly conditions: Conditions;
  readonly defeated: boolean;
  /** Declares now or resolves now. */
  readonly current: boolean;
  /** In a tie that waits for the GM. */
  readonly tied: boolean;
  /** Resolution turns still to come this round. */
  readonly turnsLeft: number;
}

/** The tracker's rows, in the view's order. */
export function combatantRows(state: DeclareResolveState): readonly CombatantRow[] {
  const current = currentOf(state);
  const tied = new Set(pendingTies(state).flat());
  const started = state.phase !== "setup";
  return viewOrder(state).flatMap((id) => {
    const c = findById(state.combatants, id);
    if (c === undefined) return [];
    const left =
      started && takesPart(c) && state.phase !== "upkeep" ? resolutionTurns(state, c).length - resolvedOf(state, c) : 0;
    return [
      {
        combatantId: id,
        baseIP: c.ip?.total ?? null,
        currentIP: currentIP(c),
        modifier: c.ip?.modifier ?? null,
        ipChanges: c.ipChanges,
        ap: apView(state, c),
        def: defChange(state, c),
        declaration: declarationOf(state, c),
        carriedIn: carriedInOf(state, c),
        finishing: isFinishing(state, c),
        conditions: c.conditions,
        defeated: c.defeated,
        current: current === id,
        tied: tied.has(id),
        turnsLeft: Math.max(0, left),
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------
// Round flow
// ---------------------------------------------------------------------------------------------

function enterPhase(state: DeclareResolveState, phase: DeclareResolvePhase, events: DeclareResolveEvent[]) {
  const s: DeclareResolveState = { ...state, phase };
  events.push({ type: "stepStarted", round: s.round, step: currentStep(s) });
  return s;
}

/**
 * Round `round` begins. No combatant changes: last round's declarations now count as none, and
 * their long actions as carried in (see {@link declarationOf} and {@link carriedInOf}).
 */
function startRound(state: DeclareResolveState, round: number, events: DeclareResolveEvent[]): DeclareResolveState {
  events.push({ type: "roundStarted", round });
  const s: DeclareResolveState = { ...state, round };
  return enterPhase(s, rollsNeeded(s).length > 0 ? "roll" : "declare", events);
}

/** Take every step that needs nobody; nothing moves while a tie waits for the GM. */
function settle(state: DeclareResolveState, events: DeclareResolveEvent[]): DeclareResolveState {
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
function advance(state: DeclareResolveState, events: DeclareResolveEvent[]): DeclareResolveState {
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

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

const NO_CONDITIONS: Conditions = { bleeding: 0, dazed: 0, stunned: 0 };

/** A declaration made now: what was carried in is fixed with it, and nothing is resolved yet. */
function newDeclaration(
  state: DeclareResolveState,
  c: DeclareResolveCombatant,
  actions: readonly DeclaredAction[],
  carry: number,
  skipped: boolean,
): Declaration {
  return { round: state.round, actions, carry, skipped, carriedIn: carriedInOf(state, c), resolved: 0 };
}

function newCombatant(entry: RosterEntry): DeclareResolveCombatant {
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

function isIPValue(value: unknown): value is number {
  return isFiniteNumber(value) && Math.abs(value) <= MAX_IP;
}

function isCause(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "" && value.length <= MAX_CAUSE_LENGTH;
}

function lastRoundOf(state: DeclareResolveState, duration: IPChangeDuration): number | null | undefined {
  const from = Math.max(state.round, 1);
  switch (duration.kind) {
    case "round":
      return from;
    case "rounds":
      return isWhole(duration.rounds, MAX_IP_CHANGE_ROUNDS, 1) ? from + duration.rounds - 1 : undefined;
    case "untilRemoved":
      return null;
    default:
      return undefined;
  }
}

/** A change id not yet used by the combatant. */
function freshChangeId(c: DeclareResolveCombatant): string {
  for (let n = c.ipChanges.length + 1; ; n++) {
    const id = `ip${n}`;
    if (!c.ipChanges.some((x) => x.id === id)) return id;
  }
}

const started = (state: DeclareResolveState): boolean => state.phase !== "setup";

const handlers: Handlers<DeclareResolveState, DeclareResolveCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    const why = rosterRefusal(state, combatantId, who);
    if (why !== null) return why;
    const s: DeclareResolveState = { ...state, combatants: state.combatants.filter((c) => c.id !== combatantId) };
    return accept(s, [{ type: "combatantRemoved", round: s.round, combatantId }]);
  },

  setDefeated(state, { combatantId, defeated }, who) {
    const why = rosterRefusal(state, combatantId, who);
    if (why !== null) return why;
    const s = updateCombatant(state, combatantId, (c) => ({ ...c, defeated }));
    return accept(s, [{ type: "defeatedChanged", round: s.round, combatantId }]);
  },

  setBudget(state, { budget }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isWhole(budget, MAX_AP_BUDGET, 1)) return refuse("invalidValue");
    // Declarations were checked against the budget: it changes only before the round's first one.
    if (state.combatants.some((c) => declarationOf(state, c) !== null)) return refuse("wrongStep");
    return accept({ ...state, budget: budget + 0 }, [{ type: "budgetChanged", round: state.round }]);
  },

  recordIP(state, command, who) {
    const why = refusalChecks.recordIP(state, command, who);
    if (why !== null) return why;
    const { combatantId, total, modifier } = command;
    const s = updateCombatant(state, combatantId, (x) => ({
      ...x,
      ip: { total: total + 0, modifier: modifier + 0 },
      tieBreak: null,
    }));
    return accept(s, [{ type: "ipRecorded", round: s.round, combatantId }]);
  },

  addIPChange(state, command, who) {
    const why = refusalChecks.addIPChange(state, command, who);
    if (why !== null) return why;
    const { combatantId, changeId, cause, amount, duration } = command;
    const c = findById(state.combatants, combatantId);
    const lastRound = lastRoundOf(state, duration);
    // Both are there: the refusal check found them.
    if (c === undefined || lastRound === undefined) return refuse("invalidValue", combatantId);
    const id = changeId ?? freshChangeId(c);
    const change: IPChange = { id, cause: cause.trim(), amount: amount + 0, lastRound };
    const s = updateCombatant(state, combatantId, (x) => ({ ...x, ipChanges: [...x.ipChanges, change] }));
    const events: DeclareResolveEvent[] = [{ type: "ipChangeAdded", round: s.round, combatantId, changeId: id }];
    return accept(s, events);
  },

  removeIPChange(state, command, who) {
    const why = refusalChecks.removeIPChange(state, command, who);
    if (why !== null) return why;
    const { combatantId, changeId } = command;
    const s = updateCombatant(state, combatantId, (x) => ({
      ...x,
      ipChanges: x.ipChanges.filter((y) => y.id !== changeId),
    }));
    const events: DeclareResolveEvent[] = [{ type: "ipChangeRemoved", round: s.round, combatantId, changeId }];
    return accept(s, events);
  },

  orderTied(state, { combatantIds }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!pendingTies(state).some((tie) => sameSet(combatantIds, tie))) return refuse("notIPTied", combatantIds[0]);
    const tie = state.tiesOrdered;
    let s: DeclareResolveState = { ...state, tiesOrdered: tie + 1 };
    combatantIds.forEach((id, rank) => {
      s = updateCombatant(s, id, (c) => ({ ...c, tieBreak: { ip: currentIP(c) ?? 0, tie, rank } }));
    });
    return accept(s, [{ type: "tieOrdered", round: s.round }]);
  },

  setConditions(state, command, who) {
    const why = refusalChecks.setConditions(state, command, who);
    if (why !== null) return why;
    const { combatantId, bleeding, dazed, stunned } = command;
    const s = updateCombatant(state, combatantId, (c) => ({
      ...c,
      conditions: { bleeding: bleeding + 0, dazed: dazed + 0, stunned: stunned + 0 },
    }));
    return accept(s, [{ type: "conditionsSet", round: s.round, combatantId }]);
  },

  start(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (started(state)) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    if (tiePending(state)) return refuse("ipTiePending");
    const events: DeclareResolveEvent[] = [{ type: "combatStarted", round: 1 }];
    return accept(startRound(state, 1, events), events, "round");
  },

  declare(state, { combatantId, actions }, who) {
    if (!started(state)) return refuse("notStarted");
    if (state.phase !== "declare") return refuse("wrongStep");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (c.defeated) return refuse("combatantDefeated", combatantId);
    if (c.ip === null) return refuse("initiativeMissing", combatantId);
    if (declarationOf(state, c) !== null) return refuse("alreadyDeclared", combatantId);
    if (tiePending(state)) return refuse("ipTiePending");
    if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
    const legality = declarationLegality(state, combatantId, actions);
    if (!legality.ok) return { ok: false, refusal: legality.refusal };
    const declaration = newDeclaration(state, c, legality.actions, legality.carry, false);
    const s = updateCombatant(state, combatantId, (x) => ({ ...x, declaration }));
    return accept(s, [{ type: "declared", round: s.round, combatantId }], "turn");
  },

  nextTurn(state, command, who) {
    const why = refusalChecks.nextTurn(state, command, who);
    if (why !== null) return why;
    const events: DeclareResolveEvent[] = [];
    const s = advance(state, events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  nextRound(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!started(state)) return refuse("notStarted");
    if (tiePending(state)) return refuse("ipTiePending");
    const events: DeclareResolveEvent[] = [];
    // Before the upkeep: what is left of the round is skipped and the upkeep is shown; at the upkeep: confirm it.
    const s = state.phase === "upkeep" ? advance(state, events) : enterPhase(state, "upkeep", events);
    return accept(s, events, stepKind(state.round, s.round));
  },

  upkeep(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!started(state)) return refuse("notStarted");
    if (state.phase !== "upkeep") return refuse("wrongStep");
    if (tiePending(state)) return refuse("ipTiePending");
    const events: DeclareResolveEvent[] = [];
    return accept(advance(state, events), events, "round");
  },
};

function applyHandler(
  state: DeclareResolveState,
  command: DeclareResolveCommand,
  who: Requester,
): Outcome<DeclareResolveState> {
  return dispatch(handlers, state, command, who);
}

/**
 * Apply a command, then take every step that needs nobody (all rolled → declare; all declared →
 * resolve; nothing left to resolve → upkeep). A command that moves the round to another step is an
 * undoable step too (roster commands never are: the engine does not record them).
 */
function applyCommand(
  state: DeclareResolveState,
  command: DeclareResolveCommand,
  who: Requester,
): Outcome<DeclareResolveState> {
  const outcome = applyHandler(state, command, who);
  if (!outcome.ok) return outcome;
  const events: DeclareResolveEvent[] = [...(outcome.events as readonly DeclareResolveEvent[])];
  const after = settle(outcome.state, events);
  const current = currentOf(after);
  const moved = after.round !== state.round || after.phase !== state.phase;
  if (current !== null && (moved || current !== currentOf(state))) {
    events.push({ type: "turnStarted", round: after.round, combatantId: current });
  }
  const step = outcome.step !== undefined || moved ? stepKind(state.round, after.round) : undefined;
  return accept(after, events, step);
}

// ---------------------------------------------------------------------------------------------
// View and allowed actions
// ---------------------------------------------------------------------------------------------

/**
 * The tracker order, the same all round: fastest first (the declaration walks it from the bottom
 * up), then the rest, in joining order. Core's turn order follows it (the initiative mirror), so one
 * order all round means a new step moves no one in it.
 */
function viewOrder(state: DeclareResolveState): string[] {
  const head = resolveOrder(state);
  const rest = state.combatants.filter((c) => !head.includes(c.id)).map((c) => c.id);
  return [...head, ...rest];
}

/**
 * Who comes next: the first combatant after the current one, in this round, that is someone else
 * (a resolver with a second action in a row, or the last declarer who resolves first, is not named
 * twice). Steps with nobody (the upkeep) are passed over; null when the round ends first.
 */
function nextOf(state: DeclareResolveState): string | null {
  if (!started(state) || tiePending(state)) return null;
  const now = currentOf(state);
  let s = state;
  for (let guard = 0; guard < 4 * (state.combatants.length + 2); guard++) {
    const after = advance(s, []);
    if (after.round !== state.round || after === s) return null;
    const who = currentOf(after);
    if (who !== null && who !== now) return who;
    s = after;
  }
  return null;
}

function view(state: DeclareResolveState): TurnView {
  return {
    started: started(state),
    round: state.round,
    step: currentStep(state),
    order: viewOrder(state),
    current: currentOf(state),
    next: nextOf(state),
  };
}

type Probe = { readonly action: AllowedAction; readonly command: DeclareResolveCommand };

function probes(state: DeclareResolveState, who: Requester): Probe[] {
  const list: Probe[] = [
    { action: { type: "start" }, command: { type: "start" } },
    { action: { type: "nextTurn" }, command: { type: "nextTurn" } },
    { action: { type: "nextRound" }, command: { type: "nextRound" } },
    { action: { type: "upkeep" }, command: { type: "upkeep" } },
    { action: { type: "setBudget" }, command: { type: "setBudget", budget: state.budget } },
  ];
  for (const tie of pendingTies(state)) {
    list.push({
      action: { type: "orderTied", combatantId: tie[0] },
      command: { type: "orderTied", combatantIds: tie },
    });
  }
  const declarer = currentDeclarer(state);
  for (const c of state.combatants) {
    const combatantId = c.id;
    // Every per-combatant command needs the GM or the combatant's owner: skip the rest untried.
    if (!canControl(who, combatantId)) continue;
    const on = (command: DeclareResolveCommand): Probe => ({ action: { type: command.type, combatantId }, command });
    // Probes that can only be refused are left out (only the current declarer may declare; after the
    // start only who has not rolled rolls; the rest is the GM's).
    if (combatantId === declarer) list.push(on({ type: "declare", combatantId, actions: [] }));
    if (c.ip === null || !started(state)) list.push(on({ type: "recordIP", combatantId, total: 0, modifier: 0 }));
    if (!who.isGM) continue;
    list.push(
      on({ type: "setDefeated", combatantId, defeated: !c.defeated }),
      on({ type: "removeCombatant", combatantId }),
      on({ type: "setConditions", combatantId, ...c.conditions }),
      on({ type: "addIPChange", combatantId, cause: "?", amount: 0, duration: { kind: "round" } }),
    );
    const change = c.ipChanges[0];
    if (change !== undefined) list.push(on({ type: "removeIPChange", combatantId, changeId: change.id }));
  }
  return list;
}

/** Why `who` may not remove, defeat or change the conditions of a combatant, or null (the GM's roster checks). */
function rosterRefusal(
  state: DeclareResolveState,
  combatantId: string,
  who: Requester,
): Outcome<DeclareResolveState> | null {
  if (!who.isGM) return refuse("notGM");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  return null;
}

/**
 * The refusal checks of the commands probed once per combatant, and of the next turn: each handler
 * makes its check first, then builds the new state (and always accepts), so a trial by the check
 * builds none. The property test (test/rules/declare-resolve-allowed.property.test.ts) compares the
 * two ways.
 */
const refusalChecks = {
  // One probe, but its handler moves the round on (a resolved turn, a step of the round).
  nextTurn(state, _command, who) {
    if (!started(state)) return refuse("notStarted");
    if (tiePending(state)) return refuse("ipTiePending");
    if (state.phase === "resolve") {
      const current = currentResolver(state);
      if (current === null) return refuse("wrongStep");
      // It is the resolver's turn: only its owner or the GM ends it.
      if (!canControl(who, current)) return refuse("notOwner", current);
    } else if (!who.isGM) {
      // Declaring is done by declaring; only the GM skips a declarer, a roll or confirms the upkeep.
      const current = currentDeclarer(state);
      return current === null ? refuse("notGM") : refuse("skipDeclarerGM", current);
    }
    return null;
  },
  removeCombatant: (state, { combatantId }, who) => rosterRefusal(state, combatantId, who),
  setDefeated: (state, { combatantId }, who) => rosterRefusal(state, combatantId, who),
  setConditions(state, { combatantId, bleeding, dazed, stunned }, who) {
    const why = rosterRefusal(state, combatantId, who);
    if (why !== null) return why;
    if (![bleeding, dazed, stunned].every((v) => isWhole(v, MAX_CONDITION))) return refuse("invalidValue", combatantId);
    return null;
  },
  recordIP(state, { combatantId, total, modifier }, who) {
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (!isIPValue(total) || !isIPValue(modifier)) return refuse("invalidValue", combatantId);
    // Once per combat: after the start only a combatant that has not rolled (a joiner) rolls.
    if (started(state) && c.ip !== null) return refuse("ipAlreadyRolled", combatantId);
    return null;
  },
  addIPChange(state, { combatantId, changeId, cause, amount, duration }, who) {
    if (!who.isGM) return refuse("notGM");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!isCause(cause) || !isIPValue(amount) || !isRecord(duration)) return refuse("invalidValue", combatantId);
    if (lastRoundOf(state, duration) === undefined) return refuse("invalidValue", combatantId);
    if (c.ipChanges.length >= MAX_IP_CHANGES) return refuse("invalidValue", combatantId);
    if (changeId !== undefined && (!isId(changeId) || c.ipChanges.some((x) => x.id === changeId))) {
      return refuse("invalidValue", combatantId);
    }
    return null;
  },
  removeIPChange(state, { combatantId, changeId }, who) {
    if (!who.isGM) return refuse("notGM");
    const c = findById(state.combatants, combatantId);
    if (c === undefined) return refuse("unknownCombatant", combatantId);
    if (!c.ipChanges.some((x) => x.id === changeId)) return refuse("unknownIPChange", combatantId);
    return null;
  },
} satisfies RefusalChecks<DeclareResolveState, DeclareResolveCommand>;

/** What this user may do now (each per-combatant action names its combatant). */
export function declareResolveAllowed(state: DeclareResolveState, who: Requester): readonly AllowedAction[] {
  const given: AllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  // A command the handler accepts is accepted: what follows (settling the steps that need nobody)
  // never refuses, so each trial stops at the handler (or at its refusal check), as in the sides rules.
  return allowedByTrial(state, who, given, probes(state, who), applyHandler, refusalChecks);
}

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

/**
 * A cost that is no number, as `parseCommand` passes it on: negative, so refused as `invalidCost`, and
 * finite, so the parsed command stays plain JSON (a NaN would come back from JSON as null).
 */
const NOT_A_COST = -1;

/**
 * A cost as sent: a finite number as is, a numeric string as its number, anything else
 * {@link NOT_A_COST} (refused as `invalidCost`).
 */
function parseCost(value: unknown): number {
  const cost =
    typeof value === "string" && value.trim() !== "" && value.length <= MAX_ID_LENGTH ? Number(value) : value;
  return isFiniteNumber(cost) ? cost : NOT_A_COST;
}

function parseActionInput(data: unknown): ActionInput | null {
  if (!isRecord(data)) return null;
  const { name, kind, def } = data;
  if (!isText(name) || typeof kind !== "string" || kind.length > MAX_ID_LENGTH) return null;
  const base: ActionInput = { name, kind, cost: parseCost(data.cost) };
  if (def === undefined || def === null) return base;
  return isFiniteNumber(def) ? { ...base, def } : null;
}

function parseActions(data: unknown): ActionInput[] | null {
  // Longer lists than a declaration may hold still parse (up to a bound), to be refused as `tooManyActions`.
  if (!Array.isArray(data) || data.length > MAX_DECLARED_ACTIONS * 5) return null;
  const out: ActionInput[] = [];
  for (const item of data) {
    const action = parseActionInput(item);
    if (action === null) return null;
    out.push(action);
  }
  return out;
}

function parseDuration(data: unknown): IPChangeDuration | null {
  if (!isRecord(data)) return null;
  switch (data.kind) {
    case "round":
    case "untilRemoved":
      return { kind: data.kind };
    case "rounds":
      return isWhole(data.rounds, MAX_IP_CHANGE_ROUNDS, 1) ? { kind: "rounds", rounds: data.rounds } : null;
    default:
      return null;
  }
}

function parseIdList(data: unknown): string[] | null {
  if (!Array.isArray(data) || data.length < 2 || data.length > 1000 || !data.every(isId)) return null;
  return [...data];
}

const NUMBER: FieldReader<number> = required(isFiniteNumber);

/** Each command's fields as untrusted data gives them (the roster commands are common to every mode). */
const COMMANDS: CommandTable<DeclareResolveCommand> = {
  setBudget: { budget: NUMBER },
  recordIP: { combatantId: ID_FIELD, total: NUMBER, modifier: NUMBER },
  addIPChange: {
    combatantId: ID_FIELD,
    changeId: optional(isId),
    cause: (cause) => (typeof cause === "string" && cause.length <= MAX_TEXT_LENGTH ? cause : BAD),
    amount: NUMBER,
    duration: (duration) => parseDuration(duration) ?? BAD,
  },
  removeIPChange: { combatantId: ID_FIELD, changeId: required(isId) },
  orderTied: { combatantIds: (ids) => parseIdList(ids) ?? BAD },
  declare: { combatantId: ID_FIELD, actions: (actions) => parseActions(actions) ?? BAD },
  setConditions: { combatantId: ID_FIELD, bleeding: NUMBER, dazed: NUMBER, stunned: NUMBER },
  start: {},
  nextTurn: {},
  nextRound: {},
  upkeep: {},
};

function parseCommand(data: unknown): DeclareResolveCommand | null {
  return parseByTable(data, COMMANDS);
}

// ---------------------------------------------------------------------------------------------
// The mode
// ---------------------------------------------------------------------------------------------

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

/** Declare slowest first, resolve fastest first, with action points (RULES.md §3). */
/**
 * The acting turn: a combatant's part of a resolution pass, named by round, pass and combatant.
 * Rolls, declarations and the upkeep are no turns.
 */
export function declareResolveTurnKey(state: DeclareResolveState): string | null {
  if (state.phase !== "resolve") return null;
  const turn = currentTurn(state);
  return turn === null ? null : `${state.round}:resolve${turn.pass}:${turn.combatantId}`;
}

export const declareResolveMode: ModeDefinition<DeclareResolveState, DeclareResolveCommand> = {
  id: "declare-resolve",
  create: (roster) => createDeclareResolve(roster),
  apply: applyCommand,
  view,
  allowed: declareResolveAllowed,
  isRosterCommand: (command) => command.type === "addCombatant" || command.type === "removeCombatant",
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: declareResolveTurnKey,
};
