/**
 * World settings of the `individual` mode: whether the initiative check is the game system's own
 * roll (the default) or the world's formulas, the check's die and modifier formulas (with presets
 * for common systems, used when the GM chooses them) and whether flat-footed is applied as a status
 * effect.
 */
import { I18N, MODULE_ID, SYSTEM_IDS } from "../../constants";
import type { PresetContext, SettingDefinition } from "../../core/settings";
import { registerDefinitions } from "../../foundry/setting-defs";
import { INDIVIDUAL_SETTINGS } from "./constants";

/** An initiative preset: the die part and the modifier part of the check, as Foundry roll formulas. */
export interface InitiativePreset {
  readonly die: string;
  readonly modifier: string;
}

/**
 * Presets for the `individual` check, by game system. The modifier is evaluated on its own (no dice)
 * for ties and group checks; the roll posted to chat is `die + modifier`.
 * - dnd5e 5.3.3 (`module/data/actor/templates/attributes.mjs`, `prepareInitiative`): `init.total` is
 *   the whole modifier (`init.mod` is the ability modifier alone). Dexterity / 100 is the tie-break
 *   dnd5e itself adds when its `initiativeDexTiebreaker` setting is on (`actor.mjs`,
 *   `getInitiativeRollConfig`), so equal totals rank by Dexterity before any roll-off.
 * - pf2e: roll data is `{ actor, … }` (`@attributes` is deprecated); the initiative statistic's trace
 *   data (`system.initiative`, Perception unless the actor picked a skill) has `totalModifier`.
 * - worldbuilding: the attribute `init`; with the system's shorthand setting on (its default) roll
 *   data has `@init`, with it off `@attributes.init.value` (`module/actor.js`, `getRollData`).
 */
export const INITIATIVE_PRESETS = {
  generic: { die: "1d20", modifier: "@initiative" },
  dnd5e: { die: "1d20", modifier: "@attributes.init.total + @abilities.dex.value / 100" },
  pf2e: { die: "1d20", modifier: "@actor.system.initiative.totalModifier" },
  worldbuilding: { die: "1d20", modifier: "@init" },
  worldbuildingLonghand: { die: "1d20", modifier: "@attributes.init.value" },
} as const satisfies Record<string, InitiativePreset>;

/** A preset name. */
export type InitiativePresetName = keyof typeof INITIATIVE_PRESETS;

/** The preset that fits the running game system (and its own settings), or the generic one. */
export function presetFor(context: PresetContext): InitiativePreset {
  switch (context.systemId) {
    case SYSTEM_IDS.dnd5e:
      return INITIATIVE_PRESETS.dnd5e;
    case SYSTEM_IDS.pf2e:
      return INITIATIVE_PRESETS.pf2e;
    case SYSTEM_IDS.worldbuilding:
      return context.systemSetting("macroShorthand") === false
        ? INITIATIVE_PRESETS.worldbuildingLonghand
        : INITIATIVE_PRESETS.worldbuilding;
    default:
      return INITIATIVE_PRESETS.generic;
  }
}

/** Where the `individual` check comes from: the game system's own initiative roll, or the world's formulas. */
export type InitiativeSource = "system" | "formula";

/** The `individual` settings (registered at `init`, shown in the settings form). */
export const INDIVIDUAL_SETTING_DEFS: readonly SettingDefinition[] = [
  {
    key: INDIVIDUAL_SETTINGS.initiativeSource,
    type: "string",
    choices: {
      system: `${I18N}.Settings.InitiativeSource.system`,
      formula: `${I18N}.Settings.InitiativeSource.formula`,
    },
    preset: () => "system",
  },
  {
    key: INDIVIDUAL_SETTINGS.initiativeFormula,
    type: "string",
    check: "roll",
    preset: (context) => presetFor(context).die,
  },
  {
    key: INDIVIDUAL_SETTINGS.modifierFormula,
    type: "string",
    check: "modifier",
    preset: (context) => presetFor(context).modifier,
    systemNote: (systemId) =>
      systemId === SYSTEM_IDS.worldbuilding || systemId === SYSTEM_IDS.dnd5e
        ? `${I18N}.SettingsForm.SystemNote.${systemId}`
        : null,
  },
  { key: INDIVIDUAL_SETTINGS.flatFootedStatus, type: "boolean", preset: () => false },
];

/** Register the `individual` settings (at `init`). */
export function registerIndividualSettings(): void {
  registerDefinitions(INDIVIDUAL_SETTING_DEFS);
}

/** Where the `individual` check comes from (the system's roll unless the GM chose the formulas). */
export function initiativeSource(): InitiativeSource {
  return game.settings.get(MODULE_ID, INDIVIDUAL_SETTINGS.initiativeSource) === "formula" ? "formula" : "system";
}

/** The formulas of the `individual` check (used when the GM chose them). */
export function initiativeFormulas(): InitiativePreset {
  return {
    die: game.settings.get(MODULE_ID, INDIVIDUAL_SETTINGS.initiativeFormula),
    modifier: game.settings.get(MODULE_ID, INDIVIDUAL_SETTINGS.modifierFormula),
  };
}

/** Whether flat-footed is applied as a status effect. */
export function flatFootedAsStatus(): boolean {
  return game.settings.get(MODULE_ID, INDIVIDUAL_SETTINGS.flatFootedStatus);
}
