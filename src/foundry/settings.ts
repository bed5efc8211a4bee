/**
 * The module's shared settings: the default mode for new encounters and the undo history's bound.
 * Each mode registers its own (formulas with presets for common systems) through its module. Every
 * one of them is a world setting hidden from Foundry's flat list (`config: false`): the GM edits them
 * in the one grouped settings form (`settings-form.ts`) that the settings menu opens.
 */
import { I18N, MODULE_ID, SETTINGS, SYSTEM_DEFAULT } from "../constants";
import { installedModes, isModeSetting, modeIds, type ModeSetting } from "./modes";
import type { SettingDefinition } from "../core/settings";
import { registerDefinitions, type SettingGroup } from "./setting-defs";
import { registerSettingsMenu } from "./settings-form";

/** The largest undo history the module keeps. */
export const MAX_HISTORY_LIMIT = 1000;
/** The undo history's default bound. */
export const DEFAULT_HISTORY_LIMIT = 100;

/** The shared settings (the mode choice is built from the installed modes). */
export function sharedSettingDefs(): readonly SettingDefinition[] {
  const modeChoices: Record<string, string> = { [SYSTEM_DEFAULT]: `${I18N}.Mode.${SYSTEM_DEFAULT}` };
  for (const id of modeIds()) modeChoices[id] = `${I18N}.Mode.${id}`;
  return [
    {
      key: SETTINGS.defaultMode,
      type: "string",
      choices: modeChoices,
      preset: () => SYSTEM_DEFAULT,
    },
    {
      key: SETTINGS.historyLimit,
      type: "number",
      range: { min: 1, max: MAX_HISTORY_LIMIT, integer: true },
      preset: () => DEFAULT_HISTORY_LIMIT,
    },
    {
      key: SETTINGS.diceRoller,
      type: "string",
      choices: { player: `${I18N}.Settings.DiceRoller.player`, gm: `${I18N}.Settings.DiceRoller.gm` },
      preset: () => "player",
    },
  ];
}

/** Every setting the form shows, in its groups: the shared ones first, then each mode's in registry order. */
export function settingGroups(): SettingGroup[] {
  const groups: SettingGroup[] = [
    { id: "shared", label: `${I18N}.SettingsForm.Shared`, settings: sharedSettingDefs() },
  ];
  for (const mode of installedModes())
    if (mode.settings !== undefined && mode.settings.length > 0)
      groups.push({ id: mode.id, label: `${I18N}.Mode.${mode.id}`, settings: mode.settings });
  return groups;
}

/**
 * Foundry's user scope (v13+: https://foundryvtt.com/api/interfaces/foundry.types.SettingConfig.html,
 * `scope: "world" | "client" | "user"`). The v13 types package this project checks against names only
 * "world" and "client", hence the cast.
 */
const USER_SCOPE = "user" as unknown as "client";

/** Register every setting and the settings menu. Called at `init`. */
export function registerSettings(): void {
  registerDefinitions(sharedSettingDefs());
  // Each user's own choice (not the GM's world settings form): in Configure Settings, off by default.
  game.settings.register(MODULE_ID, SETTINGS.noticeSound, {
    name: `${I18N}.Settings.NoticeSound.Name`,
    hint: `${I18N}.Settings.NoticeSound.Hint`,
    scope: "client",
    config: true,
    type: Boolean,
    default: false,
  });
  // Each user's own, kept on the server for them (a user setting: the same on every device they use).
  game.settings.register(MODULE_ID, SETTINGS.hints, {
    name: `${I18N}.Settings.Hints.Name`,
    hint: `${I18N}.Settings.Hints.Hint`,
    scope: USER_SCOPE,
    config: true,
    type: Boolean,
    default: true,
    onChange: () => {
      void ui.combat.render();
    },
  });
  for (const mode of installedModes()) mode.registerSettings?.();
  registerSettingsMenu(settingGroups);
}

/** The default mode for new encounters (a corrupted value falls back to the system's behaviour). */
export function defaultMode(): ModeSetting {
  const value: unknown = game.settings.get(MODULE_ID, SETTINGS.defaultMode);
  return isModeSetting(value) ? value : SYSTEM_DEFAULT;
}

/** Whether this user has the tracker's hints shown (the default). */
export function hintsShown(): boolean {
  return game.settings.get(MODULE_ID, SETTINGS.hints);
}

/** Fold the tracker's hints away for this user, or show them again; the tracker renders again. */
export async function toggleHints(): Promise<void> {
  await game.settings.set(MODULE_ID, SETTINGS.hints, !hintsShown());
}

/** Who rolls the dice the module asks a player for: the player's own client (default) or the active GM's. */
export type DiceRoller = "player" | "gm";

/** The world's choice of who rolls players' dice (anything unreadable reads as the default, the player). */
export function diceRoller(): DiceRoller {
  const value: unknown = game.settings.get(MODULE_ID, SETTINGS.diceRoller);
  return value === "gm" ? "gm" : "player";
}

/** The bound on the undo history (at least 1, at most 1000). */
export function historyLimit(): number {
  const value = game.settings.get(MODULE_ID, SETTINGS.historyLimit);
  return Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 1), MAX_HISTORY_LIMIT) : DEFAULT_HISTORY_LIMIT;
}
