/**
 * A step's time with and without each speed mechanism of the pure layer (issue #26 item 3), in one
 * run: `BENCH_VARIANTS` names folders, each a copy of this checkout's `src/`, `test/rules/`,
 * `test/conformance/` and `bench/` with one mechanism taken out (the first folder is the reference).
 * Without it, this checkout alone is timed. For each mode at 10, 50 and 200 combatants
 * (BENCH_MECH_SIZES) with a full undo history (100 steps, the default bound), it times:
 * - the authority's step: parse the flag, load it, apply the GM's command, encode the write;
 * - a reader's load of the written flag (what every other client does on each step): parse, load,
 *   the view, what the GM may do and where an undo would land (the GM tracker reads all three).
 * The variants take turns, step by step, so that the machine's load falls on all of them alike; each
 * figure is the median over all steps. Nothing here asserts anything.
 */
import { performance } from "node:perf_hooks";
import path from "node:path";
import { it } from "vitest";
import type { Json } from "../src/core/patch.js";
import type { StoredEncounter } from "../src/core/store.js";
import { report } from "./shared.js";

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const HISTORY = 100;
const STEPS = Number(process.env.BENCH_MECH_STEPS ?? 60);

/**
 * A variant's store: today's, or an older one whose parse also takes the history keys the last
 * update touched (`touchedHistory`, removed by issue #26), so that older code is timed as it ran.
 */
type Store = Omit<typeof import("../src/core/store.js"), "parseStoredEncounter"> & {
  parseStoredEncounter(value: unknown, touched?: readonly string[] | null): StoredEncounter | null;
  touchedHistory?: (update: unknown) => string[] | null;
};

interface Variant {
  readonly name: string;
  readonly store: Store;
  readonly world: typeof import("./steps-world.js");
  readonly modes: typeof import("../test/rules/pure-modes.js");
  readonly merge: typeof import("../test/sim/utils.js").mergeObject;
}

async function variantAt(dir: string): Promise<Variant> {
  const at = (file: string): string => path.join(dir, file);
  return {
    name: path.basename(dir),
    store: (await import(/* @vite-ignore */ at("src/core/store.ts"))) as Store,
    world: (await import(/* @vite-ignore */ at("bench/steps-world.ts"))) as Variant["world"],
    modes: (await import(/* @vite-ignore */ at("test/rules/pure-modes.ts"))) as Variant["modes"],
    merge: (await import("../test/sim/utils.js")).mergeObject,
  };
}

interface Row {
  mode: string;
  combatants: number;
  variant: string;
  "step ms": string;
  "vs ref": string;
  "reader ms": string;
  "reader vs ref": string;
}

it("prints a step's time with and without each mechanism", async () => {
  const dirs = (process.env.BENCH_VARIANTS ?? path.resolve(import.meta.dirname, "..")).split(",").filter(Boolean);
  const variants = await Promise.all(dirs.map(variantAt));
  const sizes = (process.env.BENCH_MECH_SIZES ?? "10,50,200").split(",").map(Number);
  const modeIds = (process.env.BENCH_MECH_MODES ?? "").split(",").filter(Boolean);
  const rows: Row[] = [];
  for (const id of variants[0]?.modes.PURE_MODES.map((m) => m.id) ?? []) {
    if (modeIds.length > 0 && !modeIds.includes(id)) continue;
    for (const n of sizes) {
      const gms = variants.map((v) => {
        const mode = v.modes.pureMode(id);
        const { kit, stored } = v.world.encounterOf(mode, n, HISTORY);
        const flag = JSON.parse(JSON.stringify(stored)) as Record<string, unknown>;
        const binding = v.modes.asAuthority(v.modes.bindPure(mode));
        const bound = binding.load(v.store.parseStoredEncounter(flag) ?? stored, flag);
        if (bound === null) throw new Error(`${id}: load`);
        const state: unknown = bound.state;
        return {
          v,
          mode,
          kit,
          flag,
          binding,
          state,
          tried: new Set<string>(),
          touched: null as string[] | null,
          step: [] as number[],
          reader: [] as number[],
        };
      });
      for (let s = 0; s < STEPS + 3; s += 1)
        for (const gm of s % 2 === 0 ? gms : [...gms].reverse()) {
          const { v, mode, kit } = gm;
          let command: unknown = null;
          for (const c of v.world.nextCommand(kit, mode, gm.state, gm.tried)) {
            const outcome = mode.rules.apply(gm.state as Json, c, v.world.GM_REQ);
            if (!outcome.ok) continue;
            if (outcome.step === undefined) gm.tried.add(JSON.stringify(c));
            else gm.tried.clear();
            command = c;
            break;
          }
          if (command === null) throw new Error(`${id}: nothing to apply`);
          const t0 = performance.now();
          const parsed = v.store.parseStoredEncounter(gm.flag, gm.touched);
          const bound = parsed === null ? null : gm.binding.load(parsed, gm.flag);
          const applied = bound?.apply(command, v.world.GM_REQ, HISTORY, null);
          const t1 = performance.now();
          if (applied?.ok !== true) throw new Error(`${id}: the step was refused`);
          v.merge(gm.flag, applied.update, { performDeletions: true });
          gm.touched = v.store.touchedHistory?.(applied.update) ?? null;
          gm.state = applied.state;
          // A reader: a client that did not write this (its own binding, nothing remembered).
          const t2 = performance.now();
          const read = v.modes.bindPure(mode).load(v.store.parseStoredEncounter(gm.flag) ?? applied.stored, gm.flag);
          read?.allowed(v.world.GM_REQ);
          read?.undoTarget("previousTurn");
          const t3 = performance.now();
          if (read === null) throw new Error(`${id}: reader load`);
          if (s >= 3) {
            gm.step.push(t1 - t0);
            gm.reader.push(t3 - t2);
          }
        }
      const ref = gms[0];
      for (const gm of gms) {
        const step = median(gm.step);
        const reader = median(gm.reader);
        const pct = (a: number, b: number): string => `${(((a - b) / b) * 100).toFixed(0)}%`;
        rows.push({
          mode: id,
          combatants: n,
          variant: gm.v.name,
          "step ms": step.toFixed(3),
          "vs ref": ref === undefined || gm === ref ? "—" : pct(step, median(ref.step)),
          "reader ms": reader.toFixed(3),
          "reader vs ref": ref === undefined || gm === ref ? "—" : pct(reader, median(ref.reader)),
        });
      }
    }
  }
  report<Row>(
    `A step with and without each mechanism (history ${HISTORY}; ${STEPS} steps per variant, taking turns)`,
    "bench-mechanisms.json",
    ["mode", "combatants", "variant", "step ms", "vs ref", "reader ms", "reader vs ref"],
    rows,
  );
}, 1_800_000);
