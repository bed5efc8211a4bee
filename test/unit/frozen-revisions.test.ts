/**
 * Issue #26: no rule may depend on an object never being changed unless a test proves it. What the
 * kept speed mechanisms assume, proven here with every object they key on deep-frozen:
 * - the stored form each state and each part of it was loaded from, written or encoded as (the
 *   loaded revision's `forms`, `LoadedEncounter` in store.ts, handed on to the revision its write
 *   makes) is reused only because states, their parts and the stored forms are never changed once made;
 * - the authority's memory of what it wrote (`written`, kept by the revision it wrote from,
 *   `BoundEncounter` in binding.ts) is reused for the next step only because the loaded encounter,
 *   its state and its history are never changed.
 * Every mode is driven through its binding, steps and undos, with each state, stored form and loaded
 * revision frozen as soon as it is made: a mutation anywhere throws. Each revision the remembering
 * authority loads must equal what a client that remembers nothing loads from the same flag.
 */
import { describe, expect, it } from "vitest";
import { parseStoredEncounter } from "../../src/core/store";
import { GM_REQ, encounterOf, nextCommand } from "../../bench/steps-world";
import { PURE_MODES, asAuthority, bindPure } from "../rules/pure-modes";
import { deepFreeze } from "../rules/property-harness";
import { mergeObject } from "../sim/utils";

const LIMIT = 10;

describe("the kept mechanisms hold with every state, stored form and loaded revision frozen", () => {
  for (const mode of PURE_MODES)
    it(`${mode.id}: 40 steps and undos on frozen revisions load as a fresh client loads them`, () => {
      const { kit, binding: plain, stored } = encounterOf(mode, 6, 3);
      const binding = asAuthority(plain);
      // The document's flag: a copy of each update is merged into it (what arrives over the wire).
      const flag = JSON.parse(JSON.stringify(stored)) as Record<string, unknown>;
      const tried = new Set<string>();
      for (let i = 0; i < 40; i += 1) {
        const parsed = parseStoredEncounter(flag);
        const bound = parsed === null ? null : binding.load(parsed, flag);
        if (bound === null) throw new Error(`${mode.id}: the flag did not load`);
        deepFreeze(bound.state);
        const fresh = bindPure(mode).load(parseStoredEncounter(JSON.parse(JSON.stringify(flag))) ?? stored);
        expect(bound.state).toEqual(fresh?.state);
        expect(bound.undoTarget("previousTurn")).toEqual(fresh?.undoTarget("previousTurn"));
        const state: unknown = bound.state;
        // Every fifth step an undo, else the next command that moves the encounter on.
        const commands = i % 5 === 4 ? [{ type: "previousTurn" }] : nextCommand(kit, mode, state, tried);
        let moved = false;
        for (const command of commands) {
          const applied = bound.apply(command, GM_REQ, LIMIT, null);
          if (!applied.ok) continue;
          deepFreeze(applied);
          if (JSON.stringify(applied.update) === JSON.stringify({ rev: (parsed?.rev ?? 0) + 1 }))
            tried.add(JSON.stringify(command));
          else tried.clear();
          mergeObject(flag, JSON.parse(JSON.stringify(applied.update)) as Record<string, unknown>, {
            performDeletions: true,
          });
          moved = true;
          break;
        }
        expect(moved, `${mode.id}: nothing to apply at step ${i}`).toBe(true);
      }
    });
});
