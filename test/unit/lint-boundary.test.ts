/**
 * The pure layer (src/core/ and src/modes/<id>/rules/) is held by a lint boundary: no Foundry
 * globals, DOM, clock or randomness, and imports only from src/core/ (a mode's rules also from their
 * own folder). The shared glue names no mode.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

async function lint(code: string, file: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? ""}:${m.message}`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith(".ts") ? [full] : [];
  });
}

const LEAKS = "export const leaks = [game, CONFIG, Hooks, ui, document, Date, Math.random()];\n";

describe("the pure layer stays pure (lint boundary)", () => {
  it.each(["src/core/engine.ts", "src/modes/individual/rules/commands.ts", "src/modes/slots/rules/state.ts"])(
    "%s refuses Foundry globals, the DOM, the clock and randomness",
    async (file) => {
      const rules = await lint(LEAKS, file);
      for (const name of ["game", "CONFIG", "Hooks", "ui", "document", "Date"]) {
        expect(
          rules.some((r) => r.startsWith(`no-restricted-globals:Unexpected use of '${name}'.`)),
          name,
        ).toBe(true);
      }
      expect(rules.some((r) => r.startsWith("no-restricted-properties"))).toBe(true);
    },
    // The first case builds ESLint's typed program, which takes over a minute on a loaded 2-core
    // machine; the test asserts lint results, not time.
    180_000,
  );

  it.each([
    ["src/core/engine.ts", 'import { MODULE_ID } from "../constants";'],
    ["src/core/store.ts", 'import { submit } from "../foundry/authority/controller";'],
    ["src/modes/individual/rules/commands.ts", 'import { submit } from "../../../foundry/authority/controller";'],
    ["src/modes/individual/rules/commands.ts", 'import { rollCheck } from "../initiative";'],
    ["src/modes/individual/rules/commands.ts", 'import { slotsMode } from "../../slots/rules/mode";'],
    ["src/modes/slots/rules/state.ts", 'import { MODULE_ID } from "../../../constants";'],
    ["src/modes/slots/rules/state.ts", 'import type { Combat } from "fvtt-types";'],
  ])(
    "%s may not import %s",
    async (file, line) => {
      const rules = await lint(`${line}\nexport const x = 1;\n`, file);
      expect(rules.some((r) => r.startsWith("no-restricted-imports"))).toBe(true);
    },
    60_000,
  );

  it.each([
    ["src/core/store.ts", 'import { jsonEqual } from "./patch";'],
    ["src/modes/sides/rules/state.ts", 'import { isRecord } from "../../../core/common";'],
    ["src/modes/sides/rules/state.ts", 'import { sidesMode } from "./mode";'],
  ])(
    "%s may import %s",
    async (file, line) => {
      const rules = await lint(`${line}\nexport const x = 1;\n`, file);
      expect(rules.filter((r) => r.startsWith("no-restricted-imports"))).toEqual([]);
    },
    60_000,
  );

  it("a file that says it is pure lies inside the boundary", () => {
    const inside = (file: string): boolean => {
      const rel = path.relative(root, file).split(path.sep).join("/");
      return rel.startsWith("src/core/") || /^src\/modes\/[^/]+\/rules\//.test(rel);
    };
    const claims = filesUnder(path.join(root, "src")).filter((file) =>
      /Pure: no Foundry|\bpure\b: no Foundry|, pure\b/i.test(readFileSync(file, "utf8").slice(0, 600)),
    );
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.filter((file) => !inside(file)).map((file) => path.relative(root, file))).toEqual([]);
  });
});

/** Relative imports of a TypeScript file (type-only ones included), resolved to files. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const specs = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']/g)].map(
    (m) => m[1] ?? "",
  );
  return specs.flatMap((spec) => {
    const base = path.resolve(path.dirname(file), spec);
    return [`${base}.ts`, `${base}.d.ts`, path.join(base, "index.ts")].filter((candidate) => {
      try {
        return statSync(candidate).isFile();
      } catch {
        return false;
      }
    });
  });
}

describe("the import graph", () => {
  const files = filesUnder(path.join(root, "src"));
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it("has no cycle, type-only imports included", () => {
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        const from = trail.indexOf(file);
        cycles.push([...trail.slice(from), file].map((f) => path.relative(root, f)).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("sees the imports it checks (a file that imports another is found)", () => {
    const index = path.join(root, "src/index.ts");
    expect(graph.get(index)).toContain(path.join(root, "src/modes/registry.ts"));
  });

  it("the shared glue names no mode: outside src/modes/ no file holds a mode's id as a string", () => {
    const ids = readdirSync(path.join(root, "src/modes")).filter((name) =>
      statSync(path.join(root, "src/modes", name)).isDirectory(),
    );
    expect(ids).toContain("sides");
    const shared = files.filter((file) => !file.startsWith(path.join(root, "src/modes") + path.sep));
    const named = shared.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return ids.filter((id) => text.includes(`"${id}"`)).map((id) => `${path.relative(root, file)}: "${id}"`);
    });
    expect(named).toEqual([]);
  });

  it("the shared templates name no mode and include no mode's partial by path", () => {
    const ids = readdirSync(path.join(root, "src/modes")).filter((name) =>
      statSync(path.join(root, "src/modes", name)).isDirectory(),
    );
    expect(ids).toContain("phases");
    const dir = path.join(root, "templates");
    const shared = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith(".hbs") && !name.startsWith(`modes${path.sep}`));
    expect(shared).toContain(path.join("tracker", "glance.hbs"));
    const named = shared.filter((name) => {
      const text = readFileSync(path.join(dir, name), "utf8");
      return text.includes("templates/modes/") || ids.some((id) => text.includes(`"${id}"`));
    });
    expect(named).toEqual([]);
  });
});
