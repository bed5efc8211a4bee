/**
 * Every Foundry call whose shape differs between v13 and v14 goes through src/foundry/compat.ts
 * (issue 14 item 1): none of their names appears in code anywhere else in src/. Comments may name
 * them; code may not.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const SEAM = "src/foundry/compat.ts";

/** The names that differ between generations, each with what it stands for. */
const DIFFERING: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bContextMenu\b/, "a context menu (entry shapes differ)"],
  [/\bapplyRollMode\b|\bapplyMode\b/, "applying a roll/message mode"],
  [/\bmessageMode\b|["'`]rollMode["'`]|\bDICE_ROLL_MODES\b/, "the roll/message mode setting or option"],
  [/["'`](?:publicroll|gmroll|blindroll|selfroll)["'`]/, "a v13 roll mode name"],
  [/\btoMessage\s*\(/, "posting a roll (its mode option differs)"],
  [/\bForcedDeletion\b|["'`][^"'`\n]*-=/, "deleting a key in an update"],
  [/\badvanceTime\b|\bworldTime\b/, "the combatTurn/combatRound options"],
  [/\bgetCombatantsByToken\b|\bgetCombatantByToken\b/, "combatants of a token"],
];

/**
 * The pure layer's update language is v13's update data (`-=key` deletions): src/core/patch.ts
 * writes it and `compat.updateData` translates it for the running generation at every write.
 */
const EXEMPT: Readonly<Record<string, readonly string[]>> = { "src/core/patch.ts": ["deleting a key in an update"] };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith(".ts") ? [full] : [];
  });
}

/** Source without comments (block comments and line comments that do not sit in a string or URL). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Every use of a differing name outside the seam, as `file: what (match)`. */
function leaks(files: ReadonlyArray<readonly [string, string]>): string[] {
  const found: string[] = [];
  for (const [rel, text] of files) {
    if (rel === SEAM) continue;
    const body = code(text);
    for (const [pattern, what] of DIFFERING) {
      if (EXEMPT[rel]?.includes(what) === true) continue;
      const match = pattern.exec(body);
      if (match !== null) found.push(`${rel}: ${what} (${match[0]})`);
    }
  }
  return found;
}

const sources = (): Array<[string, string]> =>
  filesUnder(path.join(root, "src")).map((file) => [
    path.relative(root, file).split(path.sep).join("/"),
    readFileSync(file, "utf8"),
  ]);

describe("one compatibility seam", () => {
  it("no name that differs between v13 and v14 is used in src/ outside src/foundry/compat.ts", () => {
    expect(leaks(sources())).toEqual([]);
  });

  it("the seam itself uses them (the check reads real code; the module applies no mode by hand)", () => {
    const seam = code(readFileSync(path.join(root, SEAM), "utf8"));
    // Combatants of a token: the module no longer asks for them (the unused seam function went,
    // issue 30 item 4); the name stays guarded for any future use.
    for (const [pattern, what] of DIFFERING.filter(([p]) => !/applyRollMode|getCombatantsByToken/.test(p.source)))
      expect(pattern.test(seam), what).toBe(true);
  });

  it.each([
    ['new foundry.applications.ux.ContextMenu(root, ".row", entries, {});', "a context menu"],
    ['await roll.toMessage(data, { rollMode: "gmroll" });', "posting a roll"],
    ['game.settings.get("core", "rollMode");', "the roll/message mode setting"],
    ["update[`flags.x.-=${key}`] = null;", "deleting a key"],
    [
      "Hooks.callAll('combatTurn', combat, data, { advanceTime: 0, direction: 1 });",
      "the combatTurn/combatRound options",
    ],
    ["combat.getCombatantByToken(token.id);", "combatants of a token"],
    ["ChatMessage.applyRollMode(data, mode);", "applying a roll/message mode"],
  ])("a leak is caught: %s", (line, what) => {
    const found = leaks([["src/foundry/tracker/rows.ts", `export function f(): void {\n  ${line}\n}\n`]]);
    expect(
      found.some((f) => f.includes(what)),
      found.join("\n"),
    ).toBe(true);
  });

  it("comments may name them", () => {
    expect(
      leaks([
        ["src/foundry/chat.ts", "/** Uses ChatMessage.applyRollMode in v13. */\n// worldTime\nexport const x = 1;\n"],
      ]),
    ).toEqual([]);
  });
});
