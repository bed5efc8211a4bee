/**
 * What differs between the Foundry generations the sim emulates (13 and 14) and is not a room's own:
 * the names of the chat message modes.
 */

/** v14's chat message modes and what each did in v13 (https://github.com/foundryvtt/dnd5e/issues/6958). */
export const LEGACY_MODES: Record<string, string> = {
  publicroll: "public",
  gmroll: "gm",
  blindroll: "blind",
  selfroll: "self",
};
export const modernMode = (mode: string): string => LEGACY_MODES[mode] ?? mode;
export const legacyMode = (mode: string): string =>
  Object.entries(LEGACY_MODES).find(([, modern]) => modern === mode)?.[0] ?? mode;
