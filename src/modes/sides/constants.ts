/** Names the `sides` mode uses in Foundry: its settings and its templates. */
import { MODULE_PATH } from "../../constants";

/** World setting keys of the `sides` mode. */
export const SIDES_SETTINGS = {
  /** Dexterity, as a dice code read through a formula/path into the actor's roll data. */
  sidesDexterity: "sidesDexterity",
  /** Perception, likewise. */
  sidesPerception: "sidesPerception",
  /** The initiative score (empty: Perception). */
  sidesInitiative: "sidesInitiative",
  /** Tactics (empty: not used); counts only when at least 1D above its attribute. */
  sidesTactics: "sidesTactics",
  /** The multiple-action penalty per action beyond the first (a dice code). */
  sidesActionPenalty: "sidesActionPenalty",
  /** Seconds a character has to declare (0: no countdown). */
  sidesCountdown: "sidesCountdown",
  /** Most reactions (dodges and parries) a character may make in a round. */
  sidesMaxReactions: "sidesMaxReactions",
  /** The wound penalty taken off a side's roll (a formula; empty: none). */
  sidesWoundPenalty: "sidesWoundPenalty",
  /** How a plain number in a trait reads: "dice" (3 = 3D) or "pips" (10 = 3D+1). */
  sidesTraitUnit: "sidesTraitUnit",
} as const;

/** The mode's templates. */
export const SIDES_TEMPLATES = {
  /** One combatant row's badges. */
  row: `${MODULE_PATH}/templates/modes/sides/row.hbs`,
  /** One combatant row's body: declared actions, the declaration form, the countdown's buttons and choices. */
  rowBody: `${MODULE_PATH}/templates/modes/sides/row-body.hbs`,
  /** The step banner, sides, declaration and pass order, above the set-up controls. */
  panel: `${MODULE_PATH}/templates/modes/sides/panel.hbs`,
} as const;

/**
 * The `sides` keyboard action (Configure Controls id, one binding with declare-resolve's): focus the
 * declaration form of the player's character declaring now.
 */
export const SIDES_KEYS = { declare: "declare" } as const;

/** The `sides` notice (`Notice.<kind>`): the player's character declares now. */
export const SIDES_NOTICE = "Declare";

/**
 * The kind of the row's slow-down choice, a disclosure filled on use (`data-si-fill`): only its
 * summary renders until the user opens it, so no row's markup depends on who acts now.
 */
export const SIDES_SLOW_FILL = "sidesSlow";

/** Module flag keys on CombatantGroup documents (sides) and on the Combat (the countdown's controls). */
export const SIDE_FLAGS = {
  /** CombatantGroup: true on a group that is a side (the module made it, or the GM marked it). */
  side: "side",
  /** Combatant: the id of the side (CombatantGroup) it is on. GM-written. */
  sideId: "sideId",
  /** CombatantGroup: the side's colour ("#rrggbb"). */
  colour: "colour",
  /** CombatantGroup: the disposition a default side was made for ("friendly", "hostile", "neutral"). */
  role: "role",
  /** Combat: the GM's controls of the hesitation countdown ({@link ClockControl}). */
  clock: "sidesClock",
  /** Combat: when the current declarer's countdown began ({@link DeclaringStamp}). Active GM-written. */
  declaring: "sidesDeclaring",
} as const;

/** The dispositions default sides are made for. */
export type SideRole = "friendly" | "hostile" | "neutral";

/** Colours of the default sides, and of sides without a colour (by position). */
export const SIDE_COLOURS: Readonly<Record<SideRole, string>> = {
  friendly: "#2f7d4f",
  hostile: "#8c2f39",
  neutral: "#7a6a2a",
};
export const PALETTE = ["#2f7d4f", "#8c2f39", "#7a6a2a", "#2f5f9d", "#6b3fa0", "#2a7a7a"];
export const COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
