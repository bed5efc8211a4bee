/**
 * A small `sides` world for the integration tests: a GM, Alice (Ace) and Bob (Jaluun), Imperial NPCs
 * (hostile tokens) and a neutral smuggler, with D6 traits in the actors' data, read through the
 * `sides` formula settings.
 */
import { expect } from "vitest";
import { createSim, type CreateSimOptions, type Sim, type SimClient, type SimCombat } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { decodeArrays, type Json } from "../../src/core/patch.js";
import type { SidesState } from "../../src/modes/sides/rules/types.js";
import { ALICE, BOB, GM, SCENE, apiOn, combatOn } from "./world.js";

export { ALICE, BOB, GM, SCENE };

/** Actor ids by key. */
export const D6 = {
  ace: "actorAce00000001",
  jaluun: "actorJaluun00001",
  officer: "actorOfficer0001",
  trooper1: "actorTrooper0001",
  trooper2: "actorTrooper0002",
  smuggler: "actorSmuggler001",
} as const;
/** An actor key. */
export type D6Key = keyof typeof D6;

interface Spec {
  key: D6Key;
  name: string;
  owner?: string;
  disposition: number;
  dexterity: string;
  perception: string;
  tactics?: string;
}

const SPECS: Spec[] = [
  { key: "ace", name: "Ace", owner: ALICE, disposition: 1, dexterity: "3D+2", perception: "3D" },
  { key: "jaluun", name: "Jaluun", owner: BOB, disposition: 1, dexterity: "3D+2", perception: "2D+1" },
  { key: "officer", name: "Officer", disposition: -1, dexterity: "3D", perception: "3D+1", tactics: "4D+1" },
  { key: "trooper1", name: "Trooper 1", disposition: -1, dexterity: "2D+2", perception: "2D" },
  { key: "trooper2", name: "Trooper 2", disposition: -1, dexterity: "2D+2", perception: "2D" },
  { key: "smuggler", name: "Smuggler", disposition: 0, dexterity: "3D+1", perception: "3D" },
];

/** The token id of an actor on the scene. */
export function d6Token(key: D6Key): string {
  return `tok${key}`.padEnd(16, "0").slice(0, 16);
}

export const ACTORS: JsonObject[] = SPECS.map((s) => ({
  _id: D6[s.key],
  name: s.name,
  type: s.owner ? "character" : "npc",
  ownership: s.owner ? { default: 0, [s.owner]: 3 } : { default: 0 },
  system: { dexterity: s.dexterity, perception: s.perception, ...(s.tactics ? { tactics: s.tactics } : {}) },
}));

const SCENES: JsonObject[] = [
  {
    _id: SCENE,
    name: "Docking bay",
    active: true,
    tokens: SPECS.map((s) => ({ _id: d6Token(s.key), actorId: D6[s.key], name: s.name, disposition: s.disposition })),
  },
];

/** Settings of the sides world: sides by default, traits from the actors, the D6 Tactics rule, no countdown. */
export const SIDES_SETTINGS = {
  "structured-initiative.defaultMode": "sides",
  "structured-initiative.sidesDexterity": "@dexterity",
  "structured-initiative.sidesPerception": "@perception",
  "structured-initiative.sidesTactics": "@tactics",
  "structured-initiative.sidesCountdown": 0,
};

/** A simulated world running the built module, with the sides cast. */
export function sidesWorld(extra: CreateSimOptions = {}): Promise<Sim> {
  return createSim({
    actors: ACTORS,
    scenes: SCENES,
    ...extra,
    settings: { ...SIDES_SETTINGS, ...(extra.settings ?? {}) },
  });
}

/** The GM creates a sides encounter holding these actors; every client catches up. */
export async function sidesEncounter(sim: Sim, keys: readonly D6Key[]): Promise<SimCombat> {
  const Combat = sim.gm.api.classes.Combat.implementation;
  const combat = (await Combat.create({ scene: SCENE, active: true })) as SimCombat;
  await combat.createEmbeddedDocuments(
    "Combatant",
    keys.map((key) => ({ actorId: D6[key], tokenId: d6Token(key), sceneId: SCENE })),
  );
  await sim.settle();
  await sim.settle();
  return combat;
}

/** The combatant id of an actor. */
export function cid(client: SimClient, key: D6Key): string {
  const c = combatOn(client).combatants.find((x) => x.actorId === D6[key]);
  if (!c?.id) throw new Error(`no combatant for ${key}`);
  return c.id;
}

/** The sides state stored on a client's copy of the encounter. */
export function sidesOn(client: SimClient): SidesState {
  const stored = combatOn(client).getFlag("structured-initiative", "encounter") as { state: Json } | undefined;
  if (stored === undefined) throw new Error("no stored encounter");
  return decodeArrays(stored.state) as unknown as SidesState;
}

/** A side's id by its name. */
export function sideId(client: SimClient, name: string): string {
  const side = sidesOn(client).sides.find((s) => s.name === name);
  if (side === undefined) throw new Error(`no side ${name}`);
  return side.id;
}

/** The `sides` API on a client. */
export function sidesApi(client: SimClient): SidesApi {
  return (apiOn(client) as unknown as { sides: SidesApi }).sides;
}

type Result = Promise<{ ok: boolean; code?: string }>;

/** The parts of `api.sides` the tests call. */
export interface SidesApi {
  rollSide(combat: SimCombat, sideId: string): Result;
  rollAllSides(combat: SimCombat, npcsOnly?: boolean): Promise<{ ok: boolean; code?: string }[]>;
  declare(combat: SimCombat, combatantId: string, texts: string[], forcePoint: boolean): Result;
  react(combat: SimCombat, combatantId: string, kind: string): Result;
  slowDown(combat: SimCombat, combatantId: string, after: string): Result;
  letPass(combat: SimCombat, combatantId: string): Result;
  correctSideRoll(combat: SimCombat, sideId: string, total: number): Result;
  addSide(combat: SimCombat, name: string, colour: string, members?: string[]): Result;
  editSide(combat: SimCombat, sideId: string, name: string, colour: string): Result;
  moveToSide(combat: SimCombat, combatantId: string, sideId: string): Result;
  deleteSide(combat: SimCombat, sideId: string): Result;
  refreshTraits(combat: SimCombat): Result;
  pauseClock(combat: SimCombat, paused: boolean): Result;
  extendClock(combat: SimCombat, seconds: number): Result;
  excuse(combat: SimCombat, combatantId: string, excused: boolean): Result;
}

/** The GM rolls a side with exact d6 faces; every client catches up. */
export async function rollSideAs(sim: Sim, name: string, faces: number[]): Promise<{ ok: boolean; code?: string }> {
  sim.dice.push(...faces);
  const result = await sidesApi(sim.gm).rollSide(combatOn(sim.gm), sideId(sim.gm, name));
  await sim.settle();
  return result;
}

/** A client runs a rules command; every client catches up. */
export async function run(sim: Sim, client: SimClient, command: JsonObject): Promise<{ ok: boolean; code?: string }> {
  const result = await apiOn(client).command(combatOn(client), command);
  await sim.settle();
  return result;
}

/** Every client derived the same order, current combatant, round and step. */
export function expectSidesAgreement(sim: Sim): void {
  const of = (c: SimClient) => ({ view: apiOn(c).view(combatOn(c)), turns: combatOn(c).turns.map((t) => t.name) });
  const gm = of(sim.gm);
  for (const client of sim.clients) expect(of(client), client.userId).toEqual(gm);
}
