import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The browser playground: a top page holding the simulated server and one iframe per user, each
 * running the simulated Foundry client with the built module (`dist/`: bundle, templates, styles).
 * `npm start` serves it with Vite's dev server; `npm run build:playground` builds it into
 * dist-playground/, a static site (relative URLs, everything bundled: no server code, no endpoint)
 * that any static web host serves.
 */
export default defineConfig({
  root: here,
  // Relative asset URLs, so the site works from any folder of any static host.
  base: "./",
  publicDir: false,
  clearScreen: false,
  logLevel: "warn",
  server: { host: "127.0.0.1", port: 5173, strictPort: false, fs: { allow: [path.resolve(here, "..")] } },
  preview: { host: "127.0.0.1", port: 4173, strictPort: false },
  optimizeDeps: { include: ["handlebars"], entries: ["index.html", "client.html", "bench.html", "bench-gm.html"] },
  build: {
    outDir: path.resolve(here, "../dist-playground"),
    emptyOutDir: true,
    rolldownOptions: {
      input: {
        index: path.resolve(here, "index.html"),
        client: path.resolve(here, "client.html"),
        bench: path.resolve(here, "bench.html"),
        "bench-gm": path.resolve(here, "bench-gm.html"),
      },
    },
  },
});
