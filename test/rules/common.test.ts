/**
 * Shared helpers of the rules: looking up by id (searched or indexed), building rosters once per id,
 * handing a command to the handler of its type, and what a user may do by a trial of each probe.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accept, refuse, type AllowedAction, type Requester } from "../../src/core/engine";
import {
  allowedByTrial,
  runHandler,
  findById,
  oncePerId,
  probe,
  type Handlers,
  type Probe,
  type RefusalChecks,
} from "../../src/core/common";

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

describe("runHandler", () => {
  type Command = { readonly type: "add"; readonly n: number } | { readonly type: "reset" };
  const handlers: Handlers<number, Command> = {
    add: (state, { n }) => accept(state + n),
    reset: () => accept(0),
  };
  const gm: Requester = { userId: "gm", isGM: true, owns: [] };

  it("hands each command to the handler of its type", () => {
    expect(runHandler(handlers, 2, { type: "add", n: 3 }, gm)).toMatchObject({ ok: true, state: 5 });
    expect(runHandler(handlers, 2, { type: "reset" }, gm)).toMatchObject({ ok: true, state: 0 });
  });

  it("refuses a type with no handler of its own, an inherited name included", () => {
    for (const type of ["nope", "toString", "constructor", "__proto__"]) {
      const command = { type } as unknown as Command; // data that bypassed a parser
      expect(runHandler(handlers, 2, command, gm)).toEqual({ ok: false, refusal: { code: "unknownCommand" } });
    }
  });
});

describe("allowedByTrial", () => {
  type Command = { readonly type: "take"; readonly n: number } | { readonly type: "give"; readonly n: number };
  interface Action extends AllowedAction {
    readonly n?: number;
  }
  const gm: Requester = { userId: "gm", isGM: true, owns: [] };
  const on = (command: Command, about?: Omit<Action, "type">): Probe<Action, Command> => probe(command, about);
  /** The rules of the test: a command is accepted when its number is even. */
  const apply = (_state: null, command: Command) => ({ ok: command.n % 2 === 0 });

  it("gives the given actions, then each accepted probe's action once, in probe order", () => {
    const probes = [
      on({ type: "take", n: 1 }, { combatantId: "a" }),
      on({ type: "take", n: 2 }, { combatantId: "a", n: 2 }),
      on({ type: "take", n: 4 }, { combatantId: "a", n: 4 }),
      on({ type: "give", n: 2 }, { combatantId: "a", n: 2 }),
      on({ type: "take", n: 6 }, { combatantId: "a", n: 2 }),
      on({ type: "take", n: 8 }, { combatantId: "b" }),
      on({ type: "take", n: 10 }, { combatantId: "b" }),
      on({ type: "take", n: 12 }),
      on({ type: "take", n: 14 }),
    ];
    expect(allowedByTrial(null, gm, [{ type: "start" }], probes, apply)).toEqual([
      { type: "start" },
      { type: "take", combatantId: "a", n: 2 },
      { type: "take", combatantId: "a", n: 4 },
      { type: "give", combatantId: "a", n: 2 },
      { type: "take", combatantId: "b" },
      { type: "take" },
    ]);
  });

  it("tells actions apart by every field's value and its kind, and a field left undefined from none", () => {
    type Loose = AllowedAction & { readonly n?: number | string | boolean; readonly m?: number };
    const probes: Probe<Loose, Command>[] = [
      { action: { type: "take", n: 1 }, command: { type: "take", n: 0 } },
      { action: { type: "take", n: "1" }, command: { type: "take", n: 0 } },
      { action: { type: "take", n: true }, command: { type: "take", n: 0 } },
      { action: { type: "take", n: "true" }, command: { type: "take", n: 0 } },
      { action: { type: "take", n: 1, m: undefined }, command: { type: "take", n: 0 } },
      { action: { type: "take", n: 1, m: 2 }, command: { type: "take", n: 0 } },
      { action: { type: "take", combatantId: "1:n" }, command: { type: "take", n: 0 } },
      { action: { type: "take", combatantId: "1", n: 1 }, command: { type: "take", n: 0 } },
    ];
    expect(allowedByTrial(null, gm, [], probes, apply)).toEqual([
      { type: "take", n: 1 },
      { type: "take", n: "1" },
      { type: "take", n: true },
      { type: "take", n: "true" },
      { type: "take", n: 1, m: 2 },
      { type: "take", combatantId: "1:n" },
      { type: "take", combatantId: "1", n: 1 },
    ]);
  });

  it("tries a command with a refusal check by the check alone, and every other by the rules", () => {
    const tried: string[] = [];
    const checks: RefusalChecks<null, Command> = {
      take: (_state, { n }) => {
        tried.push(`check ${n}`);
        return n > 2 ? refuse("notGM") : null;
      },
    };
    const rules = (state: null, command: Command) => {
      tried.push(`rules ${command.type} ${command.n}`);
      return apply(state, command);
    };
    const probes = [1, 2, 3].flatMap((n) => [
      on({ type: "take", n }, { combatantId: `t${n}` }),
      on({ type: "give", n }, { combatantId: `g${n}` }),
    ]);
    expect(allowedByTrial(null, gm, [], probes, rules, checks)).toEqual([
      { type: "take", combatantId: "t1" },
      { type: "take", combatantId: "t2" },
      { type: "give", combatantId: "g2" },
    ]);
    expect(tried).toEqual(["check 1", "rules give 1", "check 2", "rules give 2", "check 3", "rules give 3"]);
  });
});
