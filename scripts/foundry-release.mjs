// Announce a release on Foundry's package listing through its Package Release API
// (https://foundryvtt.com/article/package-release-api/): a POST to RELEASE_API whose `Authorization`
// header is the package's release token (shown on the package's page on foundryvtt.com; the release
// workflow reads it from the repository secret FOUNDRY_RELEASE_TOKEN) and whose JSON body is
//
//   { "id": <package id>, "dry-run": <true: check the request, create nothing>,
//     "release": { "version", "manifest", "notes", "compatibility": { "minimum", "verified", "maximum"? } } }
//
// `manifest` is the manifest of this very version (the one uploaded to the version's GitHub release,
// not the "latest" URL the manifest's own `manifest` field names), `notes` the changelog at the
// version's tag. The request is built from release/module.json (`npm run package` writes it).
//
//   node scripts/foundry-release.mjs [--dry-run]
import { readFile } from "node:fs/promises";
import path from "node:path";

/** The Package Release API's endpoint. */
export const RELEASE_API = "https://foundryvtt.com/_api/packages/release_version/";
/** The environment variable (a repository secret in the workflow) holding the release token. */
export const TOKEN_VARIABLE = "FOUNDRY_RELEASE_TOKEN";

const root = path.resolve(import.meta.dirname, "..");

/** A non-empty string field of `object`, or an error naming it. */
function text(object, key, what) {
  const value = object?.[key];
  if (typeof value !== "string" || value.trim() === "") throw new Error(`${what}: "${key}" is missing`);
  return value;
}

/** The URL of this version's manifest: the module.json uploaded beside the version's zip. */
export function versionManifestUrl(manifest) {
  const download = text(manifest, "download", "module.json");
  if (!/^https:\/\/.+\/[^/]+\.zip$/.test(download)) throw new Error(`module.json: "download" is no zip URL`);
  return download.replace(/[^/]+$/, "module.json");
}

/**
 * The request announcing the release `manifest` describes (a released module.json): its URL and the
 * `fetch` options. Throws, before anything is sent, when the token or a field is missing.
 */
export function releaseRequest(manifest, token, { dryRun = false } = {}) {
  if (typeof token !== "string" || token.trim() === "")
    throw new Error(`${TOKEN_VARIABLE} is not set: the package release token is a repository secret`);
  const compatibility = manifest?.compatibility ?? {};
  const release = {
    version: text(manifest, "version", "module.json"),
    manifest: versionManifestUrl(manifest),
    notes: text(manifest, "changelog", "module.json"),
    compatibility: {
      minimum: text(compatibility, "minimum", "module.json compatibility"),
      verified: text(compatibility, "verified", "module.json compatibility"),
      ...(typeof compatibility.maximum === "string" && compatibility.maximum !== ""
        ? { maximum: compatibility.maximum }
        : {}),
    },
  };
  const body = { id: text(manifest, "id", "module.json"), "dry-run": dryRun, release };
  return {
    url: RELEASE_API,
    init: {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: token },
      body: JSON.stringify(body),
    },
  };
}

/**
 * Send the announcement with `fetchImpl` (the global fetch unless a test gives one); the API's answer
 * when it says `"status": "success"`, else an error carrying what it said.
 */
export async function announceRelease(manifest, token, { dryRun = false, fetchImpl = globalThis.fetch } = {}) {
  const { url, init } = releaseRequest(manifest, token, { dryRun });
  const response = await fetchImpl(url, init);
  const answer = await response.text();
  let json = null;
  try {
    json = JSON.parse(answer);
  } catch {
    // Not JSON: reported as it came.
  }
  if (!response.ok || json?.status !== "success")
    throw new Error(`the Package Release API answered ${response.status}: ${answer.slice(0, 500)}`);
  return json;
}

if (process.argv[1] === import.meta.filename) {
  const dryRun = process.argv.includes("--dry-run");
  const manifest = JSON.parse(await readFile(path.join(root, "release/module.json"), "utf8"));
  try {
    const answer = await announceRelease(manifest, process.env[TOKEN_VARIABLE], { dryRun });
    const what = dryRun ? "dry run accepted" : `released: ${String(answer.page ?? "")}`;
    console.log(`${manifest.id} ${manifest.version}: ${what}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
