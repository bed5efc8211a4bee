/** What the `npm run bench` figure scripts share: measuring one operation's writes and printing a table. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Sim, SimCombat } from "../test/sim/index.js";
import type { JsonObject } from "../test/sim/utils.js";

/** Writes and bytes of one operation. */
export interface Cost {
  /** Writes to the Combat and its combatants (the structured state and requests). */
  writes: number;
  /** Other documents written as a consequence (chat messages of rolls, groups). */
  otherWrites: number;
  /** Bytes the writing clients sent to the server. */
  bytesSent: number;
  /** Bytes of the change the server broadcast (each client receives it once). */
  bytesBroadcast: number;
}

/**
 * Run one operation on a settled sim and count what it wrote. A refusal (`{ok: false}`) is an error
 * unless its code is one the scenario expects.
 */
export async function measure(sim: Sim, run: () => Promise<unknown>, expectedRefusal?: string): Promise<Cost> {
  await sim.settle();
  sim.server.resetStats();
  const result = (await run()) as { ok?: boolean; code?: string } | undefined | null;
  await sim.settle();
  if (result?.ok === false && result.code !== expectedRefusal) throw new Error(`refused: ${JSON.stringify(result)}`);
  const ops = sim.server.ops.filter((op) => !op.refused && op.action !== "query");
  const structured = ops.filter((op) => op.documentName === "Combat" || op.documentName === "Combatant");
  const sum = (list: typeof ops, key: "writes" | "requestBytes" | "broadcastBytes"): number =>
    list.reduce((t, op) => t + op[key], 0);
  return {
    writes: sum(structured, "writes"),
    otherWrites: sum(ops, "writes") - sum(structured, "writes"),
    bytesSent: sum(structured, "requestBytes"),
    bytesBroadcast: sum(structured, "broadcastBytes"),
  };
}

/**
 * Issue #17's byte targets for a table of operations: every step sends at most 1 KB at 100
 * combatants, and at 20 combatants the same within 10%; starting, resetting and adding many
 * combatants at once are exempt. Adds a "≤ 1 KB at 100" and a "flat 20→100" column to each row.
 */
export const BYTE_TARGET = 1024;
export interface ByteTargets {
  "≤ 1 KB at 100": string;
  "flat 20→100": string;
}
const EXEMPT = /^(start|reset|add \d+)/i;
export function withByteTargets<
  R extends { operation: string; combatants: number; bytesSent: number; history?: number },
>(rows: readonly R[]): (R & ByteTargets)[] {
  const at = (like: R, n: number) =>
    rows.find((r) => r.operation === like.operation && r.combatants === n && r.history === like.history)?.bytesSent;
  return rows.map((r) => {
    const exempt = EXEMPT.test(r.operation);
    const big = at(r, 100);
    const small = at(r, 20);
    const flat =
      exempt || big === undefined || small === undefined || r.combatants !== 100
        ? "—"
        : Math.abs(big - small) <= 0.1 * Math.max(big, small)
          ? "pass"
          : "FAIL";
    const size = exempt || r.combatants !== 100 ? "—" : r.bytesSent <= BYTE_TARGET ? "pass" : "FAIL";
    return { ...r, "≤ 1 KB at 100": size, "flat 20→100": flat };
  });
}

/** Print rows as a table and as JSON, and keep the JSON under test-artefacts/. */
export function report<R extends object>(
  title: string,
  file: string,
  header: readonly (keyof R & string)[],
  rows: readonly R[],
): void {
  const lines = [header.join(" | "), header.map(() => "---").join(" | ")];
  for (const r of rows) lines.push(header.map((k) => String(r[k])).join(" | "));
  const out = path.resolve(import.meta.dirname, "../test-artefacts");
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, file), JSON.stringify(rows, null, 2));
  console.log(`\n${title}\n${lines.join("\n")}\n`);
  console.log(JSON.stringify(rows));
}

/** The sizes to run, from BENCH_SIZES (comma-separated) or the defaults. */
export function sizes(defaults = "5,20,100"): number[] {
  return (process.env.BENCH_SIZES ?? defaults).split(",").map(Number);
}

/** The bench worlds' users and scene. */
export const GM = "gmUser0000000001";
export const ALICE = "player0000000001";
export const BOB = "player0000000002";
export const SCENE = "scene00000000001";

/** The id of the i-th actor of a bench world, and of its token. */
export const actorId = (i: number): string => `actor${String(i).padStart(11, "0")}`;
export const tokenId = (i: number): string => `token${String(i).padStart(11, "0")}`;

/** The player characters' names, in the order of `owners`. */
const PC_NAMES = ["Aria", "Brom"];

/**
 * A bench world of `n` actors with a token each on one scene: the first ones are player characters
 * owned by `owners` (Aria, then Brom), the others NPCs ("Trooper i"); `system` gives each actor's
 * system data.
 */
export function benchWorld(
  n: number,
  owners: readonly string[],
  system: (i: number, pc: boolean) => JsonObject,
): { actors: JsonObject[]; scenes: JsonObject[] } {
  const actors: JsonObject[] = [];
  const tokens: JsonObject[] = [];
  for (let i = 0; i < n; i += 1) {
    const owner = owners[i] ?? null;
    const name = owner === null ? `Trooper ${i}` : (PC_NAMES[i] ?? `Hero ${i}`);
    actors.push({
      _id: actorId(i),
      name,
      type: owner === null ? "npc" : "character",
      ownership: owner === null ? { default: 0 } : { default: 0, [owner]: 3 },
      system: system(i, owner !== null),
    });
    tokens.push({ _id: tokenId(i), actorId: actorId(i), name, disposition: owner === null ? -1 : 1 });
  }
  return { actors, scenes: [{ _id: SCENE, name: "Bench", active: true, tokens }] };
}

/** The GM creates the bench encounter with every actor's token in it; resolves once settled. */
export async function benchEncounter(sim: Sim, n: number): Promise<SimCombat> {
  const Combat = sim.gm.api.classes.Combat.implementation;
  const combat = (await Combat.create({ scene: SCENE, active: true })) as SimCombat;
  await combat.createEmbeddedDocuments(
    "Combatant",
    Array.from({ length: n }, (_, i) => ({ actorId: actorId(i), tokenId: tokenId(i), sceneId: SCENE })),
  );
  await sim.settle();
  return combat;
}
