// `npm run bench:render`: the tracker's render figures in headless Chromium (Debian's package,
// driven by playwright-core) and the bundle size, each set beside a baseline timed in the same run.
// For each mode's sample encounter (started, mid-round: src/modes/<id>/sample.ts, field bench), in the GM's view
// and in a player's (Alice, who owns one PC), at 10, 50 and 200 combatants, it times the tracker's
// render after a turn advance (the mode's own step), the same turn advance's render done whole (the
// module's templates for the same state, nothing patched), a re-render without a change and a first
// render, each against a bare Handlebars list of the same rows timed under the same conditions. The
// same figures are taken from a baseline build (the code before issue #26, commit 30afb78, unless
// BENCH_BASELINE names another), page loads of the two builds taking turns at going first.
// It prints a verdict for each of issue #26's targets, then JSON; it asserts nothing:
// - patching pays: a turn advance's patched render is no slower than the same render done whole,
//   at every size, view and mode;
// - no regression at table sizes: at 10 and 50 combatants, a turn advance's and a first render's
//   ratio to the bare list is at most 1.15x the baseline's (both builds timed in the same run);
// - bundle: at most 80 KB gzip with the five modes, and no bigger than the baseline's.
// Env: BENCH_REPEAT (page loads per figure and build), BENCH_RUNS (renders per figure and load),
// BENCH_MODES, BENCH_VIEWS, BENCH_SIZES (comma lists, to bench a part); BENCH_PORT (the page's
// server port, 5191 unless set; the baseline's is the next one up); BENCH_BASELINE (a folder holding
// a built copy of the module at the baseline, with node_modules, or `none` to time this build alone)
// or BENCH_BASELINE_REF (the commit the bench builds into a temporary folder when BENCH_BASELINE is
// unset, 30afb78 unless set; the folder is kept for the next run); BENCH_ALSO (a comma list of
// more such folders, timed alongside in the same way, each printed with its turn advance, command
// and first render, to compare variants of the code; no verdict).
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

/** A figure's verdicts: `{ok, target}` each (none where no target applies). */
function verdicts(r, base) {
  const out = { patch: [], change: [], first: [] };
  out.patch.push({ ok: r.changeMs <= r.fullMs, target: "<= whole" });
  if (base !== null && TARGETS.regressionSizes.includes(r.n)) {
    const target = `<= ${TARGETS.regression}x base`;
    out.change.push({ ok: r.changeRatio <= TARGETS.regression * base.changeRatio, target });
    out.first.push({ ok: r.firstRatio <= TARGETS.regression * base.firstRatio, target });
  }
  return out;
}

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
  const bundle = { ...sizes.total, modes: sizes.modes, core: sizes.core, baseGzipKB: baseSizes?.total.gzipKB ?? null };
  const port = Number(process.env.BENCH_PORT ?? 5191);
  const builds = [{ name: "this", ...(await servePlayground(root, port)) }];
  if (baseDir !== null) builds.push({ name: "base", ...(await servePlayground(baseDir, port + 1)) });
  for (const [i, dir] of list("BENCH_ALSO", "").entries())
    builds.push({ name: path.resolve(dir), ...(await servePlayground(path.resolve(dir), port + 2 + i)) });
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
          renders.push({ ...r, base, also, loads: LOADS, renders: runsFor(n), verdicts: verdicts(r, base) });
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
  const pass = {
    patch: all("patch"),
    regression: baseDir === null ? null : all("change") && all("first"),
    bundle: bundle.gzipKB <= TARGETS.gzipKB && (bundle.baseGzipKB === null || bundle.gzipKB <= bundle.baseGzipKB),
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
  const f = (x) => (typeof x === "number" ? x.toFixed(2) : "-");
  const timer = figures.renders.every((r) => r.isolated) ? "microsecond timer" : "0.1 ms timer";
  const plan = SIZES.map((n) => `${runsFor(n)} renders x ${LOADS} loads at ${n}`).join(", ");
  console.log(
    `\nTracker render (Chromium headless, ms; each figure the median of a page load's renders after 5 warm-up ` +
      `ones, then the median over loads: ${plan} (BENCH_RUNS and BENCH_REPEAT raise them); ${timer}; ` +
      `"whole" = the same turn advance's render with nothing patched; ratio = to the bare list timed alongside; ` +
      `base = ${figures.baseline ?? "none"}, its page loads interleaved with this build's; ` +
      `${figures.seconds.toFixed(0)} s in all)`,
  );
  console.log("turn advance per mode:");
  for (const mode of MODES) {
    const r = figures.renders.find((x) => x.mode === mode);
    if (r) console.log(`  ${mode}: ${r.step}`);
  }
  const verdict = (list) =>
    list.length === 0 ? "-" : list.map((v) => `${v.ok ? "pass" : "FAIL"} ${v.target}`).join(", ");
  const head = [
    "mode",
    "view",
    "n",
    "turn advance",
    "whole",
    "patch pays",
    "command",
    "ratio",
    "base ratio",
    "regression",
    "first render",
    "ratio",
    "base ratio",
    "regression",
    "no change",
    "ratio",
    "layout",
  ];
  const rows = figures.renders.map((r) => [
    r.mode,
    r.view,
    String(r.n),
    f(r.changeMs),
    f(r.fullMs),
    verdict(r.verdicts.patch),
    f(r.commandMs),
    f(r.changeRatio),
    f(r.base?.changeRatio),
    verdict(r.verdicts.change),
    f(r.firstMs),
    f(r.firstRatio),
    f(r.base?.firstRatio),
    verdict(r.verdicts.first),
    f(r.warmMs),
    f(r.warmRatio),
    !r.overflowX && r.scrollable ? "ok" : `${r.overflowX ? "overflows-x" : ""}${r.scrollable ? "" : " no-scroll"}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
  const others = figures.renders.flatMap((r) => Object.entries(r.also).map(([dir, a]) => ({ r, dir, a })));
  if (others.length > 0) console.log("also timed (turn advance, command, whole, first render; ms):");
  for (const { r, dir, a } of others)
    console.log(
      `  ${r.mode} ${r.view} ${r.n}: this ${f(r.changeMs)}, ${f(r.commandMs)}, ${f(r.fullMs)}, ${f(r.firstMs)}; ` +
        `${dir} ${f(a.changeMs)}, ${f(a.commandMs)}, ${f(a.fullMs)}, ${f(a.firstMs)}`,
    );
  const verdictOf = (ok) => (ok === null ? "not judged (no baseline)" : ok ? "met" : "MISSED");
  const b = figures.bundle;
  console.log(
    `bundle: ${f(b.rawKB)} KB raw, ${f(b.gzipKB)} KB gzip (target <= ${figures.targets.gzipKB} KB gzip` +
      `${b.baseGzipKB === null ? "" : ` and <= the baseline's ${f(b.baseGzipKB)} KB`}: ${verdictOf(figures.pass.bundle)})`,
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
            `${r.mode}/${r.view}/${r.n} ${{ patch: "patched turn advance", change: "turn advance", first: "first render" }[kind]} ${v.target}`,
        ),
    ),
  );
  console.log(
    `verdicts: patching pays ${verdictOf(figures.pass.patch)}; no regression at 10 and 50 combatants ` +
      `${verdictOf(figures.pass.regression)}; bundle ${verdictOf(figures.pass.bundle)}; ` +
      `no overflow, scrolls ${verdictOf(figures.pass.layout)}`,
  );
  console.log(`missed (${failed.length}): ${failed.length === 0 ? "none" : failed.join("; ")}`);
  console.log(JSON.stringify(figures));
}
