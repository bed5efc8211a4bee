import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPatch, decodeArrays, diff, encodeArrays, toUpdateData, type Json } from "../../src/core/patch";
import {
  encodeEncounter,
  initialStored,
  isNewerFormat,
  loadEncounter,
  parseStoredEncounter,
  STORED_VERSION,
} from "../../src/core/store";
import { readFileSync } from "node:fs";
import path from "node:path";
import { bindMode } from "../../src/core/binding";
import { individualMode } from "../../src/modes/individual/rules/individual";
import { parseIndividualState } from "../../src/modes/individual/rules/state";
import type { Encounter } from "../../src/core/engine";

interface Toy {
  round: number;
  order: string[];
  notes: Record<string, string>;
}
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

  it("moving one id in a long order changes one stored key and makes a one-entry undo patch", () => {
    const ids = Array.from({ length: 100 }, (_, i) => `combatant${String(i).padStart(7, "0")}`);
    const moved = [...ids.slice(0, 10), ...ids.slice(11, 60), ids[10] ?? "", ...ids.slice(60)];
    const before = encodeArrays({ order: ids });
    const after = encodeArrays({ order: moved }, before);
    const update = toUpdateData(before, after) as { order: Record<string, unknown> };
    expect(Object.keys(update.order)).toEqual([ids[10]]);
    expect(decodeArrays(after)).toEqual({ order: moved });
    const undo = diff({ order: moved }, { order: ids });
    expect(undo).toEqual([[["order"], { d: [ids[10]], i: [[10, ids[10]]] }, "l"]]);
    expect(applyPatch({ order: moved }, undo)).toEqual({ order: ids });
  });

  it("any reordering, joining and leaving of ids round-trips through ranks and list edits", () => {
    const id = fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `id${i}`));
    const list = fc.uniqueArray(id, { maxLength: 12 });
    fc.assert(
      fc.property(fc.array(list, { minLength: 1, maxLength: 8 }), (lists) => {
        let stored = encodeArrays({ order: lists[0] ?? [] });
        let previous: Json = { order: lists[0] ?? [] };
        for (const next of lists.slice(1)) {
          const encoded = encodeArrays({ order: next }, stored);
          expect(decodeArrays(encoded)).toEqual({ order: next });
          expect(applyPatch(stored, diff(stored, encoded, [], { arrays: "whole" }))).toEqual(encoded);
          expect(applyPatch({ order: next }, diff({ order: next }, previous))).toEqual(previous);
          stored = encoded;
          previous = { order: next };
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it("patches reach into arrays of objects, so one changed element travels alone", () => {
    const slots = Array.from({ length: 50 }, (_, i) => ({ kind: "pc", filledBy: null as string | null, n: i }));
    const filled = slots.map((slot, i) => (i === 7 ? { ...slot, filledBy: "aria" } : slot));
    const undo = diff({ slots: filled }, { slots });
    expect(undo).toEqual([[["slots", "7", "filledBy"], null]]);
    expect(applyPatch({ slots: filled }, undo)).toEqual({ slots });
    const cut = diff({ slots }, { slots: slots.slice(0, 48) });
    expect(applyPatch({ slots }, cut)).toEqual({ slots: slots.slice(0, 48) });
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
    let stored = initialStored(toy(0, ["a", "b"]) as unknown as Json);
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
  const binding = bindMode(individualMode, parseIndividualState, {
    add: (entry) => ({ type: "addCombatant" as const, combatant: entry }),
    remove: (id) => ({ type: "removeCombatant" as const, combatantId: id }),
    ids: (state) => state.combatants.map((c) => c.id),
  });
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
