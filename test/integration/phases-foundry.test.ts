/**
 * `phases` in Foundry (issue 13; RULES.md §5): `combat.combatant` follows the foe declaring, the
 * acting hero and the resolving foe; skill rolls are Foundry rolls of n dice of the skill's die size
 * posted to chat with the roll mode, their faces recorded through the rules; forged rolls and
 * actions for another player's PC are refused before anything changes; the GM answers a failure on
 * its chat card; surprise, the Advantage cap, the hand-off chain and undo across phases.
 */
import { describe, expect, it } from "vitest";
import { setChatMode, chatMode, type Sim } from "../sim/index.js";
import {
  ALICE,
  BOB,
  GM,
  combatOn,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  serverCombatJson,
  turnsOn,
  chat,
  rollsOf,
} from "./world.js";
import {
  declare,
  expectPhasesAgreement,
  phasesEncounter,
  phasesOn,
  phasesWorld,
  rollSkill,
  send,
} from "./phases-world.js";

/** Aria and Brom against the Officer and Trooper 1; started (no surprise), intents declared. */
async function battle(options: { surprise?: boolean; declared?: boolean } = {}): Promise<Sim> {
  const sim = await phasesWorld();
  await phasesEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
  await send(sim, sim.gm, { type: "start", surprise: options.surprise ?? false });
  if (options.declared !== false) {
    await declare(sim, "officer", "Blaster at Aria", ["aria"]);
    await declare(sim, "trooper1", "Knife at Brom", ["brom"]);
  }
  return sim;
}

/** To phase 2, Alice takes Aria's turn. */
async function ariaActs(sim: Sim): Promise<void> {
  await send(sim, sim.gm, { type: "nextPhase" });
  await send(sim, sim.client(ALICE), { type: "startTurn", combatantId: idOf(sim.client(ALICE), "aria") });
}

