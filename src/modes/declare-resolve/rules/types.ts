/** The `declare-resolve` mode's limits and refusal codes, its state, commands and events (the rules: mode.ts). */
import type { Refusal, RosterEntry, RuleEvent } from "../../../core/engine";

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

/** What kind of action a declared action is; second and later attacks resolve after everyone. */
export type ActionKind = "attack" | "defence" | "other";

/** The action kinds, in the catalogue's order. */
export const ACTION_KINDS: readonly ActionKind[] = ["attack", "defence", "other"];

/** A declared action, validated. */
export type DeclaredAction = {
  readonly name: string;
  /** AP cost: a whole number, 0 or more. */
  readonly cost: number;
  readonly kind: ActionKind;
  /** Change to the combatant's DEF for the whole round (0: none). */
  readonly def: number;
};

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
export type IPChange = {
  /** Unique among the combatant's changes. */
  readonly id: string;
  readonly cause: string;
  readonly amount: number;
  /** The last round it applies to (it reverts when that round ends); null: until removed. */
  readonly lastRound: number | null;
};

/** A combatant's base IP roll. */
export type InitiativePoints = {
  /** The roll's total: the base IP for the whole combat. */
  readonly total: number;
  /** The roll's modifier (Speed and Wisdom bonus and others): breaks ties, higher is faster. */
  readonly modifier: number;
  /** The totals it replaced (the GM's re-rolls and corrections), oldest first; absent when none. */
  readonly replaced?: readonly number[];
};

/** Most replaced IP totals kept for one combatant (the latest ones). */
export const MAX_REPLACED_IP = 5;

/**
 * The GM's order for a tie: it holds while the combatant's current IP is still `ip`, against others
 * placed in the same `tie` (a smaller `rank` is faster).
 */
export type TieBreak = {
  readonly ip: number;
  /** Which `orderTied` placed it (a serial number). */
  readonly tie: number;
  readonly rank: number;
};

/** Per-combatant statuses the upkeep handles. */
export type Conditions = {
  /** Hits lost at every upkeep. */
  readonly bleeding: number;
  /** Goes down by one at every upkeep. */
  readonly dazed: number;
  /** Goes down by one at every upkeep. */
  readonly stunned: number;
};

/** A combatant's declaration, for the round it was made in (see {@link declarationOf}). */
export type Declaration = {
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
};

/** An action declared last round that finishes at the start of this round's resolution. */
export type CarriedAction = {
  readonly action: DeclaredAction;
  /** AP of this round it uses. */
  readonly ap: number;
};

/** A combatant as the declare-resolve mode tracks it. */
export type DeclareResolveCombatant = {
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
};

/** The stored step of a round; `setup` before the start. */
export type DeclareResolvePhase = "setup" | "roll" | "declare" | "resolve" | "upkeep";

/** `TurnView.step` of this mode (keys under `STRUCTURED_INITIATIVE.Step`). */
export type DeclareResolveStep = DeclareResolvePhase | "extraAttacks";

/** The declare-resolve mode's state. Plain JSON data; never mutated. */
export type DeclareResolveState = {
  /** Every combatant, in the order they joined. */
  readonly combatants: readonly DeclareResolveCombatant[];
  /** AP per round. */
  readonly budget: number;
  /** 0 before the start. */
  readonly round: number;
  readonly phase: DeclareResolvePhase;
  /** How many ties the GM has ordered (the serial number of the next {@link TieBreak}). */
  readonly tiesOrdered: number;
};

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
