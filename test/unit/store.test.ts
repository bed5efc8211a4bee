import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyPatch,
  decodeArrays,
  diff,
  encodeArrays,
  jsonLength,
  toUpdateData,
  type Json,
  type StoredForms,
} from "../../src/core/patch";
import {
  encodeEncounter,
  initialStored,
  isNewerFormat,
  loadEncounter,
  parseStoredEncounter,
  STORED_VERSION,
  UnreadableSnapshot,
} from "../../src/core/store";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseIndividualState } from "../../src/modes/individual/rules/state";
import type { Encounter } from "../../src/core/engine";
import { mergeObject } from "../sim/utils";
import { asAuthority, bindPure, pureMode } from "../rules/pure-modes";

type Toy = {
  round: number;
  order: string[];
  notes: Record<string, string>;
};
const parseToy = (data: unknown): Toy | null =>
  typeof data === "object" && data !== null && "round" in data ? (data as Toy) : null;

describe("reverse patches", () => {
  it("diff then applyPatch turns one value into the other, deleting keys that went away", () => {
    const a: Json = { x: 1, y: { z: [1, 2], w: "keep" }, gone: true };
    const b: Json = { x: 2, y: { z: [1, 2, 3], w: "keep" }, added: null };
    expect(applyPatch(a, diff(a, b))).toEqual(b);
    expect(applyPatch(b, diff(b, a))).toEqual(a);
    expect(a).toEqual({ x: 1, y: { z: [1, 2], w: "keep" }, gone: true });
  });

  it("arrays are stored as objects so one appended element travels alone", () => {
    const before = encodeArrays({ acted: ["a", "b"], rolls: [3, 3] });
    const after = encodeArrays({ acted: ["a", "b", "c"], rolls: [3, 3, 4] }, before);
    expect(toUpdateData(before, after)).toEqual({ acted: { c: 2 }, rolls: { "2": 4, _a: 3 } });
    expect(decodeArrays(after)).toEqual({ acted: ["a", "b", "c"], rolls: [3, 3, 4] });
  });

  const ids = Array.from({ length: 100 }, (_, i) => `combatant${String(i).padStart(7, "0")}`);

  it("moving one id in a long order changes one stored key, and its undo patch is one operation", () => {
    const moved = [...ids.slice(0, 10), ...ids.slice(11, 60), ids[10] ?? "", ...ids.slice(60)];
    const before = encodeArrays({ order: ids });
    const after = encodeArrays({ order: moved }, before);
    expect(Object.keys((toUpdateData(before, after) as { order: object }).order)).toEqual([ids[10]]);
    expect(decodeArrays(after)).toEqual({ order: moved });
    const undo = diff(after, before);
    expect(undo).toHaveLength(1);
    expect(applyPatch(after, undo)).toEqual(before);
  });

  it("emptying a long list or array is one stored key, and so is its undo", () => {
    const rows = ids.map((id) => ({ id, hits: 3 }));
    const before = encodeArrays({ acted: ids, rows });
    const after = encodeArrays({ acted: [], rows: [] }, before);
    expect(decodeArrays(after)).toEqual({ acted: [], rows: [] });
    const update = toUpdateData(before, after) as { acted: object; rows: object };
    expect(Object.keys(update.acted)).toHaveLength(1);
    expect(Object.keys(update.rows)).toEqual(["_a"]);
    expect(diff(after, before)).toHaveLength(2);
    // The next round's first entries overwrite stale ones: one key each.
    const again = encodeArrays({ acted: [ids[5] ?? ""], rows: [{ id: "x", hits: 3 }] }, after);
    expect(decodeArrays(again)).toEqual({ acted: [ids[5]], rows: [{ id: "x", hits: 3 }] });
    expect(JSON.stringify(toUpdateData(after, again)).length).toBeLessThan(120);
  });

  it("an undo patch sets a long list back whole when that is smaller than undoing it key by key", () => {
    const before = encodeArrays({ passOrder: [] as string[], round: 1 });
    const after = encodeArrays({ passOrder: ids, round: 1 }, before);
    const undo = diff(after, before, [], true);
    expect(undo).toEqual([[["passOrder"], { _o: 0 }]]);
    expect(applyPatch(after, undo)).toEqual(before);
    // Foundry update data never sets an object whole: it would replace rather than merge.
    expect(Object.keys((toUpdateData(after, before) as { passOrder: object }).passOrder)).toHaveLength(100);
  });

  it("any sequence of lists and arrays round-trips, and each stored form undoes to the one before", () => {
    const id = fc.constantFrom(...ids.slice(0, 12));
    const value = fc.record({
      order: fc.uniqueArray(id, { maxLength: 12 }),
      rows: fc.array(fc.nat(3), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 10 }), (values) => {
        let stored = encodeArrays(values[0] ?? null);
        for (const next of values.slice(1)) {
          const encoded = encodeArrays(next, stored);
          expect(decodeArrays(encoded)).toEqual(next);
          // Foundry merges the update into the stored form; the undo patch turns it back.
          expect(applyPatch(stored, diff(stored, encoded))).toEqual(encoded);
          expect(applyPatch(encoded, diff(encoded, stored))).toEqual(stored);
          expect(applyPatch(encoded, diff(encoded, stored, [], true))).toEqual(stored);
          stored = encoded;
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  /** A state as the rules make it: a new object where something changed, the same object elsewhere. */
  type Row = { readonly id: string; readonly hits: number; readonly tags: readonly string[] };
  type Rows = {
    readonly round: number;
    readonly order: readonly string[];
    readonly rows: readonly Row[];
  };
  const change = fc.oneof(
    fc.record({ k: fc.constant("round" as const), n: fc.nat(9) }),
    fc.record({ k: fc.constant("move" as const), n: fc.nat(11), to: fc.nat(11) }),
    fc.record({ k: fc.constant("drop" as const), n: fc.nat(11) }),
    fc.record({ k: fc.constant("hit" as const), n: fc.nat(5), v: fc.nat(3) }),
    fc.record({ k: fc.constant("tag" as const), n: fc.nat(5), v: fc.constantFrom("a", "b", "c") }),
    fc.record({ k: fc.constant("cut" as const), n: fc.nat(5) }),
    fc.record({ k: fc.constant("grow" as const), n: fc.nat(5) }),
    fc.record({ k: fc.constant("swap" as const), n: fc.nat(5) }),
  );
  type Change = typeof change extends fc.Arbitrary<infer C> ? C : never;
  function changed(state: Rows, c: Change): Rows {
    const rows = state.rows;
    switch (c.k) {
      case "round":
        return { ...state, round: c.n };
      case "move": {
        const id = state.order[c.n % Math.max(1, state.order.length)];
        if (id === undefined) return { ...state, order: [ids[c.n] ?? "x"] };
        const rest = state.order.filter((x) => x !== id);
        return { ...state, order: [...rest.slice(0, c.to), id, ...rest.slice(c.to)] };
      }
      case "drop":
        return { ...state, order: state.order.filter((_, i) => i !== c.n) };
      case "hit":
        return { ...state, rows: rows.map((r, i) => (i === c.n ? { ...r, hits: c.v } : r)) };
      case "tag":
        return { ...state, rows: rows.map((r, i) => (i === c.n ? { ...r, tags: [...r.tags, c.v] } : r)) };
      case "cut":
        return { ...state, rows: rows.slice(0, c.n) };
      case "grow":
        return { ...state, rows: [...rows, { id: `row${c.n}`, hits: c.n, tags: [] }] };
      case "swap":
        // The same row objects, at other places.
        return { ...state, rows: [...rows.slice(c.n), ...rows.slice(0, c.n)] };
    }
  }

  it("a state encoded against the stored form of the state it came from is stored as a state never seen before would be", () => {
    // Objects the two states share are reused from the earlier form rather than encoded again: the
    // form must be the one a fresh encoding (of a copy, sharing nothing) gives.
    const first: Rows = {
      round: 1,
      order: ids.slice(0, 8),
      rows: Array.from({ length: 4 }, (_, i) => ({ id: `row${i}`, hits: i, tags: ["a"] })),
    };
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 20 }), (changes) => {
        // What a loaded revision remembers and hands on to the next (LoadedEncounter.forms).
        const forms: StoredForms = new WeakMap();
        let state = first;
        let form = encodeArrays(state, undefined, forms);
        for (const c of changes) {
          const next = changed(state, c);
          const encoded = encodeArrays(next, form, forms);
          const fresh = encodeArrays(JSON.parse(JSON.stringify(next)) as Json, form);
          expect(encoded).toEqual(fresh);
          expect(decodeArrays(encoded)).toEqual(next);
          expect(diff(form, encoded)).toEqual(diff(form, fresh));
          state = next;
          form = encoded;
        }
      }),
      { numRuns: 150, seed: 17 },
    );
  });

  it("an object reused from a stored form is only ever the form it was encoded as at that very place", () => {
    const rows = [{ id: "x", hits: 1, tags: [] as string[] }];
    const order = ids.slice(0, 4);
    const value = { order, rows } as unknown as Json;
    const forms: StoredForms = new WeakMap();
    const form = encodeArrays(value, undefined, forms) as { order: Json; rows: Json };
    // The same objects, stored before under other forms (stale rows past the end, an older list):
    // encoded against those, they keep what those forms kept, as a fresh encoding would.
    // Against its own form, that form again.
    expect(encodeArrays(value, form, forms)).toBe(form);
    const older = encodeArrays({ order: [...ids.slice(4, 6), ...order], rows: [...rows, ...rows] }, undefined, forms);
    const fresh = encodeArrays(JSON.parse(JSON.stringify(value)) as Json, older);
    expect(encodeArrays(value, older, forms)).toEqual(fresh);
    expect(encodeArrays(value, older, forms)).not.toEqual(form);
  });

  it("counts a value's JSON length exactly up to a limit, and past the limit says only that it is longer", () => {
    const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, true, false, undefined),
        fc.double(),
        fc.integer(),
        fc.string({ unit: "binary", maxLength: 6 }),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.string({ unit: "binary", maxLength: 4 }), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: -5, max: 120 }), (value, limit) => {
        const exact = (JSON.stringify(value) as string | undefined)?.length ?? 0;
        const counted = jsonLength(value, limit);
        if (exact <= limit) expect(counted).toBe(exact);
        else expect(counted).toBeGreaterThan(limit);
      }),
      { numRuns: 2000, seed: 17 },
    );
  });

  it("Foundry update data deletes removed keys with -=key", () => {
    expect(toUpdateData({ h: { "1": 1, "2": 2 } }, { h: { "2": 2, "3": 3 } })).toEqual({ h: { "-=1": null, "3": 3 } });
  });
});

