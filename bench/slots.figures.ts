/**
 * `slots` mode: document writes and bytes per claim, release, fill and turn on the simulated Foundry
 * at 5, 20 and 100 combatants (`npm run bench`). Target: one document write per claim applied by the
 * GM (a player's claim adds the one request write on a combatant the player owns). Prints a table
 * and JSON; asserts nothing about speed.
 */
import { it } from "vitest";
import {
  ALICE,
  BOB,
  GM,
  actorId,
  benchEncounter,
  benchWorld,
  measure,
  report,
  sizes,
  type Cost,
  withByteTargets,
  type ByteTargets,
} from "./shared.js";
import { createSim, type Sim, type SimCombat } from "../test/sim/index.js";

interface Row extends Cost {
  operation: string;
  combatants: number;
}

interface ApiLike {
  command(combat: SimCombat, command: unknown): Promise<{ ok: boolean; code?: string }>;
}
const apiOf = (sim: Sim, userId: string): ApiLike =>
  sim.client(userId).game.modules.get("structured-initiative")?.api as ApiLike;
const combatOf = (sim: Sim, userId: string): SimCombat => sim.client(userId).game.combats.contents[0] as SimCombat;

async function scenario(n: number): Promise<Row[]> {
  const sim = await createSim({
    // Two PCs (Alice's Aria, Bob's Brom) and n − 2 NPCs.
    ...benchWorld(n, [ALICE, BOB], () => ({})),
    settings: { "structured-initiative.defaultMode": "slots", "structured-initiative.historyLimit": 1000 },
  });
  const combat = await benchEncounter(sim, n);
  const ids = combat.combatants.contents.map((c) => c.id ?? "");
  const idOfActor = (i: number): string => combat.combatants.find((c) => c.actorId === actorId(i))?.id ?? "";
  // The PCs roll lowest, so their slots come last and stay to be claimed.
  for (const id of ids) {
    const pc = id === idOfActor(0) || id === idOfActor(1);
    sim.dice.push(pc ? 1 : 2 + (id.charCodeAt(id.length - 1) % 5), pc ? 1 : 3);
  }
  await combat.rollInitiative(ids);
  await sim.settle();
  const rows: Row[] = [];
  const push = (operation: string, m: Omit<Row, "operation" | "combatants">) =>
    rows.push({ operation, combatants: n, ...m });
  push("start", await measure(sim, () => combat.startCombat()));
  const slots = (): { kind: string; claimedBy: string | null }[] => {
    const stored = combat.getFlag("structured-initiative", "encounter") as { state: { slots: unknown } };
    const list = stored.state.slots;
    return (Array.isArray(list) ? list : Object.values(list as object)) as { kind: string; claimedBy: null }[];
  };
  const pcSlots = slots().flatMap((s, i) => (s.kind === "pc" ? [i] : []));
  const [first = 0, second = 0] = pcSlots;
  const aria = idOfActor(0);
  const brom = idOfActor(1);
  push(
    "claim (GM for a PC)",
    await measure(sim, () => apiOf(sim, GM).command(combat, { type: "claimSlot", slot: second, combatantId: aria })),
  );
  push(
    "release (GM)",
    await measure(sim, () => apiOf(sim, GM).command(combat, { type: "releaseClaim", slot: second })),
  );
  push(
    "claim (player request)",
    await measure(sim, () =>
      apiOf(sim, ALICE).command(combatOf(sim, ALICE), { type: "claimSlot", slot: second, combatantId: aria }),
    ),
  );
  push(
    "claim refused: slot claimed (player)",
    await measure(
      sim,
      () => apiOf(sim, BOB).command(combatOf(sim, BOB), { type: "claimSlot", slot: second, combatantId: brom }),
      "slotClaimed",
    ),
  );
  push(
    "release (player request)",
    await measure(sim, () => apiOf(sim, ALICE).command(combatOf(sim, ALICE), { type: "releaseClaim", slot: second })),
  );
  push(
    "claim another slot (player request)",
    await measure(sim, () =>
      apiOf(sim, BOB).command(combatOf(sim, BOB), { type: "claimSlot", slot: first, combatantId: brom }),
    ),
  );
  const npc = idOfActor(2);
  push(
    "fill NPC slot (GM)",
    await measure(sim, () => apiOf(sim, GM).command(combat, { type: "fillSlot", slot: 0, combatantId: npc })),
  );
  push("next turn (GM)", await measure(sim, () => combat.nextTurn()));
  push("previous turn (GM)", await measure(sim, () => combat.previousTurn()));
  push("next round (GM)", await measure(sim, () => combat.nextRound()));
  return rows;
}

it("prints document writes and bytes per slots operation", async () => {
  const rows: Row[] = [];
  for (const n of sizes()) rows.push(...(await scenario(n)));
  report<Row & ByteTargets>(
    "slots: document writes per operation (writes: Combat/Combatant)",
    "bench-slots.json",
    ["operation", "combatants", "writes", "otherWrites", "bytesSent", "bytesBroadcast", "≤ 1 KB at 100", "flat 20→100"],
    withByteTargets(rows),
  );
});
