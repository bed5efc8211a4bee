/**
 * One truth for "defeated" (`individual`, `slots`): Foundry's defeated state (the combatant's
 * `defeated` field, the actor's defeated status, read by `Combatant#isDefeated` and the tracker's
 * badge) and the rules' `defeated` flag are kept equal both ways by the active GM's client, with no
 * write beyond what differs; undo leaves Foundry's documents as the truth.
 */
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_USERS, ROLES, type Sim, type SimClient } from "../sim/index.js";
import {
  ACTOR,
  ALICE,
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
  type ActorKey,
} from "./world.js";
import { expectSlotsInvariants, rollChecks, slotsEncounter, slotsOn, slotsTable } from "./slots-world.js";

const GM2 = "gmUser0000000002";

/** The sim's `CONFIG.specialStatusEffects.DEFEATED`. */
const DEAD = "dead";

interface Row {
  id: string;
  name: string;
  defeated: boolean;
}
interface TrackerApp {
  _prepareContext(options: object): Promise<{ structuredInitiative?: { rows: Row[] } | null }>;
}

/** Aria 18, Brom 11, Officer 6, Trooper 1 1; started, Aria acting. */
async function battle(extra: Parameters<typeof world>[0] = {}): Promise<Sim> {
  const sim = await world(extra);
  await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
  await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 });
  await start(sim);
  return sim;
}

/** Aria 3/2 (PC), Brom 5/1 (PC), Officer 4/4 (NPC), Trooper 1 3/2 (NPC); started, first slot open. */
async function slotsBattle(): Promise<Sim> {
  const sim = await world();
  await slotsEncounter(sim, ["aria", "brom", "officer", "trooper1"]);
  await rollChecks(sim, { aria: [3, 2], brom: [5, 1], officer: [4, 4], trooper1: [3, 2] });
  await combatOn(sim.gm).startCombat();
  await sim.settle();
  return sim;
}

async function command(sim: Sim, client: SimClient, data: Record<string, unknown>): Promise<{ ok: boolean }> {
  const result = await apiOn(client).command(combatOn(client), data);
  await sim.settle();
  return result;
}

/** The rules' defeated flag of each combatant stored on a client, by name (either mode). */
function rulesDefeated(client: SimClient): Record<string, boolean> {
  const mode = apiOn(client).modeOf(combatOn(client));
  const list = mode === "slots" ? slotsOn(client).combatants : stateOn(client).combatants;
  return Object.fromEntries(list.map((c) => [c.name, c.defeated]));
}

/** A client's copy of an actor's combatant. */
function combatantOn(client: SimClient, key: ActorKey): NonNullable<ReturnType<typeof combatOn>["combatant"]> {
  const c = combatOn(client).combatants.get(idOf(client, key));
  if (!c) throw new Error(`no combatant for ${key} on ${client.userId}`);
  return c;
}

/**
 * Whether the server's copy of an actor carries the defeated status: an enabled ActiveEffect of the
 * actor whose statuses include it (an actor's statuses come from its effects).
 */
function actorDead(sim: Sim, key: ActorKey): boolean {
  const actor = sim.server.world.actors.find((a) => a._id === ACTOR[key]);
  const effects = (actor?.effects ?? []) as Array<{ statuses: string[]; disabled: boolean }>;
  return effects.some((e) => !e.disabled && e.statuses.includes(DEAD));
}

/** Foundry's defeated state of a combatant on a client, and the tracker row's badge. */
async function foundryDefeated(client: SimClient, key: ActorKey): Promise<{ isDefeated: boolean; badge: boolean }> {
  const combatant = combatantOn(client, key);
  const ctx = (await (client.ui.combat as TrackerApp)._prepareContext({})).structuredInitiative;
  const row = ctx?.rows.find((r) => r.id === combatant.id);
  if (row === undefined) throw new Error(`no row for ${key} on ${client.userId}`);
  return { isDefeated: combatant.isDefeated, badge: row.defeated };
}

/**
 * Every client's rules agree on one combatant's defeated flag, and so do Foundry and the badge; with
 * `actor`, the actor's defeated status too (Foundry may hold the defeat in the combatant's field alone).
 */
