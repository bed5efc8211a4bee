/**
 * Races, reloads, deletions and corrupted flags (issue 3 item 8): the encounter always stays valid,
 * every refusal is explained, and the GM can rebuild a corrupted structure without losing anyone.
 */
import { describe, expect, it } from "vitest";
import type { Sim } from "../sim/index.js";
import type { Dict } from "../sim/utils.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { STORED_VERSION } from "../../src/core/store.js";
import {
  ACTOR,
  ALICE,
  BOB,
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
  serverCombat,
  start,
  tokenOf,
  turnsOn,
  world,
} from "./world.js";

/** Aria 18 (Alice), Brom 11 (Bob), Officer 6, Trooper 1: Aria acts first. */
async function battle(): Promise<Sim> {
  const sim = await world();
  await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
  await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 });
  await start(sim);
  return sim;
}

function appliedSteps(sim: Sim): number {
  return sim.server.ops.filter((o) => o.documentName === "Combat" && o.action === "update").length;
}

describe("two conflicting requests sent at once", () => {
  it("the owner's double click on end-turn: exactly one is applied, the other refused with a message", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    sim.server.resetStats();
    await Promise.all([combatOn(alice).nextTurn(), combatOn(alice).nextTurn()]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Brom", round: 1 });
    expect(appliedSteps(sim)).toBe(1);
    expect(messagesOn(alice)).toEqual([refusalText("notOwner", "Brom")]);
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("the GM and the owner both end the turn: exactly one is applied, the other refused with a message", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    sim.server.resetStats();
    const [byGM, byAlice] = await Promise.all([
      apiOn(sim.gm).command(combatOn(sim.gm), { type: "nextTurn" }),
      apiOn(alice).command(combatOn(alice), { type: "nextTurn" }),
    ]);
    await sim.settle();
    expect([byGM, byAlice].filter((r) => r.ok)).toHaveLength(1);
    expect(turnsOn(sim.gm).current).toBe("Brom");
    expect(appliedSteps(sim)).toBe(1);
    const loser = byGM.ok ? alice : sim.gm;
    expect(messagesOn(loser)).toEqual([refusalText("notOwner", "Brom")]);
    expectAgreement(sim);
  });

  it("two players ending their delays at once are both placed, each just before whoever acts, in request order", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    const bob = sim.client(BOB);
    await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    await apiOn(bob).command(combatOn(bob), { type: "delay", combatantId: idOf(bob, "brom") });
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Officer");
    const results = await Promise.all([
      apiOn(alice).command(combatOn(alice), { type: "endDelay", combatantId: idOf(alice, "aria") }),
      apiOn(bob).command(combatOn(bob), { type: "endDelay", combatantId: idOf(bob, "brom") }),
    ]);
    await sim.settle();
    expect(results).toEqual([{ ok: true }, { ok: true }]);
    // Alice's request reached the GM first: Aria cut in before the Officer and acted; then Brom cut
    // in before whoever was acting (Aria) and acts now.
    expect(turnsOn(sim.gm)).toMatchObject({ order: ["Brom", "Aria", "Officer", "Trooper 1"], current: "Brom" });
    expectAgreement(sim);
  });
});

