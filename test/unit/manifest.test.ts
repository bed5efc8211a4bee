import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The same counter the build uses to check the pack, so the test reads the pack as Foundry would.
import { collapseTemplateWhitespace, countPackDocuments } from "../../scripts/build.mjs";
import { mediaFile, rawUrl, releaseManifest, repositoryOf } from "../../scripts/package.mjs";

/** The five modes, in the order the manifest shows them. */
const MODE_IDS = ["individual", "sides", "slots", "declare-resolve", "phases"];

const root = path.resolve(import.meta.dirname, "../..");
const dist = path.join(root, "dist");

interface Manifest {
  id: string;
  title: string;
  version: string;
  compatibility: { minimum: string; verified: string };
  esmodules: string[];
  styles: string[];
  languages: { lang: string; path: string }[];
  packs: { name: string; path: string; type: string }[];
  url: string;
  manifest: string;
  download: string;
  authors: { name: string }[];
  media: { type: string; url: string; caption?: string }[];
}

const manifest = JSON.parse(readFileSync(path.join(dist, "module.json"), "utf8")) as Manifest;

describe("the built module (dist/) is what Foundry v13 and v14 install", () => {
  it("names the module structured-initiative, v0.1.0, for Foundry 13, verified on the v14 build the sim emulates", () => {
    expect(manifest.id).toBe("structured-initiative");
    expect(manifest.title).toBe("Structured Initiative");
    expect(manifest.version).toBe("0.1.0");
    // 14.360: the build the simulated Foundry's v14 flavour reports (`game.release` in test/sim/realm/globals.ts);
    // no real Foundry server ran the checks (README, Compatibility).
    const globals = readFileSync(path.join(root, "test/sim/realm/globals.ts"), "utf8");
    expect(globals).toContain('{ generation: 14, build: 360, version: "14.360", stable: true }');
    expect(manifest.compatibility).toEqual({ minimum: "13", verified: "14.360" });
    expect(manifest.authors.length).toBeGreaterThan(0);
    for (const url of [manifest.url, manifest.manifest, manifest.download]) expect(url).toMatch(/^https:\/\//);
  });

  it("every path the manifest names exists in the build output", () => {
    const paths = [
      ...manifest.esmodules,
      ...manifest.styles,
      ...manifest.languages.map((l) => l.path),
      ...manifest.packs.map((p) => p.path),
    ];
    // The bundle, the stylesheet, each language and the two packs (macros, rules journal).
    expect(paths.length).toBe(4 + manifest.languages.length);
    for (const p of paths) expect(existsSync(path.join(dist, p)), p).toBe(true);
  });

  it("ships every language the source manifest lists, as the source file (issue 16 item 4)", () => {
    const source = JSON.parse(readFileSync(path.join(root, "module.json"), "utf8")) as Manifest;
    expect(manifest.languages).toEqual(source.languages);
    expect(manifest.languages.map((l) => l.lang)).toEqual(expect.arrayContaining(["en", "de", "fr", "es", "pt-BR"]));
    for (const l of manifest.languages)
      expect(readFileSync(path.join(dist, l.path), "utf8"), l.path).toBe(readFileSync(path.join(root, l.path), "utf8"));
  });

  it("the macros compendium holds one document per pack source file, each a script macro", async () => {
    const pack = manifest.packs.find((p) => p.name === "macros");
    expect(pack?.type).toBe("Macro");
    const sources = readdirSync(path.join(root, "packs/macros")).filter((f) => f.endsWith(".json"));
    expect(sources.length).toBeGreaterThanOrEqual(1);
    for (const file of sources) {
      const doc = JSON.parse(readFileSync(path.join(root, "packs/macros", file), "utf8")) as Record<string, unknown>;
      expect(doc._key).toBe(`!macros!${String(doc._id)}`);
      expect(doc.type).toBe("script");
      expect(String(doc.command)).toContain("structured-initiative");
    }
    expect(await countPackDocuments(path.join(dist, pack?.path ?? ""), "macros")).toBe(sources.length);
  });

  it("the bundle is a single file with no imports, and every language file is valid JSON", () => {
    const bundle = readFileSync(path.join(dist, manifest.esmodules[0] ?? ""), "utf8");
    expect(bundle).not.toMatch(/^\s*import\s/m);
    for (const l of manifest.languages)
      expect(() => JSON.parse(readFileSync(path.join(dist, l.path), "utf8")) as unknown).not.toThrow();
  });
});

/** Every template file below a folder, as paths relative to it. */
function templatesIn(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".hbs"));
}

