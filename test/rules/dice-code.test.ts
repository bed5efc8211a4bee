/**
 * D6 dice codes: "3D+2" is three dice and two pips; codes compare dice first, then pips.
 */
import { describe, expect, it } from "vitest";
import {
  addDiceCodes,
  compareDiceCodes,
  formatDiceCode,
  isDiceCode,
  multiplyDiceCode,
  normaliseDiceCode,
  parseDiceCode,
  presetInitiativeScore,
  subtractDiceCodes,
} from "../../src/core/dice-code";

const code = (text: string): { dice: number; pips: number } => {
  const parsed = parseDiceCode(text);
  if (parsed === null) throw new Error(`malformed: ${text}`);
  return parsed;
};

describe("parsing dice codes", () => {
  it.each([
    ["3D+2", { dice: 3, pips: 2 }],
    ["4D", { dice: 4, pips: 0 }],
    ["2D-1", { dice: 2, pips: -1 }],
    ["3d+1", { dice: 3, pips: 1 }],
    [" 5D + 2 ", { dice: 5, pips: 2 }],
    ["0D+2", { dice: 0, pips: 2 }],
    ["0D", { dice: 0, pips: 0 }],
    ["12D", { dice: 12, pips: 0 }],
    ["3D+0", { dice: 3, pips: 0 }],
  ])("reads %s", (text, expected) => {
    expect(parseDiceCode(text)).toEqual(expected);
    expect(isDiceCode(text)).toBe(true);
  });

  it.each([
    ["no D", "3"],
    ["pips alone", "+2"],
    ["three pips make a die", "3D+3"],
    ["no dice count", "D+1"],
    ["a negative total", "0D-1"],
    ["negative dice", "-1D"],
    ["text after the code", "3D+2 bonus"],
    ["a roll formula, not a code", "3d6+2"],
    ["too many dice", "100D"],
    ["empty", ""],
    ["far too long", `${" ".repeat(20)}3D`],
  ])("rejects %s (%j)", (_rule, text) => {
    expect(parseDiceCode(text)).toBeNull();
    expect(isDiceCode(text)).toBe(false);
  });

  it.each([null, undefined, 3, {}, ["3D"]])("rejects non-text %j", (value) => {
    expect(parseDiceCode(value)).toBeNull();
  });

  it("formats the canonical way", () => {
    expect(formatDiceCode({ dice: 3, pips: 2 })).toBe("3D+2");
    expect(formatDiceCode({ dice: 4, pips: 0 })).toBe("4D");
    expect(formatDiceCode({ dice: 2, pips: -1 })).toBe("2D-1");
    expect(normaliseDiceCode("3d + 2")).toBe("3D+2");
    expect(normaliseDiceCode("3D+3")).toBeNull();
  });
});

describe("comparing dice codes: dice first, then pips", () => {
  it.each([
    ["4D", "3D+2", 1],
    ["3D+2", "3D+1", 1],
    ["3D", "3D", 0],
    ["2D-1", "1D+2", 1],
    ["3D-1", "3D", -1],
    ["0D+2", "1D", -1],
  ])("%s against %s → %i", (a, b, sign) => {
    expect(Math.sign(compareDiceCodes(code(a), code(b)))).toBe(sign);
    expect(Math.sign(compareDiceCodes(code(b), code(a)))).toBe(0 - sign || 0);
  });
});

describe("arithmetic: three pips make a die", () => {
  it.each([
    ["1D", 0, "0D"],
    ["1D", 1, "1D"],
    ["1D", 3, "3D"],
    ["0D+2", 2, "1D+1"],
    ["1D", -2, "0D"],
  ])("%s × %i = %s", (a, times, expected) => {
    expect(formatDiceCode(multiplyDiceCode(code(a), times))).toBe(expected);
  });

  it("adds with carry", () => {
    expect(formatDiceCode(addDiceCodes(code("2D+2"), code("0D+2")))).toBe("3D+1");
  });
});

describe("the D6 preset initiative score: the better of Perception and Tactics, Tactics only when ≥ 1D above its attribute", () => {
  it.each([
    { rule: "Tactics 1D above Perception counts", per: "3D", tactics: "4D", expected: "4D" },
    { rule: "Tactics only pips above Perception does not count", per: "3D+1", tactics: "4D", expected: "3D+1" },
    { rule: "Tactics exactly 1D above with pips counts", per: "3D+1", tactics: "4D+1", expected: "4D+1" },
    { rule: "no Tactics: Perception", per: "2D+2", tactics: null, expected: "2D+2" },
    { rule: "a malformed Tactics does not count", per: "2D", tactics: "lots", expected: "2D" },
  ])("$rule", ({ per, tactics, expected }) => {
    expect(presetInitiativeScore(per, tactics)).toBe(expected);
  });

  it("Tactics filed under another attribute is measured against that attribute", () => {
    // Knowledge 2D, Tactics 3D+1 (1D+1 above Knowledge) beats Perception 3D.
    expect(presetInitiativeScore("3D", "3D+1", "2D")).toBe("3D+1");
    // Knowledge 3D, Tactics 3D+2: not 1D above its attribute.
    expect(presetInitiativeScore("3D", "3D+2", "3D")).toBe("3D");
  });

  it("a malformed Perception gives no score", () => {
    expect(presetInitiativeScore("three", "4D")).toBeNull();
  });
});

describe("wound penalties come off a dice code", () => {
  it.each([
    ["4D+1", "1D", "3D+1"],
    ["3D", "0D+2", "2D+1"],
    ["1D", "2D", "0D"],
  ])("%s less %s is %s (never below 0D)", (a, b, expected) => {
    const left = parseDiceCode(a);
    const right = parseDiceCode(b);
    if (left === null || right === null) throw new Error("bad code");
    expect(formatDiceCode(subtractDiceCodes(left, right))).toBe(expected);
  });
});
