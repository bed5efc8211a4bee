/**
 * Helpers of the `declare-resolve` integration suites: the shared test world (Aria is Alice's PC,
 * Brom Bob's, the rest NPCs) with Speed and Wisdom bonuses, hits and DEF in the actors' data, IP
 * rolled with exact dice, and the declare-resolve state as each client stores it.
 */
import { createSim, type CreateSimOptions, type Sim, type SimClient, type SimCombat } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { decodeArrays, type Json } from "../../src/core/patch.js";
import type { DeclareResolveState } from "../../src/modes/declare-resolve/rules/types.js";
import { ACTOR, ACTORS, SCENES, SETTINGS, apiOn, combatOn, encounter, idOf, type ActorKey } from "./world.js";

/** Speed bonus, Wisdom bonus and hits of each actor (the IP modifier is the two bonuses). */
export const TRAITS: Record<ActorKey, { speedBonus: number; wisdomBonus: number; hits: number; def: number }> = {
  aria: { speedBonus: 3, wisdomBonus: 1, hits: 24, def: 12 },
  brom: { speedBonus: 1, wisdomBonus: 2, hits: 30, def: 10 },
  officer: { speedBonus: 2, wisdomBonus: 2, hits: 18, def: 11 },
  trooper1: { speedBonus: 0, wisdomBonus: 0, hits: 12, def: 9 },
  trooper2: { speedBonus: 1, wisdomBonus: 0, hits: 12, def: 9 },
  trooper3: { speedBonus: 0, wisdomBonus: 1, hits: 12, def: 9 },
};

const KEYS = ["aria", "brom", "officer", "trooper1", "trooper2", "trooper3"] as const;

/** The test world's actors with their declare-resolve traits. */
export const DR_ACTORS: JsonObject[] = ACTORS.map((actor, i) => ({
  ...actor,
  system: { ...(actor.system as JsonObject), ...TRAITS[KEYS[i] ?? "aria"] },
}));

/** A simulated world running the built module, with the declare-resolve traits. */
export function drWorld(extra: CreateSimOptions = {}): Promise<Sim> {
  const { settings, ...rest } = extra;
  return createSim({
    actors: DR_ACTORS,
    scenes: SCENES,
    settings: { ...SETTINGS, "structured-initiative.defaultMode": "declare-resolve", ...settings },
    ...rest,
  });
}

/** The GM creates a `declare-resolve` encounter holding these actors. */
export function drEncounter(sim: Sim, keys: readonly ActorKey[]): Promise<SimCombat> {
  return encounter(sim, keys, "declare-resolve");
}

/** The declare-resolve state stored on a client's copy of the encounter. */
export function drOn(client: SimClient): DeclareResolveState {
  const stored = combatOn(client).getFlag("structured-initiative", "encounter") as { state: Json } | undefined;
  if (stored === undefined) throw new Error("no stored encounter");
  return decodeArrays(stored.state) as unknown as DeclareResolveState;
}

/** Roll IP on the GM with exact faces: the two d10 of `2d10` per actor, in the order given. */
export async function rollIPs(sim: Sim, faces: Partial<Record<ActorKey, readonly [number, number]>>): Promise<void> {
  const keys = Object.keys(faces) as ActorKey[];
  for (const k of keys) sim.dice.push(...(faces[k] ?? [1, 1]));
  await combatOn(sim.gm).rollInitiative(keys.map((k) => idOf(sim.gm, k)));
  await sim.settle();
}

/** A command from a client, settled. */
export async function commandAs(
  sim: Sim,
  client: SimClient,
  command: Record<string, unknown>,
): Promise<{ ok: boolean; code?: string }> {
  const result = await apiOn(client).command(combatOn(client), command);
  await sim.settle();
  return result;
}

/** The mode's API on a client. */
export interface DrApi {
  declare(combat: SimCombat, combatantId: string, actions: unknown[]): Promise<{ ok: boolean; code?: string }>;
  catalogue(): { name: string; cost: number; kind: string; def: number }[];
}

/** Declare from a client through the mode's API (catalogue names or custom actions), settled. */
export async function declareAs(
  sim: Sim,
  client: SimClient,
  key: ActorKey,
  actions: unknown[],
): Promise<{ ok: boolean; code?: string }> {
  const api = (apiOn(client) as unknown as { declareResolve: DrApi }).declareResolve;
  const result = await api.declare(combatOn(client), idOf(client, key), actions);
  await sim.settle();
  return result;
}

/** An actor's system data on a client. */
export function systemOf(client: SimClient, key: ActorKey): JsonObject {
  return (client.game.actors.get(ACTOR[key])?.system ?? {}) as JsonObject;
}
