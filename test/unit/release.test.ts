/**
 * The release (issue 16 item 6): `npm run package` writes a zip holding exactly the files the
 * manifest references, and a manifest whose version, manifest URL and download URL agree. The zip is
 * read back here by a small reader of its central directory (PKWARE APPNOTE 6.3), each entry
 * inflated and checked against its CRC, as an installer would unpack it.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32, inflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countPackDocuments, expectedCounts } from "../../scripts/build.mjs";
import {
  manifestPaths,
  packageRelease,
  releaseManifest,
  releaseUrls,
  repositoryOf,
  zip,
} from "../../scripts/package.mjs";
import {
  announceRelease,
  RELEASE_API,
  releaseRequest,
  TOKEN_VARIABLE,
  versionManifestUrl,
} from "../../scripts/foundry-release.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const dist = path.join(root, "dist");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  version: string;
  license: string;
  repository: unknown;
};
const source = JSON.parse(readFileSync(path.join(root, "module.json"), "utf8")) as Record<string, unknown>;

/** Every entry of a zip archive: name → uncompressed bytes (CRC checked). */
function unzip(archive: Buffer): Map<string, Buffer> {
  const endAt = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error("no end of central directory record");
  const count = archive.readUInt16LE(endAt + 10);
  let at = archive.readUInt32LE(endAt + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central header ${String(i)}`);
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.toString("utf8", at + 46, at + 46 + nameLength);
    if (archive.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const dataAt = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const raw = archive.subarray(dataAt, dataAt + size);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    if (crc32(data) !== crc) throw new Error(`CRC mismatch for ${name}`);
    out.set(name, data);
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

/** Files below a dist/ folder, as zip names. */
function distFiles(folder: string): string[] {
  if (!existsSync(path.join(dist, folder))) return [];
  return readdirSync(path.join(dist, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(path.join(dist, folder, f)).isFile())
    .map((f) => `${folder}/${f.split(path.sep).join("/")}`);
}

let out = "";
let entries = new Map<string, Buffer>();
let released: Record<string, unknown> = {};
let fork: Awaited<ReturnType<typeof packageRelease>>;

beforeAll(async () => {
  out = mkdtempSync(path.join(os.tmpdir(), "si-release-"));
  fork = await packageRelease({ GITHUB_REPOSITORY: "octo-cat/initiative-fork" }, out);
  entries = unzip(readFileSync(fork.zipFile));
  released = JSON.parse(readFileSync(fork.manifestFile, "utf8")) as Record<string, unknown>;
});
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe("npm run package", () => {
  it("zips every path the manifest references, and nothing else", () => {
    const manifest = JSON.parse(entries.get("module.json")?.toString("utf8") ?? "{}") as Record<string, unknown>;
    const paths = manifestPaths(manifest);
    expect(paths).toEqual(
      expect.arrayContaining(["scripts/structured-initiative.js", "styles/structured-initiative.css", "lang/en.json"]),
    );
    const names = [...entries.keys()];
    // Each manifest path is a file in the zip, or a folder (a pack) with its LevelDB files.
    for (const p of paths)
      expect(
        names.some((n) => n === p || n.startsWith(`${p}/`)),
        p,
      ).toBe(true);
    for (const pack of manifest.packs as { path: string }[]) {
      const files = names.filter((n) => n.startsWith(`${pack.path}/`));
      expect(files.some((n) => n.endsWith("/CURRENT"))).toBe(true);
      expect(files.some((n) => /\/MANIFEST-\d+$/.test(n))).toBe(true);
    }
    const allowed = (name: string): boolean =>
      ["module.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(name) ||
      paths.some((p) => name === p || name.startsWith(`${p}/`)) ||
      name.startsWith("templates/") ||
      name.startsWith("assets/");
    expect(names.filter((n) => !allowed(n))).toEqual([]);
    // Not the source map, nor LevelDB's lock and logs.
    expect(names.some((n) => n.endsWith(".map") || /\/(LOCK|LOG)$/.test(n))).toBe(false);
    // The templates and journal images the code and the pages load are all there.
    for (const f of [...distFiles("templates"), ...distFiles("assets")]) expect(entries.has(f), f).toBe(true);
    // Byte for byte what the build produced (Buffer#equals: a deep comparison of 300 KB is slow).
    const bundle = readFileSync(path.join(dist, "scripts/structured-initiative.js"));
    expect(entries.get("scripts/structured-initiative.js")?.equals(bundle)).toBe(true);
    expect(entries.get("LICENSE")?.toString("utf8")).toContain("MIT License");
  });

  it("ships a module.json whose version, manifest and download agree, naming the repository it is built in", () => {
    expect(entries.get("module.json")?.toString("utf8")).toBe(readFileSync(fork.manifestFile, "utf8"));
    expect(released.version).toBe(pkg.version);
    expect(released.manifest).toBe("https://github.com/octo-cat/initiative-fork/releases/latest/download/module.json");
    expect(released.download).toBe(
      `https://github.com/octo-cat/initiative-fork/releases/download/v${pkg.version}/structured-initiative.zip`,
    );
    expect(released.url).toBe("https://github.com/octo-cat/initiative-fork");
    expect(released.bugs).toBe("https://github.com/octo-cat/initiative-fork/issues");
    expect(released.changelog).toBe(`https://github.com/octo-cat/initiative-fork/blob/v${pkg.version}/CHANGELOG.md`);
    // The media name the fork's files at the version's tag; everything else is the source manifest's.
    for (const item of released.media as { url: string }[])
      expect(item.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/octo-cat\/initiative-fork\/v/);
    expect({ ...released, ...releaseUrls("x/y", pkg.version), media: [] }).toEqual({
      ...source,
      ...releaseUrls("x/y", pkg.version),
      media: [],
    });
  });

  it("without GITHUB_REPOSITORY, names package.json's repository; refuses a version that differs", () => {
    const repo = repositoryOf(pkg.repository);
    expect(repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
    const local = releaseManifest(source, pkg, {});
    expect(local.download).toBe(
      `https://github.com/${String(repo)}/releases/download/v${pkg.version}/structured-initiative.zip`,
    );
    expect(() => releaseManifest({ ...source, version: "9.9.9" }, pkg, {})).toThrow(/version/);
    expect(() => releaseManifest(source, { version: pkg.version }, {})).toThrow(/repository/);
  });

  it("unpacked, every compendium opens as LevelDB with all its documents (without the lock and logs)", async () => {
    const unpacked = path.join(out, "unpacked");
    for (const [name, data] of entries) {
      mkdirSync(path.dirname(path.join(unpacked, name)), { recursive: true });
      writeFileSync(path.join(unpacked, name), data);
    }
    const manifest = JSON.parse(entries.get("module.json")?.toString("utf8") ?? "{}") as {
      packs: { path: string; type: string }[];
    };
    for (const pack of manifest.packs) {
      const expected = await expectedCounts(path.join(root, pack.path), pack.type);
      for (const [sublevel, count] of Object.entries(expected))
        expect(await countPackDocuments(path.join(unpacked, pack.path), sublevel), `${pack.path} ${sublevel}`).toBe(
          count,
        );
    }
  });

  it("the zip writer round-trips stored and deflated entries", () => {
    const text = Buffer.from("ab".repeat(500));
    const tiny = Buffer.from([1]);
    const back = unzip(
      zip([
        ["a/b.txt", text],
        ["c", tiny],
      ]),
    );
    expect([...back.keys()]).toEqual(["a/b.txt", "c"]);
    expect(back.get("a/b.txt")).toEqual(text);
    expect(back.get("c")).toEqual(tiny);
  });
});

