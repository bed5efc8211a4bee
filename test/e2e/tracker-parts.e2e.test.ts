/**
 * End to end, in Chromium (issue 14 items 4, 8 and 9): the tracker keeps one part set in every mode
 * (switching the viewed encounter between system default and each structured mode leaves the parts
 * in order, no stale strip or row, and each mode's tracker back); the structured footer's "End
 * combat" is the GM's only; the popped-out tracker (v13 `renderPopout`) shows and drives the same
 * encounter as the sidebar, in every mode.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { loadViews, screenshots, useSession, VIEWS, type View } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

const MODES = ["individual", "sides", "slots", "declare-resolve", "phases"] as const;
const PARTS = ["header", "structuredInitiativeGlance", "tracker", "footer"];

/** What one tracker element (`#combat` or `#combat-popout`) shows. */
interface Tracker {
  parts: string[];
  structuredRows: string[];
  systemRows: string[];
  glances: number;
  glanceText: string;
  footer: string[];
}

function read(frame: Frame, id: string, detached = false): Promise<Tracker | null> {
  return frame.evaluate(
    ([rootId, inWindow]) => {
      // A detached tracker lives in the sim's detached window (an iframe of the view).
      const doc = inWindow
        ? (document.querySelector<HTMLIFrameElement>("iframe.sim-detached-window")?.contentDocument ?? null)
        : document;
      const root = doc?.getElementById(rootId) ?? null;
      if (root === null) return null;
      // Each row's whole text (name, badges, initiative, control labels), so two trackers compare fully.
      const names = (selector: string): string[] =>
        Array.from(root.querySelectorAll(selector)).map((r) => r.textContent.replace(/\s+/g, " ").trim());
      return {
        parts: Array.from(root.querySelectorAll<HTMLElement>(":scope > [data-application-part]")).map(
          (p) => p.dataset.applicationPart ?? "",
        ),
        structuredRows: names(".si-row"),
        systemRows: names(".combat-tracker li.combatant"),
        glances: root.querySelectorAll(".si-glance:not(.si-glance--empty)").length,
        glanceText: (root.querySelector(".si-glance")?.textContent ?? "").replace(/\s+/g, " ").trim(),
        footer: Array.from(root.querySelectorAll<HTMLElement>(".si-footer button")).map((b) => b.dataset.action ?? ""),
      };
    },
    [id, detached] as const,
  );
}

/** Wait until every view's sidebar tracker satisfies `check`. */
async function everyView(check: (t: Tracker, view: View) => boolean): Promise<void> {
  await expect
    .poll(
      async () => {
        const all = await Promise.all(VIEWS.map(async (view) => [view, await read(frames[view], "combat")] as const));
        return all.every(([view, t]) => t !== null && check(t, view));
      },
      { timeout: 5000, interval: 50 },
    )
    .toBe(true);
}

const structured = (t: Tracker): boolean =>
  JSON.stringify(t.parts) === JSON.stringify(PARTS) &&
  t.structuredRows.length === 6 &&
  t.systemRows.length === 0 &&
  t.glances === 1;
const systemDefault = (t: Tracker, view: View): boolean =>
  JSON.stringify(t.parts) === JSON.stringify(PARTS) &&
  t.structuredRows.length === 0 &&
  t.systemRows.length === 6 &&
  // The glance part holds the GM's mode select only; for players it is empty.
  t.glances === (view === "gm" ? 1 : 0);

async function create(mode: string, query = ""): Promise<void> {
  frames = await loadViews(session, `sample=none&seed=3${query}`);
  await frames.gm.locator('button[data-action="createCombat"]').click();
  const dialog = frames.gm.locator("dialog[open]");
  await dialog.locator('select[name="mode"]').selectOption(mode);
  await dialog.locator('button[data-action="create"]').click();
  await session.page.locator("#pg-add-tokens").click();
}

async function chooseMode(mode: string): Promise<void> {
  await frames.gm.locator("#combat select[name='structured-initiative-mode']").selectOption(mode);
}

describe("one part set in every mode", () => {
  it("system default → structured → system default → structured, for each mode: parts in order, nothing stale, each tracker back", async () => {
    await create("system");
    await everyView(systemDefault);
    for (const mode of MODES) {
      await chooseMode(mode);
      await everyView(structured);
      await chooseMode("system");
      await everyView(systemDefault);
      await chooseMode(mode);
      await everyView(structured);
      const gm = await read(frames.gm, "combat");
      expect(gm?.glanceText, mode).toMatch(/\S/);
      await screenshots(session.page, `parts-${mode}`);
      await chooseMode("system");
      await everyView(systemDefault);
    }
    await screenshots(session.page, "parts-system-default");
    expect(session.errors).toEqual([]);
  });
});

