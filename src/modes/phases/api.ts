/** What the `phases` mode adds to the module API (`api.phases`). */

import { rollSkill, type SkillChoice, skillsOf } from "./skills";

/** What the mode adds to the API (`api.phases`). */
export const PHASES_API = {
  rollSkill,
  skillsOf: (combat: Combat.Implementation, combatantId: string): SkillChoice[] =>
    skillsOf(combat.combatants.get(combatantId)),
};