async function expectOneTruth(sim: Sim, key: ActorKey, name: string, defeated: boolean, actor = true): Promise<void> {
  for (const client of sim.clients) {
    expect(rulesDefeated(client)[name], client.userId).toBe(defeated);
    expect(await foundryDefeated(client, key), client.userId).toEqual({ isDefeated: defeated, badge: defeated });
  }
  if (actor) expect(actorDead(sim, key)).toBe(defeated);
}

/** Every write the server received since the last reset (refused ones included, marked so). */
function writes(sim: Sim): string[][] {
  return sim.server.ops.map((o) => [o.userId, o.action, o.documentName, ...(o.refused ? ["refused"] : [])]);
}

describe("individual: Foundry's defeated state reaches the rules", () => {
  it("a combatant the GM marks defeated in Foundry is defeated in the rules on every client, and skip-defeated skips it", async () => {
    const sim = await battle();
    await command(sim, sim.gm, { type: "setSkipDefeated", skip: true });
    await combatantOn(sim.gm, "officer").update({ defeated: true });
    await sim.settle();
    for (const client of sim.clients) {
      expect(rulesDefeated(client), client.userId).toEqual({
        Aria: false,
        Brom: false,
        Officer: true,
        "Trooper 1": false,
      });
    }
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Brom");
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Trooper 1", round: 1 });
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("the actor's defeated status (token HUD) counts too; Foundry's own toggle revives it in the rules", async () => {
    const sim = await battle();
    const actor = combatantOn(sim.gm, "officer").actor;
    await actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await sim.settle();
    expect(rulesDefeated(sim.gm).Officer).toBe(true);
    // Foundry's tracker toggle both ways: the field, then the status.
    await combatantOn(sim.gm, "officer").update({ defeated: true });
    await combatantOn(sim.gm, "officer").update({ defeated: false });
    await actor?.toggleStatusEffect(DEAD, { active: false, overlay: true });
    await sim.settle();
    await expectOneTruth(sim, "officer", "Officer", false);
    expectNoErrors(sim);
  });
});

describe("individual: the rules' defeated state reaches Foundry", () => {
  it("setDefeated marks the combatant and its actor defeated, with the badge on every client; reviving clears both", async () => {
    const sim = await battle();
    expect(
      await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "officer"), defeated: true }),
    ).toEqual({ ok: true });
    await expectOneTruth(sim, "officer", "Officer", true);
    expect(combatantOn(sim.gm, "officer").defeated).toBe(true);
    expect(
      await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "officer"), defeated: false }),
    ).toEqual({ ok: true });
    await expectOneTruth(sim, "officer", "Officer", false);
    for (const client of sim.clients) expect(combatantOn(client, "officer").defeated, client.userId).toBe(false);
    expectNoErrors(sim);
  });

  it("a combatant defeated only by its actor's status is revived entirely by setDefeated false", async () => {
    const sim = await battle();
    await combatantOn(sim.gm, "brom").actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await sim.settle();
    expect(rulesDefeated(sim.gm).Brom).toBe(true);
    await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "brom"), defeated: false });
    await expectOneTruth(sim, "brom", "Brom", false);
    expectNoErrors(sim);
  });
});

describe("slots: Foundry's defeated state reaches the rules", () => {
  it("combatants marked defeated in Foundry are defeated in the slots rules: an NPC's slot goes, a PC cannot claim one", async () => {
    const sim = await slotsBattle();
    await combatantOn(sim.gm, "officer").update({ defeated: true });
    await combatantOn(sim.gm, "aria").actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await sim.settle();
    for (const client of sim.clients) {
      expect(rulesDefeated(client), client.userId).toEqual({
        Aria: true,
        Brom: false,
        Officer: true,
        "Trooper 1": false,
      });
    }
    // Default policy: the defeated NPC's slot goes, the defeated PC's stays.
    expect(slotsTable(sim.gm).map((s) => s.slice(1, 8))).toEqual(["pc:5/1 ", "pc:3/2 ", "npc:3/2"]);
    const alice = sim.client(ALICE);
    const refused = await command(sim, alice, { type: "claimSlot", slot: 0, combatantId: idOf(alice, "aria") });
    expect(refused).toMatchObject({ ok: false, code: "combatantDefeated" });
    expect(slotsOn(sim.gm).slots[0]?.claimedBy).toBeNull();
    expectSlotsInvariants(sim);
    expectNoErrors(sim);
  });

  it("setDefeated in slots marks the combatant defeated in Foundry", async () => {
    const sim = await slotsBattle();
    await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "aria"), defeated: true });
    await expectOneTruth(sim, "aria", "Aria", true);
    expectSlotsInvariants(sim);
    expectNoErrors(sim);
  });
});

