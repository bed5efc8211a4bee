// `npm run build:playground`: the browser playground as a static site in dist-playground/ (after
// `npm run build`, whose bundle, templates and styles it embeds). The pages, the simulated Foundry
// server and clients all run in the browser: any static web host serves the folder as it is.
import path from "node:path";
import { build } from "vite";

const root = path.resolve(import.meta.dirname, "..");
/** Where the static site is written by default. */
export const PLAYGROUND_OUT = path.join(root, "dist-playground");

/** Build the static playground into `outDir`; resolves with that folder. */
export async function buildPlayground(outDir = PLAYGROUND_OUT, { quiet = false } = {}) {
  await build({
    configFile: path.join(root, "playground/vite.config.ts"),
    logLevel: quiet ? "error" : "warn",
    // The page bundles the simulated Foundry and the module (about 0.5 MB): no warning for that.
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  });
  return outDir;
}

if (process.argv[1] === import.meta.filename) {
  const out = await buildPlayground();
  console.log(`Static playground: ${path.relative(root, out)}/index.html (serve the folder from any static host)`);
}
