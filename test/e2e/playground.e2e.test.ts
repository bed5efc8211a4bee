/**
 * End to end, in Chromium: the playground's GM and two player views share one simulated Foundry
 * server and run the built module. Every step is checked in all three views.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import {
  agreedIn,
  USERS,
  frameOf,
  useSession,
  overflowing,
  screenshots,
  VIEWS,
  type Shown,
  type View,
  loadViews,
} from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

async function load(query: string): Promise<void> {
  frames = await loadViews(session, query);
}

/** Wait until all three views agree (and satisfy `check`). */
function agreed(check?: (s: Shown) => boolean): Promise<Shown> {
  return agreedIn(frames, check);
}

/** The names of the rows that hold a control a view's user can use. */
async function controlledRows(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const names = new Set<string>();
    for (const button of Array.from(
      document.querySelectorAll<HTMLElement>("[data-combatant-id] button, button[data-combatant-id]"),
    )) {
      const id = button.dataset.combatantId ?? button.closest<HTMLElement>(".si-row")?.dataset.combatantId ?? "";
      const row = document.querySelector(`.si-row[data-combatant-id="${id}"] .si-row__name`);
      names.add(row === null ? id : row.textContent.trim());
    }
    return [...names].sort();
  });
}

async function click(view: View, selector: string): Promise<void> {
  await frames[view].locator(selector).first().click();
}

