/**
 * Vitest setup for every suite that runs the simulated Foundry: after each test, no client of any
 * sim it created may have logged a deprecation warning. On the v14 flavour a warning means the
 * module (or the test) used a v13 shape that v14 only tolerates until v16 (`runtime.ts`); a test that
 * uses one on purpose empties `client.compatWarnings` after checking it.
 */
import { afterEach, expect } from "vitest";
import { takeCreatedSims } from "./index.js";

afterEach(() => {
  const warnings = takeCreatedSims().flatMap((sim) =>
    sim.clients.flatMap((client) => client.compatWarnings.map((w) => `${client.userId}: ${w}`)),
  );
  expect(warnings, "deprecation warnings logged by the simulated Foundry").toEqual([]);
});
