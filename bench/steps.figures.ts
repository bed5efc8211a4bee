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
import { bindMode, type ModeBinding } from "../src/core/binding.js";
import type { Command, ModeDefinition, Requester, RosterEntry } from "../src/core/engine.js";
import { parseStoredEncounter, type StoredEncounter } from "../src/core/store.js";
import { declareResolveMode } from "../src/modes/declare-resolve/rules/declare-resolve.js";
import { parseDeclareResolveState } from "../src/modes/declare-resolve/rules/state.js";
import { individualMode } from "../src/modes/individual/rules/individual.js";
import { parseIndividualState } from "../src/modes/individual/rules/state.js";
import { phasesMode } from "../src/modes/phases/rules/phases.js";
import { parsePhasesState } from "../src/modes/phases/rules/state.js";
import { sidesMode } from "../src/modes/sides/rules/sides.js";
import { parseSidesState } from "../src/modes/sides/rules/state.js";
import { slotsMode } from "../src/modes/slots/rules/slots.js";
import { parseSlotsState } from "../src/modes/slots/rules/state.js";
import type { AnyKit } from "../test/conformance/kit.js";
import { createSim } from "../test/sim/index.js";
import type { SimCombat } from "../test/sim/index.js";
import { ALICE, BOB, GM, actorId, benchEncounter, benchWorld, report } from "./shared.js";

const kits = import.meta.glob<{ kit: AnyKit }>("../test/conformance/kits/*.ts", { eager: true });
const kitOf = (id: string): AnyKit => {
  const found = Object.entries(kits).find(([file]) => file.endsWith(`/${id}.ts`))?.[1].kit;
  if (found === undefined) throw new Error(`no kit for ${id}`);
  return found;
};

interface Mode {
  readonly id: string;
  readonly rules: ModeDefinition<unknown, Command>;
  readonly parse: (data: unknown) => unknown;
}
const MODES: readonly Mode[] = [
  { id: "individual", rules: individualMode as never, parse: parseIndividualState },
  { id: "sides", rules: sidesMode as never, parse: parseSidesState },
  { id: "slots", rules: slotsMode as never, parse: parseSlotsState },
  { id: "declare-resolve", rules: declareResolveMode as never, parse: parseDeclareResolveState },
  { id: "phases", rules: phasesMode as never, parse: parsePhasesState },
];

interface Ids {
  combatants: { id: string }[];
}
function bind(mode: Mode): ModeBinding<Ids> {
  return bindMode(mode.rules as never, mode.parse as never, {
    add: (entry) => ({ type: "addCombatant", combatant: entry }) as never,
    remove: (id) => ({ type: "removeCombatant", combatantId: id }) as never,
    ids: (state: Ids) => state.combatants.map((c) => c.id),
  });
}

const GM_REQ: Requester = { userId: GM, isGM: true, owns: [] };
const LIMIT = 1000;
/** What the stepper never does: undo, roster and defeated changes, and the GM's toggles. */
const SKIP = new Set([
  "previousTurn",
  "previousRound",
  "addCombatant",
  "removeCombatant",
  "setDefeated",
  "setSkipDefeated",
  "setAware",
  "setGroup",
  "setSide",
  "setRoller",
  "setConditions",
  "addIPChange",
  "removeIPChange",
  "setBudget",
  "setPoolCap",
  "setCollapse",
  "markOutOfReach",
  "releaseClaim",
  "hesitate",
  "slowDown",
  "delay",
  "ready",
  "defineSide",
  "removeSide",
  "configure",
  "setTraits",
  "letPass",
]);

/**
 * The next command that moves the encounter on, as a GM at the table would give it: the kit's step
 * commands first, else whatever the GM may do now (rolls, declarations, start), built by the kit.
 */
function nextCommand(kit: AnyKit, mode: Mode, state: unknown, tried: Set<string>): Command[] {
  const steps = (kit.steps?.(state) ?? [{ type: "nextTurn" }]) as Command[];
  const allowed = mode.rules
    .allowed(state, GM_REQ)
    .filter((a) => !SKIP.has(a.type))
    .flatMap((a) => {
      const command = kit.commandFor(state, a, GM_REQ) as Command | null;
      return command === null ? [] : [command];
    })
    .filter((c) => !tried.has(JSON.stringify(c)));
  return [...steps, ...allowed];
}

/** Drive an encounter forward by `count` history steps (GM commands), returning the stored form. */
function advance(kit: AnyKit, mode: Mode, binding: ModeBinding<Ids>, stored: StoredEncounter, count: number) {
  let current = stored;
  let steps = 0;
  const tried = new Set<string>();
  let last: Command | null = null;
  for (let guard = 0; steps < count && guard < count * 20 + 500; guard += 1) {
    const bound = binding.load(current);
    if (bound === null) throw new Error(`${mode.id}: the stored encounter did not load`);
    let moved = false;
    for (const command of nextCommand(kit, mode, bound.state, tried)) {
      const applied = bound.apply(command, GM_REQ, LIMIT, null);
      if (!applied.ok) continue;
      const grew = Object.keys(applied.stored.history).length > Object.keys(current.history).length;
      current = applied.stored;
      if (grew) {
        steps += 1;
        tried.clear();
        last = command;
      } else tried.add(JSON.stringify(command));
      moved = true;
      break;
    }
    if (!moved) throw new Error(`${mode.id}: stuck after ${steps} steps`);
  }
  return { stored: current, last };
}

/** A started encounter of `n` combatants (the first two PCs), with `history` steps behind it. */
function encounterOf(mode: Mode, n: number, history: number) {
  const kit = kitOf(mode.id);
  const binding = bind(mode);
  const roster: RosterEntry[] = Array.from({ length: n }, (_, i) => ({
    id: `combatant${String(i).padStart(7, "0")}`,
    name: i < 2 ? `Hero ${i}` : `Trooper ${i}`,
    isPC: i < 2,
  }));
  const setup = [...(kit.setup?.(mode.rules.create(roster)) ?? [])] as unknown[];
  const fresh = binding.createWith(roster, setup, GM_REQ);
  // Set-up commands, then steps: a round or so, and the history wanted.
  const warm = advance(kit, mode, binding, fresh, Math.max(3, history));
  return { kit, binding, roster, stored: warm.stored };
}

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
  for (let i = 0; i < 41; i += 1) {
    // Each run starts from the flag as another client would hold it: a fresh parse, no cache.
    const raw = JSON.parse(JSON.stringify(stored)) as unknown;
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
  } as never);
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
  for (const mode of MODES)
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
        });
      }
  report<Row>(
    "One GM command: time on the rules and store path (Node) and end to end in the sim (GM + 2 players)",
    "bench-steps.json",
    ["mode", "combatants", "history", "rules+store ms", "target ≤ 2 ms", "update bytes", "sim end-to-end ms"],
    rows,
  );
});
