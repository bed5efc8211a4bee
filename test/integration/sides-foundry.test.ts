/**
 * `sides` in Foundry (issue 5): the GM edits sides (CombatantGroups) from the API or directly on the
 * documents and the rules state follows; two players declaring at once; a declaration out of turn;
 * the hesitation countdown, including a declaration in flight when it expires (exactly one
 * outcome); undo across steps and passes. Every client agrees throughout.
 */
import { describe, expect, it } from "vitest";
import { passOrder } from "../../src/modes/sides/rules/derived";
import type { Sim, SimCombat } from "../sim/index.js";
import { apiOn, combatOn, expectNoErrors, messagesOn, refusalText, serverCombatJson } from "./world.js";
import { ticks } from "../sim/utils.js";
import {
  ALICE,
  BOB,
  cid,
  d6Token,
  expectSidesAgreement,
  rollSideAs,
  run,
  sideId,
  sidesApi,
  sidesEncounter,
  sidesOn,
  sidesWorld,
  type D6Key,
} from "./sides-world.js";

/**
 * Heroes (Ace, Jaluun) against Foes (Officer, Trooper 1), started and rolled: Foes declare first.
 * Every client runs on the sim's manual clock: the countdown moves only with `sim.clock.advance`.
 */
async function declaring(settings: Record<string, number> = {}): Promise<Sim> {
  const sim = await sidesWorld({ settings, manualClock: true });
  await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
  await run(sim, sim.gm, { type: "start" });
  await rollSideAs(sim, "Heroes", [6, 6, 6]);
  await rollSideAs(sim, "Foes", [1, 1, 1, 1]);
  return sim;
}

/** The GM declares for the Foes so the Heroes' declarations come next (Jaluun, then Ace). */
async function foesDeclared(sim: Sim): Promise<void> {
  const gm = combatOn(sim.gm);
  await sidesApi(sim.gm).declare(gm, cid(sim.gm, "trooper1"), ["Shoot"], false);
  await sim.settle();
  await sidesApi(sim.gm).declare(gm, cid(sim.gm, "officer"), ["Shoot", "Cover"], false);
  await sim.settle();
}

function declarationOf(sim: Sim, key: D6Key) {
  return sidesOn(sim.gm).declarations.filter((d) => d.combatantId === cid(sim.gm, key));
}

describe("the GM edits sides", () => {
  it("adds a third side (a split), renames, recolours, moves and deletes; the state follows", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1", "trooper2"]);
    const gm = combatOn(sim.gm);
    const api = sidesApi(sim.gm);
    expect(await api.addSide(gm, "Pirates", "#6b3fa0", [cid(sim.gm, "trooper2")])).toEqual({ ok: true });
    await sim.settle();
    expect(await api.editSide(gm, sideId(sim.gm, "Foes"), "Imperials", "#aa0000")).toEqual({ ok: true });
    await sim.settle();
    expect(await api.moveToSide(gm, cid(sim.gm, "jaluun"), sideId(sim.gm, "Pirates"))).toEqual({ ok: true });
    await sim.settle();
    let state = sidesOn(sim.gm);
    const nameOf = (id: string | null) => state.sides.find((s) => s.id === id)?.name;
    expect(state.sides.map((s) => [s.name, s.colour])).toEqual([
      ["Heroes", "#2f7d4f"],
      ["Imperials", "#aa0000"],
      ["Pirates", "#6b3fa0"],
    ]);
    expect(state.combatants.map((c) => [c.name, nameOf(c.sideId)])).toEqual([
      ["Ace", "Heroes"],
      ["Jaluun", "Pirates"],
      ["Officer", "Imperials"],
      ["Trooper 1", "Imperials"],
      ["Trooper 2", "Pirates"],
    ]);
    // A group edited directly (Foundry's own UI or a macro) is mirrored too.
    const group = gm.groups.get(sideId(sim.gm, "Heroes"));
    await group?.update({ name: "Rebels" });
    await sim.settle();
    await sim.settle();
    state = sidesOn(sim.gm);
    expect(state.sides.map((s) => s.name)).toEqual(["Rebels", "Imperials", "Pirates"]);
    // A side with members cannot be deleted; once empty it can.
    expect(await api.deleteSide(gm, sideId(sim.gm, "Pirates"))).toEqual({ ok: false, code: "sideNotEmpty" });
    await api.moveToSide(gm, cid(sim.gm, "jaluun"), sideId(sim.gm, "Rebels"));
    await api.moveToSide(gm, cid(sim.gm, "trooper2"), sideId(sim.gm, "Imperials"));
    await sim.settle();
    expect(await api.deleteSide(gm, sideId(sim.gm, "Pirates"))).toEqual({ ok: true });
    await sim.settle();
    await sim.settle();
    state = sidesOn(sim.gm);
    expect(state.sides.map((s) => s.name)).toEqual(["Rebels", "Imperials"]);
    expect(gm.groups.contents.map((g) => g.name)).toEqual(["Rebels", "Imperials"]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("three sides roll, and a tie between two GM sides waits for the GM's order", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "officer", "trooper1"]);
    const gm = combatOn(sim.gm);
    await sidesApi(sim.gm).addSide(gm, "Pirates", "#6b3fa0", [cid(sim.gm, "trooper1")]);
    await sim.settle();
    await run(sim, sim.gm, { type: "start" });
    await rollSideAs(sim, "Heroes", [6, 6, 6]);
    await rollSideAs(sim, "Foes", [1, 1, 1, 2]); // Officer 4D+1: 6
    await rollSideAs(sim, "Pirates", [3, 3]); // Trooper 2D: 6
    expect(sidesOn(sim.gm).step).toBe("initiative");
    const pirates = sideId(sim.gm, "Pirates");
    const foes = sideId(sim.gm, "Foes");
    expect(await run(sim, sim.gm, { type: "orderTiedSides", sideIds: [pirates, foes] })).toEqual({ ok: true });
    const state = sidesOn(sim.gm);
    expect(state.step).toBe("declaration");
    expect(state.sideOrder).toEqual([pirates, foes, sideId(sim.gm, "Heroes")]);
    expectSidesAgreement(sim);
  });
});

