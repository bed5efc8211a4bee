/**
 * Every behaviour the simulated Foundry emulates names a public source (issue 28, item 4). A
 * behaviour is tagged in its comment: `@behaviour <what it does>` and `@source <where a public page
 * or repository says so>`. This test lists them all, each with its source, and fails when a tag has
 * no source, when a source names neither a web address nor a repository, when a deprecation warning
 * or a v14 effect helper of the sim sits under no tagged comment, or when tags go missing.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const SIM = path.join(root, "test/sim");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith(".ts") ? [full] : [];
  });
}

interface Tagged {
  readonly file: string;
  /** The line of the comment's last line (the code it describes follows). */
  readonly line: number;
  readonly behaviour: string;
  readonly source: string;
}

/** Each `/** … *\/` comment with a `@behaviour` tag, with its `@source` (empty when none). */
function tagged(file: string, text: string): Tagged[] {
  const found: Tagged[] = [];
  for (const match of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = match[1]?.replace(/^\s*\*\s?/gm, "") ?? "";
    if (!body.includes("@behaviour")) continue;
    const behaviour = /@behaviour\s+([\s\S]*?)(?=@source|$)/.exec(body)?.[1]?.replace(/\s+/g, " ").trim() ?? "";
    const source = /@source\s+([\s\S]*)$/.exec(body)?.[1]?.replace(/\s+/g, " ").trim() ?? "";
    const end = match.index + match[0].length;
    found.push({ file, line: text.slice(0, end).split("\n").length, behaviour, source });
  }
  return found;
}

/** A source names a web address or a repository (`owner/name`). */
const CITES = /https?:\/\/\S+|\b[\w.-]+\/[\w.-]+\b/;

const files = filesUnder(SIM).map((full) => [path.relative(root, full), readFileSync(full, "utf8")] as const);
const all = files.flatMap(([file, text]) => tagged(file, text));

/**
 * Lines that must sit under a tagged comment: every deprecation warning the sim logs, and every
 * exported helper of its v14 effects. "Under" means the nearest tagged comment above ends at most
 * this many lines before it (the body of the method or function it describes).
 */
const REACH = 30;
const MUST_BE_TAGGED: ReadonlyArray<readonly [RegExp, string]> = [
  [/\blogCompatibilityWarning\(\s*["'`(\n]/, "a deprecation warning"],
  [/^export (?:async )?function /, "a v14 effect helper"],
];

describe("the simulated Foundry's sources", () => {
  it.each(all.map((t) => [`${t.file}:${t.line} ${t.behaviour}`, t] as const))("%s", (_name, t) => {
    expect(t.behaviour, "a behaviour says what it does").not.toBe("");
    expect(t.source, `${t.file}:${t.line}: "${t.behaviour}" names no source`).toMatch(CITES);
  });

  it("lists at least the behaviours tagged so far (tags are not lost)", () => {
    expect(all.length).toBeGreaterThanOrEqual(19);
  });

  it("every deprecation warning and every v14 effect helper sits under a tagged comment", () => {
    const untagged: string[] = [];
    for (const [file, text] of files) {
      const lines = text.split("\n");
      const tags = all.filter((t) => t.file === file).map((t) => t.line);
      lines.forEach((line, i) => {
        for (const [pattern, what] of MUST_BE_TAGGED) {
          if (what === "a v14 effect helper" && !file.endsWith("effects.ts")) continue;
          if (!pattern.test(line)) continue;
          const above = tags.filter((end) => end <= i + 1 && i + 1 - end <= REACH);
          if (above.length === 0) untagged.push(`${file}:${i + 1}: ${what}`);
        }
      });
    }
    expect(untagged).toEqual([]);
  });
});