describe("End combat in the structured footer", () => {
  it("the GM's footer has it once started, with core's confirmation; players' never", async () => {
    await create("individual");
    await everyView(structured);
    await frames.gm.locator('button[data-action="siRollAll"]').click();
    for (let i = 0; i < 6 && (await frames.gm.locator('button[data-action="siRollOff"]').count()) > 0; i++)
      await frames.gm.locator('button[data-action="siRollOff"]').first().click();
    await expect.poll(() => frames.gm.locator('button[data-action="siStart"]').count()).toBe(1);
    await frames.gm.locator('button[data-action="siStart"]').click();
    await everyView(
      (t, view) =>
        structured(t) && (view === "gm" ? t.footer.includes("siEndCombat") : !t.footer.includes("siEndCombat")),
    );
    await screenshots(session.page, "end-combat-footer");
    // Core's confirmation: No keeps the encounter.
    await frames.gm.locator('button[data-action="siEndCombat"]').click();
    const confirm = frames.gm.locator("dialog[open]");
    await expect.poll(() => confirm.count()).toBe(1);
    await screenshots(session.page, "end-combat-confirm");
    await confirm.locator('button[data-action="no"]').click();
    await everyView(structured);
    // Yes ends it on every view.
    await frames.gm.locator('button[data-action="siEndCombat"]').click();
    await frames.gm.locator('dialog[open] button[data-action="yes"]').click();
    await everyView((t) => t.structuredRows.length === 0 && t.systemRows.length === 0);
    await screenshots(session.page, "end-combat-ended");
    expect(session.errors).toEqual([]);
  });
});

describe("the popped-out tracker", () => {
  it.each(MODES)("%s: the popout shows the sidebar's encounter and its controls drive it", async (mode) => {
    await create(mode);
    await everyView(structured);
    for (const view of ["gm", "alice"] as const)
      await frames[view].evaluate(async () => {
        await (window as unknown as { ui: { combat: { renderPopout(): Promise<unknown> } } }).ui.combat.renderPopout();
      });
    const same = async (view: View): Promise<boolean> => {
      const [side, pop] = await Promise.all([read(frames[view], "combat"), read(frames[view], "combat-popout")]);
      return (
        side !== null &&
        pop !== null &&
        JSON.stringify(pop.parts) === JSON.stringify(PARTS) &&
        JSON.stringify(side.structuredRows) === JSON.stringify(pop.structuredRows) &&
        side.glanceText === pop.glanceText
      );
    };
    await expect.poll(() => same("gm"), { timeout: 5000 }).toBe(true);
    await expect.poll(() => same("alice"), { timeout: 5000 }).toBe(true);
    const shownBy = async (): Promise<string> => {
      const t = await read(frames.gm, "combat");
      return JSON.stringify([t?.glanceText, t?.structuredRows]);
    };
    const before = await shownBy();
    // The GM's first set-up control, clicked in the popout: the sidebar changes, and both trackers
    // on every view show the same again.
    await frames.gm.locator("#combat-popout .si-controls--setup button").first().click();
    await expect.poll(shownBy, { timeout: 5000 }).not.toBe(before);
    await expect.poll(() => same("gm"), { timeout: 5000 }).toBe(true);
    await expect.poll(() => same("alice"), { timeout: 5000 }).toBe(true);
    await screenshots(session.page, `popout-${mode}`);
    expect(session.errors).toEqual([]);
  });
});

describe("the detached tracker (v14)", () => {
  it.each(MODES)(
    "%s: detached into its own window, the tracker shows and drives the encounter; attached again, it is back",
    async (mode) => {
      await create(mode, "&generation=14");
      await everyView(structured);
      for (const view of ["gm", "alice"] as const)
        await frames[view].evaluate(async () => {
          const w = window as unknown as {
            game: { release?: { generation?: number } };
            ui: { combat: { render(o: object): Promise<unknown> } };
          };
          // The v14 flavour of the sim; before it existed, this test set the generation itself.
          if (w.game.release?.generation !== 14) Object.assign(w.game, { release: { generation: 14 } });
          await w.ui.combat.render({ window: { detached: true } });
        });
      const detachedOk = async (view: View): Promise<boolean> => {
        const t = await read(frames[view], "combat", true);
        return t !== null && structured(t) && (await read(frames[view], "combat")) === null;
      };
      await expect.poll(() => detachedOk("gm"), { timeout: 5000 }).toBe(true);
      await expect.poll(() => detachedOk("alice"), { timeout: 5000 }).toBe(true);
      const gmShows = async (): Promise<string> => {
        const t = await read(frames.gm, "combat", true);
        return JSON.stringify([t?.glanceText, t?.structuredRows]);
      };
      const bobShows = async (): Promise<string> => {
        const t = await read(frames.bob, "combat");
        return JSON.stringify([t?.glanceText, t?.structuredRows]);
      };
      const [gmBefore, bobBefore] = [await gmShows(), await bobShows()];
      // The GM's first set-up control, clicked in the detached window: it and the other views follow.
      await frames.gm
        .frameLocator("iframe.sim-detached-window")
        .locator("#combat .si-controls--setup button")
        .first()
        .click();
      await expect.poll(gmShows, { timeout: 5000 }).not.toBe(gmBefore);
      await expect.poll(bobShows, { timeout: 5000 }).not.toBe(bobBefore);
      await expect.poll(() => detachedOk("alice"), { timeout: 5000 }).toBe(true);
      await screenshots(session.page, `detached-${mode}`);
      for (const view of ["gm", "alice"] as const)
        await frames[view].evaluate(async () => {
          const w = window as unknown as { ui: { combat: { render(o: object): Promise<unknown> } } };
          await w.ui.combat.render({ window: { detached: false } });
        });
      await everyView(structured);
      expect(session.errors).toEqual([]);
    },
  );
});
