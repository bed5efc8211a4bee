/**
 * Conformance kit of the `sides` mode: side rolls, tied sides, declarations, passes, reactions and
 * slowing down from the GM, owners and strangers (the generators of `test/rules/sides.property.test.ts`,
 * cut down), and the sides world (sides from token dispositions, traits from the actors) in the
 * simulated Foundry.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { passOrder, slowedWaiting } from "../../../src/modes/sides/rules/derived";
import { sidesMode } from "../../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../../src/modes/sides/rules/types";
import { variant } from "../../rules/property-harness";
import {
  CODES,
  declareCounts,
  sidesActions,
  sidesCommandFor,
  sidesCommands,
  type SidesAction,
} from "../../rules/sides-commands";
import { apiOn, combatOn } from "../../integration/world.js";
import { sidesEncounter, sidesOn, sidesWorld } from "../../integration/sides-world.js";
import { defineKit, rosterOf } from "../kit";

/** Three sides; everyone seated by joining order, with traits that make ties likely. */
function* setup(state: SidesState): Iterable<SidesCommand> {
  for (const sideId of ["s0", "s1", "s2"]) yield { type: "defineSide", sideId, name: sideId, colour: "#777" };
  for (const [i, c] of state.combatants.entries()) {
    yield { type: "setSide", combatantId: c.id, sideId: `s${i % 3}` };
    const code = (n: number): string => CODES[n % CODES.length] ?? "2D";
    yield {
      type: "setTraits",
      combatantId: c.id,
      dexterity: code(i),
      perception: code(i + 1),
      initiativeScore: code(i),
    };
  }
}

/** A declaration steps forward in the declaration step; next turn in the passes. */
function steps(state: SidesState): SidesCommand[] {
  const current = sidesMode.view(state).current;
  if (state.step === "declaration" && current !== null) {
    return [{ type: "declare", combatantId: current, actions: [{ text: "x" }], forcePoint: false }];
  }
  return [{ type: "nextTurn" }];
}

/** In pass k, `done` is a prefix of the pass order, and who is still to act (or waits slowed) acts once. */
function invariants(state: SidesState): void {
  if (state.step !== "pass") return;
  expect(state.done).toEqual(passOrder(state).slice(0, state.done.length));
  const toAct = [
    ...passOrder(state).filter((id) => !state.done.includes(id)),
    ...slowedWaiting(state).map((e) => e.combatantId),
  ];
  const expected = state.declarations
    .filter((d) => !d.hesitated && d.actions.length >= state.pass && !state.done.includes(d.combatantId))
    .map((d) => d.combatantId);
  expect([...toAct].sort()).toEqual([...expected].sort());
  expect(new Set(toAct).size).toBe(toAct.length);
}

const CAST = ["ace", "jaluun", "officer", "trooper1", "trooper2"] as const;

export const kit = defineKit<SidesState, SidesCommand, SidesAction>({
  id: sidesMode.id,
  roster: fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }).map(rosterOf),
  setup,
  action: sidesActions(),
  resolve: sidesCommands,
  commandFor: sidesCommandFor,
  steps,
  invariants,
  sim: {
    world: (seed, extra) => sidesWorld({ seed, ...extra }),
    async begin(sim) {
      await sidesEncounter(sim, CAST);
      const combat = combatOn(sim.gm);
      const api = apiOn(sim.gm);
      await api.command(combat, { type: "start" });
      await sim.settle();
      for (const [i, side] of sidesOn(sim.gm).sides.entries()) {
        await api.command(combat, { type: "recordSideRoll", sideId: side.id, total: 10 + i });
      }
      await sim.settle();
    },
    // Declarations move a round on: the simulation declares in turn more often.
    action: sidesActions({ roster: false, extra: [variant("declareAll", { counts: declareCounts }, 5)] }),
  },
});
