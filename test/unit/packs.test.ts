/**
 * The compendium packs (issue 16 item 5): the build compiles them with the Foundry CLI and checks the
 * count of every kind of document (macros, journal entries and their pages) against the sources, so
 * a source the CLI skips for lack of a `_key` fails the build instead of shipping a short pack. The
 * rules journal has a page for each mode, each showing its playground image from the module's assets.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { compileCheckedPack, countPackDocuments, expectedCounts } from "../../scripts/build.mjs";
import { MODES } from "../../src/modes/registry";

// The modes' glue reads Foundry's `Hooks` when its files load; nothing here calls it.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const root = path.resolve(import.meta.dirname, "../..");
const temp = mkdtempSync(path.join(os.tmpdir(), "si-packs-"));
afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

interface Page {
  _id: string;
  _key?: string;
  name: string;
  type: string;
  text: { content: string; format: number };
  flags: { "structured-initiative"?: { mode?: string } };
}
interface Entry {
  _id: string;
  _key?: string;
  name: string;
  pages: Page[];
}

const rulesDir = path.join(root, "packs/rules");
const entries = readdirSync(rulesDir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(path.join(rulesDir, f), "utf8")) as Entry);

let n = 0;
/** A pack source folder holding these documents, one file each. */
function sources(docs: readonly object[]): string {
  const dir = path.join(temp, `src${String((n += 1))}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  docs.forEach((doc, i) => {
    writeFileSync(path.join(dir, `doc${String(i)}.json`), JSON.stringify(doc));
  });
  return dir;
}
const macro = (id: string, key = true): object => ({
  _id: id,
  ...(key ? { _key: `!macros!${id}` } : {}),
  name: id,
  type: "script",
  command: "",
});

describe("the build's pack count check", () => {
  it("passes when every source and page has its _key, and counts pages as well as entries", async () => {
    const journal = entries[0];
    expect(journal).toBeDefined();
    const counts = await compileCheckedPack(sources(entries), path.join(temp, "ok-rules"), "JournalEntry");
    expect(counts).toEqual({ journal: entries.length, "journal.pages": journal?.pages.length });
    const macros = await compileCheckedPack(
      sources([macro("aaaaaaaaaaaaaaa1"), macro("aaaaaaaaaaaaaaa2")]),
      path.join(temp, "ok-macros"),
      "Macro",
    );
    expect(macros).toEqual({ macros: 2 });
  });

  it("fails when a macro source lacks _key (the CLI skips it silently)", async () => {
    const src = sources([macro("aaaaaaaaaaaaaaa1"), macro("aaaaaaaaaaaaaaa2", false)]);
    await expect(compileCheckedPack(src, path.join(temp, "bad-macros"), "Macro")).rejects.toThrow(
      /2 macros documents but 1 were compiled/,
    );
  });

  it("fails when a journal entry lacks _key, and when one of its pages does", async () => {
    const [entry] = entries;
    if (entry === undefined) throw new Error("no journal entry");
    const { _key: _unused, ...keyless } = entry;
    await expect(compileCheckedPack(sources([keyless]), path.join(temp, "bad-entry"), "JournalEntry")).rejects.toThrow(
      /1 journal documents but 0 were compiled/,
    );
    const pages = entry.pages.map((p, i) => (i === 1 ? { ...p, _key: undefined } : p));
    await expect(
      compileCheckedPack(sources([{ ...entry, pages }]), path.join(temp, "bad-page"), "JournalEntry"),
    ).rejects.toThrow(/missing _key/);
  });
});

describe("the rules journal", () => {
  it("is declared by the manifest as a JournalEntry pack", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "module.json"), "utf8")) as {
      packs: { name: string; path: string; type: string }[];
    };
    expect(manifest.packs.find((p) => p.name === "rules")).toMatchObject({ path: "packs/rules", type: "JournalEntry" });
  });

  it("has one page per mode, each showing that mode's playground image from the module's assets", () => {
    expect(entries).toHaveLength(1);
    const pages = entries[0]?.pages ?? [];
    const modes = pages.flatMap((p) => p.flags["structured-initiative"]?.mode ?? []);
    expect(modes).toEqual(MODES.map((m) => m.id));
    for (const page of pages) {
      expect(page._key).toBe(`!journal.pages!${entries[0]?._id ?? ""}.${page._id}`);
      expect(page.type).toBe("text");
      expect(page.text.content.length).toBeGreaterThan(400);
      const mode = page.flags["structured-initiative"]?.mode;
      const images = [...page.text.content.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1] ?? "");
      if (mode === undefined) {
        expect(images).toEqual([]);
        continue;
      }
      expect(images).toEqual([`modules/structured-initiative/assets/journal/${mode}.png`]);
      const file = (images[0] ?? "").replace("modules/structured-initiative/", "");
      expect(existsSync(path.join(root, file)), file).toBe(true);
      expect(existsSync(path.join(root, "dist", file)), `dist/${file}`).toBe(true);
      // A PNG, as the browser test saved it.
      expect(readFileSync(path.join(root, file)).subarray(1, 4).toString("latin1")).toBe("PNG");
    }
  });

  it("is compiled into dist/ with every page", async () => {
    const expected = await expectedCounts(rulesDir, "JournalEntry");
    expect(await countPackDocuments(path.join(root, "dist/packs/rules"), "journal")).toBe(expected.journal);
    expect(await countPackDocuments(path.join(root, "dist/packs/rules"), "journal.pages")).toBe(
      expected["journal.pages"],
    );
  });
});
