/**
 * A row shows a combatant defeated exactly while Foundry holds it defeated (`Combatant#isDefeated`:
 * the combatant's `defeated` field or its actor's defeated status), in the tracker each user sees,
 * with no render of the test's own (issue 26: the render oracle saw a revived combatant's row stay
 * defeated: reviving clears the field, which renders, then the actor's status, an effect of the
 * actor, after which nothing rendered).
 */
import { describe, expect, it } from "vitest";
import { installDom } from "../sim/systems/index.js";
import type { Sim, SimClient } from "../sim/index.js";
import { apiOn, combatOn, encounter, idOf, rollAs, start, world } from "./world.js";
import { cid, sidesEncounter, sidesWorld } from "./sides-world.js";

/** The sim's `CONFIG.specialStatusEffects.DEFEATED`. */
const DEAD = "dead";

interface Tracker {
  render(options?: object): Promise<unknown>;
  element: unknown;
}

/** Every client shows its tracker in its document, as the sidebar does. */
async function showTrackers(sim: Sim): Promise<void> {
  for (const client of sim.clients) {
    const tracker = client.ui.combat as Tracker;
    await tracker.render({ force: true });
    const element = tracker.element as Element;
    if (!element.isConnected) element.ownerDocument.body.append(element);
  }
  await sim.settle();
}

/** Whether the row of a combatant, as the client's live tracker shows it now, is marked defeated. */
function shownDefeated(client: SimClient, id: string): boolean {
  const root = (client.ui.combat as Tracker).element as Element;
  const row = root.querySelector(`li.si-row[data-combatant-id="${id}"]`);
  if (row === null) throw new Error(`no row ${id} on ${client.userId}`);
  return row.classList.contains("si-row--defeated");
}

function expectShown(sim: Sim, id: string, defeated: boolean): void {
  for (const client of sim.clients) {
    expect(client.game.combats.contents[0]?.combatants.get(id)?.isDefeated, client.userId).toBe(defeated);
    expect(shownDefeated(client, id), client.userId).toBe(defeated);
  }
}

describe("a row shows a combatant defeated exactly while Foundry holds it defeated", () => {
  it("individual: setDefeated marks the row on every client, and reviving it clears the mark (the status goes last)", async () => {
    const sim = await world({ renderTemplates: true, systemSetup: installDom });
    await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 });
    await start(sim);
    await showTrackers(sim);
    const officer = idOf(sim.gm, "officer");
    for (const defeated of [true, false]) {
      const result = await apiOn(sim.gm).command(combatOn(sim.gm), {
        type: "setDefeated",
        combatantId: officer,
        defeated,
      });
      expect(result.ok).toBe(true);
      await sim.settle();
      expectShown(sim, officer, defeated);
    }
  }, 60_000);

  it("sides (no defeated flag in its rules): the actor's defeated status set and cleared from the token HUD shows on every client", async () => {
    const sim = await sidesWorld({ renderTemplates: true, systemSetup: installDom });
    await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
    await showTrackers(sim);
    const trooper = cid(sim.gm, "trooper1");
    const actor = combatOn(sim.gm).combatants.get(trooper)?.actor;
    for (const active of [true, false]) {
      await actor?.toggleStatusEffect(DEAD, { active, overlay: true });
      await sim.settle();
      expectShown(sim, trooper, active);
    }
  }, 60_000);
});
