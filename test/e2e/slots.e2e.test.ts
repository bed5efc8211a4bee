/**
 * End to end, in Chromium: the playground's `slots` sample encounter played by the GM and two players
 * over three rounds. Both players claim the same slot at the same moment: exactly one wins and the
 * other is told who holds it. Every view is checked to show the same slot list; screenshots of each
 * view are saved under test-artefacts/.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { agreedOn, USERS, useSession, overflowing, screenshots, VIEWS, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

async function load(query: string): Promise<void> {
  frames = await loadViews(session, query);
}

/** What a view's slot list shows. */
interface SlotsShown {
  round: string;
  rows: number;
  needsRoll: number;
  /** Per slot: number, kind text, filler, claimant, whether current. */
  slots: string[];
  toAct: string;
}

function slotsShown(frame: Frame): Promise<SlotsShown> {
  return frame.evaluate(() => {
    const text = (el: Element | null): string => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
    return {
      round: text(document.querySelector(".sim-round")),
      rows: document.querySelectorAll(".si-row").length,
      needsRoll: Array.from(document.querySelectorAll(".si-row .si-badge")).filter((b) => text(b) === "needs a roll")
        .length,
      slots: Array.from(document.querySelectorAll(".si-slot")).map((s) =>
        [
          text(s.querySelector(".si-slot__number")),
          text(s.querySelector(".si-slot__kind")),
          text(s.querySelector(".si-slot__who")),
          s.getAttribute("aria-current") ?? "",
        ].join("|"),
      ),
      toAct: text(document.querySelector("[data-si=to-act]")),
    };
  });
}

/** Wait until all three views show the same slot list (and it satisfies `check`); return it. */
function agreed(check: (s: SlotsShown) => boolean = () => true): Promise<SlotsShown> {
  return agreedOn(frames, slotsShown, { check, timeout: 10_000, detail: () => session.errors.join(" ; ") });
}

/** The warnings and errors a view shows (turn notices are info toasts: `keys`/`notices` tests cover them). */
async function toasts(view: View): Promise<string> {
  return (await frames[view].locator(".pg-toast:not(.pg-toast--info)").allTextContents()).join(" | ");
}

/** The current slot as the GM's view shows it: its number, kind and whether someone fills it. */
function currentSlot(frame: Frame): Promise<{ number: string; pc: boolean; filled: boolean } | null> {
  return frame.evaluate(() => {
    const slot = document.querySelector(".si-slot--current");
    if (slot === null) return null;
    return {
      number: (slot.querySelector(".si-slot__number")?.textContent ?? "").trim(),
      pc: slot.classList.contains("si-slot--pc"),
      filled: slot.querySelector(".si-slot__filler") !== null,
    };
  });
}

/** The GM assigns the current slot: the first assign button, or the select's first choice and its button. */
async function assign(slot: string): Promise<void> {
  const select = frames.gm.locator(`button[data-action="siSlotAssign"][data-slot="${slot}"]`);
  if ((await select.count()) > 0) await select.click();
  else await frames.gm.locator(`button[data-action="siSlotFill"][data-slot="${slot}"]`).first().click();
}

/**
 * Click a button in several views at the same moment: one script on the page clicks each view's
 * button in the same task, so every click's request is on its way before any of them is applied
 * (clicking view by view, a loaded machine could apply the first before the second was clicked,
 * and the second view's button would be gone).
 */
async function clickTogether(views: readonly View[], selector: string): Promise<void> {
  const missing = await session.page.evaluate(
    ({ users, selector }) => {
      const buttons = users.map((user) =>
        document
          .querySelector<HTMLIFrameElement>(`iframe[data-user="${user}"]`)
          ?.contentDocument?.querySelector<HTMLElement>(selector),
      );
      const absent = users.filter((_, i) => buttons[i] == null);
      if (absent.length === 0) for (const button of buttons) button?.click();
      return absent;
    },
    { users: views.map((view) => USERS[view]), selector },
  );
  expect(missing, "views without the button").toEqual([]);
}