describe("combat.combatant is whoever is handled now", () => {
  it("the foe declaring, nobody, the acting hero, nobody, the resolving foe; every client agrees", async () => {
    const sim = await battle({ declared: false });
    expect(phasesOn(sim.gm).phase).toBe("foesDeclare");
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expectPhasesAgreement(sim);
    await declare(sim, "officer", "Blaster at Aria", ["aria"]);
    expect(turnsOn(sim.gm).current).toBe("Trooper 1");
    await declare(sim, "trooper1", "Knife at Brom", ["brom"]);
    expect(turnsOn(sim.gm).current).toBe(null);
    await send(sim, sim.gm, { type: "nextPhase" });
    expect([phasesOn(sim.gm).phase, turnsOn(sim.gm).current]).toEqual(["heroes", null]);
    await send(sim, sim.client(BOB), { type: "startTurn", combatantId: idOf(sim.gm, "brom") });
    expect(turnsOn(sim.client(ALICE)).current).toBe("Brom");
    expectPhasesAgreement(sim);
    await combatOn(sim.client(BOB)).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe(null);
    await send(sim, sim.client(ALICE), { type: "startTurn", combatantId: idOf(sim.gm, "aria") });
    await send(sim, sim.client(ALICE), { type: "endTurn", combatantId: idOf(sim.gm, "aria") });
    // The last hero's turn ends phase 2: the first foe with an intent resolves.
    expect([phasesOn(sim.gm).phase, turnsOn(sim.gm).current]).toEqual(["foesResolve", "Officer"]);
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Trooper 1");
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect([phasesOn(sim.gm).round, phasesOn(sim.gm).phase, turnsOn(sim.gm).current]).toEqual([
      2,
      "foesDeclare",
      "Officer",
    ]);
    expectPhasesAgreement(sim);
    expectNoErrors(sim);
  });

  it("core's Begin combat starts without surprise; a surprised start skips the heroes in round 1 only", async () => {
    const sim = await phasesWorld();
    await phasesEncounter(sim, ["aria", "officer"]);
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    expect([phasesOn(sim.gm).started, phasesOn(sim.gm).surprise]).toEqual([true, false]);

    const surprised = await battle({ surprise: true });
    await send(surprised, surprised.gm, { type: "nextPhase" });
    expect([phasesOn(surprised.gm).round, phasesOn(surprised.gm).phase]).toEqual([1, "foesResolve"]);
    const alice = surprised.client(ALICE);
    await send(surprised, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    expect(messagesOn(alice)).toEqual([refusalText("wrongStep")]);
    await combatOn(surprised.gm).nextTurn();
    await combatOn(surprised.gm).nextTurn();
    await surprised.settle();
    await send(surprised, surprised.gm, { type: "nextPhase" });
    expect([phasesOn(surprised.gm).round, phasesOn(surprised.gm).phase]).toEqual([2, "heroes"]);
  });
});

describe("skill rolls are Foundry rolls posted to chat", () => {
  it("Luwe's chain: Melee d8 → 2d8, Ranged d10 → 3d10, Stealth d6 → 4d6 rolls 6, 5, 5, 3 and fails", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const alice = sim.client(ALICE);
    expect((await rollSkill(sim, alice, "aria", [1, 7], { skill: "Melee" })).ok).toBe(true);
    expect((await rollSkill(sim, alice, "aria", [10, 8, 2], { skill: "Ranged" })).ok).toBe(true);
    expect((await rollSkill(sim, alice, "aria", [6, 5, 5, 3], { skill: "Stealth" })).ok).toBe(true);
    expect(chat(sim).map((m) => rollsOf(m)[0]?.formula)).toEqual(["2d8", "3d10", "4d6"]);
    expect(chat(sim).map((m) => rollsOf(m)[0]?.terms[0]?.results?.map((r) => r.result))).toEqual([
      [1, 7],
      [10, 8, 2],
      [6, 5, 5, 3],
    ]);
    expect(chat(sim)[0]).toMatchObject({ author: ALICE, flavor: "Aria uses Melee: complexity 2, 2d8." });
    const state = phasesOn(sim.gm);
    expect(state.lastRoll).toMatchObject({ skill: "Stealth", dieSize: 6, complexity: 4, dice: [6, 5, 5, 3] });
    // Success is derived from the dice, not stored.
    expect(state.lastRoll).not.toHaveProperty("success");
    // The turn has ended and waits for the GM; Aria stays current until then.
    expect(state.turn).toMatchObject({ failed: true });
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expect(messagesOn(sim.gm)).toEqual(["The roll of Aria failed: choose its consequence in the combat tracker."]);
    expectPhasesAgreement(sim);
    expectNoErrors(sim);
  });

  it("a die size picked in the tracker, and a die size read as a number or as 1d6", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const alice = sim.client(ALICE);
    await rollSkill(sim, alice, "aria", [3, 12], { dieSize: 12 });
    await rollSkill(sim, alice, "aria", [1, 2, 3], { skill: "Athletics" });
    expect(chat(sim).map((m) => rollsOf(m)[0]?.formula)).toEqual(["2d12", "3d8"]);
    expect(chat(sim)[0]?.flavor).toBe("Aria uses d12: complexity 2, 2d12.");
    await send(sim, alice, { type: "endTurn", combatantId: idOf(alice, "aria") });
    const bob = sim.client(BOB);
    await send(sim, bob, { type: "startTurn", combatantId: idOf(bob, "brom") });
    await rollSkill(sim, bob, "brom", [2, 5], { skill: "Melee" });
    expect(rollsOf(chat(sim)[2] ?? {})[0]?.formula).toBe("2d6");
  });

  it("a skill without a die size on the actor is refused before any die is rolled", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const alice = sim.client(ALICE);
    const result = await rollSkill(sim, alice, "aria", [1, 2], { skill: "Presence" });
    expect(result).toMatchObject({ ok: false, code: "noSkillDie" });
    expect(messagesOn(alice)).toEqual([
      "Aria has no die size for Presence: check the skill list in the module settings, or pick a die size in the tracker.",
    ]);
    expect(sim.dice.pending).toBe(2);
    expect(chat(sim)).toEqual([]);
  });

  it("the roll mode is honoured: the roller's private GM roll, a caller's blind roll", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const alice = sim.client(ALICE);
    await setChatMode(alice, "private");
    await rollSkill(sim, alice, "aria", [1, 2], { skill: "Melee" });
    expect(chat(sim)[0]).toMatchObject({ author: ALICE, whisper: [GM], blind: false });
    expect(sim.client(BOB).game.messages.contents.filter((m) => m.visible)).toHaveLength(0);
    await rollSkill(sim, alice, "aria", [1, 2, 3], { skill: "Melee", rollMode: chatMode("blind") });
    expect(chat(sim)[1]).toMatchObject({ whisper: [GM], blind: true });
  });
});

