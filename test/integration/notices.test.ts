/**
 * Players' notices (issue 16 item 3) in the simulated Foundry: "your turn", "you may claim now"
 * (slots), "declare now" (sides, declare-resolve) and "the heroes act" (phases) reach only the client
 * of the user who owns the combatant, never a GM, once per change: not again on a re-render, on an
 * update that leaves them as they were, or on an undo for someone who is not up again. The sound plays
 * only where the user's client setting asks for it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, type Sim, type SimClient } from "../sim/index.js";
import {
  ALICE,
  BOB,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  rollAs,
  start,
  turnsOn,
  world,
} from "./world.js";
import { rollChecks, slotsEncounter } from "./slots-world.js";
import { declare as declareIntent, phasesEncounter, phasesWorld, send } from "./phases-world.js";
import { cid, rollSideAs, run, sidesApi, sidesEncounter, sidesWorld } from "./sides-world.js";
import { commandAs, declareAs, drEncounter, drWorld, rollIPs } from "./declare-resolve-world.js";

const NOTICE = (
  JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, "lang/en.json"), "utf8")) as {
    STRUCTURED_INITIATIVE: { Notice: Record<string, string> };
  }
).STRUCTURED_INITIATIVE.Notice;

/** The English notice of a kind, naming the combatant. */
function notice(kind: string, name = ""): string {
  const text = NOTICE[kind];
  if (text === undefined) throw new Error(`en.json has no notice "${kind}"`);
  return text.replace("{name}", name);
}

/** A client's info notifications (the notices). */
function infoOn(client: SimClient): string[] {
  return client.notifications.filter((n) => n.type === "info").map((n) => n.message);
}

/** Every client's notices, by user. */
function noticesOf(sim: Sim): Record<string, string[]> {
  return Object.fromEntries(sim.clients.map((c) => [c.userId, infoOn(c)]));
}

const GM_ID = "gmUser0000000001";

/** Aria (Alice) 18, Officer 12, Brom (Bob) 6: individual, started. */
async function individualBattle(): Promise<Sim> {
  const sim = await world();
  await encounter(sim, ["aria", "brom", "officer"]);
  await rollAs(sim, { aria: 15, brom: 5, officer: 10 });
  await start(sim);
  return sim;
}

async function gmCommand(sim: Sim, command: Record<string, unknown>): Promise<void> {
  await apiOn(sim.gm).command(combatOn(sim.gm), command);
  await sim.settle();
}

describe("your turn", () => {
  it("to the owner only, once per change; a GM never; an undo tells only who is up again", async () => {
    const sim = await individualBattle();
    const yours = notice("Turn", "Aria");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [yours], [BOB]: [] });
    // A re-render and an update that leaves the turn as it was say nothing more.
    await (sim.client(ALICE).ui.combat as { render(): Promise<unknown> }).render();
    await combatOn(sim.gm).update({ flags: { world: { weather: "rain" } } });
    await sim.settle();
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [yours], [BOB]: [] });
    // The Officer (an NPC): nobody; Brom: Bob.
    await gmCommand(sim, { type: "nextTurn" });
    expect(turnsOn(sim.gm).current).toBe("Officer");
    await gmCommand(sim, { type: "nextTurn" });
    const bobs = notice("Turn", "Brom");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [yours], [BOB]: [bobs] });
    // Back to the Officer: Bob is no longer up, nobody is told; back to Aria: Alice is up again.
    await gmCommand(sim, { type: "previousTurn" });
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [yours], [BOB]: [bobs] });
    await gmCommand(sim, { type: "previousTurn" });
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [yours, yours], [BOB]: [bobs] });
    expectNoErrors(sim);
  });

  it("a new round brings the same combatant's turn round again: told again", async () => {
    const sim = await individualBattle();
    for (let i = 0; i < 3; i++) await gmCommand(sim, { type: "nextTurn" });
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Aria", round: 2 });
    expect(infoOn(sim.client(ALICE))).toEqual([notice("Turn", "Aria"), notice("Turn", "Aria")]);
  });

  it("the sound plays only on a client whose setting is on (off by default), never for everyone", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 15, brom: 5, officer: 10 });
    const alice = sim.client(ALICE);
    expect(alice.game.settings.get("structured-initiative", "noticeSound")).toBe(false);
    await alice.game.settings.set("structured-initiative", "noticeSound", true);
    await start(sim);
    expect(infoOn(alice)).toEqual([notice("Turn", "Aria")]);
    expect(alice.sounds).toEqual([
      { src: "sounds/notify.wav", volume: 0.8, autoplay: true, loop: false, broadcast: false },
    ]);
    for (let i = 0; i < 2; i++) await gmCommand(sim, { type: "nextTurn" });
    expect(infoOn(sim.client(BOB))).toEqual([notice("Turn", "Brom")]);
    expect(sim.client(BOB).sounds).toEqual([]);
    expect(sim.gm.sounds).toEqual([]);
    expect(alice.sounds).toHaveLength(1);
  });
});

