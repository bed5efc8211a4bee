/**
 * The stored format's upgrades: an encounter each mode stored in format 1 (fixtures written by that
 * version, undo history included) loads as the same state and history, is stored in today's format
 * by one write, and undoes step by step afterwards.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeArrays, type Json } from "../../src/core/patch";
import { loadEncounter, parseStoredEncounter, STORED_VERSION, storedVersion } from "../../src/core/store";
import { bindPure, parseWith, pureMode, type PureRules } from "../rules/pure-modes";
import { mergeObject } from "../sim/utils.js";

interface Fixture {
  readonly stored: unknown;
  readonly expected: { readonly state: unknown; readonly history: readonly { kind: string; state: unknown }[] };
}

const read = (name: string): unknown =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../fixtures/stored/${name}.json`), "utf8"));

const cases: PureRules[] = ["sides", "slots", "declare-resolve", "phases"].map(pureMode);

const GM = { userId: "gmUser0000000001", isGM: true, owns: [] };

/** Foundry's merge of update data into a document's flag (`-=key` deletes; objects merge). */
function applyUpdate(raw: unknown, update: { [key: string]: unknown }): unknown {
  return mergeObject(structuredClone(raw) as Record<string, unknown>, update, { performDeletions: true });
}

describe.each(cases)("format 1 → $id", (c) => {
  const fixture = read(`v1-${c.id}`) as Fixture;
  const binding = bindPure(c);

  it("loads as the state and undo history format 1 loaded, and is stored in today's format by one write", () => {
    expect(storedVersion(fixture.stored)).toBe(1);
    const stored = parseStoredEncounter(fixture.stored);
    expect(stored?.v).toBe(STORED_VERSION);
    if (stored === null) return;
    const loaded = loadEncounter(c.id, stored, parseWith(c));
    expect(loaded?.encounter.state).toEqual(c.parse(fixture.expected.state));
    expect(loaded?.encounter.history.map((s) => [s.kind, s.state])).toEqual(
      fixture.expected.history.map((s) => [s.kind, c.parse(s.state)]),
    );

    const bound = binding.load(stored, fixture.stored);
    expect(bound?.upgraded).toBe(true);
    const live = (bound?.state.combatants ?? []).map((x) => ({ id: x.id, name: x.id, isPC: false }));
    const written = bound?.reconcile(live, GM, 100);
    expect(written?.ok, "the upgrade is written even though nothing else changed").toBe(true);
    if (written?.ok !== true) return;
    const after = applyUpdate(fixture.stored, written.update);
    expect(storedVersion(after)).toBe(STORED_VERSION);
    // What the flag holds after that one write is exactly the upgraded form.
    expect(after).toEqual(written.stored);
    const again = parseStoredEncounter(after);
    const reloaded = again === null ? null : binding.load(again, after);
    expect(reloaded?.upgraded).toBe(false);
    expect(reloaded?.reconcile(live, GM, 100), "nothing left to write").toBeNull();
    expect(decodeArrays((after as { state: Json }).state)).toEqual(decodeArrays(written.stored.state));
  });

  it("after the upgrade, undo walks back through every snapshot of the history in turn", () => {
    const stored = parseStoredEncounter(fixture.stored);
    let bound = stored === null ? null : binding.load(stored, fixture.stored);
    const seen: unknown[] = [];
    for (let i = 0; i < fixture.expected.history.length && bound !== null; i += 1) {
      const undone = bound.apply({ type: "previousTurn" }, GM, 100, null);
      if (!undone.ok) break;
      bound = binding.load(undone.stored);
      seen.push(bound?.state);
    }
    expect(seen).toEqual(fixture.expected.history.map((s) => c.parse(s.state)).reverse());
  });
});

describe("format 1 → individual (the hand-written fixture)", () => {
  it("upgrades with its rounds, so previous round lands where format 1 said", () => {
    const raw = read("v1-individual");
    const stored = parseStoredEncounter(raw);
    const binding = bindPure(pureMode("individual"));
    const bound = stored === null ? null : binding.load(stored, raw);
    expect(bound?.undoTarget("previousRound")).toMatchObject({ round: 1 });
  });
});
