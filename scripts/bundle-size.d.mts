/** Raw and gzip KB (1024 bytes, gzip level 9) of some code. */
export interface Size {
  rawKB: number;
  gzipKB: number;
}
/** The bundle's size, its target, and each share of it (each gzip-compressed on its own). */
export interface BundleSizes {
  total: Size;
  target: { gzipKB: number };
  /** Whether the whole is within the target. */
  met: boolean;
  /** By mode id: the code of the files under src/modes/<id>/. */
  modes: Record<string, Size>;
  /** The code of every other file under src/. */
  core: Size;
  /** Code mapped to files outside src/ (bundled dependencies), if any. */
  other?: Size;
}
/** A source map, as far as the attribution reads it. */
export interface SourceMapLike {
  sources: readonly string[];
  mappings: string;
}
/** The bundle's target in KB gzip. */
export const BUNDLE_TARGET_GZIP_KB: number;
/** The generated code of each source file, concatenated, from a bundle and its source map. */
export function codeBySource(code: string, map: SourceMapLike): Map<string, string>;
/** The share a source file counts for: `mode <id>`, `core`, or null outside src/. */
export function shareOf(source: string): string | null;
/** The sizes of a built bundle (with its `.map` beside it). */
export function bundleSizes(bundleFile: string): BundleSizes;
/** The sizes as the lines the benchmark prints. */
export function formatBundleSizes(sizes: BundleSizes): string[];
