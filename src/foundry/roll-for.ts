/**
 * The one way a mode rolls dice for a result: {@link rollFor} rolls roll `part` of a command and posts
 * it with its purpose, on this client or, when the world has the GM's client roll players' dice, on
 * the active GM's (`authority/dice.ts`).
 */
import type { Json } from "../core/patch";
import { requestDice } from "./authority/controller";
import { rollForCommand, type PostedRoll } from "./authority/dice";
import type { RollMode } from "./chat";

export type { PostedRoll } from "./authority/dice";

/**
 * Roll `roll` (not yet evaluated) as roll `part` of `command` and post it to chat as the combatant's,
 * with the roll mode and the mode's own message `flags`; null when the roll was refused (shown).
 */
export function rollFor(
  combat: Combat.Implementation,
  command: Json,
  part: number,
  roll: Roll,
  combatant: Combatant.Implementation | undefined,
  flavor: string,
  rollMode?: RollMode,
  flags?: Record<string, unknown>,
): Promise<PostedRoll | null> {
  return rollForCommand(combat, command, part, roll, combatant, flavor, rollMode, flags, requestDice);
}
