/**
 * `individual` in Foundry (issue 3 item 3; RULES.md §2): Foundry rolls from the configured formulas,
 * posted to chat with the roll mode; group checks; joining; surprise; flat-footed; delay and ready
 * requested by the combatant's owner.
 */
import { describe, expect, it } from "vitest";
import { setChatMode, modeOptions, type Sim } from "../sim/index.js";
import {
  ACTOR,
  ALICE,
  BOB,
  GM,
  SCENE,
  apiOn,
  combatOn,
  encounter,
  expectAgreement,
  expectNoErrors,
  idOf,
  initiativesOn,
  messagesOn,
  refusalText,
  rollAs,
  serverCombatJson,
  start,
  stateOn,
  tokenOf,
  turnsOn,
  world,
  chat,
  rollsOf,
  setWorld,
} from "./world.js";

const FLAT_FOOTED = "structured-initiative-flat-footed";

describe("initiative checks are Foundry rolls from the configured formulas", () => {
  it("rolls die + modifier (1d20 + @attributes.init.mod) and records total and modifier", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"]);
    await rollAs(sim, { aria: 10, officer: 4 });
    expect(initiativesOn(sim.gm)).toEqual({ Aria: 13, Officer: 6 });
    expect(stateOn(sim.gm).combatants.map((c) => c.modifier)).toEqual([3, 2]);
    expect(chat(sim).map((m) => rollsOf(m).map((r) => [r.formula, r.total]))).toEqual([
      [["1d20 + 3", 13]],
      [["1d20 + 2", 6]],
    ]);
    expect(chat(sim).map((m) => m.flavor)).toEqual(["Aria rolls for initiative.", "Officer rolls for initiative."]);
    expectNoErrors(sim);
  });

  it("follows the settings: another die and modifier formula", async () => {
    const sim = await world();
    await setWorld(sim, "initiativeFormula", "2d6");
    await setWorld(sim, "modifierFormula", "@attributes.init.mod * 2");
    await encounter(sim, ["aria"]);
    sim.dice.push(4, 5);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(initiativesOn(sim.gm)).toEqual({ Aria: 15 });
    expect(stateOn(sim.gm).combatants[0]?.modifier).toBe(6);
    expect(rollsOf(chat(sim)[0] ?? {})[0]?.formula).toBe("2d6 + 6");
  });

  it.each([
    ["a malformed die formula", "initiativeFormula", "1d20 +* 2"],
    ["a modifier formula that rolls dice", "modifierFormula", "1d4"],
    ["a malformed modifier formula", "modifierFormula", "@attributes.init.mod +"],
    ["a modifier naming data the actor lacks", "modifierFormula", "@attributes.dex.mod"],
  ])("%s: a clear message, nothing rolled, no chat message, state unchanged", async (_label, key, formula) => {
    const sim = await world();
    await encounter(sim, ["aria"]);
    await setWorld(sim, key, formula);
    const before = serverCombatJson(sim);
    sim.dice.push(10);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(messagesOn(sim.gm)).toEqual([refusalText("invalidFormula")]);
    expect(sim.dice.pending).toBe(1);
    expect(chat(sim)).toEqual([]);
    expect(serverCombatJson(sim)).toBe(before);
  });
});

describe("a roll that cannot be recorded is not rolled", () => {
  it("with no GM online a player's roll says so: no dice, no chat message, nothing written", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"]);
    sim.gm.disconnect();
    await sim.settle();
    sim.server.resetStats();
    const alice = sim.client(ALICE);
    sim.dice.push(10);
    await combatOn(alice).rollInitiative([idOf(alice, "aria")]);
    await sim.settle();
    expect(messagesOn(alice)).toEqual([refusalText("noGM")]);
    expect(sim.dice.pending).toBe(1);
    expect(chat(sim)).toEqual([]);
    expect(sim.server.ops).toEqual([]);
  });

  it("re-rolling after the start is refused before any die is rolled", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"]);
    await rollAs(sim, { aria: 10, brom: 5 });
    await start(sim);
    const before = serverCombatJson(sim);
    sim.dice.push(20);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(messagesOn(sim.gm)).toEqual([refusalText("alreadyStarted", "Aria")]);
    expect(sim.dice.pending).toBe(1);
    expect(chat(sim)).toHaveLength(2);
    expect(serverCombatJson(sim)).toBe(before);
  });
});