describe("a reloaded client", () => {
  it("sees the same order and can act again", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    const before = turnsOn(sim.gm);
    await alice.reload();
    await sim.settle();
    expect(turnsOn(alice)).toEqual(before);
    expect(await apiOn(alice).command(combatOn(alice), { type: "endDelay", combatantId: idOf(alice, "aria") })).toEqual(
      { ok: true },
    );
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Aria");
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("a reloaded GM client is still the authority and carries on", async () => {
    const sim = await battle();
    await sim.gm.reload();
    await sim.settle();
    await combatOn(sim.client(ALICE)).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");
    expectAgreement(sim);
  });
});

describe("deleting the current combatant or its token mid-round", () => {
  it("deleting the acting combatant: the next one acts and the state stays valid", async () => {
    const sim = await battle();
    await combatOn(sim.gm).nextTurn(); // Brom acts
    await sim.settle();
    await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [idOf(sim.gm, "brom")]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Aria", "Officer", "Trooper 1"], current: "Officer", round: 1 });
    expect(apiOn(sim.gm).isCorrupted(combatOn(sim.gm))).toBe(false);
    expectAgreement(sim);
    await combatOn(sim.gm).nextTurn();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Aria", round: 2 });
    expectNoErrors(sim);
  });

  it("deleting the acting combatant's token: its combatant leaves and the next one acts", async () => {
    const sim = await battle();
    await combatOn(sim.gm).nextTurn(); // Brom acts
    await sim.settle();
    const scene = sim.gm.game.scenes.get(SCENE) as unknown as {
      deleteEmbeddedDocuments(n: string, ids: string[]): Promise<unknown>;
    };
    await scene.deleteEmbeddedDocuments("Token", [tokenOf("brom")]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Aria", "Officer", "Trooper 1"], current: "Officer", round: 1 });
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("the last in the round is deleted while acting: a new round begins with the first", async () => {
    const sim = await battle();
    for (let i = 0; i < 3; i++) await combatOn(sim.gm).nextTurn(); // Trooper 1 acts
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Trooper 1");
    await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [idOf(sim.gm, "trooper1")]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Aria", "Brom", "Officer"], current: "Aria", round: 2 });
    expectAgreement(sim);
  });

  it("a player removing its own acting combatant (Foundry allows owners to) leaves a valid state", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    await combatOn(alice).deleteEmbeddedDocuments("Combatant", [idOf(alice, "aria")]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Officer", "Trooper 1"], current: "Brom", round: 1 });
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("deleting someone who already acted keeps the acting combatant current", async () => {
    const sim = await battle();
    await combatOn(sim.gm).nextTurn(); // Brom acts
    await sim.settle();
    await combatOn(sim.gm).deleteEmbeddedDocuments("Combatant", [idOf(sim.gm, "aria")]);
    await sim.settle();
    expect(turnsOn(sim.gm)).toEqual({ order: ["Brom", "Officer", "Trooper 1"], current: "Brom", round: 1 });
    expectAgreement(sim);
  });
});

describe("corrupted module flags", () => {
  const CORRUPTIONS: readonly [string, Dict, boolean][] = [
    ["the encounter flag is a string", { "flags.structured-initiative.encounter": "garbage" }, false],
    ["the stored order is not a list", { "flags.structured-initiative.encounter.state.order": 42 }, true],
    [
      "the current combatant is unknown",
      { "flags.structured-initiative.encounter.state.current": "nobody0000000001" },
      true,
    ],
    [
      "an undo entry is garbage",
      { "flags.structured-initiative.encounter.history.0": { kind: "turn", undo: "x" } },
      true,
    ],
  ];

  it.each(CORRUPTIONS)(
    "%s: a clear message on commands, isCorrupted, and a reset keeps everyone",
    async (_label, garbage, readable) => {
      const sim = await battle();
      await combatOn(sim.gm).nextTurn(); // one undo entry exists
      await sim.settle();
      await combatOn(sim.gm).update(garbage);
      await sim.settle();
      for (const client of sim.clients) expect(apiOn(client).isCorrupted(combatOn(client)), client.userId).toBe(true);
      // Commands say so and change nothing.
      const before = JSON.stringify(serverCombat(sim));
      const alice = sim.client(ALICE);
      await combatOn(sim.gm).nextTurn();
      await combatOn(sim.gm).previousTurn();
      await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
      await sim.settle();
      expect(JSON.stringify(serverCombat(sim))).toBe(before);
      expect(messagesOn(sim.gm)).toEqual([refusalText("corrupted"), refusalText("corrupted")]);
      expect(messagesOn(alice)).toEqual([refusalText("corrupted")]);
      // The GM resets the structure: a working, not started encounter with every combatant.
      expect(await apiOn(sim.gm).resetEncounter(combatOn(sim.gm))).toEqual({ ok: true });
      await sim.settle();
      for (const client of sim.clients) expect(apiOn(client).isCorrupted(combatOn(client))).toBe(false);
      expect(turnsOn(sim.gm).round).toBe(0);
      expect(combatOn(sim.gm).combatants.size).toBe(4);
      const kept = readable
        ? { Aria: 18, Brom: 11, Officer: 6, "Trooper 1": 1 }
        : { Aria: null, Brom: null, Officer: null, "Trooper 1": null };
      expect(initiativesOn(sim.gm)).toEqual(kept);
      if (!readable) await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 });
      await start(sim);
      expect(turnsOn(sim.gm)).toEqual({ order: ["Aria", "Brom", "Officer", "Trooper 1"], current: "Aria", round: 1 });
      expectAgreement(sim);
      expectNoErrors(sim);
    },
  );

  it("an old undo entry made garbage later is caught by every client, though each checks only what updates touched", async () => {
    const sim = await battle();
    for (let i = 0; i < 3; i += 1) {
      await combatOn(sim.gm).nextTurn();
      await sim.settle();
    }
    for (const client of sim.clients) expect(apiOn(client).isCorrupted(combatOn(client))).toBe(false);
    // The oldest entry: the document merges the change into that entry's object.
    await combatOn(sim.gm).update({ "flags.structured-initiative.encounter.history.0.undo": "x" });
    await sim.settle();
    for (const client of sim.clients) expect(apiOn(client).isCorrupted(combatOn(client)), client.userId).toBe(true);
    const before = JSON.stringify(serverCombat(sim));
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(JSON.stringify(serverCombat(sim))).toBe(before);
    expect(messagesOn(sim.gm)).toEqual([refusalText("corrupted")]);
    // An unrelated update later does not make it readable again.
    await combatOn(sim.gm).update({ "flags.structured-initiative.encounter.applied": "someone" });
    await sim.settle();
    for (const client of sim.clients) expect(apiOn(client).isCorrupted(combatOn(client)), client.userId).toBe(true);
    expectNoErrors(sim);
  });

  it("a player cannot reset the encounter", async () => {
    const sim = await battle();
    await combatOn(sim.gm).update({ "flags.structured-initiative.encounter": "garbage" });
    await sim.settle();
    const alice = sim.client(ALICE);
    expect(await apiOn(alice).resetEncounter(combatOn(alice))).toMatchObject({ ok: false, code: "notGM" });
    expect(apiOn(sim.gm).isCorrupted(combatOn(sim.gm))).toBe(true);
  });

  it("players see the corrupted encounter without errors (core order as a fallback)", async () => {
    const sim = await battle();
    // Aria delays: the stored order is no longer the initiative order core would sort.
    const alice = sim.client(ALICE);
    await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    const bob = sim.client(BOB);
    expect(turnsOn(bob).order).toEqual(["Brom", "Officer", "Trooper 1", "Aria"]);
    await combatOn(sim.gm).update({ "flags.structured-initiative.encounter": "garbage" });
    await sim.settle();
    expect(apiOn(bob).view(combatOn(bob))).toBeNull();
    // Core's order of the initiative as last mirrored (issue 16): the last stored order, delay included.
    expect(turnsOn(bob).order).toEqual(["Brom", "Officer", "Trooper 1", "Aria"]);
    // The tracker still builds, and says the encounter is corrupted.
    const tracker = bob.ui.combat as { _prepareContext(options: object): Promise<{ structuredInitiative?: unknown }> };
    expect((await tracker._prepareContext({})).structuredInitiative).toMatchObject({ corrupted: true });
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("an encounter stored by a newer version of the module", () => {
  it("is refused with a clear message, never reset or overwritten, and the tracker says why", async () => {
    const sim = await battle();
    await combatOn(sim.gm).update({ "flags.structured-initiative.encounter.v": STORED_VERSION + 1 });
    await sim.settle();
    const before = JSON.stringify(serverCombat(sim));
    const alice = sim.client(ALICE);
    await combatOn(sim.gm).nextTurn();
    await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    expect(await apiOn(sim.gm).resetEncounter(combatOn(sim.gm))).toMatchObject({ ok: false, code: "newerFormat" });
    await sim.settle();
    expect(JSON.stringify(serverCombat(sim))).toBe(before);
    expect(messagesOn(sim.gm)).toEqual([refusalText("newerFormat"), refusalText("newerFormat")]);
    expect(messagesOn(alice)).toEqual([refusalText("newerFormat")]);
    const tracker = sim.gm.ui.combat as {
      _prepareContext(options: object): Promise<{ structuredInitiative?: unknown }>;
    };
    expect((await tracker._prepareContext({})).structuredInitiative).toMatchObject({
      newerFormat: true,
      corrupted: false,
      resetControl: null,
    });
    expectNoErrors(sim);
  });
});

describe("an encounter stored in the first format (v1)", () => {
  it("is upgraded by the GM at ready in one write, keeps its state and undo history, and plays on", async () => {
    const raw: unknown = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, "../fixtures/stored/v1-individual.json"), "utf8"),
    );
    const combatant = (id: string, actorId: string, initiative: number) => ({
      _id: id,
      actorId,
      tokenId: `token${
        Object.entries(ACTOR)
          .find(([, a]) => a === actorId)?.[0]
          .padEnd(11, "0")
          .slice(0, 11) ?? ""
      }`,
      sceneId: SCENE,
      initiative,
    });
    const sim = await world({
      combats: [
        {
          _id: "combatOld0000001",
          scene: SCENE,
          active: true,
          round: 2,
          turn: 0,
          combatants: [
            combatant("combatantAria001", ACTOR.aria, 18),
            combatant("combatantBrom001", ACTOR.brom, 11),
            combatant("combatantOffi001", ACTOR.officer, 6),
          ],
          flags: { "structured-initiative": { mode: "individual", encounter: raw as never } },
        },
      ],
    });
    await sim.settle();
    // One request: a Combat update, or on v14 a batch whose first operation is the Combat's (the mirror
    // rides along as the combatants' own updates, src/foundry/compat.ts).
    const writes = sim.server.ops.filter(
      (op) => op.documentName === "Combat" && (op.action === "update" || op.action === "batch") && !op.refused,
    );
    expect(writes.length, "one write upgrades the stored encounter").toBe(1);
    const flags = serverCombat(sim).flags as { "structured-initiative"?: { encounter?: { v?: number } } } | undefined;
    expect(flags?.["structured-initiative"]?.encounter?.v).toBe(STORED_VERSION);
    const bob = sim.client(BOB);
    expect(apiOn(bob).view(combatOn(bob))).toMatchObject({ round: 2, current: "combatantAria001" });
    // The history came across: previous turn lands on Brom's delayed turn, as it did in v1.
    expect(await apiOn(sim.gm).command(combatOn(sim.gm), { type: "previousTurn" })).toMatchObject({ ok: true });
    await sim.settle();
    expect(apiOn(bob).view(combatOn(bob))).toMatchObject({ current: "combatantBrom001" });
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});
