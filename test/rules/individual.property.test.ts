/**
 * Property test of the `individual` mode: random sequences of legal and illegal commands from the
 * GM, an owner and a non-owner, checking the mode's invariants after every step.
 *
 * Invariants checked:
 * - The stored order holds each live, rolled combatant at most once; together with the delaying
 *   combatants (who have left the order for now) and the joiners whose place waits on a roll-off it
 *   is exactly the live rolled combatants. Joiners that have not rolled are in none of them.
 * - Members of a group stand together in the order at the start.
 * - Each combatant takes at most one regular turn a round (counted from `turnStarted` events; the
 *   resumption of an interrupted turn is not a turn).
 * - A refusal leaves the state unchanged (every input is deep-frozen, and compared after).
 * - `view().next` is who acts after a next turn, and next turn then previous turn (through the
 *   engine's `applyToEncounter`) gives back an equal encounter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { individualMode } from "../../src/modes/individual/rules/mode";
import type { IndividualState } from "../../src/modes/individual/rules/types";
import { pendingRollOffs } from "../../src/modes/individual/rules/derived";
import { individualActions, individualCommands } from "./individual-commands";
import { ModeRun, expectStepBack, freshIds, perRoundTally } from "./property-harness";

const action = individualActions();

function checkOrder(state: IndividualState): void {
  const live = state.combatants.map((c) => c.id);
  const rolled = state.combatants.filter((c) => c.initiative !== null).map((c) => c.id);
  const view = individualMode.view(state);
  // The tracker order always shows every live combatant once.
  expect([...view.order].sort()).toEqual([...live].sort());
  if (!state.started) {
    expect(state.order).toEqual([]);
    expect(state.current).toBeNull();
    return;
  }
  expect(new Set(state.order).size).toBe(state.order.length);
  const delaying = state.delaying.map((d) => d.combatantId);
  const awaitingRollOff = pendingRollOffs(state).flatMap((set) => set.filter((id) => !state.order.includes(id)));
  for (const id of state.order) expect(rolled).toContain(id);
  for (const id of delaying) expect(state.order).not.toContain(id);
  expect([...new Set([...state.order, ...delaying, ...awaitingRollOff])].sort()).toEqual([...rolled].sort());
  if (state.current !== null) expect(state.order).toContain(state.current);
  for (const id of state.flatFooted) expect(live).toContain(id);
}

function checkGroupsAdjacent(state: IndividualState): void {
  for (const c of state.combatants) {
    if (c.groupId === null) continue;
    const positions = state.order
      .map((id, i) => (state.combatants.find((x) => x.id === id)?.groupId === c.groupId ? i : -1))
      .filter((i) => i >= 0);
    const first = positions[0] ?? 0;
    expect(positions).toEqual(positions.map((_, i) => first + i));
  }
}

function checkUndo(state: IndividualState): void {
  expectStepBack(individualMode, state, { type: "nextTurn" }, (after) => {
    expect(after.current).toBe(individualMode.view(state).next);
  });
}

describe("individual mode: invariants under random command sequences", () => {
  it("holds after every step", () => {
    const roster = fc.array(fc.boolean(), { minLength: 0, maxLength: 6 });
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 80, size: "medium" }), (pcs, actions) => {
        const fresh = freshIds();
        const turnsTaken = perRoundTally("turnStarted");
        const people = pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC }));
        const run = new ModeRun(individualMode, individualMode.create(people), {
          accepted: ({ events }) => {
            for (const { key, count } of turnsTaken(events)) expect(count, `a second turn in a round: ${key}`).toBe(1);
          },
          invariants: (state, command) => {
            checkOrder(state);
            if (command.type === "start") checkGroupsAdjacent(state);
            if (state.started) checkUndo(state);
          },
        });
        for (const a of actions) run.steps(individualCommands(a, () => run.state, fresh));
      }),
      { numRuns: 150 },
    );
  }, 30_000);
});
