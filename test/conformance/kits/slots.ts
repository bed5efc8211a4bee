/**
 * Conformance kit of the `slots` mode: checks, claims, releases, fills and turn changes from the GM,
 * owners and strangers (the generators of `test/rules/slots.property.test.ts`, cut down), and a
 * started encounter of the shared test world in the simulated Foundry.
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { AllowedAction } from "../../../src/core/engine";
import { eligibleFillers } from "../../../src/modes/slots/rules/derived";
import { slotsMode } from "../../../src/modes/slots/rules/mode";
import { type SlotsAllowedAction, type SlotsCommand, type SlotsState } from "../../../src/modes/slots/rules/types";
import { GM, T as t, pickId, requester, senders, variant, type By } from "../../rules/property-harness";
import { apiOn, combatOn, world } from "../../integration/world.js";
import { slotsEncounter } from "../../integration/slots-world.js";
import { defineKit, rosterOf, type Sent } from "../kit";

type Action =
  | { k: "check"; t: number; p: number; s: number; by: By }
  | { k: "begin"; scores: readonly number[] }
  | { k: "start"; by: By }
  | { k: "claim"; slot: number; t: number; by: By }
  | { k: "release"; slot: number; by: By }
  | { k: "fill"; current: boolean; slot: number; t: number; by: By }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "defeat"; t: number; v: boolean }
  | { k: "keep"; pc: boolean; npc: boolean }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number };

const by = senders(["gm", "gm", "owner", "owner", "other"]);
const slot = fc.nat(8);
const score = fc.integer({ min: -1, max: 3 });

const play = [
  variant("check", { t, p: score, s: score, by }, 3),
  variant("begin", { scores: fc.array(score, { minLength: 6, maxLength: 6 }) }, 3),
  variant("start", { by }, 1),
  variant("claim", { slot, t, by }, 6),
  variant("release", { slot, by }, 3),
  variant("fill", { current: fc.boolean(), slot, t, by }, 8),
  variant("next", { by }, 7),
  variant("nextRound", { by }, 1),
  variant("defeat", { t, v: fc.boolean() }, 1),
  variant("keep", { pc: fc.boolean(), npc: fc.boolean() }, 1),
] as const;
const simAction: fc.Arbitrary<Action> = fc.oneof(...play);
const action: fc.Arbitrary<Action> = fc.oneof(
  ...play,
  variant("add", { isPC: fc.boolean() }, 1),
  variant("remove", { t }, 1),
);

function pick(state: SlotsState, n: number): string {
  return pickId(
    state.combatants.map((c) => c.id),
    n,
    11,
  );
}

function filler(state: SlotsState): string | null {
  return state.slotIndex === null ? null : (state.slots[state.slotIndex]?.filledBy ?? null);
}

function* resolve(a: Action, now: () => SlotsState, fresh: () => string): Iterable<Sent<SlotsCommand>> {
  const s = now();
  switch (a.k) {
    case "check": {
      const id = pick(s, a.t);
      yield [{ type: "recordCheck", combatantId: id, primary: a.p, secondary: a.s }, requester(a.by, id)];
      return;
    }
    case "begin":
      for (const [i, c] of s.combatants.entries()) {
        if (c.check !== null) continue;
        const primary = a.scores[i % a.scores.length] ?? 0;
        const secondary = a.scores[(i + 3) % a.scores.length] ?? 0;
        yield [{ type: "recordCheck", combatantId: c.id, primary, secondary }, GM];
      }
      yield [{ type: "start" }, GM];
      return;
    case "start":
      yield [{ type: "start" }, requester(a.by, null)];
      return;
    case "claim": {
      // Mostly a PC on a PC slot still to come, so that claims race for the same slots.
      const pcs = s.combatants.filter((c) => c.isPC);
      const id = a.t % 5 === 4 ? pick(s, a.t) : (pcs[a.t % Math.max(pcs.length, 1)]?.id ?? pick(s, a.t));
      const open = s.slots.flatMap((x, i) =>
        x.kind === "pc" && (s.slotIndex === null || i >= s.slotIndex) ? [i] : [],
      );
      const index = a.slot % 4 === 3 ? a.slot : (open[a.slot % Math.max(open.length, 1)] ?? a.slot);
      yield [{ type: "claimSlot", slot: index, combatantId: id }, requester(a.by, id)];
      return;
    }
    case "release": {
      const claimed = s.slots.flatMap((x, i) => (x.claimedBy === null ? [] : [i]));
      const index = a.slot % 4 === 3 ? a.slot : (claimed[a.slot % Math.max(claimed.length, 1)] ?? a.slot);
      yield [{ type: "releaseClaim", slot: index }, requester(a.by, s.slots[index]?.claimedBy ?? null)];
      return;
    }
    case "fill": {
      const index = a.current && s.slotIndex !== null ? s.slotIndex : a.slot;
      const eligible = eligibleFillers(s, index);
      const id = a.t % 4 === 3 ? pick(s, a.t) : (eligible[a.t % Math.max(eligible.length, 1)] ?? pick(s, a.t));
      yield [{ type: "fillSlot", slot: index, combatantId: id }, requester(a.by, id)];
      return;
    }
    case "next":
      yield [{ type: "nextTurn" }, requester(a.by, filler(s))];
      return;
    case "nextRound":
      yield [{ type: "nextRound" }, requester(a.by, null)];
      return;
    case "defeat":
      yield [{ type: "setDefeated", combatantId: pick(s, a.t), defeated: a.v }, GM];
      return;
    case "keep":
      yield [{ type: "setKeepSlots", keepSlots: { pc: a.pc, npc: a.npc } }, GM];
      return;
    case "add":
      yield [{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM];
      return;
    case "remove":
      yield [{ type: "removeCombatant", combatantId: pick(s, a.t) }, GM];
      return;
  }
}

function commandFor(state: SlotsState, action: AllowedAction): SlotsCommand | null {
  const id = action.combatantId ?? "";
  const index = (action as SlotsAllowedAction).slot;
  const c = state.combatants.find((x) => x.id === id);
  switch (action.type) {
    case "addCombatant":
      return { type: "addCombatant", combatant: { id: "kit-joiner", name: "Joiner", isPC: true } };
    case "removeCombatant":
      return { type: "removeCombatant", combatantId: id };
    case "setDefeated":
      return c === undefined ? null : { type: "setDefeated", combatantId: id, defeated: !c.defeated };
    case "setKeepSlots":
      return { type: "setKeepSlots", keepSlots: { pc: !state.keepSlots.pc, npc: state.keepSlots.npc } };
    case "recordCheck":
      return { type: "recordCheck", combatantId: id, primary: 2, secondary: 1 };
    case "start":
    case "nextTurn":
    case "nextRound":
      return { type: action.type };
    case "claimSlot":
    case "fillSlot":
      return index === undefined ? null : { type: action.type, slot: index, combatantId: id };
    case "releaseClaim":
      return index === undefined ? null : { type: "releaseClaim", slot: index };
    default:
      return null;
  }
}

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

export const kit = defineKit<SlotsState, SlotsCommand, Action>({
  id: slotsMode.id,
  roster: fc.array(fc.boolean(), { minLength: 0, maxLength: 7 }).map(rosterOf),
  action,
  resolve,
  commandFor,
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
    action: simAction,
  },
});
