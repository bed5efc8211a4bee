import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("the rules layer stays pure (lint boundary)", () => {
  it("refuses Foundry globals, the DOM, the clock and randomness in src/rules/", async () => {
    const eslint = new ESLint({ cwd: root });
    const code = [
      'import { MODULE_ID } from "../foundry/store";',
      "export const leaks = [game, CONFIG, Hooks, ui, document, Date, Math.random(), MODULE_ID];",
      "",
    ].join("\n");
    const [result] = await eslint.lintText(code, { filePath: path.join(root, "src/modes/individual/rules/individual.ts") });
    const rules = (result?.messages ?? []).map((m) => `${m.ruleId ?? ""}:${m.message}`);
    for (const name of ["game", "CONFIG", "Hooks", "ui", "document", "Date"]) {
      expect(
        rules.some((r) => r.startsWith(`no-restricted-globals:Unexpected use of '${name}'.`)),
        name,
      ).toBe(true);
    }
    expect(rules.some((r) => r.startsWith("no-restricted-properties"))).toBe(true);
    expect(rules.some((r) => r.startsWith("no-restricted-imports"))).toBe(true);
  }, 60_000);
});
