/**
 * The hesitation countdown and undo (issue 27 item 1): whatever brings a declarer back (previous
 * round, previous turn, the GM's correction of a side roll) gives a fresh, full countdown counted
 * from the moment the undo was applied, on every client; a hesitation the countdown caused is undone
 * by previous turn like any other step; the GM pauses and resumes the countdown at any time of the
 * declaration step, while an NPC declares too, and every client sees it paused. Every client runs on
 * the sim's manual clock (`sim.clock.advance`), never the wall clock.
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { combatOn, expectNoErrors } from "./world.js";
import {
  ALICE,
  BOB,
  cid,
  expectSidesAgreement,
  rollSideAs,
  run,
  sidesApi,
  sidesEncounter,
  sidesOn,
  sidesWorld,
  type D6Key,
} from "./sides-world.js";

const COUNTDOWN = { "structured-initiative.sidesCountdown": 3 };

interface TrackerApp {
  render(options?: object): Promise<unknown>;
  parts: Record<string, string>;
}

/** The rendered countdown badge of a client's tracker: its seconds, or "paused", or null for none. */
async function countdownOn(client: SimClient): Promise<string | null> {
  const app = client.ui.combat as TrackerApp;
  await app.render();
  const html = Object.values(app.parts).join("");
  if (/si-badge--wait">Countdown paused</.test(html)) return "paused";
  return /role="timer"[^>]*>(\d+)</.exec(html)?.[1] ?? null;
}

function declarationOf(sim: Sim, key: D6Key) {
  return sidesOn(sim.gm).declarations.filter((d) => d.combatantId === cid(sim.gm, key));
}

/** Heroes (Jaluun, then Ace: Perception lowest first) roll low and declare first; the Foes after. */
async function heroesDeclareFirst(): Promise<Sim> {
  const sim = await sidesWorld({ settings: COUNTDOWN, manualClock: true, renderTemplates: true });
  await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
  await run(sim, sim.gm, { type: "start" });
  await rollSideAs(sim, "Heroes", [1, 1, 1]);
  await rollSideAs(sim, "Foes", [6, 6, 6, 6]);
  return sim;
}

/** Heroes roll high: the Foes (NPCs) declare first. */
async function foesDeclareFirst(): Promise<Sim> {
  const sim = await sidesWorld({ settings: COUNTDOWN, manualClock: true, renderTemplates: true });
  await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
  await run(sim, sim.gm, { type: "start" });
  await rollSideAs(sim, "Heroes", [6, 6, 6]);
  await rollSideAs(sim, "Foes", [1, 1, 1, 1]);
  return sim;
}

async function declareAs(sim: Sim, client: SimClient, key: D6Key, actions: string[]): Promise<void> {
  const result = await sidesApi(client).declare(combatOn(client), cid(client, key), actions, false);
  expect(result, key).toEqual({ ok: true });
  await sim.settle();
}

describe("the countdown after an undo", () => {
  it("previous round into a PC's declaration 10 s after it was first shown: a fresh 3 s from the undo", async () => {
    const sim = await heroesDeclareFirst();
    const bob = sim.client(BOB);
    expect(sidesOn(sim.gm).step).toBe("declaration");
    // Jaluun's declaration is shown now; everyone declares within a second.
    await sim.clock.advance(500);
    await declareAs(sim, bob, "jaluun", ["Fire"]);
    await declareAs(sim, sim.client(ALICE), "ace", ["Dodge"]);
    await declareAs(sim, sim.gm, "trooper1", ["Shoot"]);
    await declareAs(sim, sim.gm, "officer", ["Shoot"]);
    expect(sidesOn(sim.gm).step).toBe("pass");
    await run(sim, sim.gm, { type: "nextRound" });
    expect(sidesOn(sim.gm).round).toBe(2);
    // 10 s after Jaluun's declaration was first shown, the GM goes back to round 1's declarations.
    await sim.clock.advance(9500);
    expect(await run(sim, sim.gm, { type: "previousRound" })).toEqual({ ok: true });
    await sim.settle();
    const state = sidesOn(sim.gm);
    expect([state.round, state.step, state.declarations]).toEqual([1, "declaration", []]);
    // Every client shows the whole countdown, not a deadline long past.
    for (const client of [sim.gm, sim.client(ALICE), bob]) expect(await countdownOn(client)).toBe("3");
    // Nobody hesitates until 3 s after the undo.
    await sim.clock.advance(2999);
    expect(sidesOn(sim.gm).declarations).toEqual([]);
    expect(await countdownOn(bob)).toBe("1");
    await sim.clock.advance(1);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true, actions: [] }]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("previous turn undoes a hesitation the countdown caused, with a fresh countdown", async () => {
    const sim = await heroesDeclareFirst();
    await sim.clock.advance(3000);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true }]);
    // Ace declares now; a second later the GM gives Jaluun another chance.
    await sim.clock.advance(1000);
    expect(await run(sim, sim.gm, { type: "previousTurn" })).toEqual({ ok: true });
    await sim.settle();
    expect(sidesOn(sim.gm).declarations).toEqual([]);
    expect(await countdownOn(sim.client(BOB))).toBe("3");
    await sim.clock.advance(2999);
    expect(sidesOn(sim.gm).declarations).toEqual([]);
    // Bob declares in time: the chance was real.
    await declareAs(sim, sim.client(BOB), "jaluun", ["Fire", "Run"]);
    expect(declarationOf(sim, "jaluun")).toMatchObject([
      { hesitated: false, actions: [{ text: "Fire" }, { text: "Run" }] },
    ]);
    // Ace's countdown began with Jaluun's declaration: 3 s from then.
    await sim.clock.advance(2999);
    expect(declarationOf(sim, "ace")).toEqual([]);
    await sim.clock.advance(1);
    expect(declarationOf(sim, "ace")).toMatchObject([{ hesitated: true }]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("previous turn back to the same declarer (a declaration undone) restarts its countdown", async () => {
    const sim = await heroesDeclareFirst();
    await sim.clock.advance(1000);
    await declareAs(sim, sim.client(BOB), "jaluun", ["Fire"]);
    // Ace declares now; after 2.5 s the GM undoes Jaluun's declaration, and redoes it at once.
    await sim.clock.advance(2500);
    expect(await run(sim, sim.gm, { type: "previousTurn" })).toEqual({ ok: true });
    await sim.settle();
    expect(sidesOn(sim.gm).declarations).toEqual([]);
    await sim.clock.advance(2999);
    expect(sidesOn(sim.gm).declarations).toEqual([]);
    await sim.clock.advance(1);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true }]);
    expectNoErrors(sim);
  });

  it("the GM's correction of a side roll in the declaration step gives a fresh countdown", async () => {
    const sim = await heroesDeclareFirst();
    await sim.clock.advance(2500);
    // The GM corrects the Foes' roll (still higher): Jaluun still declares first, from a fresh start.
    const foes = sidesOn(sim.gm).sides.find((s) => s.name === "Foes")?.id ?? "";
    expect(await run(sim, sim.gm, { type: "recordSideRoll", sideId: foes, total: 20, typed: true })).toEqual({
      ok: true,
    });
    await sim.settle();
    await sim.clock.advance(2999);
    expect(sidesOn(sim.gm).declarations).toEqual([]);
    await sim.clock.advance(1);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true }]);
    expectNoErrors(sim);
  });
});

