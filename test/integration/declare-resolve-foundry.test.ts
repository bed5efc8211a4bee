/**
 * `declare-resolve` in Foundry (issue 12; RULES.md §3): IP rolled once per combat as Foundry rolls
 * posted to chat with the roll mode; two players declaring in turn, slowest first, with the refusals
 * for a declaration out of turn, for someone else's combatant and over the AP budget (the message
 * naming the sum and the budget); a Power Attack spilling into the next round; extra attacks after
 * everyone's initial actions; the upkeep (hits from the actor, chat card) and its undo; a catalogue
 * that cannot be read falling back to the defaults with a warning to the GM.
 */
import { describe, expect, it } from "vitest";
import { setChatMode, modeOptions, type Sim } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import {
  ALICE,
  BOB,
  GM,
  combatOn,
  expectAgreement,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  serverCombatJson,
  turnsOn,
  chat,
  rollsOf,
  setWorld,
} from "./world.js";
import { commandAs, declareAs, drEncounter, drOn, drWorld, rollIPs, systemOf } from "./declare-resolve-world.js";
import { carriedInOf, resolvedOf } from "../../src/modes/declare-resolve/rules/points";
import type { DeclareResolveState } from "../../src/modes/declare-resolve/rules/types";

const at = (state: DeclareResolveState, i: number) => {
  const c = state.combatants[i];
  if (c === undefined) throw new Error(`no combatant ${String(i)}`);
  return c;
};
const carriedOf = (state: DeclareResolveState, i: number) => carriedInOf(state, at(state, i));
const resolvedAt = (state: DeclareResolveState, i: number) => resolvedOf(state, at(state, i));

function contentOf(message: JsonObject | undefined): string {
  return typeof message?.content === "string" ? message.content : "";
}
async function start(sim: Sim): Promise<void> {
  await combatOn(sim.gm).startCombat();
  await sim.settle();
}
async function next(sim: Sim, userId = GM): Promise<void> {
  await combatOn(sim.client(userId)).nextTurn();
  await sim.settle();
}

/** Brom 9 (3+3+3), Aria 14 (5+5+4), Officer 16 (6+6+4): Brom declares first, the Officer resolves first. */
async function battle(extra: Parameters<typeof drWorld>[0] = {}): Promise<Sim> {
  const sim = await drWorld(extra);
  await drEncounter(sim, ["aria", "brom", "officer"]);
  await rollIPs(sim, { aria: [5, 5], brom: [3, 3], officer: [6, 6] });
  return sim;
}

