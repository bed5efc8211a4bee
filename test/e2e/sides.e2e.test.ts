/**
 * End to end, in Chromium: the playground's `sides` sample encounter played by the GM and two players
 * — a full D6 round: side initiative (Alice rolls for the heroes), declarations from each player's
 * own view (Brom declares three actions, so there are three passes), the passes with a dodge, and the
 * next round's initiative. Every view shows the same banner and pass order; screenshots of each view
 * are saved under test-artefacts/.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { agreedOn, useSession, overflowing, screenshots, VIEWS, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

async function load(query: string): Promise<void> {
  frames = await loadViews(session, query);
}

/** What a view's sides panel shows. */
interface SidesShown {
  round: string;
  banner: string;
  rows: number;
  sides: string[];
  declarer: string;
  pass: string[];
}

function sidesShown(frame: Frame): Promise<SidesShown> {
  return frame.evaluate(() => {
    const text = (el: Element | null): string => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
    return {
      round: text(document.querySelector(".sim-round")),
      banner: text(document.querySelector("[data-si=step]")),
      rows: document.querySelectorAll(".si-row").length,
      sides: Array.from(document.querySelectorAll(".si-sides__details .si-side")).map((s) =>
        [text(s.querySelector(".si-side__name")), text(s.querySelector(".si-side__roll"))].join("|"),
      ),
      declarer: text(document.querySelector("[data-si=declarer]")),
      pass: Array.from(document.querySelectorAll(".si-sides-pass__entry")).map((e) => text(e)),
    };
  });
}

/** Wait until all three views show the same panel (and it satisfies `check`); return it. */
function agreed(check: (s: SidesShown) => boolean = () => true): Promise<SidesShown> {
  return agreedOn(frames, sidesShown, {
    check,
    detail: async () => {
      const toasts = await Promise.all(VIEWS.map((view) => frames[view].locator(".pg-toast").allTextContents()));
      return `${session.errors.join(" ; ")} toasts: ${JSON.stringify(toasts)}`;
    },
  });
}

/** Who declares (by name) → the view that declares for it, and its actions. */
const DECLARATIONS: Record<string, { view: View; actions: string[] }> = {
  Aria: { view: "alice", actions: ["Shoot the officer", "Dive for cover"] },
  Brom: { view: "bob", actions: ["Fire", "Fire again", "Run to the door"] },
};

