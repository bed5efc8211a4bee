/** Tests of the simulated Foundry itself, driven by a tiny fake module (not the real bundle). */
import { describe, expect, it } from "vitest";
import {
  CHAT_MODES,
  chatMode,
  createSim,
  type CreateSimOptions,
  type Sim,
  type SimClient,
  type SimCombat,
  type SimCombatant,
} from "../sim/index.js";
import type { Dict, JsonObject } from "../sim/utils.js";

const GM = "gmUser0000000001";
const ALICE = "player0000000001";
const BOB = "player0000000002";

const FAKE_MODULE = `
const log = (globalThis.moduleLog = []);
Hooks.once("init", () => {
  const Base = CONFIG.Combat.documentClass;
  class ModuleCombat extends Base {
    async _onStartTurn(combatant, ctx) { log.push(["startTurn", combatant.id, ctx.round]); }
    async _onStartRound(ctx) { log.push(["startRound", ctx.round]); }
    async _onEndTurn(combatant) { log.push(["endTurn", combatant.id]); }
  }
  CONFIG.Combat.documentClass = ModuleCombat;
  game.settings.register("structured-initiative", "defaultMode", {
    scope: "world", config: false, type: String, default: "individual",
    onChange: (v) => log.push(["mode", v]),
  });
  game.settings.register("structured-initiative", "compact", { scope: "client", type: Boolean, default: false });
  game.settings.register("structured-initiative", "mine", {
    scope: "user", type: Boolean, default: true, onChange: (v) => log.push(["mine", v]),
  });
  CONFIG.queries["structured-initiative.echo"] = async function (data, options) {
    return { data, args: arguments.length, optionKeys: Object.keys(options ?? {}), me: game.user.id };
  };
  CONFIG.queries["structured-initiative.fail"] = async () => { throw new Error("nope"); };
  CONFIG.queries["structured-initiative.slow"] = () => new Promise(() => {});
});
Hooks.on("updateCombat", (combat, changed, options, userId) => log.push(["updateCombat", userId, Object.keys(changed).sort().join(",")]));
Hooks.on("combatTurn", () => log.push(["combatTurn"]));
Hooks.on("combatTurnChange", (combat, prior, current) => log.push(["turnChange", prior.turn, current.turn]));
Hooks.once("ready", () => { game.modules.get("structured-initiative").api = { version: 1 }; log.push(["ready", game.user.id]); });
`;

const ACTORS: JsonObject[] = [
  {
    _id: "actorAlice000001",
    name: "Aria",
    type: "character",
    ownership: { default: 0, [ALICE]: 3 },
    system: { init: 3, attributes: { dex: 2 } },
  },
  {
    _id: "actorBob00000001",
    name: "Brom",
    type: "character",
    ownership: { default: 0, [BOB]: 3 },
    system: { init: 1 },
  },
  { _id: "actorGoblin00001", name: "Goblin", type: "npc", ownership: { default: 0 }, system: { init: 2 } },
];
const SCENES: JsonObject[] = [
  {
    _id: "scene00000000001",
    name: "Cave",
    active: true,
    tokens: [
      { _id: "tokenAria0000001", actorId: "actorAlice000001", name: "Aria", disposition: 1 },
      { _id: "tokenBrom0000001", actorId: "actorBob00000001", name: "Brom", disposition: 1 },
      { _id: "tokenGob00000001", actorId: "actorGoblin00001", name: "Goblin", disposition: -1 },
    ],
  },
];

async function sim(extra: CreateSimOptions = {}): Promise<Sim> {
  return createSim({ bundleCode: FAKE_MODULE, langPath: "lang/en.json", actors: ACTORS, scenes: SCENES, ...extra });
}

/** GM creates a combat with three combatants; returns each client's view of it. */
async function withCombat(s: Sim, initiatives: Array<number | null> = [null, null, null]): Promise<SimCombat> {
  const combat = (await s.gm.api.classes.Combat.implementation.create({
    scene: "scene00000000001",
    active: true,
  })) as SimCombat;
  await combat.createEmbeddedDocuments("Combatant", [
    {
      actorId: "actorAlice000001",
      tokenId: "tokenAria0000001",
      sceneId: "scene00000000001",
      initiative: initiatives[0],
    },
    {
      actorId: "actorBob00000001",
      tokenId: "tokenBrom0000001",
      sceneId: "scene00000000001",
      initiative: initiatives[1],
    },
    {
      actorId: "actorGoblin00001",
      tokenId: "tokenGob00000001",
      sceneId: "scene00000000001",
      initiative: initiatives[2],
    },
  ]);
  await s.settle();
  return combat;
}
const view = (c: SimClient): SimCombat => {
  const combat = c.game.combat;
  if (!combat) throw new Error("no combat");
  return combat;
};
function must<T>(v: T | null | undefined): T {
  if (v === null || v === undefined) throw new Error("missing value");
  return v;
}
const log = (c: SimClient): unknown[][] => c.realm.moduleLog as unknown[][];
const combatantOf = (combat: SimCombat, actorId: string) => {
  const c = combat.combatants.find((x) => x.actorId === actorId);
  if (!c) throw new Error("no combatant");
  return c;
};

