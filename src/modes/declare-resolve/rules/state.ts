/**
 * Narrowing of stored `declare-resolve` state. The state comes back from document flags, which a bug,
 * a macro or a bad migration can corrupt: anything that is not a well-formed, internally consistent
 * state is rejected (null), so the glue can say so and offer a reset instead of running on garbage.
 */
import {
  isFiniteNumber,
  isFlag,
  isId,
  isRecord,
  isText,
  isNullable,
  isWhole,
  listOf,
  orNull,
  shapeOf,
} from "../../../core/common";
import {
  ACTION_KINDS,
  MAX_ACTION_COST,
  MAX_ACTION_NAME_LENGTH,
  MAX_AP_BUDGET,
  MAX_CAUSE_LENGTH,
  MAX_CONDITION,
  MAX_DECLARED_ACTIONS,
  MAX_DEF_CHANGE,
  MAX_IP,
  MAX_IP_CHANGES,
  MAX_REPLACED_IP,
  type CarriedAction,
  type Conditions,
  type DeclareResolveCombatant,
  type DeclareResolvePhase,
  type DeclareResolveState,
  type Declaration,
  type DeclaredAction,
  type InitiativePoints,
  type IPChange,
  type TieBreak,
} from "./types";
import { migrate, type Migration } from "../../../core/migrations";
import { declarationOf, resolvedOf } from "./points";
import { resolutionTurns } from "./resolution";

const PHASES: readonly DeclareResolvePhase[] = ["setup", "roll", "declare", "resolve", "upkeep"];

function isIPValue(value: unknown): value is number {
  return isFiniteNumber(value) && Math.abs(value) <= MAX_IP;
}

/** A well-formed declared action (also what a catalogue entry is). */
export function isDeclaredAction(value: unknown): value is DeclaredAction {
  if (!isRecord(value)) return false;
  const { name, cost, kind, def } = value;
  return (
    typeof name === "string" &&
    name.trim() === name &&
    name !== "" &&
    name.length <= MAX_ACTION_NAME_LENGTH &&
    isWhole(cost, MAX_ACTION_COST) &&
    ACTION_KINDS.some((k) => k === kind) &&
    isWhole(def, MAX_DEF_CHANGE, -MAX_DEF_CHANGE)
  );
}

function isDeclaration(value: unknown): value is Declaration {
  if (!isRecord(value)) return false;
  const { actions, carry, skipped, round, resolved } = value;
  if (!Array.isArray(actions) || actions.length > MAX_DECLARED_ACTIONS || !actions.every(isDeclaredAction))
    return false;
  if (!isWhole(carry, MAX_AP_BUDGET) || typeof skipped !== "boolean") return false;
  if (!isWhole(round, Number.MAX_SAFE_INTEGER, 1) || !isWhole(resolved, Number.MAX_SAFE_INTEGER)) return false;
  if (!isNullable(value.carriedIn, isCarried)) return false;
  // Only a single action carries AP over; a skipped turn declared nothing.
  if (carry > 0 && actions.length !== 1) return false;
  return !skipped || (actions.length === 0 && carry === 0);
}

function isCarried(value: unknown): value is CarriedAction {
  return isRecord(value) && isDeclaredAction(value.action) && isWhole(value.ap, MAX_AP_BUDGET, 1);
}

function isIP(value: unknown): value is InitiativePoints {
  if (!isRecord(value) || !isIPValue(value.total) || !isIPValue(value.modifier)) return false;
  const { replaced } = value;
  return (
    replaced === undefined ||
    (Array.isArray(replaced) && replaced.length <= MAX_REPLACED_IP && replaced.every((r) => isIPValue(r)))
  );
}

function isChange(value: unknown): value is IPChange {
  if (!isRecord(value)) return false;
  const { id, cause, amount, lastRound } = value;
  return (
    isId(id) &&
    typeof cause === "string" &&
    cause.trim() !== "" &&
    cause.length <= MAX_CAUSE_LENGTH &&
    isIPValue(amount) &&
    (lastRound === null || isWhole(lastRound, Number.MAX_SAFE_INTEGER, 1))
  );
}

function isTieBreak(value: unknown): value is TieBreak {
  return (
    isRecord(value) &&
    isFiniteNumber(value.ip) &&
    isWhole(value.tie, Number.MAX_SAFE_INTEGER) &&
    isWhole(value.rank, Number.MAX_SAFE_INTEGER)
  );
}

function isConditions(value: unknown): value is Conditions {
  return (
    isRecord(value) &&
    isWhole(value.bleeding, MAX_CONDITION) &&
    isWhole(value.dazed, MAX_CONDITION) &&
    isWhole(value.stunned, MAX_CONDITION)
  );
}

