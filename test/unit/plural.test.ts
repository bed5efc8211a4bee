/**
 * Plural-aware counts (issue 15 item 13): `formatCount` picks the text of the count's plural category
 * in the user's language and falls back to `other`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Localiser } from "../../src/core/ui";
import { formatCount, intlLocale, pluralCategory } from "../../src/foundry/tracker/controls";
import { plural } from "../../src/modes/declare-resolve/mirror";

// The modes' glue reads Foundry's `Hooks` when its files load; nothing here calls it.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

function localiser(texts: Record<string, string>, lang = "en"): Localiser {
  const localize = (key: string): string => texts[key] ?? key;
  return {
    lang,
    localize,
    format: (key, data) => localize(key).replace(/{(\w+)}/g, (m, k: string) => data[k] ?? m),
  };
}

describe("formatCount", () => {
  const en = localiser({ "A.one": "{count} advantage", "A.other": "{count} advantages" });

  it.each([
    [0, "0 advantages"],
    [1, "1 advantage"],
    [2, "2 advantages"],
    [11, "11 advantages"],
  ])("%i → %s", (count, text) => {
    expect(formatCount(en, "A", count)).toBe(text);
  });

  it("a language with more categories uses them, a missing one falls back to other", () => {
    const pl = localiser(
      { "A.one": "{count} przewaga", "A.few": "{count} przewagi", "A.other": "{count} przewag" },
      "pl",
    );
    expect([1, 3, 5, 22].map((n) => formatCount(pl, "A", n))).toEqual([
      "1 przewaga",
      "3 przewagi",
      "5 przewag",
      "22 przewagi",
    ]);
    expect(formatCount(localiser({ "A.other": "{count} x" }), "A", 1)).toBe("1 x");
  });

  it("Foundry's simplified Chinese code cn follows Chinese rules (one form), not English ones", () => {
    expect(intlLocale("cn")).toBe("zh-CN");
    expect(intlLocale("pt-BR")).toBe("pt-BR");
    expect([0, 1, 2, 5].map((n) => pluralCategory("cn", n))).toEqual(["other", "other", "other", "other"]);
    // Foundry fills a key a language lacks from English: a Chinese text must never ask for `one`.
    const cn = localiser({ "A.one": "English fallback", "A.other": "{count} 个优势" }, "cn");
    expect(formatCount(cn, "A", 1)).toBe("1 个优势");
  });

  it("the language can be given apart from the localiser (declare-resolve reads game.i18n.lang)", () => {
    const texts = { "A.one": "{count} przewaga", "A.few": "{count} przewagi", "A.other": "{count} przewag" };
    expect(formatCount(localiser(texts), "A", 3, {}, "pl")).toBe("3 przewagi");
  });
});

describe("declare-resolve's counts (chat upkeep, tracker chips) use every plural form of the language", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("Polish hits: 1 punkt, 3 punkty, 5 punktów, 22 punkty", () => {
    const texts: Record<string, string> = {
      "H.one": "{count} punkt",
      "H.few": "{count} punkty",
      "H.many": "{count} punktów",
      "H.other": "{count} punktu",
    };
    vi.stubGlobal("game", { i18n: { ...localiser(texts, "pl") } });
    expect([1, 3, 5, 22].map((n) => plural("H", n))).toEqual(["1 punkt", "3 punkty", "5 punktów", "22 punkty"]);
  });
});
