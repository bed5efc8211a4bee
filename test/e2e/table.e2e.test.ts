/**
 * End to end, in Chromium (issue 15 items 6, 10 and 13): undoing the start asks the GM first; "Act
 * now" during another's turn leaves that one "Next", never also "Acted"; a delayed PC's row says where
 * it stands in later rounds; a system-default encounter keeps the GM's way back to a structured mode.
 * Issue 27 item 4: the last to act in a round is offered no Delay, and a delay sent anyway is refused
 * with its reason; issue 30 item 4: the acting row's Ready field and button sit in the row's body
 * region, never in its badges. Screenshots under test-artefacts/table-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import {
  agreedIn,
  formsInRow,
  loadViews,
  screenshots,
  startIndividual,
  useSession,
  type Shown,
  type View,
} from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

/** Wait until all three views agree (and satisfy `check`). */
function agreed(check?: (s: Shown) => boolean): Promise<Shown> {
  return agreedIn(frames, check);
}

async function click(view: View, selector: string): Promise<void> {
  await frames[view].locator(selector).first().click();
}

/** The GM moves on until `name` acts. */
async function until(name: string): Promise<Shown> {
  let state = await agreed();
  for (let i = 0; i < 8 && state.current !== name; i++) {
    const before = state.current;
    await click("gm", 'button[data-action="siNextTurn"]');
    state = await agreed((s) => s.current !== before);
  }
  expect(state.current).toBe(name);
  return state;
}

/** Open the playground without a sample and create an encounter of `mode` holding the sample tokens. */
async function create(mode: string): Promise<void> {
  frames = await loadViews(session, "sample=none&seed=3");
  await click("gm", 'button[data-action="createCombat"]');
  const dialog = frames.gm.locator("dialog[open]");
  await dialog.locator('select[name="mode"]').selectOption(mode);
  await dialog.locator('button[data-action="create"]').click();
  await session.page.locator("#pg-add-tokens").click();
}

/** No row is "Acted" and also "Next" or "Acting now". */
function expectNoContradiction(state: Shown): void {
  for (const [name, badges] of Object.entries(state.badges))
    expect(badges.includes("Acted") && (badges.includes("Next") || badges.includes("Acting now")), name).toBe(false);
}