describe("the GM's pause", () => {
  it("pauses while an NPC declares; every client sees it; resuming gives a fresh countdown", async () => {
    const sim = await foesDeclareFirst();
    const gm = combatOn(sim.gm);
    const bob = sim.client(BOB);
    // Trooper 1 (an NPC) declares now: nothing counts, but the GM may pause already.
    expect(await countdownOn(sim.gm)).toBe(null);
    expect(await sidesApi(sim.gm).pauseClock(gm, true)).toEqual({ ok: true });
    await sim.settle();
    for (const client of [sim.gm, sim.client(ALICE), bob]) expect(await countdownOn(client)).toBe("paused");
    await declareAs(sim, sim.gm, "trooper1", ["Shoot"]);
    await declareAs(sim, sim.gm, "officer", ["Shoot"]);
    // Jaluun declares now, and the countdown stays paused for as long as the GM likes.
    await sim.clock.advance(60_000);
    expect(declarationOf(sim, "jaluun")).toEqual([]);
    expect(await countdownOn(bob)).toBe("paused");
    expect(await sidesApi(sim.gm).pauseClock(gm, false)).toEqual({ ok: true });
    await sim.settle();
    expect(await countdownOn(bob)).toBe("3");
    await sim.clock.advance(2999);
    expect(declarationOf(sim, "jaluun")).toEqual([]);
    await sim.clock.advance(1);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true }]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("a player cannot pause: the pause is the GM's, stored on the encounter", async () => {
    const sim = await heroesDeclareFirst();
    const bob = sim.client(BOB);
    const result = await sidesApi(bob).pauseClock(combatOn(bob), true);
    expect(result).toMatchObject({ ok: false });
    await sim.clock.advance(3000);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true }]);
    expectNoErrors(sim);
  });
});