describe("bad input is refused and changes nothing", () => {
  it("a forged roll (wrong number of dice, a face off the die) is refused", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const alice = sim.client(ALICE);
    const before = serverCombatJson(sim);
    const aria = idOf(alice, "aria");
    const forged = [
      { type: "skillRoll", combatantId: aria, dieSize: 8, dice: [1, 2, 3] },
      { type: "skillRoll", combatantId: aria, dieSize: 8, dice: [9, 2] },
      { type: "skillRoll", combatantId: aria, dieSize: 8, dice: [4] },
    ];
    for (const command of forged) expect(await send(sim, alice, command)).toMatchObject({ code: "wrongDice" });
    expect(messagesOn(alice)).toEqual(Array(3).fill(refusalText("wrongDice")));
    expect(serverCombatJson(sim)).toBe(before);
    // The same forgery sent by a GM's macro is refused by the rules too.
    expect(await send(sim, sim.gm, forged[0] ?? {})).toMatchObject({ code: "wrongDice" });
    expect(serverCombatJson(sim)).toBe(before);
  });

  it("a player's dice must come from their own chat roll: typed dice, or a roll used before, are refused", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const alice = sim.client(ALICE);
    const aria = idOf(alice, "aria");
    const before = serverCombatJson(sim);
    // Shaped as the complexity wants and without doubles, but typed: no chat roll behind it.
    expect(await send(sim, alice, { type: "skillRoll", combatantId: aria, dieSize: 8, dice: [7, 8] })).toMatchObject({
      code: "typedResult",
    });
    expect(serverCombatJson(sim)).toBe(before);
    await rollSkill(sim, alice, "aria", [1, 2], { skill: "Melee" });
    const used = sim.server.world.messages.at(-1)?._id;
    // The same chat roll again, with the dice the next complexity wants: refused as a mismatch.
    const again = { type: "skillRoll", combatantId: aria, dieSize: 8, dice: [3, 4, 5], rolls: [used] };
    // (The request itself is a write on Aria; the encounter must not change.)
    const stored = (): string => JSON.stringify(combatOn(sim.gm).getFlag("structured-initiative", "encounter"));
    const after = stored();
    expect(await send(sim, alice, again)).toMatchObject({ code: "rollMismatch" });
    expect(stored()).toBe(after);
  });

  it("a player acting for someone else's PC is refused before any die, chat line or write", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const bob = sim.client(BOB);
    const before = serverCombatJson(sim);
    expect(await rollSkill(sim, bob, "aria", [1, 2], { skill: "Melee" })).toMatchObject({ code: "notOwner" });
    expect(sim.dice.pending).toBe(2);
    expect(chat(sim)).toEqual([]);
    expect(await send(sim, bob, { type: "endTurn", combatantId: idOf(bob, "aria") })).toMatchObject({
      code: "notOwner",
    });
    expect(await send(sim, bob, { type: "freeAction", combatantId: idOf(bob, "aria"), kind: "move" })).toMatchObject({
      code: "notOwner",
    });
    expect(messagesOn(bob)).toEqual(Array(3).fill(refusalText("notOwner")));
    expect(serverCombatJson(sim)).toBe(before);
  });

  it("a turn started while another runs names who is acting; a second turn in a round is refused", async () => {
    const sim = await battle();
    await ariaActs(sim);
    const bob = sim.client(BOB);
    expect(await send(sim, bob, { type: "startTurn", combatantId: idOf(bob, "brom") })).toMatchObject({
      code: "heroActing",
    });
    expect(messagesOn(bob)).toEqual([refusalText("heroActing", "Aria")]);
    const alice = sim.client(ALICE);
    await send(sim, alice, { type: "endTurn", combatantId: idOf(alice, "aria") });
    expect(await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") })).toMatchObject({
      code: "alreadyActed",
    });
    expect(messagesOn(alice)).toEqual([refusalText("alreadyActed", "Aria")]);
  });

  it("Advantages: a gain past the cap is refused before rolling; a Collapse spend with none left is refused", async () => {
    const sim = await battle();
    await send(sim, sim.gm, { type: "setPoolCap", cap: 1 });
    await ariaActs(sim);
    const alice = sim.client(ALICE);
    await rollSkill(sim, alice, "aria", [1, 2], { skill: "Melee", gainsAdvantage: true });
    expect([phasesOn(sim.gm).pool, phasesOn(sim.gm).poolCap]).toEqual([1, 1]);
    const before = serverCombatJson(sim);
    expect(await rollSkill(sim, alice, "aria", [1, 2, 3], { skill: "Melee", gainsAdvantage: true })).toMatchObject({
      code: "poolFull",
    });
    expect(messagesOn(alice)).toEqual([refusalText("poolFull")]);
    expect(sim.dice.pending).toBe(3);
    expect(serverCombatJson(sim)).toBe(before);
    sim.dice.clear();
    for (let i = 0; i < 2; i++)
      await send(sim, sim.gm, {
        type: "spendCollapse",
        foeId: idOf(sim.gm, "officer"),
        text: "Grenade",
        targets: [idOf(sim.gm, "aria")],
      });
    expect(phasesOn(sim.gm).collapse).toBe(0);
    const spent = serverCombatJson(sim);
    expect(
      await send(sim, sim.gm, {
        type: "spendCollapse",
        foeId: idOf(sim.gm, "officer"),
        text: "Again",
        targets: [idOf(sim.gm, "aria")],
      }),
    ).toMatchObject({ code: "noCollapse" });
    expect(messagesOn(sim.gm)).toEqual([refusalText("noCollapse")]);
    expect(serverCombatJson(sim)).toBe(spent);
  });
});

