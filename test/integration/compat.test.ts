/**
 * The module on both Foundry flavours of the simulated Foundry (v13 and v14 shapes, `test/sim/runtime.ts`
 * and its rooms in `test/sim/realm/`), whichever `SIM_GENERATION` the suite runs under: the calls that
 * differ go through `src/foundry/compat.ts` and no v14 deprecation is ever logged (test/sim/setup.ts
 * checks that after every test).
 */
import { describe, expect, it } from "vitest";
import type { SimGeneration } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { ALICE, BOB, GM, apiOn, combatOn, encounter, idOf, start, world } from "./world.js";

const flavours: SimGeneration[] = [13, 14];

describe.each(flavours)("Foundry v%i", (generation) => {
  const sim = () => world({ generation });
  const chat = (s: Awaited<ReturnType<typeof sim>>): JsonObject[] => s.server.world.messages;

  it("game.release names the generation the module reads", async () => {
    const s = await sim();
    for (const client of s.clients) expect(client.game.release.generation).toBe(generation);
  });

  it.each(["individual", "system"])(
    "hidden NPC rolls stay hidden (%s): whispered to the GMs, never shown to a player",
    async (mode) => {
      const s = await sim();
      await encounter(s, ["aria", "officer"], mode);
      await combatOn(s.gm).combatants.get(idOf(s.gm, "officer"))?.update({ hidden: true });
      await s.settle();
      s.dice.push(7);
      await combatOn(s.gm).rollInitiative([idOf(s.gm, "officer")]);
      await s.settle();
      const [message] = chat(s);
      expect(message).toMatchObject({ whisper: [GM], blind: false });
      for (const id of [ALICE, BOB]) expect(s.client(id).game.messages.contents.filter((m) => m.visible)).toEqual([]);
      expect(s.gm.game.messages.contents.filter((m) => m.visible)).toHaveLength(1);
    },
  );

  it("a visible NPC's roll follows the GM's own mode (public)", async () => {
    const s = await sim();
    await encounter(s, ["officer"]);
    s.dice.push(7);
    await combatOn(s.gm).rollInitiative([idOf(s.gm, "officer")]);
    await s.settle();
    expect(chat(s)[0]).toMatchObject({ whisper: [], blind: false });
  });

  it("combatTurn carries the generation's documented options when a structured turn ends", async () => {
    const s = await sim();
    await encounter(s, ["aria", "officer"]);
    s.dice.push(15, 5);
    await combatOn(s.gm).rollInitiative([idOf(s.gm, "aria"), idOf(s.gm, "officer")]);
    await s.settle();
    await start(s);
    const seen: unknown[] = [];
    s.gm.Hooks.on("combatTurn", (_combat: unknown, _data: unknown, options: unknown) => seen.push(options));
    await combatOn(s.gm).nextTurn();
    await s.settle();
    // v13: https://foundryvtt.com/api/v13/functions/hookEvents.combatTurn.html (and core's worldTime, foundryvtt#10924);
    // v14: https://foundryvtt.com/api/v14/functions/hookEvents.combatRound.html.
    expect(seen).toEqual([
      generation === 14
        ? { direction: 1, worldTime: { delta: 0 } }
        : { advanceTime: 0, direction: 1, worldTime: { delta: 0 } },
    ]);
  });

  it("a reset deletes the old structure the generation's way and keeps everyone", async () => {
    const s = await sim();
    await encounter(s, ["aria", "officer"]);
    const sent: unknown[] = [];
    s.gm.Hooks.on("preUpdateCombat", (_combat: unknown, changes: unknown) =>
      sent.push(JSON.parse(JSON.stringify(changes))),
    );
    const result = await apiOn(s.gm).resetEncounter(combatOn(s.gm));
    await s.settle();
    expect(result.ok).toBe(true);
    const text = JSON.stringify(sent);
    if (generation === 14) {
      expect(text).not.toContain('"-=');
      expect(text).toContain("ForcedDeletion");
    } else expect(text).toContain('"-=encounter":null');
    expect(combatOn(s.gm).combatants.size).toBe(2);
    expect(apiOn(s.gm).view(combatOn(s.gm))?.order).toHaveLength(2);
  });
});