describe("roll all and roll NPCs", () => {
  it("roll all rolls exactly the checks still needed (a group once), and nothing once everyone has rolled", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer", "trooper1", "trooper2"]);
    await apiOn(sim.gm).groupCombatants(
      combatOn(sim.gm),
      [idOf(sim.gm, "trooper1"), idOf(sim.gm, "trooper2")],
      "squad",
    );
    await sim.settle();
    await rollAs(sim, { aria: 10 });
    sim.dice.push(7, 9);
    await combatOn(sim.gm).rollAll();
    await sim.settle();
    expect(sim.dice.pending).toBe(0);
    expect(initiativesOn(sim.gm)).toEqual({ Aria: 13, Officer: 9, "Trooper 1": 9, "Trooper 2": 9 });
    expect(chat(sim)).toHaveLength(3);
    await start(sim);
    await combatOn(sim.gm).rollAll();
    await combatOn(sim.gm).rollNPC();
    await sim.settle();
    expect(chat(sim)).toHaveLength(3);
    expect(messagesOn(sim.gm)).toEqual([]);
  });

  it("roll NPCs leaves the player characters alone", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"]);
    sim.dice.push(12);
    await combatOn(sim.gm).rollNPC();
    await sim.settle();
    expect(initiativesOn(sim.gm)).toEqual({ Aria: null, Officer: 14 });
  });
});

describe("rolls go to chat honouring the roll mode", () => {
  it("the roller's gmroll mode whispers the roll to the GMs; public rolls are whispered to nobody", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"]);
    const alice = sim.client(ALICE);
    await setChatMode(alice, "private");
    sim.dice.push(10, 11);
    await combatOn(alice).rollInitiative([idOf(alice, "aria")]);
    await sim.settle();
    await combatOn(sim.client(BOB)).rollInitiative([idOf(sim.gm, "brom")]);
    await sim.settle();
    const [secret, open] = chat(sim);
    expect(secret).toMatchObject({ author: ALICE, whisper: [GM], blind: false });
    expect(open).toMatchObject({ author: BOB, whisper: [] });
    // Bob cannot see Alice's GM roll; the GM can.
    expect(sim.client(BOB).game.messages.contents.filter((m) => m.visible)).toHaveLength(1);
    expect(sim.gm.game.messages.contents.filter((m) => m.visible)).toHaveLength(2);
    expect(initiativesOn(sim.gm)).toEqual({ Aria: 13, Brom: 12 });
  });

  it("a roll mode passed by the caller (blind) wins over the client setting", async () => {
    const sim = await world();
    await encounter(sim, ["officer"]);
    sim.dice.push(9);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "officer")], modeOptions("blind"));
    await sim.settle();
    expect(chat(sim)[0]).toMatchObject({ whisper: [GM], blind: true });
  });
});

