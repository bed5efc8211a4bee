// Assembles dist/ as the folder a user drops into Foundry's Data/modules/structured-initiative:
// the Vite bundle (built before this runs), the manifest, languages, templates, styles and the
// compendium packs compiled from packs/ sources by the official Foundry CLI.
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
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
  // One stylesheet (the manifest's): the shared rules, then each mode's own from styles/modes/.
  const modeStyles = (await readdir(path.join(root, "styles/modes"))).filter((f) => f.endsWith(".css")).sort();
  const css = [await readFile(path.join(root, "styles/structured-initiative.css"), "utf8")];
  for (const file of modeStyles) css.push(await readFile(path.join(root, "styles/modes", file), "utf8"));
  await mkdir(path.join(dist, "styles"), { recursive: true });
  await writeFile(path.join(dist, "styles/structured-initiative.css"), css.join("\n"));
  for (const entry of await readdir(path.join(dist, "templates"), { recursive: true })) {
    if (!entry.endsWith(".hbs")) continue;
    const file = path.join(dist, "templates", entry);
    await writeFile(file, collapseTemplateWhitespace(await readFile(file, "utf8")));
  }
  const manifest = JSON.parse(await readFile(path.join(root, "module.json"), "utf8"));
  for (const pack of manifest.packs) {
    const src = path.join(root, pack.path);
    const dest = path.join(dist, pack.path);
    await rm(dest, { recursive: true, force: true });
    const sources = (await readdir(src)).filter((f) => /\.(json|ya?ml)$/.test(f));
    await compilePack(src, dest, { yaml: false, recursive: true, log: false });
    const collection = pack.type.toLowerCase() + "s";
    const count = await countPackDocuments(dest, collection);
    if (count !== sources.length) {
      throw new Error(
        `pack ${pack.name}: ${sources.length} source files but ${count} documents compiled (missing _key?)`,
      );
    }
    console.log(`pack ${pack.name}: ${count} documents`);
  }
}

if (process.argv[1] === import.meta.filename) {
  await main();
}
