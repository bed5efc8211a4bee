/**
 * The settings form after a refused save (issue 27 item 4): the first invalid field, far down the form,
 * is scrolled into view and focused, so the GM sees at once what to fix. Screenshot of the GM's view.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { useSession, screenshots, loadViews, type View } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

describe("the settings form after a refused save", () => {
  it("scrolls to the first invalid field and focuses it", async () => {
    frames = await loadViews(session, "sample=individual&seed=5");
    await frames.gm.evaluate(async () => {
      const g = (window as unknown as { game: { settings: { menus: Map<string, { type: new () => unknown }> } } }).game;
      const App = g.settings.menus.get("structured-initiative.settingsMenu")?.type;
      if (App === undefined) throw new Error("no settings menu");
      const app = new App() as { render(force: boolean): Promise<unknown>; element: HTMLElement };
      await app.render(true);
      Object.assign(app.element.style, { position: "fixed", inset: "0.5rem", zIndex: "100", overflow: "auto" });
      document.body.append(app.element);
    });
    const form = frames.gm.locator("form.si-settings");
    await expect.poll(() => form.locator("fieldset.si-settings__group").count()).toBe(6);
    // The last number field of the form, out of range: far below the fold.
    const field = form.locator('input[type="number"]').last();
    const name = (await field.getAttribute("name")) ?? "";
    await field.fill("100000");
    // Back to the top, then save.
    await frames.gm.evaluate(() => {
      for (const el of document.querySelectorAll("form.si-settings, form.si-settings *")) el.scrollTop = 0;
    });
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => form.locator('[aria-invalid="true"]').count()).toBe(1);
    await expect
      .poll(() => frames.gm.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? ""))
      .toBe(name);
    // It is in view: inside the window's height.
    const box = await form.locator(`[name="${name}"]`).boundingBox();
    const height = await frames.gm.evaluate(() => window.innerHeight);
    expect(box).not.toBeNull();
    expect((box?.y ?? -1) >= 0 && (box?.y ?? height) + (box?.height ?? 0) <= height).toBe(true);
    await screenshots(session.page, "settings-form-refused-focus");
  });
});