const isCombatant = shapeOf<DeclareResolveCombatant>({
  id: isId,
  name: isText,
  isPC: isFlag,
  defeated: isFlag,
  ip: orNull(isIP),
  ipChanges: (changes) => Array.isArray(changes) && changes.length <= MAX_IP_CHANGES && changes.every(isChange),
  tieBreak: orNull(isTieBreak),
  declaration: orNull(isDeclaration),
  conditions: isConditions,
});

const isRound = (value: unknown): boolean => isWhole(value, Number.MAX_SAFE_INTEGER);

const isShaped = shapeOf<DeclareResolveState>({
  combatants: listOf(isCombatant),
  budget: (budget) => isWhole(budget, MAX_AP_BUDGET, 1),
  round: isRound,
  phase: (phase) => PHASES.some((p) => p === phase),
  tiesOrdered: isRound,
});

/** What each combatant's facts may be in the state's phase and round. */
function combatantConsistent(state: DeclareResolveState, c: DeclareResolveCombatant): boolean {
  if (new Set(c.ipChanges.map((x) => x.id)).size !== c.ipChanges.length) return false;
  // An IP change that outlived its last round would have reverted at that round's upkeep.
  if (c.ipChanges.some((x) => x.lastRound !== null && x.lastRound < Math.max(state.round, 1))) return false;
  if (c.tieBreak !== null && c.tieBreak.tie >= state.tiesOrdered) return false;
  if (c.ip === null && (c.declaration !== null || c.tieBreak !== null)) return false;
  // A declaration is of this round or an earlier one.
  if (c.declaration !== null && c.declaration.round > state.round) return false;
  if (resolvedOf(state, c) > resolutionTurns(state, c).length) return false;
  switch (state.phase) {
    case "setup":
      return c.declaration === null;
    case "roll":
      return declarationOf(state, c) === null;
    case "declare":
      return resolvedOf(state, c) === 0;
    case "resolve":
    case "upkeep":
      return true;
  }
}

/**
 * A combatant stored before declarations carried their round (each kept `carriedIn` and `resolved`
 * itself, and a new round cleared every declaration), in today's shape: its declaration is of this
 * round; an action carried in without one becomes last round's single long declaration, which
 * carries in the same action (`carriedInOf`). A malformed one becomes null (rejected); any
 * other value is returned as it is.
 */
function upgradeCombatant(value: unknown, round: unknown): unknown {
  if (!isRecord(value) || !("resolved" in value || "carriedIn" in value) || !isWhole(round, Number.MAX_SAFE_INTEGER)) {
    return value;
  }
  const { carriedIn, resolved, declaration, ...rest } = value;
  // A malformed old-shape combatant is rejected (null), never read as today's shape.
  if (!isNullable(carriedIn, isCarried) || !isWhole(resolved, Number.MAX_SAFE_INTEGER)) return null;
  if (isRecord(declaration)) return { ...rest, declaration: { ...declaration, round, carriedIn, resolved } };
  if (declaration !== null) return null;
  if (resolved > 0) {
    const made = { round, actions: [], carry: 0, skipped: true, carriedIn, resolved };
    return { ...rest, declaration: made };
  }
  if (carriedIn === null || round < 2) return { ...rest, declaration: null };
  const last = { round: round - 1, actions: [carriedIn.action], carry: carriedIn.ap, skipped: false };
  return { ...rest, declaration: { ...last, carriedIn: null, resolved: 0 } };
}

/**
 * The numbered migrations of a stored state (`core/migrations.ts`), oldest first; each has its
 * fixture in `test/fixtures/migrations/declare-resolve/`.
 */
export const declareResolveMigrations: readonly Migration[] = [
  // Version 1: a declaration carries its round, its carried-in action and its resolved turns.
  {
    version: 1,
    up: (old) => {
      if (!Array.isArray(old.combatants)) return old;
      const combatants = old.combatants.map((c: unknown) => upgradeCombatant(c, old.round));
      return combatants.every((c, i) => c === (old.combatants as unknown[])[i]) ? old : { ...old, combatants };
    },
  },
];

/** Narrow untrusted data to a declare-resolve state, or null when it is malformed or inconsistent. */
export function parseDeclareResolveState(data: unknown): DeclareResolveState | null {
  const d = migrate(data, declareResolveMigrations);
  if (!isShaped(d)) return null;
  const state = d;
  if ((state.round === 0) !== (state.phase === "setup")) return null;
  if (new Set(state.combatants.map((c) => c.id)).size !== state.combatants.length) return null;
  if (!state.combatants.every((c) => combatantConsistent(state, c))) return null;
  return state;
}
