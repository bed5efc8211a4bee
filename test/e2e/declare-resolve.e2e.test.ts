/**
 * End to end, in Chromium: the playground's `declare-resolve` sample played by the GM and two players
 * over three rounds — IP rolled from each player's own view and by the GM, ties ordered by the GM,
 * declarations slowest first from the declaration form in the declaring row (Aria's Power Attack
 * spills into round 2, Brom's Dodge + Melee Attack is shown over budget and refused before he takes
 * the attack out, a single catalogue action is declared in one click), the Officer's two jabs
 * resolving as an extra attack, and an upkeep with bleeding each round. Players see the form only on
 * their own turn. The GM edits the action catalogue in its settings form (an
 * invalid row is shown, not saved). Screenshots of each view are saved under test-artefacts/.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import "../../playground/host.js";
import { agreedOn, useSession, overflowing, screenshots, VIEWS, type View, loadViews } from "./browser.js";

const session = useSession();
let frames: Record<View, Frame>;

/** What a view's tracker shows of the declare-resolve encounter. */
interface DrShown {
  round: string;
  step: string;
  now: string;
  rolls: string;
  rows: string[];
}

function drShown(frame: Frame): Promise<DrShown> {
  return frame.evaluate(() => {
    const text = (el: Element | null): string => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
    return {
      round: text(document.querySelector(".sim-round")),
      step: text(document.querySelector("[data-si=step]")),
      now: text(document.querySelector("[data-si=current]")),
      // Who still rolls: the rows marked so.
      rolls: Array.from(document.querySelectorAll(".si-row"))
        .filter((row) => row.querySelector("[data-si=needs-roll]") !== null)
        .map((row) => text(row.querySelector(".si-row__name")))
        .join(", "),
      rows: Array.from(document.querySelectorAll(".si-row")).map((row) =>
        [
          text(row.querySelector(".si-row__name")),
          text(row.querySelector("[data-si=ip]")),
          text(row.querySelector(".si-dr-chips")),
          text(row.querySelector("[data-si=finishing]")),
        ].join("|"),
      ),
    };
  });
}

/** Wait until all three views show the same (and it satisfies `check`); return it. */
function agreed(check: (s: DrShown) => boolean = () => true): Promise<DrShown> {
  return agreedOn(frames, drShown, { check, timeout: 10_000, detail: () => session.errors.join(" ; ") });
}

async function toasts(view: View): Promise<string> {
  return (await frames[view].locator(".pg-toast").allTextContents()).join(" | ");
}

function text(frame: Frame, selector: string): Promise<string> {
  return frame.evaluate((s) => (document.querySelector(s)?.textContent ?? "").replace(/\s+/g, " ").trim(), selector);
}

/** The declaration form's button that adds `action` to the draft (in its "Combine actions" disclosure), in a view. */
async function pick(view: View, action: string) {
  const combine = frames[view].locator(".si-dr-declare details.si-dr-combine");
  if ((await combine.getAttribute("open")) === null) await combine.locator("summary").click();
  return frames[view].locator('button[data-action="siDrPick"]', { hasText: action });
}

/** The declaration form's one-click button that declares `action` alone, in a view. */
function declareAlone(view: View, action: string) {
  return frames[view].locator('button[data-action="siDrDeclareEntry"]', { hasText: action });
}

