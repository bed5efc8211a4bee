/**
 * `slots` races (issue 6 item 5): two players claiming the same slot at the same moment → exactly
 * one wins and the other is told who did; many randomised concurrent interleavings of claims,
 * releases, assignments and turn changes from the GM and two players keep the invariants (no
 * combatant twice in a round, no slot filled twice, PC slots hold PCs) and every client agrees.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { ticks } from "../sim/utils.js";
import { ALICE, BOB, apiOn, combatOn, expectNoErrors, idOf, messagesOn, refusalText, world } from "./world.js";
import { expectSlotsInvariants, rollChecks, slotsEncounter, slotsOn } from "./slots-world.js";

/** PC 5/1 (slot 0), NPC 4/4, PC 3/2 (slot 2), NPC 3/2, NPC 2/0; started, slot 0 current and open. */
async function battle(): Promise<Sim> {
  const sim = await world();
  await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1", "trooper2"]);
  await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2], trooper2: [2, 0] });
  await combatOn(sim.gm).startCombat();
  await sim.settle();
  return sim;
}

const claim = (client: SimClient, slot: number, key: "aria" | "brom") =>
  apiOn(client).command(combatOn(client), { type: "claimSlot", slot, combatantId: idOf(client, key) });

describe("two players claim the same slot at the same moment", () => {
  it.each([
    ["Alice first", true],
    ["Bob first", false],
  ])("exactly one wins, the other is told who holds it (%s)", async (_label, aliceFirst) => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    const [a, b] = aliceFirst
      ? await Promise.all([claim(alice, 2, "aria"), claim(bob, 2, "brom")])
      : (await Promise.all([claim(bob, 2, "brom"), claim(alice, 2, "aria")])).reverse();
    await sim.settle();
    expect([a?.ok, b?.ok].filter(Boolean)).toHaveLength(1);
    const holder = slotsOn(sim.gm).slots[2]?.claimedBy;
    const [winner, loser, loserName] = a?.ok ? ["Aria", bob, "Aria"] : ["Brom", alice, "Brom"];
    expect(slotsOn(sim.gm).combatants.find((c) => c.id === holder)?.name).toBe(winner);
    expect(messagesOn(loser)).toEqual([refusalText("slotClaimed", loserName)]);
    expect(messagesOn(loser === bob ? alice : bob)).toEqual([]);
    expectSlotsInvariants(sim);
    expectNoErrors(sim);
  });

  it("claiming the current open slot at once: one fills it, the other is told who", async () => {
    const sim = await battle();
    const [a, b] = await Promise.all([claim(sim.client(ALICE), 0, "aria"), claim(sim.client(BOB), 0, "brom")]);
    await sim.settle();
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const loser = a.ok ? sim.client(BOB) : sim.client(ALICE);
    expect(messagesOn(loser)).toEqual([refusalText("slotTaken", a.ok ? "Aria" : "Brom")]);
    expectSlotsInvariants(sim);
  });
});

/** A small seeded generator (mulberry32), so a failing interleaving can be replayed. */
function generator(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

type Action = (sim: Sim) => Promise<unknown>;

function randomAction(random: () => number): { label: string; run: Action } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const slot = Math.floor(random() * 5);
  const send = (userId: string | null, command: (client: SimClient) => Record<string, unknown>): Action => {
    return (sim) => {
      const client = userId === null ? sim.gm : sim.client(userId);
      return apiOn(client).command(combatOn(client), command(client));
    };
  };
  const npc = pick(["officer", "trooper1", "trooper2"] as const);
  const pc = pick(["aria", "brom"] as const);
  const options: { label: string; run: Action }[] = [
    {
      label: `alice claims ${slot} for aria`,
      run: send(ALICE, (c) => ({ type: "claimSlot", slot, combatantId: idOf(c, "aria") })),
    },
    {
      label: `bob claims ${slot} for brom`,
      run: send(BOB, (c) => ({ type: "claimSlot", slot, combatantId: idOf(c, "brom") })),
    },
    { label: `alice releases ${slot}`, run: send(ALICE, () => ({ type: "releaseClaim", slot })) },
    { label: `bob releases ${slot}`, run: send(BOB, () => ({ type: "releaseClaim", slot })) },
    {
      label: `gm assigns ${slot} to ${pc}`,
      run: send(null, (c) => ({ type: "claimSlot", slot, combatantId: idOf(c, pc) })),
    },
    {
      label: `gm fills ${slot} with ${npc}`,
      run: send(null, (c) => ({ type: "fillSlot", slot, combatantId: idOf(c, npc) })),
    },
    {
      label: `gm fills ${slot} with ${pc}`,
      run: send(null, (c) => ({ type: "fillSlot", slot, combatantId: idOf(c, pc) })),
    },
    { label: "gm next turn", run: (sim) => combatOn(sim.gm).nextTurn() },
    { label: "alice next turn", run: (sim) => combatOn(sim.client(ALICE)).nextTurn() },
    { label: "bob next turn", run: (sim) => combatOn(sim.client(BOB)).nextTurn() },
    { label: "gm previous turn", run: (sim) => combatOn(sim.gm).previousTurn() },
  ];
  return pick(options);
}

describe("randomised concurrent interleavings keep the invariants", () => {
  const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);
  it.each(SEEDS)("seed %i: 8 batches of 2–4 concurrent actions", async (seed) => {
    const random = generator(seed);
    const sim = await battle();
    const log: string[] = [];
    for (let batch = 0; batch < 8; batch++) {
      const size = 2 + Math.floor(random() * 3);
      const running: Promise<unknown>[] = [];
      for (let i = 0; i < size; i++) {
        const action = randomAction(random);
        log.push(`${batch}: ${action.label}`);
        running.push(action.run(sim));
        await ticks(Math.floor(random() * 3));
      }
      await Promise.all(running);
      await sim.settle();
      try {
        expectSlotsInvariants(sim);
      } catch (error) {
        throw new Error(`seed ${seed}, after:\n${log.join("\n")}\n${String(error)}`, { cause: error });
      }
    }
    for (const client of sim.clients)
      for (const text of messagesOn(client)) expect(text).not.toMatch(/STRUCTURED_INITIATIVE|\{name\}|not 's turn/u);
    expectNoErrors(sim);
  });
});