describe("group checks", () => {
  it("the GM rolls one check for a chosen group, at the group's lowest modifier; an officer alone rolls his own", async () => {
    const sim = await world();
    await encounter(sim, ["officer", "trooper1", "trooper2", "trooper3"]);
    const troopers = [idOf(sim.gm, "trooper1"), idOf(sim.gm, "trooper2"), idOf(sim.gm, "trooper3")];
    const grouped = await apiOn(sim.gm).groupCombatants(combatOn(sim.gm), troopers, "squad");
    await sim.settle();
    expect(grouped.every((r) => r.ok)).toBe(true);
    sim.dice.push(11, 8);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "officer"), ...troopers]);
    await sim.settle();
    expect(sim.dice.pending).toBe(0);
    // Trooper 2 has +1, the others +0: the squad rolls at +0.
    expect(chat(sim).map((m) => rollsOf(m)[0]?.formula)).toEqual(["1d20 + 2", "1d20 + 0"]);
    expect(chat(sim)).toHaveLength(2);
    expect(initiativesOn(sim.gm)).toEqual({ Officer: 13, "Trooper 1": 8, "Trooper 2": 8, "Trooper 3": 8 });
    await start(sim);
    expect(turnsOn(sim.gm).order).toEqual(["Officer", "Trooper 1", "Trooper 2", "Trooper 3"]);
    expectAgreement(sim);
  });

  it("a group check is the GM's: a player cannot roll it", async () => {
    const sim = await world();
    await encounter(sim, ["trooper1", "trooper2"]);
    await apiOn(sim.gm).groupCombatants(
      combatOn(sim.gm),
      [idOf(sim.gm, "trooper1"), idOf(sim.gm, "trooper2")],
      "squad",
    );
    await sim.settle();
    const before = serverCombatJson(sim);
    const alice = sim.client(ALICE);
    const results = await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "trooper1")]);
    await sim.settle();
    expect(results).toEqual([{ ok: false, code: "notGM" }]);
    expect(messagesOn(alice)).toEqual([refusalText("notGM")]);
    expect(serverCombatJson(sim)).toBe(before);
    expect(chat(sim)).toEqual([]);
  });
});

describe("joining mid-battle", () => {
  it("a combatant added after the start has no turn until it rolls, then takes its place in the order", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 10, brom: 15, officer: 2 }); // 13, 16, 4
    await start(sim);
    await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
      { actorId: ACTOR.trooper2, tokenId: tokenOf("trooper2"), sceneId: SCENE },
    ]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Aria", "Officer", "Trooper 2"], current: "Brom", round: 1 });
    expect(apiOn(sim.gm).view(combatOn(sim.gm))?.next).toBe(idOf(sim.gm, "aria"));
    await rollAs(sim, { trooper2: 11 }); // 12: between Aria (13) and the Officer (4)
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Aria", "Trooper 2", "Officer"], current: "Brom", round: 1 });
    await combatOn(sim.gm).nextTurn();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Trooper 2");
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("a player joins mid-battle", () => {
  it("the owner adds its character after the start and rolls for it from its own client", async () => {
    const sim = await world();
    await encounter(sim, ["brom", "officer"]);
    await rollAs(sim, { brom: 10, officer: 2 }); // 11, 4
    await start(sim);
    const alice = sim.client(ALICE);
    await combatOn(alice).createEmbeddedDocuments("Combatant", [
      { actorId: ACTOR.aria, tokenId: tokenOf("aria"), sceneId: SCENE },
    ]);
    await sim.settle();
    expect(turnsOn(sim.gm).order).toEqual(["Brom", "Officer", "Aria"]);
    sim.dice.push(2); // 5: after Brom, before the Officer
    await combatOn(alice).rollInitiative([idOf(alice, "aria")]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Aria", "Officer"], current: "Brom", round: 1 });
    expect(messagesOn(alice)).toEqual([]);
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("surprise round and flat-footed", () => {
  it("the GM marks who is aware; only they act in the surprise round; everyone acts from round 2", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 10, brom: 15, officer: 12 }); // 13, 16, 14
    const api = apiOn(sim.gm);
    const combat = combatOn(sim.gm);
    expect(await api.command(combat, { type: "setAware", combatantId: idOf(sim.gm, "aria"), aware: true })).toEqual({
      ok: true,
    });
    expect(await api.command(combat, { type: "setAware", combatantId: idOf(sim.gm, "officer"), aware: true })).toEqual({
      ok: true,
    });
    await start(sim, true);
    expect(api.view(combat)?.step).toBe("surprise");
    expect(turnsOn(sim.gm).current).toBe("Officer");
    await combat.nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Aria", round: 1 });
    await combat.nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Brom", round: 2 });
    expect(api.view(combat)?.step).toBe("round");
    expectAgreement(sim);
  });

  it("shows flat-footed in the state; with the setting, applies the status effect until each one's first regular turn", async () => {
    const sim = await world();
    await setWorld(sim, "flatFootedStatus", true);
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 10, brom: 15, officer: 12 }); // Brom, Officer, Aria
    await apiOn(sim.gm).command(combatOn(sim.gm), { type: "setAware", combatantId: idOf(sim.gm, "aria"), aware: true });
    await start(sim, true);
    // A status is an ActiveEffect of the actor: the server's copy holds it among the actor's effects.
    const statuses = (key: "aria" | "brom" | "officer"): boolean =>
      (sim.server.world.actors.find((a) => a._id === ACTOR[key])?.effects as Array<{ statuses: string[] }>).some((e) =>
        e.statuses.includes(FLAT_FOOTED),
      );
    // Surprise round: Aria acts, but it is not a regular turn.
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expect(stateOn(sim.gm).flatFooted).toHaveLength(3);
    expect([statuses("aria"), statuses("brom"), statuses("officer")]).toEqual([true, true, true]);
    for (const client of sim.clients)
      expect(client.game.actors.get(ACTOR.aria)?.statuses.has(FLAT_FOOTED), client.userId).toBe(true);
    await combatOn(sim.gm).nextTurn(); // round 2: Brom's first regular turn
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Brom", round: 2 });
    expect([statuses("aria"), statuses("brom"), statuses("officer")]).toEqual([true, false, true]);
    await combatOn(sim.gm).nextTurn();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect([statuses("aria"), statuses("brom"), statuses("officer")]).toEqual([false, false, false]);
    expect(stateOn(sim.gm).flatFooted).toEqual([]);
    // The actor on every client sees the status gone.
    for (const client of sim.clients)
      expect(client.game.actors.get(ACTOR.aria)?.statuses.has(FLAT_FOOTED), client.userId).toBe(false);
    expectNoErrors(sim);
  });

  it("without the setting no status effect is applied", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"]);
    await rollAs(sim, { aria: 10, brom: 15 });
    await apiOn(sim.gm).command(combatOn(sim.gm), { type: "setAware", combatantId: idOf(sim.gm, "aria"), aware: true });
    await start(sim, true);
    expect(stateOn(sim.gm).flatFooted).toHaveLength(2);
    expect(sim.server.world.actors.every((a) => (a.effects as unknown[]).length === 0)).toBe(true);
  });
});

