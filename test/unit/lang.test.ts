import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REFUSAL_CODES, MODE_IDS } from "../../src/core/engine";
import { GLUE_REFUSAL_CODES } from "../../src/core/protocol";

type Tree = { [key: string]: string | Tree };
const lang = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../lang/en.json"), "utf8")) as Tree;

function lookup(key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], lang);
}

describe("every user-facing message is localised", () => {
  it.each([...REFUSAL_CODES, ...GLUE_REFUSAL_CODES])("refusal %s has a message", (code) => {
    const text = lookup(`STRUCTURED_INITIATIVE.Refusal.${code}`);
    expect(typeof text).toBe("string");
    expect((text as string).length).toBeGreaterThan(10);
  });

  it.each(["system", ...MODE_IDS])("mode %s has a name", (mode) => {
    expect(typeof lookup(`STRUCTURED_INITIATIVE.Mode.${mode}`)).toBe("string");
  });
});
