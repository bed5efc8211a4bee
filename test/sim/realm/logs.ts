/**
 * What a realm records for the tests: the errors its callbacks threw, the deprecation warnings it
 * logged, the hooks it called, the notifications it showed and v14's effect refreshes.
 */
import type { RefreshRecord } from "../effects.js";
import type { Dict } from "../utils.js";
import type { Notification } from "./notifications.js";

/** One realm's records, with the functions that write them. */
export function createLogs(userId: string) {
  const notifications: Notification[] = [];
  const errors: unknown[] = [];
  /**
   * Deprecation warnings, as `foundry.utils.logCompatibilityWarning` logs them
   * (https://foundryvtt.com/api/v14/functions/foundry.utils.logCompatibilityWarning.html).
   */
  const compatWarnings: string[] = [];
  /** v14: every `ActiveEffect.registry.refresh` call, for the tests (../effects.ts). */
  const effectRefreshes: RefreshRecord[] = [];
  const logCompatibilityWarning = (message: string, _options: Dict = {}): void => {
    compatWarnings.push(message);
  };
  const hookLog: Array<{ name: string; args: unknown[] }> = [];
  const recordError = (where: string, err: unknown): void => {
    errors.push(err);
    console.error(`[sim ${userId}] ${where}:`, err);
  };
  /** Runs a callback; what it throws, or the promise it returns rejects with, is recorded, not thrown. */
  function safe(where: string, fn: () => unknown): void {
    try {
      const r = fn();
      if (r instanceof Promise)
        r.catch((err: unknown) => {
          recordError(where, err);
        });
    } catch (err) {
      recordError(where, err);
    }
  }
  return {
    notifications,
    errors,
    compatWarnings,
    effectRefreshes,
    hookLog,
    logCompatibilityWarning,
    recordError,
    safe,
  };
}