describe("no extra writes", () => {
  it("Foundry → rules: the combatant's update, then one Combat write, then nothing", async () => {
    const sim = await battle();
    sim.server.resetStats();
    await combatantOn(sim.gm, "officer").update({ defeated: true });
    await sim.settle();
    await sim.settle();
    expect(writes(sim)).toEqual([
      [GM, "update", "Combatant"],
      [GM, "update", "Combat"],
    ]);
  });

  it("rules → Foundry: one Combat write, then the combatant and the actor's defeated effect once each, then nothing", async () => {
    const sim = await battle();
    sim.server.resetStats();
    await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "officer"), defeated: true });
    await sim.settle();
    expect(writes(sim)).toEqual([
      [GM, "update", "Combat"],
      [GM, "update", "Combatant"],
      [GM, "create", "ActiveEffect"],
    ]);
    sim.server.resetStats();
    await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "officer"), defeated: false });
    expect(writes(sim)).toEqual([
      [GM, "update", "Combat"],
      [GM, "update", "Combatant"],
      [GM, "delete", "ActiveEffect"],
    ]);
  });

  it("Foundry → rules through the actor's effects: the effect's write, then one Combat write; an effect update that leaves statuses and disabled alone reconciles nothing", async () => {
    const sim = await battle();
    const actor = combatantOn(sim.gm, "officer").actor;
    sim.server.resetStats();
    await actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await sim.settle();
    expect(writes(sim)).toEqual([
      [GM, "create", "ActiveEffect"],
      [GM, "update", "Combat"],
    ]);
    await expectOneTruth(sim, "officer", "Officer", true);
    // The GM's replica of Brom's combatant now says defeated without any hook: any reconciliation
    // from here would write it into the rules, so a missing Combat write shows none ran.
    combatantOn(sim.gm, "brom")._source.defeated = true;
    const bromActor = combatantOn(sim.gm, "brom").actor;
    const dead = actor?.effects.contents[0];
    sim.server.resetStats();
    const [bless] = (await bromActor?.createEmbeddedDocuments("ActiveEffect", [{ name: "Bless" }])) ?? [];
    await bless?.update({ "duration.turns": 2 });
    await bless?.update({ disabled: true });
    await dead?.update({ "duration.rounds": 3, name: "Out cold" });
    await bless?.delete();
    await sim.settle();
    expect(writes(sim)).toEqual([
      [GM, "create", "ActiveEffect"],
      [GM, "update", "ActiveEffect"],
      [GM, "update", "ActiveEffect"],
      [GM, "update", "ActiveEffect"],
      [GM, "delete", "ActiveEffect"],
    ]);
    expect(rulesDefeated(sim.gm).Brom).toBe(false);
    combatantOn(sim.gm, "brom")._source.defeated = false;
    // Disabling the effect that carries the defeated status does reconcile (and revives the officer).
    sim.server.resetStats();
    await dead?.update({ disabled: true });
    await sim.settle();
    expect(writes(sim)).toEqual([
      [GM, "update", "ActiveEffect"],
      [GM, "update", "Combat"],
    ]);
    expect(rulesDefeated(sim.gm)).toMatchObject({ Officer: false, Brom: false });
    expectNoErrors(sim);
  });
});

