/** The defeated mirror's sync: `setDefeated` commands from the combatants where the rules differ. */
import { describe, expect, it, vi } from "vitest";
import { individualMode } from "../../src/modes/individual/rules/mode";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import { individualModule } from "../../src/modes/individual/module";
import { sidesModule } from "../../src/modes/sides/module";
import { slotsModule } from "../../src/modes/slots/module";

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

describe("the defeated mirror's sync", () => {
  it("asks for setDefeated where the rules and isDefeated differ, both ways, in either mode", () => {
    const individual = individualMode.create(ROSTER);
    expect(individualModule.mirror?.sync?.(combatWith([false, true]), individual)).toEqual([
      { type: "setDefeated", combatantId: "aaaaaaaaaaaaaaa2", defeated: true },
    ]);
    const slots = slotsMode.create(ROSTER);
    const marked = { ...slots, combatants: slots.combatants.map((c) => ({ ...c, defeated: true })) };
    expect(slotsModule.mirror?.sync?.(combatWith([false, true]), marked)).toEqual([
      { type: "setDefeated", combatantId: "aaaaaaaaaaaaaaa1", defeated: false },
    ]);
    expect(individualModule.mirror?.sync?.(combatWith([false, false]), individual)).toEqual([]);
  });

  it("is part of the modes whose rules keep a defeated flag, and of no other", () => {
    expect(individualModule.mirror?.defeated).toBeTypeOf("function");
    expect(slotsModule.mirror?.defeated).toBeTypeOf("function");
    expect(sidesModule.mirror?.defeated).toBeUndefined();
  });
});
