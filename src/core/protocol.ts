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
  "noSystemRoll",
  "missingActor",
  "notStructured",
  "writeFailed",
  "newerFormat",
  "gmOnlyField",
  "rollMismatch",
  "rollWithoutPurpose",
  "rollBeforeAsked",
  "notFirstRoll",
  "interopTurnReverted",
  "interopInitiativeReverted",
  "encounterEnded",
  "cannotTell",
] as const;
/** A refusal reason the glue adds. */
export type GlueRefusalCode = (typeof GLUE_REFUSAL_CODES)[number];
/**
 * Any refusal reason a user can be shown: the rules' (shared or a mode's own, so any string) or the
 * glue's (`GLUE_REFUSAL_CODES`).
 */
export type AnyRefusalCode = RefusalCode;

/** Values a refusal's message shows besides the combatant's name (`{total}`, `{available}` …). */
export type RefusalDetail = Readonly<Record<string, string | number>>;

/** The outcome of a command, as the API returns it. */
export type CommandResult =
  | {
      readonly ok: true;
      /** A roll the active GM made for the requester (a dice request): the roll's data and its message. */
      readonly rolled?: RolledForRequester;
    }
  | {
      readonly ok: false;
      readonly code: AnyRefusalCode;
      readonly combatantId?: string;
      readonly detail?: RefusalDetail;
    };

/**
 * The values a rules refusal carries for its message: its own string and number fields besides
 * `code` and `combatantId` (a mode's refusal type adds them); null when it has none. Untrusted input
 * (a message from another client) is narrowed the same way: long strings and other types are dropped.
 */
export function refusalDetail(refusal: unknown): RefusalDetail | null {
  if (typeof refusal !== "object" || refusal === null) return null;
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(refusal)) {
    if (key === "code" || key === "combatantId" || key === "ok" || !/^[A-Za-z]{1,32}$/.test(key)) continue;
    if ((typeof value === "number" && Number.isFinite(value)) || (typeof value === "string" && value.length <= 200))
      out[key] = value;
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** GM → requester: what became of a request (sent as a v13 query). */
/** A roll the active GM's client made and posted for a player (`src/foundry/authority/dice.ts`). */
export interface RolledForRequester {
  /** The evaluated roll as data (`Roll#toJSON`). */
  readonly roll: Record<string, unknown>;
  /** The ChatMessage it was posted in. */
  readonly messageId: string;
}

export interface OutcomeMessage {
  readonly requestId: string;
  /** The encounter the request was written for (to name a combatant in the message). */
  readonly combatId?: string;
  readonly ok: boolean;
  readonly code?: AnyRefusalCode;
  readonly combatantId?: string;
  readonly detail?: RefusalDetail;
  /** With `ok`, the roll the GM made for a dice request. */
  readonly rolled?: RolledForRequester;
}
