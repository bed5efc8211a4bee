/**
 * One authority (issue 3 item 4; ARCHITECTURE.md "One authority"): every player action is a request
 * the active GM's client applies against the server-attested user; exactly one client applies each;
 * with no GM online player controls say so; a player's own turn write is put back.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_USERS, ROLES, type Sim } from "../sim/index.js";
import {
  ALICE,
  BOB,
  GM,
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
  turnsOn,
  world,
} from "./world.js";

const GM2 = "gmUser0000000002";
const OUTCOME_QUERY = "structured-initiative.outcome";

/** Aria 18, Brom 11, Officer 6: Aria (Alice's) acts first. */
async function battle(extra: Parameters<typeof world>[0] = {}): Promise<Sim> {
  const sim = await world(extra);
  await encounter(sim, ["aria", "brom", "officer"]);
  await rollAs(sim, { aria: 15, brom: 10, officer: 4 });
  await start(sim);
  sim.server.resetStats();
  return sim;
}

/** The Combat document without its combatants (what a request must not change when refused). */
function combatCore(sim: Sim): string {
  const { combatants: _c, ...rest } = serverCombat(sim);
  return JSON.stringify(rest);
}

function combatWrites(sim: Sim): { userId: string }[] {
  return sim.server.ops.filter((o) => o.documentName === "Combat" && o.action === "update" && !o.refused);
}

