/**
 * A small world for the integration tests: a GM and two players, each player owning one PC, four
 * NPCs, all on one scene, and helpers to reach each client's copy of the encounter.
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { REPO_ROOT, createSim, type CreateSimOptions, type Sim, type SimClient, type SimCombat } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { decodeArrays, type Json } from "../../src/core/patch.js";
import type { IndividualState } from "../../src/modes/individual/rules/types.js";

export const GM = "gmUser0000000001";
export const ALICE = "player0000000001";
export const BOB = "player0000000002";
export const SCENE = "scene00000000001";

/** Actor ids by name. */
export const ACTOR = {
  aria: "actorAria0000001",
  brom: "actorBrom0000001",
  officer: "actorOfficer0001",
  trooper1: "actorTrooper0001",
  trooper2: "actorTrooper0002",
  trooper3: "actorTrooper0003",
} as const;
export type ActorKey = keyof typeof ACTOR;

const actor = (key: ActorKey, name: string, mod: number, owner?: string): JsonObject => ({
  _id: ACTOR[key],
  name,
  type: owner ? "character" : "npc",
  ownership: owner ? { default: 0, [owner]: 3 } : { default: 0 },
  system: { attributes: { init: { mod } } },
});

export const ACTORS: JsonObject[] = [
  actor("aria", "Aria", 3, ALICE),
  actor("brom", "Brom", 1, BOB),
  actor("officer", "Officer", 2),
  actor("trooper1", "Trooper 1", 0),
  actor("trooper2", "Trooper 2", 1),
  actor("trooper3", "Trooper 3", 0),
];

export const SCENES: JsonObject[] = [
  {
    _id: SCENE,
    name: "Hangar",
    active: true,
    tokens: (Object.keys(ACTOR) as ActorKey[]).map((key, i) => ({
      _id: `token${key.padEnd(11, "0").slice(0, 11)}`,
      actorId: ACTOR[key],
      name: ACTORS[i]?.name ?? key,
      disposition: ACTORS[i]?.type === "character" ? 1 : -1,
    })),
  },
];

/**
 * Settings every test world uses: individual mode by default, its check the world's formula (a d20
 * plus the modifier read from the actors) rather than the system's roll.
 */
export const SETTINGS = {
  "structured-initiative.defaultMode": "individual",
  "structured-initiative.initiativeSource": "formula",
  "structured-initiative.initiativeFormula": "1d20",
  "structured-initiative.modifierFormula": "@attributes.init.mod",
};

/** A simulated world running the built module. */
export function world(extra: CreateSimOptions = {}): Promise<Sim> {
  return createSim({ actors: ACTORS, scenes: SCENES, settings: SETTINGS, ...extra });
}

/** The token id of an actor's token on the scene. */
export function tokenOf(key: ActorKey): string {
  return `token${key.padEnd(11, "0").slice(0, 11)}`;
}

/** The GM creates an encounter (mode from the settings unless given) holding these actors. */
export async function encounter(sim: Sim, keys: readonly ActorKey[], mode?: string): Promise<SimCombat> {
  const Combat = sim.gm.api.classes.Combat.implementation;
  const data: JsonObject = { scene: SCENE, active: true };
  if (mode !== undefined) data.flags = { "structured-initiative": { mode } };
  const combat = (await Combat.create(data)) as SimCombat;
  await combat.createEmbeddedDocuments(
    "Combatant",
    keys.map((key) => ({ actorId: ACTOR[key], tokenId: tokenOf(key), sceneId: SCENE })),
  );
  await sim.settle();
  return combat;
}

/** A client's copy of the (only) encounter. */
export function combatOn(client: SimClient): SimCombat {
  const combat = client.game.combats.contents[0];
  if (!combat) throw new Error(`no combat on ${client.userId}`);
  return combat;
}

/**
 * The order core gives a client's combatants from their live initiative, as Carousel Combat Tracker
 * and turn-marker modules see it: initiative descending (none last); combatants with equal
 * initiative (a tie, which the initiative mirror shows as the mode's own number on each, or none) in
 * the order the Combat's own `_sortCombatants` gives them, which core's `setupTurns` and a carousel
 * sort with (https://foundryvtt.com/api/classes/foundry.documents.Combat.html#_sortCombatants: core's
 * own sorts a tie by name, then id; the module's keeps the mode's order, `src/foundry/combat.ts`).
 */
export function coreOrderOn(client: SimClient): string[] {
  const combat = combatOn(client);
  const initiative = (c: { initiative: number | null }): number =>
    typeof c.initiative === "number" ? c.initiative : -Infinity;
  const method: unknown = Reflect.get(combat, "_sortCombatants");
  const combatSort = (a: unknown, b: unknown): number =>
    Number(Reflect.apply(method as () => number, undefined, [a, b]));
  return [...combat.combatants.contents]
    .sort((a, b) => initiative(b) - initiative(a) || combatSort(a, b))
    .map((c) => c.id ?? "?");
}

/** The combatant id of an actor in a client's copy of the encounter. */
export function idOf(client: SimClient, key: ActorKey): string {
  const c = combatOn(client).combatants.find((x) => x.actorId === ACTOR[key]);
  if (!c?.id) throw new Error(`no combatant for ${key}`);
  return c.id;
}

/** The names in `combat.turns` on a client, and who acts now. */
export function turnsOn(client: SimClient): { order: string[]; current: string | null; round: number } {
  const combat = combatOn(client);
  return {
    order: combat.turns.map((c) => c.name),
    current: combat.combatant?.name ?? null,
    round: combat.round,
  };
}