describe("simulated Foundry: boot", () => {
  it("boots three realms through init → i18nInit → setup → ready quickly, with the module's subclass", async () => {
    const t0 = performance.now();
    const s = await sim();
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeLessThan(200);
    expect(s.clients).toHaveLength(3);
    const names = s.gm.hookLog.map((h) => h.name).filter((n) => ["init", "i18nInit", "setup", "ready"].includes(n));
    expect(names).toEqual(["init", "i18nInit", "setup", "ready"]);
    for (const c of s.clients) {
      expect(c.game.ready).toBe(true);
      expect(c.game.user?.id).toBe(c.userId);
      expect(c.game.modules.get("structured-initiative")?.api).toEqual({ version: 1 });
      expect(c.errors).toEqual([]);
    }
    // Separate realms: separate globals and separate classes.
    expect(s.gm.realm.game).not.toBe(s.players[0]?.realm.game);
    expect(s.gm.api.classes.Combat).not.toBe(s.players[0]?.api.classes.Combat);
    expect(s.gm.eval("CONFIG.Combat.documentClass.name")).toBe("ModuleCombat");
  });

  it("runs systemSetup before the bundle so the module extends the system's class", async () => {
    const s = await sim({
      systemSetup: (realm) => {
        const cfg = realm.CONFIG as { Combat: { documentClass: new (...a: never[]) => object } };
        const Base = cfg.Combat.documentClass;
        cfg.Combat.documentClass = class SystemCombat extends Base {};
      },
    });
    expect(s.gm.eval("Object.getPrototypeOf(CONFIG.Combat.documentClass).name")).toBe("SystemCombat");
  });

  it("localizes nested keys and formats placeholders", async () => {
    const s = await createSim({ bundleCode: "", langPath: "/nonexistent.json" });
    const i18n = s.gm.game.i18n;
    i18n.translations.A = { B: { hello: "Hello {name}!" } };
    expect(i18n.format("A.B.hello", { name: "Ana" })).toBe("Hello Ana!");
    expect(i18n.has("A.B.hello")).toBe(true);
    expect(i18n.localize("A.B.missing")).toBe("A.B.missing");
  });
});

