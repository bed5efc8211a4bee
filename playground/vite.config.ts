import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The browser playground: a top page holding the simulated server and one iframe per user, each
 * running the simulated Foundry client with the built module (`dist/`: bundle, templates, styles).
 */
export default defineConfig({
  root: here,
  publicDir: false,
  clearScreen: false,
  logLevel: "warn",
  server: { host: "127.0.0.1", port: 5173, strictPort: false, fs: { allow: [path.resolve(here, "..")] } },
  preview: { host: "127.0.0.1", port: 4173, strictPort: false },
  optimizeDeps: { include: ["handlebars"], entries: ["index.html", "client.html", "bench.html"] },
  build: {
    outDir: path.resolve(here, "../node_modules/.playground-dist"),
    emptyOutDir: true,
    rolldownOptions: {
      input: {
        index: path.resolve(here, "index.html"),
        client: path.resolve(here, "client.html"),
        bench: path.resolve(here, "bench.html"),
      },
    },
  },
});
