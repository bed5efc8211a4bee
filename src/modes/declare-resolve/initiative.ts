/**
 * The `declare-resolve` initiative (ModeInitiative and the rolled-results checks): IP rolled once per
 * combat with Foundry's `Roll` from the configured formula, posted to chat with the roll mode and
 * recorded through the rules.
 */
import { I18N } from "../../constants";
import type { CommandResult } from "../../core/protocol";
import { submit } from "../../foundry/authority/controller";
import { askedRollMode, rolledWith, totalOf } from "../../foundry/chat";
import { rollFor } from "../../foundry/roll-for";
import type { ModeInitiative, RollCheck } from "../contract";
import { initiativeRolling, resolveFormula, rollEach } from "../../foundry/rolls";
import { ipFormulas } from "./settings";
import { drState } from "./encounter";
import { shownRefusal } from "../../foundry/notify";

/** The tie-breaking modifier of an actor (a formula without dice), or null when it cannot be read. */
async function modifierOf(formula: string, data: Record<string, unknown>): Promise<number | null> {
  const resolved = resolveFormula(formula, data);
  if (resolved === null) return null;
  const roll = new Roll(resolved);
  if (roll.dice.length > 0) return null;
  await roll.evaluate();
  return totalOf(roll);
}

/**
 * Roll the IP of these combatants from the configured formula, post each roll to chat honouring the
 * roll mode, and record it with its tie-breaking modifier. A roll the rules would refuse, a missing
 * actor or a malformed formula rolls nothing and says why.
 */
export async function rollIP(
  combat: Combat.Implementation,
  ids: readonly string[],
  options?: Combat.InitiativeOptions,
): Promise<CommandResult[]> {
  if (drState(combat) === null) return [shownRefusal(combat, { ok: false, code: "corrupted" })];
  const rollMode = askedRollMode(options);
  const formulas = ipFormulas();
  const probeOf = (combatant: Combatant.Implementation) => ({
    type: "recordIP",
    combatantId: combatant.id ?? "",
    total: 0,
    modifier: 0,
  });
  return rollEach(combat, ids, probeOf, async (combatant, actor) => {
    const probe = probeOf(combatant);
    const data = actor.getRollData();
    const formula = resolveFormula(formulas.roll, data);
    const modifier = await modifierOf(formulas.modifier, data);
    const bad = () => shownRefusal(combat, { ok: false, code: "invalidFormula", combatantId: probe.combatantId });
    // Nothing is rolled unless both formulas can be read.
    if (formula === null || modifier === null) return bad();
    const flavor = game.i18n.format(`${I18N}.Chat.DeclareResolveIP`, { name: combatant.name ?? "" });
    const posted = await rollFor(combat, probe, 0, new Roll(formula), combatant, flavor, rollMode);
    if (posted === null) return { ok: false, code: "malformedCommand", combatantId: probe.combatantId };
    const total = totalOf(posted.roll);
    if (total === null) return bad();
    const message = posted.messageId;
    return submit(combat, { ...probe, total, modifier, ...(message === null ? {} : { rolls: [message] }) });
  });
}

/**
 * The check of a player's IP (`rolledResults`): its one chat roll is the configured formula for that
 * actor, with the command's total, and the modifier is the configured modifier's.
 */
export const DECLARE_RESOLVE_ROLL_CHECKS: Readonly<Record<string, RollCheck>> = {
  async recordIP(combat, command, rolls) {
    const { combatantId, total, modifier } = command as { combatantId?: unknown; total?: unknown; modifier?: unknown };
    const actor = typeof combatantId === "string" ? combat.combatants.get(combatantId)?.actor : undefined;
    const [roll] = rolls;
    if (actor === undefined || actor === null || roll === undefined || rolls.length !== 1) return false;
    const data = actor.getRollData();
    const formulas = ipFormulas();
    const formula = resolveFormula(formulas.roll, data);
    const expected = await modifierOf(formulas.modifier, data);
    return formula !== null && rolledWith(roll, formula) && totalOf(roll) === total && expected === modifier;
  },
};

/** How a `declare-resolve` encounter rolls: each combatant's IP, once per combat (roll all: those still without IP). */
export const DR_INITIATIVE: ModeInitiative = initiativeRolling(rollIP, (combat) =>
  (drState(combat)?.combatants ?? []).filter((c) => c.ip === null && !c.defeated).map((c) => c.id),
);
