/** The bundle's size figures (scripts/bundle-size.mjs) and what the minified bundle must keep. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLE_TARGET_GZIP_KB, bundleSizes, codeBySource, shareOf } from "../../scripts/bundle-size.mjs";

const bundleFile = path.resolve(import.meta.dirname, "../../dist/scripts/structured-initiative.js");

describe("bundle size attribution", () => {
  it("gives each generated segment to the source file it maps to", () => {
    // Line 1: "abc" from source 0, "def" from source 1 (segments AAAA, then GCAA: column +3, source +1).
    const map = { sources: ["a.ts", "b.ts"], mappings: "AAAA,GCAA" };
    expect(Object.fromEntries(codeBySource("abcdef", map))).toEqual({ "a.ts": "abc", "b.ts": "def" });
  });

  it("counts a file under src/modes/<id>/ for its mode, any other under src/ for the shared core", () => {
    expect(shareOf("../../src/modes/sides/rules/mode.ts")).toBe("mode sides");
    expect(shareOf("../../src/modes/registry.ts")).toBe("core");
    expect(shareOf("../../src/core/engine.ts")).toBe("core");
    expect(shareOf("../../node_modules/x/index.js")).toBeNull();
  });

  it("splits the built bundle into the five modes and the core, which add up to the whole", () => {
    const sizes = bundleSizes(bundleFile);
    expect(Object.keys(sizes.modes)).toEqual(["declare-resolve", "individual", "phases", "sides", "slots"]);
    const shares = Object.values(sizes.modes).reduce((t, s) => t + s.rawKB, sizes.core.rawKB);
    // Only separators the minifier writes between statements map to no source.
    expect(shares).toBeLessThanOrEqual(sizes.total.rawKB);
    expect(shares).toBeGreaterThan(sizes.total.rawKB * 0.99);
    expect(sizes.target.gzipKB).toBe(BUNDLE_TARGET_GZIP_KB);
    expect(sizes.met).toBe(sizes.total.gzipKB <= BUNDLE_TARGET_GZIP_KB);
  });
});

describe("the minified bundle", () => {
  it("keeps the class names Foundry names hooks after (renderSICombatTracker and the like)", () => {
    const code = readFileSync(bundleFile, "utf8");
    for (const name of ["SICombatTracker", "SICombat", "SICombatant", "SISettingsForm", "CatalogueForm"])
      expect(code).toMatch(new RegExp(`\\bclass ${name} extends\\b`));
  });
});

describe("figures of the bundle's size are the build's, never typed by hand (issue 31 item 5)", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const documents = [
    "README.md",
    "CHANGELOG.md",
    ...readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".md"))
      .map((f) => path.join("docs", f)),
  ];

  /** Every sentence of a text that speaks of the bundle's size, with the KB figures it quotes. */
  function sizeClaims(text: string): { sentence: string; figures: string[] }[] {
    return text
      .replace(/\s+/g, " ")
      .split(/(?<=[.;:!?])\s/)
      .filter((sentence) => /\b(bundle|gzip|module script|minified)\b/i.test(sentence))
      .map((sentence) => ({
        sentence,
        figures: [...sentence.matchAll(/(?<!at most |≤ ?|<= ?)\b(\d+(?:\.\d+)?)\s*KB\b(?! target)/g)].map((m) => m[0]),
      }))
      .filter((claim) => claim.figures.length > 0);
  }

  it("no document quotes a KB figure of the bundle (a target, at most N KB, is no measurement)", () => {
    for (const file of documents) expect(sizeClaims(readFileSync(path.join(root, file), "utf8")), file).toEqual([]);
  });

  it("catches a hand-typed figure", () => {
    expect(
      sizeClaims("The module script is minified: about 75 KB gzip instead of 92 KB.").map((c) => c.figures),
    ).toEqual([["75 KB", "92 KB"]]);
    expect(sizeClaims("A step sends under 1 KB at 100 combatants. The gzip size against the 60 KB target.")).toEqual(
      [],
    );
  });
});
