/**
 * End to end, in Chromium (issue 29, "hints stay quiet"): at every step of the tour of each mode that
 * shows hints (test/e2e/tour.ts), in the GM's and a player's view at a 1000 px high window, each hint
 * (`.si-hint`) is one line at the sidebar's width (widening nothing) with its whole text in its title, and what it says
 * is said outside the hints too (a title or text elsewhere), so folding them loses nothing. A player
 * folds the hints with the ? on the glance's first line: gone for them, still there for the GM and the
 * other player, and still folded after a render and after the player's view reloads (their user
 * setting, kept on the server for them).
 */
import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";
import "../../playground/host.js";
import { loadViews, overflowing, useSession, type View } from "./browser.js";
import { TABLE_VIEWS, recordIPs, send, sizeWindow, tourMode, type Mode } from "./tour.js";

const session = useSession();

/** The modes whose trackers show hints (`ModeTracker.hints`). */
const WITH_HINTS: readonly Mode[] = ["sides", "declare-resolve", "phases"];

/** One visible hint as a view lays it out. */
interface HintShown {
  text: string;
  title: string;
  /** Its height, and the height of one line of its text, in px. */
  height: number;
  line: number;
  /** Where else the view says the same text: a title, an aria-label or text outside the hints. */
  elsewhere: string[];
}

/** The visible hints of a view. */
function hintsOf(frame: Frame): Promise<HintShown[]> {
  return frame.evaluate(() => {
    const text = (el: Element): string => el.textContent.replace(/\s+/g, " ").trim();
    const hints = Array.from(document.querySelectorAll<HTMLElement>("#pg-combat .si-hint")).filter(
      (el) => el.getClientRects().length > 0,
    );
    return hints.map((hint) => {
      const said = text(hint);
      const style = getComputedStyle(hint);
      const line =
        style.lineHeight === "normal" ? parseFloat(style.fontSize) * 1.25 : parseFloat(style.lineHeight) || 0;
      const elsewhere = Array.from(document.querySelectorAll<HTMLElement>("#pg-combat *"))
        .filter((el) => el.closest(".si-hint") === null)
        .flatMap((el) => {
          const found: string[] = [];
          if (el.title === said) found.push(`title of ${el.tagName.toLowerCase()}.${el.className}`);
          if (el.getAttribute("aria-label") === said) found.push(`aria-label of ${el.tagName.toLowerCase()}`);
          return found;
        });
      return { text: said, title: hint.title, height: hint.getBoundingClientRect().height, line, elsewhere };
    });
  });
}

/** The ? toggle of a view's glance: its state, or null when there is none. */
function toggleOf(frame: Frame): Promise<string | null> {
  return frame.evaluate(
    () =>
      document.querySelector('#pg-combat button[data-action="siToggleHints"]')?.getAttribute("aria-pressed") ?? null,
  );
}

/** A view's own value of the hints setting. */
function settingOf(frame: Frame): Promise<unknown> {
  return frame.evaluate(() =>
    (
      globalThis as unknown as { game: { settings: { get(namespace: string, key: string): unknown } } }
    ).game.settings.get("structured-initiative", "hints"),
  );
}

describe("hints: one line each, said elsewhere too, folded per user", () => {
  for (const mode of WITH_HINTS)
    it(`${mode}: at every step, GM and player, each hint is one line and not the only place that says it`, async () => {
      await sizeWindow(session.page, 1000);
      const seen: string[] = [];
      await tourMode(session, mode, async (_, step, frames) => {
        for (const [name, view] of Object.entries(TABLE_VIEWS)) {
          expect(await toggleOf(frames[view]), `${mode}/${step}/${name}: the ? toggle`).toBe("true");
          for (const hint of await hintsOf(frames[view])) {
            const where = `${mode}/${step}/${name}: "${hint.text}"`;
            seen.push(where);
            expect(hint.height, `${where} is one line`).toBeLessThanOrEqual(hint.line + 1);
            expect(hint.title, `${where}: its title`).toBe(hint.text);
            expect(hint.elsewhere, `${where}: said elsewhere`).not.toEqual([]);
          }
          // A hint's one line never widens what holds it past the sidebar.
          expect(await overflowing(frames[view]), `${mode}/${step}/${name}: wider than the sidebar`).toEqual([]);
        }
      });
      // The tour meets the hints of declare-resolve (each step's) and sides (the declaration's penalty);
      // phases' only hint (a full Advantage pool, said by the pool's count too) is not on the tour.
      if (mode !== "phases") expect(seen.length, `${mode}: hints met`).toBeGreaterThan(0);
      expect(session.errors).toEqual([]);
    });

  it("a player folds the hints away with one click on ?: only for them, kept through renders and a reload", async () => {
    const frames = await loadViews(session, "sample=declare-resolve&seed=11");
    await sizeWindow(session.page, 1000);
    const visible = async (view: View): Promise<number> => (await hintsOf(frames[view])).length;
    for (const view of ["gm", "alice", "bob"] as const) {
      await expect.poll(() => visible(view), { message: `${view} sees the step hint` }).toBe(1);
      expect(await toggleOf(frames[view])).toBe("true");
    }
    await frames.bob.locator('button[data-action="siToggleHints"]').click();
    await expect.poll(() => toggleOf(frames.bob)).toBe("false");
    expect(await visible("bob")).toBe(0);
    expect(await settingOf(frames.bob)).toBe(false);
    // The step hint is still said, as the step pill's title.
    expect(await frames.bob.locator("[data-si=step]").getAttribute("title")).toBe("Roll IP, then start.");
    for (const view of ["gm", "alice"] as const) {
      expect(await settingOf(frames[view]), `${view}'s setting`).toBe(true);
      expect(await visible(view), `${view} still sees the hint`).toBe(1);
    }
    // A render for another reason (the GM starts the encounter) keeps Bob's hints folded.
    await send(frames.gm, [...recordIPs(), { type: "start" }]);
    await expect.poll(() => frames.gm.locator("[data-si=step]").textContent()).toBe("Declare actions");
    await expect.poll(() => frames.bob.locator("[data-si=step]").textContent()).toBe("Declare actions");
    await expect.poll(() => visible("gm"), { message: "the GM sees the step's hint" }).toBe(1);
    expect(await visible("bob")).toBe(0);
    // Bob's view reloads (a fresh client, its browser storage gone): still folded.
    await frames.bob.evaluate(() => {
      location.reload();
    });
    await frames.bob.waitForSelector("body[data-ready=true]");
    await frames.bob.waitForSelector('#pg-combat button[data-action="siToggleHints"]');
    expect(await toggleOf(frames.bob)).toBe("false");
    expect(await visible("bob")).toBe(0);
    // And one more click shows them again.
    await frames.bob.locator('button[data-action="siToggleHints"]').click();
    await expect.poll(() => visible("bob")).toBe(1);
    expect(await toggleOf(frames.bob)).toBe("true");
    expect(session.errors).toEqual([]);
  });
});