describe("delay and ready, requested by the combatant's owner", () => {
  async function battle(): Promise<Sim> {
    const sim = await world();
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4 }); // Aria 18, Brom 11, Officer 6
    await start(sim);
    return sim;
  }

  it("delay: the owner leaves the order, ends the delay between turns and acts at once; the place holds", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    const aria = idOf(alice, "aria");
    expect(await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: aria })).toEqual({ ok: true });
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Officer", "Aria"], current: "Brom", round: 1 });
    await combatOn(sim.client(BOB)).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expect(await apiOn(alice).command(combatOn(alice), { type: "endDelay", combatantId: aria })).toEqual({ ok: true });
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Aria", "Officer"], current: "Aria", round: 1 });
    await combatOn(alice).nextTurn();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Aria", "Officer"], current: "Brom", round: 2 });
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("ready: the owner readies with a trigger, triggers it ahead of the triggering combatant; the new place holds", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    const aria = idOf(alice, "aria");
    const readied = await apiOn(alice).command(combatOn(alice), {
      type: "ready",
      combatantId: aria,
      trigger: "the officer moves",
    });
    await sim.settle();
    expect(readied).toEqual({ ok: true });
    expect(stateOn(sim.gm).combatants.find((c) => c.id === aria)?.ready).toBe("the officer moves");
    await combatOn(sim.client(BOB)).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expect(await apiOn(alice).command(combatOn(alice), { type: "triggerReady", combatantId: aria })).toEqual({
      ok: true,
    });
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Aria", "Officer"], current: "Aria", round: 1 });
    await combatOn(alice).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});
