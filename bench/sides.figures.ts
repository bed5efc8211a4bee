/**
 * `sides` document writes and bytes per operation on the simulated Foundry (`npm run bench`): a side
 * roll, a declaration (by the GM, and a player's request), a resolved action, a reaction and a
 * slow-down. Target: one document write per declaration and per resolved action (a player's request
 * adds the one write that carries it). Prints a table and JSON; asserts nothing about speed.
 */
import { it } from "vitest";
import {
  ALICE,
  GM,
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
import { decodeArrays, type Json } from "../src/core/patch.js";
import { declarationOrder, passOrder } from "../src/modes/sides/rules/derived.js";
import type { SidesState } from "../src/modes/sides/rules/types.js";

interface Row extends Cost {
  operation: string;
  combatants: number;
}

async function setup(n: number): Promise<{ sim: Sim; combat: SimCombat }> {
  const sim = await createSim({
    ...benchWorld(n, [ALICE], (i, pc) => ({
      dexterity: pc ? "3D+2" : `${2 + (i % 2)}D+${i % 3}`,
      perception: pc ? "3D" : `2D+${i % 3}`,
    })),
    settings: {
      "structured-initiative.defaultMode": "sides",
      "structured-initiative.sidesDexterity": "@dexterity",
      "structured-initiative.sidesPerception": "@perception",
      "structured-initiative.sidesCountdown": 0,
      "structured-initiative.historyLimit": 1000,
    },
  });
  const combat = await benchEncounter(sim, n);
  await sim.settle();
  return { sim, combat };
}

type Result = Promise<{ ok: boolean; code?: string }>;
interface ApiLike {
  command(combat: SimCombat, command: unknown): Result;
  sides: {
    rollSide(combat: SimCombat, sideId: string): Result;
    declare(combat: SimCombat, combatantId: string, texts: string[], forcePoint: boolean): Result;
    react(combat: SimCombat, combatantId: string, kind: string): Result;
  };
}
const apiOf = (sim: Sim, userId: string): ApiLike =>
  sim.client(userId).game.modules.get("structured-initiative")?.api as ApiLike;

function stateOf(combat: SimCombat): SidesState {
  const stored = combat.getFlag("structured-initiative", "encounter") as { state: Json };
  return decodeArrays(stored.state) as unknown as SidesState;
}

async function scenario(n: number): Promise<Row[]> {
  const { sim, combat } = await setup(n);
  const rows: Row[] = [];
  const push = (operation: string, m: Omit<Row, "operation" | "combatants">) =>
    rows.push({ operation, combatants: n, ...m });
  const gm = apiOf(sim, GM);
  await gm.command(combat, { type: "start" });
  await sim.settle();
  const [heroes, foes] = stateOf(combat).sides;
  sim.dice.push(6, 6, 6);
  push("side roll (GM)", await measure(sim, () => gm.sides.rollSide(combat, heroes?.id ?? "")));
  sim.dice.push(1, 1, 1, 1);
  push(
    "last side roll (GM; opens the declaration)",
    await measure(sim, () => gm.sides.rollSide(combat, foes?.id ?? "")),
  );
  // The foes declare first (lower roll): all but the last NPC, then measure one GM declaration.
  const order = declarationOrder(stateOf(combat));
  const aria = order[order.length - 1] ?? "";
  const npcs = order.slice(0, -1);
  for (const id of npcs.slice(0, -1)) {
    await gm.sides.declare(combat, id, ["Shoot"], false);
    await sim.settle();
  }
  push(
    "declaration (GM)",
    await measure(sim, () => gm.sides.declare(combat, npcs[npcs.length - 1] ?? "", ["Shoot"], false)),
  );
  const alice = apiOf(sim, ALICE);
  const aliceCombat = sim.client(ALICE).game.combats.contents[0] as SimCombat;
  push(
    "declaration (player request; opens pass 1)",
    await measure(sim, () => alice.sides.declare(aliceCombat, aria, ["Shoot", "Run"], false)),
  );
  push("reaction (player request)", await measure(sim, () => alice.sides.react(aliceCombat, aria, "dodge")));
  push("resolved action (next turn, GM)", await measure(sim, () => gm.command(combat, { type: "nextTurn" })));
  const pass = stateOf(combat);
  const waiting = passOrder(pass).filter((id) => !pass.done.includes(id));
  const [slow, after] = waiting.slice(1);
  if (slow !== undefined && after !== undefined)
    push(
      "slow down (GM)",
      await measure(sim, () => gm.command(combat, { type: "slowDown", combatantId: slow, after })),
    );
  push("next round (GM)", await measure(sim, () => gm.command(combat, { type: "nextRound" })));
  return rows;
}

it("prints sides document writes and bytes per operation", async () => {
  const rows: Row[] = [];
  for (const n of sizes()) {
    console.log(`sides scenario ${n} combatants`);
    rows.push(...(await scenario(n)));
  }
  report<Row & ByteTargets>(
    "sides: document writes per operation (writes: Combat/Combatant; otherWrites: chat messages)",
    "bench-sides.json",
    ["operation", "combatants", "writes", "otherWrites", "bytesSent", "bytesBroadcast", "≤ 1 KB at 100", "flat 20→100"],
    withByteTargets(rows),
  );
});