describe("the declare-resolve sample in Chromium", () => {
  it("a GM and two players play three rounds: spill-over, over budget, extra attacks, upkeep with bleeding", async () => {
    frames = await loadViews(session, "sample=declare-resolve&seed=11");
    await agreed((s) => s.rows.length === 6 && s.rolls.split(",").length === 6);
    expect(await session.page.locator('.pg-mode[data-mode="declare-resolve"]').getAttribute("aria-pressed")).toBe(
      "true",
    );
    // Each player rolls their own PC; the GM rolls the NPCs. Players see no GM controls.
    expect(await frames.alice.locator('button[data-action="siRoll"]').count()).toBe(1);
    expect(await frames.alice.locator(".si-dr-edit").count()).toBe(0);
    await frames.alice.locator('button[data-action="siRoll"]').click();
    await frames.bob.locator('button[data-action="siRoll"]').click();
    await agreed((s) => s.rolls.split(",").length === 4);
    await frames.gm.locator('button[data-action="siDrRollAll"]').click();
    await agreed((s) => s.rolls === "");
    // The GM makes Brom bleed 2 (his hits come from system.hits).
    const brom = frames.gm.locator(".si-row", { hasText: "Brom" });
    await brom.locator(".si-dr-edit summary").click();
    await brom.locator('input[data-field="bleeding"]').fill("2");
    await brom.locator('button[data-action="siDrConditions"]').click();
    await expect.poll(() => text(frames.alice, ".si-row[data-combatant-id] .si-dr-condition")).toBe("Bleeding 2");
    // Ties, if the dice made any, are ordered by the GM (players only see that they wait).
    for (let i = 0; i < 6 && (await frames.gm.locator('button[data-action="siDrOrderTied"]').count()) > 0; i++) {
      expect(await frames.alice.locator('button[data-action="siDrOrderTied"]').count()).toBe(0);
      await frames.gm.locator('button[data-action="siDrOrderTied"]').first().click();
      await agreed();
    }
    await screenshots(session.page, "dr-setup");
    await frames.gm.locator('button[data-action="siStart"]').click();
    await agreed((s) => s.round === "Round 1" && s.step === "Declare actions");

    const shots = new Set<string>();
    const shot = async (name: string): Promise<void> => {
      if (shots.has(name)) return;
      shots.add(name);
      for (const view of VIEWS) expect(await overflowing(frames[view]), `${name} ${view}`).toEqual([]);
      await screenshots(session.page, name);
    };
    for (let step = 0; step < 80; step++) {
      const s = await agreed();
      if (s.round === "Round 4") break;
      const round = Number(s.round.replace("Round ", ""));
      const who = s.now;
      const owner: View = who === "Aria" ? "alice" : who === "Brom" ? "bob" : "gm";
      if (s.step === "Declare actions") {
        // Only whoever may declare for the declarer sees the form, in the declarer's row: its owner and the GM.
        for (const view of VIEWS)
          expect(
            await frames[view].locator(".si-row", { has: frames[view].locator(".si-dr-declare") }).allTextContents(),
            `${view} sees the form for ${who}`,
          ).toEqual(view === owner || view === "gm" ? [expect.stringContaining(who)] : []);
        if (who === "Aria" && round === 1) {
          await (await pick("alice", "Power Attack")).click();
          await expect
            .poll(() => text(frames.alice, "[data-si=dr-legality]"))
            .toBe("It takes all 5 AP now and 2 AP of the next round, which then has 3 AP left.");
          await shot("dr-declare-spill");
          await frames.alice.locator('button[data-action="siDrDeclare"]').click();
        } else if (who === "Aria" && round === 2) {
          expect(s.rows.find((r) => r.startsWith("Aria"))).toContain("Finishing: Power Attack (2 AP)");
          await shot("dr-round2-finishing");
          // A single catalogue action: one click, and it is the declaration.
          await declareAlone("alice", "Dodge").click();
          await expect
            .poll(async () => (await agreed()).rows.find((r) => r.startsWith("Aria")))
            .toContain("|Dodge 2 AP");
        } else if (who === "Brom" && round === 1) {
          await (await pick("bob", "Dodge")).click();
          await expect.poll(() => frames.bob.locator(".si-dr-chips--draft li").count()).toBe(1);
          await (await pick("bob", "Melee Attack")).click();
          await expect
            .poll(() => text(frames.bob, "[data-si=dr-legality]"))
            .toBe("Those actions cost 6 AP, but only 5 AP of the 5 AP budget are available this round.");
          await shot("dr-over-budget");
          await frames.bob.locator('button[data-action="siDrDeclare"]').click();
          await expect.poll(() => toasts("bob")).toContain("Those actions cost 6 AP");
          await frames.bob.locator('button[data-action="siDrUnpick"][data-entry="1"]').click();
          await expect.poll(() => text(frames.bob, "[data-si=dr-legality]")).toBe("It fits: 3 AP are left.");
          await frames.bob.locator('button[data-action="siDrDeclare"]').click();
        } else if (who === "Brom") await declareAlone("bob", "Melee Attack").click();
        else if (who === "Officer") {
          // Two jabs: the second resolves after everyone's first actions.
          const combine = frames.gm.locator(".si-dr-declare details.si-dr-combine");
          await combine.locator("summary").click();
          for (let j = 0; j < 2; j++) {
            const form = frames.gm.locator(".si-dr-custom");
            await form.locator('input[data-field="name"]').fill("Jab");
            await form.locator('input[data-field="cost"]').fill("1");
            await form.locator('select[data-field="kind"]').selectOption("attack");
            await form.locator('button[data-action="siDrAddCustom"]').click();
            await expect.poll(() => frames.gm.locator(".si-dr-chips--draft li").count()).toBe(j + 1);
          }
          await shot("dr-declare-gm");
          await frames.gm.locator('button[data-action="siDrDeclare"]').click();
        } else if (step % 2 === 0) {
          await declareAlone("gm", "Melee Attack").click();
          await expect
            .poll(async () => (await agreed()).rows.find((r) => r.startsWith(`${who}|`)))
            .toContain("|Melee Attack 4 AP");
        } else await frames.gm.locator('button[data-action="siDrDeclareNone"]').click();
      } else if (s.step === "Resolve actions" || s.step === "Extra attacks") {
        if (s.step === "Extra attacks") await shot("dr-extra-attacks");
        else if (round === 1) await shot("dr-resolve");
        await frames[owner].locator('button[data-action="siNextTurn"]').click();
      } else if (s.step === "Upkeep") {
        const bromRow = frames.alice.locator(".si-row", { hasText: "Brom" });
        await expect
          .poll(() => bromRow.locator("[data-si=dr-upkeep]").textContent())
          .toContain("loses 2 hits to bleeding");
        expect(await frames.alice.locator('button[data-action="siDrUpkeep"]').count()).toBe(0);
        await shot("dr-upkeep");
        await frames.gm.locator('button[data-action="siDrUpkeep"]').click();
      } else await frames.gm.locator('button[data-action="siNextTurn"]').click();
      const key = JSON.stringify(s);
      await agreed((x) => JSON.stringify(x) !== key);
    }
    await agreed((s) => s.round === "Round 4");
    // Three upkeeps took 2 hits each from Brom's 30, announced in every view's chat.
    const hits = await frames.gm.evaluate(
      () =>
        (
          window as unknown as { game: { actors: { getName(n: string): { system: { hits: number } } } } }
        ).game.actors.getName("Brom").system.hits,
    );
    expect(hits).toBe(24);
    expect(await frames.bob.locator(".pg-chat__flavor", { hasText: "Upkeep at the end of round 3" }).count()).toBe(1);
    expect(session.errors).toEqual([]);
  });

  it("the GM edits the action catalogue in its settings form: an invalid row is shown and nothing is saved", async () => {
    frames = await loadViews(session, "sample=declare-resolve&seed=3");
    await agreed((s) => s.rows.length === 6);
    // Open the settings menu's form as Foundry's settings window would.
    await frames.gm.evaluate(async () => {
      const g = (window as unknown as { game: { settings: { menus: Map<string, { type: new () => unknown }> } } }).game;
      const App = g.settings.menus.get("structured-initiative.drCatalogueMenu")?.type;
      if (App === undefined) throw new Error("no catalogue menu");
      const app = new App() as { render(force: boolean): Promise<unknown>; element: HTMLElement };
      await app.render(true);
      Object.assign(app.element.style, {
        position: "fixed",
        inset: "1rem",
        zIndex: "100",
        overflow: "auto",
        padding: "0.75rem",
        background: "var(--pg-panel, #1d1f24)",
        border: "1px solid #888",
      });
      document.body.append(app.element);
    });
    const form = frames.gm.locator("form.si-dr-catalogue");
    await expect.poll(() => form.locator(".si-dr-catalogue__row").count()).toBe(3);
    await form.locator('button[data-action="siDrCatalogueAdd"]').click();
    await expect.poll(() => form.locator(".si-dr-catalogue__row").count()).toBe(4);
    const row = form.locator(".si-dr-catalogue__row").nth(3);
    await row.locator('input[data-field="name"]').fill("Parry");
    await row.locator('input[data-field="cost"]').fill("-1");
    await row.locator('select[data-field="kind"]').selectOption("defence");
    await row.locator('input[data-field="def"]').fill("1.5");
    await form.locator('button[type="submit"]').click();
    // Every error of the row is shown, not only the first; each invalid field is marked, the first focused.
    await expect
      .poll(() => form.locator(".si-dr-catalogue__error li").allTextContents())
      .toEqual([
        "The AP cost must be a whole number from 0 to 99.",
        "The DEF change must be a whole number from -99 to 99, or empty.",
      ]);
    expect(
      await form.locator('[aria-invalid="true"]').evaluateAll((els) => els.map((el) => el.getAttribute("name"))),
    ).toEqual(["cost-3", "def-3"]);
    await expect.poll(() => frames.gm.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("cost-3");
    expect(await toasts("gm")).toContain("The action catalogue was not saved");
    await screenshots(session.page, "dr-catalogue-invalid");
    // What was typed is kept; corrected, it saves and the form closes.
    expect(await row.locator('input[data-field="name"]').inputValue()).toBe("Parry");
    await row.locator('input[data-field="cost"]').fill("1");
    await row.locator('input[data-field="def"]').fill("3");
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => form.count()).toBe(0);
    const saved = await frames.alice.evaluate(() =>
      (window as unknown as { game: { settings: { get(a: string, b: string): string } } }).game.settings.get(
        "structured-initiative",
        "drCatalogue",
      ),
    );
    expect(JSON.parse(saved)).toEqual({
      entries: [
        { name: "Dodge", cost: 2, kind: "defence", def: 0 },
        { name: "Melee Attack", cost: 4, kind: "attack", def: 0 },
        { name: "Power Attack", cost: 7, kind: "attack", def: 0 },
        { name: "Parry", cost: 1, kind: "defence", def: 3 },
      ],
    });
    // The declaration form's catalogue buttons show each action's DEF change (issue 27 item 4).
    await frames.gm.locator('button[data-action="siDrRollAll"]').click();
    await agreed((s) => s.rolls === "");
    for (let i = 0; i < 6 && (await frames.gm.locator('button[data-action="siDrOrderTied"]').count()) > 0; i++) {
      await frames.gm.locator('button[data-action="siDrOrderTied"]').first().click();
      await agreed();
    }
    await frames.gm.locator('button[data-action="siStart"]').click();
    await agreed((s) => s.step === "Declare actions");
    for (const action of ["siDrDeclareEntry", "siDrPick"])
      await expect
        .poll(() => frames.gm.locator(`button[data-action="${action}"]`).allTextContents())
        .toEqual(["Dodge · 2 AP", "Melee Attack · 4 AP", "Power Attack · 7 AP", "Parry · 1 AP · DEF +3"]);
    await screenshots(session.page, "dr-catalogue-def-buttons");
    expect(session.errors).toEqual([]);
  });
});
