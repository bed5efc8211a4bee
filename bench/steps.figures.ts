/**
 * Time and bytes of one GM command in every mode (`npm run bench`), at 10 and 100 combatants, with
 * 0 and 500 steps of undo history (BENCH_STEP_SIZES, BENCH_STEP_HISTORY), measured two ways:
 * - on the rules and store path alone, in Node: load the stored encounter, apply the command, encode
 *   the write (what the active GM's client does between receiving a command and sending its update);
 * - end to end in the simulated Foundry (the GM and two players): the GM's command until every client
 *   has settled.
 * Each figure is a median of many runs, printed next to its target; nothing here asserts anything.
 */
import { performance } from "node:perf_hooks";
import { it } from "vitest";
import type { ModeBinding } from "../src/core/binding.js";
import { parseStoredEncounter, type StoredEncounter } from "../src/core/store.js";
import { PURE_MODES, type PureRules as Mode, type WithCombatants as Ids } from "../test/rules/pure-modes.js";
import { GM_REQ, LIMIT, encounterOf, nextCommand } from "./steps-world.js";
import type { AnyKit } from "../test/conformance/kit.js";
import { createSim } from "../test/sim/index.js";
import type { SimCombat } from "../test/sim/index.js";
import { ALICE, BOB, actorId, benchEncounter, benchWorld, report } from "./shared.js";

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Median time of load + apply + encode of the next command on this stored encounter (ms). */
function timeRules(
  mode: Mode,
  binding: ModeBinding<Ids>,
  kit: AnyKit,
  stored: StoredEncounter,
): { ms: number; bytes: number } {
  const bound = binding.load(stored);
  if (bound === null) throw new Error("load");
  const command = nextCommand(kit, mode, bound.state, new Set()).find((c) => bound.apply(c, GM_REQ, LIMIT, null).ok);
  if (command === undefined) throw new Error(`${mode.id}: nothing to apply`);
  const runs: number[] = [];
  let bytes = 0;
  // Each run starts from the flag as another client would hold it: a fresh parse, no cache. The
  // copies are made before the timing, so that making them (garbage the size of the whole history)
  // does not fall into the timed runs as collection pauses.
  const raws = Array.from({ length: 41 }, () => JSON.parse(JSON.stringify(stored)) as unknown);
  for (const raw of raws) {
    const t0 = performance.now();
    const parsed = parseStoredEncounter(raw);
    const loaded = parsed === null ? null : binding.load(parsed, raw);
    const applied = loaded?.apply(command, GM_REQ, LIMIT, null);
    runs.push(performance.now() - t0);
    if (applied?.ok) bytes = JSON.stringify(applied.update).length;
  }
  return { ms: median(runs), bytes };
}

interface Row {
  mode: string;
  combatants: number;
  history: number;
  "rules+store ms": string;
  "target ≤ 2 ms": string;
  "update bytes": number;
  "sim end-to-end ms": string;
  /** Against history 0 at the same size: within noise (≤ 1.25× + 0.1 ms). */
  "flat in history": string;
  /** Against 10 combatants at the same history: at most linear (≤ 1.25× the size ratio). */
  "linear in size": string;
}

/** End to end in the sim: the GM's command until every client settled, median of several runs. */
async function timeSim(mode: Mode, n: number, stored: StoredEncounter, kit: AnyKit, binding: ModeBinding<Ids>) {
  const sim = await createSim({
    ...benchWorld(n, [ALICE, BOB], () => ({})),
    settings: { "structured-initiative.defaultMode": "system", "structured-initiative.historyLimit": LIMIT },
  });
  const combat: SimCombat = await benchEncounter(sim, n);
  // Put the Node-built encounter on this combat, its ids renamed to the live combatants'.
  const live = combat.turns.map((c) => c.id ?? "");
  const byActor = new Map(combat.turns.map((c) => [c.actorId, c.id ?? ""]));
  let text = JSON.stringify(stored);
  for (let i = n - 1; i >= 0; i -= 1) {
    text = text.split(`combatant${String(i).padStart(7, "0")}`).join(byActor.get(actorId(i)) ?? live[i] ?? "");
  }
  await combat.update({
    flags: { "structured-initiative": { mode: mode.id, encounter: JSON.parse(text) as unknown } },
  });
  await sim.settle();
  const api = sim.gm.game.modules.get("structured-initiative")?.api as {
    command(c: SimCombat, command: unknown): Promise<{ ok: boolean }>;
  };
  const runs: number[] = [];
  for (let i = 0; i < 9; i += 1) {
    const flag = combat.getFlag("structured-initiative", "encounter");
    const current = parseStoredEncounter(flag);
    const bound = current === null ? null : binding.load(current);
    if (bound === null) break;
    const command = nextCommand(kit, mode, bound.state, new Set()).find((c) => bound.apply(c, GM_REQ, LIMIT, null).ok);
    if (command === undefined) break;
    const t0 = performance.now();
    const result = await api.command(combat, command);
    await sim.settle();
    runs.push(performance.now() - t0);
    if (!result.ok) break;
  }
  return runs.length === 0 ? "n/a" : median(runs).toFixed(2);
}

it("prints the time of one command per mode against history length and size", async () => {
  const sizes = (process.env.BENCH_STEP_SIZES ?? "10,100").split(",").map(Number);
  const histories = (process.env.BENCH_STEP_HISTORY ?? "0,500").split(",").map(Number);
  const rows: Row[] = [];
  for (const mode of PURE_MODES)
    for (const n of sizes)
      for (const history of histories) {
        const { kit, binding, stored } = encounterOf(mode, n, history);
        const rules = timeRules(mode, binding, kit, stored);
        const sim = await timeSim(mode, n, stored, kit, binding);
        rows.push({
          mode: mode.id,
          combatants: n,
          history,
          "rules+store ms": rules.ms.toFixed(3),
          "target ≤ 2 ms": n < 100 ? "—" : rules.ms <= 2 ? "pass" : "FAIL",
          "update bytes": rules.bytes,
          "sim end-to-end ms": sim,
          "flat in history": "—",
          "linear in size": "—",
        });
      }
  const ms = (mode: string, n: number, history: number): number | undefined => {
    const row = rows.find((r) => r.mode === mode && r.combatants === n && r.history === history);
    return row === undefined ? undefined : Number(row["rules+store ms"]);
  };
  const smallest = Math.min(...sizes);
  for (const row of rows) {
    const own = Number(row["rules+store ms"]);
    const base = ms(row.mode, row.combatants, 0);
    if (row.history > 0 && base !== undefined) row["flat in history"] = own <= base * 1.25 + 0.1 ? "pass" : "FAIL";
    const small = ms(row.mode, smallest, row.history);
    if (row.combatants > smallest && small !== undefined)
      row["linear in size"] = own <= small * (row.combatants / smallest) * 1.25 + 0.1 ? "pass" : "FAIL";
  }
  report<Row>(
    "One GM command: time on the rules and store path (Node) and end to end in the sim (GM + 2 players)",
    "bench-steps.json",
    [
      "mode",
      "combatants",
      "history",
      "rules+store ms",
      "target ≤ 2 ms",
      "flat in history",
      "linear in size",
      "update bytes",
      "sim end-to-end ms",
    ],
    rows,
  );
});
