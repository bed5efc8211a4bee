/**
 * Dice a player cannot fish or forge (issue 27 item 2). Every roll the module asks for carries its
 * purpose on its ChatMessage; the first roll for a purpose is the one that counts, a later one is
 * refused and the GM told; a roll without the purpose, or made before the state asked for it, is
 * refused. In `declare-resolve` a second IP roll is refused as in the other modes, the GM's re-roll
 * kept with the earlier total struck through. With the world's dice rolled by the GM's client, every
 * rolled command works and no player's own message counts.
 */
import { describe, expect, it } from "vitest";
import { setChatMode, type Sim, type SimClient } from "../sim/index.js";
import type { JsonObject } from "../sim/utils.js";
import {
  ALICE,
  GM,
  SETTINGS,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  serverCombat,
  serverCombatJson,
  stateOn,
  world,
} from "./world.js";
import { handRoll, purposeFlags } from "./dice-world.js";
import { drEncounter, drOn, drWorld } from "./declare-resolve-world.js";
import { cid, run, sideId, sidesApi, sidesEncounter, sidesOn, sidesWorld } from "./sides-world.js";
import { slotsEncounter, slotsOn } from "./slots-world.js";
import { phasesEncounter, phasesOn, phasesWorld, rollSkill, send } from "./phases-world.js";

const GM_ROLLS = { "structured-initiative.diceRoller": "gm" };

function aria(client: SimClient): JsonObject {
  return { type: "recordInitiative", combatantId: idOf(client, "aria") };
}

/** The English notice the GM gets when a player rolled for one purpose `count` times. */
function rolledAgain(user: string, roll: string, count: number): string {
  return `${user} rolled ${roll} ${String(count)} times; the first counts.`;
}

/** The encounter as stored on the server (a request written on a combatant is not part of it). */
function stored(sim: Sim): string {
  return JSON.stringify((serverCombat(sim).flags as JsonObject)["structured-initiative"]);
}

/** The server's messages whispered to the GM with this text. */
function gmNotes(sim: Sim, text: string): JsonObject[] {
  return sim.server.world.messages.filter((m) => m.content === text && (m.whisper as string[]).includes(GM));
}

describe("individual: the first roll for a purpose counts", () => {
  it("three rolls for Aria's initiative, the best sent: refused, the GM told; the first is taken", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    const flags = purposeFlags(alice, aria(alice));
    const first = await handRoll(sim, alice, "1d20 + 3", [4], flags);
    await handRoll(sim, alice, "1d20 + 3", [11], flags);
    const best = await handRoll(sim, alice, "1d20 + 3", [19], flags);
    const before = stored(sim);
    const send = (id: string, total: number) =>
      apiOn(alice).command(combatOn(alice), { ...aria(alice), total, modifier: 3, rolls: [id] });
    expect(await send(best, 22)).toMatchObject({ ok: false, code: "notFirstRoll" });
    await sim.settle();
    expect(stored(sim)).toBe(before);
    expect(messagesOn(alice)).toEqual([refusalText("notFirstRoll")]);
    const told = rolledAgain("Alice", "Aria's initiative", 3);
    expect(messagesOn(sim.gm)).toEqual([told]);
    expect(gmNotes(sim, told)).toHaveLength(1);
    expect(await send(first, 7)).toEqual({ ok: true });
    await sim.settle();
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.initiative).toBe(7);
    expectNoErrors(sim);
  });

  it("deleting the first roll does not make the next one the first", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    const flags = purposeFlags(alice, aria(alice));
    const first = await handRoll(sim, alice, "1d20 + 3", [2], flags);
    await alice.game.messages.get(first)?.delete();
    const second = await handRoll(sim, alice, "1d20 + 3", [18], flags);
    const command = { ...aria(alice), total: 21, modifier: 3, rolls: [second] };
    expect(await apiOn(alice).command(combatOn(alice), command)).toMatchObject({ code: "notFirstRoll" });
    await sim.settle();
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.initiative).toBeNull();
    expect(messagesOn(sim.gm)).toEqual([rolledAgain("Alice", "Aria's initiative", 2)]);
  });

  it("a roll without the module's purpose, or with another purpose, is refused", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    const bare = await handRoll(sim, alice, "1d20 + 3", [9]);
    const otherUser = await handRoll(sim, alice, "1d20 + 3", [9], purposeFlags(alice, aria(alice), 0, { user: "x" }));
    const otherFor = await handRoll(sim, alice, "1d20 + 3", [9], purposeFlags(alice, { ...aria(alice), type: "x" }));
    const before = stored(sim);
    for (const id of [bare, otherUser, otherFor]) {
      const command = { ...aria(alice), total: 12, modifier: 3, rolls: [id] };
      expect(await apiOn(alice).command(combatOn(alice), command)).toMatchObject({ code: "rollWithoutPurpose" });
    }
    await sim.settle();
    expect(stored(sim)).toBe(before);
    expect(messagesOn(alice)).toEqual(Array(3).fill(refusalText("rollWithoutPurpose")));
  });

  it("a roll made before the state asked for it (before an undo asked again) is refused", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    const alice = sim.client(ALICE);
    const heroes = sideId(alice, "Heroes");
    sim.dice.push(4, 5, 6);
    expect(await sidesApi(alice).rollSide(combatOn(alice), heroes)).toEqual({ ok: true });
    await sim.settle();
    // While Heroes' roll stands, Alice rolls for it by hand; the GM then takes the roll back.
    const early = await handRoll(
      sim,
      alice,
      "3d6",
      [6, 6, 6],
      purposeFlags(alice, { type: "recordSideRoll", sideId: heroes }),
    );
    const future = await handRoll(
      sim,
      alice,
      "3d6",
      [6, 6, 5],
      purposeFlags(alice, { type: "recordSideRoll", sideId: heroes }, 0, { rev: 999 }),
    );
    expect(await run(sim, sim.gm, { type: "previousTurn" })).toEqual({ ok: true });
    expect(sidesOn(sim.gm).rolls).toEqual([]);
    const before = stored(sim);
    for (const [id, total] of [
      [early, 18],
      [future, 17],
    ] as const) {
      const command = { type: "recordSideRoll", sideId: heroes, total, rolls: [id] };
      expect(await apiOn(alice).command(combatOn(alice), command)).toMatchObject({ code: "rollBeforeAsked" });
    }
    await sim.settle();
    expect(stored(sim)).toBe(before);
    // Rolled now, through the tracker, it counts.
    sim.dice.push(1, 2, 3);
    expect(await sidesApi(alice).rollSide(combatOn(alice), heroes)).toEqual({ ok: true });
    await sim.settle();
    expect(sidesOn(sim.gm).rolls).toEqual([{ sideId: heroes, total: 6 }]);
    expectNoErrors(sim);
  });
});