describe("stored encounters", () => {
  const toy = (round: number, order: string[]): Toy => ({ round, order, notes: {} });

  function step(enc: Encounter<Toy>, next: Toy, limit = 3): Encounter<Toy> {
    const history = [...enc.history, { kind: "turn" as const, state: enc.state }].slice(-limit);
    return { mode: "individual", state: next, history };
  }

  it("each step writes one new history entry, whatever the history's length", () => {
    let stored = initialStored(toy(0, ["a", "b"]));
    const sizes: number[] = [];
    for (let i = 1; i <= 8; i += 1) {
      const loaded = loadEncounter("individual", stored, parseToy);
      if (loaded === null) throw new Error("load failed");
      const next = step(loaded.encounter, toy(i, ["a", "b"]));
      const { stored: written, update } = encodeEncounter(loaded, next, null);
      sizes.push(JSON.stringify(update).length);
      const historyUpdate = (update as { history?: Record<string, unknown> }).history ?? {};
      expect(Object.keys(historyUpdate).filter((k) => !k.startsWith("-=")).length).toBe(1);
      stored = written;
    }
    // Once the bound is hit, each step also deletes the oldest entry: the size stays flat.
    expect(new Set(sizes.slice(4)).size).toBe(1);
    const loaded = loadEncounter("individual", stored, parseToy);
    expect(loaded?.encounter.history.map((s) => s.state.round)).toEqual([5, 6, 7]);
    expect(loaded?.encounter.state.round).toBe(8);
  });

  it("a write hands the stored forms it knows on to the revision it makes, so the next write reuses what did not change", () => {
    const loaded = loadEncounter("individual", initialStored(toy(0, ["a", "b"])), parseToy);
    if (loaded === null) throw new Error("load failed");
    const notes = { a: "aware" };
    const first = encodeEncounter(loaded, step(loaded.encounter, { ...toy(1, ["a", "b"]), notes }), null).loaded;
    expect(first.forms).toBe(loaded.forms);
    // The notes object is the same in the next state: its stored form is the very one the last write made.
    const second = encodeEncounter(first, step(first.encounter, { ...toy(2, ["b", "a"]), notes }), null);
    const form = (stored: { readonly state: Json }): unknown => (stored.state as { notes?: unknown }).notes;
    expect(form(second.stored)).toBe(form(first.stored));
    expect(second.loaded.forms).toBe(loaded.forms);
  });

  it("a flag the document merges the next update into, in place, still undoes to each state it held", () => {
    // A document's flags are its own: applying an update merges into the object a load was given
    // (the simulated Foundry does, see test/sim/realm/documents.ts `updateSource`). Undo snapshots of that
    // load must not read the merged object as the state they were stored against.
    let enc: Encounter<Toy> = { mode: "individual", state: toy(0, ["a", "b", "c"]), history: [] };
    let loaded = loadEncounter("individual", initialStored(enc.state), parseToy);
    if (loaded === null) throw new Error("load failed");
    for (const [round, order] of [
      [1, ["b", "a", "c"]],
      [2, ["c", "b", "a"]],
    ] as const) {
      enc = step(loaded.encounter, toy(round, [...order]), 10);
      loaded = encodeEncounter(loaded, enc, null).loaded;
    }
    const flag = JSON.parse(JSON.stringify(loaded.stored)) as Record<string, unknown>;
    const fromFlag = loadEncounter("individual", parseStoredEncounter(flag) ?? initialStored({}), parseToy);
    if (fromFlag === null) throw new Error("load failed");
    const next = step(fromFlag.encounter, { ...toy(3, ["a", "c", "b"]), notes: { a: "late" } }, 10);
    const written = encodeEncounter(fromFlag, next, null);
    mergeObject(flag, written.update, { performDeletions: true });
    // Back three steps at once from the encounter kept in memory, as the authority does.
    const states = written.loaded.encounter.history.map((snap) => snap.state);
    expect(states).toEqual([toy(0, ["a", "b", "c"]), toy(1, ["b", "a", "c"]), toy(2, ["c", "b", "a"])]);
    const undone = encodeEncounter(written.loaded, { ...next, state: states[0] ?? next.state, history: [] }, null);
    expect(decodeArrays(undone.stored.state)).toEqual(toy(0, ["a", "b", "c"]));
  });

  it("a malformed undo patch is found when its snapshot is read, not by every load", () => {
    const good = initialStored(toy(1, ["a", "b"]));
    const flag = { ...good, seq: 1, history: { "0": { kind: "turn", undo: [[7]] } } };
    const parsed = parseStoredEncounter(flag);
    expect(parsed).not.toBeNull();
    const loaded = loadEncounter("individual", parsed ?? good, parseToy);
    expect(loaded?.encounter.state.round).toBe(1);
    expect(() => loaded?.encounter.history[0]?.state).toThrow(UnreadableSnapshot);
  });

  it("rejects malformed stored data instead of guessing", () => {
    expect(
      parseStoredEncounter({ v: 1, rev: 0, seq: 0, applied: null, state: {}, history: { "0": { kind: "x" } } }),
    ).toBeNull();
    expect(parseStoredEncounter("garbage")).toBeNull();
    expect(parseStoredEncounter(initialStored({ round: 0 }))).not.toBeNull();
  });
});

