/** The sides mode's state, commands and events, its limits and refusal codes (the rules: mode.ts). */
import type { RosterEntry } from "../../../core/engine";
import type { TypedMark } from "../../../core/common";

/** Default most actions one character may declare in a round. */
export const DEFAULT_MAX_ACTIONS = 10;
/** The highest `maxActions` that can be configured; also the cap on actions plus reactions. */
export const MAX_ACTIONS_LIMIT = 99;
/** Default multiple-action penalty per action beyond the first (the D6 preset: −1D). */
export const DEFAULT_ACTION_PENALTY = "1D";
/** Default most reactions (dodges and parries) one character may make in a round. */
export const DEFAULT_MAX_REACTIONS = 10;

/** Refusal codes this mode adds to the shared ones (each has a message `Refusal.<code>`). */
export const SIDES_REFUSALS = ["tooManyReactions", "notSlowed"] as const;
/** Longest text of one declared action. */
export const MAX_ACTION_TEXT_LENGTH = 200;
/** Longest side name. */
export const MAX_SIDE_NAME_LENGTH = 100;
/** Most sides an encounter may have. */
export const MAX_SIDES = 20;
/** Most replaced totals kept for one side's roll (the latest ones). */
export const MAX_EARLIER_ROLLS = 20;

/** A combatant as the sides mode tracks it. Traits are canonical dice codes, null until known. */
export type SidesCombatant = {
  readonly id: string;
  readonly name: string;
  /** Has a player owner. */
  readonly isPC: boolean;
  /** The side it belongs to, or null (it then takes no part in the round). */
  readonly sideId: string | null;
  /** Orders the passes (highest first). Unknown counts as 0D. */
  readonly dexterity: string | null;
  /** Orders declarations (lowest first) and breaks Dexterity ties (highest first). Unknown counts as 0D. */
  readonly perception: string | null;
  /** Picks the side's roller (highest first). Unknown counts as 0D. */
  readonly initiativeScore: string | null;
};

/** A side. Its members are the combatants whose `sideId` is its id. */
export type Side = {
  readonly id: string;
  readonly name: string;
  /** A CSS hex colour ("#rrggbb" or "#rgb"). */
  readonly colour: string;
  /** Marked a GM side (true) or a PC side (false) by the GM; null: a GM side when every member is an NPC. */
  readonly gmSide: boolean | null;
  /** The roller the GM picked; null: the member with the best initiative score. */
  readonly roller: string | null;
};

/** A side's initiative roll this round. */
export type SideRoll = TypedMark & {
  readonly sideId: string;
  readonly total: number;
  /** The totals it replaced (the GM's re-rolls and corrections), oldest first; absent when none. */
  readonly earlier?: readonly number[];
};

/** One declared action: what the character says it will do. Dodges and parries are never declared. */
export type DeclaredAction = {
  readonly text: string;
};

/** A reaction: taken when attacked, not declared. */
export type ReactionKind = "dodge" | "parry";

/** A reaction taken this round. */
export type Reaction = {
  readonly kind: ReactionKind;
  /** The pass it was taken in. */
  readonly pass: number;
};

/** A character's declaration this round. A hesitating character has one too, with no actions. */
export type Declaration = {
  readonly combatantId: string;
  readonly actions: readonly DeclaredAction[];
  readonly forcePoint: boolean;
  /** Did not declare in time: no actions this round. */
  readonly hesitated: boolean;
  readonly reactions: readonly Reaction[];
};

/** A character that slowed down in this pass, to act right after `after`. */
export type SlowedEntry = {
  readonly combatantId: string;
  /** The character to follow; null when that one left the encounter (the action will be lost). */
  readonly after: string | null;
};

/**
 * The facts a combatant had when the running step began (its side for the declaration order, its
 * traits for the declaration and pass orders), kept once one of them changes in that step.
 */
export type HeldFacts = {
  readonly combatantId: string;
  readonly sideId: string | null;
  readonly dexterity: string | null;
  readonly perception: string | null;
};

/** A slowed action that was not taken before its pass ended. */
export type LostAction = {
  readonly combatantId: string;
  readonly pass: number;
};

/** Step keys of `TurnView.step` in this mode ("setup" before the start). */
export type SidesStep = "setup" | "initiative" | "declaration" | "pass";

