/** The narrative-dice seam of the `slots` glue: reading net successes and advantages from a roll. */
import { describe, expect, it } from "vitest";
import { clampScore, readSymbols, symbolRollClass } from "../../src/modes/slots/dice";
import { SLOTS_PRESETS, slotsPresetFor } from "../../src/modes/slots/settings";

describe("readSymbols", () => {
  it("reads the Star Wars FFG roll's cancelled counts (RollFFG#ffg) as net successes and advantages", () => {
    const roll = { ffg: { success: 2, failure: 0, advantage: 0, threat: 1, triumph: 1, despair: 0 } };
    expect(readSymbols(roll)).toEqual({ primary: 2, secondary: -1 });
  });

  it("reads netSuccess / netAdvantage when a roll exposes them", () => {
    expect(readSymbols({ netSuccess: 1, netAdvantage: 3 })).toEqual({ primary: 1, secondary: 3 });
  });

  it("reads Genesys dice, whose results are labelled with symbol letters (a triumph is also a success)", () => {
    const labels: Record<number, string> = { 1: "s", 2: "sa", 3: "t", 4: "f", 5: "h", 6: "aa" };
    const die = (faces: number[]) => ({
      results: faces.map((result) => ({ result })),
      getResultLabel: (r: { result: number }) => labels[r.result] ?? "",
    });
    // s, sa, t | f, h, aa → successes 3 − 1 failure = 2; advantages 3 − 1 threat = 2.
    expect(readSymbols({ dice: [die([1, 2, 3]), die([4, 5, 6])] })).toEqual({ primary: 2, secondary: 2 });
  });

  it("a plain roll, or one with unreadable counts, has no symbols", () => {
    expect(readSymbols({ total: 7 })).toBeNull();
    expect(readSymbols({ ffg: { success: "2", advantage: 1 } })).toBeNull();
    expect(readSymbols(null)).toBeNull();
    expect(readSymbols({ dice: [{ results: [{ result: 3 }] }] })).toBeNull();
  });
});

describe("symbolRollClass", () => {
  it("finds RollFFG among the registered roll classes, else keeps the fallback", () => {
    class RollFFG {
      readonly ffg = {};
    }
    class Other {
      readonly total = 0;
    }
    expect(symbolRollClass([Other, RollFFG], Other)).toBe(RollFFG);
    expect(symbolRollClass([Other], Other)).toBe(Other);
    expect(symbolRollClass(undefined, Other)).toBe(Other);
  });
});

describe("scores and presets", () => {
  it("clamps scores into the rules' range as integers", () => {
    expect([clampScore(2.7), clampScore(5000), clampScore(-5000)]).toEqual([2, 999, -999]);
  });

  it("picks the FFG preset for starwarsffg and genesys, the generic one elsewhere", () => {
    expect(slotsPresetFor("starwarsffg").scoring).toBe("symbols");
    expect(slotsPresetFor("genesys").scoring).toBe("symbols");
    expect(slotsPresetFor("dnd5e")).toEqual(SLOTS_PRESETS.generic);
    expect(SLOTS_PRESETS.generic).toEqual({ cool: "1d6", vigilance: "1d6", secondary: "1d6", scoring: "totals" });
  });
});
