/** What the `slots` mode adds to the module API, and the GM's choice of a check's skill. */
import { MODULE_ID } from "../../constants";
import { SLOTS_SKILL_FLAG } from "./constants";
import { shownRefusal } from "../../foundry/notify";
import type { CommandResult } from "../../core/protocol";
import { isSkill } from "./initiative";
import { slotsState } from "./encounter";

/**
 * Choose the skill of a combatant's check (GM, before the start). One combatant write; the check is
 * then rolled (or re-rolled) with it.
 */
export async function setSlotsSkill(
  combat: Combat.Implementation,
  combatantId: string,
  skill: string,
): Promise<CommandResult> {
  if (!game.user.isGM) return shownRefusal(combat, { ok: false, code: "notGM" });
  const state = slotsState(combat);
  const combatant = combat.combatants.get(combatantId);
  if (state === null) return shownRefusal(combat, { ok: false, code: "corrupted" });
  if (combatant === undefined) return shownRefusal(combat, { ok: false, code: "unknownCombatant" });
  if (!isSkill(skill)) return shownRefusal(combat, { ok: false, code: "invalidValue", combatantId });
  if (state.started) return shownRefusal(combat, { ok: false, code: "alreadyStarted", combatantId });
  await combatant.setFlag(MODULE_ID, SLOTS_SKILL_FLAG, skill);
  return { ok: true };
}

/** What the mode adds to the API (`api.setSlotsSkill`). */
export const SLOTS_API = { setSlotsSkill };
