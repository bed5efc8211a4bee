/**
 * World settings of the `individual` mode: the initiative check's die and modifier formulas (with
 * presets for common systems) and whether flat-footed is applied as a status effect.
 */
import { I18N, MODULE_ID } from "../../constants";
import { INDIVIDUAL_SETTINGS } from "./constants";

/** An initiative preset: the die part and the modifier part of the check, as Foundry roll formulas. */
export interface InitiativePreset {
  readonly die: string;
  readonly modifier: string;
}

/**
 * Presets for the `individual` check. The modifier is evaluated on its own (no dice) for ties and
 * group checks; the roll posted to chat is `die + modifier`.
 */
export const INITIATIVE_PRESETS = {
  generic: { die: "1d20", modifier: "@initiative" },
  dnd5e: { die: "1d20", modifier: "@attributes.init.mod" },
  pf2e: { die: "1d20", modifier: "@attributes.initiative.totalModifier" },
} as const satisfies Record<string, InitiativePreset>;

/** A preset name. */
export type InitiativePresetName = keyof typeof INITIATIVE_PRESETS;

function isPresetName(value: string): value is InitiativePresetName {
  return value in INITIATIVE_PRESETS;
}

/** The preset that fits the running game system, or the generic one. */
export function presetForSystem(systemId: string): InitiativePresetName {
  return isPresetName(systemId) ? systemId : "generic";
}

/** Register the `individual` settings (at `init`). */
export function registerIndividualSettings(): void {
  const preset = INITIATIVE_PRESETS[presetForSystem(game.system.id)];
  game.settings.register(MODULE_ID, INDIVIDUAL_SETTINGS.initiativeFormula, {
    name: `${I18N}.Settings.InitiativeFormula.Name`,
    hint: `${I18N}.Settings.InitiativeFormula.Hint`,
    scope: "world",
    config: true,
    type: String,
    default: preset.die,
  });
  game.settings.register(MODULE_ID, INDIVIDUAL_SETTINGS.modifierFormula, {
    name: `${I18N}.Settings.ModifierFormula.Name`,
    hint: `${I18N}.Settings.ModifierFormula.Hint`,
    scope: "world",
    config: true,
    type: String,
    default: preset.modifier,
  });
  game.settings.register(MODULE_ID, INDIVIDUAL_SETTINGS.flatFootedStatus, {
    name: `${I18N}.Settings.FlatFootedStatus.Name`,
    hint: `${I18N}.Settings.FlatFootedStatus.Hint`,
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
}

/** The formulas of the `individual` check. */
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
