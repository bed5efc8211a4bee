/** Localised messages for refusals. */
import { I18N, MODULE_ID } from "../constants";
import { REFUSAL_CODES } from "../core/engine";
import { GLUE_REFUSAL_CODES, type AnyRefusalCode, type CommandResult, type RefusalDetail } from "../core/protocol";
import { installedModes } from "./modes";

/** Every refusal reason a user can be shown: the shared rules', the glue's and each installed mode's. */
export function refusalCodes(): readonly AnyRefusalCode[] {
  return [...REFUSAL_CODES, ...GLUE_REFUSAL_CODES, ...installedModes().flatMap((mode) => mode.refusalCodes)];
}

/** The i18n key of a refusal's message. */
export function refusalKey(code: AnyRefusalCode): string {
  return `${I18N}.Refusal.${code}`;
}

/** Show a refusal to the current user as a localised warning naming the combatant when there is one. */
export function notifyRefusal(
  combat: Combat.Implementation | null,
  code: AnyRefusalCode,
  combatantId?: string,
  detail?: RefusalDetail,
): void {
  const name = combatantId === undefined ? "" : (combat?.combatants.get(combatantId)?.name ?? "");
  const values: Record<string, string> = { name };
  for (const [key, value] of Object.entries(detail ?? {})) if (key !== "name") values[key] = String(value);
  // "It is not X's turn" needs an X: with nobody acting (an open slot), say that instead.
  const key = code === "notYourTurn" && combatantId === undefined ? `${refusalKey(code)}Open` : refusalKey(code);
  const text = game.i18n.format(key, values);
  ui.notifications.warn(text);
}

/**
 * The one way to show a refusal and return it: a refused result is shown to the current user with its
 * combatant and detail; any result is returned as it came.
 */
export function shownRefusal<R extends CommandResult>(combat: Combat.Implementation | null, result: R): R {
  if (!result.ok) notifyRefusal(combat, result.code, result.combatantId, result.detail);
  return result;
}

/** Log an error that the module caught and handled, marked as the module's. */
export function logError(error: unknown): void {
  console.error(`${MODULE_ID} |`, error);
}