describe("initiative points are Foundry rolls, once per combat", () => {
  it("2d10 + Speed and Wisdom bonuses, posted to chat; the modifier breaks ties", async () => {
    const sim = await battle();
    expect(drOn(sim.gm).combatants.map((c) => c.ip)).toEqual([
      { total: 14, modifier: 4 },
      { total: 9, modifier: 3 },
      { total: 16, modifier: 4 },
    ]);
    expect(chat(sim).map((m) => m.flavor)).toEqual([
      "Aria rolls initiative points.",
      "Brom rolls initiative points.",
      "Officer rolls initiative points.",
    ]);
    expect(rollsOf(chat(sim)[0] ?? {})[0]?.formula).toBe("2d10 + 3 + 1");
    // The tracker's initiative column and Foundry's turns follow IP, fastest first all round: the
    // slowest, at the bottom, declares first.
    await start(sim);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Brom", order: ["Officer", "Aria", "Brom"] });
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("a player rolls their own PC with their roll mode; another's PC is refused before any die", async () => {
    const sim = await drWorld();
    await drEncounter(sim, ["aria", "brom"]);
    const alice = sim.client(ALICE);
    await setChatMode(alice, "private");
    sim.dice.push(2, 3);
    await combatOn(alice).rollInitiative([idOf(alice, "aria")]);
    await sim.settle();
    expect(drOn(sim.gm).combatants[0]?.ip).toEqual({ total: 9, modifier: 4 });
    expect(chat(sim)[0]).toMatchObject({ author: ALICE, whisper: [GM] });
    const before = serverCombatJson(sim);
    sim.dice.push(4, 4);
    await combatOn(alice).rollInitiative([idOf(alice, "brom")]);
    await sim.settle();
    expect(messagesOn(alice)).toEqual([refusalText("notOwner", "Brom")]);
    expect(sim.dice.pending).toBe(2);
    expect(serverCombatJson(sim)).toBe(before);
    // A blind roll asked for by the caller wins over the roller's mode.
    sim.dice.push(1, 1);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "brom")], modeOptions("blind"));
    await sim.settle();
    expect(chat(sim)[1]).toMatchObject({ whisper: [GM], blind: true });
  });

  it.each([
    ["a malformed formula", "drIPFormula", "2d10 +* 1"],
    ["a formula naming data the actor lacks", "drIPFormula", "2d10 + @agility"],
    ["a modifier with dice", "drModifierFormula", "1d4"],
  ])("%s: a localised message, nothing rolled, no state change", async (_label, key, value) => {
    const sim = await drWorld();
    await drEncounter(sim, ["aria"]);
    await setWorld(sim, key, value);
    const before = serverCombatJson(sim);
    sim.dice.push(4, 4);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(messagesOn(sim.gm)).toEqual([refusalText("invalidFormula", "Aria")]);
    expect(serverCombatJson(sim)).toBe(before);
    expect(sim.dice.pending).toBe(2);
    expect(chat(sim)).toEqual([]);
  });

  it("a player's IP must come from their own chat roll: a typed number is refused, the GM's is marked typed", async () => {
    const sim = await drWorld();
    await drEncounter(sim, ["aria", "brom"]);
    const alice = sim.client(ALICE);
    const before = serverCombatJson(sim);
    const typed = { type: "recordIP", combatantId: idOf(alice, "aria"), total: 20, modifier: 4 };
    expect(await commandAs(sim, alice, typed)).toMatchObject({ ok: false, code: "typedResult" });
    expect(serverCombatJson(sim)).toBe(before);
    expect(await commandAs(sim, sim.gm, typed)).toMatchObject({ ok: true });
    expect(drOn(sim.gm).combatants[0]?.ip).toMatchObject({ total: 20 });
  });

  it("after the start nobody rerolls; an NPC joining after the start rolls as it joins", async () => {
    const sim = await battle();
    await start(sim);
    sim.dice.push(9, 9);
    await combatOn(sim.gm).rollInitiative([idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(messagesOn(sim.gm)).toEqual([refusalText("ipAlreadyRolled", "Aria")]);
    // The dice stay for the joiner: the NPC rolls on the GM's client when it joins.
    await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
      { actorId: "actorTrooper0001", tokenId: "tokentrooper1000", sceneId: "scene00000000001" },
    ]);
    await sim.settle();
    const trooper = drOn(sim.gm).combatants.find((c) => c.name === "Trooper 1");
    expect(trooper?.ip).toEqual({ total: 18, modifier: 0 });
    expect(chat(sim).at(-1)?.flavor).toBe("Trooper 1 rolls initiative points.");
    expectNoErrors(sim);
  });

  it("a PC joining after the start is rolled by its owner from their client", async () => {
    const sim = await drWorld();
    await drEncounter(sim, ["aria", "officer"]);
    await rollIPs(sim, { aria: [5, 5], officer: [6, 6] });
    await start(sim);
    await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
      { actorId: "actorBrom0000001", tokenId: "tokenbrom0000000", sceneId: "scene00000000001" },
    ]);
    await sim.settle();
    expect(drOn(sim.gm).combatants.find((c) => c.name === "Brom")?.ip).toBeNull();
    const bob = sim.client(BOB);
    sim.dice.push(1, 2);
    await combatOn(bob).rollInitiative([idOf(bob, "brom")]);
    await sim.settle();
    expect(drOn(sim.gm).combatants.find((c) => c.name === "Brom")?.ip).toEqual({ total: 6, modifier: 3 });
    expect(messagesOn(bob)).toEqual([]);
    expectNoErrors(sim);
  });
});

