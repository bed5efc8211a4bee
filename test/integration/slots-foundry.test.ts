/**
 * `slots` in Foundry (issue 6; RULES.md §4): checks rolled with Foundry rolls from the configured
 * formulas and the skill the GM chose, posted to chat with the roll mode; claims from the players'
 * clients; `combat.combatant` follows the filler of the current slot; joining, defeat and removal by
 * the keep-slot setting; undo; three full rounds with every client agreeing.
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
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  serverCombatJson,
  tokenOf,
  turnsOn,
  world,
  chat,
  rollsOf,
  setWorld,
} from "./world.js";
import { expectSlotsInvariants, rollChecks, slotsEncounter, slotsOn, slotsTable } from "./slots-world.js";

async function gmCommand(sim: Sim, command: Record<string, unknown>): Promise<{ ok: boolean; code?: string }> {
  const result = await apiOn(sim.gm).command(combatOn(sim.gm), command);
  await sim.settle();
  return result;
}
async function as(sim: Sim, userId: string, command: Record<string, unknown>): Promise<{ ok: boolean; code?: string }> {
  const client = sim.client(userId);
  const result = await apiOn(client).command(combatOn(client), command);
  await sim.settle();
  return result;
}
async function startSlots(sim: Sim): Promise<void> {
  await combatOn(sim.gm).startCombat();
  await sim.settle();
}

/** Aria 3/2 (PC), Brom 5/1 (PC), Officer 4/4 (NPC), Trooper 1 3/2 (NPC) → PC 5/1, NPC 4/4, PC 3/2, NPC 3/2. */
async function battle(): Promise<Sim> {
  const sim = await world();
  await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
  await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2] });
  return sim;
}

