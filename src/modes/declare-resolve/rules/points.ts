/** Initiative points and the order they give (ties included); action points, DEF and a declaration's legality. */
import type { Refusal } from "../../../core/engine";
import { findById, isWhole } from "../../../core/common";
import {
  type DeclareResolveState,
  type DeclareResolveCombatant,
  type Declaration,
  type CarriedAction,
  type TieBreak,
  type DeclaredAction,
  type ActionKind,
  ACTION_KINDS,
  type ActionInput,
  MAX_DECLARED_ACTIONS,
  MAX_ACTION_NAME_LENGTH,
  MAX_ACTION_COST,
  MAX_DEF_CHANGE,
  type BudgetRefusal,
} from "./types";

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
export function takesPart(c: DeclareResolveCombatant): boolean {
  return c.ip !== null && !c.defeated;
}

export function participants(state: DeclareResolveState): DeclareResolveCombatant[] {
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

export function sortedBySpeed(
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

export function tiePending(state: DeclareResolveState): boolean {
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
