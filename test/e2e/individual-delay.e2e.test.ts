/**
 * End to end, in Chromium (issue 27 item 4): in the `individual` sample, Brom acts last in round 1.
 * His tracker offers no Delay (nobody is left to wait for), and Bob's delay through the API (as the
 * "Delay my turn" macro sends it) is refused with a message that says so; Brom still acts, in round 1,
 * on every view. Screenshots under test-artefacts/individual-delay-last-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { agreedIn, useSession, screenshots, startIndividual, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

function toasts(view: View): Promise<string> {
  return frames[view]
    .locator(".pg-toast")
    .allTextContents()
    .then((t) => t.join(" | "));
}

interface Doc {
  id: string;
  name: string;
  combatants: { contents: Doc[]; find(f: (c: Doc) => boolean): Doc };
}
interface Page {
  game: {
    combats: { contents: Doc[] };
    modules: { get(id: string): { api: { command(c: Doc, command: object): Promise<unknown> } } };
  };
}

describe("individual: delaying as the last of the round (issue 27 item 4)", () => {
  it("is not offered, and a delay sent anyway is refused with its reason; Brom still acts", async () => {
    frames = await loadViews(session, "sample=individual&seed=3");
    await expect.poll(() => frames.gm.locator(".si-row").count()).toBe(6);
    // The GM types everyone's check so that Brom comes last, starts, and moves on to Brom's turn.
    await startIndividual(
      frames.gm,
      {
        Aria: 20,
        Officer: 18,
        "Trooper 1": 16,
        "Trooper 2": 14,
        "Trooper 3": 12,
        Brom: 5,
      },
      5,
    );
    await agreedIn(frames, (s) => s.current === "Brom" && s.round.includes("1"));
    const bromRow = frames.bob.locator(".si-row", { hasText: "Brom" });
    await expect.poll(() => bromRow.locator('button[data-action="siReady"]').count()).toBe(1);
    expect(await bromRow.locator('button[data-action="siDelay"]').count()).toBe(0);
    // Bob delays anyway, as the macro does.
    const result = await frames.bob.evaluate(async () => {
      const { game } = globalThis as unknown as Page;
      const combat = game.combats.contents[0] as Doc;
      const brom = combat.combatants.find((c) => c.name === "Brom");
      return game.modules.get("structured-initiative").api.command(combat, { type: "delay", combatantId: brom.id });
    });
    expect(result).toMatchObject({ ok: false, code: "lastToAct" });
    await expect
      .poll(() => toasts("bob"))
      .toContain("Brom is the last to act this round: nobody is left to wait for. Act now, or end the turn.");
    const after = await agreedIn(frames, (s) => s.current === "Brom");
    expect(after.round).toContain("1");
    expect(after.badges.Brom).not.toContain("Delaying");
    await screenshots(session.page, "individual-delay-last");
    expect(session.errors).toEqual([]);
  });
});
