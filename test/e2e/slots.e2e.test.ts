/**
 * End to end, in Chromium: the playground's `slots` sample encounter played by the GM and two players
 * over three rounds. Both players claim the same slot at the same moment: exactly one wins and the
 * other is told who holds it. Every view is checked to show the same slot strip; a claim and a fill
 * are one click on a button in the combatant's own row, shown without opening anything, whatever the
 * number of candidates (issue 29); screenshots of each view are saved under test-artefacts/.
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
  /** Per slot: number, kind, what it says of its filler or claimant, whether current. */
  slots: string[];
  /** The rows with a "To act" badge. */
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
          s.classList.contains("si-slot--pc") ? "PC" : "NPC",
          text(s.querySelector(".si-slot__about")),
          s.getAttribute("aria-current") ?? "",
        ].join("|"),
      ),
      toAct: Array.from(document.querySelectorAll(".si-row"))
        .filter((row) => Array.from(row.querySelectorAll(".si-badge")).some((b) => text(b) === "To act"))
        .map((row) => text(row.querySelector(".si-row__name")))
        .join(", "),
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
      filled: slot.classList.contains("si-slot--filled"),
    };
  });
}

/**
 * The GM fills the current slot with one click: each eligible combatant's row shows its own Fill
 * button (seen without opening anything), whatever their number; the first one's is clicked.
 * `eligible`: the rows that may fill it (the rows of its kind still to act).
 */
async function fill(slot: string, eligible: readonly string[]): Promise<void> {
  const buttons = frames.gm.locator(`.si-row .si-row__body button[data-action="siSlotFill"][data-slot="${slot}"]`);
  const rows = await buttons.evaluateAll((list) =>
    list.map((b) => (b.closest(".si-row")?.querySelector(".si-row__name")?.textContent ?? "").trim()),
  );
  expect(rows).toEqual(eligible);
  for (const button of await buttons.all()) expect(await button.isVisible()).toBe(true);
  await buttons.first().click();
}

/** The rows of one kind still to act, as the GM's view shows them. */
function eligibleRows(pc: boolean): Promise<string[]> {
  return frames.gm.evaluate(
    (pc) =>
      Array.from(document.querySelectorAll(".si-row"))
        .filter(
          (row) =>
            Array.from(row.querySelectorAll(".si-badge")).some((b) => b.textContent.trim() === "To act") &&
            Array.from(row.querySelectorAll(".si-badge--kind")).some(
              (b) => b.textContent.trim() === (pc ? "PC" : "NPC"),
            ),
        )
        .map((row) => (row.querySelector(".si-row__name")?.textContent ?? "").trim()),
    pc,
  );
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
      return (pcs[pcs.length - 1]?.querySelector(".si-slot__number")?.textContent ?? "").trim();
    });
    expect(target).not.toBe("");
    const index = String(Number(target) - 1);
    const selector = `button[data-action="siSlotClaim"][data-slot="${index}"]`;
    await expect.poll(() => frames.alice.locator(selector).count()).toBe(1);
    await expect.poll(() => frames.bob.locator(selector).count()).toBe(1);
    // Each player's claim is a button on their own PC's row, seen without opening anything.
    for (const [view, pc] of [
      ["alice", "Aria"],
      ["bob", "Brom"],
    ] as const) {
      const button = frames[view].locator(".si-row", { hasText: pc }).locator(`.si-row__body ${selector}`);
      expect(await button.isVisible(), view).toBe(true);
      expect(await button.textContent(), view).toBe(`Claim slot ${target}`);
    }
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
        if (who === null) await fill(slot, await eligibleRows(true));
        else {
          // Claiming the slot up now is one click, which fills it at once.
          const button = frames[who].locator(claim).first();
          expect(await button.isVisible()).toBe(true);
          await button.click();
        }
      } else {
        if (!assignShot) await screenshots(session.page, "slots-assign");
        assignShot = true;
        // The slot says it is open, in every view, not only in a hint.
        for (const view of VIEWS)
          expect(await frames[view].locator("[data-si=slot-status]").textContent(), view).toBe(
            `Slot ${current.number} (NPC) is open.`,
          );
        await fill(slot, await eligibleRows(false));
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