describe("simulated Foundry: permissions and broadcasts", () => {
  it("refuses a player's Combat flag write and changes nothing", async () => {
    const s = await sim();
    await withCombat(s);
    const alice = s.client(ALICE);
    await expect(view(alice).setFlag("structured-initiative", "x", 1)).rejects.toThrow(/lacks permission/);
    await s.settle();
    expect(s.server.world.combats[0]?.flags).toEqual({});
    expect(view(s.gm).getFlag("structured-initiative", "x")).toBeUndefined();
    expect(s.server.stats.refused).toBe(1);
  });

  it("lets a player change round/turn; the broadcast carries the player's user id", async () => {
    const s = await sim();
    await withCombat(s, [10, 5, 1]);
    await view(s.gm).startCombat();
    await s.settle();
    await view(s.client(ALICE)).nextTurn();
    await s.settle();
    expect(view(s.gm).turn).toBe(1);
    // Only the changed keys travel (the client diffs against its source).
    expect(log(s.gm)).toContainEqual(["updateCombat", ALICE, "_id,turn"]);
  });

  it("lets a player update their own combatant but not another's, nor groups", async () => {
    const s = await sim();
    await withCombat(s);
    const alice = s.client(ALICE);
    const own = combatantOf(view(alice), "actorAlice000001");
    const other = combatantOf(view(alice), "actorBob00000001");
    expect(own.isOwner).toBe(true);
    expect(other.isOwner).toBe(false);
    await own.setFlag("structured-initiative", "intent", "attack");
    await expect(other.update({ initiative: 20 })).rejects.toThrow(/lacks permission/);
    await expect(view(alice).createEmbeddedDocuments("CombatantGroup", [{ name: "Party" }])).rejects.toThrow(
      /lacks permission/,
    );
    await s.settle();
    expect(combatantOf(view(s.gm), "actorAlice000001").getFlag("structured-initiative", "intent")).toBe("attack");
    expect(combatantOf(view(s.gm), "actorBob00000001").initiative).toBeNull();
    const [group] = await view(s.gm).createEmbeddedDocuments("CombatantGroup", [{ name: "Party", img: "a.png" }]);
    await combatantOf(view(s.gm), "actorAlice000001").update({ group: group?.id });
    await s.settle();
    const bobsView = combatantOf(view(s.client(BOB)), "actorAlice000001");
    expect(bobsView.group?.name).toBe("Party");
    expect(view(s.client(BOB)).groups.contents[0]?.members.size).toBe(1);
    expect(own.canUserModify(must(s.client(ALICE).game.user), "update", { initiative: 3 })).toBe(true);
    expect(view(alice).canUserModify(must(s.client(ALICE).game.user), "update", { flags: { a: 1 } })).toBe(false);
  });

  it("lets a player write only initiative, flags and system on an owned combatant; add and remove it; nothing else", async () => {
    const s = await sim();
    await withCombat(s);
    const alice = s.client(ALICE);
    const user = must(alice.game.user);
    const own = combatantOf(view(alice), "actorAlice000001");
    await own.update({ initiative: 7, "flags.structured-initiative.request": "r1", "system.ready": true });
    for (const key of ["name", "img", "hidden", "defeated", "group", "type", "actorId", "tokenId", "sceneId"]) {
      expect(own.canUserModify(user, "update", { [key]: "x" }), key).toBe(false);
      await expect(own.update({ [key]: key === "hidden" || key === "defeated" ? true : "x" }), key).rejects.toThrow(
        /lacks permission/,
      );
    }
    // Neither a Combat's `combatants` array (foundryvtt#10501).
    await expect(view(alice).update({ combatants: [{ _id: own.id, initiative: 9 }] })).rejects.toThrow(
      /lacks permission/,
    );
    await s.settle();
    const onGM = combatantOf(view(s.gm), "actorAlice000001");
    expect([onGM.initiative, onGM.getFlag("structured-initiative", "request"), onGM.system.ready]).toEqual([
      7,
      "r1",
      true,
    ]);
    expect([onGM.name, onGM.hidden, onGM.defeated, onGM._source.group]).toEqual(["Aria", false, false, null]);
    // Toggle Combat State on an owned token: out of the encounter and back in; never someone else's.
    await view(alice).deleteEmbeddedDocuments("Combatant", [String(own.id)]);
    await view(alice).createEmbeddedDocuments("Combatant", [
      { actorId: "actorAlice000001", tokenId: "tokenAria0000001", sceneId: "scene00000000001" },
    ]);
    await expect(
      view(alice).createEmbeddedDocuments("Combatant", [{ actorId: "actorBob00000001", tokenId: "tokenBrom0000001" }]),
    ).rejects.toThrow(/lacks permission/);
    await s.settle();
    expect(view(s.gm).combatants.filter((c) => c.actorId === "actorAlice000001")).toHaveLength(1);
  });

  it("a CombatantGroup has its fields; a member takes the group's initiative; an owner may update it, only a GM create it", async () => {
    const s = await sim();
    await withCombat(s, [10, 5, 1]);
    const [group] = await view(s.gm).createEmbeddedDocuments("CombatantGroup", [
      { name: "Party", ownership: { default: 0, [ALICE]: 3 } },
    ]);
    await combatantOf(view(s.gm), "actorBob00000001").update({ group: group?.id });
    await s.settle();
    const bobs = (c: SimClient) => view(c).groups.contents[0];
    for (const c of s.clients) {
      const g = must(bobs(c));
      expect([g.name, g.img, g.type, g.initiative, g.system, g.flags]).toEqual(["Party", null, "base", null, {}, {}]);
      expect(g.members.size).toBe(1);
      // No group initiative: the member keeps its own.
      expect(combatantOf(view(c), "actorBob00000001").initiative).toBe(5);
    }
    const alice = s.client(ALICE);
    await must(bobs(alice)).update({ initiative: 30 });
    await expect(must(bobs(alice)).update({ name: "Mine" })).rejects.toThrow(/lacks permission/);
    await expect(must(bobs(s.client(BOB))).update({ initiative: 2 })).rejects.toThrow(/lacks permission/);
    await expect(view(alice).createEmbeddedDocuments("CombatantGroup", [{ name: "Mine" }])).rejects.toThrow(
      /lacks permission/,
    );
    await s.settle();
    for (const c of s.clients) {
      const bob = combatantOf(view(c), "actorBob00000001");
      // The group's initiative is its member's; the member's own stays in its source.
      expect([bob.initiative, bob._source.initiative]).toEqual([30, 5]);
      expect(view(c).turns.map((t) => t.name)).toEqual(["Brom", "Aria", "Goblin"]);
    }
    // Leaving the group: its own initiative again.
    await combatantOf(view(s.gm), "actorBob00000001").update({ group: null });
    await s.settle();
    expect(combatantOf(view(s.client(BOB)), "actorBob00000001").initiative).toBe(5);
  });
  it("keeps status effects as ActiveEffects of the actor: toggled by its owners, statuses from enabled effects, hooks on every client", async () => {
    const s = await sim();
    const hooks: string[][] = [];
    for (const c of s.clients)
      for (const name of ["createActiveEffect", "updateActiveEffect", "deleteActiveEffect", "updateActor"])
        c.Hooks.on(name, (doc) => hooks.push([c.userId, name, (doc as { name: string }).name]));
    const alice = s.client(ALICE);
    const aria = must(alice.game.actors.get("actorAlice000001"));
    const created = await aria.toggleStatusEffect("prone", { active: true });
    await s.settle();
    expect(created).toMatchObject({ documentName: "ActiveEffect", name: "EFFECT.StatusProne" });
    const serverAria = (): JsonObject => must(s.server.world.actors.find((a) => a._id === "actorAlice000001"));
    expect(serverAria().statuses).toBeUndefined();
    expect(serverAria().effects).toMatchObject([
      { name: "EFFECT.StatusProne", img: "icons/svg/falling.svg", statuses: ["prone"], disabled: false },
    ]);
    for (const c of s.clients)
      expect([...must(c.game.actors.get("actorAlice000001")).statuses], c.userId).toEqual(["prone"]);
    expect(hooks).toEqual(s.clients.map((c) => [c.userId, "createActiveEffect", "EFFECT.StatusProne"]));
    // Already on: nothing is written.
    s.server.resetStats();
    expect(await aria.toggleStatusEffect("prone", { active: true })).toBe(true);
    expect(s.server.ops).toEqual([]);
    // A disabled effect does not apply its statuses.
    hooks.length = 0;
    const effect = must(s.gm.game.actors.get("actorAlice000001")?.effects.contents[0]);
    await effect.update({ disabled: true });
    await s.settle();
    for (const c of s.clients) expect(must(c.game.actors.get("actorAlice000001")).statuses.size, c.userId).toBe(0);
    expect(hooks).toEqual(s.clients.map((c) => [c.userId, "updateActiveEffect", "EFFECT.StatusProne"]));
    // Only the actor's owners (and the GM) may write its effects.
    const brom = must(alice.game.actors.get("actorBob00000001"));
    await expect(brom.toggleStatusEffect("prone", { active: true })).rejects.toThrow(/lacks permission/);
    hooks.length = 0;
    expect(await aria.toggleStatusEffect("prone", { active: false })).toBe(false);
    await s.settle();
    expect(serverAria().effects).toEqual([]);
    expect(hooks).toEqual(s.clients.map((c) => [c.userId, "deleteActiveEffect", "EFFECT.StatusProne"]));
    expect(await aria.toggleStatusEffect("prone", { active: false })).toBeUndefined();
    // The overlay option is kept as the core overlay flag.
    await must(s.gm.game.actors.get("actorGoblin00001")).toggleStatusEffect("dead", { overlay: true });
    await s.settle();
    expect(s.server.world.actors.find((a) => a._id === "actorGoblin00001")?.effects).toMatchObject([
      { statuses: ["dead"], flags: { core: { overlay: true } } },
    ]);
    expect(hooks.filter((h) => h[1] === "updateActor")).toEqual([]);
  });

  it("applies unsetFlag's deletion (-=key in v13, ForcedDeletion in v14) on every client", async () => {
    const s = await sim();
    const combat = await withCombat(s);
    await combat.setFlag("structured-initiative", "state", { a: 1, b: 2 });
    await combat.unsetFlag("structured-initiative", "state.a");
    await s.settle();
    for (const c of s.clients) expect(view(c).getFlag("structured-initiative", "state")).toEqual({ b: 2 });
  });

  it("delivers concurrent updates to every client in server order", async () => {
    const s = await sim();
    await withCombat(s);
    const a = combatantOf(view(s.client(ALICE)), "actorAlice000001");
    const gmSide = combatantOf(view(s.gm), "actorAlice000001");
    const seen: Record<string, unknown[]> = {};
    for (const c of s.clients) {
      seen[c.userId] = [];
      c.Hooks.on("updateCombatant", (_doc: unknown, changed: unknown) =>
        seen[c.userId]?.push((changed as Dict).initiative),
      );
    }
    const p1 = a.update({ initiative: 7 });
    const p2 = gmSide.update({ initiative: 12 });
    await Promise.all([p1, p2]);
    await s.settle();
    expect(seen[GM]).toEqual([7, 12]);
    expect(seen[ALICE]).toEqual([7, 12]);
    expect(seen[BOB]).toEqual([7, 12]);
    for (const c of s.clients) expect(combatantOf(view(c), "actorAlice000001").initiative).toBe(12);
    expect(s.server.world.combats[0]?.combatants).toContainEqual(
      expect.objectContaining({ actorId: "actorAlice000001", initiative: 12 }),
    );
  });

  it("counts one write per batch and the bytes each way; counters reset", async () => {
    const s = await sim();
    const combat = await withCombat(s);
    s.server.resetStats();
    await combat.updateEmbeddedDocuments(
      "Combatant",
      combat.combatants.map((c) => ({ _id: c.id, initiative: 5 })),
    );
    const st = s.server.stats;
    expect(st.writes).toBe(1);
    expect(st.requestBytes).toBeGreaterThan(50);
    expect(st.broadcastBytes).toBeGreaterThan(st.requestBytes);
    s.server.resetStats();
    expect(s.server.stats.writes).toBe(0);
  });
});