describe("the slots sample in Chromium", () => {
  it("two players claim the same slot at once: one wins, the other is told who; three rounds are played", async () => {
    await load("sample=slots&seed=7");
    await agreed((s) => s.rows === 6 && s.needsRoll === 6);
    // The sample list marks the slots sample.
    expect(await session.page.locator('.pg-mode[data-mode="slots"]').getAttribute("aria-pressed")).toBe("true");
    // Before the start the GM chooses Cool or Vigilance per combatant; players see no such control.
    expect(await frames.gm.locator('button[data-action="siSlotVigilance"]').count()).toBe(6);
    expect(await frames.alice.locator('button[data-action="siSlotVigilance"]').count()).toBe(0);
    await frames.gm.locator(".si-row", { hasText: "Officer" }).locator('button[data-action="siSlotVigilance"]').click();
    await expect
      .poll(() =>
        frames.gm
          .locator(".si-row", { hasText: "Officer" })
          .locator('button[data-action="siSlotVigilance"]')
          .getAttribute("aria-pressed"),
      )
      .toBe("true");
    // Alice rolls Aria's check from her own view; the GM rolls the rest.
    await frames.alice.locator('button[data-action="siRoll"]').click();
    await agreed((s) => s.needsRoll === 5);
    await frames.gm.locator('button[data-action="siRollAll"]').click();
    await agreed((s) => s.needsRoll === 0 && s.slots.length === 6);
    await screenshots(session.page, "slots-setup");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await agreed((s) => s.round === "Round 1" && s.slots.some((x) => x.endsWith("|true")));

    // The later PC slot: both players claim it at the same moment.
    const target = await frames.gm.evaluate(() => {
      const pcs = Array.from(document.querySelectorAll(".si-slot--pc:not(.si-slot--current)"));
      return pcs[pcs.length - 1]?.getAttribute("data-slot") ?? "";
    });
    expect(target).not.toBe("");
    const index = String(Number(target) - 1);
    const selector = `button[data-action="siSlotClaim"][data-slot="${index}"]`;
    await expect.poll(() => frames.alice.locator(selector).count()).toBe(1);
    await expect.poll(() => frames.bob.locator(selector).count()).toBe(1);
    await clickTogether(["alice", "bob"], selector);
    const claimed = await agreed((s) => s.slots.some((x) => x.includes("Claimed by")));
    const winner = claimed.slots.find((x) => x.includes("Claimed by"))?.includes("Aria") ? "Aria" : "Brom";
    const loser: View = winner === "Aria" ? "bob" : "alice";
    await expect.poll(() => toasts(loser)).toContain(`${winner} has already claimed that slot.`);
    expect(await toasts(loser === "bob" ? "alice" : "bob")).toBe("");
    for (const view of VIEWS) expect(await overflowing(frames[view]), view).toEqual([]);
    await screenshots(session.page, "slots-race");

    // Three rounds: open PC slots are claimed by a player (or assigned), NPC slots assigned by the GM.
    let assignShot = false;
    for (let step = 0; step < 40; step++) {
      const before = await agreed();
      if (before.round === "Round 4") break;
      const current = await currentSlot(frames.gm);
      if (current === null) throw new Error("no current slot");
      const slot = String(Number(current.number) - 1);
      if (current.filled) await frames.gm.locator('button[data-action="siNextTurn"]').click();
      else if (current.pc) {
        const claim = `button[data-action="siSlotClaim"][data-slot="${slot}"]`;
        const who: View | null =
          (await frames.alice.locator(claim).count()) > 0
            ? "alice"
            : (await frames.bob.locator(claim).count()) > 0
              ? "bob"
              : null;
        if (who === null) await assign(slot);
        else await frames[who].locator(claim).first().click();
      } else {
        if (!assignShot) await screenshots(session.page, "slots-assign");
        assignShot = true;
        await assign(slot);
      }
      const key = JSON.stringify(before);
      await agreed((s) => JSON.stringify(s) !== key);
      if (step === 4) await screenshots(session.page, "slots-round1");
    }
    await agreed((s) => s.round === "Round 4");
    for (const view of VIEWS) expect(await overflowing(frames[view]), view).toEqual([]);
    expect(session.errors).toEqual([]);
  });
});