describe("initiative checks are Foundry rolls from the configured formulas", () => {
  it("generic check: the primary and the tie-breaking formula (1d6 / 1d6), each posted to chat", async () => {
    const sim = await battle();
    expect(slotsTable(sim.gm)).toEqual([
      " pc:5/1 fill=- claim=-",
      " npc:4/4 fill=- claim=-",
      " pc:3/2 fill=- claim=-",
      " npc:3/2 fill=- claim=-",
    ]);
    expect(slotsOn(sim.gm).combatants.map((c) => c.check)).toEqual([
      { primary: 3, secondary: 2, skill: "cool" },
      { primary: 5, secondary: 1, skill: "cool" },
      { primary: 4, secondary: 4, skill: "cool" },
      { primary: 3, secondary: 2, skill: "cool" },
    ]);
    expect(
      chat(sim)
        .slice(0, 2)
        .map((m) => m.flavor),
    ).toEqual(["Aria makes a Cool check for initiative.", "Aria rolls to break initiative ties."]);
    expect(chat(sim).flatMap((m) => rollsOf(m).map((r) => r.formula))).toEqual(Array(8).fill("1d6"));
    expectNoErrors(sim);
  });

  it("Vigilance: two dice for the check, then the tie-breaker", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["officer"]);
    await setWorld(sim, "slotsVigilanceFormula", "2d6 + 1");
    await apiOn(sim.gm).setSlotsSkill(combatOn(sim.gm), idOf(sim.gm, "officer"), "vigilance");
    await sim.settle();
    sim.dice.push(4, 2, 5);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "officer")]);
    await sim.settle();
    expect(slotsOn(sim.gm).combatants[0]?.check).toEqual({ primary: 7, secondary: 5, skill: "vigilance" });
    expect(chat(sim)[0]?.flavor).toBe("Officer makes a Vigilance check for initiative.");
    expect(rollsOf(chat(sim)[0] ?? {})[0]?.formula).toBe("2d6 + 1");
  });

  it("only the GM picks the skill, and only before the start", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    await apiOn(alice).setSlotsSkill(combatOn(alice), idOf(alice, "aria"), "vigilance");
    expect(messagesOn(alice)).toEqual([refusalText("notGM")]);
    await startSlots(sim);
    await apiOn(sim.gm).setSlotsSkill(combatOn(sim.gm), idOf(sim.gm, "aria"), "vigilance");
    expect(messagesOn(sim.gm)).toEqual([refusalText("alreadyStarted", "Aria")]);
    expect(combatOn(sim.gm).combatants.get(idOf(sim.gm, "aria"))?.getFlag("structured-initiative", "slotsSkill")).toBe(
      undefined,
    );
  });

  it("players roll their own PCs' checks from their clients; another player's PC is refused before any die", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "brom"]);
    const alice = sim.client(ALICE);
    sim.dice.push(6, 1);
    await combatOn(alice).rollInitiative([idOf(alice, "aria")]);
    await sim.settle();
    expect(slotsOn(sim.gm).combatants[0]?.check).toEqual({ primary: 6, secondary: 1, skill: "cool" });
    expect(chat(sim)[0]).toMatchObject({ author: ALICE });
    const before = serverCombatJson(sim);
    sim.dice.push(3, 3);
    await combatOn(alice).rollInitiative([idOf(alice, "brom")]);
    await sim.settle();
    expect(messagesOn(alice)).toEqual([refusalText("notOwner", "Brom")]);
    expect(sim.dice.pending).toBe(2);
    expect(serverCombatJson(sim)).toBe(before);
  });

  it("rolls honour the roll mode: the roller's gmroll whispers both rolls to the GM; a caller's blind roll wins", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    await setChatMode(alice, "private");
    sim.dice.push(4, 4);
    await combatOn(alice).rollInitiative([idOf(alice, "aria")]);
    await sim.settle();
    expect(chat(sim)).toHaveLength(2);
    for (const m of chat(sim)) expect(m).toMatchObject({ author: ALICE, whisper: [GM], blind: false });
    expect(sim.client(BOB).game.messages.contents.filter((m) => m.visible)).toHaveLength(0);
    sim.dice.push(2, 2);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "officer")], modeOptions("blind"));
    await sim.settle();
    expect(chat(sim)[2]).toMatchObject({ whisper: [GM], blind: true });
  });

  it.each([
    ["a malformed check formula", "slotsCoolFormula", "1d6 +* 2"],
    ["a check naming data the actor lacks", "slotsCoolFormula", "1d6 + @skills.cool.rank"],
    ["a malformed tie-breaking formula", "slotsSecondaryFormula", "1d6 +"],
    ["narrative-dice scoring without narrative dice", "slotsScoring", "symbols"],
  ])("%s: a localised message; no state change", async (_label, key, value) => {
    const sim = await world();
    await slotsEncounter(sim, ["aria"]);
    await setWorld(sim, key, value);
    const before = serverCombatJson(sim);
    sim.dice.push(4, 4);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(messagesOn(sim.gm)).toEqual([refusalText("invalidFormula", "Aria")]);
    expect(serverCombatJson(sim)).toBe(before);
    expect(slotsOn(sim.gm).combatants[0]?.check).toBeNull();
    // A malformed or unresolvable formula rolls nothing at all.
    if (key !== "slotsScoring") {
      expect(sim.dice.pending).toBe(2);
      expect(chat(sim)).toEqual([]);
    }
  });

  it("roll all rolls the checks still needed; roll NPCs leaves the PCs alone", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "officer", "trooper1"]);
    sim.dice.push(2, 2, 3, 3);
    await combatOn(sim.gm).rollNPC();
    await sim.settle();
    expect(slotsOn(sim.gm).combatants.map((c) => c.check?.primary ?? null)).toEqual([null, 2, 3]);
    sim.dice.push(6, 6);
    await combatOn(sim.gm).rollAll();
    await sim.settle();
    expect(slotsOn(sim.gm).combatants.map((c) => c.check?.primary ?? null)).toEqual([6, 2, 3]);
    expect(sim.dice.pending).toBe(0);
  });
});