describe("table-ready individual tracker in Chromium", () => {
  it("undoing the start asks; act now leaves the interrupted one next; a delayed row says where it stands", async () => {
    await create("individual");
    await agreed((s) => s.order.length === 6);
    await click("gm", 'button[data-action="siRollAll"]');
    await agreed((s) => Object.values(s.badges).every((b) => !b.includes("needs a roll")));
    for (let i = 0; i < 6 && (await frames.gm.locator('button[data-action="siRollOff"]').count()) > 0; i++) {
      await click("gm", 'button[data-action="siRollOff"]');
      await agreed();
    }
    await click("gm", 'button[data-action="siStart"]');
    const begun = await agreed((s) => s.round === "Round 1" && s.current !== "");

    // Previous round in round 1 would undo the start: the GM is asked; No keeps the battle.
    await click("gm", 'button[data-action="siPreviousRound"]');
    const confirm = frames.gm.locator("dialog[open]");
    await expect.poll(() => confirm.textContent()).toContain("Return to setting up?");
    await screenshots(session.page, "table-undo-confirm");
    await confirm.locator('button[data-action="no"]').click();
    await expect.poll(() => frames.gm.locator("dialog[open]").count()).toBe(0);
    expect((await agreed((s) => s.round === "Round 1")).current).toBe(begun.current);

    // Aria delays on her turn; the next one acts, the one after is called; Alice acts now, before that one.
    await until("Aria");
    await click("alice", 'button[data-action="siDelay"]');
    let state = await agreed((s) => s.current !== "Aria" && (s.badges.Aria ?? []).includes("Delaying"));
    const passed = state.current;
    await click("gm", 'button[data-action="siNextTurn"]');
    state = await agreed((s) => s.current !== passed);
    const interrupted = state.current;
    await click("alice", 'button[data-action="siEndDelay"]');
    state = await agreed((s) => s.current === "Aria");
    expect(state.next).toBe(interrupted);
    expect(state.badges[interrupted]).toContain("Next");
    expect(state.badges[interrupted]).not.toContain("Acted");
    expect(state.badges[passed]).toContain("Acted");
    expect(state.badges.Aria).toContain(`after ${passed}`);
    expectNoContradiction(state);
    await screenshots(session.page, "table-act-now");

    // On to round 2: Aria's row says whom she follows.
    for (let i = 0; i < 10 && state.round === "Round 1"; i++) {
      const before = state.current;
      await click("gm", 'button[data-action="siNextTurn"]');
      state = await agreed((s) => s.current !== before || s.round !== "Round 1");
      expectNoContradiction(state);
    }
    state = await agreed((s) => s.round === "Round 2");
    expect(state.current).toBe(state.order[0]);
    expect(state.order.indexOf("Aria")).toBe(state.order.indexOf(passed) + 1);
    expect(state.badges.Aria).toContain(`after ${passed}`);
    await screenshots(session.page, "table-round2");
    expect(session.errors).toEqual([]);
  });

  it("the last to act: the Ready field sits in its row's body; no Delay, and a delay sent anyway is refused with its reason", async () => {
    frames = await loadViews(session, "sample=individual&seed=3");
    await expect.poll(() => frames.gm.locator(".si-row").count()).toBe(6);
    // The GM types everyone's check so that Brom comes last, starts, and moves on to Brom's turn.
    await startIndividual(
      frames.gm,
      { Aria: 20, Officer: 18, "Trooper 1": 16, "Trooper 2": 14, "Trooper 3": 12, Brom: 5 },
      5,
    );
    await agreed((s) => s.current === "Brom" && s.round.includes("1"));
    const bromRow = frames.bob.locator(".si-row", { hasText: "Brom" });
    await expect.poll(() => bromRow.locator('button[data-action="siReady"]').count()).toBe(1);
    expect(await bromRow.locator('button[data-action="siDelay"]').count()).toBe(0);
    // The Ready field with its button, in the row's body, for Brom's owner and the GM; nothing for Alice.
    for (const view of ["gm", "bob"] as const) {
      expect(await formsInRow(frames[view], "Brom"), view).toEqual({ inBadges: 0, inBody: 2 });
      const field = frames[view].locator('.si-row__body input[name="structured-initiative-trigger"]');
      expect(await field.getAttribute("data-combatant-id"), view).not.toBeNull();
    }
    expect(await formsInRow(frames.alice, "Brom")).toEqual({ inBadges: 0, inBody: 0 });
    await screenshots(session.page, "table-last-to-act");
    // Bob delays anyway, as the "Delay my turn" macro does.
    const result = await frames.bob.evaluate(async () => {
      interface Doc {
        id: string;
        name: string;
        combatants: { contents: Doc[]; find(f: (c: Doc) => boolean): Doc };
      }
      const { game } = globalThis as unknown as {
        game: {
          combats: { contents: Doc[] };
          modules: { get(id: string): { api: { command(c: Doc, command: object): Promise<unknown> } } };
        };
      };
      const combat = game.combats.contents[0] as Doc;
      const brom = combat.combatants.find((c) => c.name === "Brom");
      return game.modules.get("structured-initiative").api.command(combat, { type: "delay", combatantId: brom.id });
    });
    expect(result).toMatchObject({ ok: false, code: "lastToAct" });
    await expect
      .poll(() => frames.bob.locator(".pg-toast").allTextContents())
      .toContain("Brom is the last to act this round: nobody is left to wait for. Act now, or end the turn.");
    const after = await agreed((s) => s.current === "Brom");
    expect(after.round).toContain("1");
    expect(after.badges.Brom).not.toContain("Delaying");
    expect(session.errors).toEqual([]);
  });

  it("after choosing system default, the GM's tracker keeps a way back before the start", async () => {
    await create("system");
    const select = frames.gm.locator("select[name='structured-initiative-mode']");
    await expect.poll(() => select.count()).toBe(1);
    expect(await select.locator("option").evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      "system",
      "individual",
      "sides",
      "slots",
      "declare-resolve",
      "phases",
    ]);
    // Players get the system's tracker untouched.
    for (const view of ["alice", "bob"] as const)
      expect(await frames[view].locator("select[name='structured-initiative-mode']").count()).toBe(0);
    await screenshots(session.page, "table-system-default");
    await select.selectOption("individual");
    await agreed((s) => s.order.length === 6 && s.step === "Setting up");
    await screenshots(session.page, "table-back-to-structured");
    expect(session.errors).toEqual([]);
  });
});
