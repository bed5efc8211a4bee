/**
 * The numbered migrations (`src/core/migrations.ts`): the runner, the stored format's list, and each
 * mode's list, every migration with its fixtures (`test/fixtures/migrations/<mode>/<n>-<name>.json`:
 * a state of the older shape and the state it must become, written by hand).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isOrdered, latestVersion, migrate, type Migration } from "../../src/core/migrations";
import { STORED_MIGRATIONS, STORED_VERSION } from "../../src/core/store";
import { declareResolveMigrations, parseDeclareResolveState } from "../../src/modes/declare-resolve/rules/state";
import { individualMigrations, parseIndividualState } from "../../src/modes/individual/rules/state";
import { parsePhasesState, phasesMigrations } from "../../src/modes/phases/rules/state";
import { parseSidesState, sidesMigrations } from "../../src/modes/sides/rules/state";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/migrations");

/** Each mode with stored-state migrations, its list and its parser. */
const MODES: readonly { id: string; migrations: readonly Migration[]; parse: (data: unknown) => unknown }[] = [
  { id: "individual", migrations: individualMigrations, parse: parseIndividualState },
  { id: "sides", migrations: sidesMigrations, parse: parseSidesState },
  { id: "declare-resolve", migrations: declareResolveMigrations, parse: parseDeclareResolveState },
  { id: "phases", migrations: phasesMigrations, parse: parsePhasesState },
];

interface Fixture {
  readonly describe: string;
  readonly old: Record<string, unknown>;
  readonly expected: unknown;
}

/** The fixtures of a mode's folder, by file name, with the migration version each names. */
function fixturesOf(id: string): { file: string; version: number; fixture: Fixture }[] {
  return readdirSync(path.join(fixtures, id))
    .filter((file) => file.endsWith(".json"))
    .map((file) => ({
      file,
      version: Number(/^(\d+)-/.exec(file)?.[1] ?? NaN),
      fixture: JSON.parse(readFileSync(path.join(fixtures, id, file), "utf8")) as Fixture,
    }));
}

describe("the migration runner", () => {
  const log: string[] = [];
  const list: Migration[] = [
    { version: 1, up: (old) => (log.push("1"), { ...old, a: 1 }) },
    { version: 3, up: (old) => (log.push("3"), "b" in old ? null : { ...old, b: 2 }) },
  ];

  it("runs the migrations above the stored version, in order", () => {
    log.length = 0;
    expect(migrate({ x: 0 }, list)).toEqual({ x: 0, a: 1, b: 2 });
    expect(log).toEqual(["1", "3"]);
    log.length = 0;
    expect(migrate({ x: 0 }, list, 1)).toEqual({ x: 0, b: 2 });
    expect(migrate({ x: 0 }, list, 3)).toEqual({ x: 0 });
    expect(log).toEqual(["3"]);
  });

  it("rejects what a migration finds malformed, and leaves what is not an object to the parser", () => {
    expect(migrate({ b: 0 }, list)).toBeNull();
    expect(migrate([1], list)).toEqual([1]);
    expect(migrate(null, list)).toBeNull();
  });

  it("knows a list's latest version and whether it is in order", () => {
    expect(latestVersion(list)).toBe(3);
    expect(latestVersion([])).toBe(0);
    expect(isOrdered(list)).toBe(true);
    expect(isOrdered([...list].reverse())).toBe(false);
    expect(isOrdered([{ ...list[0], version: 0 } as Migration])).toBe(false);
  });

  it("the stored format's list ends at the version the store writes (its fixtures: test/fixtures/stored/)", () => {
    expect(isOrdered(STORED_MIGRATIONS)).toBe(true);
    expect(latestVersion(STORED_MIGRATIONS)).toBe(STORED_VERSION);
  });
});

describe.each(MODES)("$id: the stored state's migrations", ({ id, migrations, parse }) => {
  const found = fixturesOf(id);

  it("are numbered in order, each with a fixture, and every fixture names one of them", () => {
    expect(isOrdered(migrations)).toBe(true);
    for (const m of migrations)
      expect(
        found.map((f) => f.version),
        `migration ${m.version}`,
      ).toContain(m.version);
    for (const f of found)
      expect(
        migrations.map((m) => m.version),
        f.file,
      ).toContain(f.version);
  });

  it.each(found)("$file: the migration gives the expected state, and so does the parser", ({ version, fixture }) => {
    const migration = migrations.find((m) => m.version === version);
    expect(migration?.up(structuredClone(fixture.old))).toEqual(fixture.expected);
    // The parser runs every migration: the older shape reads as the expected state, which is today's.
    expect(parse(structuredClone(fixture.old))).toEqual(fixture.expected);
    expect(parse(structuredClone(fixture.expected))).toEqual(fixture.expected);
  });

  it.each(found)("$file: today's shape passes through its migration as it is", ({ version, fixture }) => {
    const migration = migrations.find((m) => m.version === version);
    const today = structuredClone(fixture.expected) as Record<string, unknown>;
    expect(migration?.up(today)).toBe(today);
  });
});
