import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { REFUSAL_CODES } from "../../src/core/engine";
import { GLUE_REFUSAL_CODES } from "../../src/core/protocol";
import { MODES } from "../../src/modes/registry";

// The modes' glue reads Foundry's `Hooks` when its files load; nothing here calls it.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

type Tree = { [key: string]: string | Tree };
const lang = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../lang/en.json"), "utf8")) as Tree;

function lookup(key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], lang);
}

describe("every user-facing message is localised", () => {
  const modeCodes = MODES.flatMap((mode) => mode.refusalCodes);
  it.each([...REFUSAL_CODES, ...GLUE_REFUSAL_CODES, ...modeCodes])("refusal %s has a message", (code) => {
    const text = lookup(`STRUCTURED_INITIATIVE.Refusal.${code}`);
    expect(typeof text).toBe("string");
    expect((text as string).length).toBeGreaterThan(10);
  });

  it.each(["system", ...MODES.map((mode) => mode.id)])("mode %s has a name", (mode) => {
    expect(typeof lookup(`STRUCTURED_INITIATIVE.Mode.${mode}`)).toBe("string");
  });
});

describe('counts agree with their words (issue 15 item 13: "1 advantages")', () => {
  /** Every text of the tree with its key. */
  function* texts(node: Tree, key: string): Generator<[string, string]> {
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === "string") yield [`${key}.${k}`, v];
      else yield* texts(v, `${key}.${k}`);
    }
  }
  const PLURAL = new Set(["zero", "one", "two", "few", "many", "other"]);

  it("a count followed by a word is a plural text, with one and other", () => {
    for (const [key, text] of texts(lang, "")) {
      if (!/\{count\}\s*\p{L}/u.test(text)) continue;
      const parts = key.split(".");
      expect(PLURAL.has(parts.at(-1) ?? ""), key).toBe(true);
      const parent = lookup(parts.slice(1, -1).join(".")) as Tree;
      expect(Object.keys(parent).sort(), key).toEqual(expect.arrayContaining(["one", "other"]));
    }
  });

  it("no number placeholder but {count} stands before a counted noun", () => {
    for (const [key, text] of texts(lang, ""))
      expect(
        /\{(primary|secondary|n|number|total|available|seconds)\}\s+(success|advantage|action|second)/u.test(text),
        key,
      ).toBe(false);
  });
});
