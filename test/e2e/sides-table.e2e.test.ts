/**
 * End to end, in Chromium: what issue 15 items 5, 7 and 8 changed in the `sides` tracker, seen by
 * the GM and both players. A third side makes two GM sides tie: every view shows the tie as waiting
 * for the GM, with no place, until the GM orders it. The GM re-rolls a side before anyone declared:
 * every view shows the old roll struck through. Aria slows down and Alice lets her moment pass: every
 * view marks the action lost. Screenshots under test-artefacts/sides-{tie,reroll,letpass}-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { useSession, overflowing, screenshots, VIEWS, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

const text = (frame: Frame, selector: string): Promise<string> =>
  frame.evaluate((s) => (document.querySelector(s)?.textContent ?? "").replace(/\s+/g, " ").trim(), selector);

/** Every view's text of `selector` satisfies `check`. */
async function everyView(selector: string, check: (shown: string) => boolean, what: string): Promise<void> {
  for (const view of VIEWS)
    await expect
      .poll(async () => check(await text(frames[view], selector)), { message: `${view}: ${what}` })
      .toBe(true);
}

/** A side's chip on the panel's line (its first roll, its place and roll). */
const side = (frame: Frame, name: string) => frame.locator(".si-sides__list .si-side", { hasText: name });
/** A side's entry in the panel's disclosure (kind, roller, roll, the GM's re-roll and correction). */
const detail = (frame: Frame, name: string) => frame.locator(".si-sides__details .si-side", { hasText: name });
/** Open the panel's disclosure, if closed. */
async function openMore(frame: Frame): Promise<void> {
  const more = frame.locator("details.si-sides-more");
  if ((await more.getAttribute("open")) === null) await more.locator("> summary").click();
}
const row = (frame: Frame, name: string) =>
  frame.locator(".si-row", { has: frame.locator(".si-row__name", { hasText: name }) });

