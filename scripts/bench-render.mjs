// `npm run bench:render`: the tracker's render figures in headless Chromium (Debian's package,
// driven by playwright-core) and the bundle size. For 10, 50 and 200 combatants it times the
// tracker's render after a turn advance, a re-render without a change and a first render, each
// against a bare Handlebars list of the same rows; prints a table, then JSON.
// Targets: ratio <= 1.5, 200 combatants < 16 ms, bundle <= 60 KB gzip (the bundle's figures, the
// whole and each mode module's and the shared core's share, are printed first, before the browser runs).
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BUNDLE_TARGET_GZIP_KB, bundleSizes, formatBundleSizes } from "./bundle-size.mjs";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.mjs";
import { startPlayground } from "./start.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bundleFile = path.join(root, "dist/scripts/structured-initiative.js");
const SIZES = [10, 50, 200];
const TARGETS = { ratio: 1.5, ms200: 16, gzipKB: BUNDLE_TARGET_GZIP_KB };

/** Page loads per size (env BENCH_REPEAT); each figure is the median over them. */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));

/** One load of the bench page; resolves with its result. */
async function measurePage(page, address) {
  await page.goto(address);
  await page.waitForFunction(() => globalThis.benchResult !== undefined || globalThis.benchError !== undefined, null, {
    timeout: 60_000,
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

/** Measure everything; resolves with the figures. */
export async function benchRender() {
  if (!existsSync(bundleFile)) execSync("npm run build", { cwd: root, stdio: "inherit" });
  const bundle = bundleSizes(bundleFile);
  // Printed first, so the size is on record even if the browser part fails.
  console.log(`\n${formatBundleSizes(bundle).join("\n")}`);
  const { server, url } = await startPlayground({ port: 5191, quiet: true, isolated: true });
  const profile = mkdtempSync(path.join(os.tmpdir(), "si-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1000, height: 800 },
  });
  const renders = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    for (const n of SIZES) {
      const runs = [];
      for (let run = 0; run < REPEAT; run++) runs.push(await measurePage(page, `${url}bench.html?n=${n}`));
      renders.push(medianOfRuns(runs));
    }
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  const at200 = renders.find((r) => r.n === 200);
  const ratios = ["changeRatio", "warmRatio", "firstRatio"];
  const pass = {
    ratio: renders.every((r) => ratios.every((k) => r[k] <= TARGETS.ratio)),
    ms200: at200 !== undefined && Math.max(at200.changeMs, at200.warmMs, at200.firstMs) < TARGETS.ms200,
    bundle: bundle.total.gzipKB <= TARGETS.gzipKB,
    layout: renders.every((r) => !r.overflowX && r.scrollable),
  };
  return { renders, bundle, targets: TARGETS, pass };
}

if (process.argv[1] === import.meta.filename) {
  const figures = await benchRender();
  const f = (x) => x.toFixed(2);
  const timer = figures.renders.every((r) => r.isolated) ? "microsecond timer" : "0.1 ms timer";
  console.log(
    `\nTracker render (Chromium headless, GM view, ms; median of 40 renders, then of ${REPEAT} page loads; ` +
      `${timer}; ratio = to the bare list timed alongside, after the same update)`,
  );
  const head = [
    "combatants",
    "turn advance",
    "bare",
    "ratio",
    "no change",
    "bare",
    "ratio",
    "first render",
    "bare",
    "ratio",
  ];
  console.log([...head, "overflow-x", "scrolls"].join(" | "));
  for (const r of figures.renders) {
    const cells = [
      r.n,
      r.changeMs,
      r.changeBareMs,
      r.changeRatio,
      r.warmMs,
      r.warmBareMs,
      r.warmRatio,
      r.firstMs,
      r.firstBareMs,
      r.firstRatio,
    ];
    const text = cells.map((v, i) => (i === 0 ? String(v) : f(v)).padStart(head[i].length));
    console.log([...text, String(r.overflowX).padStart(10), String(r.scrollable)].join(" | "));
  }
  const met = (ok) => (ok ? "met" : "MISSED");
  const kinds = { changeRatio: "turn advance", warmRatio: "no change", firstRatio: "first render" };
  const over = figures.renders.flatMap((r) =>
    Object.entries(kinds)
      .filter(([k]) => r[k] > figures.targets.ratio)
      .map(([k, label]) => `${label} at ${r.n} (${f(r[k])})`),
  );
  console.log(`ratios above ${figures.targets.ratio}: ${over.length === 0 ? "none" : over.join(", ")}`);
  console.log(
    `targets: every ratio <= ${figures.targets.ratio} ${met(figures.pass.ratio)}; ` +
      `200 combatants < ${figures.targets.ms200} ms ${met(figures.pass.ms200)}; ` +
      `bundle <= ${figures.targets.gzipKB} KB gzip ${met(figures.pass.bundle)}; ` +
      `no overflow, scrolls ${met(figures.pass.layout)}`,
  );
  console.log(JSON.stringify(figures));
}
