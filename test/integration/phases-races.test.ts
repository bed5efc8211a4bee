/**
 * `phases` races (issue 13 item 3): two players taking the turn at the same moment → exactly one
 * wins and the other is told who is acting; the GM and a player at once start one turn, never two;
 * every client agrees afterwards.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { ALICE, BOB, apiOn, combatOn, expectNoErrors, idOf, messagesOn, refusalText } from "./world.js";
import { declare, expectPhasesAgreement, phasesEncounter, phasesOn, phasesWorld, send } from "./phases-world.js";

async function heroesPhase(): Promise<Sim> {
  const sim = await phasesWorld();
  await phasesEncounter(sim, ["aria", "brom", "officer"]);
  await send(sim, sim.gm, { type: "start", surprise: false });
  await declare(sim, "officer", "Blaster at Brom", ["brom"]);
  await send(sim, sim.gm, { type: "nextPhase" });
  return sim;
}

const takeTurn = (client: SimClient, key: "aria" | "brom") =>
  apiOn(client).command(combatOn(client), { type: "startTurn", combatantId: idOf(client, key) });

describe("two players take the turn at the same moment", () => {
  it.each([
    ["Alice first", true],
    ["Bob first", false],
  ])("exactly one wins, the other is told who is acting (%s)", async (_label, aliceFirst) => {
    const sim = await heroesPhase();
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    const [a, b] = aliceFirst
      ? await Promise.all([takeTurn(alice, "aria"), takeTurn(bob, "brom")])
      : (await Promise.all([takeTurn(bob, "brom"), takeTurn(alice, "aria")])).reverse();
    await sim.settle();
    expect([a?.ok, b?.ok].filter(Boolean)).toHaveLength(1);
    const acting = phasesOn(sim.gm).turn?.combatantId;
    const [winner, loser, other] = a?.ok ? ["aria", bob, alice] : ["brom", alice, bob];
    expect(acting).toBe(idOf(sim.gm, winner as "aria" | "brom"));
    expect(messagesOn(loser)).toEqual([refusalText("heroActing", winner === "aria" ? "Aria" : "Brom")]);
    expect(messagesOn(other)).toEqual([]);
    // Only the winner's PC has acted; the loser's PC may take its turn once the winner's ends.
    expect(
      phasesOn(sim.gm)
        .combatants.filter((c) => c.acted)
        .map((c) => c.name),
    ).toEqual([winner === "aria" ? "Aria" : "Brom"]);
    expectPhasesAgreement(sim);
    expectNoErrors(sim);
  });

  it("the GM and a player at once: one turn runs, never two", async () => {
    const sim = await heroesPhase();
    const results = await Promise.all([
      takeTurn(sim.client(ALICE), "aria"),
      apiOn(sim.gm).command(combatOn(sim.gm), { type: "startTurn", combatantId: idOf(sim.gm, "brom") }),
    ]);
    await sim.settle();
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(phasesOn(sim.gm).combatants.filter((c) => c.acted)).toHaveLength(1);
    expectPhasesAgreement(sim);
  });
});
