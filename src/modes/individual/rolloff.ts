/**
 * Roll-offs of the `individual` mode: combatants still tied after initiative and modifier roll an
 * additional check between exactly themselves; the results are kept for the whole battle.
 */
import { I18N } from "../../constants";
import { pendingRollOffs } from "./rules/derived";
import type { IndividualState } from "./rules/types";
import { submit } from "../../foundry/authority/controller";
import { rollCheck } from "./initiative";
import { individualState } from "./encounter";
import { notifyRefusal } from "../../foundry/notify";
import type { CommandResult } from "../../core/protocol";

/**
 * Roll one tied set's roll-off: each tied combatant (a group by its first member) rolls the
 * initiative die plus its modifier again, posted to chat, and the results are recorded.
 */
export async function rollOffSet(
  combat: Combat.Implementation,
  state: IndividualState,
  set: readonly string[],
): Promise<CommandResult> {
  const rolled: { combatantId: string; total: number }[] = [];
  const rolls: string[] = [];
  // The purpose of each roll names its combatant (the roll-off's results, in order).
  const probe = { type: "recordRollOff", results: set.map((combatantId) => ({ combatantId, total: 0 })) };
  for (const [part, id] of set.entries()) {
    const entry = state.combatants.find((c) => c.id === id);
    const speaker = combat.combatants.get(id);
    if (speaker === undefined) {
      notifyRefusal(combat, "unknownCombatant");
      return { ok: false, code: "unknownCombatant" };
    }
    const flavor = game.i18n.format(`${I18N}.Chat.RollOff`, { name: speaker.name ?? "" });
    const check = await rollCheck(combat, speaker, entry?.modifier ?? 0, flavor, undefined, probe, part);
    if (check === null) return { ok: false, code: "invalidFormula" };
    rolled.push({ combatantId: id, total: check.total });
    rolls.push(check.messageId);
  }
  return submit(combat, { type: "recordRollOff", results: rolled, rolls });
}

/** Roll every pending roll-off (GM), again while a roll-off ties again. */
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
      const result = await rollOffSet(combat, state, set);
      results.push(result);
      if (!result.ok) return results;
    }
  }
  return results;
}
