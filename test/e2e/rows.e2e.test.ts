/**
 * End to end, in Chromium: a combatant row acts as rows do in Foundry's own tracker. A click pans
 * the viewer's canvas to the token and selects it for its owner; a double click opens the actor's
 * sheet for whoever may view it; the GM's right-click menu hides, defeats, edits and removes.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { loadViews, useSession, screenshots, shown, type View } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

/** What a view's simulated canvas and sheets recorded. */
interface Canvas {
  pans: Array<{ x?: number; y?: number }>;
  controlled: string[];
}

async function canvasOf(view: View): Promise<Canvas> {
  return frames[view].evaluate(() => {
    const { canvas } = window as unknown as {
      canvas: {
        pans: Array<{ x?: number; y?: number }>;
        tokens: { controlled: Array<{ document: { name: string } }> };
      };
    };
    return { pans: [...canvas.pans], controlled: canvas.tokens.controlled.map((t) => t.document.name) };
  });
}

/** How often the view's client was asked to render this actor's sheet. */
async function sheetRenders(view: View, actor: string): Promise<number> {
  return frames[view].evaluate((name) => {
    const { game } = window as unknown as {
      game: { actors: { getName(n: string): { sheet: { renderCount: number } } | undefined } };
    };
    return game.actors.getName(name)?.sheet.renderCount ?? -1;
  }, actor);
}

function row(view: View, name: string) {
  return frames[view].locator(".si-row", { has: frames[view].locator(".si-row__name", { hasText: name }) });
}

async function toasts(view: View): Promise<string> {
  return (await frames[view].locator(".pg-toast").allTextContents()).join(" | ");
}

/** The entries of the open right-click menu in a view. */
async function menu(view: View): Promise<string[]> {
  return frames[view].locator("#context-menu .context-item").allTextContents();
}

async function choose(view: View, name: string, entry: string): Promise<void> {
  await row(view, name).locator(".si-row__name").click({ button: "right" });
  await frames[view].locator("#context-menu .context-item", { hasText: entry }).click();
}

