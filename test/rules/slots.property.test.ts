/**
 * Property test of the `slots` mode: random interleavings of checks, claims, releases, fills (by the
 * GM, an owner or a non-owner), turn changes, joins, defeats and removals, checking the mode's
 * invariants after every step.
 *
 * Invariants checked:
 * - A refusal leaves the state unchanged (every input is deep-frozen, and compared after).
 * - No combatant fills two slots in a round (counted from `slotFilled` events); a fill only ever
 *   takes an open slot.
 * - PC slots only hold PCs and NPC slots only NPCs, filled or claimed.
 * - The state is consistent (`parseSlotsState` accepts it), the view lists every combatant once, and
 *   the current slot is never stuck: it is filled, or someone can still fill it.
 * - `view().next` is who acts after a next turn, and next turn then previous turn (through the
 *   engine's `applyToEncounter`) gives back an equal encounter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eligibleFillers } from "../../src/modes/slots/rules/derived";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import { type SlotsState } from "../../src/modes/slots/rules/types";
import { parseSlotsState } from "../../src/modes/slots/rules/state";
import { GM, ModeRun, deepFreeze, expectStepBack, freshIds, perRoundTally, requester } from "./property-harness";
import { slotsActions, slotsCommands } from "./slots-commands";

/** Wider draws than the conformance kit's: slot numbers up to 12, eight scores for a `begin`. */
const action = slotsActions({ maxSlot: 12, scores: 8 });

function checkState(state: SlotsState): void {
  expect(parseSlotsState(structuredClone(state))).toEqual(state);
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  for (const s of state.slots) {
    for (const id of [s.filledBy, s.claimedBy]) {
      if (id === null) continue;
      expect(byId.get(id)?.isPC, `${s.kind} slot holds ${id}`).toBe(s.kind === "pc");
    }
  }
  const fillers = state.slots.flatMap((s) => (s.filledBy === null ? [] : [s.filledBy]));
  expect(new Set(fillers).size).toBe(fillers.length);
  const order = slotsMode.view(state).order;
  expect([...order].sort()).toEqual(state.combatants.map((c) => c.id).sort());
  if (state.started && state.slotIndex !== null) {
    const current = state.slots[state.slotIndex];
    const stuck = current?.filledBy === null && eligibleFillers(state, state.slotIndex).length === 0;
    expect(stuck, "the current slot is open and nobody can fill it").toBe(false);
  }
}

function checkUndo(state: SlotsState): void {
  expectStepBack(slotsMode, state, { type: "nextTurn" }, (after) => {
    expect(slotsMode.view(after).current).toBe(slotsMode.view(state).next);
  });
}

describe("slots mode: invariants under random interleavings", () => {
  it("holds after every step", () => {
    const roster = fc.array(fc.boolean(), { minLength: 0, maxLength: 7 });
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 70, size: "medium" }), (pcs, actions) => {
        const fresh = freshIds();
        const fills = perRoundTally("slotFilled");
        const people = pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC }));
        const run = new ModeRun(slotsMode, slotsMode.create(people), {
          accepted: ({ command, before, events }) => {
            if (command.type === "fillSlot") expect(before.slots[command.slot]?.filledBy).toBeNull();
            for (const { key, count } of fills(events)) expect(count, `a second slot in a round: ${key}`).toBe(1);
          },
          invariants: (state) => {
            checkState(state);
            if (state.started) checkUndo(state);
          },
        });
        for (const a of actions) run.steps(slotsCommands(a, () => run.state, fresh));
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});

describe("races: players claiming the same slot at the same moment", () => {
  it("exactly one claim wins, in whatever order they arrive; every other player is told who holds it", () => {
    const ids = ["p0", "p1", "p2", "p3"];
    let s = slotsMode.create([...ids.map((id) => ({ id, name: id, isPC: true })), { id: "n", name: "N", isPC: false }]);
    for (const [i, id] of [...ids, "n"].entries()) {
      const outcome = slotsMode.apply(s, { type: "recordCheck", combatantId: id, primary: 5 - i, secondary: 0 }, GM);
      if (!outcome.ok) throw new Error(outcome.refusal.code);
      s = outcome.state;
    }
    const started = slotsMode.apply(s, { type: "start" }, GM);
    if (!started.ok) throw new Error(started.refusal.code);
    const battle = deepFreeze(started.state); // PC slots 0-3 (0 current), NPC slot 4
    fc.assert(
      fc.property(fc.shuffledSubarray(ids, { minLength: 2 }), fc.integer({ min: 0, max: 3 }), (order, slot) => {
        let state = battle;
        const results = order.map((id) => {
          const outcome = slotsMode.apply(state, { type: "claimSlot", slot, combatantId: id }, requester("owner", id));
          if (outcome.ok) state = outcome.state;
          return outcome;
        });
        const winners = results.filter((o) => o.ok);
        expect(winners).toHaveLength(1);
        const holder = state.slots[slot]?.filledBy ?? state.slots[slot]?.claimedBy;
        expect(holder).toBe(order[0]);
        for (const o of results.slice(1)) {
          // A later slot is claimed by the first, the current one filled at once.
          const code = slot === battle.slotIndex ? "slotTaken" : "slotClaimed";
          expect(o).toEqual({ ok: false, refusal: { code, combatantId: order[0] } });
        }
      }),
      { numRuns: 100 },
    );
  });
});
