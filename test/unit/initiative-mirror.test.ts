/**
 * The initiative mirror's plan (issue 16, item 2): core's sort of the mirrored values (initiative
 * descending, then name, then id) gives the mode's order, and moving one combatant rewrites one value.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mirroredOrder, planInitiativeMirror, type RankedEntry } from "../../src/core/initiative-mirror";

const ranked = (ids: readonly string[], hints: readonly (number | null)[] = []): RankedEntry[] =>
  ids.map((id, i) => ({ id, hint: hints[i] ?? null }));

/** The live values after applying `changes` to `live`. */
function applied(
  live: ReadonlyMap<string, number | null>,
  changes: readonly { _id: string; initiative: number | null }[],
): Map<string, number | null> {
  const next = new Map(live);
  for (const c of changes) next.set(c._id, c.initiative);
  return next;
}

/** Core's order of the combatants (initiative descending, none last, then name, then id); names are the ids here. */
function coreSort(live: ReadonlyMap<string, number | null>): string[] {
  return [...live.keys()].sort((a, b) => {
    const ia = live.get(a) ?? -Infinity;
    const ib = live.get(b) ?? -Infinity;
    return ib - ia || a.localeCompare(b);
  });
}

/**
 * The order the module's `Combat#_sortCombatants` gives (core's `setupTurns` and a carousel sort with
 * it): initiative descending, and inside a tie (equal values) the mode's order.
 */
function sortedByCombat(live: ReadonlyMap<string, number | null>, order: readonly string[]): string[] {
  return [...live.keys()].sort((a, b) => {
    const ia = live.get(a) ?? -Infinity;
    const ib = live.get(b) ?? -Infinity;
    return ib - ia || order.indexOf(a) - order.indexOf(b);
  });
}

