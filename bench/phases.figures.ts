/**
 * `phases` mode: document writes and bytes per step on the simulated Foundry at 5, 20 and 100
 * combatants (`npm run bench`). Target: one Combat write per step applied by the GM (a player's
 * request adds the one request write on a combatant the player owns; a skill roll's chat card is
 * counted apart, under other writes). Prints a table and JSON; asserts nothing about speed.
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
import type { JsonObject } from "../test/sim/utils.js";

interface Row extends Cost {
  operation: string;
  combatants: number;
}

interface ApiLike {
  command(combat: SimCombat, command: unknown): Promise<{ ok: boolean; code?: string }>;
  phases: {
    rollSkill(combat: SimCombat, id: string, options: object): Promise<{ ok: boolean; code?: string }>;
  };
}
const apiOf = (sim: Sim, userId: string): ApiLike =>
  sim.client(userId).game.modules.get("structured-initiative")?.api as ApiLike;
const combatOf = (sim: Sim, userId: string): SimCombat => sim.client(userId).game.combats.contents[0] as SimCombat;

async function scenario(n: number): Promise<Row[]> {
  const sim = await createSim({
    // Two PCs (Alice's Aria, Bob's Brom, Melee d8) and n − 2 foes.
    ...benchWorld(n, [ALICE, BOB], (_i, pc): JsonObject => (pc ? { skills: { melee: "d8" } } : {})),
    settings: {
      "structured-initiative.defaultMode": "phases",
      "structured-initiative.historyLimit": 1000,
      "structured-initiative.phasesSkills": "Melee = @skills.melee",
    },
  });
  const combat = await benchEncounter(sim, n);
  const idOfActor = (i: number): string => combat.combatants.find((c) => c.actorId === actorId(i))?.id ?? "";
  const aria = idOfActor(0);
  const brom = idOfActor(1);
  const foe = idOfActor(2);
  const gm = apiOf(sim, GM);
  const rows: Row[] = [];
  const push = (operation: string, m: Omit<Row, "operation" | "combatants">) =>
    rows.push({ operation, combatants: n, ...m });
  push("start (GM)", await measure(sim, () => gm.command(combat, { type: "start", surprise: false })));
  push(
    "declare an intent (GM)",
    await measure(sim, () =>
      gm.command(combat, { type: "declareIntent", foeId: foe, text: "Blaster", kind: "attack", targets: [aria] }),
    ),
  );
  push("next phase (GM)", await measure(sim, () => gm.command(combat, { type: "nextPhase" })));
  push(
    "take the turn (player request)",
    await measure(sim, () => apiOf(sim, ALICE).command(combatOf(sim, ALICE), { type: "startTurn", combatantId: aria })),
  );
  push(
    "refused: another turn runs (player)",
    await measure(
      sim,
      () => apiOf(sim, BOB).command(combatOf(sim, BOB), { type: "startTurn", combatantId: brom }),
      "heroActing",
    ),
  );
  sim.dice.push(1, 7);
  push(
    "skill roll, defends (player request)",
    await measure(sim, () =>
      apiOf(sim, ALICE).phases.rollSkill(combatOf(sim, ALICE), aria, { skill: "Melee", defendsIntent: "i0" }),
    ),
  );
  push(
    "free move (player request)",
    await measure(sim, () =>
      apiOf(sim, ALICE).command(combatOf(sim, ALICE), { type: "freeAction", combatantId: aria, kind: "move" }),
    ),
  );
  sim.dice.push(4, 4, 2);
  push(
    "skill roll, doubles (player request)",
    await measure(sim, () => apiOf(sim, ALICE).phases.rollSkill(combatOf(sim, ALICE), aria, { dieSize: 8 })),
  );
  push(
    "failure answered: +1 Collapse (GM)",
    await measure(sim, () => gm.command(combat, { type: "resolveFailure", choice: "collapse" })),
  );
  push(
    "take the turn (GM for a PC)",
    await measure(sim, () => gm.command(combat, { type: "startTurn", combatantId: brom })),
  );
  push("end the turn (GM)", await measure(sim, () => gm.command(combat, { type: "endTurn", combatantId: brom })));
  push("resolve a foe (GM next turn)", await measure(sim, () => combat.nextTurn()));
  push("previous turn (GM)", await measure(sim, () => combat.previousTurn()));
  push("next round (GM)", await measure(sim, () => combat.nextRound()));
  return rows;
}

it("prints document writes and bytes per phases step", async () => {
  const rows: Row[] = [];
  for (const n of sizes()) rows.push(...(await scenario(n)));
  report<Row & ByteTargets>(
    "phases: document writes per step (writes: Combat/Combatant)",
    "bench-phases.json",
    ["operation", "combatants", "writes", "otherWrites", "bytesSent", "bytesBroadcast", "≤ 1 KB at 100", "flat 20→100"],
    withByteTargets(rows),
  );
});