describe("turns go down the slot list; combat.combatant is the current slot's filler", () => {
  it("three rounds by the GM and two players, every client agreeing at each step", async () => {
    const sim = await battle();
    await startSlots(sim);
    const aria = idOf(sim.gm, "aria");
    const brom = idOf(sim.gm, "brom");
    const officer = idOf(sim.gm, "officer");
    const trooper = idOf(sim.gm, "trooper1");
    for (let round = 1; round <= 3; round++) {
      expect(turnsOn(sim.gm)).toMatchObject({ round, current: null });
      expect(combatOn(sim.gm).turn).toBeNull();
      // Alice claims the later PC slot ahead of time; Bob fills the first one now.
      expect(await as(sim, ALICE, { type: "claimSlot", slot: 2, combatantId: aria })).toEqual({ ok: true });
      expect(await as(sim, BOB, { type: "claimSlot", slot: 0, combatantId: brom })).toEqual({ ok: true });
      expect(turnsOn(sim.gm).current).toBe("Brom");
      expectSlotsInvariants(sim);
      await combatOn(sim.client(BOB)).nextTurn();
      await sim.settle();
      // The NPC slot: the GM assigns the trooper (any NPC who has not acted).
      expect(turnsOn(sim.gm).current).toBeNull();
      expect(await gmCommand(sim, { type: "fillSlot", slot: 1, combatantId: trooper })).toEqual({ ok: true });
      expect(turnsOn(sim.gm).current).toBe("Trooper 1");
      expectSlotsInvariants(sim);
      await combatOn(sim.gm).nextTurn();
      await sim.settle();
      // Aria's claim fills her slot as it comes up.
      expect(turnsOn(sim.gm).current).toBe("Aria");
      await combatOn(sim.client(ALICE)).nextTurn();
      await sim.settle();
      expect(await gmCommand(sim, { type: "fillSlot", slot: 3, combatantId: officer })).toEqual({ ok: true });
      expectSlotsInvariants(sim);
      expect(slotsOn(sim.gm).acted).toEqual([brom, trooper, aria, officer]);
      await combatOn(sim.gm).nextTurn();
      await sim.settle();
    }
    expect(turnsOn(sim.gm).round).toBe(4);
    for (const c of sim.clients) expect(messagesOn(c), c.userId).toEqual([]);
    expectNoErrors(sim);
  });

  it("a PC slot nobody can fill is skipped; a player cannot end another's turn", async () => {
    const sim = await battle();
    await startSlots(sim);
    await as(sim, BOB, { type: "claimSlot", slot: 0, combatantId: idOf(sim.gm, "brom") });
    await combatOn(sim.client(ALICE)).nextTurn();
    await sim.settle();
    expect(messagesOn(sim.client(ALICE))).toEqual([refusalText("notOwner", "Brom")]);
    expectSlotsInvariants(sim);
  });
});

describe("mid-combat changes", () => {
  it("a joining combatant rolls and adds its slot at its ranked place", async () => {
    const sim = await battle();
    await startSlots(sim);
    await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
      { actorId: ACTOR.trooper2, tokenId: tokenOf("trooper2"), sceneId: SCENE },
    ]);
    await sim.settle();
    expect(slotsOn(sim.gm).slots).toHaveLength(4);
    await rollChecks(sim, { trooper2: [6, 6] });
    expect(slotsTable(sim.gm)[0]).toBe(" npc:6/6 fill=- claim=-");
    // It landed above the current slot: passed this round, used from the next.
    expect(slotsOn(sim.gm).slotIndex).toBe(1);
    expectSlotsInvariants(sim);
  });

  it("a PC joining mid-combat is rolled by its owner from their client and can fill a later PC slot", async () => {
    const sim = await world();
    await slotsEncounter(sim, ["aria", "officer", "trooper1"]);
    await rollChecks(sim, { aria: [3, 2], officer: [4, 4], trooper1: [1, 1] });
    await startSlots(sim);
    await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
      { actorId: ACTOR.brom, tokenId: tokenOf("brom"), sceneId: SCENE },
    ]);
    await sim.settle();
    const bob = sim.client(BOB);
    sim.dice.push(2, 1);
    await combatOn(bob).rollInitiative([idOf(bob, "brom")]);
    await sim.settle();
    expect(messagesOn(bob)).toEqual([]);
    // NPC 4/4 (current), PC 3/2, PC 2/1 (Brom's), NPC 1/1.
    expect(slotsTable(sim.gm).map((x) => x.slice(0, 8))).toEqual([">npc:4/4", " pc:3/2 ", " pc:2/1 ", " npc:1/1"]);
    expect(await as(sim, BOB, { type: "claimSlot", slot: 1, combatantId: idOf(bob, "brom") })).toEqual({ ok: true });
    expectSlotsInvariants(sim);
  });

  it("removing the combatant filling the current slot ends its turn; every client follows", async () => {
    const sim = await battle();
    await startSlots(sim);
    await as(sim, BOB, { type: "claimSlot", slot: 0, combatantId: idOf(sim.gm, "brom") });
    expect(turnsOn(sim.gm).current).toBe("Brom");
    await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [idOf(sim.gm, "brom")]);
    await sim.settle();
    // Brom's PC slot stays (default policy) and has passed; the NPC slot is up, open.
    expect(slotsOn(sim.gm).slotIndex).toBe(1);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: null });
    expectSlotsInvariants(sim);
  });

  it("default policy: a defeated NPC's slot goes, a defeated PC's slot stays", async () => {
    const sim = await battle();
    await startSlots(sim);
    await gmCommand(sim, { type: "setDefeated", combatantId: idOf(sim.gm, "officer"), defeated: true });
    await gmCommand(sim, { type: "setDefeated", combatantId: idOf(sim.gm, "aria"), defeated: true });
    expect(slotsTable(sim.gm).map((s) => s.slice(1, 8))).toEqual(["pc:5/1 ", "pc:3/2 ", "npc:3/2"]);
    expectSlotsInvariants(sim);
  });

  it("the GM's keep-slot settings reach the running encounter: a removed PC's slot then goes too", async () => {
    const sim = await battle();
    await startSlots(sim);
    await setWorld(sim, "slotsKeepPC", false);
    expect(slotsOn(sim.gm).keepSlots).toEqual({ pc: false, npc: false });
    await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(slotsTable(sim.gm).map((s) => s.slice(1, 8))).toEqual(["pc:5/1 ", "npc:4/4", "npc:3/2"]);
    expectSlotsInvariants(sim);
  });

  it("keep NPC slots: a removed NPC's slot stays; a new encounter starts with the world's policy", async () => {
    const sim = await world();
    await setWorld(sim, "slotsKeepNPC", true);
    await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
    expect(slotsOn(sim.gm).keepSlots).toEqual({ pc: true, npc: true });
    await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2] });
    await startSlots(sim);
    await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [idOf(sim.gm, "officer")]);
    await sim.settle();
    expect(slotsOn(sim.gm).slots).toHaveLength(4);
    expectSlotsInvariants(sim);
  });
});

