import { describe, expect, it } from "vitest";
import { ALICE, apiOn, combatOn, encounter, expectAgreement, idOf, turnsOn, world } from "./world.js";

describe("individual mode in the simulated Foundry", () => {
  it("GM rolls and starts; players see the same order; the owner ends its own turn", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    const gmCombat = combatOn(sim.gm);
    expect(apiOn(sim.gm).modeOf(gmCombat)).toBe("individual");
    sim.dice.push(10, 15, 12); // d20 faces for Aria (+3), Brom (+1), Officer (+2)
    await gmCombat.rollInitiative([idOf(sim.gm, "aria"), idOf(sim.gm, "brom"), idOf(sim.gm, "officer")]);
    await sim.settle();
    await gmCombat.startCombat();
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Officer", "Aria"], current: "Brom", round: 1 });
    expectAgreement(sim);
    const bob = sim.players[1];
    if (!bob) throw new Error("no bob");
    await combatOn(bob).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expectAgreement(sim);
    // Alice may not end the Officer's turn.
    const alice = sim.client(ALICE);
    await combatOn(alice).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expect(alice.notifications.at(-1)?.message).toBe("You can only act for combatants you own.");
    for (const c of sim.clients) expect(c.errors).toEqual([]);
  });
});