describe("the GM answers a failed roll", () => {
  async function failed(): Promise<Sim> {
    const sim = await battle();
    await ariaActs(sim);
    await rollSkill(sim, sim.client(ALICE), "aria", [4, 4], { skill: "Melee" });
    return sim;
  }

  it("with Collapse: +1 point, recorded on the roll's card, and the turn is over", async () => {
    const sim = await failed();
    const alice = sim.client(ALICE);
    // Until the GM answers nobody else starts a turn, and only the GM may answer.
    expect(await send(sim, sim.client(BOB), { type: "startTurn", combatantId: idOf(alice, "brom") })).toMatchObject({
      code: "failurePending",
    });
    expect(await send(sim, alice, { type: "resolveFailure", choice: "collapse" })).toMatchObject({ code: "notGM" });
    expect(await send(sim, sim.gm, { type: "resolveFailure", choice: "collapse" })).toEqual({ ok: true });
    const state = phasesOn(sim.gm);
    expect([state.collapse, state.turn, state.lastRoll?.answer]).toEqual([3, null, { choice: "collapse" }]);
    expect(chat(sim)[0]?.flavor).toBe(
      "Aria uses Melee: complexity 2, 2d8. Doubles: the roll failed. The GM gains 1 Collapse point.",
    );
    expect(turnsOn(sim.gm).current).toBe(null);
    expectPhasesAgreement(sim);
    expectNoErrors(sim);
  });

  it("with a failure effect: its text (escaped) on the card; an undo and a new answer replace it", async () => {
    const sim = await failed();
    await send(sim, sim.gm, { type: "resolveFailure", choice: "effect", text: "Drops the <b>blaster</b>" });
    expect(chat(sim)[0]?.flavor).toBe(
      "Aria uses Melee: complexity 2, 2d8. Doubles: the roll failed. Failure effect: Drops the &lt;b&gt;blaster&lt;/b&gt;",
    );
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(phasesOn(sim.gm).turn?.failed).toBe(true);
    await send(sim, sim.gm, { type: "resolveFailure", choice: "collapse" });
    expect(chat(sim)[0]?.flavor).toBe(
      "Aria uses Melee: complexity 2, 2d8. Doubles: the roll failed. The GM gains 1 Collapse point.",
    );
  });
});