describe("templates as shipped", () => {
  it("are the sources with their indentation collapsed", () => {
    const sources = templatesIn(path.join(root, "templates"));
    expect(sources.length).toBeGreaterThan(5);
    for (const file of sources) {
      const shipped = readFileSync(path.join(dist, "templates", file), "utf8");
      expect(shipped, file).toBe(collapseTemplateWhitespace(readFileSync(path.join(root, "templates", file), "utf8")));
    }
  });

  it("keep each tag on one line and hold no preformatted text, so collapsing changes no attribute or text", () => {
    for (const file of templatesIn(path.join(root, "templates"))) {
      const source = readFileSync(path.join(root, "templates", file), "utf8");
      // Outside Handlebars expressions, every "<" of a line is closed on the same line.
      for (const [n, line] of source.split("\n").entries()) {
        const markup = line.replace(/{{[^}]*}}/g, "");
        expect(markup.lastIndexOf("<") <= markup.lastIndexOf(">"), `${file}:${String(n + 1)}`).toBe(true);
      }
      expect(source, file).not.toMatch(/<pre\b|<textarea[^>]*>[^<]/);
    }
  });

  it("lose the indentation between tags and expressions, but keep words on separate lines apart", () => {
    const source =
      '<ol>\n  {{#each rows}}\n  <li class="a">\n    {{name}}\n  </li>\n  {{/each}}\n</ol>\n<p>One\n  two</p>\n';
    expect(collapseTemplateWhitespace(source)).toBe(
      '<ol>{{#each rows}}<li class="a">{{name}}</li>{{/each}}</ol><p>One two</p>\n',
    );
  });
});

describe("the manifest shows the module (media)", () => {
  const source = JSON.parse(readFileSync(path.join(root, "module.json"), "utf8")) as Manifest;
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { repository: unknown };

  it("has a cover and a screenshot of each mode, captioned, each a file of the repository at the version's tag", () => {
    expect(source.media.filter((m) => m.type === "cover")).toHaveLength(1);
    const shots = source.media.filter((m) => m.type === "screenshot").map((m) => mediaFile(m.url));
    expect(shots).toEqual(MODE_IDS.map((mode) => `assets/journal/${mode}.png`));
    const repo = repositoryOf(pkg.repository) ?? "";
    for (const item of source.media) {
      const file = mediaFile(item.url) ?? "";
      expect(item.url, item.url).toBe(rawUrl(repo, source.version, file));
      expect(item.caption?.length, item.url).toBeGreaterThan(10);
      // The file exists, is a PNG, and the build ships it.
      const bytes = readFileSync(path.join(root, file));
      expect(bytes.subarray(1, 4).toString("latin1"), file).toBe("PNG");
      expect(existsSync(path.join(dist, file)), file).toBe(true);
    }
  });

  it("a release names its own repository in the media URLs", () => {
    const released = releaseManifest(
      source as unknown as Record<string, unknown>,
      { version: source.version, repository: pkg.repository },
      {
        GITHUB_REPOSITORY: "octo-cat/initiative-fork",
      },
    ) as unknown as Manifest;
    for (const item of released.media)
      expect(item.url).toMatch(
        /^https:\/\/raw\.githubusercontent\.com\/octo-cat\/initiative-fork\/v0\.1\.0\/assets\/journal\//,
      );
  });
});
