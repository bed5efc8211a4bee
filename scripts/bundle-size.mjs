// The bundle's size against its target, and each mode module's share of it, from the build's source
// map: every generated segment is counted for the source file it maps to; a mode's share is the code
// of the files under src/modes/<id>/, the shared core's the code of every other source file (src/core,
// src/foundry, the mode registry), each gzip-compressed on its own (so no code is counted twice, and
// the shares' gzip figures add up to more than the whole's). KB are 1024 bytes, gzip at level 9.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Decode one source-map VLQ segment into its numbers. */
function decodeSegment(text) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** The generated code of each source file, concatenated, from a bundle and its source map. */
export function codeBySource(code, map) {
  const lines = code.split("\n");
  const bySource = new Map();
  let source = 0;
  map.mappings.split(";").forEach((line, lineIndex) => {
    const text = lines[lineIndex] ?? "";
    let column = 0;
    const segments = line === "" ? [] : line.split(",").map(decodeSegment);
    segments.forEach((seg, i) => {
      column += seg[0];
      if (seg.length >= 4) source += seg[1];
      const next = segments[i + 1];
      const end = next === undefined ? text.length : column + next[0];
      if (seg.length < 4) return;
      const name = map.sources[source] ?? "";
      bySource.set(name, (bySource.get(name) ?? "") + text.slice(column, end));
    });
  });
  return bySource;
}

/** The bundle's target: at most this many KB gzip (issue #26: at most 80 KB gzip with the five modes, and no growth from that issue). */
export const BUNDLE_TARGET_GZIP_KB = 80;

/** Raw and gzip KB of a text. */
function kb(text) {
  return {
    rawKB: Buffer.byteLength(text) / 1024,
    gzipKB: gzipSync(Buffer.from(text), { level: 9 }).length / 1024,
  };
}

/**
 * The share a source file's code counts for: `mode <id>` for a file under src/modes/<id>/, `core`
 * for any other file of the module's own (src/), null for anything else (a bundled dependency).
 */
export function shareOf(source) {
  const file = source.split(path.sep).join("/");
  const mode = /(?:^|\/)src\/modes\/([^/]+)\//.exec(file);
  if (mode !== null) return `mode ${mode[1]}`;
  return /(?:^|\/)src\//.test(file) ? "core" : null;
}

/**
 * Raw and gzip KB of the whole bundle and of each share of it: `modes` by mode id, `core` the shared
 * code; `target` the gzip target and `met` whether the whole is within it.
 */
export function bundleSizes(bundleFile) {
  const code = readFileSync(bundleFile, "utf8");
  const map = JSON.parse(readFileSync(`${bundleFile}.map`, "utf8"));
  const shares = new Map();
  for (const [source, part] of codeBySource(code, map)) {
    const share = shareOf(source) ?? "other";
    shares.set(share, (shares.get(share) ?? "") + part);
  }
  const modes = [...shares.keys()]
    .filter((k) => k.startsWith("mode "))
    .sort()
    .map((k) => [k.slice("mode ".length), kb(shares.get(k))]);
  const total = kb(code);
  return {
    total,
    target: { gzipKB: BUNDLE_TARGET_GZIP_KB },
    met: total.gzipKB <= BUNDLE_TARGET_GZIP_KB,
    modes: Object.fromEntries(modes),
    core: kb(shares.get("core") ?? ""),
    ...(shares.has("other") ? { other: kb(shares.get("other")) } : {}),
  };
}

/** The sizes as the lines the benchmark prints. */
export function formatBundleSizes(sizes) {
  const f = (size) => `${size.rawKB.toFixed(2).padStart(7)} KB raw, ${size.gzipKB.toFixed(2).padStart(6)} KB gzip`;
  const lines = [
    `bundle: ${f(sizes.total)} (target <= ${sizes.target.gzipKB} KB gzip: ${sizes.met ? "met" : "MISSED"})`,
    `  each share gzip-compressed on its own (KB of 1024 bytes, gzip -9):`,
  ];
  const row = (label, size) => lines.push(`  ${label.padEnd(21)}${f(size)}`);
  for (const [id, size] of Object.entries(sizes.modes)) row(`mode ${id}`, size);
  row("shared core", sizes.core);
  if (sizes.other !== undefined) row("other (dependencies)", sizes.other);
  return lines;
}

if (process.argv[1] === import.meta.filename) {
  const sizes = bundleSizes(path.resolve(import.meta.dirname, "../dist/scripts/structured-initiative.js"));
  console.log(formatBundleSizes(sizes).join("\n"));
  if (process.argv.includes("--json")) console.log(JSON.stringify(sizes));
}