describe("each mode's own notices", () => {
  it("slots: an open PC slot tells every player who may claim it; the claimer then hears it is their turn", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
    await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2] });
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    const claim = notice("Claim");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [claim], [BOB]: [claim] });
    await sim.client(BOB).pressKey("claimSlot");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [claim], [BOB]: [claim, notice("Turn", "Brom")] });
    // The NPC slot: nobody; the second PC slot: only Alice may still claim it.
    await sim.gm.pressKey("nextTurn");
    await gmCommand(sim, { type: "fillSlot", slot: 1, combatantId: idOf(sim.gm, "officer") });
    await sim.gm.pressKey("nextTurn");
    expect(noticesOf(sim)).toEqual({
      [GM_ID]: [],
      [ALICE]: [claim, claim],
      [BOB]: [claim, notice("Turn", "Brom")],
    });
    expectNoErrors(sim);
  });

  it("sides: each character's owner is told when it declares now, then when its action comes up", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    await rollSideAs(sim, "Heroes", [1, 1, 1]);
    await rollSideAs(sim, "Foes", [6, 6, 6, 6]);
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [], [BOB]: [notice("Declare", "Jaluun")] });
    const bob = sim.client(BOB);
    await sidesApi(bob).declare(combatOn(bob), cid(bob, "jaluun"), ["Shoot"], false);
    await sim.settle();
    expect(noticesOf(sim)).toEqual({
      [GM_ID]: [],
      [ALICE]: [notice("Declare", "Ace")],
      [BOB]: [notice("Declare", "Jaluun")],
    });
    const alice = sim.client(ALICE);
    await sidesApi(alice).declare(combatOn(alice), cid(alice, "ace"), ["Dodge", "Shoot"], false);
    await sim.settle();
    await sidesApi(sim.gm).declare(combatOn(sim.gm), cid(sim.gm, "officer"), ["Shoot"], false);
    await sim.settle();
    // Pass 1 by Dexterity: Ace (3D+2, Per 3D) before Jaluun (3D+2, Per 2D+1), then the Officer.
    expect(turnsOn(sim.gm).current).toBe("Ace");
    expect(infoOn(alice)).toEqual([notice("Declare", "Ace"), notice("Turn", "Ace")]);
    expect(infoOn(bob)).toEqual([notice("Declare", "Jaluun")]);
    expectNoErrors(sim);
  });

  it("declare-resolve: the slowest declares first, and its owner is told so", async () => {
    const sim = await drWorld();
    await drEncounter(sim, ["aria", "brom", "officer"]);
    // Brom 9, Aria 14, Officer 16: Brom declares first, then Aria.
    await rollIPs(sim, { aria: [5, 5], brom: [3, 3], officer: [6, 6] });
    await commandAs(sim, sim.gm, { type: "start" });
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [], [BOB]: [notice("Declare", "Brom")] });
    expect(await declareAs(sim, sim.client(BOB), "brom", [{ catalogue: "Dodge" }])).toMatchObject({ ok: true });
    expect(noticesOf(sim)).toEqual({
      [GM_ID]: [],
      [ALICE]: [notice("Declare", "Aria")],
      [BOB]: [notice("Declare", "Brom")],
    });
    expectNoErrors(sim);
  });

  it("phases: the heroes' phase tells each player once; a hero's turn tells its owner", async () => {
    const sim = await phasesWorld();
    await phasesEncounter(sim, ["aria", "brom", "officer"]);
    await send(sim, sim.gm, { type: "start", surprise: false });
    await declareIntent(sim, "officer", "Blaster at Aria", ["aria"]);
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [], [BOB]: [] });
    await send(sim, sim.gm, { type: "nextPhase" });
    const heroes = notice("Heroes");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [heroes], [BOB]: [heroes] });
    await sim.client(ALICE).pressKey("takeTurn");
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [heroes, notice("Turn", "Aria")], [BOB]: [heroes] });
    // Aria's turn ends: Bob's Brom may still act, and he is not told a second time (issue 28, item 5).
    await send(sim, sim.client(ALICE), { type: "endTurn", combatantId: idOf(sim.gm, "aria") });
    expect(noticesOf(sim)).toEqual({ [GM_ID]: [], [ALICE]: [heroes, notice("Turn", "Aria")], [BOB]: [heroes] });
    // Brom's own turn is still his "your turn".
    await sim.client(BOB).pressKey("takeTurn");
    expect(noticesOf(sim)[BOB]).toEqual([heroes, notice("Turn", "Brom")]);
    expectNoErrors(sim);
  });
});
