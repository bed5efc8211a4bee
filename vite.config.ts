import { defineConfig } from "vite";

/**
 * Library build of the module bundle: one ES file with no imports or exports, Foundry's globals
 * left free, class names kept (Foundry builds hook names such as `renderSICombatTracker` from them).
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    target: "es2022",
    minify: "oxc",
    lib: {
      entry: "src/index.ts",
      formats: ["es"],
      fileName: () => "scripts/structured-initiative.js",
    },
    rolldownOptions: {
      // Vite leaves whitespace in an ES library build; the module ships one file, so minify it whole.
      output: { keepNames: true, minify: true },
    },
  },
});
