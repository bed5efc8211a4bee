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
 *   engine's `applyCommand`) gives back an equal encounter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Requester } from "../../src/core/engine";
import { eligibleFillers } from "../../src/modes/slots/rules/derived";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import { type SlotsCommand, type SlotsState } from "../../src/modes/slots/rules/types";
import { parseSlotsState } from "../../src/modes/slots/rules/state";
import {
  GM,
  ModeRun,
  T as t,
  deepFreeze,
  expectStepBack,
  freshIds,
  perRoundTally,
  pickId,
  requester,
  senders,
  variant,
  type By,
} from "./property-harness";

type Action =
  | { k: "check"; t: number; p: number; s: number; by: By }
  | { k: "begin"; scores: readonly number[] }
  | { k: "start"; by: By }
  | { k: "claim"; slot: number; t: number; by: By }
  | { k: "release"; slot: number; by: By }
  | { k: "fill"; current: boolean; slot: number; t: number; by: By }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number }
  | { k: "defeat"; t: number; v: boolean }
  | { k: "keep"; pc: boolean; npc: boolean };

const by = senders(["gm", "gm", "owner", "owner", "other"]);
const slot = fc.nat(12);
const score = fc.integer({ min: -1, max: 3 });
const action: fc.Arbitrary<Action> = fc.oneof(
  variant("check", { t, p: score, s: score, by }, 3),
  variant("begin", { scores: fc.array(score, { minLength: 8, maxLength: 8 }) }, 4),
  variant("start", { by }, 1),
  variant("claim", { slot, t, by }, 6),
  variant("release", { slot, by }, 3),
  variant("fill", { current: fc.boolean(), slot, t, by }, 8),
  variant("next", { by }, 7),
  variant("nextRound", { by }, 1),
  variant("add", { isPC: fc.boolean() }, 1),
  variant("remove", { t }, 1),
  variant("defeat", { t, v: fc.boolean() }, 2),
  variant("keep", { pc: fc.boolean(), npc: fc.boolean() }, 1),
);

/** A combatant id from a number: mostly a live one, sometimes a stranger. */
function pick(state: SlotsState, n: number): string {
  const ids = state.combatants.map((c) => c.id);
  return pickId(ids, n, 11);
}

function filler(state: SlotsState): string | null {
  return state.slotIndex === null ? null : (state.slots[state.slotIndex]?.filledBy ?? null);
}

/** Turn an abstract action into one command and its sender, against the current state. */
function resolve(
  state: SlotsState,
  a: Exclude<Action, { k: "begin" }>,
  fresh: () => string,
): [SlotsCommand, Requester] {
  switch (a.k) {
    case "check": {
      const id = pick(state, a.t);
      return [{ type: "recordCheck", combatantId: id, primary: a.p, secondary: a.s }, requester(a.by, id)];
    }
    case "start":
      return [{ type: "start" }, requester(a.by, null)];
    case "claim": {
      // Mostly a PC that could claim, on a PC slot still to come, so that claims race for the same slots.
      const pcs = state.combatants.filter((c) => c.isPC);
      const id = a.t % 5 === 4 ? pick(state, a.t) : (pcs[a.t % Math.max(pcs.length, 1)]?.id ?? pick(state, a.t));
      const open = state.slots.flatMap((x, i) =>
        x.kind === "pc" && (state.slotIndex === null || i >= state.slotIndex) ? [i] : [],
      );
      const index = a.slot % 4 === 3 ? a.slot : (open[a.slot % Math.max(open.length, 1)] ?? a.slot);
      return [{ type: "claimSlot", slot: index, combatantId: id }, requester(a.by, id)];
    }
    case "release": {
      const claimed = state.slots.flatMap((x, i) => (x.claimedBy === null ? [] : [i]));
      const index = a.slot % 4 === 3 ? a.slot : (claimed[a.slot % Math.max(claimed.length, 1)] ?? a.slot);
      const claimant = state.slots[index]?.claimedBy ?? null;
      return [{ type: "releaseClaim", slot: index }, requester(a.by, claimant)];
    }
    case "fill": {
      const index = a.current && state.slotIndex !== null ? state.slotIndex : a.slot;
      const eligible = eligibleFillers(state, index);
      const id = a.t % 4 === 3 ? pick(state, a.t) : (eligible[a.t % Math.max(eligible.length, 1)] ?? pick(state, a.t));
      return [{ type: "fillSlot", slot: index, combatantId: id }, requester(a.by, id)];
    }
    case "next":
      return [{ type: "nextTurn" }, requester(a.by, filler(state))];
    case "nextRound":
      return [{ type: "nextRound" }, requester(a.by, null)];
    case "add":
      return [{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM];
    case "remove":
      return [{ type: "removeCombatant", combatantId: pick(state, a.t) }, GM];
    case "defeat":
      return [{ type: "setDefeated", combatantId: pick(state, a.t), defeated: a.v }, GM];
    case "keep":
      return [{ type: "setKeepSlots", keepSlots: { pc: a.pc, npc: a.npc } }, GM];
  }
}

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
        /** The GM rolls every missing check and starts. */
        const begin = (scores: readonly number[]): void => {
          run.state.combatants.forEach((c, i) => {
            if (c.check !== null) return;
            const primary = scores[i % scores.length] ?? 0;
            const secondary = scores[(i + 3) % scores.length] ?? 0;
            run.step({ type: "recordCheck", combatantId: c.id, primary, secondary }, GM);
          });
          run.step({ type: "start" }, GM);
        };
        for (const a of actions) {
          if (a.k === "begin") begin(a.scores);
          else run.step(...resolve(run.state, a, fresh));
        }
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
