/**
 * End to end, in Chromium: the sidebar during the `sides` declaration step at 800 px window height
 * (issue 15 item 12). In every view the combatant list keeps at least half the sidebar's combat tab
 * (the playground's chat log under it stands for Foundry's chat tab, which is not shown with the
 * tracker); the declaration form sits in the declaring row, for its owner and the GM, in the row's
 * body region, never in its badges (issue 30 item 4); the sides fold into one line. Screenshots under
 * test-artefacts/sides-layout-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { formsInRow, useSession, screenshots, VIEWS, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

/** Window height of each client view (its iframe). */
const HEIGHT = 800;

interface Layout {
  window: number;
  /** The sidebar's combat tab. */
  sidebar: number;
  list: number;
  panel: number;
  banner: string;
  formInDeclaringRow: boolean;
  formVisible: boolean;
}

function layout(frame: Frame): Promise<Layout> {
  return frame.evaluate(() => {
    const height = (selector: string): number => document.querySelector(selector)?.getBoundingClientRect().height ?? 0;
    const form = document.querySelector(".si-sides-declare");
    const list = document.querySelector(".si-list");
    const box = form?.getBoundingClientRect();
    const listBox = list?.getBoundingClientRect();
    return {
      window: window.innerHeight,
      sidebar: height("#pg-combat"),
      list: height(".si-list"),
      panel: height(".si-sides"),
      banner: (document.querySelector("[data-si=step]")?.textContent ?? "").trim(),
      formInDeclaringRow: form?.closest(".si-row") !== null && form?.closest(".si-row") !== undefined,
      formVisible:
        box !== undefined &&
        listBox !== undefined &&
        box.height > 0 &&
        box.top >= listBox.top - 1 &&
        box.bottom <= listBox.bottom + 1,
    };
  });
}

describe("the sides declaration step at 800 px window height", () => {
  it("the combatant list keeps at least half the sidebar; the form sits in the declaring row", async () => {
    await session.page.setViewportSize({ width: 1180, height: HEIGHT + 120 });
    frames = await loadViews(session, "sample=sides&seed=5");
    await session.page.evaluate((height) => {
      for (const frame of Array.from(document.querySelectorAll<HTMLIFrameElement>("iframe[data-user]"))) {
        frame.style.flex = "none";
        frame.style.height = `${height}px`;
        frame.style.minHeight = "0";
      }
    }, HEIGHT);
    await frames.gm.locator('button[data-action="siStart"]').click();
    await frames.alice.locator('button[data-action="siSidesRoll"]').click();
    const foes = frames.gm.locator(".si-sides__list .si-side", { hasText: "Foes" });
    await expect
      .poll(() => frames.gm.locator('button[data-action="siSidesRoll"]', { hasText: "Re-roll" }).count())
      .toBe(1);
    await foes.locator('button[data-action="siSidesRoll"]').click();
    await expect.poll(async () => (await layout(frames.gm)).banner).toBe("Declaration");
    for (const view of VIEWS) await expect.poll(async () => (await layout(frames[view])).banner).toBe("Declaration");
    await screenshots(session.page, "sides-layout-declaration");
    // Brom (Bob's) declares first: the form is on his row for Bob and the GM, inside the list's view.
    for (const view of VIEWS) {
      const l = await layout(frames[view]);
      expect(l.window, view).toBe(HEIGHT);
      expect(l.list, `${view}: ${JSON.stringify(l)}`).toBeGreaterThanOrEqual(l.sidebar / 2);
      expect([l.formInDeclaringRow, l.formVisible], view).toEqual(view === "alice" ? [false, false] : [true, true]);
    }
    // In the row's body region, not among its badges.
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
    // The sides' details open on demand; the line says who declares in which place.
    const fold = frames.gm.locator("details.si-sides-more");
    expect(await fold.getAttribute("open")).toBeNull();
    expect(await frames.gm.locator(".si-sides__list .si-side").allTextContents()).toEqual([
      expect.stringMatching(/Heroes #\d \(\d+\)/),
      expect.stringMatching(/Foes #\d \(\d+\)/),
    ]);
    await fold.locator("summary.si-sides-more__summary").click();
    await expect.poll(() => fold.locator(".si-side__name").first().isVisible()).toBe(true);
    await screenshots(session.page, "sides-layout-unfolded");
    expect(session.errors).toEqual([]);
  });
});
