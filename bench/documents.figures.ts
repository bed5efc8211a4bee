/**
 * Document writes and bytes per operation on the simulated Foundry (`npm run bench`).
 * Prints a table and JSON; asserts nothing about speed.
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

interface Row extends Cost {
  operation: string;
  combatants: number;
  history: number;
}

async function setup(n: number): Promise<{ sim: Sim; combat: SimCombat }> {
  const sim = await createSim({
    ...benchWorld(n, [ALICE], (i) => ({ attributes: { init: { mod: i % 5 } } })),
    settings: {
      "structured-initiative.defaultMode": "individual",
      "structured-initiative.initiativeSource": "formula",
      "structured-initiative.initiativeFormula": "1d20",
      "structured-initiative.modifierFormula": "@attributes.init.mod",
      "structured-initiative.historyLimit": 1000,
    },
  });
  const combat = await benchEncounter(sim, n);
  return { sim, combat };
}

interface ApiLike {
  rollOffs(combat: SimCombat): Promise<unknown>;
  command(combat: SimCombat, command: unknown): Promise<{ ok: boolean }>;
  groupCombatants(combat: SimCombat, ids: string[], groupId: string): Promise<unknown>;
}
const apiOf = (sim: Sim, userId: string): ApiLike =>
  sim.client(userId).game.modules.get("structured-initiative")?.api as ApiLike;

async function scenario(n: number, history: number): Promise<Row[]> {
  const { sim, combat } = await setup(n);
  const rows: Row[] = [];
  const push = (operation: string, m: Omit<Row, "operation" | "combatants" | "history">) =>
    rows.push({ operation, combatants: n, history, ...m });
  const ids = combat.turns.map((c) => c.id ?? "");
  const npcs = ids.slice(1);
  const groupSize = Math.min(3, npcs.length);
  await apiOf(sim, GM).groupCombatants(combat, npcs.slice(0, groupSize), "Squad");
  await sim.settle();
  const singles = ids.filter((id) => !npcs.slice(0, groupSize).includes(id));
  for (const id of singles) sim.dice.push(((id.charCodeAt(id.length - 1) * 7) % 20) + 1);
  await combat.rollInitiative(singles);
  await sim.settle();
  await apiOf(sim, GM).rollOffs(combat);
  await sim.settle();
  sim.dice.push(11);
  push("group roll", await measure(sim, () => combat.rollInitiative([npcs[0] ?? ""])));
  await apiOf(sim, GM).rollOffs(combat);
  push("start", await measure(sim, () => combat.startCombat()));
  if (!combat.started) throw new Error(`the combat did not start: ${JSON.stringify(sim.gm.notifications.at(-1))}`);
  // Build up history with whole rounds of turns, then measure at that length.
  let steps = 0;
  while (steps < history) {
    await combat.nextTurn();
    await sim.settle();
    steps += 1;
  }
  push("next turn", await measure(sim, () => combat.nextTurn()));
  push("previous turn", await measure(sim, () => combat.previousTurn()));
  push("next round", await measure(sim, () => combat.nextRound()));
  // A player request: Aria's owner delays on Aria's turn (written by the player, applied by the GM).
  for (let guard = 0; sim.gm.game.combats.contents[0]?.combatant?.actorId !== "actor00000000000"; guard += 1) {
    if (guard > 3 * n) throw new Error("Aria's turn never came");
    await combat.nextTurn();
    await sim.settle();
  }
  const aria = sim.client(ALICE).game.combats.contents[0] as SimCombat;
  const ariaId = aria.combatant?.id ?? "";
  push(
    "player request (delay)",
    await measure(sim, () => apiOf(sim, ALICE).command(aria, { type: "delay", combatantId: ariaId })),
  );
  const current = combat.combatant?.id ?? "";
  push("delay (GM)", await measure(sim, () => apiOf(sim, GM).command(combat, { type: "delay", combatantId: current })));
  return rows;
}

it("prints document writes and bytes per operation", async () => {
  const rows: Row[] = [];
  const histories = (process.env.BENCH_HISTORY ?? "0,200").split(",").map(Number);
  for (const n of sizes())
    for (const history of histories) {
      console.log(`scenario ${n} combatants, history ${history}`);
      rows.push(...(await scenario(n, history)));
    }
  report<Row & ByteTargets>(
    "Document writes per operation (writes: Combat/Combatant; otherWrites: chat messages)",
    "bench-documents.json",
    [
      "operation",
      "combatants",
      "history",
      "writes",
      "otherWrites",
      "bytesSent",
      "bytesBroadcast",
      "≤ 1 KB at 100",
      "flat 20→100",
    ],
    withByteTargets(rows),
  );
});