describe("the sides sample in Chromium", () => {
  it("a full D6 round: initiative, declarations from each player, three passes with a dodge", async () => {
    await load("sample=sides&seed=5");
    await agreed((s) => s.rows === 6 && s.sides.length === 2 && s.banner === "Setting up");
    expect(await session.page.locator('.pg-mode[data-mode="sides"]').getAttribute("aria-pressed")).toBe("true");
    expect(await frames.alice.locator('button[data-action="siSidesAdd"]').count()).toBe(0);
    await screenshots(session.page, "sides-setup");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await agreed((s) => s.banner === "Initiative");

    // Alice rolls for the heroes (Aria has the best initiative score), the GM for the foes.
    expect(await frames.bob.locator('button[data-action="siSidesRoll"]').count()).toBe(0);
    await frames.alice.locator('button[data-action="siSidesRoll"]').click();
    await agreed((s) => s.sides.filter((x) => x.includes("|rolled")).length === 1);
    // The heroes' roll is the GM's to re-roll now; the foes still roll.
    await frames.gm
      .locator(".si-sides__list .si-side", { hasText: "Foes" })
      .locator('button[data-action="siSidesRoll"]')
      .click();
    await agreed((s) => s.banner === "Declaration");
    await screenshots(session.page, "sides-declaration");

    // Everyone declares in turn: players from their own view, the GM for the NPCs.
    for (let step = 0; step < 8; step++) {
      const now = await agreed();
      if (now.banner !== "Declaration") break;
      const name = now.declarer.replace(/ declares now.*/, "");
      const plan = DECLARATIONS[name] ?? { view: "gm" as View, actions: ["Shoot"] };
      const form = frames[plan.view].locator(".si-sides-declare");
      // Each declarer starts from an empty form (nothing typed for the previous one carries over).
      expect(await form.locator("textarea").inputValue()).toBe("");
      await form.locator("textarea").fill(plan.actions.join("\n"));
      await form.locator('button[data-action="siSidesDeclare"]').click();
      await agreed((s) => s.declarer !== now.declarer);
      if (step === 3) await screenshots(session.page, "sides-declaring");
    }
    const pass1 = await agreed((s) => s.banner === "Pass 1");
    expect(pass1.pass).toHaveLength(6);

    // Alice picks whom to slow down after, then dodges first: the re-render keeps her pick.
    // The choice is filled when opened (a summary until then).
    expect(await frames.alice.locator('select[name="structured-initiative-after"]').count()).toBe(0);
    await frames.alice.locator("details.si-sides-slow > summary").click();
    const slowAfter = frames.alice.locator('select[name="structured-initiative-after"]');
    await expect.poll(() => slowAfter.count()).toBe(1);
    const targets = await slowAfter
      .locator("option")
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    const pick = targets[targets.length - 1] ?? "";
    expect(targets.length).toBeGreaterThan(1);
    await slowAfter.selectOption(pick);
    // Aria dodges in pass 1; then the passes run out.
    await frames.alice.locator('button[data-action="siSidesDodge"]').click();
    const ariaRow = frames.gm.locator(".si-row", { has: frames.gm.locator(".si-row__name", { hasText: "Aria" }) });
    await expect.poll(() => ariaRow.locator(".si-badges").textContent()).toContain("Reactions: Dodge");
    const aliceRow = frames.alice.locator(".si-row", {
      has: frames.alice.locator(".si-row__name", { hasText: "Aria" }),
    });
    await expect.poll(() => aliceRow.locator(".si-badges").textContent()).toContain("Reactions: Dodge");
    expect(await slowAfter.inputValue()).toBe(pick);
    await screenshots(session.page, "sides-pass1");
    // Two more dodges: the row counts them (issue 15 item 11), in every view.
    for (const expected of ["Dodge ×2", "Dodge ×3"]) {
      await frames.alice.locator('button[data-action="siSidesDodge"]').click();
      await expect.poll(() => ariaRow.locator(".si-badges").textContent()).toContain(`Reactions: ${expected}`);
    }
    await expect.poll(() => aliceRow.locator(".si-badges").textContent()).toContain("Reactions: Dodge ×3");
    expect(await ariaRow.locator(".si-badges").textContent()).not.toContain("Dodge, Dodge");
    await screenshots(session.page, "sides-dodges");
    const banners = new Set<string>();
    for (let step = 0; step < 20; step++) {
      const now = await agreed();
      banners.add(now.banner);
      if (now.banner === "Initiative") break;
      if (now.banner === "Pass 3" && !banners.has("shot")) {
        banners.add("shot");
        await screenshots(session.page, "sides-pass3");
      }
      await frames.gm.locator('button[data-action="siNextTurn"]').click();
      await agreed((s) => JSON.stringify(s) !== JSON.stringify(now));
    }
    expect([...banners].filter((b) => b !== "shot")).toEqual(["Pass 1", "Pass 2", "Pass 3", "Initiative"]);
    await agreed((s) => s.round === "Round 2" && s.banner === "Initiative");
    for (const view of VIEWS) expect(await overflowing(frames[view]), view).toEqual([]);
    expect(session.errors).toEqual([]);
  });

  it("Alice writes Aria's initiative from her console, keeping the order: it is put back and she is told (issue 27 item 4)", async () => {
    await load("sample=sides&seed=5");
    await agreed((s) => s.rows === 6 && s.banner === "Setting up");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await agreed((s) => s.banner === "Initiative");
    await frames.alice.locator('button[data-action="siSidesRoll"]').click();
    await agreed((s) => s.sides.filter((x) => x.includes("|rolled")).length === 1);
    await frames.gm
      .locator(".si-sides__list .si-side", { hasText: "Foes" })
      .locator('button[data-action="siSidesRoll"]')
      .click();
    await agreed((s) => s.banner === "Declaration");
    // Halfway to the combatant above her (or half a point up): core's order stays as it is.
    const written = await frames.alice.evaluate(async () => {
      type Combatant = { id: string; name: string; initiative: number | null; update(d: object): Promise<unknown> };
      const combat = (window as unknown as { game: { combat: { turns: Combatant[] } } }).game.combat;
      const at = combat.turns.findIndex((c) => c.name === "Aria");
      const aria = combat.turns[at];
      if (aria === undefined || aria.initiative === null) throw new Error("Aria has no initiative");
      const before = aria.initiative;
      const above = combat.turns[at - 1]?.initiative ?? before + 2;
      const value = before + Math.min(0.5, (above - before) / 2);
      await aria.update({ initiative: value });
      return { before, value, order: combat.turns.map((c) => c.id) };
    });
    expect(written.value).not.toBe(written.before);
    await expect
      .poll(() => frames.alice.locator(".pg-toast").allTextContents())
      .toContain(
        "In this mode Structured Initiative keeps Aria's initiative in step with its order: the change was put back. Roll and reorder through its tracker.",
      );
    for (const view of VIEWS)
      await expect
        .poll(
          () =>
            frames[view].evaluate(() => {
              const combat = (
                window as unknown as {
                  game: { combat: { turns: { id: string; name: string; initiative: number | null }[] } };
                }
              ).game.combat;
              return {
                aria: combat.turns.find((c) => c.name === "Aria")?.initiative ?? null,
                order: combat.turns.map((c) => c.id),
              };
            }),
          { message: view },
        )
        .toEqual({ aria: written.before, order: written.order });
    await screenshots(session.page, "sides-initiative-put-back");
    expect(session.errors).toEqual([]);
  });
});
