/**
 * End to end, in Chromium (issue 29, "fewest clicks"): the common steps of each mode, played in the
 * playground's sample with real clicks, each click, choice in a select and tick made through one
 * counting hand ({@link Hand}); a step's count is asserted together with what the rules then hold
 * (the action happened). The set-up between the counted steps (typed checks, other combatants'
 * declarations) goes through the module's API, as the step tour does (test/e2e/tour.ts). One
 * playground load per mode.
 *
 * The table of counts (each step against the count before issue 29's layout work and against core's
 * tracker) is printed and written to test-artefacts/clicks.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Frame } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import "../../playground/host.js";
import { ARTEFACTS, GENERATION, loadViews, startIndividual, useSession, type View } from "./browser.js";
import { SEEDS, read, recordChecks, recordIPs, send, settle, type Command, type Mode } from "./tour.js";

const session = useSession();

/**
 * The user's hand: every click, choice in a select and tick of a counted step goes through it and is
 * counted; typing is not a click, but putting the caret in a field is.
 */
class Hand {
  readonly used: string[] = [];

  /** Click the one element `selector` finds in the view (inside the row named `row`, when given). */
  async click(frame: Frame, selector: string, row?: string): Promise<void> {
    const scope = row === undefined ? frame.locator("#pg-combat") : rowOf(frame, row);
    const target = scope.locator(selector);
    await target.click();
    this.used.push(`click ${selector}${row === undefined ? "" : ` in ${row}`}`);
  }

  /** Click into a text field, then type `text`. */
  async type(frame: Frame, selector: string, row: string, text: string): Promise<void> {
    await this.click(frame, selector, row);
    await frame.page().keyboard.type(text);
  }
}

/** A combatant's row in a view, by its exact name. */
function rowOf(frame: Frame, name: string) {
  return frame.locator(".si-row").filter({
    has: frame.locator(".si-row__name", { hasText: new RegExp(`^${name}$`, "u") }),
  });
}

/** Count the clicks `act` makes with a fresh hand; the clicks it used. */
async function counted(act: (hand: Hand) => Promise<void>): Promise<string[]> {
  const hand = new Hand();
  await act(hand);
  return hand.used;
}

/** One row of the table of counts. */
interface Counted {
  readonly mode: Mode;
  readonly step: string;
  readonly who: string;
  readonly clicks: number;
  /** What issue 29 measured before its layout work, and what core's tracker takes for the same. */
  readonly before: string;
  readonly core: string;
}

const table: Counted[] = [];

/** Record a counted step and assert its count. */
function record(row: Omit<Counted, "clicks">, used: readonly string[], expected: number): void {
  table.push({ ...row, clicks: used.length });
  expect(used.length, `${row.mode}: ${row.step} (${used.join("; ")})`).toBe(expected);
}

afterAll(() => {
  if (table.length === 0) return;
  const lines = [
    `# Clicks per common step, Foundry v${String(GENERATION)} playground (test/e2e/clicks.e2e.test.ts)`,
    "",
    "| mode | step | who | clicks | before (issue 29) | core |",
    "|---|---|---|---|---|---|",
    ...table.map((r) => `| ${r.mode} | ${r.step} | ${r.who} | ${String(r.clicks)} | ${r.before} | ${r.core} |`),
  ];
  mkdirSync(ARTEFACTS, { recursive: true });
  writeFileSync(path.join(ARTEFACTS, `clicks-v${String(GENERATION)}.md`), `${lines.join("\n")}\n`);
  console.log(lines.join("\n"));
});

/** What the rules say now, as the GM's client has them: who acts now (by name) and the step. */
async function rules(frame: Frame): Promise<{ current: string; step: string }> {
  const reading = await read(frame);
  const view = JSON.parse(reading.view) as { step?: string } | null;
  return { current: reading.current, step: view?.step ?? "" };
}

