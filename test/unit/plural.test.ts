/**
 * Plural-aware counts (issue 15 item 13): `formatCount` picks the text of the count's plural category
 * in the user's language and falls back to `other`.
 */
import { describe, expect, it } from "vitest";
import { formatCount, type Localiser } from "../../src/foundry/tracker/controls";

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
});