/** The sides mode's state. Plain JSON data; never mutated. */
export type SidesState = {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly SidesCombatant[];
  /** Every side, in the order they were defined. */
  readonly sides: readonly Side[];
  /** Most actions a character may declare in a round. */
  readonly maxActions: number;
  /** Most reactions (dodges and parries) a character may make in a round. */
  readonly maxReactions: number;
  /** The multiple-action penalty per action beyond the first, as a dice code. */
  readonly actionPenalty: string;
  readonly started: boolean;
  /** 0 before the start. */
  readonly round: number;
  readonly step: SidesStep;
  /** The current pass (1, 2, …) during the "pass" step; 0 otherwise. */
  readonly pass: number;
  /** This round's side rolls. */
  readonly rolls: readonly SideRoll[];
  /** The GM's orders of tied sides this round, oldest first. */
  readonly sideTieOrders: readonly (readonly string[])[];
  /** The order sides declare in, stored when the declaration step begins. */
  readonly sideOrder: readonly string[];
  /** This round's declarations (and hesitations), in the order they were made. */
  readonly declarations: readonly Declaration[];
  /** Who has taken its action in the current pass, in the order they did. */
  readonly done: readonly string[];
  /** Slowed characters whose moment has come (the one they follow acted) and that have not acted yet, in order. */
  readonly due: readonly string[];
  /** Who slowed down in the current pass, in the order they did. */
  readonly slowed: readonly SlowedEntry[];
  /** Facts of combatants changed in the running step, as they were when it began (see the top). */
  readonly held: readonly HeldFacts[];
  /** Slowed actions lost this round. */
  readonly lost: readonly LostAction[];
  /** The GM's orders of characters tied on Dexterity and Perception this round, oldest first. */
  readonly tieOrders: readonly (readonly string[])[];
};

/** Commands of the sides mode. */
export type SidesCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | {
      readonly type: "defineSide";
      readonly sideId: string;
      readonly name: string;
      readonly colour: string;
      /** true / false: mark it a GM / PC side; null: derive it; absent: keep (derive for a new side). */
      readonly isGMSide?: boolean | null;
    }
  | { readonly type: "removeSide"; readonly sideId: string }
  | { readonly type: "setSide"; readonly combatantId: string; readonly sideId: string }
  | {
      readonly type: "setTraits";
      readonly combatantId: string;
      readonly dexterity: string;
      readonly perception: string;
      readonly initiativeScore: string;
    }
  | {
      readonly type: "configure";
      readonly maxActions: number;
      readonly actionPenalty: string;
      /** Absent: keep the current limit. */
      readonly maxReactions?: number;
    }
  | { readonly type: "start" }
  | { readonly type: "setRoller"; readonly sideId: string; readonly combatantId: string | null }
  | { readonly type: "recordSideRoll"; readonly sideId: string; readonly total: number; readonly typed?: boolean }
  | { readonly type: "orderTiedSides"; readonly sideIds: readonly string[] }
  | {
      readonly type: "declare";
      readonly combatantId: string;
      readonly actions: readonly DeclaredAction[];
      readonly forcePoint: boolean;
    }
  | { readonly type: "hesitate"; readonly combatantId: string }
  | { readonly type: "orderTied"; readonly pass: number; readonly combatantIds: readonly string[] }
  | { readonly type: "nextTurn" }
  | { readonly type: "nextRound" }
  | { readonly type: "react"; readonly combatantId: string; readonly kind: ReactionKind }
  | { readonly type: "slowDown"; readonly combatantId: string; readonly after: string }
  | { readonly type: "letPass"; readonly combatantId: string };

/** The `type` of every sides-mode command. */
export type SidesCommandType = SidesCommand["type"];

/** Events the sides mode emits (`RuleEvent.type`). */
export const SIDES_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "sideDefined",
  "sideRemoved",
  "sideChanged",
  "traitsChanged",
  "configured",
  "rollerChosen",
  "combatStarted",
  "roundStarted",
  "sideRolled",
  "sidesOrdered",
  "declarationStarted",
  "turnStarted",
  "declared",
  "hesitated",
  "passStarted",
  "actionTaken",
  "reacted",
  "slowedDown",
  "slowedActionLost",
  "tieOrdered",
] as const;
/** One sides-mode event type. */
export type SidesEventType = (typeof SIDES_EVENTS)[number];
