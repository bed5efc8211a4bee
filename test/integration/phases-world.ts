/**
 * Helpers of the `phases` integration suites: the shared test world (Aria is Alice's PC, Brom Bob's,
 * the rest foes) with skill dice on the PCs (Aria: Melee d8, Ranged d10, Stealth d6 as Luwe; Brom:
 * Presence d10 as Ballallanava), a `phases` encounter, commands from each client, skill rolls with
 * exact faces and the phases state as each client stores it.
 */
import { expect } from "vitest";
import type { CreateSimOptions, Sim, SimClient, SimCombat } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import { decodeArrays, type Json } from "../../src/core/patch.js";
import type { PhasesState } from "../../src/modes/phases/rules/types.js";
import { ACTORS, apiOn, combatOn, encounter, expectAgreement, idOf, world, type ActorKey } from "./world.js";

/** Skill dice of the PCs, by actor name. */
const SKILL_DICE: Record<string, JsonObject> = {
  Aria: { melee: "d8", ranged: "d10", stealth: "d6", athletics: 8 },
  Brom: { presence: "d10", athletics: "d8", melee: "1d6" },
};

/** The test world's actors with the PCs' skill dice. */
export const PHASES_ACTORS: JsonObject[] = ACTORS.map((a) => {
  const dice = typeof a.name === "string" ? SKILL_DICE[a.name] : undefined;
  return dice === undefined ? a : { ...a, system: { ...(a.system as JsonObject), skillDice: dice } };
});

/** The settings of the phases worlds: the skill list reads `@skillDice.<skill>`. */
export const PHASES_SETTINGS = {
  "structured-initiative.phasesSkills":
    "Athletics = @skillDice.athletics; Melee = @skillDice.melee; Ranged = @skillDice.ranged; " +
    "Stealth = @skillDice.stealth; Presence = @skillDice.presence",
};

/** A world for the phases suites. */
export function phasesWorld(extra: CreateSimOptions = {}): Promise<Sim> {
  return world({
    actors: PHASES_ACTORS,
    ...extra,
    settings: { ...PHASES_SETTINGS, ...(extra.settings ?? {}) },
  });
}

/** The GM creates a `phases` encounter holding these actors. */
export function phasesEncounter(sim: Sim, keys: readonly ActorKey[]): Promise<SimCombat> {
  return encounter(sim, keys, "phases");
}

/** The phases state stored on a client's copy of the encounter. */
export function phasesOn(client: SimClient): PhasesState {
  const stored = combatOn(client).getFlag("structured-initiative", "encounter") as { state: Json } | undefined;
  if (stored === undefined) throw new Error("no stored encounter");
  return decodeArrays(stored.state) as unknown as PhasesState;
}

/** A command result as the API returns it. */
export interface Result {
  ok: boolean;
  code?: string;
  combatantId?: string;
}

/** A command from a client (the GM's when `client` is the GM), then every client catches up. */
export async function send(sim: Sim, client: SimClient, command: Record<string, unknown>): Promise<Result> {
  const result = await apiOn(client).command(combatOn(client), command);
  await sim.settle();
  return result;
}

/** The phases part of the API on a client. */
interface PhasesApi {
  rollSkill(
    combat: SimCombat,
    combatantId: string,
    options: Record<string, unknown>,
  ): Promise<{ ok: boolean; code?: string; combatantId?: string }>;
}

/** Roll a skill from a client with exact faces (pushed to the server's dice first). */
export async function rollSkill(
  sim: Sim,
  client: SimClient,
  key: ActorKey,
  faces: readonly number[],
  options: Record<string, unknown> = {},
): Promise<Result> {
  sim.dice.push(...faces);
  const api = (apiOn(client) as unknown as { phases: PhasesApi }).phases;
  const result = await api.rollSkill(combatOn(client), idOf(client, key), options);
  await sim.settle();
  return result;
}

/** The GM declares an intent for a foe. */
export function declare(
  sim: Sim,
  foe: ActorKey,
  text: string,
  targets: readonly ActorKey[] = [],
  kind: "attack" | "other" = targets.length > 0 ? "attack" : "other",
): Promise<Result> {
  return send(sim, sim.gm, {
    type: "declareIntent",
    foeId: idOf(sim.gm, foe),
    text,
    kind,
    targets: targets.map((t) => idOf(sim.gm, t)),
  });
}

/** Every client stores the same state and shows the same turn; `combat.combatant` is the view's current. */
export function expectPhasesAgreement(sim: Sim): void {
  const state = phasesOn(sim.gm);
  for (const client of sim.clients) expect(phasesOn(client), client.userId).toEqual(state);
  const view = apiOn(sim.gm).view(combatOn(sim.gm));
  expect(combatOn(sim.gm).combatant?.id ?? null).toBe(view?.current ?? null);
  expectAgreement(sim);
}
