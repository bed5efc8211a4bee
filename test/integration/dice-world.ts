/**
 * Helpers of the fair-dice suites: a roll's purpose as the module writes it on a ChatMessage
 * (`src/foundry/authority/purpose.ts`), and hand-made chat rolls that carry one (or none).
 */
import type { Sim, SimClient } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { combatOn } from "./world.js";

/** The encounter's stored revision on a client. */
export function revisionOn(client: SimClient): number {
  const stored = combatOn(client).getFlag("structured-initiative", "encounter") as { rev?: number } | undefined;
  return stored?.rev ?? 0;
}

/** The purpose of roll `part` of `command`, asked now for this client's user (or as overridden). */
export function purposeOf(client: SimClient, command: JsonObject, part = 0, over: JsonObject = {}): JsonObject {
  const results = command.results as { combatantId: string }[] | undefined;
  const subject = results?.[part]?.combatantId ?? command.combatantId ?? command.groupId ?? command.sideId ?? "";
  return {
    combat: combatOn(client).id,
    subject,
    for: command.type ?? "",
    part,
    rev: revisionOn(client),
    user: client.userId,
    ...over,
  };
}

/** Chat message flags carrying that purpose. */
export function purposeFlags(client: SimClient, command: JsonObject, part = 0, over: JsonObject = {}): JsonObject {
  return { "structured-initiative": { purpose: purposeOf(client, command, part, over) } };
}

/** A roll the client posts to chat by hand with exact faces and these flags; its message id. */
export async function handRoll(
  sim: Sim,
  client: SimClient,
  formula: string,
  faces: readonly number[],
  flags: JsonObject = {},
): Promise<string> {
  sim.dice.push(...faces);
  const message = (await new client.api.Roll(formula).toMessage({ flags })) as { id: string };
  await sim.settle();
  return message.id;
}
