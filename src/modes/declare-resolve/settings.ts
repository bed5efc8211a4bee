/**
 * World settings of the `declare-resolve` mode: the IP formula and the tie-breaking modifier, the AP
 * budget, the actor paths of hits (bleeding) and DEF (an ActiveEffect for the round), and the action
 * catalogue, which the GM edits in its own settings form (`catalogue-form.ts`), never as raw JSON.
 */
import { I18N, MODULE_ID } from "../../constants";
import { DR_SETTINGS } from "./constants";
import type { SettingDefinition } from "../../core/settings";
import { registerDefinitions } from "../../foundry/setting-defs";
import { DEFAULT_AP_BUDGET, MAX_AP_BUDGET } from "./rules/types";
import { DEFAULT_CATALOGUE, parseCatalogue, type CatalogueEntry } from "./rules/catalogue";

/** The generic IP roll: 2d10 plus the Speed and Wisdom bonuses (rulebook excerpt 002). */
export const DEFAULT_IP_FORMULA = "2d10 + @speedBonus + @wisdomBonus";
/** The generic tie-breaking modifier: the roll's bonuses without the dice. */
export const DEFAULT_MODIFIER_FORMULA = "@speedBonus + @wisdomBonus";

let budgetListener: () => void = () => undefined;

/** Install what runs when the GM changes the AP budget (the glue passes it on to running encounters). */
export function onBudgetChange(listener: () => void): void {
  budgetListener = listener;
}

/** The `declare-resolve` settings shown in the settings form (the catalogue has its own form). */
export const DR_SETTING_DEFS: readonly SettingDefinition[] = [
  {
    key: DR_SETTINGS.drIPFormula,
    type: "string",
    check: "roll",
    preset: () => DEFAULT_IP_FORMULA,
  },
  {
    key: DR_SETTINGS.drModifierFormula,
    type: "string",
    check: "modifier",
    preset: () => DEFAULT_MODIFIER_FORMULA,
  },
  {
    key: DR_SETTINGS.drBudget,
    type: "number",
    range: { min: 1, max: MAX_AP_BUDGET, integer: true },
    preset: () => DEFAULT_AP_BUDGET,
    onChange: () => {
      budgetListener();
    },
  },
  { key: DR_SETTINGS.drHitsPath, type: "string", check: "path", optional: true, preset: () => "" },
  { key: DR_SETTINGS.drDefPath, type: "string", check: "path", optional: true, preset: () => "" },
];

/** Register the `declare-resolve` settings (at `init`; the catalogue's menu is `registerCatalogueMenu`). */
export function registerDeclareResolveSettings(): void {
  registerDefinitions(DR_SETTING_DEFS);
  game.settings.register(MODULE_ID, DR_SETTINGS.drCatalogue, {
    name: `${I18N}.Settings.DrCatalogue.Name`,
    hint: `${I18N}.Settings.DrCatalogue.Hint`,
    scope: "world",
    config: false,
    // Stored as JSON text: a value that cannot be read is caught by the catalogue's parser.
    type: String,
    default: JSON.stringify({ entries: DEFAULT_CATALOGUE }),
    onChange: () => {
      warnedFor = null;
    },
  });
}

/** The IP formula and the tie-breaking modifier formula. */
export function ipFormulas(): { readonly roll: string; readonly modifier: string } {
  return {
    roll: game.settings.get(MODULE_ID, DR_SETTINGS.drIPFormula),
    modifier: game.settings.get(MODULE_ID, DR_SETTINGS.drModifierFormula),
  };
}

/** The AP budget per round (the default when the setting is not a whole number from 1 to 99). */
export function apBudget(): number {
  const value: unknown = game.settings.get(MODULE_ID, DR_SETTINGS.drBudget);
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_AP_BUDGET
    ? (value as number)
    : DEFAULT_AP_BUDGET;
}

/** An actor data path setting, trimmed ("" when unset). */
export function actorPath(key: "drHitsPath" | "drDefPath"): string {
  const value: unknown = game.settings.get(MODULE_ID, DR_SETTINGS[key]);
  return typeof value === "string" ? value.trim() : "";
}

/** The stored catalogue value the GM was last warned about (one warning per unreadable value). */
let warnedFor: string | null = null;

/**
 * The action catalogue. One that cannot be read falls back to the seed's defaults, and the GM is
 * warned (once per unreadable value).
 */
export function actionCatalogue(): readonly CatalogueEntry[] {
  const raw: unknown = game.settings.get(MODULE_ID, DR_SETTINGS.drCatalogue);
  const entries = parseCatalogue(raw);
  if (entries !== null) return entries;
  const key = typeof raw === "string" ? raw : JSON.stringify(raw);
  if (game.user.isGM && warnedFor !== key) {
    warnedFor = key;
    ui.notifications.warn(game.i18n.localize(`${I18N}.Settings.DrCatalogue.Unreadable`));
  }
  return DEFAULT_CATALOGUE;
}

/** Save a checked catalogue (GM). */
export async function saveCatalogue(entries: readonly CatalogueEntry[]): Promise<void> {
  await game.settings.set(MODULE_ID, DR_SETTINGS.drCatalogue, JSON.stringify({ entries }));
}