describe("phases: an edited roll is not the first", () => {
  it("a roll, then an edited copy of it posted and sent: refused, the GM told", async () => {
    const sim = await phasesWorld();
    await phasesEncounter(sim, ["aria", "brom", "officer"]);
    await send(sim, sim.gm, { type: "start", surprise: false });
    await send(sim, sim.gm, {
      type: "declareIntent",
      foeId: idOf(sim.gm, "officer"),
      text: "Shoot",
      kind: "other",
      targets: [],
    });
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    const base = { type: "skillRoll", combatantId: idOf(alice, "aria"), dieSize: 8 };
    // Alice rolls by hand for the module's purpose (doubles: a failure), then posts an edited copy (7, 8).
    const state = JSON.stringify(phasesOn(sim.gm));
    const first = await handRoll(sim, alice, "2d8", [2, 2], purposeFlags(alice, base));
    const forged = await handRoll(sim, alice, "2d8", [7, 8], purposeFlags(alice, base));
    expect(first).not.toBe(forged);
    const result = await send(sim, alice, { ...base, dice: [7, 8], rolls: [forged] });
    expect(result).toMatchObject({ code: "notFirstRoll" });
    expect(messagesOn(sim.gm)).toContain(rolledAgain("Alice", "Aria's skill roll", 2));
    expect(JSON.stringify(phasesOn(sim.gm))).toBe(state);
  });
});

