/** Shared helpers of the rules: looking up by id (searched or indexed) and building rosters once per id. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findById, oncePerId } from "../../src/core/common";

describe("findById", () => {
  it("finds what a search finds, for short and long lists alike (the first entry of a repeated id)", () => {
    const entry = fc.record({
      id: fc.constantFrom(...Array.from({ length: 40 }, (_, i) => `c${String(i)}`)),
      n: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 60 }), fc.integer({ min: 0, max: 45 }), (list, i) => {
        const id = `c${String(i)}`;
        expect(findById(list, id)).toBe(list.find((e) => e.id === id));
      }),
    );
  });
});

describe("oncePerId", () => {
  it("makes one entry per id, the first one, in roster order", () => {
    const roster = [{ id: "a" }, { id: "b" }, { id: "a" }, { id: "c" }];
    expect(oncePerId(roster, (e) => e.id.toUpperCase())).toEqual(["A", "B", "C"]);
  });

  it("keeps a long roster's first entries (no stale look-up while building)", () => {
    const roster = Array.from({ length: 60 }, (_, i) => ({ id: `c${String(i % 30)}`, i }));
    const built = oncePerId(roster, (e) => e);
    expect(built.map((e) => e.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});