describe("hand-off order", () => {
  it("the GM picks the first hero, the hero who finished picks the next; the picker is the only player who may", async () => {
    const sim = await phasesWorld();
    await phasesEncounter(sim, ["aria", "brom", "officer"]);
    // A third hero for Alice's pick: Brom's player picks after Brom, Alice's after Aria.
    await send(sim, sim.gm, { type: "start", surprise: false });
    await send(sim, sim.gm, { type: "setHandOff", on: true });
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    expect(await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") })).toMatchObject({
      code: "notGM",
    });
    await send(sim, sim.gm, { type: "pickNext", combatantId: idOf(sim.gm, "brom") });
    expect(turnsOn(alice).current).toBe("Brom");
    await send(sim, bob, { type: "endTurn", combatantId: idOf(bob, "brom") });
    // Brom finished: Bob picks; Alice may not pick her own hero.
    expect(await send(sim, alice, { type: "pickNext", combatantId: idOf(alice, "aria") })).toMatchObject({
      code: "pickerChooses",
    });
    expect(messagesOn(alice)).toEqual([refusalText("notGM"), refusalText("pickerChooses", "Brom")]);
    await send(sim, bob, { type: "pickNext", combatantId: idOf(bob, "aria") });
    expect(turnsOn(bob).current).toBe("Aria");
    await send(sim, alice, { type: "endTurn", combatantId: idOf(alice, "aria") });
    expect(phasesOn(sim.gm).phase).toBe("foesResolve");
    // Hand-off is per round.
    await combatOn(sim.gm).nextRound();
    await sim.settle();
    expect(phasesOn(sim.gm).handOff).toBe(false);
    expectPhasesAgreement(sim);
  });
});

describe("undo across phases", () => {
  it("previous turn steps back over a phase change; previous round restores intents, turns and both pools", async () => {
    const sim = await battle({ declared: false });
    const alice = sim.client(ALICE);
    const round1 = phasesOn(sim.gm);
    await declare(sim, "officer", "Blaster at Aria", ["aria"]);
    await declare(sim, "trooper1", "Knife at Brom", ["brom"]);
    await ariaActs(sim);
    await rollSkill(sim, alice, "aria", [1, 2], { skill: "Melee", gainsAdvantage: true });
    await rollSkill(sim, alice, "aria", [3, 3, 1], { skill: "Melee" });
    await send(sim, sim.gm, { type: "resolveFailure", choice: "collapse" });
    const bob = sim.client(BOB);
    await send(sim, bob, { type: "startTurn", combatantId: idOf(bob, "brom") });
    await rollSkill(sim, bob, "brom", [9, 6], {
      skill: "Presence",
      defendsIntent: phasesOn(sim.gm).intents[1]?.id,
    });
    await send(sim, bob, { type: "endTurn", combatantId: idOf(bob, "brom") });
    const resolving = phasesOn(sim.gm);
    expect(resolving.phase).toBe("foesResolve");
    expect(resolving.intents.map((i) => i.foiled)).toEqual([false, true]);
    expect([resolving.pool, resolving.collapse]).toEqual([1, 3]);
    await combatOn(sim.gm).nextTurn();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(phasesOn(sim.gm).round).toBe(2);
    // Back over the round change: phase 3 of round 1 with the Officer resolved.
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect([phasesOn(sim.gm).round, phasesOn(sim.gm).phase, turnsOn(sim.gm).current]).toEqual([
      1,
      "foesResolve",
      "Trooper 1",
    ]);
    await combatOn(sim.gm).previousTurn();
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    // Back over the end of phase 2: Brom's turn runs again, after his defense.
    expect([phasesOn(sim.gm).phase, phasesOn(sim.gm).turn?.combatantId]).toEqual(["heroes", idOf(sim.gm, "brom")]);
    expect(turnsOn(alice).current).toBe("Brom");
    await combatOn(sim.gm).nextTurn();
    await combatOn(sim.gm).nextTurn();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(phasesOn(sim.gm).round).toBe(2);
    await combatOn(sim.gm).previousRound();
    await sim.settle();
    const back = phasesOn(sim.gm);
    // The start of round 1: no intents yet, both pools as they were.
    expect(back).toEqual(round1);
    expect([back.pool, back.collapse, back.intents.length]).toEqual([0, 2, 0]);
    expectPhasesAgreement(sim);
    expectNoErrors(sim);
  });
});
