/**
 * World settings of the `slots` mode: the check's formulas and scoring (with presets for the Star
 * Wars FFG and Genesys systems) and the keep-slot policy for defeated or removed combatants.
 */
import { I18N, MODULE_ID } from "../../constants";
import { SLOTS_SETTINGS } from "./constants";

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

/** Install what runs when the GM changes the keep-slot policy (the slots glue, at init). */
export function onKeepSlotsChange(listener: () => void): void {
  keepSlotsListener = listener;
}

/** Register the `slots` settings (at `init`). */
export function registerSlotsSettings(): void {
  const preset = slotsPresetFor(game.system.id);
  const formula = (key: "slotsCoolFormula" | "slotsVigilanceFormula" | "slotsSecondaryFormula", name: string): void => {
    game.settings.register(MODULE_ID, SLOTS_SETTINGS[key], {
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
  game.settings.register(MODULE_ID, SLOTS_SETTINGS.slotsScoring, {
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
    game.settings.register(MODULE_ID, SLOTS_SETTINGS[key], {
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
  const scoring: unknown = game.settings.get(MODULE_ID, SLOTS_SETTINGS.slotsScoring);
  return {
    cool: game.settings.get(MODULE_ID, SLOTS_SETTINGS.slotsCoolFormula),
    vigilance: game.settings.get(MODULE_ID, SLOTS_SETTINGS.slotsVigilanceFormula),
    secondary: game.settings.get(MODULE_ID, SLOTS_SETTINGS.slotsSecondaryFormula),
    scoring: scoring === "symbols" ? "symbols" : "totals",
  };
}

/** The `slots` keep-slot policy of the world: whether a defeated or removed PC's / NPC's slot stays. */
export function slotsKeepPolicy(): { readonly pc: boolean; readonly npc: boolean } {
  return {
    pc: game.settings.get(MODULE_ID, SLOTS_SETTINGS.slotsKeepPC),
    npc: game.settings.get(MODULE_ID, SLOTS_SETTINGS.slotsKeepNPC),
  };
}
