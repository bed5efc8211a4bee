/**
 * The `phases` skill list (a world setting's text) and die sizes read from roll data.
 */
import { describe, expect, it } from "vitest";
import { dieSizeOf, parseSkillList } from "../../src/modes/phases/rules/skills";

describe("the skill list setting", () => {
  it.each([
    [
      "Melee = @skills.melee; Ranged=@skills.ranged",
      [
        ["Melee", "@skills.melee"],
        ["Ranged", "@skills.ranged"],
      ],
    ],
    [
      "Stealth: skillDice.stealth\nPresence = @a.b",
      [
        ["Stealth", "@skillDice.stealth"],
        ["Presence", "@a.b"],
      ],
    ],
    ["Melee = @x; melee = @y; = @z; Nothing; Bad = two words", [["Melee", "@x"]]],
    ["", []],
  ])("%j", (text, expected) => {
    expect(parseSkillList(text).map((s) => [s.name, s.path])).toEqual(expected);
  });

  it("keeps at most 40 skills", () => {
    const text = Array.from({ length: 50 }, (_, i) => `S${i} = @s.${i}`).join(";");
    expect(parseSkillList(text)).toHaveLength(40);
  });
});

describe("a die size from roll data", () => {
  it.each([
    [8, 8],
    ["8", 8],
    ["d10", 10],
    ["D6", 6],
    ["1d12", 12],
    [" d4 ", 4],
    ["d7", null],
    [20, null],
    ["2d6", null],
    ["", null],
    [null, null],
    [{ die: 8 }, null],
  ])("%j → %j", (value, expected) => {
    expect(dieSizeOf(value)).toBe(expected);
  });
});
