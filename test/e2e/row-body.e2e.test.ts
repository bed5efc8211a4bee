/**
 * End to end, in Chromium (issue 30 item 4): a row's forms and lists sit in the row's body region
 * (`.si-row__body`, filled by the mode's body partial), never inside the badges' `<span>`: in
 * `individual`, the Ready button with its trigger field on the acting row, on one line with Delay
 * (as before the body region), and the GM's set-up buttons in a row menu that Escape closes
 * (issue 29); in `sides`, the declaration form on the declaring row. Screenshots of the GM's and the
 * players' views under test-artefacts/row-body-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import {
  agreedIn,
  formsInRow,
  overflowing,
  useSession,
  screenshots,
  startIndividual,
  VIEWS,
  type View,
  loadViews,
} from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

describe("a row's forms and lists sit in its body region", () => {
  it("individual: the Ready field with its button on the acting row", async () => {
    frames = await loadViews(session, "sample=individual&seed=3");
    await expect.poll(() => frames.gm.locator(".si-row").count()).toBe(6);
    await startIndividual(
      frames.gm,
      {
        Aria: 20,
        Brom: 18,
        Officer: 16,
        "Trooper 1": 14,
        "Trooper 2": 12,
        "Trooper 3": 10,
      },
      1,
    );
    await agreedIn(frames, (s) => s.current === "Brom");
    await expect.poll(() => frames.bob.locator('button[data-action="siReady"]').count()).toBe(1);
    await screenshots(session.page, "row-body-individual");
    for (const view of ["gm", "bob"] as const) {
      // Delay, the trigger field and Ready.
      expect(await formsInRow(frames[view], "Brom"), view).toEqual({ inBadges: 0, inBody: 3 });
      const field = frames[view].locator('.si-row__body input[name="structured-initiative-trigger"]');
      expect(await field.getAttribute("data-combatant-id"), view).not.toBeNull();
      // One line: Delay, the field and Ready share it.
      const middles = await frames[view].evaluate(() =>
        [
          'button[data-action="siDelay"]',
          'input[name="structured-initiative-trigger"]',
          'button[data-action="siReady"]',
        ].map((selector) => {
          const box = document.querySelector(`.si-row--current ${selector}`)?.getBoundingClientRect();
          return box === undefined ? -1 : Math.round(box.top + box.height / 2);
        }),
      );
      expect(middles[0], view).toBeGreaterThan(0);
      expect(new Set(middles).size, `${view}: ${JSON.stringify(middles)}`).toBe(1);
    }
    expect(await formsInRow(frames.alice, "Brom")).toEqual({ inBadges: 0, inBody: 0 });
    expect(session.errors).toEqual([]);
  });

  it("individual: the GM's set-up buttons sit in a row menu that the keyboard opens and Escape closes", async () => {
    frames = await loadViews(session, "sample=individual&seed=3");
    await expect.poll(() => frames.gm.locator(".si-row").count()).toBe(6);
    const officer = frames.gm.locator(".si-row", { hasText: "Officer" });
    const menu = officer.locator("details.si-row-menu");
    const items = menu.locator(".si-row-menu__items button");
    // Closed: one button on the row, none of the three set-up buttons shown.
    expect(await items.evaluateAll((list) => list.map((b) => b.getAttribute("data-action")))).toEqual([
      "siRoll",
      "siAware",
      "siGroup",
    ]);
    for (const item of await items.all()) expect(await item.isVisible()).toBe(false);
    const summary = menu.locator("> summary");
    expect(await summary.textContent()).toContain("Set-up of Officer");
    // The ⋯ ends the badges' line, beside the initiative: no line of its own under the name (issue 29).
    expect(await officer.locator(".si-badges > details.si-row-menu").count()).toBe(1);
    const [button, initiative] = await Promise.all([
      summary.boundingBox(),
      officer.locator(".si-row__init").boundingBox(),
    ]);
    expect(button !== null && initiative !== null && button.y < initiative.y + initiative.height).toBe(true);
    // The keyboard opens it, reaches its buttons, and Escape closes it with the focus back on ⋯.
    await summary.focus();
    await summary.press("Enter");
    await expect.poll(() => menu.getAttribute("open")).toBe("");
    for (const item of await items.all()) expect(await item.isVisible()).toBe(true);
    expect(await overflowing(frames.gm)).toEqual([]);
    await screenshots(session.page, "row-menu-individual-open");
    await summary.press("Tab");
    expect(await frames.gm.evaluate(() => document.activeElement?.getAttribute("data-action"))).toBe("siRoll");
    await frames.gm.locator(":focus").press("Escape");
    await expect.poll(() => menu.getAttribute("open")).toBeNull();
    expect(await frames.gm.evaluate(() => document.activeElement?.classList.contains("si-row-menu__button"))).toBe(
      true,
    );
    // A choice runs and closes the menu: Aware, in 2 clicks.
    await summary.click();
    await officer.locator('button[data-action="siAware"]').click();
    await expect.poll(() => officer.locator('button[data-action="siAware"]').getAttribute("aria-pressed")).toBe("true");
    expect(await menu.getAttribute("open")).toBeNull();
    await screenshots(session.page, "row-menu-individual");
    // Players have no menu: Alice's own Roll is on Aria's row.
    expect(await frames.alice.locator("details.si-row-menu").count()).toBe(0);
    expect(
      await frames.alice.locator(".si-row", { hasText: "Aria" }).locator('button[data-action="siRoll"]').isVisible(),
    ).toBe(true);
    expect(session.errors).toEqual([]);
  });

  it("sides: the declaration form on the declaring row", async () => {
    frames = await loadViews(session, "sample=sides&seed=5");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await frames.alice.locator('button[data-action="siSidesRoll"]').click();
    await expect
      .poll(() => frames.gm.locator('button[data-action="siSidesRoll"]', { hasText: "Re-roll" }).count())
      .toBe(1);
    await frames.gm
      .locator(".si-sides__list .si-side", { hasText: "Foes" })
      .locator('button[data-action="siSidesRoll"]')
      .click();
    for (const view of VIEWS)
      await expect.poll(() => frames[view].locator("[data-si=step]").textContent()).toContain("Declaration");
    await expect.poll(() => frames.bob.locator(".si-sides-declare").count()).toBe(1);
    await screenshots(session.page, "row-body-sides");
    for (const view of ["gm", "bob"] as const) {
      const at = await formsInRow(frames[view], "Brom");
      expect(at.inBadges, view).toBe(0);
      expect(at.inBody, view).toBeGreaterThan(0);
      expect(await frames[view].locator(".si-row__body .si-sides-declare").count(), view).toBe(1);
    }
    for (const view of VIEWS)
      expect(await frames[view].locator(".si-badges :is(input, select, textarea, ol, ul, details)").count(), view).toBe(
        0,
      );
    expect(session.errors).toEqual([]);
  });
});
