// `npm run package`: the release as Foundry installs it. From the built module (dist/, made by
// `npm run build` first) it writes release/module.json, the manifest whose `version`, `manifest` and
// `download` agree, and release/structured-initiative.zip holding that manifest and exactly the files it
// references (the bundle, stylesheet, languages and packs), the templates and assets the code and the
// journal load, and the README, LICENSE and CHANGELOG.
//
// The URLs name the GitHub repository `owner/name` taken from the environment's GITHUB_REPOSITORY
// (GitHub Actions sets it: a release built in a fork names the fork) or else package.json's
// `repository`.
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
/** Where the two release files are written. */
export const RELEASE_DIR = path.join(root, "release");
/** The zip's file name, as the manifest's `download` names it. */
export const ZIP_NAME = "structured-initiative.zip";

/** Folders of dist/ shipped whole: the code loads templates, the journal pages show assets. */
const WHOLE_FOLDERS = ["templates", "assets"];
/** Files of the repository root shipped beside the manifest. */
const ROOT_FILES = ["README.md", "LICENSE", "CHANGELOG.md"];

/** `owner/name` from a package.json `repository` (a string or `{url}`), or null. */
export function repositoryOf(repository) {
  const url = typeof repository === "string" ? repository : repository?.url;
  if (typeof url !== "string") return null;
  const match = /^(?:github:)?(?:git\+)?(?:https:\/\/github\.com\/)?([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url);
  return match?.[1] ?? null;
}

/**
 * The repository releases are published from: `env.GITHUB_REPOSITORY` when set, else package.json's
 * `repository`. Throws when neither names one.
 */
export function releaseRepository(pkg, env = process.env) {
  const repo = env.GITHUB_REPOSITORY?.trim() || repositoryOf(pkg.repository);
  if (repo === null || repo === undefined || !/^[\w.-]+\/[\w.-]+$/.test(repo))
    throw new Error("No repository: set GITHUB_REPOSITORY=owner/name or package.json's repository.");
  return repo;
}

/** The manifest fields that name the repository, for version `version` of `repo`. */
export function releaseUrls(repo, version) {
  const base = `https://github.com/${repo}`;
  return {
    url: base,
    manifest: `${base}/releases/latest/download/module.json`,
    download: `${base}/releases/download/v${version}/${ZIP_NAME}`,
    bugs: `${base}/issues`,
    changelog: `${base}/blob/v${version}/CHANGELOG.md`,
  };
}

/** A file of `repo` at the tag of `version`, as a web URL (the manifest's `media` point at these). */
export function rawUrl(repo, version, file) {
  return `https://raw.githubusercontent.com/${repo}/v${version}/${file}`;
}

/** The repository file a `rawUrl` names (its path after the tag), or null for another URL. */
export function mediaFile(url) {
  return /^https:\/\/raw\.githubusercontent\.com\/[^/]+\/[^/]+\/v[^/]+\/(.+)$/.exec(String(url))?.[1] ?? null;
}

/**
 * The manifest a release of `repo` ships: the source manifest with its URLs for that repository,
 * its `media` included (each names the file at the release's tag in that repository).
 */
export function releaseManifest(manifest, pkg, env = process.env) {
  if (manifest.version !== pkg.version)
    throw new Error(`module.json version ${manifest.version} differs from package.json version ${pkg.version}`);
  const repo = releaseRepository(pkg, env);
  const media = Array.isArray(manifest.media)
    ? {
        media: manifest.media.map((item) => {
          const file = mediaFile(item.url);
          return file === null ? item : { ...item, url: rawUrl(repo, pkg.version, file) };
        }),
      }
    : {};
  return { ...manifest, ...releaseUrls(repo, pkg.version), ...media };
}

/** LevelDB's lock and log-of-operations files: it makes them afresh when Foundry opens a pack. */
const LEVELDB_RUNTIME = /^(LOCK|LOG|LOG\.old)$/;

/** Every file below `folder`, as posix paths relative to `base` (without LevelDB's runtime files). */
async function filesBelow(base, folder) {
  const full = path.join(base, folder);
  const entries = await readdir(full, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !LEVELDB_RUNTIME.test(e.name))
    .map((e) => path.relative(base, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** The paths a manifest names: esmodules, styles, languages and packs (folders). */
export function manifestPaths(manifest) {
  return [
    ...(manifest.esmodules ?? []),
    ...(manifest.styles ?? []),
    ...(manifest.languages ?? []).map((l) => l.path),
    ...(manifest.packs ?? []).map((p) => p.path),
  ];
}

/** The zip's entries: [name in the zip, absolute file] (module.json is added from memory). */
async function packagedFiles(manifest) {
  const out = [];
  for (const p of manifestPaths(manifest)) {
    const file = path.join(dist, p);
    const info = await stat(file).catch(() => null);
    if (info === null) throw new Error(`the manifest names ${p}, which the build did not produce`);
    if (info.isDirectory()) for (const f of await filesBelow(dist, p)) out.push([f, path.join(dist, f)]);
    else out.push([p, file]);
  }
  for (const folder of WHOLE_FOLDERS) {
    const exists = await stat(path.join(dist, folder)).catch(() => null);
    if (exists?.isDirectory()) for (const f of await filesBelow(dist, folder)) out.push([f, path.join(dist, f)]);
  }
  for (const f of ROOT_FILES) out.push([f, path.join(root, f)]);
  const seen = new Set();
  return out.filter(([name]) => !seen.has(name) && seen.add(name));
}

/** DOS date and time fields of a Date (zip stores local time, 2-second resolution). */
function dosTime(date) {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A zip archive (PKWARE APPNOTE 6.3: local headers, deflated data, central directory, end record;
 * no zip64, so under 4 GiB and 65535 entries) of `entries`: [name, Buffer].
 */
export function zip(entries, date = new Date(2026, 0, 1)) {
  const { time, date: day } = dosTime(date);
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const deflated = deflateRawSync(data, { level: 9 });
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Build the release files; returns their paths and the zip's entry names. */
export async function packageRelease(env = process.env, outDir = RELEASE_DIR) {
  const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
  const built = JSON.parse(await readFile(path.join(dist, "module.json"), "utf8"));
  const manifest = releaseManifest(built, pkg, env);
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const entries = [["module.json", Buffer.from(manifestText)]];
  for (const [name, file] of await packagedFiles(manifest)) entries.push([name, await readFile(file)]);
  await mkdir(outDir, { recursive: true });
  const zipFile = path.join(outDir, ZIP_NAME);
  const manifestFile = path.join(outDir, "module.json");
  await writeFile(zipFile, zip(entries));
  await writeFile(manifestFile, manifestText);
  return { zipFile, manifestFile, names: entries.map(([name]) => name), manifest };
}

if (process.argv[1] === import.meta.filename) {
  const { zipFile, manifestFile, names, manifest } = await packageRelease();
  console.log(`${path.relative(root, zipFile)}: ${names.length} files, version ${manifest.version}`);
  console.log(`${path.relative(root, manifestFile)}: manifest ${manifest.manifest}`);
  console.log(`download ${manifest.download}`);
}
