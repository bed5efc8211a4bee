import { fieldOf as field } from "../../../core/common";
/**
 * Initiative pools that a game system builds from an actor's data, read the way the system reads
 * them. Pure: no Foundry globals.
 *
 * Star Wars FFG 2.0.3 (StarWarsFoundryVTT/StarWarsFFG, commit 75c9ac3): `CombatFFG#_getInitiativeRoll`
 * (`modules/combat-ffg.js`) rolls Cool with Presence and Vigilance with Willpower through
 * `_getInitiativeFormula(skill, characteristic)`: a `DicePoolFFG` of the characteristic's ability dice
 * with the skill's `boost`, `setback` and `force` dice (each read with `parseInt`, a missing one 0),
 * upgraded once per skill rank (`modules/dice/pool.js`, `upgrade`: an ability die becomes a
 * proficiency die, or with none left an ability die is added), written out by `renderDiceExpression`
 * (proficiency, ability, challenge, difficulty, boost, setback, force; empty kinds left out).
 */

/** A Star Wars FFG initiative skill and the characteristic the system rolls it with. */
export const FFG_INITIATIVE = { Cool: "Presence", Vigilance: "Willpower" } as const;

/** A count as the system reads it (`parseInt`, anything else 0), never below 0. */
function count(value: unknown): number {
  const n = Number.parseInt(String(value), 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Whether an actor's system data has what a skill check reads: skills or characteristics (a vehicle has neither). */
export function hasSkills(system: unknown): boolean {
  const isRecord = (v: unknown): boolean => typeof v === "object" && v !== null;
  return isRecord(field(system, "skills")) || isRecord(field(system, "characteristics"));
}

/**
 * The Star Wars FFG initiative pool of one skill for an actor's system data, as a dice formula
 * ("2dp+1da+1db"), or null when the actor has no such skill.
 */
export function ffgInitiativePool(system: unknown, skill: keyof typeof FFG_INITIATIVE): string | null {
  const entry = field(field(system, "skills"), skill);
  if (typeof entry !== "object" || entry === null) return null;
  const characteristic = count(field(field(field(system, "characteristics"), FFG_INITIATIVE[skill]), "value"));
  const rank = count(field(entry, "rank"));
  // Upgrading `rank` times: the lesser of the two in proficiency dice, the difference in ability dice.
  const proficiency = Math.min(characteristic, rank);
  const ability = Math.abs(characteristic - rank);
  const dice: [number, string][] = [
    [proficiency, "dp"],
    [ability, "da"],
    [count(field(entry, "boost")), "db"],
    [count(field(entry, "setback")), "ds"],
    [count(field(entry, "force")), "df"],
  ];
  const parts = dice.filter(([n]) => n > 0).map(([n, d]) => `${String(n)}${d}`);
  return parts.length === 0 ? null : parts.join("+");
}
