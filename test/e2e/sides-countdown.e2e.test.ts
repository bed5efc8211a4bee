/**
 * The sides hesitation countdown in Chromium (issue 27 item 1): after *Previous round* back into the
 * declarations, every view shows the whole countdown again (not a deadline long past); the GM pauses
 * it while an NPC declares and every view shows it paused. Screenshots of each view.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import { useSession, screenshots, VIEWS, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

interface Shown {
  banner: string;
  round: string;
  declarer: string;
  timer: string;
  paused: boolean;
}

function shownIn(frame: Frame): Promise<Shown> {
  return frame.evaluate(() => {
    const text = (el: Element | null): string => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
    return {
      banner: text(document.querySelector("[data-si=step]")),
      round: text(document.querySelector(".sim-round")),
      declarer: text(document.querySelector("[data-si=declarer]")),
      timer: text(document.querySelector(".si-sides-countdown")),
      paused: text(document.querySelector(".si-sides-declarer")).includes("Countdown paused"),
    };
  });
}

/** Wait until every view satisfies `check`; the GM's view then. */
async function all(check: (s: Shown) => boolean): Promise<Shown> {
  let last: Shown[] = [];
  await expect
    .poll(
      async () => {
        last = await Promise.all(VIEWS.map((view) => shownIn(frames[view])));
        return last.every(check);
      },
      { timeout: 8000, interval: 50 },
    )
    .toBe(true)
    .catch((error: unknown) => {
      throw new Error(`views: ${JSON.stringify(last)} ${session.errors.join(" ; ")}`, { cause: error });
    });
  return last[0] as Shown;
}

describe("the sides countdown in Chromium", () => {
  it("previous round gives the declarer the whole countdown again; the GM pauses while an NPC declares", async () => {
    frames = await loadViews(session, "sample=sides&seed=5");
    // 30 s: long enough that nobody hesitates while the browser works.
    await frames.gm.evaluate(() =>
      (
        globalThis as unknown as { game: { settings: { set(a: string, b: string, c: number): Promise<unknown> } } }
      ).game.settings.set("structured-initiative", "sidesCountdown", 30),
    );
    await all((s) => s.banner === "Setting up");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await all((s) => s.banner === "Initiative");
    await frames.alice.locator('button[data-action="siSidesRoll"]').click();
    await all((s) => s.banner === "Initiative");
    const foes = frames.gm.locator(".si-sides__list .si-side", { hasText: "Foes" });
    await expect.poll(() => foes.locator('button[data-action="siSidesRoll"]').count()).toBe(1);
    await foes.locator('button[data-action="siSidesRoll"]').click();
    await all((s) => s.banner === "Declaration");

    // Everyone declares; the GM pauses the first time an NPC declares, and resumes.
    let pausedShot = false;
    for (let step = 0; step < 8; step++) {
      const now = await all(() => true);
      if (now.banner !== "Declaration") break;
      const name = now.declarer.replace(/ declares now.*/, "");
      const view: View = name === "Aria" ? "alice" : name === "Brom" ? "bob" : "gm";
      if (view === "gm" && !pausedShot) {
        await frames.gm.locator('button[data-action="siSidesPause"]').click();
        await all((s) => s.paused);
        await screenshots(session.page, "sides-countdown-paused-npc");
        pausedShot = true;
        await frames.gm.locator('button[data-action="siSidesResume"]').click();
        await all((s) => !s.paused);
      }
      const form = frames[view].locator(".si-sides-declare");
      await form.locator("textarea").fill("Shoot");
      await form.locator('button[data-action="siSidesDeclare"]').click();
      await all((s) => s.declarer !== now.declarer);
    }
    expect(pausedShot).toBe(true);
    await all((s) => s.banner === "Pass 1");
    await frames.gm.locator('button[data-action="siNextRound"]').click();
    await all((s) => s.round === "Round 2");
    await frames.gm.locator('button[data-action="siPreviousRound"]').click();
    // Back in round 1's declarations: the first declarer again, with the whole countdown or a second
    // less in every view where it counts (a player's character), never a deadline long past.
    const back = await all((s) => s.round === "Round 1" && s.banner === "Declaration");
    await screenshots(session.page, "sides-countdown-after-previous-round");
    for (const view of VIEWS) {
      const shown = await shownIn(frames[view]);
      if (shown.timer !== "") expect(Number(shown.timer), view).toBeGreaterThanOrEqual(25);
    }
    expect(back.declarer).not.toBe("");
  });
});
