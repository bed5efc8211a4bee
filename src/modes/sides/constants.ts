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
  /** One combatant row's badges, declared actions and choices. */
  row: `${MODULE_PATH}/templates/modes/sides/row.hbs`,
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
