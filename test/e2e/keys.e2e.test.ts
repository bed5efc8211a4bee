/**
 * End to end, in Chromium: a player's notice and the declare key (issue 16 item 3) in the playground's
 * `sides` sample. When a player's character comes to declare, that player's view (and only theirs)
 * shows the "declare now" toast and says it in the tracker's live region of notices; the declare key (its
 * registered `onDown`, as a key down runs it) puts the cursor in that character's declaration form.
 * Screenshots of the three views are saved under test-artefacts/keys-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { loadViews, screenshots, useSession, VIEWS, type View } from "./browser.js";

const session = useSession();

/** The toasts a view shows. */
function toasts(frame: Frame): Promise<string[]> {
  return frame.locator(".pg-toast").allTextContents();
}

/** The text of a view's tracker live region of notices. */
function live(frame: Frame): Promise<string> {
  return frame.evaluate(() => document.querySelector(".structured-initiative-notice")?.textContent ?? "");
}

/** Who declares now, as the view's panel says. */
function declarer(frame: Frame): Promise<string> {
  return frame.evaluate(() =>
    (document.querySelector("[data-si=declarer]")?.textContent ?? "").replace(/ declares now.*/, "").trim(),
  );
}

/** Press one of the module's keys in a view (its keybinding's `onDown`). */
function press(frame: Frame, action: string): Promise<unknown> {
  return frame.evaluate(
    (name) =>
      (
        window as unknown as { game: { keybindings: { press(ns: string, a: string): unknown } } }
      ).game.keybindings.press("structured-initiative", name),
    action,
  );
}

const OWNER: Record<string, View> = { Aria: "alice", Brom: "bob" };

describe("notices and keys in Chromium", () => {
  it("the declarer's player alone sees and hears 'declare now'; the declare key focuses their form", async () => {
    const frames = await loadViews(session, "sample=sides&seed=5");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await frames.alice.locator('button[data-action="siSidesRoll"]').click();
    await frames.gm
      .locator(".si-sides__list .si-side", { hasText: "Foes" })
      .locator('button[data-action="siSidesRoll"]')
      .click();
    // The GM declares for the NPCs until a player's character declares.
    let name = "";
    for (let step = 0; step < 6; step++) {
      await expect.poll(() => declarer(frames.gm)).not.toBe("");
      name = await declarer(frames.gm);
      if (OWNER[name] !== undefined) break;
      const form = frames.gm.locator(".si-sides-declare");
      await form.locator("textarea").fill("Shoot");
      await form.locator('button[data-action="siSidesDeclare"]').click();
      await expect.poll(() => declarer(frames.gm)).not.toBe(name);
    }
    const view = OWNER[name];
    if (view === undefined) throw new Error(`no player's character declared (last: ${name})`);
    const text = `${name}: declare your actions now.`;
    await expect.poll(() => toasts(frames[view])).toContain(text);
    await expect.poll(() => live(frames[view])).toContain(text);
    for (const other of VIEWS.filter((v) => v !== view)) expect(await toasts(frames[other])).not.toContain(text);
    await screenshots(session.page, "keys-declare-notice");

    await press(frames[view], "declare");
    await expect
      .poll(() =>
        frames[view].evaluate(() => {
          const el = document.activeElement;
          return el === null ? "" : `${el.tagName}:${el.getAttribute("name") ?? ""}`;
        }),
      )
      .toBe("TEXTAREA:structured-initiative-actions");
    // Another player's key says why not, and moves nobody's cursor.
    const other: View = view === "alice" ? "bob" : "alice";
    await press(frames[other], "declare");
    await expect
      .poll(async () => (await toasts(frames[other])).some((t) => /It is not .+'s turn\./.test(t)))
      .toBe(true);
    await screenshots(session.page, "keys-declare-focus");
    expect(session.errors).toEqual([]);
  });
});
