/**
 * Every mode's initiative roll goes through `src/foundry/rolls.ts` (issue 30 item 4): a mode that
 * rolls per combatant uses `rollEach`, one that rolls once per group of combatants (a side) uses
 * `rollGroups`. Both say a refusal before any die and roll through `rollFor`, so the chat message,
 * the roll mode and the world's dice setting are the same in every mode.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const modes = path.resolve(import.meta.dirname, "../../src/modes");
const ids = readdirSync(modes).filter((name) => statSync(path.join(modes, name)).isDirectory());

/** The names a mode's initiative.ts imports from the shared rolls module. */
function rollsImports(id: string): string[] {
  const source = readFileSync(path.join(modes, id, "initiative.ts"), "utf8");
  const found = /import\s*\{([^}]*)\}\s*from\s*"\.\.\/\.\.\/foundry\/rolls"/.exec(source);
  return (found?.[1] ?? "")
    .split(",")
    .map((name) => name.replace(/^\s*type\s+/, "").trim())
    .filter((name) => name !== "");
}

describe("every mode's initiative roll goes through src/foundry/rolls.ts", () => {
  it("finds the five modes", () => {
    expect(ids).toEqual(expect.arrayContaining(["individual", "sides", "slots", "declare-resolve", "phases"]));
  });

  // phases rolls no initiative (the phases give the order): its initiative.ts imports no roll.
  it.each(ids.filter((id) => id !== "phases"))("%s rolls with rollEach or rollGroups", (id) => {
    const names = rollsImports(id);
    expect(
      names.some((name) => name === "rollEach" || name === "rollGroups"),
      names.join(", "),
    ).toBe(true);
  });
});
