/**
 * Helpers of the `slots` integration suites: a `slots` encounter in the shared test world (Aria is
 * Alice's PC, Brom Bob's, the rest NPCs), checks rolled with exact dice, and the slots state as each
 * client stores it.
 */
import { expect } from "vitest";
import type { Sim, SimClient, SimCombat } from "../sim/index.js";
import { decodeArrays, type Json } from "../../src/core/patch.js";
import type { SlotsState } from "../../src/modes/slots/rules/types.js";
import { combatOn, encounter, expectAgreement, idOf, type ActorKey } from "./world.js";

/** The GM creates a `slots` encounter holding these actors. */
export function slotsEncounter(sim: Sim, keys: readonly ActorKey[]): Promise<SimCombat> {
  return encounter(sim, keys, "slots");
}

/** The slots state stored on a client's copy of the encounter. */
export function slotsOn(client: SimClient): SlotsState {
  const stored = combatOn(client).getFlag("structured-initiative", "encounter") as { state: Json } | undefined;
  if (stored === undefined) throw new Error("no stored encounter");
  return decodeArrays(stored.state) as unknown as SlotsState;
}

/**
 * Roll checks on the GM with exact faces: `[primary, secondary]` per actor (the generic check is
 * `1d6` then `1d6`), in the order given.
 */
export async function rollChecks(sim: Sim, faces: Partial<Record<ActorKey, readonly [number, number]>>): Promise<void> {
  const keys = Object.keys(faces) as ActorKey[];
  for (const k of keys) sim.dice.push(...(faces[k] ?? [1, 1]));
  await combatOn(sim.gm).rollInitiative(keys.map((k) => idOf(sim.gm, k)));
  await sim.settle();
}

/** The slot list on a client: kind, scores and who filled or claimed each slot, by name. */
export function slotsTable(client: SimClient): string[] {
  const state = slotsOn(client);
  const name = (id: string | null): string => state.combatants.find((c) => c.id === id)?.name ?? "-";
  return state.slots.map(
    (s, i) =>
      `${i === state.slotIndex ? ">" : " "}${s.kind}:${s.primary}/${s.secondary} fill=${name(s.filledBy)} claim=${name(s.claimedBy)}`,
  );
}

/** The slots invariants that must hold in every stored state, and every client agrees. */
export function expectSlotsInvariants(sim: Sim): void {
  const state = slotsOn(sim.gm);
  const fillers = state.slots.flatMap((s) => (s.filledBy === null ? [] : [s.filledBy]));
  const claims = state.slots.flatMap((s) => (s.claimedBy === null ? [] : [s.claimedBy]));
  // No combatant twice in a round; no slot both filled and claimed; PC slots hold PCs.
  expect(new Set(fillers).size).toBe(fillers.length);
  expect(new Set(claims).size).toBe(claims.length);
  for (const s of state.slots) {
    expect(s.filledBy !== null && s.claimedBy !== null).toBe(false);
    for (const id of [s.filledBy, s.claimedBy]) {
      if (id === null) continue;
      const c = state.combatants.find((x) => x.id === id);
      expect(c?.isPC).toBe(s.kind === "pc");
    }
  }
  for (const id of claims) expect(fillers).not.toContain(id);
  expect([...state.acted].sort()).toEqual([...fillers].sort());
  // combat.combatant is the filler of the current slot (null while the slot is open).
  const current = state.slotIndex === null ? null : (state.slots[state.slotIndex]?.filledBy ?? null);
  expect(combatOn(sim.gm).combatant?.id ?? null).toBe(current);
  for (const client of sim.clients) expect(slotsOn(client), client.userId).toEqual(state);
  expectAgreement(sim);
}
