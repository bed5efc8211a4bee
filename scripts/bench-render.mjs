// `npm run bench:render`: the tracker's render figures in headless Chromium (Debian's package,
// driven by playwright-core) and the bundle size, each set beside a baseline timed in the same run.
// For each mode's sample encounter (started, mid-round: src/modes/<id>/sample.ts, field bench), in the GM's view
// and in a player's (Alice, who owns one PC), at 10, 50 and 200 combatants, it times the tracker's
// render after a turn advance (the mode's own step), the same turn advance's render done whole (the
// module's templates for the same state replacing the live parts, nothing patched), a re-render
// without a change and a first render, each against a bare Handlebars list of the same rows timed
// under the same conditions. The same figures are taken from a baseline build (the code before
// issue #26, commit 30afb78, unless BENCH_BASELINE names another) and from each BENCH_ALSO build,
// page loads of the builds taking turns at going first; each build is timed by its own bench page.
// It prints a verdict for each of issue #26's targets, then JSON; it asserts nothing:
// - patching pays: a turn advance's patched render is no slower than the same render done whole,
//   at every size, view and mode. Both are timed up to the end of the frame that follows them
//   (render, forced layout, then the frame's own work): a forced layout leaves out the new rows
//   that `content-visibility: auto` lays out only once the frame has placed them, so the whole
//   render's forced layout is not all of its layout. The two renders of a pair are timed one after
//   the other; the verdict is the median of the pairs' differences (with its 95% interval, to tell
//   a miss within noise from a real one);
// - no regression at table sizes: at 10 and 50 combatants, a turn advance's and a first render's
//   ratio to the bare list (render and forced layout, as the baseline's page times them) is at most
//   1.15x the baseline's, and each BENCH_ALSO build's (all timed in the same run): the median, over
//   the page loads, of this build's ratio over the reference's in the same load (the builds' loads
//   interleaved), printed figure by figure with the loads' lowest and highest;
// - bundle: at most 80 KB gzip with the five modes, and no bigger than the baseline's or a
//   BENCH_ALSO build's.
// Env: BENCH_REPEAT (page loads per figure and build), BENCH_RUNS (renders per figure and load),
// BENCH_MODES, BENCH_VIEWS, BENCH_SIZES (comma lists, to bench a part); BENCH_PORT (the page's
// server port, 5191 unless set; the baseline's is the next one up); BENCH_BASELINE (a folder holding
// a built copy of the module at the baseline, with node_modules, or `none` to time this build alone)
// or BENCH_BASELINE_REF (the commit the bench builds into a temporary folder when BENCH_BASELINE is
// unset, 30afb78 unless set; the folder is kept for the next run); BENCH_ALSO (a comma list of
// more such folders, timed alongside in the same way, each printed with its figures and judged as
// a reference for the regression and bundle verdicts, e.g. a worktree of the build before issue
// #26 with BENCH_BASELINE=none, or variants of the code).
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BUNDLE_TARGET_GZIP_KB, bundleSizes, formatBundleSizes } from "./bundle-size.mjs";
import { chromium } from "playwright-core";
import { createServer } from "vite";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bundlePath = (dir) => path.join(dir, "dist/scripts/structured-initiative.js");
const list = (name, fallback) => (process.env[name] ?? fallback).split(",").filter((x) => x !== "");
/** Every mode folder (src/modes/<id>/), in the playground's sample order. */
const ORDER = ["individual", "sides", "slots", "declare-resolve", "phases"];
const ALL_MODES = readdirSync(path.join(root, "src/modes"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
const MODES = list("BENCH_MODES", ALL_MODES.join(","));
const VIEWS = list("BENCH_VIEWS", "gm,player");
const SIZES = list("BENCH_SIZES", "10,50,200").map(Number);
/** Issue #26's targets: the regression allowed against the baseline (as a ratio of ratios), the sizes it applies to, the bundle. */
const TARGETS = {
  regression: 1.15,
  regressionSizes: [10, 50],
  gzipKB: BUNDLE_TARGET_GZIP_KB,
};
/** The code before issue #26, the default baseline. */
const BASELINE_REF = process.env.BENCH_BASELINE_REF ?? "30afb78";

/**
 * The baseline's folder: BENCH_BASELINE, or the baseline commit exported into a temporary folder
 * (git archive), given this checkout's node_modules and built there; null with BENCH_BASELINE=none.
 */
function baselineDir() {
  const named = process.env.BENCH_BASELINE;
  if (named === "none") return null;
  if (named !== undefined) {
    if (!existsSync(bundlePath(named))) throw new Error(`BENCH_BASELINE=${named} holds no built module (dist/)`);
    return path.resolve(named);
  }
  const sha = execSync(`git rev-parse --short=12 ${BASELINE_REF}`, { cwd: root, encoding: "utf8" }).trim();
  const dir = path.join(os.tmpdir(), `si-bench-baseline-${sha}`);
  if (existsSync(bundlePath(dir))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`building the baseline ${BASELINE_REF} (${sha}) in ${dir}\n`);
  execSync(`git archive ${sha} | tar -x -C "${dir}"`, { cwd: root, stdio: "inherit", shell: "/bin/sh" });
  symlinkSync(realpathSync(path.join(root, "node_modules")), path.join(dir, "node_modules"));
  execSync("npm run build", { cwd: dir, stdio: "inherit" });
  return dir;
}

/**
 * Serve a checkout's playground (its own bench page and built module), cross-origin isolated (which
 * gives `performance.now()` microsecond resolution), with its own Vite cache.
 */
async function servePlayground(dir, port) {
  const server = await createServer({
    configFile: path.join(dir, "playground/vite.config.ts"),
    cacheDir: path.join(dir, ".vite/bench"),
    server: {
      port,
      headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" },
      fs: { allow: [dir, realpathSync(path.join(dir, "node_modules"))] },
    },
    logLevel: "error",
  });
  await server.listen();
  return { server, url: server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/` };
}

/**
 * Page loads per mode, view and size (env BENCH_REPEAT), and renders per figure and load after 5
 * warm-up ones (env BENCH_RUNS); each figure is the median of a load's renders, then the median
 * over loads. Three loads each: with one load at 200 combatants, a load that fell in one of this
 * machine's slow spells set the figure (two runs of the same build differed by up to half in a
 * ratio; with three loads, by a fifth at most). Fewer renders at 200 (every step there is a full
 * Combat write and settle), so that the whole run stays within about five minutes.
 */
const REPEAT = process.env.BENCH_REPEAT === undefined ? null : Math.max(1, Number(process.env.BENCH_REPEAT));
const LOADS = REPEAT ?? 3;
const RUNS = process.env.BENCH_RUNS === undefined ? null : Math.max(5, Number(process.env.BENCH_RUNS));
const runsFor = (n) => RUNS ?? (n >= 200 ? 15 : 20);

/** One load of the bench page; resolves with its result. */
async function measurePage(page, address) {
  await page.goto(address);
  await page.waitForFunction(() => globalThis.benchResult !== undefined || globalThis.benchError !== undefined, null, {
    timeout: 300_000,
  });
  const { result, error } = await page.evaluate(() => ({
    result: globalThis.benchResult,
    error: globalThis.benchError,
  }));
  if (error) throw new Error(error);
  return result;
}

/**
 * Each numeric figure (and each step of a breakdown) as the median over page loads; a yes/no
 * check holds only if it held on every load ("overflows" if any load overflowed).
 */
function medianOfRuns(runs) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const merge = (values, key) => {
    const first = values[0];
    if (typeof first === "number") return median(values);
    if (typeof first === "boolean") return key === "overflowX" ? values.some(Boolean) : values.every(Boolean);
    if (typeof first === "object" && first !== null)
      return Object.fromEntries(
        Object.keys(first).map((k) => [
          k,
          merge(
            values.map((v) => v[k]),
            k,
          ),
        ]),
      );
    return first;
  };
  return merge(runs, "");
}

/**
 * How a figure compares with a reference build, load by load: the loads of the builds were
 * interleaved, so load i of this build and load i of the reference ran side by side; each pair
 * gives this build's ratio to the bare list over the reference's. The median of those quotients
 * (the upper one of an even count, as elsewhere in this bench), with the lowest and highest (the
 * spread of the loads).
 */
function pairedQuotients(mine, theirs, key) {
  const q = mine.map((m, i) => m[key] / theirs[i]?.[key]).filter((x) => Number.isFinite(x));
  const sorted = [...q].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, low: sorted[0], high: sorted.at(-1) };
}

/**
 * A figure's verdicts: `{ok, target}` each (none where no target applies). `refs`: the builds the
 * regression is judged against, by label (the baseline's `base`, BENCH_ALSO's `also1`, ...), each
 * with its loads (`loads`) beside this build's (`mine`). The regression verdict is the median of
 * the paired quotients (this build's ratio over the reference's, load by load) against the allowed
 * 1.15; "within noise" when the loads' spread reaches both sides of it.
 */
function verdicts(r, refs, mine = [], loads = {}) {
  const out = { patch: [], change: [], first: [] };
  // Patched minus whole, render with its frame, median of the pairs (a page that times no frames,
  // an older bench page, gives none: then the plain figures).
  const diff = typeof r.patchDiffMs === "number" ? r.patchDiffMs : r.changeMs - r.fullMs;
  const noise =
    typeof r.patchDiffLowMs === "number" && r.patchDiffLowMs <= 0 && r.patchDiffHighMs >= 0 ? " (within noise)" : "";
  out.patch.push({ ok: diff <= 0, target: "<= whole", note: diff <= 0 ? "" : noise });
  if (TARGETS.regressionSizes.includes(r.n))
    for (const [label, ref] of Object.entries(refs)) {
      if (ref === null) continue;
      const target = `<= ${TARGETS.regression}x ${label}`;
      for (const [kind, key] of [
        ["change", "changeRatio"],
        ["first", "firstRatio"],
      ]) {
        const q = (loads[label] ?? []).length > 0 ? pairedQuotients(mine, loads[label], key) : null;
        const quotient = q?.median ?? r[key] / ref[key];
        const ok = quotient <= TARGETS.regression;
        const straddles = q !== null && q.low <= TARGETS.regression && q.high > TARGETS.regression;
        const note = straddles ? " (within noise)" : "";
        out[kind].push({ ok, target, ref: label, quotient, low: q?.low, high: q?.high, note });
      }
    }
  return out;
}

/** The label of each BENCH_ALSO build (in the order given). */
const alsoLabel = (i) => `also${i + 1}`;

/** Measure everything; resolves with the figures. */
export async function benchRender() {
  if (!existsSync(bundlePath(root))) execSync("npm run build", { cwd: root, stdio: "inherit" });
  const baseDir = baselineDir();
  const sizes = bundleSizes(bundlePath(root));
  const baseSizes = baseDir === null ? null : bundleSizes(bundlePath(baseDir));
  // The bundle's figures first (the whole, each mode module's and the shared core's share), before the browser runs.
  console.log(`\n${formatBundleSizes(sizes).join("\n")}`);
  if (baseSizes !== null)
    console.log(`  baseline ${BASELINE_LABEL(baseDir)}: ${baseSizes.total.gzipKB.toFixed(2)} KB gzip`);
  const alsoDirs = list("BENCH_ALSO", "").map((dir) => path.resolve(dir));
  const alsoGzipKB = Object.fromEntries(
    alsoDirs.map((dir, i) => [alsoLabel(i), bundleSizes(bundlePath(dir)).total.gzipKB]),
  );
  for (const [i, dir] of alsoDirs.entries())
    console.log(`  ${alsoLabel(i)} ${dir}: ${alsoGzipKB[alsoLabel(i)].toFixed(2)} KB gzip`);
  const bundle = {
    ...sizes.total,
    modes: sizes.modes,
    core: sizes.core,
    baseGzipKB: baseSizes?.total.gzipKB ?? null,
    alsoGzipKB,
  };
  const port = Number(process.env.BENCH_PORT ?? 5191);
  const builds = [{ name: "this", ...(await servePlayground(root, port)) }];
  if (baseDir !== null) builds.push({ name: "base", ...(await servePlayground(baseDir, port + 1)) });
  for (const [i, dir] of alsoDirs.entries()) builds.push({ name: dir, ...(await servePlayground(dir, port + 2 + i)) });
  const profile = mkdtempSync(path.join(os.tmpdir(), "si-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1000, height: 800 },
  });
  const renders = [];
  const started = Date.now();
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    for (const mode of MODES)
      for (const view of VIEWS)
        for (const n of SIZES) {
          const runs = Object.fromEntries(builds.map((b) => [b.name, []]));
          for (let load = 0; load < LOADS; load++) {
            // The builds take turns at going first (and last).
            const turned = [...builds.slice(load % builds.length), ...builds.slice(0, load % builds.length)];
            const order = load % 2 === 0 ? turned : turned.reverse();
            for (const build of order)
              runs[build.name].push(
                await measurePage(page, `${build.url}bench.html?n=${n}&mode=${mode}&view=${view}&runs=${runsFor(n)}`),
              );
            const at = ((Date.now() - started) / 1000).toFixed(0);
            process.stderr.write(`  ${mode} ${view} ${n}: load ${load + 1} done (${at} s)\n`);
          }
          const r = medianOfRuns(runs.this);
          const base = runs.base === undefined ? null : medianOfRuns(runs.base);
          const also = Object.fromEntries(
            builds
              .filter((b) => b.name !== "this" && b.name !== "base")
              .map((b) => [b.name, medianOfRuns(runs[b.name])]),
          );
          const refs = {
            base,
            ...Object.fromEntries(alsoDirs.map((dir, i) => [alsoLabel(i), also[dir] ?? null])),
          };
          const refLoads = {
            ...(runs.base === undefined ? {} : { base: runs.base }),
            ...Object.fromEntries(alsoDirs.map((dir, i) => [alsoLabel(i), runs[dir] ?? []])),
          };
          renders.push({
            ...r,
            base,
            also,
            loads: LOADS,
            renders: runsFor(n),
            verdicts: verdicts(r, refs, runs.this, refLoads),
          });
          // Each figure as it is done (a long run that stops part-way keeps what it measured).
          const brief = (x) =>
            [x.changeMs, x.commandMs, x.fullMs, x.firstMs].map((v) => v?.toFixed(2) ?? "-").join("/");
          process.stderr.write(
            `  ${mode} ${view} ${n} (turn advance/command/whole/first ms): ${builds.map((b) => `${b.name} ${brief(b.name === "this" ? r : b.name === "base" ? base : also[b.name])}`).join("; ")}\n`,
          );
        }
  } finally {
    await context.close();
    for (const build of builds) await build.server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  const all = (kind) => renders.every((r) => r.verdicts[kind].every((v) => v.ok));
  const references = [...(baseDir === null ? [] : ["base"]), ...alsoDirs.map((_, i) => alsoLabel(i))];
  const pass = {
    patch: all("patch"),
    regression: references.length === 0 ? null : all("change") && all("first"),
    bundle:
      bundle.gzipKB <= TARGETS.gzipKB &&
      (bundle.baseGzipKB === null || bundle.gzipKB <= bundle.baseGzipKB) &&
      Object.values(bundle.alsoGzipKB).every((kb) => bundle.gzipKB <= kb),
    layout: renders.every((r) => !r.overflowX && r.scrollable),
  };
  return {
    renders,
    bundle,
    baseline: baseDir === null ? null : BASELINE_LABEL(baseDir),
    targets: TARGETS,
    pass,
    seconds: (Date.now() - started) / 1000,
  };
}

/** How the baseline is named in the output. */
function BASELINE_LABEL(dir) {
  return process.env.BENCH_BASELINE === undefined ? `${BASELINE_REF} (${dir})` : dir;
}

if (process.argv[1] === import.meta.filename) {
  const figures = await benchRender();
  const f = (x) => (typeof x === "number" && !Number.isNaN(x) ? x.toFixed(2) : "-");
  const signed = (x) => (typeof x === "number" && !Number.isNaN(x) ? `${x > 0 ? "+" : ""}${x.toFixed(2)}` : "-");
  const timer = figures.renders.every((r) => r.isolated) ? "microsecond timer" : "0.1 ms timer";
  const plan = SIZES.map((n) => `${runsFor(n)} renders x ${LOADS} loads at ${n}`).join(", ");
  const alsoDirs = list("BENCH_ALSO", "").map((dir) => path.resolve(dir));
  console.log(
    `\nTracker render (Chromium headless, ms; each figure the median of a page load's renders after 5 warm-up ` +
      `ones, then the median over loads: ${plan} (BENCH_RUNS and BENCH_REPEAT raise them); ${timer}; ` +
      `${figures.seconds.toFixed(0)} s in all)`,
  );
  console.log(`references, their page loads interleaved with this build's:`);
  console.log(`  base = ${figures.baseline ?? "none"}`);
  for (const [i, dir] of alsoDirs.entries()) console.log(`  ${alsoLabel(i)} = ${dir}`);
  console.log("turn advance per mode:");
  for (const mode of MODES) {
    const r = figures.renders.find((x) => x.mode === mode);
    if (r) console.log(`  ${mode}: ${r.step}`);
  }
  const verdict = (list) =>
    list.length === 0 ? "-" : list.map((v) => `${v.ok ? "pass" : "FAIL"} ${v.target}${v.note ?? ""}`).join(", ");
  /** A markdown table, numbers right-aligned (all columns but the first two). */
  const table = (head, rows) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const line = (cells) =>
      `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
    console.log(line(head));
    console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const row of rows) console.log(line(row));
  };
  console.log(
    `\nPatching must pay: a turn advance's render patched, and the same render done whole (the module's ` +
      `templates for the same state replacing the live parts), timed in pairs; "render" = up to a forced ` +
      `layout, "frame" = the main thread's work in the frame after it, "to frame" = both (the verdict's ` +
      `figure); "patched - whole" = the median of the pairs' differences [its 95% interval]:`,
  );
  table(
    [
      "mode",
      "view",
      "n",
      "patched render",
      "frame",
      "to frame",
      "whole render",
      "frame",
      "to frame",
      "patched - whole",
      "patching pays",
    ],
    figures.renders.map((r) => [
      r.mode,
      r.view,
      String(r.n),
      f(r.changeMs),
      f(r.changeFrameMs),
      f(r.changeToFrameMs),
      f(r.fullMs),
      f(r.fullFrameMs),
      f(r.fullToFrameMs),
      `${signed(r.patchDiffMs)} [${signed(r.patchDiffLowMs)}, ${signed(r.patchDiffHighMs)}]`,
      verdict(r.verdicts.patch),
    ]),
  );
  const references = [...(figures.baseline === null ? [] : ["base"]), ...alsoDirs.map((_, i) => alsoLabel(i))];
  const refOf = (r, label) => (label === "base" ? r.base : (r.also[alsoDirs[Number(label.slice(4)) - 1]] ?? null));
  const judged = (list, label) => verdict(list.filter((v) => v.ref === label));
  console.log(
    `\nNo regression at table sizes: render up to a forced layout, as every build's page times it; ratio = ` +
      `to the bare list timed alongside; judged at ${TARGETS.regressionSizes.join(" and ")} combatants against ` +
      `${references.length === 0 ? "no reference (BENCH_BASELINE=none and no BENCH_ALSO)" : references.join(", ")}:`,
  );
  table(
    [
      "mode",
      "view",
      "n",
      "turn advance",
      "ratio",
      ...references.flatMap((label) => [`${label} ms`, `${label} ratio`, `vs ${label}`]),
      "command",
      "first render",
      "ratio",
      ...references.flatMap((label) => [`${label} ms`, `${label} ratio`, `vs ${label}`]),
      "no change",
      "ratio",
      "layout",
    ],
    figures.renders.map((r) => [
      r.mode,
      r.view,
      String(r.n),
      f(r.changeMs),
      f(r.changeRatio),
      ...references.flatMap((label) => [
        f(refOf(r, label)?.changeMs),
        f(refOf(r, label)?.changeRatio),
        judged(r.verdicts.change, label),
      ]),
      f(r.commandMs),
      f(r.firstMs),
      f(r.firstRatio),
      ...references.flatMap((label) => [
        f(refOf(r, label)?.firstMs),
        f(refOf(r, label)?.firstRatio),
        judged(r.verdicts.first, label),
      ]),
      f(r.warmMs),
      f(r.warmRatio),
      !r.overflowX && r.scrollable ? "ok" : `${r.overflowX ? "overflows-x" : ""}${r.scrollable ? "" : " no-scroll"}`,
    ]),
  );
  if (references.length > 0) {
    console.log(
      `\nNo regression, figure by figure: each build's ratio to the bare list, then this build's over the ` +
        `reference's as the median of the ${LOADS} paired page loads [lowest, highest]; pass at most ` +
        `${TARGETS.regression} (+${Math.round((TARGETS.regression - 1) * 100)}%):`,
    );
    for (const r of figures.renders)
      for (const [kind, key, name] of [
        ["change", "changeRatio", "turn advance"],
        ["first", "firstRatio", "first render"],
      ])
        for (const v of r.verdicts[kind])
          console.log(
            `  ${r.mode} ${r.view} ${r.n} ${name}: this ${f(r[key])}x, ${v.ref} ${f(refOf(r, v.ref)?.[key])}x; ` +
              `this/${v.ref} ${f(v.quotient)} [${f(v.low)}, ${f(v.high)}]: ${v.ok ? "pass" : "MISS"}${v.note}`,
          );
  }
  const verdictOf = (ok) => (ok === null ? "not judged (no reference)" : ok ? "met" : "MISSED");
  const b = figures.bundle;
  const against = [
    ...(b.baseGzipKB === null ? [] : [`the baseline's ${f(b.baseGzipKB)} KB`]),
    ...Object.entries(b.alsoGzipKB).map(([label, kb]) => `${label}'s ${f(kb)} KB`),
  ];
  console.log(
    `\nbundle: ${f(b.rawKB)} KB raw, ${f(b.gzipKB)} KB gzip (target <= ${figures.targets.gzipKB} KB gzip` +
      `${against.length === 0 ? "" : ` and <= ${against.join(", ")}`}: ${verdictOf(figures.pass.bundle)})`,
  );
  for (const [id, size] of Object.entries(b.modes))
    console.log(`  mode ${id}: ${f(size.rawKB)} KB raw, ${f(size.gzipKB)} KB gzip on its own`);
  console.log(`  shared core: ${f(b.core.rawKB)} KB raw, ${f(b.core.gzipKB)} KB gzip on its own`);
  const failed = figures.renders.flatMap((r) =>
    Object.entries(r.verdicts).flatMap(([kind, list]) =>
      list
        .filter((v) => !v.ok)
        .map(
          (v) =>
            `${r.mode}/${r.view}/${r.n} ${{ patch: "patched turn advance", change: "turn advance", first: "first render" }[kind]} ${v.target}${v.note ?? ""}`,
        ),
    ),
  );
  const count = (kind) => {
    const list = figures.renders.flatMap((r) => r.verdicts[kind]);
    return `${list.filter((v) => v.ok).length} of ${list.length} figures`;
  };
  console.log(
    `verdicts: patching pays ${verdictOf(figures.pass.patch)} (${count("patch")}); no regression at ` +
      `${TARGETS.regressionSizes.join(" and ")} combatants ${verdictOf(figures.pass.regression)} (turn advance ` +
      `${count("change")}, first render ${count("first")}); bundle ${verdictOf(figures.pass.bundle)}; ` +
      `no overflow, scrolls ${verdictOf(figures.pass.layout)}`,
  );
  console.log(`missed (${failed.length}): ${failed.length === 0 ? "none" : failed.join("; ")}`);
  console.log(JSON.stringify(figures));
}