/** Wait until the GM's client's rules satisfy `check`; return them. */
async function rulesWhen(
  frames: Record<View, Frame>,
  check: (r: Awaited<ReturnType<typeof rules>>) => boolean,
): Promise<Awaited<ReturnType<typeof rules>>> {
  let last = await rules(frames.gm);
  await expect
    .poll(
      async () => {
        last = await rules(frames.gm);
        return check(last);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  await settle(frames);
  return last;
}

/** The view of the user who owns a combatant of the samples (the GM for every foe). */
function ownerOf(name: string): View {
  return name === "Aria" ? "alice" : name === "Brom" ? "bob" : "gm";
}

/**
 * A turn in any mode: the owner of the combatant acting now ends it with the footer's one button
 * (End turn for a player, Next turn for the GM); the rules then name someone else, or the step moves on.
 */
async function endTurn(frames: Record<View, Frame>, mode: Mode): Promise<void> {
  const before = await rules(frames.gm);
  const who = ownerOf(before.current);
  const used = await counted((hand) => hand.click(frames[who], '.si-footer button[data-action="siNextTurn"]'));
  await rulesWhen(frames, (r) => r.current !== before.current || r.step !== before.step);
  record(
    {
      mode,
      step: `a turn: ${before.current} ends it`,
      who: who === "gm" ? "GM" : "player",
      before: "1",
      core: "1",
    },
    used,
    1,
  );
}

/** Load a mode's sample (the tour's seed) and wait for it. */
async function load(mode: Mode): Promise<Record<View, Frame>> {
  const frames = await loadViews(session, `sample=${mode}&seed=${String(SEEDS[mode])}`);
  await settle(frames);
  return frames;
}

describe("clicks per common step (issue 29)", () => {
  it("individual: a turn is one click for the acting combatant's player", async () => {
    const frames = await load("individual");
    const totals: Record<string, number> = { Aria: 20, Brom: 18, Officer: 16, "Trooper 1": 14, "Trooper 2": 12 };
    totals["Trooper 3"] = 10;
    await startIndividual(frames.gm, totals, 1);
    await rulesWhen(frames, (r) => r.current === "Brom");
    await endTurn(frames, "individual");
    expect((await rules(frames.gm)).current).toBe("Officer");
    expect(session.errors).toEqual([]);
  });

  it("sides: a turn in the resolution is one click for its owner", async () => {
    const frames = await load("sides");
    await send(frames.gm, [{ type: "start" }]);
    await settle(frames, { gm: ".si-sides__list .si-side" });
    const sides = await frames.gm.evaluate(() =>
      Array.from(document.querySelectorAll(".si-sides__list .si-side")).map((side) => ({
        id: (side.getAttribute("data-si-key") ?? "").replace(/^side:/u, ""),
        foes: side.textContent.includes("Foes"),
      })),
    );
    await send(
      frames.gm,
      sides.map((side) => ({ type: "recordSideRoll", sideId: side.id, total: side.foes ? 8 : 14 })),
    );
    for (let i = 0; i < 8; i++) {
      const { current, step } = await rules(frames.gm);
      if (step !== "declaration" || current === "") break;
      await send(frames.gm, [
        { type: "declare", combatantId: `@${current}`, actions: [{ text: "Fire" }], forcePoint: false },
      ]);
      await rulesWhen(frames, (r) => r.current !== current || r.step !== step);
    }
    await rulesWhen(frames, (r) => r.step === "pass" && r.current !== "");
    // Whoever acts first ends the turn (the GM for a foe); then, once a hero acts, their player does.
    await endTurn(frames, "sides");
    for (let i = 0; i < 8 && !["Aria", "Brom"].includes((await rules(frames.gm)).current); i++) {
      const now = await rules(frames.gm);
      await send(frames.gm, [{ type: "nextTurn" }]);
      await rulesWhen(frames, (r) => r.current !== now.current || r.step !== now.step);
    }
    expect(["Aria", "Brom"]).toContain((await rules(frames.gm)).current);
    await endTurn(frames, "sides");
    expect(session.errors).toEqual([]);
  });

  it("slots: a claim is two clicks (claim, end turn); a fill is two, the same with four candidates and with three", async () => {
    const frames = await load("slots");
    await send(frames.gm, [...recordChecks(), { type: "start" }]);
    await settle(frames, { bob: 'button[data-action="siSlotClaim"]' });
    /** The open slot's index (`data-slot`), as the GM's strip marks it. */
    const slot = async (): Promise<string> =>
      String(Number(await frames.gm.locator(".si-slot--current .si-slot__number").textContent()) - 1);

    // Slot 1 (PC): Bob claims it for Brom, Brom acts, Bob ends the turn.
    const claimed = await counted(async (hand) => {
      await hand.click(frames.bob, `button[data-action="siSlotClaim"][data-slot="${await slot()}"]`, "Brom");
    });
    await rulesWhen(frames, (r) => r.current === "Brom");
    const ended = await counted((hand) => hand.click(frames.bob, '.si-footer button[data-action="siNextTurn"]'));
    await rulesWhen(frames, (r) => r.current !== "Brom");
    await expect
      .poll(() =>
        rowOf(frames.gm, "Brom")
          .locator(".si-badge", { hasText: /^Acted$/u })
          .count(),
      )
      .toBe(1);
    record(
      { mode: "slots", step: "claim a slot (claim, end turn)", who: "player", before: "2", core: "—" },
      [...claimed, ...ended],
      2,
    );
    record({ mode: "slots", step: "a turn: Brom ends it", who: "player", before: "1", core: "1" }, ended, 1);

    // Slot 2 (NPC), four candidates; then slot 3 (PC) Alice's; then slot 4 (NPC), three candidates.
    const fills = async (): Promise<string> =>
      `.si-row__body button[data-action="siSlotFill"][data-slot="${await slot()}"]`;
    const firstFillRow = async (): Promise<string> =>
      frames.gm
        .locator(await fills())
        .first()
        .evaluate((b) => (b.closest(".si-row")?.querySelector(".si-row__name")?.textContent ?? "").trim());
    /**
     * The GM fills the open NPC slot with the first candidate (`candidates` rows offer it) and moves
     * on; the filler has then acted. The step is recorded with its count; the clicks are returned.
     */
    const fill = async (candidates: number, before: string): Promise<string[]> => {
      const name = await firstFillRow();
      await expect
        .poll(() => frames.gm.locator('.si-row__body button[data-action="siSlotFill"]').count())
        .toBe(candidates);
      const used = await counted(async (hand) => {
        await hand.click(frames.gm, 'button[data-action="siSlotFill"]', name);
        await rulesWhen(frames, (r) => r.current === name);
        await hand.click(frames.gm, '.si-footer button[data-action="siNextTurn"]');
      });
      await rulesWhen(frames, (r) => r.current !== name);
      await expect
        .poll(() =>
          rowOf(frames.gm, name)
            .locator(".si-badge", { hasText: /^Acted$/u })
            .count(),
        )
        .toBe(1);
      const step = `fill an NPC slot, ${String(candidates)} candidates (fill, next turn)`;
      record({ mode: "slots", step, who: "GM", before, core: "—" }, used, 2);
      return used;
    };

    const four = await fill(4, "3 (select, Assign, next turn)");

    await settle(frames, { alice: 'button[data-action="siSlotClaim"]' });
    const alice = await counted(async (hand) => {
      await hand.click(frames.alice, `button[data-action="siSlotClaim"][data-slot="${await slot()}"]`, "Aria");
      await rulesWhen(frames, (r) => r.current === "Aria");
      await hand.click(frames.alice, '.si-footer button[data-action="siNextTurn"]');
    });
    await rulesWhen(frames, (r) => r.current !== "Aria");
    record({ mode: "slots", step: "claim a slot (claim, end turn)", who: "player", before: "2", core: "—" }, alice, 2);

    const three = await fill(3, "2 (a button per NPC, next turn)");
    // The same interaction whatever the number of candidates.
    expect(three.map((c) => c.replace(/ in .*$/u, ""))).toEqual(four.map((c) => c.replace(/ in .*$/u, "")));
    expect(session.errors).toEqual([]);
  });

  it("declare-resolve: one catalogue action is one click, the GM's and a player's; a resolved turn is one", async () => {
    const frames = await load("declare-resolve");
    await send(frames.gm, [...recordIPs(), { type: "start" }]);
    // The slowest declares first: Trooper 3, the GM's.
    await rulesWhen(frames, (r) => r.step === "declare" && r.current === "Trooper 3");
    await settle(frames, { gm: ".si-dr-declare" });
    const declared = (view: View, name: string) =>
      rowOf(frames[view], name).locator(".si-dr-chips:not(.si-dr-chips--draft) .si-dr-chip__name");
    const entry = (name: string) => `button[data-action="siDrDeclareEntry"]:has-text("${name}")`;
    const gm = await counted((hand) => hand.click(frames.gm, entry("Melee Attack"), "Trooper 3"));
    await rulesWhen(frames, (r) => r.current === "Trooper 2");
    await expect.poll(() => declared("gm", "Trooper 3").allTextContents()).toEqual(["Melee Attack"]);
    record(
      { mode: "declare-resolve", step: "declare one catalogue action", who: "GM", before: "2 or more", core: "—" },
      gm,
      1,
    );

    const attack = (name: string, cost: number): Command => ({ name, cost, kind: "attack", def: 0 });
    await send(frames.gm, [
      { type: "declare", combatantId: "@Trooper 2", actions: [attack("Melee Attack", 4)] },
      { type: "declare", combatantId: "@Trooper 1", actions: [] },
      { type: "declare", combatantId: "@Officer", actions: [attack("Jab", 1), attack("Jab", 1)] },
    ]);
    await rulesWhen(frames, (r) => r.current === "Brom");
    await settle(frames, { bob: ".si-dr-declare" });
    const bob = await counted((hand) => hand.click(frames.bob, entry("Melee Attack"), "Brom"));
    await rulesWhen(frames, (r) => r.current === "Aria");
    await expect.poll(() => declared("alice", "Brom").allTextContents()).toEqual(["Melee Attack"]);
    record(
      { mode: "declare-resolve", step: "declare one catalogue action", who: "player", before: "2 or more", core: "—" },
      bob,
      1,
    );

    await send(frames.gm, [
      { type: "declare", combatantId: "@Aria", actions: [{ name: "Dodge", cost: 2, kind: "defence", def: 0 }] },
    ]);
    // The fastest resolves first: Aria, Alice's; she ends her turn.
    await rulesWhen(frames, (r) => r.step === "resolve" && r.current === "Aria");
    await endTurn(frames, "declare-resolve");
    expect((await rules(frames.gm)).current).toBe("Brom");
    expect(session.errors).toEqual([]);
  });

  it("phases: a foe's intent with the one hero standing is two clicks; taking the turn, a skill roll and ending the turn one each", async () => {
    const frames = await load("phases");
    // Aria is down: Brom is the only hero standing, the obvious target.
    await send(frames.gm, [
      { type: "setDefeated", combatantId: "@Aria", defeated: true },
      { type: "start", surprise: false },
    ]);
    await settle(frames, { gm: ".si-phases-form[open]" });
    const foe = await frames.gm
      .locator(".si-phases-form[open]")
      .evaluate((form) => (form.closest(".si-row")?.querySelector(".si-row__name")?.textContent ?? "").trim());
    const form = rowOf(frames.gm, foe).locator(".si-phases-form");
    // Nothing to choose: an attack, on Brom, ticked.
    expect(await form.locator('select[name="structured-initiative-phases-kind"]').inputValue()).toBe("attack");
    expect(await form.locator('input[name="structured-initiative-phases-target"]:checked').count()).toBe(1);
    const intent = await counted(async (hand) => {
      await hand.type(frames.gm, 'input[name="structured-initiative-phases-intent"]', foe, "Blaster at Brom");
      await hand.click(frames.gm, 'button[data-action="siPhasesDeclare"]', foe);
    });
    const intents = rowOf(frames.gm, foe).locator(".si-phases-intent");
    await expect.poll(() => intents.count()).toBe(1);
    expect(await intents.locator(".si-phases-intent__text").textContent()).toBe("Blaster at Brom");
    expect(await intents.locator(".si-phases-intent__targets").textContent()).toContain("Brom");
    record(
      {
        mode: "phases",
        step: "declare a foe's intent, one hero standing (field, Declare)",
        who: "GM",
        before: "about 4 (open, type, target, Declare)",
        core: "—",
      },
      intent,
      2,
    );

    await send(frames.gm, [{ type: "nextPhase" }]);
    await rulesWhen(frames, (r) => r.step === "heroes");
    await settle(frames, { bob: 'button[data-action="siPhasesTakeTurn"]' });
    const take = await counted((hand) => hand.click(frames.bob, 'button[data-action="siPhasesTakeTurn"]', "Brom"));
    await rulesWhen(frames, (r) => r.current === "Brom");
    await expect.poll(() => rowOf(frames.bob, "Brom").locator(".si-phases-turn").count()).toBe(1);
    record(
      { mode: "phases", step: "take a hero's turn", who: "player", before: "1–5 a hero turn", core: "—" },
      take,
      1,
    );

    const roll = await counted((hand) => hand.click(frames.bob, 'button[data-action="siPhasesRoll"] >> nth=0', "Brom"));
    await expect.poll(() => rowOf(frames.gm, "Brom").locator("[data-si=last-roll]").count()).toBe(1);
    record(
      { mode: "phases", step: "a skill roll in the hero's turn", who: "player", before: "1–5 a hero turn", core: "—" },
      roll,
      1,
    );
    // A failed roll waits for the GM's answer, and then the turn is over: the end of a turn needs a success.
    const failed = await rowOf(frames.gm, "Brom").locator("[data-si=roll-outcome].si-badge--warn").count();
    expect(failed, "the seeded roll succeeds").toBe(0);
    await endTurn(frames, "phases");
    expect(session.errors).toEqual([]);
  });
});