describe("one authority: the active GM's client applies every request", () => {
  it("a player's request is written on a combatant it owns and applied by the active GM in one Combat write (and, on v13, the mirrored initiative it moves)", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    const result = await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    expect(result).toEqual({ ok: true });
    const ops = sim.server.ops.map((o) => [o.userId, o.action, o.documentName]);
    // A delay moves Aria's mirrored initiative: on v14 it rides in the Combat write's batch, on v13 it
    // is the combatants' own second write (`updateWithMirror`, src/foundry/compat.ts).
    expect(ops).toEqual([
      [ALICE, "update", "Combatant"],
      sim.generation >= 14 ? [GM, "batch", "Combat"] : [GM, "update", "Combat"],
      ...(sim.generation >= 14 ? [] : [[GM, "update", "Combatant"]]),
    ]);
    expect(turnsOn(sim.gm).current).toBe("Brom");
    expectAgreement(sim);
    // Written on Aria, the delay for Aria leaves her out: the GM took her from the document it was on.
    const raw = combatOn(sim.gm).combatants.get(idOf(alice, "aria"))?.getFlag("structured-initiative", "request");
    expect(JSON.parse(String(raw))).toEqual([expect.any(String), { type: "delay" }, 1]);
  });

  it("a request whose userId names another user is refused: the state is unchanged and the author is told", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    const combat = combatOn(alice);
    const aria = combat.combatants.get(idOf(alice, "aria"));
    const before = combatCore(sim);
    const forged = {
      id: "forgedRequest0001",
      userId: BOB,
      combatId: combat.id,
      command: { type: "delay", combatantId: aria?.id },
    };
    await aria?.update({ flags: { "structured-initiative": { request: JSON.stringify(forged) } } });
    await sim.settle();
    expect(combatCore(sim)).toBe(before);
    expect(turnsOn(sim.gm).current).toBe("Aria");
    // The GM answered the attested author (Alice) with a refusal, and wrote nothing.
    expect(sim.server.ops.filter((o) => o.action === "query").map((o) => [o.userId, o.documentName])).toEqual([
      [GM, OUTCOME_QUERY],
    ]);
    expect(combatWrites(sim)).toEqual([]);
    // Alice wrote it by hand (no request of hers was pending), and is still told why it failed.
    expect(messagesOn(alice)).toEqual([refusalText("wrongUser")]);
    expect(messagesOn(sim.client(BOB))).toEqual([]);
    // The same raw request naming its true author is applied: the refusal was about the user id.
    const honest = { ...forged, id: "honestRequest001", userId: ALICE };
    await aria?.update({ flags: { "structured-initiative": { request: JSON.stringify(honest) } } });
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");
    expectNoErrors(sim);
  });

  it("a request naming the encounter's GM as its author is refused when a player wrote it", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    const combat = combatOn(alice);
    const before = combatCore(sim);
    const forged = { id: "forgedRequest0002", userId: GM, combatId: combat.id, command: { type: "nextRound" } };
    await combat.combatants.get(idOf(alice, "aria"))?.update({
      flags: { "structured-initiative": { request: JSON.stringify(forged) } },
    });
    await sim.settle();
    expect(combatCore(sim)).toBe(before);
    expect(turnsOn(sim.gm).round).toBe(1);
    expect(messagesOn(alice)).toEqual([refusalText("wrongUser")]);
    expect(messagesOn(sim.gm)).toEqual([]);
  });

  it("with two GMs online exactly one client applies each request", async () => {
    const users = [...DEFAULT_USERS, { id: GM2, name: "Second GM", role: ROLES.GAMEMASTER }];
    const sim = await battle({ users });
    const second = sim.client(GM2);
    expect(sim.gm.game.users.activeGM?.id).toBe(GM);
    // A player's request.
    const alice = sim.client(ALICE);
    await combatOn(alice).nextTurn();
    await sim.settle();
    expect(combatWrites(sim).map((o) => o.userId)).toEqual([GM]);
    // The second GM's own action is a request too, applied once, by the active GM.
    sim.server.resetStats();
    const result = await apiOn(second).command(combatOn(second), { type: "nextTurn" });
    await sim.settle();
    expect(result).toEqual({ ok: true });
    expect(combatWrites(sim).map((o) => o.userId)).toEqual([GM2, GM]);
    expect(turnsOn(sim.gm).current).toBe("Officer");
    // Each applied request is one step: the stored revision moved by one per request.
    expect(stateOn(sim.gm).acted).toEqual([idOf(sim.gm, "aria"), idOf(sim.gm, "brom"), idOf(sim.gm, "officer")]);
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("when the active GM leaves, the other GM takes over", async () => {
    const users = [...DEFAULT_USERS, { id: GM2, name: "Second GM", role: ROLES.GAMEMASTER }];
    const sim = await battle({ users });
    sim.gm.disconnect();
    await sim.settle();
    const alice = sim.client(ALICE);
    expect(alice.game.users.activeGM?.id).toBe(GM2);
    // Alice's end of turn is applied by the second GM, who answers her request.
    expect(await apiOn(alice).command(combatOn(alice), { type: "nextTurn" })).toEqual({ ok: true });
    await sim.settle();
    expect(messagesOn(alice)).toEqual([]);
    expect(combatWrites(sim).map((o) => o.userId)).toEqual([GM2]);
    for (const client of sim.clients.filter((c) => c.connected)) {
      expect(turnsOn(client), client.userId).toMatchObject({ current: "Brom", round: 1 });
    }
    expectNoErrors(sim);
  });

  it("with no GM online, player controls say so and nothing is written", async () => {
    const sim = await battle();
    sim.gm.disconnect();
    await sim.settle();
    sim.server.resetStats();
    const alice = sim.client(ALICE);
    const before = JSON.stringify(sim.server.world.combats);
    await combatOn(alice).nextTurn();
    const result = await apiOn(alice).command(combatOn(alice), { type: "delay", combatantId: idOf(alice, "aria") });
    await sim.settle();
    expect(result).toMatchObject({ ok: false, code: "noGM" });
    expect(messagesOn(alice)).toEqual([refusalText("noGM"), refusalText("noGM")]);
    expect(sim.server.ops).toEqual([]);
    expect(JSON.stringify(sim.server.world.combats)).toBe(before);
  });
});

describe("a turn or round change written by a player outside the module's path is put back", () => {
  it.each([
    ["turn", { turn: 2 }],
    ["round", { round: 5 }],
    ["turn to null", { turn: null }],
  ])("%s: the GM client restores the stored round and turn", async (_label, change) => {
    const sim = await battle();
    const bob = sim.client(BOB);
    await combatOn(bob).update(change);
    await sim.settle();
    expect(serverCombat(sim)).toMatchObject({ round: 1, turn: 0 });
    expect(turnsOn(sim.gm)).toEqual({ order: ["Aria", "Brom", "Officer"], current: "Aria", round: 1 });
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});