describe("simulated Foundry: core combat behaviour", () => {
  it("sorts by initiative desc (none last), then name, then id", async () => {
    const s = await sim();
    await withCombat(s, [10, null, 10]);
    expect(view(s.gm).turns.map((c) => c.name)).toEqual(["Aria", "Goblin", "Brom"]);
    expect(view(s.gm).turn).toBeNull();
    expect(view(s.gm).started).toBe(false);
  });

  it("steps turns and rounds like core, with hooks on the right clients", async () => {
    const s = await sim();
    await withCombat(s, [15, 10, 5]);
    const combat = view(s.gm);
    await combat.startCombat();
    await s.settle();
    expect([combat.round, combat.turn, combat.combatant?.name]).toEqual([1, 0, "Aria"]);
    await combat.nextTurn();
    await combat.nextTurn();
    expect([combat.round, combat.turn]).toEqual([1, 2]);
    await combat.nextTurn(); // end of round wraps
    expect([combat.round, combat.turn]).toEqual([2, 0]);
    await combat.previousTurn(); // back over the round boundary
    expect([combat.round, combat.turn]).toEqual([1, 2]);
    await combat.previousRound();
    expect([combat.round, combat.turn]).toEqual([0, 2]);
    await s.settle();
    // combatTurn fires only on the initiating client; combatTurnChange on all.
    expect(log(s.gm).filter((e) => e[0] === "combatTurn").length).toBeGreaterThan(0);
    expect(log(s.client(ALICE)).filter((e) => e[0] === "combatTurn")).toEqual([]);
    expect(log(s.client(ALICE)).filter((e) => e[0] === "turnChange").length).toBe(
      log(s.gm).filter((e) => e[0] === "turnChange").length,
    );
    // Turn lifecycle runs on the active GM only, and only when advancing.
    const starts = log(s.gm).filter((e) => e[0] === "startTurn" || e[0] === "startRound");
    expect(starts.map((e) => e[0])).toEqual([
      "startRound",
      "startTurn",
      "startTurn",
      "startTurn",
      "startRound",
      "startTurn",
    ]);
    expect(log(s.client(ALICE)).filter((e) => e[0] === "startTurn")).toEqual([]);
  });

  it("sends the Region round events of every combatant's token when a round ends and begins, on the active GM only", async () => {
    const s = await sim();
    for (const c of s.clients)
      for (const scene of c.game.scenes.contents)
        scene._source.regions = [{ _id: "regionAll", x: -1e6, y: -1e6, width: 2e6, height: 2e6 }];
    await withCombat(s, [10, 5, 1]);
    await view(s.gm).startCombat();
    await s.settle();
    const events = (c: SimClient) =>
      (
        c.game.scenes.contents[0] as unknown as {
          regions: { get(id: string): { events: Array<{ name: string; combatantId: string | null; round: unknown }> } };
        }
      ).regions.get("regionAll").events;
    const before = events(s.gm).length;
    await view(s.gm).nextRound();
    await s.settle();
    const rounds = events(s.gm)
      .slice(before)
      .filter((e) => e.name.startsWith("tokenRound"))
      .map((e) => `${e.name} ${String(e.round)} ${String(e.combatantId)}`);
    const ids = view(s.gm).turns.map((c) => String(c.id));
    expect(rounds).toEqual([
      ...ids.map((id) => `tokenRoundEnd 1 ${id}`),
      ...ids.map((id) => `tokenRoundStart 2 ${id}`),
    ]);
    for (const player of [s.client(ALICE), s.client(BOB)]) expect(events(player)).toEqual([]);
  });

  it("skips defeated combatants when core's skipDefeated is set", async () => {
    const s = await sim({ settings: { "core.combatTrackerConfig": { resource: "", skipDefeated: true } } });
    await withCombat(s, [15, 10, 5]);
    const combat = view(s.gm);
    await combatantOf(combat, "actorBob00000001").update({ defeated: true });
    await combat.startCombat();
    await combat.nextTurn();
    expect(combat.combatant?.name).toBe("Goblin");
  });

  it("keeps the current combatant current when the order changes (v13 combatTurn)", async () => {
    const s = await sim();
    await withCombat(s, [15, 10, 5]);
    const combat = view(s.gm);
    await combat.startCombat();
    await combat.nextTurn(); // Brom acts
    await s.settle();
    await combatantOf(view(s.client(ALICE)), "actorAlice000001").update({ initiative: 1 });
    await s.settle();
    for (const c of s.clients) expect(view(c).combatant?.name).toBe("Brom");
    expect(view(s.gm).turns.map((c) => c.name)).toEqual(["Brom", "Goblin", "Aria"]);
  });

  it("rolls initiative with injected dice, posts chat, honours roll modes", async () => {
    const s = await sim();
    await withCombat(s);
    s.gm.CONFIG.Combat.initiative.formula = "1d20 + @init";
    s.dice.push(17, 4);
    const alice = s.client(ALICE);
    alice.CONFIG.Combat.initiative.formula = "1d20 + @init";
    await combatantOf(view(alice), "actorAlice000001").rollInitiative();
    await view(s.gm).rollNPC();
    await s.settle();
    expect(combatantOf(view(s.client(BOB)), "actorAlice000001").initiative).toBe(20);
    expect(combatantOf(view(s.client(BOB)), "actorGoblin00001").initiative).toBe(6);
    const msgs = s.server.world.messages;
    expect(msgs).toHaveLength(2);
    expect(msgs[0]).toMatchObject({
      author: ALICE,
      whisper: [],
      blind: false,
      flags: { core: { initiativeRoll: true } },
    });
    const roll = JSON.parse(String((msgs[0]?.rolls as string[])[0])) as {
      total: number;
      formula: string;
      terms: Array<{ results?: Array<{ result: number }> }>;
    };
    expect(roll).toMatchObject({ total: 20, formula: "1d20 + 3" });
    expect(roll.terms[0]?.results?.[0]?.result).toBe(17);
    expect(s.client(BOB).game.messages.contents[0]?.rolls[0]?.total).toBe(20);

    const R = alice.api.Roll;
    const key = CHAT_MODES[s.generation].setting;
    for (const mode of ["public", "private", "blind", "self"] as const)
      await new R("1d6").toMessage({}, { [key]: chatMode(mode, s.generation) });
    await s.settle();
    const last = s.server.world.messages.slice(-4).map((m) => [m.whisper, m.blind]);
    expect(last).toEqual([
      [[], false],
      [[GM], false],
      [[GM], true],
      [[ALICE], false],
    ]);
    expect(s.client(BOB).game.messages.contents.at(-1)?.visible).toBe(false);
  });

  it("parses formulas, substitutes @data, rejects invalid formulas", async () => {
    const s = await sim();
    const R = s.gm.api.Roll;
    s.dice.push(3, 5, 2, 6, 1);
    const r = await new R("(2d6 + @a.b) * 2 - 10 / 5", { a: { b: 4 } }).evaluate();
    expect(r.total).toBe((3 + 5 + 4) * 2 - 2);
    expect(r.dice[0]?.results.map((x) => x.result)).toEqual([3, 5]);
    const k = await new R("2d20kh + 1").evaluate();
    expect(k.total).toBe(7);
    const l = await new R("2d20kl").evaluate();
    expect(l.total).toBe(1); // the queued 1, then one seeded die
    expect(l.dice[0]?.results.filter((x) => !x.active)).toHaveLength(1);
    expect(R.validate("1d20 + 2")).toBe(true);
    expect(R.validate("1d20 +")).toBe(false);
    expect(R.validate("2dd6")).toBe(false);
    await expect(new R("1d20 + (3").evaluate()).rejects.toThrow(/invalid roll formula/);
    const missing = await new R("1 + @nothing.here").evaluate();
    expect(missing.total).toBe(1);
    expect(s.gm.notifications.at(-1)?.type).toBe("warning");
    // Seeded PRNG when the queue is empty: deterministic per seed.
    const a = await createSim({ bundleCode: "", seed: 7 });
    const b = await createSim({ bundleCode: "", seed: 7 });
    const ra = await new a.gm.api.Roll("10d20").evaluate();
    const rb = await new b.gm.api.Roll("10d20").evaluate();
    expect(ra.total).toBe(rb.total);
  });
});

