/** Rolls posted to chat the same way by every mode: the combatant as speaker, the roll mode honoured. */

import { askedRollMode as askedMode, currentRollMode, rollToMessage, type RollMode } from "./compat";
import { fieldOf } from "../core/common";

export type { RollMode } from "./compat";

/**
 * Who sees a combatant's roll: the mode asked for (core passes it in the roll options), else GMs
 * only for a hidden combatant, else the user's current mode.
 */
export function rollModeFor(combatant: Combatant.Implementation | undefined, asked?: RollMode): RollMode {
  return asked ?? (combatant?.hidden === true ? "private" : currentRollMode());
}

/** The mode a caller asked for in `Combat#rollInitiative`'s options (either generation's form), if any. */
export function askedRollMode(options: Combat.InitiativeOptions | undefined): RollMode | undefined {
  return askedMode(options);
}

/**
 * Post an evaluated roll to chat as the combatant's, with a flavour line and the roll mode. `flags`
 * are stored on the message (a mode finds its card again by them). Returns the message's id, which a
 * command sends as the proof of its result (`authority/proofs.ts`).
 */
export async function postRoll(
  roll: Roll,
  combatant: Combatant.Implementation | undefined,
  flavor: string,
  rollMode?: RollMode,
  flags?: Record<string, unknown>,
): Promise<string | null> {
  const speaker = ChatMessage.getSpeaker({
    actor: combatant?.actor ?? null,
    token: combatant?.token ?? null,
    alias: combatant?.name ?? "",
  });
  const data = flags === undefined ? { speaker, flavor } : { speaker, flavor, flags };
  const message = await rollToMessage(roll, data, rollModeFor(combatant, rollMode));
  const id = fieldOf(message, "id");
  return typeof id === "string" ? id : null;
}

/** Whether a roll (from a chat message) was rolled with this formula, as Foundry writes it out. */
export function rolledWith(roll: Roll, formula: string): boolean {
  return Roll.validate(formula) && roll.formula === new Roll(formula).formula;
}

/** A roll's total, or null when it has none. */
export function totalOf(roll: Roll | undefined): number | null {
  const total = roll?.total;
  return typeof total === "number" && Number.isFinite(total) ? total : null;
}