describe("the source manifest", () => {
  it("names the repository of package.json, the licence, readme, changelog, bug tracker and hot reload", () => {
    const repo = repositoryOf(pkg.repository) ?? "";
    expect(source).toMatchObject(releaseUrls(repo, pkg.version));
    expect(source.version).toBe(pkg.version);
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(path.join(root, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(source.license).toBe("LICENSE");
    expect(source.readme).toBe("README.md");
    // Hot reload (foundryvtt/foundryvtt#9027): file extensions and the folders watched; `paths`
    // must be present (foundryvtt/foundryvtt#9435).
    expect(source.flags).toMatchObject({
      hotReload: { extensions: ["css", "hbs", "json"], paths: ["styles", "templates", "lang"] },
    });
    expect(readFileSync(path.join(root, "CHANGELOG.md"), "utf8")).toContain(`## [${pkg.version}]`);
  });
});

describe("the release workflow (.github/workflows/release.yml)", () => {
  const workflow = readFileSync(path.join(root, ".github/workflows/release.yml"), "utf8");
  it("runs on a version tag, checks it against both versions, tests, packages with this repository and uploads both files", () => {
    expect(workflow).toMatch(/tags: \["v\*"\]/);
    expect(workflow).toContain('test "$tag" = "$pkg" && test "$tag" = "$mod"');
    expect(workflow).toContain("run: .ci/run");
    expect(workflow).toContain("run: npm run package");
    expect(workflow).toContain("GITHUB_REPOSITORY: ${{ github.repository }}");
    expect(workflow).toContain("release/module.json");
    expect(workflow).toContain("release/structured-initiative.zip");
    // Every action is pinned to a commit.
    for (const uses of workflow.matchAll(/uses: (\S+)/g)) expect(uses[1]).toMatch(/@[0-9a-f]{40}$/);
  });

  it("announces the release on Foundry's listing after the upload, a dry run first, with the token from a secret", () => {
    const upload = workflow.indexOf("softprops/action-gh-release");
    const dryRun = workflow.indexOf("run: node scripts/foundry-release.mjs --dry-run");
    const real = workflow.indexOf("run: node scripts/foundry-release.mjs\n");
    expect(upload).toBeGreaterThan(0);
    expect(dryRun).toBeGreaterThan(upload);
    expect(real).toBeGreaterThan(dryRun);
    // Both steps read the token from the repository secret, and the workflow says so.
    expect(workflow.match(/FOUNDRY_RELEASE_TOKEN: \$\{\{ secrets\.FOUNDRY_RELEASE_TOKEN \}\}/g)).toHaveLength(2);
    expect(workflow).toMatch(/repository\s+#? ?secret FOUNDRY_RELEASE_TOKEN/);
    expect(workflow).toContain("https://foundryvtt.com/article/package-release-api/");
    expect(TOKEN_VARIABLE).toBe("FOUNDRY_RELEASE_TOKEN");
  });
});

describe("the Foundry listing (Package Release API, https://foundryvtt.com/article/package-release-api/)", () => {
  const token = "fvttp_not-a-real-token";

  it("the dry-run request names the package, this version's manifest, its notes and the compatibility", () => {
    const { url, init } = releaseRequest(released, token, { dryRun: true });
    expect(url).toBe("https://foundryvtt.com/_api/packages/release_version/");
    expect(url).toBe(RELEASE_API);
    expect(init.method).toBe("POST");
    expect(init.headers).toEqual({ "Content-Type": "application/json", Authorization: token });
    expect(JSON.parse(init.body)).toEqual({
      id: "structured-initiative",
      "dry-run": true,
      release: {
        version: pkg.version,
        // This version's own manifest (uploaded beside its zip), not the "latest" one.
        manifest: `https://github.com/octo-cat/initiative-fork/releases/download/v${pkg.version}/module.json`,
        notes: `https://github.com/octo-cat/initiative-fork/blob/v${pkg.version}/CHANGELOG.md`,
        compatibility: source.compatibility,
      },
    });
    expect(JSON.parse(releaseRequest(released, token).init.body)).toMatchObject({ "dry-run": false });
    expect(versionManifestUrl(released)).toBe(String(released.download).replace(/[^/]+$/, "module.json"));
  });

  it("sends it with the given fetch and returns the API's answer; a refusal or a missing token is an error", async () => {
    const sent: { url: string; body: string }[] = [];
    const answer = (status: number, body: unknown) =>
      Promise.resolve({ ok: status < 300, status, text: () => Promise.resolve(JSON.stringify(body)) });
    const result = await announceRelease(released, token, {
      dryRun: true,
      fetchImpl: (url, init) => {
        sent.push({ url, body: init.body });
        return answer(200, { status: "success", message: "dry run" });
      },
    });
    expect(result).toEqual({ status: "success", message: "dry run" });
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.body ?? "{}")).toMatchObject({ "dry-run": true, id: "structured-initiative" });
    await expect(
      announceRelease(released, token, {
        fetchImpl: () => answer(400, { status: "error", errors: { manifest: ["not found"] } }),
      }),
    ).rejects.toThrow(/400.*not found/);
    // Nothing is sent without a token or with a manifest missing a field.
    const refuse = () => Promise.reject(new Error("no request may be sent"));
    await expect(announceRelease(released, "", { fetchImpl: refuse })).rejects.toThrow(/FOUNDRY_RELEASE_TOKEN.*secret/);
    await expect(
      announceRelease({ ...released, compatibility: { minimum: "13" } }, token, { fetchImpl: refuse }),
    ).rejects.toThrow(/verified/);
  });
});

describe("the playground's web page (.github/workflows/pages.yml)", () => {
  const workflow = readFileSync(path.join(root, ".github/workflows/pages.yml"), "utf8");

  it("on each version tag builds dist-playground/ and publishes it to GitHub Pages, every action pinned", () => {
    expect(workflow).toMatch(/tags: \["v\*"\]/);
    expect(workflow).toContain("run: npm run build:playground");
    expect(workflow).toMatch(/upload-pages-artifact@[0-9a-f]{40}[^\n]*\n\s+with:\n\s+path: dist-playground\n/);
    expect(workflow).toMatch(/deploy-pages@[0-9a-f]{40}/);
    expect(workflow).toMatch(/pages: write\n\s+id-token: write/);
    for (const uses of workflow.matchAll(/uses: (\S+)/g)) expect(uses[1]).toMatch(/@[0-9a-f]{40}$/);
  });

  it("the README links the page, from package.json's repository, before anything else a GM reads", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const [owner, name] = (repositoryOf(pkg.repository) ?? "/").split("/");
    const page = `https://${String(owner)}.github.io/${String(name)}/`;
    const at = readme.indexOf(`](${page})`);
    expect(at).toBeGreaterThan(0);
    // Before the first section and before any other link.
    expect(at).toBeLessThan(readme.indexOf("\n## "));
    expect(readme.indexOf("](")).toBe(at);
  });
});