describe("simulated Foundry: users, queries, settings, reload", () => {
  it("routes a query to the GM's client; the handler is not told who asked", async () => {
    // A player may query only where the world grants players QUERY_USER (the sim's default: GMs only).
    const refused = await sim();
    await expect(
      must(refused.client(ALICE).game.users.activeGM).query("structured-initiative.echo", {}),
    ).rejects.toThrow(/lacks permission to query users/);
    expect(refused.server.stats.refused).toBe(1);
    const s = await sim({ settings: { "core.permissions": { QUERY_USER: [1, 2, 3] } } });
    const alice = s.client(ALICE);
    const gmUser = must(alice.game.users.activeGM);
    expect(gmUser.id).toBe(GM);
    const result = await gmUser.query("structured-initiative.echo", { ask: 1 }, { timeout: 1000 });
    expect(result).toEqual({ data: { ask: 1 }, args: 2, optionKeys: [], me: GM });
    await expect(gmUser.query("structured-initiative.unknown", {})).rejects.toThrow(/Unknown query/);
    await expect(gmUser.query("structured-initiative.fail", {})).rejects.toThrow(/nope/);
    await expect(gmUser.query("structured-initiative.slow", {}, { timeout: 20 })).rejects.toThrow(/timed out/);
  });

  it("picks the active GM by lowest id with two GMs, runs turn events there only, and follows disconnects", async () => {
    const s = await sim({
      users: [
        { id: "gmUserB000000002", name: "GM B", role: 4 },
        { id: "gmUserA000000001", name: "GM A", role: 4 },
        { id: ALICE, name: "Alice", role: 1 },
      ],
      settings: { "core.permissions": { QUERY_USER: [1, 2, 3] } },
    });
    const gmA = s.client("gmUserA000000001");
    const gmB = s.client("gmUserB000000002");
    expect(gmB.game.users.activeGM?.id).toBe("gmUserA000000001");
    await withCombat(s, [3, 2, 1]);
    await view(gmB).startCombat();
    await s.settle();
    expect(log(gmA).filter((e) => e[0] === "startTurn")).toHaveLength(1);
    expect(log(gmB).filter((e) => e[0] === "startTurn")).toHaveLength(0);

    gmA.disconnect();
    await s.settle();
    expect(s.client(ALICE).game.users.activeGM?.id).toBe("gmUserB000000002");
    gmB.disconnect();
    await s.settle();
    const alice = s.client(ALICE);
    expect(alice.game.users.activeGM).toBeNull();
    await expect(
      must(alice.game.users.get("gmUserA000000001")).query("structured-initiative.echo", {}),
    ).rejects.toThrow(/not connected/);
    await s.connect("gmUserA000000001");
    await s.settle();
    expect(alice.game.users.activeGM?.id).toBe("gmUserA000000001");
  });

  it("stores world settings on the server, fires onChange on every client, keeps client settings local", async () => {
    const s = await sim();
    await s.gm.game.settings.set("structured-initiative", "defaultMode", "sides");
    await s.settle();
    for (const c of s.clients) {
      expect(c.game.settings.get("structured-initiative", "defaultMode")).toBe("sides");
      expect(log(c)).toContainEqual(["mode", "sides"]);
    }
    await expect(s.client(ALICE).game.settings.set("structured-initiative", "defaultMode", "x")).rejects.toThrow(
      /lacks permission/,
    );
    await s.client(ALICE).game.settings.set("structured-initiative", "compact", true);
    expect(s.client(ALICE).game.settings.get("structured-initiative", "compact")).toBe(true);
    expect(s.client(BOB).game.settings.get("structured-initiative", "compact")).toBe(false);
    expect(() => s.gm.game.settings.get("nope", "x")).toThrow(/not a registered/);
  });

  it("stores a user setting on the server for the user who sets it, whatever their role, and for nobody else", async () => {
    const s = await sim();
    const bob = s.client(BOB);
    await bob.game.settings.set("structured-initiative", "mine", false);
    await s.settle();
    expect(bob.game.settings.get("structured-initiative", "mine")).toBe(false);
    expect(log(bob)).toContainEqual(["mine", false]);
    for (const other of [s.gm, s.client(ALICE)]) {
      expect(other.game.settings.get("structured-initiative", "mine")).toBe(true);
      expect(log(other).filter(([name]) => name === "mine")).toEqual([]);
    }
    // Not the browser's storage: it is on the server, so it follows Bob into a fresh client.
    expect(bob.clientStorage.has("structured-initiative.mine")).toBe(false);
    bob.clientStorage.clear();
    await bob.reload();
    await s.settle();
    expect(bob.game.settings.get("structured-initiative", "mine")).toBe(false);
    expect(s.client(ALICE).game.settings.get("structured-initiative", "mine")).toBe(true);
  });

  it("reloads a client into a fresh realm that sees the same state", async () => {
    const s = await sim();
    await withCombat(s, [15, 10, 5]);
    await view(s.gm).startCombat();
    await view(s.gm).nextTurn();
    await s.client(BOB).game.settings.set("structured-initiative", "compact", true);
    await s.settle();
    const bob = s.client(BOB);
    const oldGame = bob.realm.game;
    await bob.reload();
    await s.settle();
    expect(bob.realm.game).not.toBe(oldGame);
    expect(view(bob).turns.map((c) => c.id)).toEqual(view(s.gm).turns.map((c) => c.id));
    expect(view(bob).combatant?.name).toBe("Brom");
    expect(bob.game.settings.get("structured-initiative", "compact")).toBe(true);
    expect(log(bob)).toContainEqual(["ready", BOB]);
  });

  it("renders the tracker through the class chain and runs its actions", async () => {
    const s = await sim();
    await withCombat(s, [15, 10, 5]);
    const fired: string[] = [];
    s.gm.Hooks.on("renderCombatTracker", () => fired.push("CombatTracker"));
    s.gm.Hooks.on("renderApplicationV2", () => fired.push("ApplicationV2"));
    const app = s.gm.ui.combat as { render(): Promise<unknown>; _prepareContext(o: Dict): Promise<Dict> };
    await app.render();
    expect(fired).toEqual(["CombatTracker", "ApplicationV2"]);
    const ctx = await app._prepareContext({});
    expect(ctx.hasCombat).toBe(true);
    await s.gm.runAction("startCombat");
    await s.settle();
    expect(view(s.client(ALICE)).started).toBe(true);
    const out = await s.gm.api.foundry.applications.handlebars
      .renderTemplate("templates/does-not-exist.hbs")
      .catch((e: unknown) => String(e));
    expect(out).toMatch(/not found/);
  });
});

