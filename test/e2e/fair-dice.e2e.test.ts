/**
 * End to end, in Chromium (issue 27 item 2): in the `declare-resolve` sample, Bob rolls Brom's IP
 * twice by hand from his console and sends the second; the GM is told "Bob rolled Brom's IP 2 times;
 * the first counts". Alice rolls Aria's IP from the tracker, and the GM re-rolls it: the first IP
 * shows struck through on every view. Screenshots under test-artefacts/dice-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { useSession, screenshots, VIEWS, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

function toasts(view: View): Promise<string> {
  return frames[view]
    .locator(".pg-toast")
    .allTextContents()
    .then((t) => t.join(" | "));
}

describe("fair dice in Chromium", () => {
  it("the GM is told of a second roll; the GM's IP re-roll shows the first struck through", async () => {
    frames = await loadViews(session, "sample=declare-resolve&seed=11");
    await expect.poll(() => frames.bob.locator('button[data-action="siRoll"]').count()).toBe(1);
    // Bob, from his console: two rolls for Brom's IP as the module would post them, then the second sent.
    const result = await frames.bob.evaluate(async () => {
      interface Doc {
        id: string;
        name: string;
        getFlag(scope: string, key: string): { rev: number };
        combatants: { find(f: (c: Doc) => boolean): Doc };
      }
      interface Page {
        game: {
          combats: { contents: Doc[] };
          user: { id: string };
          modules: { get(id: string): { api: { command(c: Doc, command: object): Promise<unknown> } } };
        };
        Roll: new (formula: string) => { toMessage(data: object): Promise<{ id: string }> };
      }
      const { game, Roll } = globalThis as unknown as Page;
      const combat = game.combats.contents[0] as Doc;
      const brom = combat.combatants.find((c) => c.name === "Brom");
      const rev = combat.getFlag("structured-initiative", "encounter").rev;
      const purpose = { combat: combat.id, subject: brom.id, for: "recordIP", part: 0, rev, user: game.user.id };
      const flags = { "structured-initiative": { purpose } };
      await new Roll("2d10").toMessage({ flags });
      const second = await new Roll("2d10").toMessage({ flags });
      const command = { type: "recordIP", combatantId: brom.id, total: 20, modifier: 0, rolls: [second.id] };
      return game.modules.get("structured-initiative").api.command(combat, command);
    });
    expect(result).toMatchObject({ ok: false, code: "notFirstRoll" });
    await expect.poll(() => toasts("gm")).toContain("Bob rolled Brom's IP 2 times; the first counts.");
    // Alice rolls Aria's IP from the tracker; the GM rolls it again from Aria's row.
    await frames.alice.locator('button[data-action="siRoll"]').click();
    await expect.poll(() => frames.gm.locator(".si-row", { hasText: "Aria" }).locator("[data-si=ip]").count()).toBe(1);
    await frames.gm.locator(".si-row", { hasText: "Aria" }).locator('button[data-action="siRoll"]').click();
    for (const view of VIEWS)
      await expect
        .poll(() => frames[view].locator(".si-row", { hasText: "Aria" }).locator("[data-si=ip-earlier] s").count())
        .toBe(1);
    await screenshots(session.page, "dice-gm-told-and-ip-struck");
    expect(session.errors).toEqual([]);
  });
});