describe("the sides tracker at the table", () => {
  it("a tie waits for the GM, a re-roll keeps the old roll, a slowed moment let pass is lost", async () => {
    frames = await loadViews(session, "sample=sides&seed=5");
    const gm = frames.gm;
    // A third side, the Pirates, with the Officer on it.
    await openMore(gm);
    await gm.locator(".si-sides-add input[type=text]").fill("Pirates");
    await gm.locator('button[data-action="siSidesAdd"]').click();
    await everyView(".si-sides__list", (s) => s.includes("Pirates"), "the Pirates side");
    await row(gm, "Officer").locator('select[name="structured-initiative-side"]').selectOption({ label: "Pirates" });
    await row(gm, "Officer").locator('button[data-action="siSidesMove"]').click();
    await expect.poll(() => detail(gm, "Pirates").textContent()).toContain("roller: Officer");
    await gm.locator("details.si-sides-more > summary").click();
    await gm.locator('button[data-action="siStart"]').click();
    await frames.alice.locator('button[data-action="siSidesRoll"]').click();
    await side(gm, "Foes").locator('button[data-action="siSidesRoll"]').click();
    await side(gm, "Pirates").locator('button[data-action="siSidesRoll"]').click();
    await everyView("[data-si=step]", (s) => s === "Declaration", "the declaration step");
    // Before anyone declared, the GM sets the Pirates' roll to the Foes': two GM sides tie.
    await openMore(gm);
    const foes = (await detail(gm, "Foes").locator(".si-side__roll").textContent())?.replace(/\D/g, "") ?? "";
    await detail(gm, "Pirates").locator("input[type=number]").fill(foes);
    await detail(gm, "Pirates").locator('button[data-action="siSidesCorrect"]').click();
    for (const view of VIEWS) {
      await expect.poll(() => frames[view].locator("[data-si=tied]").count(), { message: view }).toBe(2);
      for (const name of ["Foes", "Pirates"])
        expect(await side(frames[view], name).textContent(), view).not.toMatch(/#\d/);
    }
    await everyView(".si-sides", (s) => s.includes("Tied sides"), "the tie block");
    await screenshots(session.page, "sides-tie");
    await gm.locator('button[data-action="siSidesOrderSides"]').first().click();
    await everyView("[data-si=step]", (s) => s === "Declaration", "the declaration step");
    for (const view of VIEWS) expect(await frames[view].locator("[data-si=tied]").count(), view).toBe(0);

    // Before anyone declared, the GM re-rolls the heroes: the old roll stays, struck through.
    await openMore(gm);
    const before = (await detail(gm, "Heroes").locator(".si-side__roll").textContent())?.replace(/\D/g, "") ?? "";
    await detail(gm, "Heroes").locator('button[data-action="siSidesRoll"]').click();
    await everyView(".si-side__earlier", (s) => s === before, "the old roll struck through");
    // Also on the panel's line, which the players see without opening anything.
    await everyView(".si-sides__list .si-side s", (s) => s === before, "the old roll struck through, on the line");
    await screenshots(session.page, "sides-reroll");

    // Everyone declares from the GM's view: Aria two actions, the rest one.
    for (let step = 0; step < 8; step++) {
      const banner = await text(gm, "[data-si=step]");
      if (banner !== "Declaration") break;
      const declarer = (await text(gm, "[data-si=declarer]")).replace(/ declares now.*/, "");
      const form = gm.locator(".si-sides-declare");
      await form.locator("textarea").fill(declarer === "Aria" ? "Cover Brom\nShoot" : "Shoot");
      await form.locator('button[data-action="siSidesDeclare"]').click();
      await expect.poll(() => text(gm, "[data-si=declarer]")).not.toContain(`${declarer} declares`);
    }
    await everyView("[data-si=step]", (s) => s === "Pass 1", "pass 1");
    // Aria slows down to act after the last one of the pass, then lets her moment pass.
    // The choice is filled when opened.
    await frames.alice.locator("details.si-sides-slow > summary").click();
    const after = frames.alice.locator('select[name="structured-initiative-after"]');
    await expect.poll(() => after.count()).toBe(1);
    const targets = await after.locator("option").evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
    await after.selectOption(targets[targets.length - 1] ?? "");
    await frames.alice.locator('button[data-action="siSidesSlow"]').click();
    await expect.poll(() => text(gm, ".si-sides-pass")).toContain("Aria (slowed down)");
    for (let step = 0; step < 8; step++) {
      await expect.poll(() => text(gm, "[data-si=current]")).not.toBe("");
      if ((await text(gm, "[data-si=current]")) === "Aria") break;
      const now = await text(gm, ".si-sides-pass");
      await gm.locator('button[data-action="siNextTurn"]').click();
      await expect.poll(() => text(gm, ".si-sides-pass")).not.toBe(now);
    }
    await expect.poll(() => frames.alice.locator('button[data-action="siSidesLetPass"]').count()).toBe(1);
    expect(await frames.bob.locator('button[data-action="siSidesLetPass"]').count()).toBe(0);
    await frames.alice.locator('button[data-action="siSidesLetPass"]').click();
    for (const view of VIEWS) {
      await expect
        .poll(() => row(frames[view], "Aria").locator(".si-sides-action--lost").count(), { message: view })
        .toBe(1);
      expect(await row(frames[view], "Aria").textContent(), view).toContain("Penalty −1D");
    }
    // Aria acted last: letting her moment pass ended pass 1; her second action is still to come.
    await everyView("[data-si=step]", (s) => s === "Pass 2", "pass 2");
    for (const view of VIEWS) expect(await row(frames[view], "Aria").textContent(), view).toContain("1 action lost");
    await screenshots(session.page, "sides-letpass");
    for (const view of VIEWS) expect(await overflowing(frames[view]), view).toEqual([]);
    expect(session.errors).toEqual([]);
  });
});
