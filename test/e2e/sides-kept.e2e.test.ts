/**
 * End to end, in Chromium: a `sides` turn advance in a pass renders what it changes and keeps the
 * rest (issue 17). On the render bench's `sides` encounter (playground/bench-modes.ts) in the GM's
 * view, the render after a turn advance renders again only the rows and pass-order entries of the
 * one who acted, the one acting now and the one up next; every other row and entry is kept
 * (`data-si-kept`): nothing in them depends on who acts now. A row's slow-down choice is a summary
 * until it is opened, and then a select of everyone it may follow.
 */
import { describe, expect, it } from "vitest";
import { useSession } from "./browser.js";

const session = useSession();

/** Combatants in the encounter: enough that the bench's own turn advances leave it in pass 1. */
const N = 30;

/** What one render after a turn advance rendered, and what it kept. */
interface Rendered {
  /** Combatant ids of the rows rendered again (not kept). */
  rows: string[];
  /** Combatant ids of the pass-order entries rendered again. */
  entries: string[];
  /** Rows and entries the render kept. */
  keptRows: number;
  keptEntries: number;
  /** Who acted, who acts now and who is next (around the turn advance). */
  around: string[];
  /** Slow-down choices shown (closed summaries) and selects rendered. */
  summaries: number;
  selects: number;
}

describe("a sides turn advance keeps what it does not change", () => {
  it("renders again only the rows and pass entries of who acted, who acts now and who is next", async () => {
    const page = session.page;
    await page.goto(`${session.url}bench.html?n=${N}&mode=sides&view=gm&runs=5`);
    await page.waitForFunction(() => "benchResult" in globalThis || "benchError" in globalThis, null, {
      timeout: 120_000,
    });
    expect(await page.evaluate(() => (globalThis as { benchError?: string }).benchError ?? null)).toBeNull();
    const steps: Rendered[] = await page.evaluate(async () => {
      type Parts = Record<string, Element>;
      const world = (globalThis as unknown as { benchWorld: { tracker: unknown; combat: unknown; server: unknown } })
        .benchWorld;
      const tracker = world.tracker as {
        element: HTMLElement;
        render: () => Promise<unknown>;
        _renderHTML: (...args: unknown[]) => Promise<Parts>;
      };
      const server = world.server as { settle: () => Promise<void> };
      const game = (
        globalThis as unknown as {
          game: {
            combats: { get: (id: string) => unknown };
            modules: { get: (id: string) => { api: { command: (c: unknown, x: object) => Promise<{ ok: boolean }> } } };
          };
        }
      ).game;
      const combat = game.combats.get((world.combat as { id: string }).id);
      const api = game.modules.get("structured-initiative").api;
      /** What the last render's templates gave, read before the patch moves any of it into the page. */
      interface Fresh {
        rows: string[];
        entries: string[];
        keptRows: number;
        keptEntries: number;
      }
      let fresh: Fresh = { rows: [], entries: [], keptRows: 0, keptEntries: 0 };
      const renderHTML = tracker._renderHTML.bind(tracker);
      tracker._renderHTML = async (...args: unknown[]): Promise<Parts> => {
        const rendered = await renderHTML(...args);
        const parts = Object.values(rendered).filter((p): p is Element => p instanceof Element);
        const all = (selector: string): Element[] => parts.flatMap((p) => Array.from(p.querySelectorAll(selector)));
        const again = (selector: string, key: (e: Element) => string): string[] =>
          all(selector)
            .filter((e) => !e.hasAttribute("data-si-kept"))
            .map(key);
        fresh = {
          rows: again(".si-list > .si-row", (e) => e.getAttribute("data-combatant-id") ?? ""),
          entries: again(".si-sides-pass__entry", (e) =>
            (e.getAttribute("data-si-key") ?? "").replace(/^sides-pass:/, ""),
          ),
          keptRows: all(".si-list > .si-row[data-si-kept]").length,
          keptEntries: all(".si-sides-pass__entry[data-si-kept]").length,
        };
        return rendered;
      };
      const idOf = (selector: string): string =>
        tracker.element.querySelector<HTMLElement>(selector)?.dataset.combatantId ?? "";
      const out: Rendered[] = [];
      for (let i = 0; i < 3; i++) {
        const acted = idOf(".si-row--current");
        // The render the update asks for is held until it has settled, then looked at alone.
        const render = tracker.render;
        tracker.render = () => Promise.resolve(tracker);
        const result = await api.command(combat, { type: "nextTurn" });
        if (!result.ok) throw new Error("the turn advance was refused");
        await server.settle();
        tracker.render = render;
        await tracker.render();
        out.push({
          ...fresh,
          around: [acted, idOf(".si-row--current"), idOf(".si-row--next")],
          summaries: tracker.element.querySelectorAll("details.si-sides-slow > summary").length,
          selects: tracker.element.querySelectorAll('select[name="structured-initiative-after"]').length,
        });
      }
      return out;
    });
    for (const step of steps) {
      const around = new Set(step.around);
      expect(step.rows.length).toBeGreaterThan(0);
      expect(step.rows.every((id) => around.has(id))).toBe(true);
      expect(step.entries.length).toBeGreaterThan(0);
      expect(step.entries.every((id) => around.has(id))).toBe(true);
      expect(step.keptRows).toBe(N - step.rows.length);
      // Everyone declared an action: pass 1 holds them all.
      expect(step.keptEntries).toBe(N - step.entries.length);
      expect(step.summaries).toBeGreaterThan(0);
      expect(step.selects).toBe(0);
    }
    expect(session.errors).toEqual([]);
  }, 180_000);

  it("a row's slow-down choice is filled when opened, with everyone it may follow", async () => {
    const page = session.page;
    await page.goto(`${session.url}bench.html?n=${N}&mode=sides&view=gm&runs=5`);
    await page.waitForFunction(() => "benchResult" in globalThis || "benchError" in globalThis, null, {
      timeout: 120_000,
    });
    const row = page.locator(".si-row:not(.si-row--current)", { has: page.locator("details.si-sides-slow") }).last();
    const summary = row.locator("details.si-sides-slow > summary");
    await summary.click();
    const select = row.locator('select[name="structured-initiative-after"]');
    await expect.poll(() => select.count()).toBe(1);
    const current = await page.locator(".si-row--current .si-row__name").textContent();
    const options = await select.locator("option").allTextContents();
    // The one acting now is its default; everyone still to act in the pass is there, itself not.
    expect(options[0]).toBe(current);
    expect(options).not.toContain(await row.locator(".si-row__name").textContent());
    expect(options.length).toBeGreaterThan(1);
    expect(session.errors).toEqual([]);
  }, 180_000);
});
