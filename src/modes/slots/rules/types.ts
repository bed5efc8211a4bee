/** The `slots` mode's state, commands, events, limits and views (the rules: `mode.ts`). */

import type { RosterEntry, RuleEvent, AllowedAction } from "../../../core/engine";
import type { TypedMark } from "../../../core/common";

/** Whether a slot is for player characters or for the GM's characters. */
export type SlotKind = "pc" | "npc";

/** Largest initiative score (successes or advantages, in absolute value) accepted. */
export const MAX_CHECK_SCORE = 999;
/** Largest slot index accepted from untrusted data. */
export const MAX_SLOT_INDEX = 9999;

/** One initiative check result. */
export type SlotsCheck = TypedMark & {
  /** Successes (or the generic primary score): ranks first. */
  readonly primary: number;
  /** Advantages (or the generic secondary score): breaks ties in the primary score. */
  readonly secondary: number;
  /** The skill used ("cool", "vigilance"…), for display only; null when not given. */
  readonly skill: string | null;
};

/** A combatant as the slots mode tracks it. */
export type SlotsCombatant = {
  readonly id: string;
  readonly name: string;
  /** Has a player owner: fills PC slots. */
  readonly isPC: boolean;
  /** Its initiative check; null until rolled. */
  readonly check: SlotsCheck | null;
  /** Marked defeated: fills no slot. */
  readonly defeated: boolean;
  /**
   * Its check has a slot in the list. Not which slot (the names are dropped): a slot of its kind with
   * its scores. False before it rolls, and after its slot was removed by the `keepSlots` policy.
   */
  readonly slotted: boolean;
};

/** One initiative slot: a result with the name dropped, plus who fills or has claimed it this round. */
export type InitiativeSlot = {
  readonly kind: SlotKind;
  readonly primary: number;
  readonly secondary: number;
  /** Who filled it this round, or null. */
  readonly filledBy: string | null;
  /** Who has claimed it for later this round, or null. */
  readonly claimedBy: string | null;
  /** Its combatant is gone (by the `keepSlots` policy): the slot goes when its turn or the round ends. */
  readonly leaving: boolean;
};

/** Whether a defeated or removed combatant's slot stays in the list, per kind. */
export type KeepSlots = {
  readonly pc: boolean;
  readonly npc: boolean;
};

/** The default policy: a PC's slot stays, an NPC's slot goes. */
export const DEFAULT_KEEP_SLOTS: KeepSlots = { pc: true, npc: false };

/** The slots mode's state. Plain JSON data; never mutated. */
export type SlotsState = {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly SlotsCombatant[];
  /** The slots, best first. */
  readonly slots: readonly InitiativeSlot[];
  readonly keepSlots: KeepSlots;
  readonly started: boolean;
  /** 0 before the start. */
  readonly round: number;
  /** The current slot; null before the start and when the round has run out of slots. */
  readonly slotIndex: number | null;
  /** Who has filled a slot this round, in the order they did. */
  readonly acted: readonly string[];
};

/** Commands of the slots mode. */
export type SlotsCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | { readonly type: "setDefeated"; readonly combatantId: string; readonly defeated: boolean }
  | { readonly type: "setKeepSlots"; readonly keepSlots: KeepSlots }
  | {
      readonly type: "recordCheck";
      readonly combatantId: string;
      /** Successes: an integer, at most {@link MAX_CHECK_SCORE} either way. */
      readonly primary: number;
      /** Advantages: an integer, at most {@link MAX_CHECK_SCORE} either way. */
      readonly secondary: number;
      /** Typed, not rolled (set by the authority; only the GM may). */
      readonly typed?: boolean;
      readonly skill?: string;
    }
  | { readonly type: "start" }
  | { readonly type: "claimSlot"; readonly slot: number; readonly combatantId: string }
  | { readonly type: "releaseClaim"; readonly slot: number }
  | { readonly type: "fillSlot"; readonly slot: number; readonly combatantId: string }
  | { readonly type: "nextTurn" }
  | { readonly type: "nextRound" };

/** The `type` of every slots-mode command. */
export type SlotsCommandType = SlotsCommand["type"];

/** Events the slots mode emits (`RuleEvent.type`). */
export const SLOTS_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "defeatedChanged",
  "keepSlotsChanged",
  "checkRecorded",
  "slotAdded",
  "slotRemoved",
  "slotLeaving",
  "combatStarted",
  "roundStarted",
  "slotClaimed",
  "claimReleased",
  "slotFilled",
  "slotSkipped",
  "turnEnded",
] as const;
/** One slots-mode event type. */
export type SlotsEventType = (typeof SLOTS_EVENTS)[number];

/** A slots-mode event: a rule event that may name the slot it is about. */
export interface SlotsEvent extends RuleEvent {
  readonly type: SlotsEventType;
  /** The slot's index at the time of the event. */
  readonly slot?: number;
}

/** Step keys of `TurnView.step` in this mode. */
export type SlotsStep = "setup" | "round";

/** An allowed action that may be about a slot. */
export interface SlotsAllowedAction extends AllowedAction {
  readonly slot?: number;
}

/** One row of the tracker's slot list. */
export interface SlotView {
  readonly index: number;
  readonly kind: SlotKind;
  readonly primary: number;
  readonly secondary: number;
  readonly filledBy: string | null;
  readonly claimedBy: string | null;
  /** The slot whose turn it is now. */
  readonly current: boolean;
  /** Passed this round (filled or not). */
  readonly passed: boolean;
  /** Another slot of the same kind has the same scores. */
  readonly tied: boolean;
  /** Goes when its turn or the round ends. */
  readonly leaving: boolean;
}
