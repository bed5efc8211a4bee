/**
 * World settings of the `sides` mode: the formulas (or data paths) its D6 traits are read through,
 * the multiple-action penalty and the hesitation countdown. A formula is resolved against the actor's
 * roll data and must give a dice code ("3D+2") or a whole number of dice ("3" = 3D).
 */
import { I18N, MODULE_ID } from "../../constants";
import { SIDES_SETTINGS } from "./constants";
import { DEFAULT_MAX_REACTIONS, MAX_ACTIONS_LIMIT } from "./rules/sides";

/** The trait formulas of the `sides` mode. */
export interface SidesFormulas {
  /** Dexterity (orders the passes). */
  readonly dexterity: string;
  /** Perception (orders declarations, breaks Dexterity ties). */
  readonly perception: string;
  /** The initiative score that picks a side's roller; empty: Perception. */
  readonly initiative: string;
  /**
   * Tactics; empty: not used. When set (the Star Wars D6 preset), the initiative score is the better
   * of the score above and Tactics, Tactics counting only when at least 1D above Perception.
   */
  readonly tactics: string;
}

/**
 * Presets. `generic` reads `@dexterity` and `@perception` and needs no Tactics. `d6` is the Star Wars
 * D6 rule (the better of Perception and Tactics); its data paths are examples to adjust to the game
 * system in use, not verified against a published D6 system.
 */
export const SIDES_PRESETS = {
  generic: { dexterity: "@dexterity", perception: "@perception", initiative: "", tactics: "" },
  d6: { dexterity: "@dexterity", perception: "@perception", initiative: "", tactics: "@tactics" },
} as const satisfies Record<string, SidesFormulas>;

/** Default multiple-action penalty per action beyond the first (the D6 preset: −1D). */
export const DEFAULT_SIDES_PENALTY = "1D";
/** Default seconds a character has to declare before hesitating. */
export const DEFAULT_SIDES_COUNTDOWN = 3;

type FormulaKey = "sidesDexterity" | "sidesPerception" | "sidesInitiative" | "sidesTactics" | "sidesWoundPenalty";

/** Register the `sides` settings (called from `registerSettings` at `init`). */
export function registerSidesSettings(): void {
  const preset = SIDES_PRESETS.generic;
  const formula = (key: FormulaKey, name: string, value: string): void => {
    game.settings.register(MODULE_ID, SIDES_SETTINGS[key], {
      name: `${I18N}.Settings.${name}.Name`,
      hint: `${I18N}.Settings.${name}.Hint`,
      scope: "world",
      config: true,
      type: String,
      default: value,
    });
  };
  formula("sidesDexterity", "SidesDexterity", preset.dexterity);
  formula("sidesPerception", "SidesPerception", preset.perception);
  formula("sidesInitiative", "SidesInitiative", preset.initiative);
  formula("sidesTactics", "SidesTactics", preset.tactics);
  formula("sidesWoundPenalty", "SidesWoundPenalty", "");
  game.settings.register(MODULE_ID, SIDES_SETTINGS.sidesActionPenalty, {
    name: `${I18N}.Settings.SidesActionPenalty.Name`,
    hint: `${I18N}.Settings.SidesActionPenalty.Hint`,
    scope: "world",
    config: true,
    type: String,
    default: DEFAULT_SIDES_PENALTY,
  });
  game.settings.register(MODULE_ID, SIDES_SETTINGS.sidesMaxReactions, {
    name: `${I18N}.Settings.SidesMaxReactions.Name`,
    hint: `${I18N}.Settings.SidesMaxReactions.Hint`,
    scope: "world",
    config: true,
    type: Number,
    default: DEFAULT_MAX_REACTIONS,
  });
  game.settings.register(MODULE_ID, SIDES_SETTINGS.sidesCountdown, {
    name: `${I18N}.Settings.SidesCountdown.Name`,
    hint: `${I18N}.Settings.SidesCountdown.Hint`,
    scope: "world",
    config: true,
    type: Number,
    default: DEFAULT_SIDES_COUNTDOWN,
  });
}

/** The trait formulas of the world. */
export function sidesFormulas(): SidesFormulas {
  return {
    dexterity: game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesDexterity),
    perception: game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesPerception),
    initiative: game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesInitiative),
    tactics: game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesTactics),
  };
}

/** The formula or path of a character's wound penalty as a dice code ("" : none). */
export function sidesWoundPenalty(): string {
  return game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesWoundPenalty);
}

/** The per-action penalty setting (as typed; the rules normalise or refuse it). */
export function sidesActionPenalty(): string {
  return game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesActionPenalty);
}

/** The reaction limit per character and round, a whole number from 1 to the rules' cap. */
export function sidesMaxReactions(): number {
  const value = game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesMaxReactions);
  return Number.isFinite(value) ? Math.min(Math.max(Math.round(value), 1), MAX_ACTIONS_LIMIT) : DEFAULT_MAX_REACTIONS;
}

/** The countdown in milliseconds (0: no countdown), at most ten minutes. */
export function sidesCountdownMs(): number {
  const value = game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesCountdown);
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 600) * 1000 : DEFAULT_SIDES_COUNTDOWN * 1000;
}