describe("the stored format is versioned", () => {
  const fixture: unknown = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, "../fixtures/stored/v1-individual.json"), "utf8"),
  );
  const binding = bindPure(pureMode("individual"));
  const gm = { userId: "gmUser0000000001", isGM: true, owns: [] };

  it("an encounter stored in today's format (v1), undo history included, loads and undoes step by step", () => {
    const stored = parseStoredEncounter(fixture);
    expect(stored?.v).toBe(STORED_VERSION);
    let bound = stored === null ? null : binding.load(stored);
    expect(bound?.view).toMatchObject({ round: 2, current: "combatantAria001" });
    const seen: (string | null)[] = [];
    for (let i = 0; i < 5 && bound !== null; i += 1) {
      const undone = bound.apply({ type: "previousTurn" }, gm, 100, null);
      if (!undone.ok) break;
      bound = binding.load(undone.stored);
      seen.push(bound?.view.current ?? null);
    }
    // Round 2 → the delayed Brom's turn → Officer (Brom delaying) → Brom → Aria → not started.
    expect(seen).toEqual(["combatantBrom001", "combatantOffi001", "combatantBrom001", "combatantAria001", null]);
  });

  it("a newer format is recognised as newer (refused and never overwritten), not as corrupted data", () => {
    const newer = { ...(fixture as object), v: STORED_VERSION + 1 };
    expect(isNewerFormat(newer)).toBe(true);
    expect(parseStoredEncounter(newer)).toBeNull();
    expect(isNewerFormat(fixture)).toBe(false);
    expect(isNewerFormat({ v: "2" })).toBe(false);
    expect(isNewerFormat("garbage")).toBe(false);
  });
});

