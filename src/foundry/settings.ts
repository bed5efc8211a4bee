/**
 * The module's shared settings: the default mode for new encounters and the undo history's bound.
 * Each mode registers its own (formulas with presets for common systems) through its module.
 */
import { I18N, MODULE_ID, SETTINGS, SYSTEM_DEFAULT } from "../constants";
import { installedModes, isModeSetting, modeIds, type ModeSetting } from "./modes";

/** Register every setting. Called at `init`. */
export function registerSettings(): void {
  const modeChoices: Record<string, string> = { [SYSTEM_DEFAULT]: `${I18N}.Mode.${SYSTEM_DEFAULT}` };
  for (const id of modeIds()) modeChoices[id] = `${I18N}.Mode.${id}`;

  game.settings.register(MODULE_ID, SETTINGS.defaultMode, {
    name: `${I18N}.Settings.DefaultMode.Name`,
    hint: `${I18N}.Settings.DefaultMode.Hint`,
    scope: "world",
    config: true,
    type: String,
    choices: modeChoices,
    default: SYSTEM_DEFAULT,
  });
  game.settings.register(MODULE_ID, SETTINGS.historyLimit, {
    name: `${I18N}.Settings.HistoryLimit.Name`,
    hint: `${I18N}.Settings.HistoryLimit.Hint`,
    scope: "world",
    config: true,
    type: Number,
    default: 100,
  });
  game.settings.register(MODULE_ID, SETTINGS.noticeSound, {
    name: `${I18N}.Settings.NoticeSound.Name`,
    hint: `${I18N}.Settings.NoticeSound.Hint`,
    scope: "client",
    config: true,
    type: Boolean,
    default: false,
  });
  for (const mode of installedModes()) mode.registerSettings?.();
}

/** The default mode for new encounters (a corrupted value falls back to the system's behaviour). */
export function defaultMode(): ModeSetting {
  const value: unknown = game.settings.get(MODULE_ID, SETTINGS.defaultMode);
  return isModeSetting(value) ? value : SYSTEM_DEFAULT;
}

/** The bound on the undo history (at least 1, at most 1000). */
export function historyLimit(): number {
  const value = game.settings.get(MODULE_ID, SETTINGS.historyLimit);
  return Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 1), 1000) : 100;
}