/** Every client shows the same order, current combatant and round. */
export function expectAgreement(sim: Sim): void {
  const gm = turnsOn(sim.gm);
  for (const client of sim.clients) expect(turnsOn(client), client.userId).toEqual(gm);
}

/** The module API on a client. */
export function apiOn(client: SimClient): Api {
  return client.game.modules.get("structured-initiative")?.api as Api;
}

/** The parts of the module API the tests call. */
export interface Api {
  command(combat: SimCombat, command: unknown): Promise<{ ok: boolean; code?: string }>;
  setMode(combat: SimCombat, mode: string): Promise<{ ok: boolean; code?: string }>;
  rollInitiative(combat: SimCombat, ids: string[]): Promise<{ ok: boolean; code?: string }[]>;
  groupCombatants(combat: SimCombat, ids: string[], groupId: string): Promise<{ ok: boolean; code?: string }[]>;
  rollOffs(combat: SimCombat): Promise<{ ok: boolean; code?: string }[]>;
  view(
    combat: SimCombat,
  ): { round: number; step: string; order: string[]; current: string | null; next: string | null } | null;
  allowed(combat: SimCombat): { type: string; combatantId?: string }[];
  isCorrupted(combat: SimCombat): boolean;
  resetEncounter(combat: SimCombat): Promise<{ ok: boolean; code?: string }>;
  modeOf(combat: SimCombat): string;
  modes: readonly string[];
  setSlotsSkill(combat: SimCombat, combatantId: string, skill: string): Promise<{ ok: boolean; code?: string }>;
}

// ---------------------------------------------------------------------------------------------
// Shared helpers of the integration suites

const EN = JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, "lang/en.json"), "utf8")) as {
  STRUCTURED_INITIATIVE: { Refusal: Record<string, string>; Notice: Record<string, string> };
};

/** The players' notices ("your turn" …) as patterns of their English texts; `notices.test.ts` checks them. */
const NOTICES = Object.values(EN.STRUCTURED_INITIATIVE.Notice).map(
  (text) => new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{name\}/g, ".+")}$`),
);

/** Whether a notification is one of the players' notices (an info toast, not a message about an action). */
export function isNotice(n: { type: string; message: string }): boolean {
  return n.type === "info" && NOTICES.some((pattern) => pattern.test(n.message));
}

/** The English text of a refusal, as en.json words it (`{name}` filled in). */
export function refusalText(code: string, name = ""): string {
  const text = EN.STRUCTURED_INITIATIVE.Refusal[code];
  if (text === undefined) throw new Error(`en.json has no refusal "${code}"`);
  return text.replace("{name}", name);
}

/** The server's stored encounter document, byte for byte. */
export function serverCombatJson(sim: Sim): string {
  return JSON.stringify(sim.server.world.combats[0]);
}

/** The server's stored encounter document. */
export function serverCombat(sim: Sim): JsonObject {
  const combat = sim.server.world.combats[0];
  if (!combat) throw new Error("no combat on the server");
  return combat;
}

/** The texts of a client's notifications, without the players' notices (those are tested on their own). */
export function messagesOn(client: SimClient): string[] {
  return client.notifications.filter((n) => !isNotice(n)).map((n) => n.message);
}

/**
 * Roll initiative on the GM for these actors with exact d20 faces (in the same order), then let
 * every client catch up.
 */
export async function rollAs(sim: Sim, faces: Partial<Record<ActorKey, number>>): Promise<void> {
  const keys = Object.keys(faces) as ActorKey[];
  sim.dice.push(...keys.map((k) => faces[k] ?? 1));
  await combatOn(sim.gm).rollInitiative(keys.map((k) => idOf(sim.gm, k)));
  await sim.settle();
}

/** The GM starts the encounter; every client catches up. */
export async function start(sim: Sim, surprise = false): Promise<void> {
  if (surprise) await apiOn(sim.gm).command(combatOn(sim.gm), { type: "start", surprise: true });
  else await combatOn(sim.gm).startCombat();
  await sim.settle();
}

/** A player's client by user id. */
export function player(sim: Sim, userId: string): SimClient {
  return sim.client(userId);
}

/** No client recorded an error. */
export function expectNoErrors(sim: Sim): void {
  for (const c of sim.clients) expect(c.errors, c.userId).toEqual([]);
}

/** The individual state stored on a client's copy of the encounter (decoded from its flag). */
export function stateOn(client: SimClient): IndividualState {
  const stored = combatOn(client).getFlag("structured-initiative", "encounter") as { state: Json } | undefined;
  if (stored === undefined) throw new Error("no stored encounter");
  return decodeArrays(stored.state) as unknown as IndividualState;
}

/** Stored initiative results by combatant name. */
export function initiativesOn(client: SimClient): Record<string, number | null> {
  return Object.fromEntries(stateOn(client).combatants.map((c) => [c.name, c.initiative]));
}

/** A roll as a chat message stores it (Foundry keeps each roll as JSON text in `message.rolls`). */
export interface StoredRoll {
  formula: string;
  total: number;
  terms: { results?: { result: number }[] }[];
}

/** The rolls a chat message holds, parsed. */
export function rollsOf(message: JsonObject): StoredRoll[] {
  const list = Array.isArray(message.rolls) ? message.rolls : [];
  return list.map((r) => (typeof r === "string" ? JSON.parse(r) : r) as StoredRoll);
}

/** Every chat message the server holds, oldest first. */
export function chat(sim: Sim): JsonObject[] {
  return sim.server.world.messages;
}

/** The GM sets a world setting of the module; every client has it after. */
export async function setWorld(sim: Sim, key: string, value: unknown): Promise<void> {
  await sim.gm.game.settings.set("structured-initiative", key, value);
  await sim.settle();
}
