/**
 * Star Wars FFG's initiative pool as the system builds it (`src/modes/slots/rules/pools.ts`; StarWarsFFG
 * 2.0.3 `modules/combat-ffg.js` `_getInitiativeFormula`, `modules/dice/pool.js` `upgrade` and
 * `renderDiceExpression`).
 */
import { describe, expect, it } from "vitest";
import { ffgInitiativePool, hasSkills } from "../../src/modes/slots/rules/pools";

const actor = (presence: unknown, cool: Record<string, unknown> | undefined) => ({
  characteristics: { Presence: { value: presence }, Willpower: { value: 1 } },
  skills: cool === undefined ? {} : { Cool: cool },
});

describe("ffgInitiativePool", () => {
  it.each([
    ["rank below the characteristic: the rank upgrades", 3, { rank: 2 }, "2dp+1da"],
    ["rank above it: an ability die added per extra rank", 1, { rank: 3 }, "1dp+2da"],
    ["untrained: the characteristic in ability dice", 2, { rank: 0 }, "2da"],
    ["boost, setback and force in that order", 2, { rank: 2, boost: 1, setback: 2, force: 1 }, "2dp+1db+2ds+1df"],
    ["counts read as parseInt does, a missing or bad one 0", "3", { rank: "1", boost: "x" }, "1dp+2da"],
  ])("%s", (_label, presence, cool, pool) => {
    expect(ffgInitiativePool(actor(presence, cool), "Cool")).toBe(pool);
  });

  it("no such skill, or nothing to roll: null", () => {
    expect(ffgInitiativePool(actor(2, undefined), "Cool")).toBeNull();
    expect(ffgInitiativePool(actor(0, { rank: 0 }), "Cool")).toBeNull();
  });

  it("Vigilance reads Willpower", () => {
    expect(
      ffgInitiativePool(
        { characteristics: { Willpower: { value: 3 } }, skills: { Vigilance: { rank: 1 } } },
        "Vigilance",
      ),
    ).toBe("1dp+2da");
  });

  it("a vehicle's data (no skills, no characteristics) has no skills", () => {
    expect(hasSkills({ stats: { speed: { value: 3 } } })).toBe(false);
    expect(hasSkills({ characteristics: { presence: 2 } })).toBe(true);
    expect(hasSkills(null)).toBe(false);
  });
});
