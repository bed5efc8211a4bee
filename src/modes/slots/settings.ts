/**
 * World settings of the `slots` mode: the check's formulas and scoring (with presets for the Star
 * Wars FFG and Genesys systems) and the keep-slot policy for defeated or removed combatants.
 */
import { I18N, MODULE_ID, SYSTEM_IDS } from "../../constants";
import type { SettingDefinition } from "../../core/settings";
import { registerDefinitions } from "../../foundry/setting-defs";
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
 * secondary score another formula's total.
 * - Star Wars FFG 2.0.3 (`template.json`; `modules/combat-ffg.js`, `_getInitiativeRoll`): roll data
 *   is the actor's system data; Cool is `skills.Cool.rank` with `characteristics.Presence.value`,
 *   Vigilance `skills.Vigilance.rank` with `characteristics.Willpower.value`. The system starts
 *   from the characteristic's ability dice and upgrades one per rank (`modules/dice/pool.js`,
 *   `upgrade`): the lesser of the two in proficiency dice, the difference in ability dice. One pool,
 *   scored by its net successes and advantages.
 * - Genesys (Mezryss/FVTT-Genesys, `src/combat/GenesysCombatant.ts`): skills are Items, out of reach
 *   of roll data, and the combatant builds the pool itself (`getInitiativeRoll(skill, characteristic)`);
 *   `slotsSystemPool` uses that builder. Without it, the characteristic alone (`characteristics.presence`
 *   / `.willpower`, numbers) gives the pool: an unskilled check.
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
    cool: "(@characteristics.presence)da",
    vigilance: "(@characteristics.willpower)da",
    secondary: "0",
    scoring: "symbols",
  },
} as const satisfies Record<string, SlotsPreset>;

/** The `slots` preset that fits the running game system, or the generic one. */
export function slotsPresetFor(systemId: string): SlotsPreset {
  return systemId === SYSTEM_IDS.starwarsffg || systemId === SYSTEM_IDS.genesys
    ? SLOTS_PRESETS[systemId]
    : SLOTS_PRESETS.generic;
}

/** The characteristic a skill's check falls back on when the system's own pool builder finds no skill. */
export const SYSTEM_POOL_FALLBACK = { cool: "presence", vigilance: "willpower" } as const;

let keepSlotsListener: () => void = () => undefined;

/** Install what runs when the GM changes the keep-slot policy (the slots glue, at init). */
export function onKeepSlotsChange(listener: () => void): void {
  keepSlotsListener = listener;
}

function formula(
  key: "slotsCoolFormula" | "slotsVigilanceFormula" | "slotsSecondaryFormula",
  field: "cool" | "vigilance" | "secondary",
): SettingDefinition {
  return {
    key: SLOTS_SETTINGS[key],
    type: "string",
    check: "roll",
    preset: (context) => slotsPresetFor(context.systemId)[field],
    ...(field === "secondary"
      ? {}
      : {
          systemNote: (systemId: string) =>
            systemId === SYSTEM_IDS.genesys ? `${I18N}.SettingsForm.SystemNote.genesys` : null,
        }),
  };
}

function keep(key: "slotsKeepPC" | "slotsKeepNPC", value: boolean): SettingDefinition {
  return {
    key: SLOTS_SETTINGS[key],
    type: "boolean",
    preset: () => value,
    onChange: () => {
      keepSlotsListener();
    },
  };
}

/** The `slots` settings (registered at `init`, shown in the settings form). */
export const SLOTS_SETTING_DEFS: readonly SettingDefinition[] = [
  formula("slotsCoolFormula", "cool"),
  formula("slotsVigilanceFormula", "vigilance"),
  formula("slotsSecondaryFormula", "secondary"),
  {
    key: SLOTS_SETTINGS.slotsScoring,
    type: "string",
    choices: { totals: `${I18N}.Settings.SlotsScoring.totals`, symbols: `${I18N}.Settings.SlotsScoring.symbols` },
    preset: (context) => slotsPresetFor(context.systemId).scoring,
  },
  {
    key: SLOTS_SETTINGS.slotsSystemPool,
    type: "boolean",
    preset: (context) => context.systemId === SYSTEM_IDS.genesys || context.systemId === SYSTEM_IDS.starwarsffg,
  },
  keep("slotsKeepPC", true),
  keep("slotsKeepNPC", false),
];

/** Register the `slots` settings (at `init`). */
export function registerSlotsSettings(): void {
  registerDefinitions(SLOTS_SETTING_DEFS);
}

/** Whether the check uses the game system's own pool builder where the combatant has one. */
export function slotsSystemPool(): boolean {
  return game.settings.get(MODULE_ID, SLOTS_SETTINGS.slotsSystemPool);
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
