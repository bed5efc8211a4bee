/**
 * End to end, in Chromium: a tracker patched render after render (rows and panel entries that did
 * not change are kept as they are, the rest is patched in place) shows exactly what a new tracker
 * shows on its first render. For every mode's render-bench encounter (`src/modes/<id>/sample.ts`, field `bench`),
 * in the GM's view and in a player's, after each of a dozen turn advances and after re-renders
 * without a change, every part's markup is compared (the bench page's `?check=` mode).
 */
import { describe, expect, it } from "vitest";
import { useSession } from "./browser.js";

const session = useSession();

const MODES = ["individual", "sides", "slots", "declare-resolve", "phases"] as const;
const VIEWS = ["gm", "player"] as const;

interface RenderCheck {
  steps: number;
  compared: number;
  mismatches: string[];
}

async function check(mode: string, view: string): Promise<RenderCheck> {
  const page = session.page;
  await page.goto(`${session.url}bench.html?n=12&mode=${mode}&view=${view}&check=12`);
  await page.waitForFunction(() => "benchResult" in globalThis || "benchError" in globalThis, null, {
    timeout: 120_000,
  });
  const { result, error } = await page.evaluate(() => {
    const g = globalThis as { benchResult?: { check?: RenderCheck }; benchError?: string };
    return { result: g.benchResult?.check ?? null, error: g.benchError ?? null };
  });
  if (error !== null) throw new Error(error);
  if (result === null) throw new Error("the bench page did not check");
  return result;
}

describe("a patched tracker shows what a first render shows", () => {
  for (const mode of MODES)
    for (const view of VIEWS)
      it(`${mode}, ${view} view: after every turn advance and re-render`, async () => {
        const result = await check(mode, view);
        expect(result.steps).toBe(12);
        expect(result.compared).toBeGreaterThan(12 * 3);
        expect(result.mismatches).toEqual([]);
        expect(session.errors).toEqual([]);
      }, 180_000);
});
