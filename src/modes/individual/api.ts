/** What the `individual` mode adds to the module API: roll-offs and initiative groups. */
import { submit } from "../../foundry/authority/controller";
import type { CommandResult } from "../../core/protocol";
import { modifierFor, refused, rollDataOf } from "./initiative";
import { initiativeSource } from "./settings";
import { rollPendingRollOffs } from "./rolloff";

/**
 * Put these NPCs into one initiative group (GM). Each member's modifier is read (the world's modifier
 * formula, or what the system's roll adds to its dice), since the group rolls with the lowest of them.
 */
export async function groupCombatants(
  combat: Combat.Implementation,
  ids: readonly string[],
  groupId: string,
): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const id of ids) {
    const combatant = combat.combatants.get(id);
    if (combatant === undefined) {
      results.push(refused(combat, "unknownCombatant"));
      continue;
    }
    if (rollDataOf(combatant) === null) {
      results.push(refused(combat, "missingActor", id));
      continue;
    }
    const modifier = await modifierFor(combatant);
    if (modifier === null) {
      results.push(refused(combat, initiativeSource() === "system" ? "noSystemRoll" : "invalidFormula", id));
      continue;
    }
    results.push(await submit(combat, { type: "setGroup", combatantId: id, groupId, modifier }));
  }
  return results;
}

/** What the mode adds to the API (`api.rollOffs`, `api.groupCombatants`). */
export const INDIVIDUAL_API = { rollOffs: rollPendingRollOffs, groupCombatants };
