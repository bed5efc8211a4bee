/** A refusal's message values travel from the rules to the requester, narrowed like any untrusted data. */
import { describe, expect, it } from "vitest";
import { refusalDetail } from "../../src/core/protocol";

describe("refusalDetail", () => {
  it("keeps a refusal's own numbers and short strings, not its code or combatant", () => {
    expect(
      refusalDetail({ code: "apOverBudget", combatantId: "c1", total: 6, available: 5, names: "Dodge, Melee" }),
    ).toEqual({
      total: 6,
      available: 5,
      names: "Dodge, Melee",
    });
  });

  it("is null without values, and drops what a forged message could smuggle in", () => {
    expect(refusalDetail({ code: "notGM" })).toBeNull();
    expect(refusalDetail(null)).toBeNull();
    expect(refusalDetail("total")).toBeNull();
    expect(
      refusalDetail({ total: Number.NaN, big: "x".repeat(201), nested: { a: 1 }, "bad key": 1, __proto__: { x: 1 } }),
    ).toBeNull();
  });
});
