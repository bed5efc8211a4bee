// `npm run bench:render`: the tracker's render figures in headless Chromium (Debian's package,
// driven by playwright-core) and the bundle size. For each mode's sample encounter (started,
// mid-round: playground/bench-modes.ts), in the GM's view and in a player's (Alice, who owns one
// PC), at 10, 50 and 200 combatants, it times the tracker's render after a turn advance (the mode's
// own step), a re-render without a change and a first render, each against a bare Handlebars list
// of the same rows timed under the same conditions; prints a table with pass or fail per figure,
// then JSON. Targets (issue #17): turn advance <= 3 ms at 10, <= 1.0x the bare list at 50,
// <= 0.75x and < 8 ms at 200; first render <= 1.5x at 50 and 200; bundle <= 60 KB gzip.
// Env: BENCH_REPEAT (page loads per figure), BENCH_RUNS (renders per figure and load),
// BENCH_MODES, BENCH_VIEWS, BENCH_SIZES (comma lists, to bench a part); BENCH_PORT (the page's
// server port, 5191 unless set, so that two benches can run side by side).
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BUNDLE_TARGET_GZIP_KB, bundleSizes, formatBundleSizes } from "./bundle-size.mjs";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.mjs";
import { startPlayground } from "./start.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bundleFile = path.join(root, "dist/scripts/structured-initiative.js");
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
/** The targets: ms and ratios to the bare list. */
const TARGETS = {
  change10Ms: 3,
  change50Ratio: 1.0,
  change200Ratio: 0.75,
  change200Ms: 8,
  firstRatio: 1.5,
  gzipKB: BUNDLE_TARGET_GZIP_KB,
};

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

/** Pass or fail of each figure against its targets: `{ok, target}` each (none where no target applies). */
function verdicts(r) {
  const t = TARGETS;
  const out = { change: [], first: [] };
  if (r.n <= 10) out.change.push({ ok: r.changeMs <= t.change10Ms, target: `<= ${t.change10Ms} ms` });
  else if (r.n <= 50)
    out.change.push({ ok: r.changeRatio <= t.change50Ratio, target: `<= ${t.change50Ratio.toFixed(1)}x` });
  else {
    out.change.push({ ok: r.changeRatio <= t.change200Ratio, target: `<= ${t.change200Ratio}x` });
    out.change.push({ ok: r.changeMs < t.change200Ms, target: `< ${t.change200Ms} ms` });
  }
  if (r.n >= 50) out.first.push({ ok: r.firstRatio <= t.firstRatio, target: `<= ${t.firstRatio}x` });
  return out;
}

/** Measure everything; resolves with the figures. */
export async function benchRender() {
  if (!existsSync(bundleFile)) execSync("npm run build", { cwd: root, stdio: "inherit" });
  const sizes = bundleSizes(bundleFile);
  // The bundle's figures first (the whole, each mode module's and the shared core's share), before the browser runs.
  console.log(`\n${formatBundleSizes(sizes).join("\n")}`);
  const bundle = { ...sizes.total, modes: sizes.modes, core: sizes.core };
  const { server, url } = await startPlayground({
    port: Number(process.env.BENCH_PORT ?? 5191),
    quiet: true,
    isolated: true,
  });
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
          const runs = [];
          for (let run = 0; run < LOADS; run++) {
            runs.push(await measurePage(page, `${url}bench.html?n=${n}&mode=${mode}&view=${view}&runs=${runsFor(n)}`));
            const at = ((Date.now() - started) / 1000).toFixed(0);
            process.stderr.write(`  ${mode} ${view} ${n}: load ${run + 1} done (${at} s)\n`);
          }
          const r = medianOfRuns(runs);
          renders.push({ ...r, loads: runs.length, renders: runsFor(n), verdicts: verdicts(r) });
        }
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  const all = (kind) => renders.every((r) => r.verdicts[kind].every((v) => v.ok));
  const pass = {
    change: all("change"),
    first: all("first"),
    bundle: bundle.gzipKB <= TARGETS.gzipKB,
    layout: renders.every((r) => !r.overflowX && r.scrollable),
  };
  return { renders, bundle, targets: TARGETS, pass, seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] === import.meta.filename) {
  const figures = await benchRender();
  const f = (x) => x.toFixed(2);
  const timer = figures.renders.every((r) => r.isolated) ? "microsecond timer" : "0.1 ms timer";
  const plan = SIZES.map((n) => `${runsFor(n)} renders x ${LOADS} loads at ${n}`).join(", ");
  console.log(
    `\nTracker render (Chromium headless, ms; each figure the median of a page load's renders after 5 warm-up ` +
      `ones, then the median over loads: ${plan} (reduced to keep the run short; BENCH_RUNS and BENCH_REPEAT ` +
      `raise them); ${timer}; ratio = to the bare list timed alongside, after the same update; ` +
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
    "bare",
    "ratio",
    "target",
    "no change",
    "bare",
    "ratio",
    "first render",
    "bare",
    "ratio",
    "target",
    "layout",
    "set-up s",
  ];
  const rows = figures.renders.map((r) => [
    r.mode,
    r.view,
    String(r.n),
    f(r.changeMs),
    f(r.changeBareMs),
    f(r.changeRatio),
    verdict(r.verdicts.change),
    f(r.warmMs),
    f(r.warmBareMs),
    f(r.warmRatio),
    f(r.firstMs),
    f(r.firstBareMs),
    f(r.firstRatio),
    verdict(r.verdicts.first),
    !r.overflowX && r.scrollable ? "ok" : `${r.overflowX ? "overflows-x" : ""}${r.scrollable ? "" : " no-scroll"}`,
    (r.setupMs / 1000).toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
  const met = (ok) => (ok ? "met" : "MISSED");
  console.log(
    `bundle: ${f(figures.bundle.rawKB)} KB raw, ${f(figures.bundle.gzipKB)} KB gzip ` +
      `(target <= ${figures.targets.gzipKB} KB gzip: ${met(figures.pass.bundle)})`,
  );
  for (const [id, size] of Object.entries(figures.bundle.modes))
    console.log(`  mode ${id}: ${f(size.rawKB)} KB raw, ${f(size.gzipKB)} KB gzip on its own`);
  console.log(
    `  shared core: ${f(figures.bundle.core.rawKB)} KB raw, ${f(figures.bundle.core.gzipKB)} KB gzip on its own`,
  );
  const failed = figures.renders.flatMap((r) =>
    ["change", "first"].flatMap((kind) =>
      r.verdicts[kind]
        .filter((v) => !v.ok)
        .map((v) => `${r.mode}/${r.view}/${r.n} ${kind === "change" ? "turn advance" : "first render"} ${v.target}`),
    ),
  );
  console.log(
    `targets: turn advance ${met(figures.pass.change)}; first render ${met(figures.pass.first)}; ` +
      `bundle ${met(figures.pass.bundle)}; no overflow, scrolls ${met(figures.pass.layout)}`,
  );
  console.log(`missed (${failed.length}): ${failed.length === 0 ? "none" : failed.join("; ")}`);
  console.log(JSON.stringify(figures));
}