describe("sim fidelity (issue 14 item 7)", () => {
  it("a Collection iterates its values, as Foundry's does; entries() still gives pairs", async () => {
    const s = await sim();
    const combat = await withCombat(s);
    // The sim's Collection type still says Map pairs; its iterator gives values (a cast, not a claim).
    const values = combat.combatants as unknown as Iterable<SimCombatant>;
    const docs = [...values];
    expect(docs.map((c) => c.actorId)).toEqual(combat.combatants.contents.map((c) => c.actorId));
    for (const c of values) expect(Array.isArray(c)).toBe(false);
    expect([...combat.combatants.entries()][0]?.[0]).toBe(docs[0]?.id);
  });

  it("Combatant._onUpdateOperation runs once per operation on every client, with every document", async () => {
    const calls: Array<{ user: string; ids: string[] }> = [];
    const s = await sim({
      systemSetup: (realm) => {
        const Base = (realm.CONFIG as { Combatant: { documentClass: typeof Object } }).Combatant.documentClass;
        const Sub = class extends (Base as unknown as new (...a: unknown[]) => object) {
          static _onUpdateOperation(docs: Array<{ id: string }>): Promise<void> {
            calls.push({ user: (realm.game as { userId: string }).userId, ids: docs.map((d) => d.id) });
            return Promise.resolve();
          }
        };
        (realm.CONFIG as { Combatant: { documentClass: unknown } }).Combatant.documentClass = Sub;
      },
    });
    const combat = await withCombat(s);
    const ids = combat.combatants.contents.map((c) => String(c.id));
    await combat.updateEmbeddedDocuments(
      "Combatant",
      ids.map((id, i) => ({ _id: id, initiative: i })),
    );
    await s.settle();
    expect(calls.map((c) => c.user).sort()).toEqual(s.clients.map((c) => c.userId).sort());
    for (const call of calls) expect(call.ids).toEqual(ids);
  });

  it("the tracker part's context comes from _prepareTrackerContext", async () => {
    const s = await sim();
    await withCombat(s);
    const app = s.gm.ui.combat as {
      _prepareTrackerContext(context: Record<string, unknown>, options: unknown): Promise<void>;
      render(): Promise<unknown>;
    };
    const seen: unknown[] = [];
    const original = app._prepareTrackerContext.bind(app);
    app._prepareTrackerContext = async (context, options) => {
      await original(context, options);
      seen.push((context.turns as unknown[]).length);
    };
    await app.render();
    expect(seen).toEqual([3]);
  });
});
