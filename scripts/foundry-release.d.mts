/** The Package Release API's endpoint. */
export const RELEASE_API: string;
/** The environment variable holding the release token. */
export const TOKEN_VARIABLE: string;
/** The URL of this version's manifest (beside the version's zip). */
export function versionManifestUrl(manifest: Record<string, unknown>): string;
/** The announcement request: URL and fetch options. */
export function releaseRequest(
  manifest: Record<string, unknown>,
  token: string | undefined,
  options?: { dryRun?: boolean },
): { url: string; init: { method: string; headers: Record<string, string>; body: string } };
/** Send the announcement; the API's answer on success. */
export function announceRelease(
  manifest: Record<string, unknown>,
  token: string | undefined,
  options?: {
    dryRun?: boolean;
    fetchImpl?: (
      url: string,
      init: { method: string; headers: Record<string, string>; body: string },
    ) => Promise<{
      ok: boolean;
      status: number;
      text(): Promise<string>;
    }>;
  },
): Promise<Record<string, unknown>>;
