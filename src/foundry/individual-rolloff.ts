/**
 * Roll-offs of the `individual` mode: combatants still tied after initiative and modifier roll an
 * additional check between exactly themselves; the results are kept for the whole battle.
 */
import { I18N } from "../constants";
import { pendingRollOffs } from "../rules/individual";
import { submit } from "./controller";
import { individualState } from "./individual";
import { notifyRefusal } from "./notify";
import type { CommandResult } from "./protocol";
import { initiativeFormulas } from "./settings";

/**
 * Roll every pending roll-off (GM): each tied combatant (a group by its first member) rolls the
 * initiative die plus its modifier again, posted to chat, and the results are recorded.
 */
export async function rollPendingRollOffs(combat: Combat.Implementation): Promise<CommandResult[]> {
  if (!game.user.isGM) {
    notifyRefusal(combat, "notGM");
    return [{ ok: false, code: "notGM" }];
  }
  const results: CommandResult[] = [];
  // A roll-off can tie again; each pass settles what is pending now. Bounded so a run of ties cannot loop forever.
  for (let pass = 0; pass < 100; pass += 1) {
    const state = individualState(combat);
    if (state === null) return [...results, { ok: false, code: "corrupted" }];
    const sets = pendingRollOffs(state);
    if (sets.length === 0) break;
    for (const set of sets) {
      const rolled: { combatantId: string; total: number }[] = [];
      for (const id of set) {
        const entry = state.combatants.find((c) => c.id === id);
        const speaker = combat.combatants.get(id);
        const roll = new Roll(`${initiativeFormulas().die} + ${entry?.modifier ?? 0}`);
        if (!Roll.validate(roll.formula)) {
          notifyRefusal(combat, "invalidFormula");
          return [...results, { ok: false, code: "invalidFormula" }];
        }
        await roll.evaluate();
        await roll.toMessage(
          {
            speaker: ChatMessage.getSpeaker({ actor: speaker?.actor ?? null, alias: speaker?.name ?? "" }),
            flavor: game.i18n.format(`${I18N}.Chat.RollOff`, { name: speaker?.name ?? "" }),
          },
          { rollMode: speaker?.hidden ? "gmroll" : game.settings.get("core", "rollMode") },
        );
        rolled.push({ combatantId: id, total: roll.total ?? 0 });
      }
      results.push(await submit(combat, { type: "recordRollOff", results: rolled }));
    }
  }
  return results;
}