describe("declare, slowest first", () => {
  it("two players declare in turn; out of turn, for someone else and over budget are refused with their messages", async () => {
    const sim = await battle();
    await start(sim);
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    // Alice is not up yet (Brom is slower), and cannot declare for Bob's Brom.
    const before = serverCombatJson(sim);
    expect(await declareAs(sim, alice, "aria", [{ catalogue: "Dodge" }])).toMatchObject({
      ok: false,
      code: "notYourTurn",
    });
    expect(await declareAs(sim, alice, "brom", [{ catalogue: "Dodge" }])).toMatchObject({
      ok: false,
      code: "notOwner",
    });
    expect(messagesOn(alice)).toEqual([refusalText("notYourTurn", "Aria"), refusalText("notOwner", "Brom")]);
    // Bob's Dodge + Melee Attack (2 + 4) does not fit 5 AP: the message gives the sum and the budget.
    expect(await declareAs(sim, bob, "brom", [{ catalogue: "Dodge" }, { catalogue: "Melee Attack" }])).toMatchObject({
      ok: false,
      code: "apOverBudget",
    });
    expect(messagesOn(bob)).toEqual([
      "Those actions cost 6 AP, but only 5 AP of the 5 AP budget are available this round.",
    ]);
    // An unknown catalogue entry and a bad cost are refused too; none of it changed anything.
    expect(await declareAs(sim, bob, "brom", [{ catalogue: "Fireball" }])).toMatchObject({ code: "unknownAction" });
    expect(await declareAs(sim, bob, "brom", [{ name: "Kick", cost: -1, kind: "attack" }])).toMatchObject({
      code: "invalidCost",
    });
    expect(await declareAs(sim, bob, "brom", [{ name: "Kick", cost: "two", kind: "attack" }])).toMatchObject({
      code: "invalidCost",
    });
    expect(serverCombatJson(sim)).toBe(before);
    // Bob declares a Dodge; now Aria is up, and everyone sees what Brom declared.
    expect(await declareAs(sim, bob, "brom", [{ catalogue: "Dodge" }])).toEqual({ ok: true });
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expect(drOn(alice).combatants.find((c) => c.name === "Brom")?.declaration?.actions).toEqual([
      { name: "Dodge", cost: 2, kind: "defence", def: 0 },
    ]);
    expect(await declareAs(sim, bob, "brom", [{ catalogue: "Dodge" }])).toMatchObject({ code: "alreadyDeclared" });
    expect(await declareAs(sim, alice, "aria", [{ catalogue: "Melee Attack" }])).toEqual({ ok: true });
    // The GM declares for the Officer; then the resolution begins, fastest first.
    expect(
      await declareAs(sim, sim.gm, "officer", [{ name: "Shield wall", cost: 3, kind: "defence", def: 2 }]),
    ).toEqual({
      ok: true,
    });
    expect(drOn(sim.gm).phase).toBe("resolve");
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Officer", order: ["Officer", "Aria", "Brom"] });
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("Power Attack spills over: 5 AP now and 2 of the next round, which then has 3 left and finishes it first", async () => {
    const sim = await battle();
    await start(sim);
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    await declareAs(sim, bob, "brom", []);
    expect(await declareAs(sim, alice, "aria", [{ catalogue: "Power Attack" }])).toEqual({ ok: true });
    expect(drOn(sim.gm).combatants[0]?.declaration).toMatchObject({ carry: 2 });
    await declareAs(sim, sim.gm, "officer", [{ catalogue: "Dodge" }]);
    // Resolve round 1: Officer, Aria (Power Attack begins), Brom has nothing and is skipped.
    await next(sim);
    expect(turnsOn(sim.gm).current).toBe("Aria");
    await next(sim, ALICE);
    expect(drOn(sim.gm).phase).toBe("upkeep");
    await commandAs(sim, sim.gm, { type: "upkeep" });
    // Round 2: Aria has 3 AP; two Dodges (4) do not fit, one does.
    expect(drOn(sim.gm)).toMatchObject({ round: 2, phase: "declare" });
    expect(carriedOf(drOn(sim.gm), 0)).toEqual({
      action: { name: "Power Attack", cost: 7, kind: "attack", def: 0 },
      ap: 2,
    });
    await declareAs(sim, bob, "brom", []);
    expect(await declareAs(sim, alice, "aria", [{ catalogue: "Dodge" }, { catalogue: "Dodge" }])).toMatchObject({
      code: "apOverBudget",
    });
    expect(messagesOn(alice).at(-1)).toBe(
      "Those actions cost 4 AP, but only 3 AP of the 5 AP budget are available this round.",
    );
    expect(await declareAs(sim, alice, "aria", [{ catalogue: "Dodge" }])).toEqual({ ok: true });
    await declareAs(sim, sim.gm, "officer", []);
    // The carried Power Attack finishes at the start of the resolution, before the Officer's actions.
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expect(resolvedAt(drOn(sim.gm), 0)).toBe(0);
    await next(sim, ALICE);
    expect(turnsOn(sim.gm).current).toBe("Aria");
    await next(sim, ALICE);
    expect(drOn(sim.gm).phase).toBe("upkeep");
    expectNoErrors(sim);
  });

  it("extra attacks resolve after everyone's initial actions, in IP order: every second, then every third", async () => {
    const sim = await battle();
    await start(sim);
    const jab = { name: "Jab", cost: 1, kind: "attack" };
    await declareAs(sim, sim.client(BOB), "brom", [{ catalogue: "Dodge" }]);
    await declareAs(sim, sim.client(ALICE), "aria", [jab, jab]);
    await declareAs(sim, sim.gm, "officer", [jab, jab, jab]);
    const seen: string[] = [];
    for (let i = 0; i < 10 && drOn(sim.gm).phase === "resolve"; i++) {
      const view = sim.gm.game.modules.get("structured-initiative")?.api as { view(c: unknown): { step: string } };
      seen.push(`${view.view(combatOn(sim.gm)).step}:${turnsOn(sim.gm).current ?? "-"}`);
      await next(sim);
    }
    expect(seen).toEqual([
      "resolve:Officer",
      "resolve:Aria",
      "resolve:Brom",
      "extraAttacks:Officer",
      "extraAttacks:Aria",
      "extraAttacks:Officer",
    ]);
    expectNoErrors(sim);
  });
});

describe("upkeep", () => {
  async function toUpkeep(sim: Sim): Promise<void> {
    await start(sim);
    await commandAs(sim, sim.gm, {
      type: "setConditions",
      combatantId: idOf(sim.gm, "brom"),
      bleeding: 2,
      dazed: 1,
      stunned: 0,
    });
    await declareAs(sim, sim.client(BOB), "brom", []);
    await declareAs(sim, sim.client(ALICE), "aria", []);
    await declareAs(sim, sim.gm, "officer", []);
    expect(drOn(sim.gm).phase).toBe("upkeep");
  }

  it("bleeding removes hits from the configured path, dazed goes down; a chat card; previous turn undoes it", async () => {
    const sim = await battle({ settings: { "structured-initiative.drHitsPath": "system.hits" } });
    await toUpkeep(sim);
    await commandAs(sim, sim.gm, { type: "upkeep" });
    expect(systemOf(sim.gm, "brom").hits).toBe(28);
    expect(drOn(sim.gm).combatants[1]?.conditions).toEqual({ bleeding: 2, dazed: 0, stunned: 0 });
    const card = chat(sim).at(-1);
    expect(card?.flavor).toBe("Upkeep at the end of round 1");
    expect(contentOf(card)).toContain("Brom: loses 2 hits to bleeding (now 28); no longer dazed.");
    expect(drOn(sim.gm)).toMatchObject({ round: 2, phase: "declare" });
    // Undo: back to the upkeep, hits given back, dazed again.
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(drOn(sim.gm)).toMatchObject({ round: 1, phase: "upkeep" });
    expect(systemOf(sim.gm, "brom").hits).toBe(30);
    expect(drOn(sim.gm).combatants[1]?.conditions.dazed).toBe(1);
    expect(contentOf(chat(sim).at(-1))).toContain("Brom gets 2 hits back.");
    // Confirmed again, it applies again (once).
    await commandAs(sim, sim.gm, { type: "upkeep" });
    expect(systemOf(sim.gm, "brom").hits).toBe(28);
    expectNoErrors(sim);
  });

  it("without a hits path the upkeep is reported for the GM to apply; only the GM confirms it", async () => {
    const sim = await battle();
    await toUpkeep(sim);
    expect(await commandAs(sim, sim.client(BOB), { type: "upkeep" })).toMatchObject({ code: "notGM" });
    await commandAs(sim, sim.gm, { type: "upkeep" });
    expect(systemOf(sim.gm, "brom").hits).toBe(30);
    expect(contentOf(chat(sim).at(-1))).toContain("Brom: bleeds 2 hits: the GM applies them; no longer dazed.");
    await combatOn(sim.gm).previousRound();
    await sim.settle();
    expect(contentOf(chat(sim).at(-1))).toContain("Brom: give back 2 hits by hand.");
  });
});

describe("DEF for the round", () => {
  it("with a DEF path, a declared DEF change is an ActiveEffect on the actor until the round ends or it is undone", async () => {
    const sim = await battle({ settings: { "structured-initiative.drDefPath": "system.def" } });
    await start(sim);
    const effectsOf = () =>
      (sim.gm.game.actors.get("actorBrom0000001")?.effects.contents ?? []).map((e) => ({
        name: e.name,
        changes: (e as unknown as { _source: { changes: unknown } })._source.changes,
      }));
    await declareAs(sim, sim.client(BOB), "brom", [{ name: "Brace", cost: 1, kind: "defence", def: 2 }]);
    expect(effectsOf()).toEqual([{ name: "DEF +2 this round", changes: [{ key: "system.def", mode: 2, value: "2" }] }]);
    // Undone, the effect goes; declared again, it comes back once.
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(effectsOf()).toEqual([]);
    await declareAs(sim, sim.client(BOB), "brom", [{ name: "Brace", cost: 1, kind: "defence", def: 2 }]);
    await declareAs(sim, sim.client(ALICE), "aria", []);
    await declareAs(sim, sim.gm, "officer", []);
    expect(effectsOf()).toHaveLength(1);
    for (let i = 0; i < 5 && combatOn(sim.gm).round === 1; i++) await next(sim);
    expect(drOn(sim.gm).round).toBe(2);
    expect(effectsOf()).toEqual([]);
    expectNoErrors(sim);
  });
});

describe("the action catalogue setting", () => {
  it("a catalogue that cannot be read falls back to the defaults, with a warning to the GM", async () => {
    const sim = await battle();
    await setWorld(sim, "drCatalogue", "{not json");
    await start(sim);
    expect(await declareAs(sim, sim.client(BOB), "brom", [{ catalogue: "Dodge" }])).toEqual({ ok: true });
    expect(await declareAs(sim, sim.gm, "aria", [{ catalogue: "Power Attack" }])).toEqual({ ok: true });
    const warning =
      "The declare-resolve action catalogue setting cannot be read: the default catalogue (Dodge, Melee Attack, Power Attack) is used. Open the action catalogue in the module settings and save it again.";
    expect(messagesOn(sim.gm).filter((m) => m === warning)).toHaveLength(1);
    expect(messagesOn(sim.client(BOB))).toEqual([]);
  });

  it("a saved catalogue's entries are what a declaration takes by name", async () => {
    const sim = await battle();
    await setWorld(
      sim,
      "drCatalogue",
      JSON.stringify({ entries: [{ name: "Parry", cost: 1, kind: "defence", def: 3 }] }),
    );
    await start(sim);
    expect(await declareAs(sim, sim.client(BOB), "brom", [{ catalogue: "parry" }, { catalogue: "Parry" }])).toEqual({
      ok: true,
    });
    expect(drOn(sim.gm).combatants[1]?.declaration?.actions).toEqual([
      { name: "Parry", cost: 1, kind: "defence", def: 3 },
      { name: "Parry", cost: 1, kind: "defence", def: 3 },
    ]);
    expect(await declareAs(sim, sim.client(ALICE), "aria", [{ catalogue: "Dodge" }])).toMatchObject({
      code: "unknownAction",
    });
  });
});
