/**
 * The `declare-resolve` catalogue form as its template shows it (issue 27 item 4): after a refused
 * save, every error of a row is listed, not only the first, and each invalid field (and only it) is
 * marked invalid and described by its own error. Rendered with the real template and English texts.
 */
import fs from "node:fs";
import path from "node:path";
import Handlebars from "handlebars";
import { describe, expect, it, vi } from "vitest";
import { catalogueContext } from "../../src/modes/declare-resolve/catalogue-form";
import { checkCatalogueRows, type CatalogueRowInput } from "../../src/modes/declare-resolve/rules/catalogue";

// The glue's files read Foundry's `Hooks` when they load; nothing here calls Foundry.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const ROOT = path.resolve(import.meta.dirname, "../..");
const EN = JSON.parse(fs.readFileSync(path.join(ROOT, "lang/en.json"), "utf8")) as Record<string, unknown>;

function text(key: string): string {
  const found = key.split(".").reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], EN);
  if (typeof found !== "string") throw new Error(`no text ${key}`);
  return found;
}
const format = (key: string, data: Record<string, string>): string =>
  text(key).replace(/\{(\w+)\}/g, (_, name: string) => data[name] ?? "");

const hb = Handlebars.create();
hb.registerHelper("localize", (key: string) => text(key));
const template = hb.compile(fs.readFileSync(path.join(ROOT, "templates/modes/declare-resolve/catalogue.hbs"), "utf8"));

/** The form after a refused save of these rows. */
function refused(rows: CatalogueRowInput[]): string {
  const checked = checkCatalogueRows(rows);
  expect(checked.entries).toBeNull();
  return template(catalogueContext(rows, checked.errors, text, format));
}

/** The opening tag of a row's field. */
function field(html: string, name: string, index: number): string {
  const tag = html.match(new RegExp(`<(input|select)[^>]*name="${name}-${String(index)}"[^>]*>`))?.[0];
  if (tag === undefined) throw new Error(`no field ${name}-${String(index)}`);
  return tag;
}

/** The id an element's `aria-describedby` names, and that element's text. */
function describedBy(html: string, tag: string): string {
  const id = tag.match(/aria-describedby="([^"]+)"/)?.[1];
  if (id === undefined) return "";
  return html.match(new RegExp(`id="${id}"[^>]*>([^<]*)<`))?.[1] ?? `(nothing has the id ${id})`;
}

const E = "Settings.DrCatalogue.Error";

describe("the catalogue form after a refused save (issue 27 item 4)", () => {
  it("lists every error of a row and marks each invalid field with its own", () => {
    const html = refused([
      { name: "Dodge", cost: "2", kind: "defence", def: "" },
      { name: "Parry", cost: "-1", kind: "defence", def: "1.5" },
      { name: "", cost: "x", kind: "magic", def: "500" },
    ]);
    const errorsOf = (index: number): string[] =>
      [...(html.split('class="si-dr-catalogue__row')[index + 1] ?? "").matchAll(/<li id="[^"]+">([^<]*)<\/li>/g)].map(
        (m) => m[1] ?? "",
      );
    const t = (code: string): string => text(`STRUCTURED_INITIATIVE.${E}.${code}`);
    expect(errorsOf(0)).toEqual([]);
    expect(errorsOf(1)).toEqual([t("cost"), t("def")]);
    expect(errorsOf(2)).toEqual([t("name"), t("cost"), t("kind"), t("def")]);

    // Row 1: only the cost and the DEF are invalid, each described by its own error.
    expect(field(html, "name", 1)).not.toContain("aria-invalid");
    expect(field(html, "kind", 1)).not.toContain("aria-invalid");
    expect(field(html, "cost", 1)).toContain('aria-invalid="true"');
    expect(describedBy(html, field(html, "cost", 1))).toBe(t("cost"));
    expect(describedBy(html, field(html, "def", 1))).toBe(t("def"));
    // Row 2: all four.
    for (const [name, code] of [
      ["name", "name"],
      ["cost", "cost"],
      ["kind", "kind"],
      ["def", "def"],
    ] as const) {
      expect(field(html, name, 2)).toContain('aria-invalid="true"');
      expect(describedBy(html, field(html, name, 2))).toBe(t(code));
    }
    // The valid row is left alone, and the first invalid field in the form is row 1's cost.
    for (const name of ["name", "cost", "kind", "def"]) expect(field(html, name, 0)).not.toContain("aria-invalid");
    expect(html.match(/<(input|select)[^>]*aria-invalid="true"[^>]*>/)?.[0]).toContain('name="cost-1"');
  });

  it("a duplicate name is the name field's error, beside the row's other errors", () => {
    const html = refused([
      { name: "Kick", cost: "2", kind: "attack", def: "" },
      { name: "kick", cost: "2", kind: "song", def: "" },
    ]);
    expect(describedBy(html, field(html, "name", 1))).toBe(text(`STRUCTURED_INITIATIVE.${E}.duplicate`));
    expect(describedBy(html, field(html, "kind", 1))).toBe(text(`STRUCTURED_INITIATIVE.${E}.kind`));
    expect(field(html, "cost", 1)).not.toContain("aria-invalid");
  });
});
