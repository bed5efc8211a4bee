/**
 * Property test of what `slots` says a user may do (`slotsMode.allowed`). The rules try only the
 * claims and fills that could be taken now (an open slot that has not passed, by a combatant of its
 * kind) and try a claim, a fill, a removal or a defeat by its refusal check alone. Whatever the
 * state and whoever asks, that must give exactly the actions (and in the same order) that trying
 * every command on every combatant and every slot through `slotsMode.apply` gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedByTrial, probe, type Probe } from "../../src/core/common";
import type { Requester } from "../../src/core/engine";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import { type SlotsAllowedAction, type SlotsCommand, type SlotsState } from "../../src/modes/slots/rules/types";
import { GM, STRANGER } from "./property-harness";

type SlotsProbe = Probe<SlotsAllowedAction, SlotsCommand>;

/** Every command the tracker's controls stand for, on every combatant and every slot. */
function everyProbe(state: SlotsState): SlotsProbe[] {
  const on = (command: SlotsCommand, about?: Omit<SlotsAllowedAction, "type">): SlotsProbe => probe(command, about);
  const list: SlotsProbe[] = [
    on({ type: "start" }),
    on({ type: "nextTurn" }),
    on({ type: "nextRound" }),
    on({ type: "setKeepSlots", keepSlots: state.keepSlots }),
  ];
  for (const c of state.combatants) {
    const about = { combatantId: c.id };
    list.push(
      on({ type: "recordCheck", combatantId: c.id, primary: 0, secondary: 0 }, about),
      on({ type: "setDefeated", combatantId: c.id, defeated: !c.defeated }, about),
      on({ type: "removeCombatant", combatantId: c.id }, about),
    );
  }
  state.slots.forEach((slot, index) => {
    if (slot.claimedBy !== null)
      list.push(on({ type: "releaseClaim", slot: index }, { slot: index, combatantId: slot.claimedBy }));
    for (const c of state.combatants) {
      const about = { slot: index, combatantId: c.id };
      list.push(on({ type: "claimSlot", ...about }, about), on({ type: "fillSlot", ...about }, about));
    }
  });
  return list;
}

/** What `who` may do, found by applying every command. */
function byEveryTrial(state: SlotsState, who: Requester): SlotsAllowedAction[] {
  const given: SlotsAllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  return allowedByTrial(state, who, given, everyProbe(state), (s, command, w) => slotsMode.apply(s, command, w));
}

/** A step of a random encounter: which command of the candidates, by whom. */
interface Step {
  readonly pick: number;
  readonly by: number;
  readonly primary: number;
  readonly secondary: number;
}

const step: fc.Arbitrary<Step> = fc.record({
  pick: fc.nat(400),
  by: fc.nat(3),
  primary: fc.integer({ min: -1, max: 3 }),
  secondary: fc.integer({ min: -1, max: 2 }),
});

/**
 * The commands a step picks from: every probe `who` may take now (so that most steps move the
 * encounter on), checks with drawn scores, turn changes, a joiner and the slot keeping setting.
 */
function candidates(state: SlotsState, s: Step, who: Requester, joiner: string): SlotsCommand[] {
  return [
    ...everyProbe(state)
      .map((p) => p.command)
      .filter((command) => slotsMode.apply(state, command, who).ok),
    ...state.combatants.map((c): SlotsCommand => ({
      type: "recordCheck",
      combatantId: c.id,
      primary: s.primary,
      secondary: s.secondary,
    })),
    { type: "nextTurn" },
    { type: "nextTurn" },
    { type: "addCombatant", combatant: { id: joiner, name: joiner, isPC: s.primary % 2 === 0 } },
    { type: "setKeepSlots", keepSlots: { pc: s.secondary > 0, npc: s.secondary > 1 } },
  ];
}

/** Everyone's check from `scores`, then the start. */
function begin(state: SlotsState, scores: readonly number[]): SlotsState {
  let s = state;
  const commands: SlotsCommand[] = [
    ...s.combatants.map((c, i): SlotsCommand => ({
      type: "recordCheck",
      combatantId: c.id,
      primary: scores[i % scores.length] ?? 0,
      secondary: scores[(i + 2) % scores.length] ?? 0,
    })),
    { type: "start" },
  ];
  for (const command of commands) {
    const outcome = slotsMode.apply(s, command, GM);
    if (outcome.ok) s = outcome.state;
  }
  return s;
}

describe("slots: what a user may do", () => {
  it("is what trying every command on every combatant and slot gives, for the GM, an owner and a stranger", () => {
    const roster = fc.array(fc.boolean(), { minLength: 1, maxLength: 8 });
    const scores = fc.option(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 5, maxLength: 5 }), { freq: 4 });
    fc.assert(
      fc.property(roster, scores, fc.array(step, { minLength: 1, maxLength: 40 }), (pcs, start, steps) => {
        const fresh = slotsMode.create(pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC })));
        let state = start === null ? fresh : begin(fresh, start);
        for (const [k, s] of steps.entries()) {
          const ids = state.combatants.map((c) => c.id);
          const owner: Requester = { userId: "owner", isGM: false, owns: ids.filter((_, i) => i % 2 === 0) };
          for (const who of [GM, owner, STRANGER])
            expect(slotsMode.allowed(state, who)).toEqual(byEveryTrial(state, who));
          const by = s.by === 0 ? owner : GM;
          const list = candidates(state, s, by, `j${k}`);
          const command = list[s.pick % list.length];
          if (command === undefined) continue;
          const outcome = slotsMode.apply(state, command, by);
          if (outcome.ok) state = outcome.state;
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