describe("the initiative mirror", () => {
  it("counts places down where the mode shows no number, and gives the unranked no initiative", () => {
    const changes = planInitiativeMirror(ranked(["d", "b", "c"]), ["b", "c", "d", "e"], new Map());
    expect(changes).toEqual([
      { _id: "d", initiative: 3 },
      { _id: "b", initiative: 2 },
      { _id: "c", initiative: 1 },
    ]);
    const live = applied(
      new Map([
        ["b", null],
        ["c", null],
        ["d", null],
        ["e", null],
      ]),
      changes,
    );
    expect(coreSort(live)).toEqual(["d", "b", "c", "e"]);
  });

  it("shows the mode's numbers, a tie the same number on each", () => {
    const changes = planInitiativeMirror(
      ranked(["a", "b", "c", "d"], [17, 15, 15, 12]),
      ["a", "b", "c", "d"],
      new Map(),
    );
    expect(changes.map((c) => c.initiative)).toEqual([17, 15, 15, 12]);
  });

  it("a tie's faster member who joins the order last shows its number, not a place between its neighbours", () => {
    // declare-resolve: the Officer 21 and Brom 13 are in place; Aria rolls 13 too and is the faster.
    const live = new Map<string, number | null>([
      ["officer", 21],
      ["brom", 13],
      ["aria", null],
    ]);
    const order = ["officer", "aria", "brom"];
    const changes = planInitiativeMirror(ranked(order, [21, 13, 13]), order, live);
    expect(changes).toEqual([{ _id: "aria", initiative: 13 }]);
    expect(sortedByCombat(applied(live, changes), order)).toEqual(order);
    // The GM orders the tie the other way: nobody's number changes (the Combat's sort follows the rules).
    expect(
      planInitiativeMirror(ranked(["officer", "brom", "aria"], [21, 13, 13]), order, applied(live, changes)),
    ).toEqual([]);
  });

  it("moving one combatant changes only its value, between its new neighbours", () => {
    const live = new Map<string, number | null>([
      ["a", 4],
      ["b", 3],
      ["c", 2],
      ["d", 1],
    ]);
    expect(planInitiativeMirror(ranked(["c", "a", "b", "d"]), ["a", "b", "c", "d"], live)).toEqual([
      { _id: "c", initiative: 5 },
    ]);
    // Two neighbours swapping: one of them moves.
    const swap = planInitiativeMirror(ranked(["a", "c", "b", "d"]), ["a", "b", "c", "d"], live);
    expect(swap).toEqual([{ _id: "b", initiative: 1.5 }]);
    expect(coreSort(applied(live, swap))).toEqual(["a", "c", "b", "d"]);
    // A delay to the end of the order: its number stays sensible (below the last).
    expect(planInitiativeMirror(ranked(["b", "c", "d", "a"]), ["a", "b", "c", "d"], live)).toEqual([
      { _id: "a", initiative: 0 },
    ]);
  });

  it("a re-rolled number is shown even where the order does not change", () => {
    const live = new Map<string, number | null>([
      ["a", 17],
      ["b", 15],
      ["c", 14.99],
      ["d", 12],
    ]);
    // c keeps its place just below 15 (a tie's value stays in place): only the re-rolled number changes.
    expect(planInitiativeMirror(ranked(["a", "b", "c", "d"], [17, 16, 15, 12]), ["a", "b", "c", "d"], live)).toEqual([
      { _id: "b", initiative: 16 },
    ]);
  });

  it("moving the first of a run of tied combatants changes only its value, not the rest of the run", () => {
    const ids = ["a", "b", "c", "d", "e"];
    const first = planInitiativeMirror(ranked(ids, [17, 17, 17, 17, 9]), ids, new Map());
    const live = applied(new Map(), first);
    expect(ids.map((id) => live.get(id))).toEqual([17, 17, 17, 17, 9]);
    // a delays to the end (the mode shows no number for a delayed combatant's new place).
    const order = ["b", "c", "d", "e", "a"];
    const moved = planInitiativeMirror(ranked(order, [17, 17, 17, 9, null]), ids, live);
    expect(moved).toEqual([{ _id: "a", initiative: 8 }]);
    expect(sortedByCombat(applied(live, moved), order)).toEqual(order);
  });

  it("values placed between neighbours, above their own number, stay when another combatant moves", () => {
    // x, y and z were placed between 18 and their own 17 when they moved in earlier.
    const ids = ["t", "x", "y", "z", "a", "b"];
    const live = new Map<string, number | null>([
      ["t", 18],
      ["x", 17.7],
      ["y", 17.5],
      ["z", 17.3],
      ["a", 16.99],
      ["b", 9],
    ]);
    // a delays to the end: only a is written.
    const moved = planInitiativeMirror(ranked(["t", "x", "y", "z", "b", "a"], [18, 17, 17, 17, 9, null]), ids, live);
    expect(moved).toEqual([{ _id: "a", initiative: 8 }]);
    expect(coreSort(applied(live, moved))).toEqual(["t", "x", "y", "z", "b", "a"]);
  });

  it("writes nothing when the values already give the order", () => {
    const live = new Map<string, number | null>([
      ["a", 11],
      ["b", 15],
      ["c", 14.99],
      ["d", 12],
    ]);
    expect(planInitiativeMirror(ranked(["b", "c", "d", "a"], [15, 15, 12, 17]), ["a", "b", "c", "d"], live)).toEqual(
      [],
    );
  });

  it("renumbers everyone only when two values leave no room between them", () => {
    const live = new Map<string, number | null>([
      ["x", 2],
      ["y", 2 - 1e-7],
    ]);
    const changes = planInitiativeMirror(ranked(["x", "n", "y"]), ["x", "n", "y"], live);
    expect(changes.length).toBeGreaterThan(1);
    expect(coreSort(applied(live, changes))).toEqual(["x", "n", "y"]);
  });

  it("after any sequence of reorders, core's sort is the mode's order; one move costs one value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 40 }),
        (n, moves) => {
          const ids = Array.from({ length: n }, (_, i) => `c${String(i).padStart(2, "0")}`);
          let live = applied(new Map(ids.map((id) => [id, null])), planInitiativeMirror(ranked(ids), ids, new Map()));
          const order = [...ids];
          for (const [from, to] of moves) {
            const [moved] = order.splice(from % order.length, 1);
            order.splice(to % (order.length + 1), 0, moved ?? "");
            const changes = planInitiativeMirror(ranked(order), ids, live);
            expect(changes.length).toBeLessThanOrEqual(1);
            live = applied(live, changes);
            expect(coreSort(live)).toEqual(order);
          }
        },
      ),
    );
  });

  it("with ties among the mode's numbers: values never rise along the order, equal only inside a tie, each tie's number shown", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 8, max: 12 }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 20 }),
        (rolls, moves) => {
          const ids = rolls.map((_, i) => `c${String(i)}`);
          const hintOf = new Map(ids.map((id, i) => [id, rolls[i] ?? 0]));
          // The rules' order: highest first; a tie in joining order, then moved about by the GM.
          const order = [...ids].sort((a, b) => (hintOf.get(b) ?? 0) - (hintOf.get(a) ?? 0));
          let live = new Map<string, number | null>(ids.map((id) => [id, null]));
          for (const [from, to] of [[0, 0] as const, ...moves]) {
            const [moved] = order.splice(from % order.length, 1);
            order.splice(to % (order.length + 1), 0, moved ?? "");
            // Moved out of its number's place it shows no number (as a delay).
            const entries = order.map((id, i) => {
              const hint = hintOf.get(id) ?? 0;
              const above = i === 0 ? Infinity : (hintOf.get(order[i - 1] ?? "") ?? 0);
              return { id, hint: hint <= above ? hint : null };
            });
            live = applied(live, planInitiativeMirror(entries, ids, live));
            expect(sortedByCombat(live, order)).toEqual(order);
            entries.forEach((entry, i) => {
              const previous = entries[i - 1];
              if (previous === undefined) return;
              const [above, below] = [live.get(previous.id) ?? 0, live.get(entry.id) ?? 0];
              expect(above).toBeGreaterThanOrEqual(below);
              if (above === below) expect(entry.hint !== null && entry.hint === previous.hint).toBe(true);
            });
          }
          // Before any move, every combatant shows its own number.
          if (moves.length === 0) for (const id of ids) expect(live.get(id)).toBe(hintOf.get(id));
        },
      ),
    );
  });

  it("the turn order puts the unranked after the ranked, by name", () => {
    const names: Record<string, string> = { a: "Zed", b: "Ann", c: "Bob" };
    expect(mirroredOrder(["a"], ["c", "b", "a"], (id) => names[id] ?? "")).toEqual(["a", "b", "c"]);
  });
});
