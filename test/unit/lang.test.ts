import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { REFUSAL_CODES } from "../../src/core/engine";
import { intlLocale } from "../../src/foundry/tracker/controls";
import { GLUE_REFUSAL_CODES } from "../../src/core/protocol";
import { MODES } from "../../src/modes/registry";

// The modes' glue reads Foundry's `Hooks` when its files load; nothing here calls it.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

type Tree = { [key: string]: string | Tree };
const root = path.resolve(import.meta.dirname, "../..");
const lang = JSON.parse(readFileSync(path.join(root, "lang/en.json"), "utf8")) as Tree;

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

describe("translations (issue 16 item 4): every language module.json lists is a full translation of en.json", () => {
  interface Language {
    lang: string;
    name: string;
    path: string;
  }
  const manifest = JSON.parse(readFileSync(path.join(root, "module.json"), "utf8")) as {
    title: string;
    languages: Language[];
  };
  const translations = manifest.languages.filter((l) => l.lang !== "en");
  const PLURAL = ["zero", "one", "two", "few", "many", "other"];

  /** Every leaf of a parsed language file, keyed by its dotted path; a leaf that is not a string is kept as it is. */
  function leaves(node: unknown, key = "", into = new Map<string, unknown>()): Map<string, unknown> {
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      const full = key ? `${key}.${k}` : k;
      if (v !== null && typeof v === "object") leaves(v, full, into);
      else into.set(full, v);
    }
    return into;
  }
  const english = leaves(lang) as Map<string, string>;
  const parentOf = (key: string): string => key.slice(0, key.lastIndexOf("."));
  // The ordinal texts: the k-th attack (declare-resolve/panel.ts reads them with ordinal rules).
  const ORDINAL = new Set(["STRUCTURED_INITIATIVE.Tracker.DeclareResolve.Pass.extra"]);
  /** Every English plural text (a group whose keys are all plural forms) and the rules it follows. */
  const pluralGroups = new Map<string, Intl.PluralRuleType>();
  for (const key of english.keys()) {
    const group = parentOf(key);
    const forms = [...english.keys()].filter((k) => parentOf(k) === group).map((k) => k.slice(group.length + 1));
    if (forms.every((form) => PLURAL.includes(form)))
      pluralGroups.set(group, ORDINAL.has(group) ? "ordinal" : "cardinal");
  }
  const placeholders = (text: string): string[] => [...new Set(text.match(/\{\w+\}/g))].sort();
  const load = (language: Language): Map<string, unknown> =>
    leaves(JSON.parse(readFileSync(path.join(root, language.path), "utf8")) as unknown);

  it("registers each language once, as lang/<code>.json with its own name, and every file in lang/ is registered", () => {
    const codes = manifest.languages.map((l) => l.lang);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual(expect.arrayContaining(["en", "de", "fr", "es", "pt-BR", "ja", "ko", "cn", "it", "pl"]));
    for (const language of manifest.languages) {
      expect(language.path, language.lang).toBe(`lang/${language.lang}.json`);
      expect(existsSync(path.join(root, language.path)), language.path).toBe(true);
      if (language.lang !== "en") expect(language.name, language.lang).not.toMatch(/^(English)?$/);
    }
    const files = readdirSync(path.join(root, "lang")).filter((f) => f.endsWith(".json"));
    expect(files.map((f) => `lang/${f}`).sort()).toEqual(manifest.languages.map((l) => l.path).sort());
  });

  describe.each(translations)("$name ($lang)", (language) => {
    it("exists and parses as JSON", () => {
      expect(existsSync(path.join(root, language.path)), language.path).toBe(true);
      expect(() => load(language)).not.toThrow();
    });

    it("has every key of en.json and none that en.json lacks, plural texts aside", () => {
      const texts = load(language);
      const plainKeys = (keys: Iterable<string>): string[] =>
        [...keys].filter((key) => !pluralGroups.has(parentOf(key)));
      expect(plainKeys(english.keys()).filter((key) => !texts.has(key))).toEqual([]);
      expect(plainKeys(texts.keys()).filter((key) => !english.has(key))).toEqual([]);
    });

    it("has, for every plural text, exactly the plural forms its language's rules pick (Intl.PluralRules)", () => {
      const texts = load(language);
      const locale = intlLocale(language.lang);
      const wrong: string[] = [];
      for (const [group, type] of pluralGroups) {
        const forms = [...texts.keys()]
          .filter((key) => parentOf(key) === group)
          .map((key) => key.slice(group.length + 1));
        const rules = new Intl.PluralRules(locale, { type });
        // The forms the tracker asks for: counts 0 to 1000, passes (ordinals) from the second on.
        const needed = new Set<string>(["other"]);
        for (let n = type === "ordinal" ? 2 : 0; n <= 1000; n += 1) needed.add(rules.select(n));
        const expected = [...needed].sort();
        if (forms.sort().join() !== expected.join())
          wrong.push(`${group}: ${forms.join()} instead of ${expected.join()}`);
      }
      expect(wrong).toEqual([]);
    });

    it("gives every key a non-empty text with exactly the {placeholders} of the English", () => {
      const wrong: string[] = [];
      for (const [key, text] of load(language)) {
        const source = english.get(key) ?? english.get(`${parentOf(key)}.other`) ?? "";
        if (typeof text !== "string" || text.trim() === "") wrong.push(`${key}: empty or not a text`);
        else if (placeholders(text).join() !== placeholders(source).join())
          wrong.push(`${key}: ${placeholders(text).join()} instead of ${placeholders(source).join()}`);
      }
      expect(wrong).toEqual([]);
    });

    it("is translated: under 5% of texts equal the English, each a single word, symbols or the module's name", () => {
      const texts = load(language);
      const same = [...english].filter(([key, text]) => texts.get(key) === text);
      expect(same.length / english.size).toBeLessThan(0.05);
      // Placeholders aside, a text left as in English holds at most one word of four letters or more: a
      // word the language shares with English (Initiative, Mode, Pause) or an abbreviation, never a phrase.
      const words = (text: string): string[] =>
        (text.replace(/\{\w+\}/g, "").match(/\p{L}+/gu) ?? []).filter((word) => word.length >= 4);
      const untranslated = same.filter(([, text]) => text !== manifest.title && words(text).length > 1);
      expect(untranslated).toEqual([]);
    });
  });
});