describe("the playground in Chromium", () => {
  it("the GM creates an individual encounter, rolls and starts; a player delays from their own view", async () => {
    await load("sample=none&seed=3");
    // Creating an encounter offers the mode choice.
    await click("gm", 'button[data-action="createCombat"]');
    const dialog = frames.gm.locator("dialog[open]");
    await dialog.locator('select[name="mode"]').selectOption("individual");
    await dialog.locator('button[data-action="create"]').click();
    await session.page.locator("#pg-add-tokens").click();
    let state = await agreed(
      (s) => s.order.length === 6 && Object.values(s.badges).every((b) => b.includes("needs a roll")),
    );
    expect(state.badges.Aria).toContain("needs a roll");
    for (const view of VIEWS)
      await expect
        .poll(() => frames[view].locator("[data-si=mode], select[name='structured-initiative-mode']").count())
        .toBe(1);

    // Before the start, a player can roll only for the combatant they own.
    expect(await controlledRows(frames.alice)).toEqual(["Aria"]);
    expect(await controlledRows(frames.bob)).toEqual(["Brom"]);

    await click("gm", 'button[data-action="siRollAll"]');
    await agreed((s) => Object.values(s.badges).every((b) => !b.includes("needs a roll")));
    for (let i = 0; i < 6 && (await frames.gm.locator('button[data-action="siRollOff"]').count()) > 0; i++) {
      await click("gm", 'button[data-action="siRollOff"]');
      await agreed();
    }
    await click("gm", 'button[data-action="siStart"]');
    state = await agreed((s) => s.round === "Round 1" && s.current !== "");
    expect(state.step).toBe("Regular round");
    // The mode cannot be changed after the start.
    expect(await frames.gm.locator("select[name='structured-initiative-mode']").count()).toBe(0);

    // The GM moves on until Aria (Alice's) acts; the views agree at every step.
    for (let i = 0; i < 6 && state.current !== "Aria"; i++) {
      await click("gm", 'button[data-action="siNextTurn"]');
      const before = state.current;
      state = await agreed((s) => s.current !== before);
    }
    expect(state.current).toBe("Aria");
    expect(await controlledRows(frames.alice)).toEqual(["Aria"]);
    expect(await controlledRows(frames.bob)).toEqual([]);
    expect(await frames.bob.locator(".si-footer button").count()).toBe(0);

    // A ready action needs a trigger: the tracker says so and nothing changes.
    await click("alice", 'button[data-action="siReady"]');
    await expect
      .poll(async () => (await frames.alice.locator(".pg-toast").allTextContents()).join(" | "))
      .toContain("Type the trigger of the readied action first.");
    await agreed((s) => s.current === "Aria");

    // What a player is typing survives re-renders that others cause (here: the GM leaving).
    const trigger = frames.alice.locator('input[name="structured-initiative-trigger"]');
    await trigger.fill("when the door opens");
    // A refused action shows its message and changes nothing: with the GM gone, nobody can apply it.
    await session.page.evaluate((gm) => {
      window.siPlayground?.server.disconnect(gm);
    }, USERS.gm);
    await expect.poll(() => frames.alice.locator(".si-notice--warning").count()).toBe(1);
    expect(await trigger.inputValue()).toBe("when the door opens");
    expect(await frames.alice.evaluate(() => document.activeElement?.getAttribute("name"))).toBe(
      "structured-initiative-trigger",
    );
    await click("alice", 'button[data-action="siDelay"]');
    await expect
      .poll(async () => (await frames.alice.locator(".pg-toast").allTextContents()).join(" | "))
      .toContain("No GM is connected: structured actions need a GM online.");
    await agreed((s) => s.current === "Aria");
    await screenshots(session.page, "individual-refused");
    // The GM comes back (reloads the tab).
    await frames.gm.evaluate(() => {
      location.reload();
    });
    frames.gm = await frameOf(session.page, "gm");
    await agreed((s) => s.current === "Aria");

    // Alice delays from her own view.
    await click("alice", 'button[data-action="siDelay"]');
    state = await agreed((s) => s.current !== "Aria");
    expect(state.badges.Aria).toContain("Delaying");
    expect(await controlledRows(frames.alice)).toEqual(["Aria"]);
    await expect.poll(() => frames.alice.locator('button[data-action="siEndDelay"]').count()).toBe(1);

    for (const view of VIEWS) expect(await overflowing(frames[view]), view).toEqual([]);
    await screenshots(session.page, "individual-delay");
    expect(session.errors).toEqual([]);
  });

  it("opens on the sample individual encounter, in the light theme too, and resets", async () => {
    await load("seed=5&theme=light");
    const state = await agreed((s) => s.order.length === 6);
    expect(state.step).toBe("Setting up");
    expect(await controlledRows(frames.alice)).toEqual(["Aria"]);
    // The GM marks the officer aware and starts with a surprise round.
    await click("gm", 'button[data-action="siRollAll"]');
    await agreed((s) => Object.values(s.badges).every((b) => !b.includes("needs a roll")));
    for (let i = 0; i < 6 && (await frames.gm.locator('button[data-action="siRollOff"]').count()) > 0; i++) {
      await click("gm", 'button[data-action="siRollOff"]');
      await agreed();
    }
    const officer = frames.gm.locator(".si-row", { hasText: "Officer" });
    // The GM's set-up buttons are in the row's menu (issue 29).
    await officer.locator("details.si-row-menu > summary").click();
    await officer.locator('button[data-action="siAware"]').click();
    await expect.poll(() => officer.locator('button[data-action="siAware"]').getAttribute("aria-pressed")).toBe("true");
    await click("gm", 'button[data-action="siStartSurprise"]');
    const surprise = await agreed((s) => s.step === "Surprise round");
    expect(surprise.current).toBe("Officer");
    expect(surprise.badges.Aria).toContain("Flat-footed");
    // The live region announced the turn.
    await expect
      .poll(() => frames.alice.locator(".structured-initiative-live").textContent())
      .toContain("Officer acts now");
    for (const view of VIEWS) expect(await overflowing(frames[view]), view).toEqual([]);
    await screenshots(session.page, "individual-surprise-light");

    await session.page.locator("#pg-reset").click();
    await load("seed=5&theme=light");
    await agreed((s) => s.step === "Setting up" && s.order.length === 6);
    expect(session.errors).toEqual([]);
  });
});
