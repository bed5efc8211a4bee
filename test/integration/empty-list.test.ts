/**
 * A structured encounter with nobody in it says so in its list ("No combatants"), on its first
 * render and on the later ones that keep rows in place (`src/foundry/tracker/shown-rows.ts`), and
 * the line goes as soon as someone joins and comes back when the last one leaves.
 */
import { describe, expect, it } from "vitest";
import { installDom } from "../sim/systems/index.js";
import type { Sim, SimClient } from "../sim/index.js";
import { ticks } from "../sim/utils.js";
import { ACTOR, combatOn, encounter, SCENE, tokenOf, world } from "./world.js";

async function rendered(sim: Sim): Promise<void> {
  await sim.settle();
  await ticks(3);
}

/** What a client's structured list shows: its rows' ids, and whether it says it is empty. */
function listOf(client: SimClient): { rows: string[]; empty: boolean } {
  const list = (client.ui.combat as { element: HTMLElement | null }).element?.querySelector(".si-list");
  if (list === null || list === undefined) throw new Error(`no structured list on ${client.userId}`);
  const rows = Array.from(list.querySelectorAll<HTMLElement>(".si-row"), (row) => row.dataset.combatantId ?? "");
  return { rows, empty: list.querySelector(".si-empty") !== null };
}

describe("an empty structured encounter", () => {
  it("says it has no combatants until one joins, and again once the last one leaves", async () => {
    const sim = await world({ renderTemplates: true, systemSetup: installDom });
    await encounter(sim, [], "individual");
    for (const client of sim.clients)
      await (client.ui.combat as { render(o?: object): Promise<unknown> }).render({ force: true });
    await rendered(sim);
    for (const client of sim.clients) expect(listOf(client), client.userId).toEqual({ rows: [], empty: true });

    const [joined] = await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
      { actorId: ACTOR.aria, tokenId: tokenOf("aria"), sceneId: SCENE },
    ]);
    await rendered(sim);
    const id = (joined as { id?: string } | undefined)?.id ?? "";
    for (const client of sim.clients) expect(listOf(client), client.userId).toEqual({ rows: [id], empty: false });

    await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [id]);
    await rendered(sim);
    for (const client of sim.clients) expect(listOf(client), client.userId).toEqual({ rows: [], empty: true });
  }, 60_000);
});