describe("declare-resolve: a player's second IP roll is refused; the GM re-rolls, the earlier IP struck through", () => {
  it("Alice rolls Aria's IP once; her second is refused before any die; the GM's re-roll shows the first struck through", async () => {
    const sim = await drWorld({ renderTemplates: true });
    await drEncounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    sim.dice.push(5, 6);
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    const first = drOn(sim.gm).combatants.find((c) => c.name === "Aria")?.ip?.total ?? null;
    expect(first).not.toBeNull();
    const before = serverCombatJson(sim);
    const chat = sim.server.world.messages.length;
    sim.dice.push(9, 9);
    const pending = sim.dice.pending;
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([
      { ok: false, code: "rerollGMOnly" },
    ]);
    await sim.settle();
    expect(serverCombatJson(sim)).toBe(before);
    expect(sim.server.world.messages).toHaveLength(chat);
    expect(sim.dice.pending).toBe(pending);
    expect(messagesOn(alice)).toEqual([refusalText("rerollGMOnly", "Aria")]);
    // The GM rolls again: the new IP counts, the first is kept, struck through, on every client.
    expect(await apiOn(sim.gm).rollInitiative(combatOn(sim.gm), [idOf(sim.gm, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    const ip = drOn(sim.gm).combatants.find((c) => c.name === "Aria")?.ip;
    expect(ip?.replaced).toEqual([first]);
    for (const client of sim.clients) {
      const app = client.ui.combat as { render(): Promise<unknown>; parts: Record<string, string> };
      await app.render();
      const html = Object.values(app.parts).join("");
      expect(html, client.userId).toMatch(new RegExp(`si-dr-ip-earlier[^>]*><s>${String(first)}</s>`));
    }
    expectNoErrors(sim);
  }, 20_000);
});

/** The server's last message with a roll. */
function lastRoll(sim: Sim): JsonObject {
  const message = sim.server.world.messages.filter((m) => (m.rolls as unknown[]).length > 0).at(-1);
  if (message === undefined) throw new Error("no roll in chat");
  return message;
}

describe.each([
  { roller: "player", settings: {} },
  { roller: "gm", settings: GM_ROLLS },
])("every rolled command works when $roller rolls players' dice", ({ roller, settings }) => {
  /** The roll was made for Alice: by her client, or by the GM's "for Alice". */
  function expectRolledForAlice(message: JsonObject): void {
    const purpose = (message.flags as { "structured-initiative"?: { purpose?: JsonObject } })["structured-initiative"]
      ?.purpose;
    expect(purpose?.user).toBe(ALICE);
    expect(message.author).toBe(roller === "gm" ? GM : ALICE);
    if (roller === "gm") expect(message.flavor).toMatch(/\(rolled by the GM for Alice\)$/);
  }

  it("individual: a player's initiative, the GM's group check and roll-off", async () => {
    const sim = await world({ settings: { ...SETTINGS, ...settings } });
    await encounter(sim, ["aria", "officer", "trooper1", "trooper2"]);
    const alice = sim.client(ALICE);
    sim.dice.push(12);
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    expectRolledForAlice(lastRoll(sim));
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.initiative).toBe(15);
    const gm = apiOn(sim.gm);
    await gm.groupCombatants(combatOn(sim.gm), [idOf(sim.gm, "trooper1"), idOf(sim.gm, "trooper2")], "Troopers");
    await sim.settle();
    sim.dice.push(10);
    expect(await gm.rollInitiative(combatOn(sim.gm), [idOf(sim.gm, "trooper1")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    expect(lastRoll(sim).author).toBe(GM);
    // The Officer (+2) ties with Aria (+3)? No: a tie needs the same total and modifier; a roll-off
    // is then the GM's. Here the Officer rolls 13: 15, below Aria's modifier, no roll-off pending.
    sim.dice.push(13);
    expect(await gm.rollInitiative(combatOn(sim.gm), [idOf(sim.gm, "officer")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    expect(await gm.rollOffs(combatOn(sim.gm))).toEqual([]);
    expectNoErrors(sim);
  });

  it("individual: the GM's roll-off between two tied troopers", async () => {
    const sim = await world({ settings: { ...SETTINGS, ...settings } });
    await encounter(sim, ["aria", "trooper1", "trooper3"]);
    const gm = apiOn(sim.gm);
    // Both roll 10 with the same modifier (0): tied, a roll-off waits.
    sim.dice.push(10, 10);
    await gm.rollInitiative(combatOn(sim.gm), [idOf(sim.gm, "trooper1"), idOf(sim.gm, "trooper3")]);
    await sim.settle();
    const chat = sim.server.world.messages.length;
    sim.dice.push(4, 16);
    expect(await gm.rollOffs(combatOn(sim.gm))).toMatchObject([{ ok: true }]);
    await sim.settle();
    const posted = sim.server.world.messages.slice(chat).filter((m) => (m.rolls as unknown[]).length > 0);
    expect(posted.map((m) => m.author)).toEqual([GM, GM]);
    expect(
      stateOn(sim.gm)
        .rollOffs.flat()
        .map((r) => r.total),
    ).toEqual([4, 16]);
    expect(await gm.rollOffs(combatOn(sim.gm))).toEqual([]);
    expectNoErrors(sim);
  });

  it("sides: a player's side roll", async () => {
    const sim = await sidesWorld({ settings: settings });
    await sidesEncounter(sim, ["ace", "jaluun", "officer"]);
    await run(sim, sim.gm, { type: "start" });
    const alice = sim.client(ALICE);
    sim.dice.push(4, 5, 6);
    expect(await sidesApi(alice).rollSide(combatOn(alice), sideId(alice, "Heroes"))).toEqual({ ok: true });
    await sim.settle();
    expectRolledForAlice(lastRoll(sim));
    expect(sidesOn(sim.gm).rolls).toEqual([{ sideId: sideId(sim.gm, "Heroes"), total: 15 }]);
    expect(cid(sim.gm, "ace")).not.toBe("");
    expectNoErrors(sim);
  });

  it("slots: a player's check (two rolls)", async () => {
    const sim = await world({ settings: { ...SETTINGS, ...settings } });
    await slotsEncounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    sim.dice.push(4, 2);
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    const rolls = sim.server.world.messages.filter((m) => (m.rolls as unknown[]).length > 0);
    expect(rolls).toHaveLength(2);
    for (const message of rolls) expectRolledForAlice(message);
    expect(slotsOn(sim.gm).combatants.find((c) => c.id === idOf(sim.gm, "aria"))?.check).not.toBeNull();
    expectNoErrors(sim);
  });

  it("declare-resolve: a player's IP", async () => {
    const sim = await drWorld({ settings });
    await drEncounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    sim.dice.push(5, 6);
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    expectRolledForAlice(lastRoll(sim));
    expect(drOn(sim.gm).combatants.find((c) => c.name === "Aria")?.ip).not.toBeNull();
    expectNoErrors(sim);
  });

  it("phases: a player's skill roll", async () => {
    const sim = await phasesWorld({ settings });
    await phasesEncounter(sim, ["aria", "brom", "officer"]);
    await send(sim, sim.gm, { type: "start", surprise: false });
    await send(sim, sim.gm, {
      type: "declareIntent",
      foeId: idOf(sim.gm, "officer"),
      text: "Shoot",
      kind: "other",
      targets: [],
    });
    await send(sim, sim.gm, { type: "nextPhase" });
    const alice = sim.client(ALICE);
    await send(sim, alice, { type: "startTurn", combatantId: idOf(alice, "aria") });
    expect(await rollSkill(sim, alice, "aria", [6], { skill: "Melee" })).toEqual({ ok: true });
    expectRolledForAlice(lastRoll(sim));
    expect(JSON.stringify(phasesOn(sim.gm))).toContain("6");
    expectNoErrors(sim);
  });
});

describe("the GM's client rolls players' dice", () => {
  it("a player's private roll is made by the GM, whispered to the GMs, and counts", async () => {
    const sim = await world({ settings: { ...SETTINGS, ...GM_ROLLS } });
    await encounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    await setChatMode(alice, "private");
    sim.dice.push(12);
    expect(await apiOn(alice).rollInitiative(combatOn(alice), [idOf(alice, "aria")])).toMatchObject([{ ok: true }]);
    await sim.settle();
    const message = lastRoll(sim);
    expect(message.author).toBe(GM);
    expect(message.whisper).toEqual([GM]);
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.initiative).toBe(15);
  });

  it("a player's own roll, even with the right purpose, is refused: its faces could have been chosen", async () => {
    const sim = await world({ settings: { ...SETTINGS, ...GM_ROLLS } });
    await encounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    const own = await handRoll(sim, alice, "1d20 + 3", [20], purposeFlags(alice, aria(alice)));
    const command = { ...aria(alice), total: 23, modifier: 3, rolls: [own] };
    expect(await apiOn(alice).command(combatOn(alice), command)).toMatchObject({ code: "rollMismatch" });
    await sim.settle();
    expect(stateOn(sim.gm).combatants.find((c) => c.name === "Aria")?.initiative).toBeNull();
  });

  it("a second request for the same roll gets no second roll; the GM is told", async () => {
    const sim = await world({ settings: { ...SETTINGS, ...GM_ROLLS } });
    await encounter(sim, ["aria", "officer"]);
    const alice = sim.client(ALICE);
    const request = {
      type: "rollDice",
      command: { ...aria(alice), total: 0, modifier: 3 },
      part: 0,
      roll: { class: "Roll", formula: "1d20 + 3" },
      speaker: idOf(alice, "aria"),
      flavor: "Aria",
      mode: "public",
    };
    // Written on Aria by hand, as the module's request path writes it.
    const write = async (id: string): Promise<void> => {
      const raw = JSON.stringify([id, request]);
      await combatOn(alice)
        .combatants.get(idOf(alice, "aria"))
        ?.update({ flags: { "structured-initiative": { request: raw } } });
      await sim.settle();
    };
    sim.dice.push(2);
    await write("diceRequest00001");
    expect(sim.dice.pending).toBe(0);
    expect(sim.server.world.messages.map((m) => [m.author, m.flavor])).toEqual([
      [GM, "Aria (rolled by the GM for Alice)"],
    ]);
    const rolls = sim.server.world.messages.length;
    sim.dice.push(19);
    await write("diceRequest00002");
    expect(sim.dice.pending).toBe(1);
    expect(sim.server.world.messages.filter((m) => (m.rolls as unknown[]).length > 0)).toHaveLength(1);
    expect(sim.server.world.messages.length).toBe(rolls + 1);
    expect(messagesOn(sim.gm)).toEqual([rolledAgain("Alice", "Aria's initiative", 2)]);
  });
});