describe("only the authority syncs", () => {
  it("a revive right after a defeat is not overwritten by the defeat's own sync (the GM's write is slow)", async () => {
    // A player marks their own character defeated or not through its actor's defeated status (the
    // token HUD's way): Foundry does not let them write the combatant's `defeated` (the sim's reading).
    const sim = await battle();
    // The GM's Combat writes wait at a gate: Alice's revive lands while the defeat's sync is held.
    const combat = combatOn(sim.gm);
    const update = combat.update.bind(combat);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    combat.update = async (...args: Parameters<typeof update>) => {
      await gate;
      return update(...args);
    };
    const alice = sim.client(ALICE);
    sim.server.resetStats();
    await combatantOn(sim.gm, "aria").actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await vi.waitFor(() => {
      expect(combatantOn(alice, "aria").isDefeated).toBe(true);
    });
    await combatantOn(alice, "aria").actor?.toggleStatusEffect(DEAD, { active: false });
    open();
    await sim.settle();
    // Alice's revive was written while the GM's sync of the defeat was still held.
    expect(writes(sim).slice(0, 2)).toEqual([
      [GM, "create", "ActiveEffect"],
      [ALICE, "delete", "ActiveEffect"],
    ]);
    await expectOneTruth(sim, "aria", "Aria", false);
    expectNoErrors(sim);
  });

  it("a player who marks their own character defeated writes nothing more: the active GM syncs; their setDefeated is refused", async () => {
    const sim = await battle();
    const alice = sim.client(ALICE);
    sim.server.resetStats();
    // The combatant's `defeated` field is not the player's to write (the sim's stricter reading).
    await expect(combatantOn(alice, "aria").update({ defeated: true })).rejects.toThrow(/lacks permission/);
    await combatantOn(alice, "aria").actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await sim.settle();
    expect(writes(sim)).toEqual([
      [ALICE, "update", "Combatant", "refused"],
      [ALICE, "create", "ActiveEffect"],
      [GM, "update", "Combat"],
    ]);
    expect(rulesDefeated(alice).Aria).toBe(true);
    // The rules' own command stays the GM's: refused, and Foundry is left alone.
    sim.server.resetStats();
    const result = await command(sim, alice, {
      type: "setDefeated",
      combatantId: idOf(alice, "aria"),
      defeated: false,
    });
    expect(result).toMatchObject({ ok: false, code: "notGM" });
    expect(messagesOn(alice)).toEqual([refusalText("notGM")]);
    expect(writes(sim)).toEqual([]);
    expect(combatantOn(sim.gm, "aria").isDefeated).toBe(true);
    expectNoErrors(sim);
  });

  it("with two GMs online only the active GM's client syncs, once", async () => {
    const users = [...DEFAULT_USERS, { id: GM2, name: "Second GM", role: ROLES.GAMEMASTER }];
    const sim = await battle({ users });
    const second = sim.client(GM2);
    sim.server.resetStats();
    await combatantOn(second, "officer").update({ defeated: true });
    await sim.settle();
    expect(writes(sim)).toEqual([
      [GM2, "update", "Combatant"],
      [GM, "update", "Combat"],
    ]);
    sim.server.resetStats();
    await command(sim, second, { type: "setDefeated", combatantId: idOf(second, "brom"), defeated: true });
    expect(writes(sim)).toEqual([
      [GM2, "update", "Combat"],
      [GM, "update", "Combat"],
      [GM, "update", "Combatant"],
      [GM, "create", "ActiveEffect"],
    ]);
    for (const client of sim.clients) {
      expect(rulesDefeated(client), client.userId).toMatchObject({ Brom: true, Officer: true });
      expect(combatantOn(client, "brom").isDefeated, client.userId).toBe(true);
    }
    expectNoErrors(sim);
  });

  it("with no GM online a player's client does not sync; the GM who connects syncs at once, with no roster event", async () => {
    const sim = await battle();
    sim.gm.disconnect();
    await sim.settle();
    const alice = sim.client(ALICE);
    sim.server.resetStats();
    await combatantOn(alice, "aria").actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await sim.settle();
    expect(writes(sim)).toEqual([[ALICE, "create", "ActiveEffect"]]);
    expect(rulesDefeated(alice).Aria).toBe(false);
    // The GM is back: becoming the authority, its client brings the defeat into the rules.
    sim.server.resetStats();
    await sim.connect(GM);
    await sim.settle();
    expect(writes(sim)).toEqual([[GM, "update", "Combat"]]);
    await expectOneTruth(sim, "aria", "Aria", true);
    expectNoErrors(sim);
  });

  it("a GM who becomes the authority writes nothing when the rules already agree", async () => {
    const sim = await battle();
    sim.gm.disconnect();
    await sim.settle();
    sim.server.resetStats();
    await sim.connect(GM);
    await sim.settle();
    expect(writes(sim)).toEqual([]);
    expectNoErrors(sim);
  });

  it("when the active GM leaves before its sync is written, the GM who takes over syncs, with no roster event", async () => {
    const users = [...DEFAULT_USERS, { id: GM2, name: "Second GM", role: ROLES.GAMEMASTER }];
    const sim = await battle({ users });
    const second = sim.client(GM2);
    // The active GM's client hangs before its Combat write, then goes away.
    const combat = combatOn(sim.gm);
    combat.update = () => new Promise<never>(() => undefined);
    sim.server.resetStats();
    await combatantOn(sim.client(ALICE), "aria").actor?.toggleStatusEffect(DEAD, { active: true, overlay: true });
    await sim.settle();
    expect(writes(sim)).toEqual([[ALICE, "create", "ActiveEffect"]]);
    expect(rulesDefeated(second).Aria).toBe(false);
    sim.gm.disconnect();
    await sim.settle();
    expect(writes(sim)).toEqual([
      [ALICE, "create", "ActiveEffect"],
      [GM2, "update", "Combat"],
    ]);
    for (const client of [second, sim.client(ALICE)]) expect(rulesDefeated(client).Aria, client.userId).toBe(true);
    expectNoErrors(sim);
  });

  it("a corrupted encounter flag: marking defeated throws nothing and writes nothing; a reset takes Foundry's state", async () => {
    const sim = await battle();
    await combatOn(sim.gm).update({ "flags.structured-initiative.encounter": "garbage" });
    await sim.settle();
    sim.server.resetStats();
    await combatantOn(sim.gm, "officer").update({ defeated: true });
    await sim.settle();
    expect(writes(sim)).toEqual([[GM, "update", "Combatant"]]);
    expect(serverCombat(sim).flags).toMatchObject({ "structured-initiative": { encounter: "garbage" } });
    expectNoErrors(sim);
    expect(await apiOn(sim.gm).resetEncounter(combatOn(sim.gm))).toEqual({ ok: true });
    await sim.settle();
    await expectOneTruth(sim, "officer", "Officer", true, false);
    expectNoErrors(sim);
  });
});

describe("undo: Foundry's documents win", () => {
  it("a step undone from before the defeat keeps the combatant defeated in the rules", async () => {
    const sim = await battle();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    await combatantOn(sim.gm, "officer").update({ defeated: true });
    await sim.settle();
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Aria");
    await expectOneTruth(sim, "officer", "Officer", true, false);
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("a revive by setDefeated survives an undo of the step before it", async () => {
    const sim = await battle();
    await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "officer"), defeated: true });
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    await command(sim, sim.gm, { type: "setDefeated", combatantId: idOf(sim.gm, "officer"), defeated: false });
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(turnsOn(sim.gm).current).toBe("Aria");
    await expectOneTruth(sim, "officer", "Officer", false);
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});

describe("fresh states", () => {
  it("a mode change starts the new state with Foundry's defeated state", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"]);
    await combatantOn(sim.gm, "officer").update({ defeated: true });
    await sim.settle();
    expect(await apiOn(sim.gm).setMode(combatOn(sim.gm), "slots")).toEqual({ ok: true });
    await sim.settle();
    expect(rulesDefeated(sim.gm)).toEqual({ Aria: false, Officer: true });
    expectNoErrors(sim);
  });
});
