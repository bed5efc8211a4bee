// `npm run bench:render`: the tracker's render figures in headless Chromium (Debian's package,
// driven by playwright-core) and the bundle size. For 10, 50 and 200 combatants it times a full
// tracker render against a bare Handlebars list of the same rows; prints a table, then JSON.
// Targets: ratio <= 1.5, 200 combatants < 16 ms, bundle <= 60 KB gzip.
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { startPlayground } from "./start.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bundleFile = path.join(root, "dist/scripts/structured-initiative.js");
const SIZES = [10, 50, 200];
const TARGETS = { ratio: 1.5, ms200: 16, gzipKB: 60 };
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Measure everything; resolves with the figures. */
export async function benchRender() {
  if (!existsSync(bundleFile)) execSync("npm run build", { cwd: root, stdio: "inherit" });
  const raw = readFileSync(bundleFile);
  const bundle = { rawKB: raw.length / 1024, gzipKB: gzipSync(raw, { level: 9 }).length / 1024 };
  const { server, url } = await startPlayground({ port: 5191, quiet: true });
  const profile = mkdtempSync(path.join(os.tmpdir(), "si-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ARGS,
    viewport: { width: 1000, height: 800 },
  });
  const renders = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    for (const n of SIZES) {
      await page.goto(`${url}bench.html?n=${n}`);
      await page.waitForFunction(
        () => globalThis.benchResult !== undefined || globalThis.benchError !== undefined,
        null,
        {
          timeout: 60_000,
        },
      );
      const { result, error } = await page.evaluate(() => ({
        result: globalThis.benchResult,
        error: globalThis.benchError,
      }));
      if (error) throw new Error(error);
      renders.push(result);
    }
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  const at200 = renders.find((r) => r.n === 200);
  const pass = {
    ratio: renders.every((r) => r.ratio <= TARGETS.ratio),
    warmRatio: renders.every((r) => r.warmRatio <= TARGETS.ratio),
    ms200: at200 !== undefined && at200.trackerMs < TARGETS.ms200,
    bundle: bundle.gzipKB <= TARGETS.gzipKB,
    layout: renders.every((r) => !r.overflowX && r.scrollable),
  };
  return { renders, bundle, targets: TARGETS, pass };
}

if (process.argv[1] === import.meta.filename) {
  const figures = await benchRender();
  const f = (x) => x.toFixed(2);
  console.log("\nTracker render (Chromium headless, GM view, median of 30)");
  console.log("combatants | after a change ms | ratio | re-render ms | ratio | bare ms | overflow-x | scrolls");
  for (const r of figures.renders)
    console.log(
      [
        String(r.n).padStart(10),
        f(r.trackerMs).padStart(16),
        f(r.ratio).padStart(5),
        f(r.warmMs).padStart(12),
        f(r.warmRatio).padStart(5),
        f(r.bareMs).padStart(7),
        String(r.overflowX).padStart(10),
        String(r.scrollable),
      ].join(" | "),
    );
  console.log(`bundle: ${f(figures.bundle.rawKB)} KB raw, ${f(figures.bundle.gzipKB)} KB gzip`);
  console.log(
    `targets: ratio <= ${figures.targets.ratio} ${figures.pass.ratio ? "met" : "MISSED"} after a change, ` +
      `${figures.pass.warmRatio ? "met" : "MISSED"} on re-render; ` +
      `200 combatants < ${figures.targets.ms200} ms ${figures.pass.ms200 ? "met" : "MISSED"}; ` +
      `bundle <= ${figures.targets.gzipKB} KB gzip ${figures.pass.bundle ? "met" : "MISSED"}`,
  );
  console.log(JSON.stringify(figures));
}
