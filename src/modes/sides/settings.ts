/**
 * World settings of the `sides` mode: the formulas (or data paths) its D6 traits are read through,
 * the multiple-action penalty and the hesitation countdown. A formula is resolved against the actor's
 * roll data and must give a dice code ("3D+2") or a whole number of dice ("3" = 3D).
 */
import { I18N, MODULE_ID, SYSTEM_IDS } from "../../constants";
import { isDiceCode, normaliseDiceCode } from "../../core/dice-code";
import type { SettingDefinition, TextRule } from "../../core/settings";
import { registerDefinitions, rollsDice, validFormula } from "../../foundry/setting-defs";
import { SIDES_SETTINGS } from "./constants";
import { DEFAULT_MAX_REACTIONS, MAX_ACTIONS_LIMIT } from "./rules/types";

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

/** How a trait's number is read: a number of dice ("3" = 3D), or pips (three to a die: 10 = 3D+1). */
export type TraitUnit = "dice" | "pips";

/** A `sides` preset: the trait formulas, the wound penalty's formula and the unit of plain numbers. */
export interface SidesPreset extends SidesFormulas {
  readonly woundPenalty: string;
  readonly unit: TraitUnit;
}

/**
 * Presets. `generic` reads `@dexterity` and `@perception` (dice codes or numbers of dice) and needs
 * no Tactics. OpenD6 Space (`nonex-ist-od6s`, `od6s` before 3.0; 3.0.0,
 * `src/module/data/actor/fields/attributes.ts` and `actor-helpers/prepare-actor.ts`) keeps every
 * attribute as a score in pips (`attributes.<key>.score`; three pips a die, its `pip_per_dice`
 * default): Dexterity is its Agility (`agi`), Perception `per`, and its own initiative score
 * (`initiative.score`: Perception, or the attribute its settings name, plus modifiers) picks the
 * roller. Tactics is a skill Item there, out of reach of roll data, and `wounds.value` is a wound
 * level, not a dice penalty: both stay empty.
 */
export const SIDES_PRESETS = {
  generic: {
    dexterity: "@dexterity",
    perception: "@perception",
    initiative: "",
    tactics: "",
    woundPenalty: "",
    unit: "dice",
  },
  od6s: {
    dexterity: "@attributes.agi.score",
    perception: "@attributes.per.score",
    initiative: "@initiative.score",
    tactics: "",
    woundPenalty: "",
    unit: "pips",
  },
} as const satisfies Record<string, SidesPreset>;

/** The `sides` preset of a game system. */
export function sidesPresetFor(systemId: string): SidesPreset {
  return systemId === SYSTEM_IDS.od6s || systemId === SYSTEM_IDS.od6sLegacy
    ? SIDES_PRESETS.od6s
    : SIDES_PRESETS.generic;
}

/** Default multiple-action penalty per action beyond the first (the D6 preset: −1D). */
export const DEFAULT_SIDES_PENALTY = "1D";
/** Default seconds a character has to declare before hesitating. */
export const DEFAULT_SIDES_COUNTDOWN = 3;

const isOd6s = (systemId: string): boolean => systemId === SYSTEM_IDS.od6s || systemId === SYSTEM_IDS.od6sLegacy;

function trait(
  key: "sidesDexterity" | "sidesPerception" | "sidesInitiative" | "sidesTactics" | "sidesWoundPenalty",
  field: keyof SidesFormulas | "woundPenalty",
  optional: boolean,
  note?: string,
): SettingDefinition {
  return {
    key: SIDES_SETTINGS[key],
    type: "string",
    check: TRAIT_CHECK,
    optional,
    preset: (context) => sidesPresetFor(context.systemId)[field],
    ...(note === undefined
      ? {}
      : { systemNote: (systemId: string) => (isOd6s(systemId) ? `${I18N}.SettingsForm.SystemNote.${note}` : null) }),
  };
}

/** A trait: a D6 dice code ("3D+2") or a roll formula giving a number (dice or pips). */
export const TRAIT_CHECK: TextRule = {
  error: "trait",
  accepts: (text) => isDiceCode(text) || (validFormula(text) && !rollsDice(text)),
};

/** A penalty: a D6 dice code. */
export const PENALTY_CHECK: TextRule = { error: "penalty", accepts: (text) => normaliseDiceCode(text) !== null };

/** The `sides` settings (registered at `init`, shown in the settings form). */
export const SIDES_SETTING_DEFS: readonly SettingDefinition[] = [
  {
    key: SIDES_SETTINGS.sidesTraitUnit,
    type: "string",
    choices: { dice: `${I18N}.Settings.SidesTraitUnit.dice`, pips: `${I18N}.Settings.SidesTraitUnit.pips` },
    preset: (context) => sidesPresetFor(context.systemId).unit,
  },
  trait("sidesDexterity", "dexterity", false),
  trait("sidesPerception", "perception", false),
  trait("sidesInitiative", "initiative", true),
  trait("sidesTactics", "tactics", true, "od6sTactics"),
  trait("sidesWoundPenalty", "woundPenalty", true, "od6sWounds"),
  {
    key: SIDES_SETTINGS.sidesActionPenalty,
    type: "string",
    check: PENALTY_CHECK,
    preset: () => DEFAULT_SIDES_PENALTY,
  },
  {
    key: SIDES_SETTINGS.sidesMaxReactions,
    type: "number",
    range: { min: 1, max: MAX_ACTIONS_LIMIT, integer: true },
    preset: () => DEFAULT_MAX_REACTIONS,
  },
  {
    key: SIDES_SETTINGS.sidesCountdown,
    type: "number",
    range: { min: 0, max: 600, integer: false },
    preset: () => DEFAULT_SIDES_COUNTDOWN,
  },
];

/** Register the `sides` settings (called from `registerSettings` at `init`). */
export function registerSidesSettings(): void {
  registerDefinitions(SIDES_SETTING_DEFS);
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

/** How plain numbers in trait values are read (dice unless the world says pips). */
export function sidesTraitUnit(): TraitUnit {
  const value: unknown = game.settings.get(MODULE_ID, SIDES_SETTINGS.sidesTraitUnit);
  return value === "pips" ? "pips" : "dice";
}
