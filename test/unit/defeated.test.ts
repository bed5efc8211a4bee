/** The defeated mirror's sync: `setDefeated` commands from the combatants, none from unreadable state. */
import { describe, expect, it, vi } from "vitest";
import { syncDefeated } from "../../src/foundry/defeated";
import type { Json } from "../../src/core/patch";
import { individualMode } from "../../src/modes/individual/rules/individual";
import { slotsMode } from "../../src/modes/slots/rules/slots";

// The glue reads Foundry's `Hooks` when its modules load; the sync itself never calls it.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const ROSTER = [
  { id: "aaaaaaaaaaaaaaa1", name: "Aria", isPC: true },
  { id: "aaaaaaaaaaaaaaa2", name: "Officer", isPC: false },
];

/** A Combat as far as the sync reads it: its combatants' ids and `isDefeated`. */
function combatWith(defeated: readonly boolean[]): Combat.Implementation {
  const contents = ROSTER.map((entry, i) => ({ id: entry.id, isDefeated: defeated[i] === true }));
  return { combatants: { contents } } as unknown as Combat.Implementation;
}

const asJson = (state: unknown): Json => state as Json;

describe("syncDefeated", () => {
  it("asks for setDefeated where the rules and isDefeated differ, both ways, in either mode", () => {
    const individual = asJson(individualMode.create(ROSTER));
    expect(syncDefeated("individual", combatWith([false, true]), individual)).toEqual([
      { type: "setDefeated", combatantId: "aaaaaaaaaaaaaaa2", defeated: true },
    ]);
    const slots = slotsMode.create(ROSTER);
    const marked = asJson({ ...slots, combatants: slots.combatants.map((c) => ({ ...c, defeated: true })) });
    expect(syncDefeated("slots", combatWith([false, true]), marked)).toEqual([
      { type: "setDefeated", combatantId: "aaaaaaaaaaaaaaa1", defeated: false },
    ]);
    expect(syncDefeated("individual", combatWith([false, false]), individual)).toEqual([]);
  });

  it("yields nothing, and never throws, for unreadable state or another mode", () => {
    const combat = combatWith([true, true]);
    const valid = asJson(individualMode.create(ROSTER));
    for (const garbage of [null, "garbage", 42, [], {}, { combatants: "x" }, { combatants: [null] }]) {
      expect(syncDefeated("individual", combat, asJson(garbage))).toEqual([]);
      expect(syncDefeated("slots", combat, asJson(garbage))).toEqual([]);
    }
    expect(syncDefeated("slots", combat, valid)).toEqual([]);
    expect(syncDefeated("sides", combat, valid)).toEqual([]);
  });
});
