/**
 * The load of a Combat's encounter (`loadBound`, encounters.ts): once per stored revision; after an
 * update, the revision loaded before is handed to the next load, which takes the state and history
 * of the write that revision made (`BoundEncounter#written`) while the flag holds exactly that
 * write. A forgotten load is never returned.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLAGS, MODULE_ID } from "../../src/constants";
import { forgetLoaded, loadBound } from "../../src/foundry/authority/encounters";
import { installModes } from "../../src/foundry/modes";
import type { AnyModeModule } from "../../src/modes/contract";
import { mergeObject } from "../sim/utils";
import { bindPure, parseWith, pureMode } from "../rules/pure-modes";

const GM = { userId: "gmUser0000000001", isGM: true, owns: [] };
const ROSTER = ["combatantAria001", "combatantBrom001", "combatantOffi001"].map((id, i) => ({
  id,
  name: id,
  isPC: i < 2,
}));
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The individual mode as the registry installs a mode: its rules, state parser and roster commands. */
function individualModule(): AnyModeModule {
  const mode = pureMode("individual");
  return {
    id: mode.id,
    rules: mode.rules,
    parseState: parseWith(mode),
    roster: {
      add: (entry: unknown) => ({ type: "addCombatant", combatant: entry }),
      remove: (id: string) => ({ type: "removeCombatant", combatantId: id }),
      ids: (state: { combatants: readonly { id: string }[] }) => state.combatants.map((c) => c.id),
    },
  } as unknown as AnyModeModule;
}

/** A Combat as encounters.ts reads it: its module's flags (an update merges into them in place). */
function combatWith(flags: Record<string, unknown>): Combat.Implementation {
  return {
    getFlag: (scope: string, key: string): unknown => (scope === MODULE_ID ? flags[key] : undefined),
  } as unknown as Combat.Implementation;
}

/** A started encounter's flags, as the document holds them. */
function startedFlags(): Record<string, unknown> {
  const rolls = ROSTER.map((c, i) => ({ type: "recordInitiative", combatantId: c.id, total: 20 - i, modifier: 0 }));
  const stored = bindPure(pureMode("individual")).createWith(ROSTER, [...rolls, { type: "start" }], GM);
  return { [FLAGS.mode]: "individual", [FLAGS.encounter]: copy(stored) };
}

describe("a Combat's loaded encounter", () => {
  beforeAll(() => {
    installModes([individualModule()]);
  });
  afterAll(() => {
    installModes([]);
  });

  it("is loaded once per revision, and a forgotten load is never returned", () => {
    const combat = combatWith(startedFlags());
    const first = loadBound(combat);
    expect(first).not.toBeNull();
    expect(loadBound(combat)).toBe(first);
    forgetLoaded(combat);
    const again = loadBound(combat);
    expect(again).not.toBe(first);
    expect(again?.state).toEqual(first?.state);
  });

  it("the authority's next load takes the state its write made; a client that did not write parses the flag", () => {
    const flags = startedFlags();
    const authority = combatWith(flags);
    const readerFlags = copy(flags);
    const reader = combatWith(readerFlags);
    const bound = loadBound(authority);
    loadBound(reader);
    const applied = bound?.apply({ type: "nextTurn" }, GM, 100, null);
    if (applied?.ok !== true) throw new Error("the step was refused");
    // The update reaches every client, merged into its flag; each Combat forgets its load.
    for (const [flag, combat] of [
      [flags, authority],
      [readerFlags, reader],
    ] as const) {
      mergeObject(flag[FLAGS.encounter] as Record<string, unknown>, copy(applied.update), { performDeletions: true });
      forgetLoaded(combat);
    }
    const next = loadBound(authority);
    expect(next?.state).toBe(applied.state);
    const read = loadBound(reader);
    expect(read?.state).not.toBe(applied.state);
    expect(read?.state).toEqual(next?.state);
    expect(next?.view).toEqual(read?.view);
    expect(next?.undoTarget("previousTurn")).toEqual(read?.undoTarget("previousTurn"));
  });
});
