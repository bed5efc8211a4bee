import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "test/rules/**/*.test.ts",
      "test/unit/**/*.test.ts",
      "test/integration/**/*.test.ts",
      "test/conformance/**/*.test.ts",
    ],
    environment: "node",
    pool: "threads",
    setupFiles: ["test/sim/setup.ts"],
  },
});
