/** The messages exchanged between a requesting client and the active GM. */
import type { RefusalCode } from "./engine";

/** Refusals the glue adds to the rules' own. Each has `STRUCTURED_INITIATIVE.Refusal.<code>`. */
export const GLUE_REFUSAL_CODES = [
  "noGM",
  "corrupted",
  "malformedCommand",
  "wrongUser",
  "timeout",
  "vetoed",
  "modeLocked",
  "unknownMode",
  "noOwnedCombatant",
  "invalidFormula",
  "missingActor",
  "notStructured",
  "writeFailed",
] as const;
/** A refusal reason the glue adds. */
export type GlueRefusalCode = (typeof GLUE_REFUSAL_CODES)[number];
/**
 * Any refusal reason a user can be shown: the rules' (shared or a mode's own, so any string) or the
 * glue's (`GLUE_REFUSAL_CODES`).
 */
export type AnyRefusalCode = RefusalCode;

/** The outcome of a command, as the API returns it. */
export type CommandResult =
  { readonly ok: true } | { readonly ok: false; readonly code: AnyRefusalCode; readonly combatantId?: string };

/** GM → requester: what became of a request (sent as a v13 query). */
export interface OutcomeMessage {
  readonly requestId: string;
  /** The encounter the request was written for (to name a combatant in the message). */
  readonly combatId?: string;
  readonly ok: boolean;
  readonly code?: AnyRefusalCode;
  readonly combatantId?: string;
}
