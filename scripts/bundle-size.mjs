// The bundle's size and each mode module's share of it, from the build's source map: every
// generated segment is counted for the source file it maps to, and a mode's share is the code of
// the files under src/modes/<id>/ (gzip-compressed on its own, so shared code is not counted twice).
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

/** Raw and gzip KB of the whole bundle and of each mode module's code in it. */
export function bundleSizes(bundleFile) {
  const code = readFileSync(bundleFile, "utf8");
  const map = JSON.parse(readFileSync(`${bundleFile}.map`, "utf8"));
  const kb = (text) => ({
    rawKB: Buffer.byteLength(text) / 1024,
    gzipKB: gzipSync(Buffer.from(text), { level: 9 }).length / 1024,
  });
  const modes = new Map();
  for (const [source, part] of codeBySource(code, map)) {
    const match = /src\/modes\/([^/]+)\//.exec(source.split(path.sep).join("/"));
    if (match !== null) modes.set(match[1], (modes.get(match[1]) ?? "") + part);
  }
  return {
    total: kb(code),
    modes: Object.fromEntries([...modes].sort(([a], [b]) => a.localeCompare(b)).map(([id, part]) => [id, kb(part)])),
  };
}

if (process.argv[1] === import.meta.filename) {
  const sizes = bundleSizes(path.resolve(import.meta.dirname, "../dist/scripts/structured-initiative.js"));
  console.log(JSON.stringify(sizes, null, 2));
}
