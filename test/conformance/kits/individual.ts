/**
 * Conformance kit of the `individual` mode: checks, groups, roll-offs, surprise, turns, delay and
 * ready from the GM, owners and strangers (the generators it shares with
 * `test/rules/individual.property.test.ts`, in `test/rules/individual-commands.ts`), and a started
 * encounter of the shared test world in the simulated Foundry.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { individualMode } from "../../../src/modes/individual/rules/mode";
import type { IndividualCommand, IndividualState } from "../../../src/modes/individual/rules/types";
import { pendingRollOffs } from "../../../src/modes/individual/rules/derived";
import {
  individualActions,
  individualCommandFor,
  individualCommands,
  type IndividualAction,
} from "../../rules/individual-commands";
import { apiOn, combatOn, encounter, world } from "../../integration/world.js";
import { defineKit, rosterOf } from "../kit";

/** The stored order, the delaying and the joiners whose place waits on a roll-off are the rolled combatants. */
function invariants(state: IndividualState): void {
  if (!state.started) {
    expect(state.order).toEqual([]);
    expect(state.current).toBeNull();
    return;
  }
  const rolled = state.combatants.filter((c) => c.initiative !== null).map((c) => c.id);
  const delaying = state.delaying.map((d) => d.combatantId);
  const awaiting = pendingRollOffs(state).flatMap((set) => set.filter((id) => !state.order.includes(id)));
  expect(new Set(state.order).size).toBe(state.order.length);
  for (const id of delaying) expect(state.order).not.toContain(id);
  expect([...new Set([...state.order, ...delaying, ...awaiting])].sort()).toEqual([...rolled].sort());
  if (state.current !== null) expect(state.order).toContain(state.current);
}

const CAST = ["aria", "brom", "officer", "trooper1", "trooper2"] as const;

export const kit = defineKit<IndividualState, IndividualCommand, IndividualAction>({
  id: individualMode.id,
  roster: fc.array(fc.boolean(), { minLength: 0, maxLength: 6 }).map(rosterOf),
  action: individualActions(),
  resolve: individualCommands,
  commandFor: individualCommandFor,
  invariants,
  sim: {
    world: (seed, extra) => world({ seed, ...extra }),
    async begin(sim) {
      await encounter(sim, CAST);
      const combat = combatOn(sim.gm);
      const api = apiOn(sim.gm);
      // Distinct totals, one tie broken by the modifier: no roll-off needed.
      for (const [i, c] of combat.combatants.contents.entries()) {
        await api.command(combat, { type: "recordInitiative", combatantId: c.id, total: 20 - 2 * i, modifier: 0 });
      }
      await api.command(combat, { type: "start", surprise: false });
      await sim.settle();
    },
    action: individualActions({ roster: false }),
  },
});
