/**
 * The one seam between the `slots` glue and a game system's narrative dice. The Star Wars FFG system
 * (`starwarsffg`) evaluates its dice pools with its own Roll subclass, `RollFFG`, whose `ffg` object
 * holds the counts of success, failure, advantage and threat after cancelling (public source:
 * StarWarsFoundryVTT/StarWarsFFG, `RollFFG`). The Genesys system's roll results could not be verified
 * from public sources; it goes through the same reader, which accepts the same `ffg` shape or the
 * fields `netSuccess` / `netAdvantage` when a roll exposes them. Nothing here touches Foundry globals.
 */

/** A check's two scores: successes (primary) and advantages (secondary), as net counts. */
export interface CheckScores {
  readonly primary: number;
  readonly secondary: number;
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : null;
}

function field(data: unknown, key: string): unknown {
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined;
}

/**
 * The net successes and advantages of an evaluated narrative-dice roll, or null when the roll carries
 * none (the game system's dice are not installed, or the roll is a plain Foundry roll).
 */
export function readSymbols(roll: unknown): CheckScores | null {
  const ffg = field(roll, "ffg");
  if (ffg !== undefined) {
    const success = count(field(ffg, "success"));
    const failure = count(field(ffg, "failure")) ?? 0;
    const advantage = count(field(ffg, "advantage"));
    const threat = count(field(ffg, "threat")) ?? 0;
    if (success === null || advantage === null) return null;
    return { primary: success - failure, secondary: advantage - threat };
  }
  const netSuccess = count(field(roll, "netSuccess"));
  const netAdvantage = count(field(roll, "netAdvantage"));
  return netSuccess === null || netAdvantage === null ? null : { primary: netSuccess, secondary: netAdvantage };
}

/** The narrative-dice Roll class among the registered roll classes (`CONFIG.Dice.rolls`), if any. */
export function symbolRollClass<R>(registered: unknown, fallback: R): R {
  if (!Array.isArray(registered)) return fallback;
  const found: unknown = registered.find(
    (c: unknown) => typeof c === "function" && (c as { name?: unknown }).name === "RollFFG",
  );
  return found === undefined ? fallback : (found as R);
}

/** Keep a score inside what the rules accept (an integer from −999 to 999). */
export function clampScore(value: number): number {
  return Math.max(-999, Math.min(999, Math.trunc(value)));
}