describe("undo", () => {
  it("previous turn un-fills the slot and restores who has acted", async () => {
    const sim = await battle();
    await startSlots(sim);
    await as(sim, BOB, { type: "claimSlot", slot: 0, combatantId: idOf(sim.gm, "brom") });
    await combatOn(sim.client(BOB)).nextTurn();
    await sim.settle();
    await gmCommand(sim, { type: "fillSlot", slot: 1, combatantId: idOf(sim.gm, "officer") });
    expect(slotsOn(sim.gm).acted).toHaveLength(2);
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(slotsTable(sim.gm).slice(0, 2)).toEqual([" pc:5/1 fill=Brom claim=-", ">npc:4/4 fill=- claim=-"]);
    expect(slotsOn(sim.gm).acted).toEqual([idOf(sim.gm, "brom")]);
    expect(turnsOn(sim.gm).current).toBeNull();
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");
    expectSlotsInvariants(sim);
  });

  it("from a new round, previous turn restores the earlier round's fills; previous round returns to its start", async () => {
    const sim = await battle();
    await startSlots(sim);
    const roundStart = slotsOn(sim.gm);
    await as(sim, BOB, { type: "claimSlot", slot: 0, combatantId: idOf(sim.gm, "brom") });
    await as(sim, ALICE, { type: "claimSlot", slot: 2, combatantId: idOf(sim.gm, "aria") });
    await combatOn(sim.client(BOB)).nextTurn();
    await sim.settle();
    await gmCommand(sim, { type: "fillSlot", slot: 1, combatantId: idOf(sim.gm, "officer") });
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    await combatOn(sim.client(ALICE)).nextTurn();
    await sim.settle();
    await gmCommand(sim, { type: "fillSlot", slot: 3, combatantId: idOf(sim.gm, "trooper1") });
    const roundEnd = slotsOn(sim.gm);
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(slotsOn(sim.gm)).toMatchObject({ round: 2, acted: [] });
    await as(sim, ALICE, { type: "claimSlot", slot: 0, combatantId: idOf(sim.gm, "aria") });
    // Previous turn twice: Aria's round-2 fill goes, then round 1's last turn is back with every fill.
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(slotsOn(sim.gm)).toEqual(roundEnd);
    expect(slotsTable(sim.gm)).toEqual([
      " pc:5/1 fill=Brom claim=-",
      " npc:4/4 fill=Officer claim=-",
      " pc:3/2 fill=Aria claim=-",
      ">npc:3/2 fill=Trooper 1 claim=-",
    ]);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Trooper 1" });
    expectSlotsInvariants(sim);
    // Previous round (from round 1) goes back to the start of round 1: nobody has acted.
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    await combatOn(sim.gm).previousRound();
    await sim.settle();
    expect(slotsOn(sim.gm)).toEqual(roundStart);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: null });
    expectSlotsInvariants(sim);
  });
});
