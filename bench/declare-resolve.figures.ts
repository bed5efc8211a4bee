/**
 * `declare-resolve` mode: document writes and bytes per IP roll, declaration, resolved action and
 * upkeep on the simulated Foundry at 5, 20 and 100 combatants (`npm run bench`). Target: one Combat
 * write per step applied by the GM (a player's declaration adds the one request write on a combatant
 * the player owns; the upkeep's hits are actor writes, counted as other writes with its chat card).
 * Prints a table and JSON; asserts nothing about speed.
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
  declareResolve: {
    declare(combat: SimCombat, combatantId: string, actions: unknown[]): Promise<{ ok: boolean; code?: string }>;
  };
}
const apiOf = (sim: Sim, userId: string): ApiLike =>
  sim.client(userId).game.modules.get("structured-initiative")?.api as ApiLike;
const combatOf = (sim: Sim, userId: string): SimCombat => sim.client(userId).game.combats.contents[0] as SimCombat;

interface StoredState {
  round: number;
  phase: string;
}
function stateOf(combat: SimCombat): StoredState {
  return (combat.getFlag("structured-initiative", "encounter") as { state: StoredState }).state;
}

async function scenario(n: number): Promise<Row[]> {
  const sim = await createSim({
    // Two PCs (Alice's Aria, Bob's Brom) and n − 2 NPCs, each with its own Speed bonus (no ties:
    // every die shows 1), so the PCs are slowest and declare first.
    ...benchWorld(n, [ALICE, BOB], (i) => ({ speedBonus: i, wisdomBonus: 0, hits: 20 })),
    settings: {
      "structured-initiative.defaultMode": "declare-resolve",
      "structured-initiative.historyLimit": 1000,
      "structured-initiative.drHitsPath": "system.hits",
    },
  });
  const combat = await benchEncounter(sim, n);
  const idOfActor = (i: number): string => combat.combatants.find((c) => c.actorId === actorId(i))?.id ?? "";
  const aria = idOfActor(0);
  const brom = idOfActor(1);
  const rows: Row[] = [];
  const push = (operation: string, m: Omit<Row, "operation" | "combatants">) =>
    rows.push({ operation, combatants: n, ...m });
  const ids = combat.combatants.contents.map((c) => c.id ?? "");
  sim.dice.push(1, 1);
  push("IP roll (GM, one combatant)", await measure(sim, () => combat.rollInitiative([aria])));
  const rest = ids.filter((id) => id !== aria);
  sim.dice.push(...rest.flatMap(() => [1, 1]));
  await combat.rollInitiative(rest);
  await sim.settle();
  await apiOf(sim, GM).command(combat, {
    type: "setConditions",
    combatantId: brom,
    bleeding: 2,
    dazed: 1,
    stunned: 0,
  });
  await sim.settle();
  push("start (GM)", await measure(sim, () => combat.startCombat()));
  push(
    "declaration refused: over budget (player)",
    await measure(
      sim,
      () =>
        apiOf(sim, ALICE).declareResolve.declare(combatOf(sim, ALICE), aria, [
          { catalogue: "Dodge" },
          { catalogue: "Melee Attack" },
        ]),
      "apOverBudget",
    ),
  );
  push(
    "declaration (player request)",
    await measure(sim, () =>
      apiOf(sim, ALICE).declareResolve.declare(combatOf(sim, ALICE), aria, [{ catalogue: "Power Attack" }]),
    ),
  );
  push(
    "declaration (GM for a PC)",
    await measure(sim, () => apiOf(sim, GM).declareResolve.declare(combat, brom, [{ catalogue: "Dodge" }])),
  );
  // The NPCs declare a Melee Attack each, the GM for them, slowest first.
  let first = true;
  while (stateOf(combat).phase === "declare") {
    const current = combat.combatant?.id ?? "";
    const run = () => apiOf(sim, GM).declareResolve.declare(combat, current, [{ catalogue: "Melee Attack" }]);
    if (first) push("declaration (GM for an NPC)", await measure(sim, run));
    else {
      await run();
      await sim.settle();
    }
    first = false;
  }
  push("resolved action (GM: next turn)", await measure(sim, () => combat.nextTurn()));
  push("previous turn (GM: un-resolve)", await measure(sim, () => combat.previousTurn()));
  while (stateOf(combat).phase === "resolve") {
    await combat.nextTurn();
    await sim.settle();
  }
  push(
    "upkeep with bleeding (GM confirms)",
    await measure(sim, () => apiOf(sim, GM).command(combat, { type: "upkeep" })),
  );
  push("previous turn (GM: undo the upkeep)", await measure(sim, () => combat.previousTurn()));
  return rows;
}

it("prints document writes and bytes per declare-resolve operation", async () => {
  const rows: Row[] = [];
  for (const n of sizes()) rows.push(...(await scenario(n)));
  report<Row & ByteTargets>(
    "declare-resolve: document writes per operation (writes: Combat/Combatant)",
    "bench-declare-resolve.json",
    ["operation", "combatants", "writes", "otherWrites", "bytesSent", "bytesBroadcast", "≤ 1 KB at 100", "flat 20→100"],
    withByteTargets(rows),
  );
});