describe("switching an encounter to sides", () => {
  it("gives the combatants already there their default sides and traits", async () => {
    const sim = await sidesWorld();
    const Combat = sim.gm.api.classes.Combat.implementation;
    const combat = (await Combat.create({
      scene: "scene00000000001",
      active: true,
      flags: { "structured-initiative": { mode: "individual" } },
    })) as SimCombat;
    await combat.createEmbeddedDocuments("Combatant", [
      { actorId: "actorAce00000001", tokenId: d6Token("ace"), sceneId: "scene00000000001" },
      { actorId: "actorOfficer0001", tokenId: d6Token("officer"), sceneId: "scene00000000001" },
    ]);
    await sim.settle();
    expect(await apiOn(sim.gm).setMode(combatOn(sim.gm), "sides")).toEqual({ ok: true });
    await sim.settle();
    await sim.settle();
    const state = sidesOn(sim.gm);
    expect(state.sides.map((x) => x.name)).toEqual(["Heroes", "Foes"]);
    expect(state.combatants.every((c) => c.sideId !== null && c.dexterity !== null)).toBe(true);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("traits and ties", () => {
  it("a changed actor's Dexterity is read again and orders the next pass", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "trooper1"]);
    const trooper = sim.gm.game.actors.get("actorTrooper0001");
    await trooper?.update({ system: { dexterity: "5D" } });
    await sim.settle();
    await sim.settle();
    expect(sidesOn(sim.gm).combatants.find((c) => c.name === "Trooper 1")?.dexterity).toBe("5D");
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("characters tied on Dexterity and Perception act in the GM's order", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "trooper1", "trooper2"]);
    await run(sim, sim.gm, { type: "start" });
    await rollSideAs(sim, "Heroes", [6, 6, 6]);
    await rollSideAs(sim, "Foes", [1, 1]);
    const gm = combatOn(sim.gm);
    for (const key of ["trooper1", "trooper2", "ace"] as const) {
      await sidesApi(sim.gm).declare(gm, cid(sim.gm, key), ["Shoot"], false);
      await sim.settle();
    }
    const t1 = cid(sim.gm, "trooper1");
    const t2 = cid(sim.gm, "trooper2");
    expect(passOrder(sidesOn(sim.gm))).toEqual([cid(sim.gm, "ace"), t1, t2]);
    expect(await run(sim, sim.gm, { type: "orderTied", pass: 1, combatantIds: [t2, t1] })).toEqual({ ok: true });
    expect(passOrder(sidesOn(sim.gm))).toEqual([cid(sim.gm, "ace"), t2, t1]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("declarations from two players", () => {
  it("two players declaring at once: the current declarer's lands, the other only in its turn", async () => {
    const sim = await declaring();
    await foesDeclared(sim);
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    const [a, b] = await Promise.all([
      sidesApi(alice).declare(combatOn(alice), cid(alice, "ace"), ["Shoot"], false),
      sidesApi(bob).declare(combatOn(bob), cid(bob, "jaluun"), ["Dive"], false),
    ]);
    await sim.settle();
    expect(b).toEqual({ ok: true });
    expect(declarationOf(sim, "jaluun")).toHaveLength(1);
    // Ace's went out while Jaluun was still declaring: refused unless it arrived after Jaluun's.
    expect(declarationOf(sim, "ace")).toHaveLength(a.ok ? 1 : 0);
    if (!a.ok) expect(a.code).toBe("notYourTurn");
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("a declaration out of turn is refused, changes nothing and says why", async () => {
    const sim = await declaring();
    await foesDeclared(sim);
    const alice = sim.client(ALICE);
    const before = serverCombatJson(sim);
    const result = await sidesApi(alice).declare(combatOn(alice), cid(alice, "ace"), ["Shoot"], false);
    await sim.settle();
    expect(result).toMatchObject({ ok: false, code: "notYourTurn" });
    expect(serverCombatJson(sim)).toBe(before);
    expect(messagesOn(alice)).toContain(refusalText("notYourTurn", "Ace"));
    expectNoErrors(sim);
  });
});

describe("the hesitation countdown", () => {
  it("marks a player's character hesitating when it runs out (run by the active GM), never an NPC", async () => {
    const sim = await declaring({ "structured-initiative.sidesCountdown": 0.05 });
    // The NPCs declare first: no countdown runs for them.
    await sim.clock.advance(120);
    expect(sidesOn(sim.gm).declarations).toEqual([]);
    await foesDeclared(sim);
    // Jaluun (Bob's) declares now: 50 ms, to the millisecond.
    await sim.clock.advance(49);
    expect(declarationOf(sim, "jaluun")).toEqual([]);
    await sim.clock.advance(1);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true, actions: [] }]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("the GM's pause stops it; an excused player never hesitates", async () => {
    const sim = await declaring({ "structured-initiative.sidesCountdown": 0 });
    await foesDeclared(sim);
    await sim.gm.game.settings.set("structured-initiative", "sidesCountdown", 0.05);
    const gm = combatOn(sim.gm);
    await sidesApi(sim.gm).pauseClock(gm, true);
    await sim.settle();
    await sim.clock.advance(120);
    expect(declarationOf(sim, "jaluun")).toEqual([]);
    const before = sidesOn(sim.gm).declarations.length;
    await sidesApi(sim.gm).excuse(gm, cid(sim.gm, "jaluun"), true);
    await sidesApi(sim.gm).pauseClock(gm, false);
    await sim.settle();
    await sim.clock.advance(120);
    expect(sidesOn(sim.gm).declarations).toHaveLength(before);
    expect(declarationOf(sim, "jaluun")).toEqual([]);
    // Counted for again, Jaluun hesitates within the countdown: the clock was running all along.
    await sidesApi(sim.gm).excuse(gm, cid(sim.gm, "jaluun"), false);
    await sim.settle();
    await sim.clock.advance(50);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true }]);
    expectNoErrors(sim);
  });

  it("the GM's extension gives the declarer more time, then the countdown runs out", async () => {
    const sim = await declaring({ "structured-initiative.sidesCountdown": 0 });
    await foesDeclared(sim);
    await sim.gm.game.settings.set("structured-initiative", "sidesCountdown", 0.05);
    await sidesApi(sim.gm).extendClock(combatOn(sim.gm), 0.3);
    await sim.settle();
    // 50 ms plus 300: past the plain countdown, still declaring until the last millisecond.
    await sim.clock.advance(349);
    expect(declarationOf(sim, "jaluun")).toEqual([]);
    await sim.clock.advance(1);
    expect(declarationOf(sim, "jaluun")).toMatchObject([{ hesitated: true }]);
    expectNoErrors(sim);
  });

  it("a declaration in flight when it expires gives exactly one outcome", async () => {
    // Bob's declaration is sent 1 ms before the countdown runs out; the countdown then runs out while
    // the request is `hops` deliveries along its way to the active GM and back. Early on the
    // hesitation wins, later the declaration does; every time there is exactly one outcome.
    const outcomes: string[] = [];
    for (let hops = 0; hops < 40 && outcomes.slice(-2).join() !== "declared,declared"; hops++) {
      const sim = await declaring({ "structured-initiative.sidesCountdown": 0 });
      await foesDeclared(sim);
      await sim.gm.game.settings.set("structured-initiative", "sidesCountdown", 0.05);
      // Resuming gives Jaluun a fresh countdown of 50 ms from now.
      await sidesApi(sim.gm).pauseClock(combatOn(sim.gm), false);
      await sim.settle();
      await sim.clock.advance(49);
      expect(declarationOf(sim, "jaluun"), `hops ${hops}`).toEqual([]);
      const bob = sim.client(BOB);
      const sent = sidesApi(bob).declare(combatOn(bob), cid(bob, "jaluun"), ["Fire"], false);
      await ticks(hops);
      await sim.clock.advance(1);
      const result = await sent;
      await sim.settle();
      const entries = declarationOf(sim, "jaluun");
      expect(entries, `hops ${hops}`).toHaveLength(1);
      const hesitated = entries[0]?.hesitated === true;
      expect(result, `hops ${hops}`).toMatchObject(hesitated ? { ok: false, code: "hesitated" } : { ok: true });
      outcomes.push(hesitated ? "hesitated" : "declared");
      expectSidesAgreement(sim);
      expectNoErrors(sim);
    }
    // Expiring before the request reaches the GM, the hesitation is applied; once the declaration
    // is applied, the expiry changes nothing. Both are seen, in that order, and never mixed.
    const switchAt = outcomes.indexOf("declared");
    expect(switchAt, outcomes.join(" ")).toBeGreaterThan(0);
    expect(outcomes, outcomes.join(" ")).toEqual(outcomes.map((_, i) => (i < switchAt ? "hesitated" : "declared")));
  });

  it("a hesitation and a declaration sent together: exactly one lands, the other is refused", async () => {
    const sim = await declaring();
    await foesDeclared(sim);
    const bob = sim.client(BOB);
    const jaluun = cid(sim.gm, "jaluun");
    const [declared, hesitated] = await Promise.all([
      sidesApi(bob).declare(combatOn(bob), cid(bob, "jaluun"), ["Fire"], false),
      run(sim, sim.gm, { type: "hesitate", combatantId: jaluun }),
    ]);
    await sim.settle();
    const entries = declarationOf(sim, "jaluun");
    expect(entries).toHaveLength(1);
    expect([declared.ok, hesitated.ok].filter(Boolean)).toHaveLength(1);
    expect(entries[0]?.hesitated).toBe(hesitated.ok);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("undo", () => {
  it("previous turn steps back across passes and into the declaration step; previous round too", async () => {
    const sim = await declaring();
    await foesDeclared(sim);
    const gm = combatOn(sim.gm);
    const api = sidesApi(sim.gm);
    await api.declare(gm, cid(sim.gm, "jaluun"), ["Fire"], false);
    await sim.settle();
    await api.declare(gm, cid(sim.gm, "ace"), ["Dive", "Shoot"], false);
    await sim.settle();
    expect([sidesOn(sim.gm).step, sidesOn(sim.gm).pass]).toEqual(["pass", 1]);
    for (let i = 0; i < 4; i++) await run(sim, sim.gm, { type: "nextTurn" });
    expect([sidesOn(sim.gm).step, sidesOn(sim.gm).pass]).toEqual(["pass", 2]);
    // Back into pass 1, its last action.
    expect(await run(sim, sim.gm, { type: "previousTurn" })).toEqual({ ok: true });
    expect([sidesOn(sim.gm).pass, sidesOn(sim.gm).done.length]).toEqual([1, 3]);
    for (let i = 0; i < 3; i++) await run(sim, sim.gm, { type: "previousTurn" });
    expect([sidesOn(sim.gm).pass, sidesOn(sim.gm).done.length]).toEqual([1, 0]);
    // Back into the declaration step: Ace's declaration is undone.
    expect(await run(sim, sim.gm, { type: "previousTurn" })).toEqual({ ok: true });
    expect(sidesOn(sim.gm).step).toBe("declaration");
    expect(declarationOf(sim, "ace")).toEqual([]);
    expectSidesAgreement(sim);
    // The next round, then back to this one.
    await run(sim, sim.gm, { type: "nextRound" });
    expect(sidesOn(sim.gm).round).toBe(2);
    expect(await run(sim, sim.gm, { type: "previousRound" })).toEqual({ ok: true });
    expect(sidesOn(sim.gm).round).toBe(1);
    // The sides still mirror the groups.
    expect(sidesOn(sim.gm).sides.map((s) => s.name)).toEqual(["Heroes", "Foes"]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });

  it("an undo keeps the sides as the groups are now: a side renamed after the step undone stays renamed", async () => {
    const sim = await declaring();
    await foesDeclared(sim);
    const gm = combatOn(sim.gm);
    await gm.groups.get(sideId(sim.gm, "Heroes"))?.update({ name: "Rebels" });
    await sim.settle();
    expect(sidesOn(sim.gm).sides.map((s) => s.name)).toEqual(["Rebels", "Foes"]);
    // Back before the Officer's declaration, a state from before the rename: the group's name wins.
    expect(await run(sim, sim.gm, { type: "previousTurn" })).toEqual({ ok: true });
    await sim.settle();
    expect(declarationOf(sim, "officer")).toEqual([]);
    expect(sidesOn(sim.gm).sides.map((s) => s.name)).toEqual(["Rebels", "Foes"]);
    expectSidesAgreement(sim);
    expectNoErrors(sim);
  });
});
