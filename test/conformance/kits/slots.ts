/**
 * Conformance kit of the `slots` mode: checks, claims, releases, fills and turn changes from the GM,
 * owners and strangers (the generators it shares with `test/rules/slots.property.test.ts`, in
 * `test/rules/slots-commands.ts`), and a started encounter of the shared test world in the simulated
 * Foundry.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { eligibleFillers } from "../../../src/modes/slots/rules/derived";
import { slotsMode } from "../../../src/modes/slots/rules/mode";
import { type SlotsCommand, type SlotsState } from "../../../src/modes/slots/rules/types";
import { slotsActions, slotsCommandFor, slotsCommands, type SlotsAction } from "../../rules/slots-commands";
import { apiOn, combatOn, world } from "../../integration/world.js";
import { slotsEncounter } from "../../integration/slots-world.js";
import { defineKit, rosterOf } from "../kit";

/** PC slots hold PCs and NPC slots NPCs; nobody fills two slots; the current slot is never stuck. */
function invariants(state: SlotsState): void {
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  for (const s of state.slots) {
    expect(s.filledBy !== null && s.claimedBy !== null, "a slot both filled and claimed").toBe(false);
    for (const id of [s.filledBy, s.claimedBy]) {
      if (id !== null) expect(byId.get(id)?.isPC, `${s.kind} slot holds ${id}`).toBe(s.kind === "pc");
    }
  }
  const fillers = state.slots.flatMap((s) => (s.filledBy === null ? [] : [s.filledBy]));
  expect(new Set(fillers).size).toBe(fillers.length);
  expect([...state.acted].sort()).toEqual([...fillers].sort());
  if (state.started && state.slotIndex !== null) {
    const stuck =
      state.slots[state.slotIndex]?.filledBy === null && eligibleFillers(state, state.slotIndex).length === 0;
    expect(stuck, "the current slot is open and nobody can fill it").toBe(false);
  }
}

const CAST = ["aria", "brom", "officer", "trooper1", "trooper2"] as const;

export const kit = defineKit<SlotsState, SlotsCommand, SlotsAction>({
  id: slotsMode.id,
  roster: fc.array(fc.boolean(), { minLength: 0, maxLength: 7 }).map(rosterOf),
  action: slotsActions(),
  resolve: slotsCommands,
  commandFor: slotsCommandFor,
  invariants,
  sim: {
    world: (seed, extra) => world({ seed, ...extra }),
    async begin(sim) {
      await slotsEncounter(sim, CAST);
      const combat = combatOn(sim.gm);
      const api = apiOn(sim.gm);
      for (const [i, c] of combat.combatants.contents.entries()) {
        await api.command(combat, { type: "recordCheck", combatantId: c.id, primary: 5 - i, secondary: i % 2 });
      }
      await api.command(combat, { type: "start" });
      await sim.settle();
    },
    action: slotsActions({ roster: false }),
  },
});
