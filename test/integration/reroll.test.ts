/**
 * Re-rolls (issue 15 item 4): after rolling, a player's Roll (`individual`) or Re-roll (`slots`)
 * button goes; players roll once, as in core. A second roll is refused before any die is rolled or
 * anything posted. Only the GM rolls again, and the earlier roll stays in chat.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import {
  ALICE,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  serverCombatJson,
  world,
} from "./world.js";
import { slotsEncounter } from "./slots-world.js";

interface TrackerApp {
  _prepareContext(options: object): Promise<{
    structuredInitiative?: {
      rows: {
        name: string;
        controls: { action: string }[];
        /** individual lays out its own line and row menu (issue 29). */
        mode: { controls?: { action: string }[]; menu?: { action: string }[] } | null;
      }[];
    } | null;
  }>;
}

async function ariaControls(client: SimClient): Promise<string[]> {
  const ctx = (await (client.ui.combat as TrackerApp)._prepareContext({})).structuredInitiative;
  const row = ctx?.rows.find((r) => r.name === "Aria");
  return [...(row?.controls ?? []), ...(row?.mode?.controls ?? []), ...(row?.mode?.menu ?? [])].map((c) => c.action);
}

function ariaMessages(sim: Sim): number {
  return sim.server.world.messages.filter((m) => (m.speaker as { alias?: string }).alias === "Aria").length;
}

describe.each([
  { mode: "individual", dice: [[12], [4], [18]] },
  {
    mode: "slots",
    dice: [
      [2, 1],
      [0, 0],
      [5, 3],
    ],
  },
])("$mode: players roll once; only the GM rolls again", ({ mode, dice }) => {
  async function prepare(): Promise<Sim> {
    const sim = await world();
    if (mode === "slots") await slotsEncounter(sim, ["aria", "officer"]);
    else await encounter(sim, ["aria", "officer"]);
    return sim;
  }

  it("the player's first roll is taken and its button goes; a second is refused with nothing rolled or posted", async () => {
    const sim = await prepare();
    const alice = sim.client(ALICE);
    expect(await ariaControls(alice)).toContain("siRoll");
    sim.dice.push(...(dice[0] ?? []));
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    expect(await ariaControls(alice)).not.toContain("siRoll");
    expect(await ariaControls(sim.gm)).toContain("siRoll");
    const before = serverCombatJson(sim);
    const chat = sim.server.world.messages.length;
    sim.dice.push(...(dice[1] ?? []));
    const pending = sim.dice.pending;
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([
      { ok: false, code: "rerollGMOnly" },
    ]);
    await sim.settle();
    expect(serverCombatJson(sim)).toBe(before);
    expect(sim.server.world.messages).toHaveLength(chat);
    expect(sim.dice.pending).toBe(pending);
    expect(messagesOn(alice)).toEqual([refusalText("rerollGMOnly", "Aria")]);
    expectNoErrors(sim);
  });

  it("the GM re-rolls it: the new result counts, the earlier roll is still in chat", async () => {
    const sim = await prepare();
    const alice = sim.client(ALICE);
    sim.dice.push(...(dice[0] ?? []));
    await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")]);
    await sim.settle();
    const first = ariaMessages(sim);
    expect(first).toBeGreaterThan(0);
    const before = serverCombatJson(sim);
    sim.dice.push(...(dice[2] ?? []));
    expect(await apiOn(sim.gm).rollInitiative(combatOn(sim.gm), [idOf(sim.gm, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    expect(serverCombatJson(sim)).not.toBe(before);
    expect(ariaMessages(sim)).toBe(2 * first);
    expect(messagesOn(sim.gm)).toEqual([]);
    expectNoErrors(sim);
  });
});
