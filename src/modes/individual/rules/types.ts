/** The `individual` mode's state, commands, events and steps (the rules: `mode.ts`). */

import type { RosterEntry } from "../../../core/engine";
import type { TypedMark } from "../../../core/common";

export type IndividualCombatant = TypedMark & {
  readonly id: string;
  readonly name: string;
  /** Has a player owner. */
  readonly isPC: boolean;
  /** The initiative check result; null until rolled. A group member holds its group's total. */
  readonly initiative: number | null;
  /** The initiative check modifier; null until known. */
  readonly modifier: number | null;
  /** The initiative group (NPCs only), or null. */
  readonly groupId: string | null;
  /** Marked aware by the GM: acts in a surprise round. */
  readonly aware: boolean;
  /** Marked defeated. */
  readonly defeated: boolean;
  /** The trigger text of a readied action, or null. */
  readonly ready: string | null;
};

/** One combatant's result in a roll-off. */
export type RollOffResult = {
  readonly combatantId: string;
  readonly total: number;
};

/** A combatant that has delayed: out of the order until it acts. */
export type DelayEntry = {
  readonly combatantId: string;
  /** Resume automatically right after this combatant's turn ends; null: only on request or at the round's end. */
  readonly after: string | null;
};

/** The individual mode's state. Plain JSON data; never mutated. */
export type IndividualState = {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly IndividualCombatant[];
  /**
   * Every roll-off, oldest first. A group's result is recorded for each of its members. Two tied
   * combatants are ordered by the first roll-off in which both took part and got different totals.
   */
  readonly rollOffs: readonly (readonly RollOffResult[])[];
  /** Defeated combatants get no turn. */
  readonly skipDefeated: boolean;
  readonly started: boolean;
  /** 0 before the start; a surprise round is round 1. */
  readonly round: number;
  /** The battle began with a surprise round. */
  readonly surpriseBattle: boolean;
  /** The current round is the surprise round. */
  readonly surpriseRound: boolean;
  /** The stored turn order (empty before the start: the order is derived until then). */
  readonly order: readonly string[];
  /** Who acts now. */
  readonly current: string | null;
  /** Whose turn has begun this round. */
  readonly acted: readonly string[];
  /** Who has delayed or readied this round (at most once a round). */
  readonly waited: readonly string[];
  /** Who is delaying now, in the order they delayed. */
  readonly delaying: readonly DelayEntry[];
  /** Who is still flat-footed (present at the start of a surprise battle, no regular turn yet). */
  readonly flatFooted: readonly string[];
  /** Whose place in the order comes from a delay or a readied action (not from the initiative). */
  readonly moved: readonly string[];
};

/** Commands of the individual mode. */
export type IndividualCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean }
  | { readonly type: "setSkipDefeated"; readonly skip: boolean }
  | {
      readonly type: "recordInitiative";
      readonly combatantId: string;
      readonly total: number;
      readonly modifier: number;
      /** Typed, not rolled (set by the authority; only the GM may). */
      readonly typed?: boolean;
    }
  | {
      readonly type: "setGroup";
      readonly combatantId: string;
      /** The group to join; null leaves any group. */
      readonly groupId: string | null;
      /** The member's own initiative modifier (required to join a group: the group uses the lowest). */
      readonly modifier?: number;
    }
  | {
      readonly type: "recordGroupInitiative";
      readonly groupId: string;
      readonly total: number;
      readonly typed?: boolean;
    }
  | {
      readonly type: "recordRollOff";
      /** One result per tied combatant; a group is named by any one of its members. */
      readonly results: readonly RollOffResult[];
    }
  | { readonly type: "setAware"; readonly combatantId: string; readonly aware: boolean }
  | { readonly type: "start"; readonly surprise?: boolean }
  | { readonly type: "nextTurn" }
  | { readonly type: "nextRound" }
  | { readonly type: "delay"; readonly combatantId: string; readonly after?: string | null }
  | { readonly type: "endDelay"; readonly combatantId: string }
  | { readonly type: "ready"; readonly combatantId: string; readonly trigger: string }
  | { readonly type: "triggerReady"; readonly combatantId: string };

/** The `type` of every individual-mode command. */
export type IndividualCommandType = IndividualCommand["type"];

/** Events the individual mode emits (`RuleEvent.type`). */
export const INDIVIDUAL_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "defeatedChanged",
  "initiativeRecorded",
  "groupChanged",
  "rollOffRecorded",
  "awareChanged",
  "enteredOrder",
  "combatStarted",
  "roundStarted",
  "turnStarted",
  "turnResumed",
  "flatFootedEnded",
  "delayed",
  "delayEnded",
  "readied",
  "readyTriggered",
  "readyLapsed",
] as const;
/** One individual-mode event type. */
export type IndividualEventType = (typeof INDIVIDUAL_EVENTS)[number];

/** Refusal codes the individual mode adds to the shared ones. */
export const INDIVIDUAL_REFUSALS = [
  /** A delay by the last to act this round, with nobody left to wait for; names the delayer. */
  "lastToAct",
] as const;

/** Step keys of `TurnView.step` in this mode. */
export type IndividualStep = "setup" | "surprise" | "round";
