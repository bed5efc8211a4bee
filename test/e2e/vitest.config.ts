import { defineConfig } from "vitest/config";

/** Browser end-to-end tests: Chromium drives the playground (see test/e2e/playground.e2e.test.ts). */
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/e2e/**/*.e2e.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
