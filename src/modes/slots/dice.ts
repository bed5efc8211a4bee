import { fieldOf as field } from "../../core/common";
/**
 * The one seam between the `slots` glue and a game system's narrative dice. The Star Wars FFG system
 * (`starwarsffg`) evaluates its dice pools with its own Roll subclass, `RollFFG`, whose `ffg` object
 * holds the counts of success, failure, advantage and threat after cancelling (public source:
 * StarWarsFoundryVTT/StarWarsFFG, `RollFFG`). The Genesys system (`genesys`) rolls plain Foundry
 * rolls of its own die terms, each of which names a result's symbols as letters through
 * `getResultLabel` — s success, f failure, a advantage, h threat, t triumph (also a success),
 * d despair (also a failure) (public source: Mezryss/FVTT-Genesys, `GenesysRoller.parseRollResults`).
 * A roll that exposes `netSuccess` / `netAdvantage` directly is read as such. Nothing here touches
 * Foundry globals.
 */

/** A check's two scores: successes (primary) and advantages (secondary), as net counts. */
export interface CheckScores {
  readonly primary: number;
  readonly secondary: number;
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : null;
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
  if (netSuccess !== null && netAdvantage !== null) return { primary: netSuccess, secondary: netAdvantage };
  return readLabelledDice(field(roll, "dice"));
}

/**
 * Net successes and advantages from dice whose terms label their results with symbol letters (the
 * Genesys system's dice), or null when no die does.
 */
function readLabelledDice(dice: unknown): CheckScores | null {
  if (!Array.isArray(dice)) return null;
  const tally: Record<string, number> = { s: 0, f: 0, a: 0, h: 0, t: 0, d: 0 };
  let labelled = false;
  for (const die of dice as unknown[]) {
    const label = field(die, "getResultLabel");
    const results = field(die, "results");
    if (typeof label !== "function" || !Array.isArray(results)) continue;
    for (const result of results as unknown[]) {
      const text: unknown = (label as (r: unknown) => unknown).call(die, result);
      if (typeof text !== "string") continue;
      labelled = true;
      for (const symbol of text) if (symbol in tally) tally[symbol] = (tally[symbol] ?? 0) + 1;
    }
  }
  if (!labelled) return null;
  const at = (k: string): number => tally[k] ?? 0;
  // A triumph is also a success and a despair also a failure.
  return { primary: at("s") + at("t") - at("f") - at("d"), secondary: at("a") - at("h") };
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
