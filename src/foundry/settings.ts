/**
 * The module's settings: the default mode for new encounters and the formulas every number is
 * read through (with presets for common systems).
 */
import { I18N, MODULE_ID, SETTINGS, SYSTEM_DEFAULT } from "../constants";
import { MODE_IDS } from "../core/engine";
import { isModeSetting, type ModeSetting } from "../core/store";
import { registerSidesSettings } from "../modes/sides/settings";

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

/** How a `slots` check is scored: two formula totals, or the successes and advantages of one dice pool. */
export type SlotsScoring = "totals" | "symbols";

/** A `slots` preset: the primary formula per skill, the secondary formula and the scoring. */
export interface SlotsPreset {
  readonly cool: string;
  readonly vigilance: string;
  readonly secondary: string;
  readonly scoring: SlotsScoring;
}

/**
 * The Edge of the Empire / Genesys check pool: proficiency dice for the lower of characteristic and
 * skill rank, ability dice for the difference (Foundry's `(expr)dX` dice count).
 */
function ffgPool(rank: string, characteristic: string): string {
  return `(min(${rank}, ${characteristic}))dp + (abs(${rank} - ${characteristic}))da`;
}

/**
 * Presets for the `slots` check. Generic: the primary score is a formula total per skill, the
 * secondary score another formula's total. Star Wars FFG: one pool per skill, scored by its net
 * successes and advantages (data paths of the starwarsffg system's actors; unverified for Genesys).
 */
export const SLOTS_PRESETS = {
  generic: { cool: "1d6", vigilance: "1d6", secondary: "1d6", scoring: "totals" },
  starwarsffg: {
    cool: ffgPool("@skills.Cool.rank", "@characteristics.Presence.value"),
    vigilance: ffgPool("@skills.Vigilance.rank", "@characteristics.Willpower.value"),
    secondary: "0",
    scoring: "symbols",
  },
  genesys: {
    cool: ffgPool("@skills.cool.rank", "@characteristics.presence"),
    vigilance: ffgPool("@skills.vigilance.rank", "@characteristics.willpower"),
    secondary: "0",
    scoring: "symbols",
  },
} as const satisfies Record<string, SlotsPreset>;

/** The `slots` preset that fits the running game system, or the generic one. */
export function slotsPresetFor(systemId: string): SlotsPreset {
  return systemId === "starwarsffg" || systemId === "genesys" ? SLOTS_PRESETS[systemId] : SLOTS_PRESETS.generic;
}

let keepSlotsListener: () => void = () => undefined;

/** Install what runs when the GM changes the `slots` keep-slot policy (set by the slots glue at init). */
export function onKeepSlotsChange(listener: () => void): void {
  keepSlotsListener = listener;
}

function registerSlotsSettings(): void {
  const preset = slotsPresetFor(game.system.id);
  const formula = (key: "slotsCoolFormula" | "slotsVigilanceFormula" | "slotsSecondaryFormula", name: string): void => {
    game.settings.register(MODULE_ID, SETTINGS[key], {
      name: `${I18N}.Settings.${name}.Name`,
      hint: `${I18N}.Settings.${name}.Hint`,
      scope: "world",
      config: true,
      type: String,
      default:
        key === "slotsCoolFormula"
          ? preset.cool
          : key === "slotsVigilanceFormula"
            ? preset.vigilance
            : preset.secondary,
    });
  };
  formula("slotsCoolFormula", "SlotsCoolFormula");
  formula("slotsVigilanceFormula", "SlotsVigilanceFormula");
  formula("slotsSecondaryFormula", "SlotsSecondaryFormula");
  game.settings.register(MODULE_ID, SETTINGS.slotsScoring, {
    name: `${I18N}.Settings.SlotsScoring.Name`,
    hint: `${I18N}.Settings.SlotsScoring.Hint`,
    scope: "world",
    config: true,
    type: String,
    choices: { totals: `${I18N}.Settings.SlotsScoring.totals`, symbols: `${I18N}.Settings.SlotsScoring.symbols` },
    default: preset.scoring,
  });
  for (const [key, name, value] of [
    ["slotsKeepPC", "SlotsKeepPC", true],
    ["slotsKeepNPC", "SlotsKeepNPC", false],
  ] as const) {
    game.settings.register(MODULE_ID, SETTINGS[key], {
      name: `${I18N}.Settings.${name}.Name`,
      hint: `${I18N}.Settings.${name}.Hint`,
      scope: "world",
      config: true,
      type: Boolean,
      default: value,
      onChange: () => {
        keepSlotsListener();
      },
    });
  }
}

/** The formulas and scoring of the `slots` check. */
export function slotsFormulas(): SlotsPreset {
  const scoring: unknown = game.settings.get(MODULE_ID, SETTINGS.slotsScoring);
  return {
    cool: game.settings.get(MODULE_ID, SETTINGS.slotsCoolFormula),
    vigilance: game.settings.get(MODULE_ID, SETTINGS.slotsVigilanceFormula),
    secondary: game.settings.get(MODULE_ID, SETTINGS.slotsSecondaryFormula),
    scoring: scoring === "symbols" ? "symbols" : "totals",
  };
}

/** The `slots` keep-slot policy of the world: whether a defeated or removed PC's / NPC's slot stays. */
export function slotsKeepPolicy(): { readonly pc: boolean; readonly npc: boolean } {
  return {
    pc: game.settings.get(MODULE_ID, SETTINGS.slotsKeepPC),
    npc: game.settings.get(MODULE_ID, SETTINGS.slotsKeepNPC),
  };
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
  registerSlotsSettings();
  registerSidesSettings();
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
