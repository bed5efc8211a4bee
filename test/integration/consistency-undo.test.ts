/**
 * Consistency (issue 3 item 5) and undo by snapshots (item 6): every client derives the same turns
 * from stored data; core's turn hooks still fire; previous turn / previous round restore the exact
 * earlier structured state in one update, with a bounded history whose length does not grow a step.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_USERS, type Sim, type SimClient } from "../sim/index.js";
import type { IndividualState } from "../../src/modes/individual/rules/types.js";
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
  messagesOn,
  refusalText,
  rollAs,
  serverCombat,
  start,
  stateOn,
  tokenOf,
  turnsOn,
  world,
} from "./world.js";

/** Aria 18, Brom 11, Officer 6. */
async function battle(extra: Parameters<typeof world>[0] = {}): Promise<Sim> {
  const sim = await world(extra);
  await encounter(sim, ["aria", "brom", "officer"]);
  await rollAs(sim, { aria: 15, brom: 10, officer: 4 });
  await start(sim);
  return sim;
}

function hooks(client: SimClient, name: string): unknown[][] {
  return client.hookLog.filter((h) => h.name === name).map((h) => h.args);
}

interface TurnState {
  round: number | null;
  turn: number | null;
  combatantId: string | null;
}

describe("consistency: every client derives the same turns from stored data", () => {
  it("after delays, readies, joins and removals every client shows the same turns, turn and combatant", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    expectAgreement(sim);
    await combatOn(sim.gm).createEmbeddedDocuments("Combatant", [
      { actorId: ACTOR.trooper1, tokenId: tokenOf("trooper1"), sceneId: SCENE },
    ]);
    await sim.settle();
    expectAgreement(sim);
    await rollAs(sim, { trooper1: 19 });
    expectAgreement(sim);
    await apiOn(sim.client(BOB)).command(combatOn(sim.client(BOB)), {
      type: "ready",
      combatantId: idOf(sim.gm, "brom"),
      trigger: "someone opens the door",
    });
    await sim.settle();
    expectAgreement(sim);
    await apiOn(alice).command(combatOn(alice), { type: "endDelay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    expectAgreement(sim);
    // combat.turn / combat.combatant name whoever acts now, on every client.
    const current = apiOn(sim.gm).view(combatOn(sim.gm))?.current;
    for (const client of sim.clients) expect(combatOn(client).combatant?.id).toBe(current);
    // A freshly loaded client derives the same from the stored documents alone.
    await alice.reload();
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("core's turn hooks still fire", () => {
  it("combatStart once, with round 1 and the first turn", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"]);
    await rollAs(sim, { aria: 10, brom: 5 });
    await start(sim);
    const fired = sim.clients.flatMap((c) => hooks(c, "combatStart"));
    expect(fired).toHaveLength(1);
    expect(fired[0]?.[1]).toEqual({ round: 1, turn: 0 });
  });

  it("a write that moves no turn sends no direction, as core sends one only when the turn or round moves", async () => {
    const sim = await battle();
    const directions = () =>
      hooks(sim.gm, "updateCombat").map((args) => (args[2] as { direction?: number } | undefined)?.direction);
    const seen = directions().length;
    // A turn and a delay move the turn on; a change of the skip-defeated rule moves nothing.
    await combatOn(sim.client(ALICE)).nextTurn();
    await sim.settle();
    await apiOn(sim.gm).command(combatOn(sim.gm), { type: "delay", combatantId: idOf(sim.gm, "brom") });
    await sim.settle();
    const flags = serverCombat(sim).flags as Record<string, { encounter?: { state?: { skipDefeated?: boolean } } }>;
    const skip = flags["structured-initiative"]?.encounter?.state?.skipDefeated !== true;
    await apiOn(sim.gm).command(combatOn(sim.gm), { type: "setSkipDefeated", skip });
    await sim.settle();
    expect(directions().slice(seen)).toEqual([1, 1, undefined]);
  });

  it("combatTurn on a turn change and combatRound on a round change, forward and back", async () => {
    const sim = await battle();
    await combatOn(sim.client(ALICE)).nextTurn();
    await sim.settle();
    const turn = sim.clients.flatMap((c) => hooks(c, "combatTurn"));
    expect(turn.map((args) => [args[1], (args[2] as { direction: number }).direction])).toEqual([
      [{ round: 1, turn: 1 }, 1],
    ]);
    await combatOn(sim.gm).nextRound();
    await sim.settle();
    await combatOn(sim.gm).previousRound();
    await sim.settle();
    const round = sim.clients.flatMap((c) => hooks(c, "combatRound"));
    expect(round.map((args) => [args[1], (args[2] as { direction: number }).direction])).toEqual([
      [{ round: 2, turn: 0 }, 1],
      [{ round: 1, turn: 0 }, -1],
    ]);
  });

  it("previousTurn announces a backward turn change (direction -1)", async () => {
    const sim = await battle();
    await combatOn(sim.client(ALICE)).nextTurn();
    await sim.settle();
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    const turn = sim.clients.flatMap((c) => hooks(c, "combatTurn"));
    expect(turn.map((args) => [args[1], (args[2] as { direction: number }).direction])).toEqual([
      [{ round: 1, turn: 1 }, 1],
      [{ round: 1, turn: 0 }, -1],
    ]);
  });

  it("combatTurnChange fires on every client whenever the acting combatant changes, even at the same index", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    // Aria (index 0) delays: Brom acts, now at index 0.
    await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    for (const client of sim.clients) {
      const changes = hooks(client, "combatTurnChange").slice(-1);
      expect(changes, client.userId).toHaveLength(1);
      const [, prior, current] = changes[0] as [unknown, TurnState, TurnState];
      expect(prior.combatantId).toBe(idOf(client, "aria"));
      expect(current.combatantId).toBe(idOf(client, "brom"));
      expect(current.turn).toBe(0);
    }
  });
});

describe("undo: previous turn and previous round restore the exact earlier structured state", () => {
  it("previousTurn restores the state before the last step in one Combat update", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    await combatOn(alice).nextTurn();
    await sim.settle();
    const before: IndividualState = stateOn(sim.gm);
    const turnBefore = turnsOn(sim.gm);
    await apiOn(sim.client(BOB)).command(combatOn(sim.client(BOB)), {
      type: "ready",
      combatantId: idOf(sim.gm, "brom"),
      trigger: "x",
    });
    await sim.settle();
    expect(stateOn(sim.gm)).not.toEqual(before);
    sim.server.resetStats();
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(stateOn(sim.gm)).toEqual(before);
    expect(turnsOn(sim.gm)).toEqual(turnBefore);
    expect(sim.server.ops.map((o) => [o.action, o.documentName, o.writes])).toEqual([["update", "Combat", 1]]);
    expectAgreement(sim);
  });

  it("previousRound returns to the start of the previous round in one Combat update", async () => {
    const sim = await battle();
    const roundOne = stateOn(sim.gm);
    for (let i = 0; i < 4; i++) await combatOn(sim.gm).nextTurn(); // round 2, Brom acting
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ round: 2, current: "Brom" });
    sim.server.resetStats();
    await combatOn(sim.gm).previousRound();
    await sim.settle();
    expect(stateOn(sim.gm)).toEqual(roundOne);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Aria" });
    expect(sim.server.stats.writes).toBe(1);
    expectAgreement(sim);
  });

  it("the history is bounded by the historyLimit setting", async () => {
    const sim = await world({
      settings: {
        "structured-initiative.defaultMode": "individual",
        "structured-initiative.initiativeSource": "formula",
        "structured-initiative.initiativeFormula": "1d20",
        "structured-initiative.modifierFormula": "@attributes.init.mod",
        "structured-initiative.historyLimit": 3,
      },
    });
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4 });
    await start(sim);
    for (let i = 0; i < 6; i++) await combatOn(sim.gm).nextTurn();
    await sim.settle();
    const history = () =>
      Object.keys(
        (
          (serverCombat(sim).flags as Record<string, Record<string, unknown>>)["structured-initiative"]?.encounter as {
            history: object;
          }
        ).history,
      );
    expect(history()).toHaveLength(3);
    for (let i = 0; i < 3; i++) await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(history()).toHaveLength(0);
    const before = JSON.stringify(serverCombat(sim));
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(messagesOn(sim.gm).at(-1)).toBe(refusalText("noHistory"));
    expect(JSON.stringify(serverCombat(sim))).toBe(before);
  });

  it("the bytes of one step's update do not grow with the history's length (5 vs 150)", async () => {
    // Only the GM's client connects: bytes are counted once per message at the server, and fewer
    // clients keep 150 steps quick.
    const sim = await world({
      users: DEFAULT_USERS.map((u) => (u.id === GM ? u : { ...u, connect: false })),
      settings: {
        "structured-initiative.defaultMode": "individual",
        "structured-initiative.initiativeSource": "formula",
        "structured-initiative.initiativeFormula": "1d20",
        "structured-initiative.modifierFormula": "@attributes.init.mod",
        "structured-initiative.historyLimit": 200,
      },
    });
    await encounter(sim, ["aria", "brom", "officer", "trooper1", "trooper2"]);
    await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 12, trooper2: 7 });
    await start(sim);
    const step = async (): Promise<{ requestBytes: number; broadcastBytes: number; writes: number }> => {
      sim.server.resetStats();
      await combatOn(sim.gm).nextTurn();
      await sim.settle();
      return sim.server.stats;
    };
    for (let i = 1; i < 5; i++) await step();
    const at5 = await step();
    for (let i = 6; i < 150; i++) await step();
    const at150 = await step();
    const historyLength = Object.keys(
      (
        (serverCombat(sim).flags as Record<string, Record<string, unknown>>)["structured-initiative"]?.encounter as {
          history: object;
        }
      ).history,
    ).length;
    expect(historyLength).toBe(151);
    expect(at5.writes).toBe(1);
    expect(at150.writes).toBe(1);
    // Allow the few extra digits of larger keys, counters and list ranks (a list emptied each round
    // raises its floor), nothing proportional to the history.
    expect(at150.requestBytes).toBeLessThanOrEqual(at5.requestBytes + 24);
    expect(at150.broadcastBytes).toBeLessThanOrEqual(at5.broadcastBytes + 24);
    expect(at150.broadcastBytes).toBeLessThan(2048);
  });
});
