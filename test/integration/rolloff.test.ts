/**
 * RULES.md §2: combatants still tied after initiative and modifier roll off — "roll an additional
 * Initiative check" — and the tracker's roll-off button and the API roll the same check.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../sim/utils.js";
import { SETTINGS, apiOn, combatOn, encounter, expectNoErrors, idOf, rollAs, world } from "./world.js";

function formulas(messages: readonly JsonObject[]): string[] {
  return messages.map((m) => {
    const roll = (m.rolls as unknown[])[0];
    return ((typeof roll === "string" ? JSON.parse(roll) : roll) as { formula: string }).formula;
  });
}

describe("roll-offs roll the configured initiative check", () => {
  it.each(["tracker button", "api"])("via the %s: die + modifier, not a fixed d20", async (via) => {
    const sim = await world({ settings: { ...SETTINGS, "structured-initiative.initiativeFormula": "1d12" } });
    await encounter(sim, ["trooper1", "trooper3"]);
    await rollAs(sim, { trooper1: 7, trooper3: 7 }); // both 7 + 0: tied on total and modifier
    const before = sim.server.world.messages.length;
    sim.dice.push(9, 4);
    if (via === "api") await apiOn(sim.gm).rollOffs(combatOn(sim.gm));
    else await sim.gm.runAction("siRollOff", { combatantId: idOf(sim.gm, "trooper1") });
    await sim.settle();
    expect(formulas(sim.server.world.messages.slice(before))).toEqual(["1d12 + 0", "1d12 + 0"]);
    expect(combatOn(sim.gm).turns.map((c) => c.name)).toEqual(["Trooper 1", "Trooper 3"]);
    expectNoErrors(sim);
  });
});
