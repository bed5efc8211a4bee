/**
 * The module's settings: the default mode for new encounters and the formulas every number is
 * read through (with presets for common systems).
 */
import { I18N, MODULE_ID, SETTINGS, SYSTEM_DEFAULT } from "../constants";
import { MODE_IDS } from "../rules/engine";
import { isModeSetting, type ModeSetting } from "./store";

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

/** Register every setting. Called at `init`. */
export function registerSettings(): void {
  const modeChoices: Record<string, string> = { [SYSTEM_DEFAULT]: `${I18N}.Mode.${SYSTEM_DEFAULT}` };
  for (const id of MODE_IDS) modeChoices[id] = `${I18N}.Mode.${id}`;
  const preset = INITIATIVE_PRESETS[presetForSystem(game.system.id)];

  game.settings.register(MODULE_ID, SETTINGS.defaultMode, {
    name: `${I18N}.Settings.DefaultMode.Name`,
    hint: `${I18N}.Settings.DefaultMode.Hint`,
    scope: "world",
    config: true,
    type: String,
    choices: modeChoices,
    default: SYSTEM_DEFAULT,
  });
  game.settings.register(MODULE_ID, SETTINGS.initiativeFormula, {
    name: `${I18N}.Settings.InitiativeFormula.Name`,
    hint: `${I18N}.Settings.InitiativeFormula.Hint`,
    scope: "world",
    config: true,
    type: String,
    default: preset.die,
  });
  game.settings.register(MODULE_ID, SETTINGS.modifierFormula, {
    name: `${I18N}.Settings.ModifierFormula.Name`,
    hint: `${I18N}.Settings.ModifierFormula.Hint`,
    scope: "world",
    config: true,
    type: String,
    default: preset.modifier,
  });
  game.settings.register(MODULE_ID, SETTINGS.flatFootedStatus, {
    name: `${I18N}.Settings.FlatFootedStatus.Name`,
    hint: `${I18N}.Settings.FlatFootedStatus.Hint`,
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  game.settings.register(MODULE_ID, SETTINGS.historyLimit, {
    name: `${I18N}.Settings.HistoryLimit.Name`,
    hint: `${I18N}.Settings.HistoryLimit.Hint`,
    scope: "world",
    config: true,
    type: Number,
    default: 100,
  });
}

/** The default mode for new encounters (a corrupted value falls back to the system's behaviour). */
export function defaultMode(): ModeSetting {
  const value: unknown = game.settings.get(MODULE_ID, SETTINGS.defaultMode);
  return isModeSetting(value) ? value : SYSTEM_DEFAULT;
}

/** The formulas of the `individual` check. */
export function initiativeFormulas(): InitiativePreset {
  return {
    die: game.settings.get(MODULE_ID, SETTINGS.initiativeFormula),
    modifier: game.settings.get(MODULE_ID, SETTINGS.modifierFormula),
  };
}

/** Whether flat-footed is applied as a status effect. */
export function flatFootedAsStatus(): boolean {
  return game.settings.get(MODULE_ID, SETTINGS.flatFootedStatus);
}

/** The bound on the undo history (at least 1, at most 1000). */
export function historyLimit(): number {
  const value = game.settings.get(MODULE_ID, SETTINGS.historyLimit);
  return Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 1), 1000) : 100;
}