describe("combatant rows in Chromium", () => {
  it("a click pans to the token and selects it for its owner; a double click opens a sheet the user may view", async () => {
    frames = await loadViews(session, "seed=5");
    await expect.poll(async () => (await shown(frames.alice)).order.length).toBe(6);

    // The GM clicks Brom: the GM's canvas pans to Brom's token (x 200, y 400: centre 250, 450) and selects it.
    await row("gm", "Brom").locator(".si-row__name").click();
    await expect.poll(() => canvasOf("gm")).toEqual({ pans: [{ x: 250, y: 450 }], controlled: ["Brom"] });
    // Shift adds to the selection; a plain click selects only the one clicked.
    await row("gm", "Aria")
      .locator(".si-row__name")
      .click({ modifiers: ["Shift"] });
    await expect.poll(async () => (await canvasOf("gm")).controlled).toEqual(["Brom", "Aria"]);
    await row("gm", "Officer").locator(".si-row__name").click();
    await expect.poll(async () => (await canvasOf("gm")).controlled).toEqual(["Officer"]);
    // Alice clicks Brom: she sees where he is, but cannot select another player's token.
    await row("alice", "Brom").locator(".si-row__img").click();
    await expect.poll(() => canvasOf("alice")).toEqual({ pans: [{ x: 250, y: 450 }], controlled: [] });
    // Her own Aria: panned to and selected.
    await row("alice", "Aria").click({ position: { x: 4, y: 4 } });
    await expect.poll(async () => (await canvasOf("alice")).controlled).toEqual(["Aria"]);
    // A click on a control in the row is the control's, not the row's: no pan.
    const pans = (await canvasOf("alice")).pans.length;
    await row("alice", "Aria").locator('button[data-action="siRoll"]').click();
    await expect.poll(async () => (await shown(frames.gm)).badges.Aria?.includes("needs a roll")).toBe(false);
    expect((await canvasOf("alice")).pans.length).toBe(pans);

    // A double click opens a sheet the user may view, once, after one pan (the second click of it
    // is not another pan): not the officer's for Alice (no permission), her own Aria's.
    await row("alice", "Officer").locator(".si-row__name").dblclick();
    const beforeSheet = (await canvasOf("alice")).pans.length;
    await row("alice", "Aria").locator(".si-row__name").dblclick();
    await expect.poll(() => sheetRenders("alice", "Aria")).toBe(1);
    expect(await sheetRenders("alice", "Officer")).toBe(0);
    expect((await canvasOf("alice")).pans.length).toBe(beforeSheet + 1);

    // A token the viewer cannot see is not panned to, and the message does not tell whether it is
    // hidden or elsewhere: the GM hides the officer's token, and Trooper 3's is on no scene here.
    await frames.gm.evaluate(async () => {
      type Doc = { update(d: object): Promise<unknown> };
      const { game } = window as unknown as {
        game: {
          scenes: { active: { tokens: { getName(n: string): Doc } } };
          combats: { viewed: { combatants: { getName(n: string): Doc } } };
        };
      };
      await game.scenes.active.tokens.getName("Officer").update({ hidden: true });
      await game.combats.viewed.combatants.getName("Trooper 3").update({ tokenId: "tokenElsewhere01" });
    });
    const before = (await canvasOf("alice")).pans.length;
    await expect
      .poll(async () => {
        await row("alice", "Officer").locator(".si-row__name").click();
        return toasts("alice");
      })
      .toContain("You cannot see Officer's token on this scene.");
    await row("alice", "Trooper 3").locator(".si-row__name").click();
    await expect.poll(() => toasts("alice")).toContain("You cannot see Trooper 3's token on this scene.");
    expect((await canvasOf("alice")).pans.length).toBe(before);
    // The GM still sees the hidden token and pans to it.
    await row("gm", "Officer").locator(".si-row__name").click();
    await expect.poll(async () => (await canvasOf("gm")).pans.length).toBe(4);

    // A row whose combatant has just left says so instead of failing.
    await frames.gm.evaluate(() => {
      const trooper = Array.from(document.querySelectorAll<HTMLElement>(".si-row")).find((r) =>
        r.textContent.includes("Trooper 2"),
      );
      if (trooper === undefined) return;
      trooper.dataset.siWas = trooper.dataset.combatantId;
      trooper.dataset.combatantId = "combatantGone0001";
    });
    await row("gm", "Trooper 2").locator(".si-row__name").click();
    await expect.poll(() => toasts("gm")).toContain("That combatant is no longer in the encounter.");
    // The row's id was changed by hand, not by a render: put it back, so the render oracle (every
    // test's end) compares the tracker as the module left it.
    await frames.gm.evaluate(() => {
      const row = document.querySelector<HTMLElement>('.si-row[data-combatant-id="combatantGone0001"]');
      if (row === null) return;
      row.dataset.combatantId = row.dataset.siWas ?? "";
      delete row.dataset.siWas;
    });
    expect(session.errors).toEqual([]);
  });

  it("the GM's right-click menu hides, marks defeated, edits and removes; players get no menu", async () => {
    frames = await loadViews(session, "seed=5");
    await expect.poll(async () => (await shown(frames.bob)).order.length).toBe(6);

    // A player's right-click opens nothing.
    await row("alice", "Trooper 1").locator(".si-row__name").click({ button: "right" });
    expect(await frames.alice.locator("#context-menu").count()).toBe(0);

    await row("gm", "Trooper 1").locator(".si-row__name").click({ button: "right" });
    expect(await menu("gm")).toEqual([
      "Edit combatant",
      "Hide from players",
      "Mark defeated",
      "Remove from the encounter",
    ]);
    await screenshots(session.page, "rows-menu");
    await frames.gm.locator("#context-menu .context-item", { hasText: "Hide from players" }).click();
    // Hidden: gone from the players' trackers, still on the GM's with its badge.
    for (const view of ["alice", "bob"] as const)
      await expect.poll(async () => (await shown(frames[view])).order).not.toContain("Trooper 1");
    await expect.poll(async () => (await shown(frames.gm)).badges["Trooper 1"]).toContain("Hidden");
    await row("gm", "Trooper 1").locator(".si-row__name").click({ button: "right" });
    expect(await menu("gm")).toContain("Show to players");
    await session.page.keyboard.press("Escape");
    await expect.poll(() => frames.gm.locator("#context-menu").count()).toBe(0);

    // Defeated: every view shows it; the menu now offers the way back.
    await choose("gm", "Trooper 2", "Mark defeated");
    for (const view of ["gm", "alice", "bob"] as const)
      await expect.poll(async () => (await shown(frames[view])).badges["Trooper 2"]).toContain("Defeated");
    await row("gm", "Trooper 2").locator(".si-row__name").click({ button: "right" });
    expect(await menu("gm")).toContain("Mark not defeated");
    await frames.gm.locator("#context-menu .context-item", { hasText: "Mark not defeated" }).click();
    for (const view of ["gm", "alice", "bob"] as const)
      await expect.poll(async () => (await shown(frames[view])).badges["Trooper 2"]).not.toContain("Defeated");

    // Edit opens the combatant's own sheet.
    await choose("gm", "Trooper 3", "Edit combatant");
    await expect
      .poll(() =>
        frames.gm.evaluate(() => {
          const { game } = window as unknown as {
            game: {
              combats: {
                viewed: { combatants: { contents: Array<{ name: string; sheet: { renderCount: number } }> } };
              };
            };
          };
          return game.combats.viewed.combatants.contents.find((c) => c.name === "Trooper 3")?.sheet.renderCount;
        }),
      )
      .toBe(1);

    // Remove: gone from every view.
    await choose("gm", "Trooper 3", "Remove from the encounter");
    for (const view of ["gm", "alice", "bob"] as const)
      await expect.poll(async () => (await shown(frames[view])).order).not.toContain("Trooper 3");
    expect((await shown(frames.gm)).order).toHaveLength(5);
    expect(session.errors).toEqual([]);
  });
});
