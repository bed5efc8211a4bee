/**
 * The `declare-resolve` action catalogue: the seed's defaults, a stored catalogue narrowed (anything
 * unreadable is null, so the glue falls back with a warning), and the settings form's row checks
 * (each invalid row gets its error, nothing is saved while any row has one).
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CATALOGUE,
  catalogueEntry,
  catalogueRows,
  checkCatalogueRows,
  parseCatalogue,
} from "../../src/modes/declare-resolve/rules/catalogue";

describe("the stored catalogue", () => {
  it("the seed's defaults: Dodge 2 (defence), Melee Attack 4 and Power Attack 7 (attacks)", () => {
    expect(DEFAULT_CATALOGUE.map((e) => `${e.name} ${e.cost} ${e.kind}`)).toEqual([
      "Dodge 2 defence",
      "Melee Attack 4 attack",
      "Power Attack 7 attack",
    ]);
    expect(parseCatalogue(JSON.stringify({ entries: DEFAULT_CATALOGUE }))).toEqual(DEFAULT_CATALOGUE);
    expect(parseCatalogue([...DEFAULT_CATALOGUE])).toEqual(DEFAULT_CATALOGUE);
  });

  it.each([
    ["malformed JSON", "{entries: ["],
    ["no entries", { entries: [] }],
    ["a number", 7],
    ["null", null],
    ["a negative cost", { entries: [{ name: "Dodge", cost: -2, kind: "defence", def: 0 }] }],
    ["a fractional cost", { entries: [{ name: "Dodge", cost: 1.5, kind: "defence", def: 0 }] }],
    ["an unknown kind", { entries: [{ name: "Dodge", cost: 2, kind: "magic", def: 0 }] }],
    ["an empty name", { entries: [{ name: "", cost: 2, kind: "other", def: 0 }] }],
    ["a missing DEF", { entries: [{ name: "Dodge", cost: 2, kind: "defence" }] }],
    [
      "two entries of one name",
      {
        entries: [
          { name: "Dodge", cost: 2, kind: "defence", def: 0 },
          { name: "dodge", cost: 1, kind: "defence", def: 0 },
        ],
      },
    ],
  ])("%s cannot be read", (_label, value) => {
    expect(parseCatalogue(value)).toBeNull();
  });

  it("entries are found by name, case aside", () => {
    expect(catalogueEntry(DEFAULT_CATALOGUE, " power attack ")?.cost).toBe(7);
    expect(catalogueEntry(DEFAULT_CATALOGUE, "Fireball")).toBeUndefined();
  });
});

describe("the settings form's rows", () => {
  const row = (name: string, cost: string, kind = "attack", def = "") => ({ name, cost, kind, def });

  it("valid rows become entries (an empty DEF is none)", () => {
    expect(checkCatalogueRows([row(" Parry ", "1", "defence", "+3"), row("Shove", "0", "other")])).toEqual({
      entries: [
        { name: "Parry", cost: 1, kind: "defence", def: 3 },
        { name: "Shove", cost: 0, kind: "other", def: 0 },
      ],
      errors: [[], []],
    });
    expect(checkCatalogueRows(catalogueRows(DEFAULT_CATALOGUE)).entries).toEqual(DEFAULT_CATALOGUE);
  });

  it("each invalid row names its error and nothing is saved", () => {
    const checked = checkCatalogueRows([
      row("", "1"),
      row("Jab", "-1"),
      row("Kick", "two"),
      row("Kick", "2"),
      row("kick", "2"),
      row("Hex", "2", "magic"),
      row("Brace", "2", "defence", "1.5"),
      row("Fine", "3"),
    ]);
    expect(checked.entries).toBeNull();
    // A name counts once it is typed, even on a row with another error.
    expect(checked.errors).toEqual([["name"], ["cost"], ["cost"], ["duplicate"], ["duplicate"], ["kind"], ["def"], []]);
  });

  it("a row with several errors names every one of them, in the fields' order (issue 27 item 4)", () => {
    const checked = checkCatalogueRows([
      row(" ", "-1", "magic", "x"),
      row("Parry", "1.5", "defence", "200"),
      row("parry", "2", "song"),
      row("x".repeat(101), "100"),
    ]);
    expect(checked.entries).toBeNull();
    expect(checked.errors).toEqual([
      ["name", "cost", "kind", "def"],
      ["cost", "def"],
      ["duplicate", "kind"],
      ["name", "cost"],
    ]);
  });

  it("a catalogue needs at least one row", () => {
    expect(checkCatalogueRows([])).toEqual({ entries: null, errors: [] });
  });
});
