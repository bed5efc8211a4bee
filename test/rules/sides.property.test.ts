/**
 * Property test of the `sides` mode: random sequences of legal and illegal commands from the GM, an
 * owner and a non-owner, checking the mode's invariants after every step.
 *
 * Invariants checked:
 * - A refusal leaves the state unchanged (every input is deep-frozen, and compared after).
 * - Each character takes (or loses) at most its declared actions in a round (counted from
 *   `actionTaken` and `slowedActionLost` events), and `actionsTaken` never exceeds its declared
 *   actions plus its reactions.
 * - In pass k, the pass order still to act plus the slowed characters waiting is exactly the set of
 *   characters with at least k declared actions that have not acted in this pass; `done` is a
 *   prefix of the pass order.
 * - The tracker order shows every combatant once; the stored state passes `parseSidesState`.
 * - Next turn (or the current declaration) then previous turn, through the engine's `applyToEncounter`,
 *   gives back an equal encounter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { actionsTaken, declarationOf, slowedWaiting, passOrder } from "../../src/modes/sides/rules/derived";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../src/modes/sides/rules/types";
import { parseSidesState } from "../../src/modes/sides/rules/state";
import { GM, ModeRun, expectStepBack, freshIds, perRoundTally } from "./property-harness";
import { created, roster, setupCommands, sidesActions, sidesCommands } from "./sides-commands";

/** The kit's actions with trait changes. */
const action = sidesActions({ traits: true });

function checkState(state: SidesState): void {
  expect(parseSidesState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  const view = sidesMode.view(state);
  expect([...view.order].sort()).toEqual(state.combatants.map((c) => c.id).sort());
  for (const d of state.declarations) {
    const declared = d.hesitated ? 0 : d.actions.length;
    expect(actionsTaken(state, d.combatantId)).toBeLessThanOrEqual(declared + d.reactions.length);
  }
  if (state.step !== "pass") return;
  const k = state.pass;
  expect(state.done).toEqual(passOrder(state).slice(0, state.done.length));
  const toAct = [
    ...passOrder(state).filter((id) => !state.done.includes(id)),
    ...slowedWaiting(state).map((e) => e.combatantId),
  ];
  const expected = state.declarations
    .filter((d) => !d.hesitated && d.actions.length >= k && !state.done.includes(d.combatantId))
    .map((d) => d.combatantId);
  expect([...toAct].sort()).toEqual([...expected].sort());
  expect(new Set(toAct).size).toBe(toAct.length);
  expect(view.current).toBe(passOrder(state).find((id) => !state.done.includes(id)) ?? null);
}

function checkUndo(state: SidesState): void {
  const view = sidesMode.view(state);
  let command: SidesCommand | null = null;
  if (state.step === "pass") command = { type: "nextTurn" };
  if (state.step === "declaration" && view.current !== null) {
    command = { type: "declare", combatantId: view.current, actions: [{ text: "x" }], forcePoint: false };
  }
  if (command === null) return;
  const isNextTurn = command.type === "nextTurn";
  expectStepBack(sidesMode, state, command, (after) => {
    if (isNextTurn && after.round === state.round) expect(sidesMode.view(after).current).toBe(view.next);
  });
}

describe("sides mode: invariants under random command sequences", () => {
  it("holds after every step", () => {
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 60 }), (people, actions) => {
        const fresh = freshIds();
        let state = created(people);
        for (const command of setupCommands(people)) {
          const outcome = sidesMode.apply(state, command, GM);
          if (outcome.ok) state = outcome.state;
        }
        /** Declared actions taken or lost, per "round:id" (reactions are extra actions, counted apart). */
        const taken = perRoundTally("actionTaken", "slowedActionLost");
        const run = new ModeRun(sidesMode, state, {
          accepted: ({ before, events }) => {
            for (const { key, combatantId, count } of taken(events)) {
              const d = declarationOf(before, combatantId);
              const declared = d === undefined || d.hesitated ? 0 : d.actions.length;
              expect(count, `more actions than declared: ${key}`).toBeLessThanOrEqual(declared);
            }
          },
          invariants: (reached) => {
            checkState(reached);
            if (reached.started) checkUndo(reached);
          },
        });
        for (const a of actions) {
          run.steps(sidesCommands(a, () => run.state, fresh));
        }
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});
