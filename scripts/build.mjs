// Assembles dist/ as the folder a user drops into Foundry's Data/modules/structured-initiative:
// the Vite bundle (built before this runs), the manifest, languages, templates, styles and the
// compendium packs compiled from packs/ sources by the official Foundry CLI.
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import { ClassicLevel } from "classic-level";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");

/**
 * A template without the indentation between tags: a line break (with the indentation around it)
 * between a tag or Handlebars expression and the next is dropped, any other becomes one space. The
 * browser parses fewer bytes and builds far fewer whitespace text nodes (the tracker lays out with
 * flex and grid gaps, not spaces). Templates keep each tag on one line and hold no <pre> or
 * preformatted <textarea> text (test/unit/manifest.test.ts checks), so nothing inside a tag or a
 * preformatted block is rewritten.
 */
export function collapseTemplateWhitespace(source) {
  return `${source
    .replace(/(>|}})[ \t]*\r?\n\s*(?=<|{{)/g, "$1")
    .replace(/[ \t]*\r?\n\s*/g, " ")
    .trim()}\n`;
}

/** Count the documents in a compiled LevelDB pack (primary documents only). */
export async function countPackDocuments(packDir, collection) {
  const db = new ClassicLevel(packDir, { keyEncoding: "utf8", valueEncoding: "json" });
  let count = 0;
  for await (const key of db.keys()) if (key.startsWith(`!${collection}!`)) count += 1;
  await db.close();
  return count;
}

async function main() {
  await mkdir(dist, { recursive: true });
  // Templates are copied afresh, so no template that was moved or removed survives in dist/.
  await rm(path.join(dist, "templates"), { recursive: true, force: true });
  for (const item of ["module.json", "lang", "templates"]) {
    await cp(path.join(root, item), path.join(dist, item), { recursive: true });
  }
  // One stylesheet (the manifest's): the shared rules, then each mode's own (src/modes/<id>/style.css).
  const modes = path.join(root, "src/modes");
  const modeStyles = (await readdir(modes, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && existsSync(path.join(modes, entry.name, "style.css")))
    .map((entry) => path.join(modes, entry.name, "style.css"))
    .sort();
  const css = [await readFile(path.join(root, "styles/structured-initiative.css"), "utf8")];
  for (const file of modeStyles) css.push(await readFile(file, "utf8"));
  await mkdir(path.join(dist, "styles"), { recursive: true });
  await writeFile(path.join(dist, "styles/structured-initiative.css"), css.join("\n"));
  for (const entry of await readdir(path.join(dist, "templates"), { recursive: true })) {
    if (!entry.endsWith(".hbs")) continue;
    const file = path.join(dist, "templates", entry);
    await writeFile(file, collapseTemplateWhitespace(await readFile(file, "utf8")));
  }
  // Assets (the journal's images) are copied afresh too.
  await rm(path.join(dist, "assets"), { recursive: true, force: true });
  if (existsSync(path.join(root, "assets")))
    await cp(path.join(root, "assets"), path.join(dist, "assets"), { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(root, "module.json"), "utf8"));
  for (const pack of manifest.packs) {
    const counts = await compileCheckedPack(path.join(root, pack.path), path.join(dist, pack.path), pack.type);
    console.log(
      `pack ${pack.name}: ${Object.entries(counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(", ")}`,
    );
  }
}

/** The embedded collections whose documents the packs hold, by a pack's document type. */
const EMBEDDED = { JournalEntry: { pages: "journal.pages" } };

/**
 * The documents a pack's sources describe, by LevelDB sublevel: one primary document per source
 * file, and each embedded document (a journal entry's pages).
 */
export async function expectedCounts(src, type) {
  const collection = type === "JournalEntry" ? "journal" : `${type.toLowerCase()}s`;
  const counts = { [collection]: 0 };
  const embedded = EMBEDDED[type] ?? {};
  for (const sublevel of Object.values(embedded)) counts[sublevel] = 0;
  const sources = (await readdir(src)).filter((f) => f.endsWith(".json"));
  for (const file of sources) {
    const doc = JSON.parse(await readFile(path.join(src, file), "utf8"));
    counts[collection] += 1;
    for (const [field, sublevel] of Object.entries(embedded))
      counts[sublevel] += Array.isArray(doc[field]) ? doc[field].length : 0;
  }
  return counts;
}

/**
 * Compile a pack's JSON sources with the Foundry CLI into `dest`, then count what was written: the
 * CLI skips a source without `_key` silently, so a pack could come out short. Throws on any
 * mismatch (naming the sublevel); returns the counts.
 */
export async function compileCheckedPack(src, dest, type) {
  await rm(dest, { recursive: true, force: true });
  try {
    await compilePack(src, dest, { yaml: false, recursive: false, log: false });
  } catch (error) {
    // The CLI throws on an embedded document (a journal page) without `_key`.
    throw new Error(
      `pack ${path.basename(src)}: the Foundry CLI could not compile it (missing _key?): ${error.message}`,
      {
        cause: error,
      },
    );
  }
  const expected = await expectedCounts(src, type);
  for (const [sublevel, count] of Object.entries(expected)) {
    const found = await countPackDocuments(dest, sublevel);
    if (found !== count)
      throw new Error(
        `pack ${path.basename(src)}: the sources hold ${count} ${sublevel} documents but ${found} were compiled (missing _key?)`,
      );
  }
  return expected;
}

if (process.argv[1] === import.meta.filename) {
  await main();
}
