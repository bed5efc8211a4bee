/**
 * End combat (issue 14 item 8): the structured footer offers the GM "End combat", as core's does,
 * with core's confirmation (`Combat#endCombat` asks through DialogV2, then deletes the encounter);
 * players never see it. At the end the module's state goes: what lived in the encounter (flags,
 * history snapshots, side groups, requests) with the document, the flat-footed statuses it put on
 * actors by the mode.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { ACTOR, ALICE, apiOn, combatOn, encounter, expectNoErrors, idOf, rollAs, start, world } from "./world.js";

const FLAT_FOOTED = "structured-initiative-flat-footed";

interface Control {
  action: string;
  label: string;
}
type Tracker = { _prepareContext(o: object): Promise<{ structuredInitiative?: { turnControls: Control[] } | null }> };

async function turnActions(client: SimClient): Promise<string[]> {
  const ctx = (await (client.ui.combat as Tracker)._prepareContext({})).structuredInitiative;
  return (ctx?.turnControls ?? []).map((c) => c.action);
}

function dialogs(client: SimClient): { answer: boolean; asked: string[] } {
  return client.api.foundry.applications.api.DialogV2;
}

/** Whether the server's copy of an actor holds the flat-footed status. */
function flatFooted(sim: Sim, key: keyof typeof ACTOR): boolean {
  const effects = (sim.server.world.actors.find((a) => a._id === ACTOR[key])?.effects ?? []) as Array<{
    statuses: string[];
  }>;
  return effects.some((e) => e.statuses.includes(FLAT_FOOTED));
}

describe("End combat", () => {
  it("the GM's footer offers it once the encounter started; a player's never does", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    expect(await turnActions(sim.gm)).not.toContain("siEndCombat");
    await rollAs(sim, { aria: 10, brom: 15, officer: 12 });
    await start(sim);
    expect(await turnActions(sim.gm)).toContain("siEndCombat");
    for (const player of sim.players) expect(await turnActions(player), player.userId).not.toContain("siEndCombat");
  });

  it("asks as core does: No keeps the encounter; Yes ends it on every client and takes the flat-footed statuses off", async () => {
    const sim = await world();
    await sim.gm.game.settings.set("structured-initiative", "flatFootedStatus", true);
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 10, brom: 15, officer: 12 });
    await apiOn(sim.gm).command(combatOn(sim.gm), { type: "setAware", combatantId: idOf(sim.gm, "aria"), aware: true });
    await start(sim, true);
    expect([flatFooted(sim, "aria"), flatFooted(sim, "brom"), flatFooted(sim, "officer")]).toEqual([true, true, true]);
    const asked = dialogs(sim.gm);
    asked.answer = false;
    await sim.gm.runAction("siEndCombat");
    await sim.settle();
    expect(asked.asked).toHaveLength(1);
    expect(sim.server.world.combats).toHaveLength(1);
    asked.answer = true;
    await sim.gm.runAction("siEndCombat");
    await sim.settle();
    await sim.settle();
    expect(asked.asked).toHaveLength(2);
    expect(sim.server.world.combats).toEqual([]);
    for (const client of sim.clients) expect(client.game.combats.size, client.userId).toBe(0);
    expect([flatFooted(sim, "aria"), flatFooted(sim, "brom"), flatFooted(sim, "officer")]).toEqual([
      false,
      false,
      false,
    ]);
    expectNoErrors(sim);
  });

  it("a player's action refuses to end the encounter", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"]);
    await rollAs(sim, { aria: 10, brom: 15 });
    await start(sim);
    const alice = sim.client(ALICE);
    await alice.runAction("siEndCombat");
    await sim.settle();
    expect(dialogs(alice).asked).toEqual([]);
    expect(sim.server.world.combats).toHaveLength(1);
  });
});