describe("the authority's step touches the newest history entries only", () => {
  // The authority: each load is handed the revision loaded before (a fresh one remembers nothing).
  const binding = () => asAuthority(bindPure(pureMode("individual")));
  const gm = { userId: "gmUser0000000001", isGM: true, owns: [] };
  const roster = ["combatantAria001", "combatantBrom001", "combatantOffi001"].map((id, i) => ({
    id,
    name: id,
    isPC: i < 2,
  }));
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  type Flag = Record<string, unknown>;

  /** A started encounter's flag, as the document holds it. */
  function started(gmBinding: ReturnType<typeof binding>): Flag {
    const rolls = roster.map((c, i) => ({ type: "recordInitiative", combatantId: c.id, total: 20 - i, modifier: 0 }));
    return copy(gmBinding.createWith(roster, [...rolls, { type: "start" }], gm));
  }

  /** The authority applies a command to the flag, and the document merges the update into it in place. */
  function applyTo(gmBinding: ReturnType<typeof binding>, flag: Flag, command: unknown, limit: number) {
    const parsed = parseStoredEncounter(flag);
    const bound = parsed === null ? null : gmBinding.load(parsed, flag);
    if (bound === null || parsed === null) throw new Error("the flag did not load");
    // What the authority wrote last is not parsed again: the state it keeps is the flag's.
    expect(bound.state).toEqual(parseIndividualState(decodeArrays(parsed.state)));
    const before = copy(flag) as unknown as Json;
    const applied = bound.apply(command, gm, limit, null);
    if (applied.ok) mergeObject(flag, applied.update, { performDeletions: true });
    return { applied, before };
  }

  /** Someone else's update of the flag, merged in place. */
  function updateBy(flag: Flag, update: Record<string, unknown>): void {
    mergeObject(flag, update, { performDeletions: true });
  }

  /** Undo step by step from this flag until nothing is left: the views passed through. */
  function undoAll(gmBinding: ReturnType<typeof binding>, flag: Flag): string[] {
    const seen: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const { applied } = applyTo(gmBinding, flag, { type: "previousTurn" }, 100);
      if (!applied.ok) break;
      seen.push(`${applied.view.round}:${applied.view.current ?? "-"}`);
    }
    return seen;
  }

  const commands = fc.constantFrom<unknown>(
    { type: "nextTurn" },
    { type: "nextTurn" },
    { type: "nextTurn" },
    { type: "nextRound" },
    { type: "previousTurn" },
    { type: "previousRound" },
    { type: "delay", combatantId: "combatantBrom001" },
    { type: "endDelay", combatantId: "combatantBrom001" },
    { type: "addCombatant", combatant: { id: "combatantLate001", name: "Late", isPC: false } },
    { type: "removeCombatant", combatantId: "combatantOffi001" },
    { type: "setDefeated", combatantId: "combatantAria001", defeated: true },
  );

  it("writes what the whole stored form's diff would, and a fresh load reads the same history", () => {
    fc.assert(
      fc.property(
        fc.array(commands, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        (list, limit) => {
          const authority = binding();
          const flag = started(authority);
          for (const command of list) {
            const { applied, before } = applyTo(authority, flag, command, limit);
            if (!applied.ok) continue;
            const whole = copy(applied.stored) as unknown as Json;
            // The update sends exactly what differs, as a diff of the whole stored form would.
            expect(applied.update).toEqual(toUpdateData(before, whole));
            expect(copy(flag)).toEqual(whole);
          }
          // The authority, undoing from what it keeps in memory, and a client that loads the flag afresh
          // pass through the same states.
          const reloaded = copy(flag);
          expect(undoAll(authority, flag)).toEqual(undoAll(binding(), reloaded));
        },
      ),
      { numRuns: 60, seed: 17 },
    );
    // Many loads and undos: room on a loaded machine (it asserts data, not time).
  }, 30_000);

  it("reads the flag again when it no longer holds what the authority wrote (an entry deleted elsewhere)", () => {
    const authority = binding();
    const flag = started(authority);
    for (let i = 0; i < 5; i += 1) applyTo(authority, flag, { type: "nextTurn" }, 100);
    // Someone deletes the oldest entry without a new revision: the authority's memory is stale.
    const history = flag.history as Record<string, unknown>;
    updateBy(flag, { history: { [`-=${Object.keys(history)[0] ?? ""}`]: null } });
    const reloaded = copy(flag);
    const fromMemory = undoAll(authority, flag);
    expect(fromMemory).toHaveLength(4);
    expect(fromMemory).toEqual(undoAll(binding(), reloaded));
  });

  it("the next load takes the state and history of the write it follows, handed on by the revision it was written from", () => {
    const authority = binding();
    const flag = started(authority);
    const { applied } = applyTo(authority, flag, { type: "nextTurn" }, 100);
    if (!applied.ok) throw new Error("the step was refused");
    const parsed = parseStoredEncounter(flag);
    if (parsed === null) throw new Error("the flag did not load");
    // The authority's load reuses the state the rules made; a client that did not write parses it.
    expect(authority.load(parsed, flag)?.state).toBe(applied.state);
    const reader = bindPure(pureMode("individual")).load(parsed, flag);
    expect(reader?.state).not.toBe(applied.state);
    expect(reader?.state).toEqual(applied.state);
    // Handed a revision that wrote nothing, the load parses the flag.
    expect(bindPure(pureMode("individual")).load(parsed, flag, reader)?.state).not.toBe(applied.state);
  });

  it("reads the flag again when its state was changed elsewhere under the same revision", () => {
    const authority = binding();
    const flag = started(authority);
    for (let i = 0; i < 2; i += 1) applyTo(authority, flag, { type: "nextTurn" }, 100);
    const parsed = parseStoredEncounter(flag);
    expect(parsed === null ? null : authority.load(parsed, flag)?.view.current).toBe("combatantOffi001");
    // Someone puts Aria back in her turn, without a new revision: the authority's memory is stale.
    updateBy(flag, { state: { current: "combatantAria001" } });
    const again = parseStoredEncounter(flag);
    const bound = again === null ? null : authority.load(again, flag);
    expect(bound?.view.current).toBe("combatantAria001");
    expect(bound?.state).toEqual(parseIndividualState(decodeArrays((flag as { state: Json }).state)));
    const { applied } = applyTo(authority, flag, { type: "nextTurn" }, 100);
    expect(applied.ok && applied.view.current).toBe("combatantBrom001");
  });

  it("a malformed entry refuses the undo that needs it, after a reload, and every other command works", () => {
    const authority = binding();
    const flag = started(authority);
    for (let i = 0; i < 4; i += 1) applyTo(authority, flag, { type: "nextTurn" }, 100);
    const history = flag.history as Record<string, { undo: unknown }>;
    const oldest = Object.keys(history)[0] ?? "";
    const entry = history[oldest];
    if (entry === undefined) throw new Error("no history");
    entry.undo = [[7]];
    const reloaded = binding();
    expect(applyTo(reloaded, flag, { type: "nextTurn" }, 100).applied.ok).toBe(true);
    // The malformed entry is kept as it is: nothing is lost, nothing rewritten.
    expect(history[oldest]?.undo).toEqual([[7]]);
    const results: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const { applied } = applyTo(reloaded, flag, { type: "previousTurn" }, 100);
      results.push(applied.ok ? "ok" : applied.refusal.code);
    }
    expect(results).toEqual(["ok", "ok", "ok", "ok", "corrupted", "corrupted"]);
    expect(history[oldest]?.undo).toEqual([[7]]);
  });
});

