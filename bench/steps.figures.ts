/**
 * Time and bytes of one GM command in every mode (`npm run bench`), at 10 and 100 combatants, with
 * 0, 500 and 1,000 steps of undo history (BENCH_STEP_SIZES, BENCH_STEP_HISTORY), measured two ways:
 * - on the rules and store path alone, in Node: parse the flag, load it, apply the command, encode
 *   the write (what the active GM's client does between receiving a command and sending its update),
 *   step after step on one flag that each update is merged into, as the document does;
 * - end to end in the simulated Foundry (the GM and two players): the GM's command until every client
 *   has settled (BENCH_STEP_SIM=0 leaves it out).
 * Each figure is a median of many runs, printed next to its target; nothing here asserts anything.
 */
import { performance } from "node:perf_hooks";
import { it } from "vitest";
import type { ModeBinding } from "../src/core/binding.js";
import type { Json } from "../src/core/patch.js";
import { parseStoredEncounter, type StoredEncounter } from "../src/core/store.js";
import {
  PURE_MODES,
  asAuthority,
  bindPure,
  type PureRules as Mode,
  type WithCombatants as Ids,
} from "../test/rules/pure-modes.js";
import { GM_REQ, LIMIT, encounterOf, nextCommand } from "./steps-world.js";
import type { AnyKit } from "../test/conformance/kit.js";
import { createSim } from "../test/sim/index.js";
import type { SimCombat } from "../test/sim/index.js";
import { mergeObject } from "../test/sim/utils.js";
import { ALICE, BOB, actorId, benchEncounter, benchWorld, report } from "./shared.js";

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** How many timed rounds per figure, and the steps timed in each (a median per round). */
const ROUNDS = Number(process.env.BENCH_STEP_ROUNDS ?? 7);
const STEPS_PER_ROUND = Number(process.env.BENCH_STEP_RUNS ?? 15);

/**
 * The active GM of one encounter, as a Combat holds it: one flag object that each write's update
 * data is merged into in place (as the document does), and the GM's own binding (its memory of
 * what it wrote). Each step parses the flag, loads it and applies the next command.
 */
interface Authority {
  readonly history: number;
  readonly flag: Record<string, unknown>;
  readonly binding: ModeBinding<Ids>;
  state: unknown;
  readonly tried: Set<string>;
}

/** The command this GM gives next: a step when one is allowed, found on the rules alone (untimed). */
function commandFor(mode: Mode, kit: AnyKit, gm: Authority): unknown {
  for (const command of nextCommand(kit, mode, gm.state, gm.tried)) {
    const outcome = mode.rules.apply(gm.state as Json, command, GM_REQ);
    if (!outcome.ok) continue;
    if (outcome.step === undefined) gm.tried.add(JSON.stringify(command));
    else gm.tried.clear();
    return command;
  }
  throw new Error(`${mode.id}: nothing to apply`);
}

/** One step of this GM: the time of parse + load + apply + encode (ms), and the update's bytes. */
function step(mode: Mode, kit: AnyKit, gm: Authority): { ms: number; bytes: number } {
  const command = commandFor(mode, kit, gm);
  const t0 = performance.now();
  const parsed = parseStoredEncounter(gm.flag);
  const bound = parsed === null ? null : gm.binding.load(parsed, gm.flag);
  const applied = bound?.apply(command, GM_REQ, LIMIT, null);
  const ms = performance.now() - t0;
  if (applied?.ok !== true) throw new Error(`${mode.id}: the step was refused`);
  mergeObject(gm.flag, applied.update, { performDeletions: true });
  gm.state = applied.state;
  return { ms, bytes: JSON.stringify(applied.update).length };
}

/**
 * Per history length: the median time of one step on the rules and store path (ms), the median
 * update bytes, and how far the step's time at that length stands from history 0 (the median of
 * the rounds' differences, and the noise: the spread of history 0's own round medians). The
 * lengths are timed in turns, round after round, so that a change in the machine's load falls on
 * all of them alike. Each GM first takes two untimed steps (its first load reads the whole flag).
 */
