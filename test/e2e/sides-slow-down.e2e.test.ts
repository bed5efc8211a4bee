/**
 * End to end, in Chromium, on the render bench's `sides` encounter (`src/modes/<id>/sample.ts`, field `bench`) in
 * the GM's view: a row's slow-down choice is a summary until it is opened, and then a select of
 * everyone it may follow.
 */
import { describe, expect, it } from "vitest";
import { useSession } from "./browser.js";

const session = useSession();

/** Combatants in the encounter: enough that the bench's own turn advances leave it in pass 1. */
const N = 30;

describe("a sides row's slow-down choice", () => {
  it("a row's slow-down choice is filled when opened, with everyone it may follow", async () => {
    const page = session.page;
    await page.goto(`${session.url}bench.html?n=${N}&mode=sides&view=gm&runs=5`);
    await page.waitForFunction(() => "benchResult" in globalThis || "benchError" in globalThis, null, {
      timeout: 120_000,
    });
    const row = page.locator(".si-row:not(.si-row--current)", { has: page.locator("details.si-sides-slow") }).last();
    const summary = row.locator("details.si-sides-slow > summary");
    await summary.click();
    const select = row.locator('select[name="structured-initiative-after"]');
    await expect.poll(() => select.count()).toBe(1);
    const current = await page.locator(".si-row--current .si-row__name").textContent();
    const options = await select.locator("option").allTextContents();
    // The one acting now is its default; everyone still to act in the pass is there, itself not.
    expect(options[0]).toBe(current);
    expect(options).not.toContain(await row.locator(".si-row__name").textContent());
    expect(options.length).toBeGreaterThan(1);
    expect(session.errors).toEqual([]);
  }, 180_000);
});