describe("a load checks every history entry", () => {
  const binding = () => bindPure(pureMode("individual"));
  const gm = { userId: "gmUser0000000001", isGM: true, owns: [] };
  const roster = ["combatantAria001", "combatantBrom001", "combatantOffi001"].map((id, i) => ({
    id,
    name: id,
    isPC: i < 2,
  }));
  type Flag = Record<string, unknown> & { history: Record<string, Record<string, unknown>> };

  /** A flag with `steps` undo entries, parsed once (as every client has, before the next update). */
  function flagWith(steps: number): Flag {
    const authority = binding();
    const rolls = roster.map((c, i) => ({ type: "recordInitiative", combatantId: c.id, total: 20 - i, modifier: 0 }));
    const flag = JSON.parse(JSON.stringify(authority.createWith(roster, [...rolls, { type: "start" }], gm))) as Flag;
    for (let i = 0; i < steps; i += 1) {
      const parsed = parseStoredEncounter(flag);
      const applied = parsed === null ? null : authority.load(parsed, flag)?.apply({ type: "nextTurn" }, gm, 100, null);
      if (applied?.ok !== true) throw new Error("the step was refused");
      mergeObject(flag, applied.update, { performDeletions: true });
    }
    expect(parseStoredEncounter(flag)).not.toBeNull();
    return flag;
  }

  /** Merge someone's update into the flag, as the document does. */
  function update(flag: Flag, change: Record<string, unknown>): void {
    mergeObject(flag, change, { performDeletions: true });
  }

  it("an old entry made garbage later, in place (the document merges into it), makes the encounter unreadable", () => {
    const flag = flagWith(4);
    const oldest = Object.keys(flag.history)[0] ?? "";
    const entry = flag.history[oldest];
    update(flag, { history: { [oldest]: { undo: "x" } } });
    // The same object, changed: what a parse found of it before must not vouch for it.
    expect(flag.history[oldest]).toBe(entry);
    expect(parseStoredEncounter(flag)).toBeNull();
    // And it stays unreadable on the next parse, whatever the next update changes.
    update(flag, { rev: 99 });
    expect(parseStoredEncounter(flag)).toBeNull();
  });

  it("an old entry replaced by a garbage object, or its round facts made garbage, makes the encounter unreadable", () => {
    const replaced = flagWith(3);
    const oldest = Object.keys(replaced.history)[0] ?? "";
    update(replaced, { history: { [`==${oldest}`]: { kind: "later" } } });
    expect(parseStoredEncounter(replaced)).toBeNull();
    const rounds = flagWith(3);
    update(rounds, { history: { [oldest]: { r: "two" } } });
    expect(parseStoredEncounter(rounds)).toBeNull();
    const gone = flagWith(3);
    update(gone, { history: { [`-=${oldest}`]: null } });
    update(gone, { history: { [oldest]: "garbage" } });
    expect(parseStoredEncounter(gone)).toBeNull();
  });

  it("a garbage entry in a copy, a replaced history or the flag itself makes the encounter unreadable", () => {
    const flag = flagWith(4);
    const oldest = Object.keys(flag.history)[0] ?? "";
    const copy = JSON.parse(JSON.stringify(flag)) as Flag;
    (copy.history[oldest] as { undo: unknown }).undo = "x";
    // The copy was never parsed: what a parse found for the original says nothing about it.
    expect(parseStoredEncounter(copy)).toBeNull();
    flag.history = JSON.parse(JSON.stringify(copy.history)) as Flag["history"];
    expect(parseStoredEncounter(flag)).toBeNull();
    const mutated = flagWith(4);
    (mutated.history[oldest] as { undo: unknown }).undo = "x";
    expect(parseStoredEncounter(mutated)).toBeNull();
  });
});
