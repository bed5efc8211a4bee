/**
 * Shared helpers of the rules: looking up by id (searched or indexed), building rosters once per id
 * and handing a command to the handler of its type.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accept, type Requester } from "../../src/core/engine";
import { dispatch, findById, oncePerId, type Handlers } from "../../src/core/common";

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

describe("dispatch", () => {
  type Command = { readonly type: "add"; readonly n: number } | { readonly type: "reset" };
  const handlers: Handlers<number, Command> = {
    add: (state, { n }) => accept(state + n),
    reset: () => accept(0),
  };
  const gm: Requester = { userId: "gm", isGM: true, owns: [] };

  it("hands each command to the handler of its type", () => {
    expect(dispatch(handlers, 2, { type: "add", n: 3 }, gm)).toMatchObject({ ok: true, state: 5 });
    expect(dispatch(handlers, 2, { type: "reset" }, gm)).toMatchObject({ ok: true, state: 0 });
  });

  it("refuses a type with no handler of its own, an inherited name included", () => {
    for (const type of ["nope", "toString", "constructor", "__proto__"]) {
      const command = { type } as unknown as Command; // data that bypassed a parser
      expect(dispatch(handlers, 2, command, gm)).toEqual({ ok: false, refusal: { code: "unknownCommand" } });
    }
  });
});
