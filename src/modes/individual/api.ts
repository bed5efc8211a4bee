/** What the `individual` mode adds to the module API: roll-offs and initiative groups. */
import { submit } from "../../foundry/authority/controller";
import type { CommandResult } from "../../core/protocol";
import { shownRefusal } from "../../foundry/notify";
import { cannotRoll, modifierFor, rollDataOf } from "./initiative";
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
      results.push(shownRefusal(combat, { ok: false, code: "unknownCombatant" }));
      continue;
    }
    if (rollDataOf(combatant) === null) {
      results.push(shownRefusal(combat, { ok: false, code: "missingActor", combatantId: id }));
      continue;
    }
    const modifier = await modifierFor(combatant);
    if (modifier === null) {
      results.push(shownRefusal(combat, { ok: false, code: cannotRoll(), combatantId: id }));
      continue;
    }
    results.push(await submit(combat, { type: "setGroup", combatantId: id, groupId, modifier }));
  }
  return results;
}

/** What the mode adds to the API (`api.rollOffs`, `api.groupCombatants`). */
export const INDIVIDUAL_API = { rollOffs: rollPendingRollOffs, groupCombatants };