function timeRules(mode: Mode, kit: AnyKit, storeds: readonly { history: number; stored: StoredEncounter }[]) {
  const gms: Authority[] = storeds.map(({ history, stored }) => {
    const flag = JSON.parse(JSON.stringify(stored)) as Record<string, unknown>;
    const binding = asAuthority(bindPure(mode));
    const bound = binding.load(parseStoredEncounter(flag) ?? stored, flag);
    if (bound === null) throw new Error(`${mode.id}: load`);
    return { history, flag, binding, state: bound.state, tried: new Set() };
  });
  for (const gm of gms) for (let i = 0; i < 2; i += 1) step(mode, kit, gm);
  const rounds = gms.map(() => [] as number[]);
  const all = gms.map(() => [] as number[]);
  const bytes = gms.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r += 1)
    gms.forEach((gm, g) => {
      const runs: number[] = [];
      for (let i = 0; i < STEPS_PER_ROUND; i += 1) {
        const one = step(mode, kit, gm);
        runs.push(one.ms);
        bytes[g]?.push(one.bytes);
      }
      rounds[g]?.push(median(runs));
      all[g]?.push(...runs);
    });
  const base = rounds[0] ?? [];
  const noise = median(base.map((m) => Math.abs(m - median(base))));
  return gms.map((gm, g) => ({
    history: gm.history,
    ms: median(all[g] ?? []),
    bytes: median(bytes[g] ?? []),
    delta: median((rounds[g] ?? []).map((m, r) => m - (base[r] ?? 0))),
    noise,
  }));
}

interface Row {
  mode: string;
  combatants: number;
  history: number;
  "rules+store ms": string;
  "target ≤ 2 ms": string;
  /** The step's time less history 0's (median of the rounds' differences), ± history 0's own noise. */
  "Δ vs history 0 ms": string;
  /** Flat when that difference is within the noise: at most 3× it, or 0.05 ms. */
  "flat in history": string;
  /** Against 10 combatants at the same history: at most linear (≤ 1.25× the size ratio). */
  "linear in size": string;
  "update bytes": number;
  "sim end-to-end ms": string;
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
  const histories = (process.env.BENCH_STEP_HISTORY ?? "0,500,1000").split(",").map(Number);
  const withSim = process.env.BENCH_STEP_SIM !== "0";
  const rows: Row[] = [];
  for (const mode of PURE_MODES)
    for (const n of sizes) {
      const built = histories.map((history) => ({ history, ...encounterOf(mode, n, history) }));
      const kit = built[0]?.kit;
      if (kit === undefined) continue;
      const times = timeRules(mode, kit, built);
      for (const [i, { history, binding, stored }] of built.entries()) {
        const rules = times[i];
        if (rules === undefined) continue;
        const sim = withSim ? await timeSim(mode, n, stored, kit, binding) : "—";
        const flat = rules.delta <= Math.max(3 * rules.noise, 0.05);
        rows.push({
          mode: mode.id,
          combatants: n,
          history,
          "rules+store ms": rules.ms.toFixed(3),
          "target ≤ 2 ms": n < 100 ? "—" : rules.ms <= 2 ? "pass" : "FAIL",
          "Δ vs history 0 ms": i === 0 ? "—" : `${rules.delta.toFixed(3)} ± ${rules.noise.toFixed(3)}`,
          "flat in history": i === 0 ? "—" : flat ? "pass" : "FAIL",
          "linear in size": "—",
          "update bytes": rules.bytes,
          "sim end-to-end ms": sim,
        });
      }
    }
  const ms = (mode: string, n: number, history: number): number | undefined => {
    const row = rows.find((r) => r.mode === mode && r.combatants === n && r.history === history);
    return row === undefined ? undefined : Number(row["rules+store ms"]);
  };
  const smallest = Math.min(...sizes);
  for (const row of rows) {
    const own = Number(row["rules+store ms"]);
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
      "Δ vs history 0 ms",
      "flat in history",
      "linear in size",
      "update bytes",
      "sim end-to-end ms",
    ],
    rows,
  );
  // Building 1,000-step encounters and the sims takes minutes on a loaded machine (nothing is timed by it).
}, 900_000);
