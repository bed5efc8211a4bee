/**
 * End to end, in Chromium: the module's one settings form (issue 16 item 7) opened from its menu in
 * the GM's view of the playground — groups by mode with hints, a bad formula shown on its field with
 * nothing saved, reset to the system's presets, then a save that every view sees. The menu is
 * restricted to the GM (Foundry shows players no button for it). Screenshots under test-artefacts/.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { useSession, screenshots, loadViews, type View } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

/** Open the settings menu's form in a view, as Foundry's settings window would, pinned over the view. */
async function openSettings(frame: Frame): Promise<void> {
  await frame.evaluate(async () => {
    const g = (window as unknown as { game: { settings: { menus: Map<string, { type: new () => unknown }> } } }).game;
    const App = g.settings.menus.get("structured-initiative.settingsMenu")?.type;
    if (App === undefined) throw new Error("no settings menu");
    const app = new App() as { render(force: boolean): Promise<unknown>; element: HTMLElement };
    await app.render(true);
    Object.assign(app.element.style, {
      position: "fixed",
      inset: "0.5rem",
      zIndex: "100",
      overflow: "auto",
      padding: "0.75rem",
      background: "var(--pg-panel, #1d1f24)",
      border: "1px solid #888",
    });
    document.body.append(app.element);
  });
}

function settingOn(frame: Frame, key: string): Promise<unknown> {
  return frame.evaluate(
    (k) =>
      (window as unknown as { game: { settings: { get(a: string, b: string): unknown } } }).game.settings.get(
        "structured-initiative",
        k,
      ),
    key,
  );
}

async function toasts(view: View): Promise<string> {
  return (await frames[view].locator(".pg-toast").allTextContents()).join(" | ");
}

describe("the settings form", () => {
  it("GM only: groups by mode, shows a bad formula on its field and saves nothing, resets and saves", async () => {
    frames = await loadViews(session, "sample=individual&seed=5");
    // Players get no menu button: the menu is restricted to the GM.
    const restricted = await frames.alice.evaluate(
      () =>
        (
          window as unknown as { game: { settings: { menus: Map<string, { restricted?: boolean }> } } }
        ).game.settings.menus.get("structured-initiative.settingsMenu")?.restricted,
    );
    expect(restricted).toBe(true);

    await openSettings(frames.gm);
    const form = frames.gm.locator("form.si-settings");
    await expect.poll(() => form.locator("fieldset.si-settings__group").count()).toBe(6);
    expect(await form.locator("fieldset.si-settings__group legend").allTextContents()).toEqual([
      "All modes",
      "Individual initiative",
      "Side initiative",
      "Initiative slots",
      "Declare and resolve",
      "Phases",
    ]);
    await screenshots(session.page, "settings-form");

    const before = await settingOn(frames.alice, "modifierFormula");
    const modifier = form.locator('input[name="modifierFormula"]');
    await modifier.fill("@attributes.init.mod +* 2");
    await form.locator('input[name="sidesCountdown"]').fill("5");
    await form.locator('button[type="submit"]').click();
    const error = form.locator("#structured-initiative-setting-modifierFormula-error");
    await expect.poll(() => error.textContent()).toBe("This is not a valid roll formula.");
    expect(await toasts("gm")).toContain("Nothing was saved");
    // What was typed stays; nothing reached the world.
    expect(await form.locator('input[name="sidesCountdown"]').inputValue()).toBe("5");
    expect(await settingOn(frames.alice, "modifierFormula")).toBe(before);
    expect(await settingOn(frames.alice, "sidesCountdown")).not.toBe(5);
    await form.locator("#structured-initiative-setting-modifierFormula").scrollIntoViewIfNeeded();
    await screenshots(session.page, "settings-form-invalid");

    // Reset the individual group to this system's presets, then save.
    await form.locator('button[data-action="siSettingsReset"][data-group="individual"]').click();
    await expect.poll(() => modifier.inputValue()).toBe("@initiative");
    expect(await form.locator('input[name="sidesCountdown"]').inputValue()).toBe("5");
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => settingOn(frames.alice, "sidesCountdown")).toBe(5);
    expect(await settingOn(frames.bob, "modifierFormula")).toBe("@initiative");
    expect(session.errors).toEqual([]);
  });
});
