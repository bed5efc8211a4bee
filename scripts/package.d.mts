/** Where the release files are written. */
export const RELEASE_DIR: string;
/** The zip's file name. */
export const ZIP_NAME: string;
/** A package.json `repository` as `owner/name`, or null. */
export function repositoryOf(repository: unknown): string | null;
/** The release repository: `env.GITHUB_REPOSITORY`, else package.json's `repository`. */
export function releaseRepository(pkg: { repository?: unknown }, env?: Record<string, string | undefined>): string;
/** The manifest's repository URLs for a version. */
export function releaseUrls(
  repo: string,
  version: string,
): { url: string; manifest: string; download: string; bugs: string; changelog: string };
/** A file of `repo` at the tag of `version`, as a web URL. */
export function rawUrl(repo: string, version: string, file: string): string;
/** The repository file a `rawUrl` names, or null. */
export function mediaFile(url: unknown): string | null;
/** The manifest a release ships. */
export function releaseManifest(
  manifest: Record<string, unknown>,
  pkg: { version: string; repository?: unknown },
  env?: Record<string, string | undefined>,
): Record<string, unknown>;
/** The paths a manifest names (esmodules, styles, languages, packs). */
export function manifestPaths(manifest: Record<string, unknown>): string[];
/** A zip archive of [name, data] entries. */
export function zip(entries: readonly (readonly [string, Buffer])[], date?: Date): Buffer;
/** Build release/module.json and release/structured-initiative.zip. */
export function packageRelease(
  env?: Record<string, string | undefined>,
  outDir?: string,
): Promise<{
  zipFile: string;
  manifestFile: string;
  names: string[];
  manifest: Record<string, unknown>;
}>;
