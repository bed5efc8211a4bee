import { defineConfig } from "vitest/config";

/** `npm run bench`: runs the figure-printing scripts in bench/ (no timing assertions). */
export default defineConfig({
  test: {
    include: ["bench/**/*.figures.ts"],
    environment: "node",
    testTimeout: 300_000,
    reporters: ["dot"],
  },
});
