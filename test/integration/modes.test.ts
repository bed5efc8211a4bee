/**
 * Mode per encounter (issue 3 item 2): a world setting gives the default, the GM picks the mode at
 * creation and may change it until the combat starts; "system default" behaves exactly as the game
 * system's own combat without the module.
 */
import { describe, expect, it } from "vitest";
import { modeOptions, type Sim, type SimClient } from "../sim/index.js";
import {
  ALICE,
  BOB,
  SETTINGS,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  messagesOn,
  refusalText,
  rollAs,
  serverCombat,
  serverCombatJson,
  start,
  world,
} from "./world.js";

describe("mode per encounter", () => {
  it("a new encounter takes the world setting's default mode", async () => {
    const sim = await world();
    await encounter(sim, ["aria"]);
    for (const client of sim.clients) expect(apiOn(client).modeOf(combatOn(client))).toBe("individual");
    const other = await world({ settings: { ...SETTINGS, "structured-initiative.defaultMode": "system" } });
    await encounter(other, ["aria"]);
    expect(apiOn(other.gm).modeOf(combatOn(other.gm))).toBe("system");
    expect(apiOn(other.gm).view(combatOn(other.gm))).toBeNull();
  });

  it("the GM chooses the mode when creating the encounter", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "officer"], "system");
    const flags = serverCombat(sim).flags as Record<string, Record<string, unknown>>;
    expect(flags["structured-initiative"]?.mode).toBe("system");
    expect(flags["structured-initiative"]?.encounter).toBeUndefined();
    for (const client of sim.clients) expect(apiOn(client).modeOf(combatOn(client))).toBe("system");
  });

  it("api.setMode before the start switches the mode; the combatants join the new structure", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"], "system");
    const result = await apiOn(sim.gm).setMode(combatOn(sim.gm), "individual");
    await sim.settle();
    expect(result).toEqual({ ok: true });
    for (const client of sim.clients) {
      expect(apiOn(client).modeOf(combatOn(client))).toBe("individual");
      expect(apiOn(client).view(combatOn(client))?.order).toHaveLength(2);
    }
    await rollAs(sim, { aria: 10, brom: 10 });
    await start(sim);
    expect(combatOn(sim.gm).combatant?.name).toBe("Aria");
    expectNoErrors(sim);
  });

  it("api.setMode after the start is refused with a localised message and changes nothing", async () => {
    const sim = await world();
    await encounter(sim, ["aria", "brom"]);
    await rollAs(sim, { aria: 10, brom: 5 });
    await start(sim);
    const before = serverCombatJson(sim);
    const result = await apiOn(sim.gm).setMode(combatOn(sim.gm), "system");
    await sim.settle();
    expect(result).toMatchObject({ ok: false, code: "modeLocked" });
    expect(messagesOn(sim.gm).at(-1)).toBe(refusalText("modeLocked"));
    expect(serverCombatJson(sim)).toBe(before);
    expect(apiOn(sim.gm).modeOf(combatOn(sim.gm))).toBe("individual");
  });
});

// ---------------------------------------------------------------------------------------------
// "system default" against the base class without the module

interface Frame {
  round: number;
  turn: number | null;
  current: string | null;
  turns: string[];
  initiative: Record<string, number | null>;
}

function frame(client: SimClient): Frame {
  const combat = combatOn(client);
  return {
    round: combat.round,
    turn: combat.turn,
    current: combat.combatant?.name ?? null,
    turns: combat.turns.map((c) => c.name),
    initiative: Object.fromEntries(combat.combatants.map((c) => [c.name, c.initiative])),
  };
}

const CORE_HOOKS = ["combatStart", "combatTurn", "combatRound", "combatTurnChange"];

/** The same script on any sim: create, roll (GM and a player), start, step turns and rounds both ways. */
async function script(sim: Sim, mode?: string): Promise<{ frames: Frame[]; chat: unknown[]; hooks: string[][] }> {
  await encounter(sim, ["aria", "brom", "officer", "trooper1"], mode);
  const frames: Frame[] = [];
  const step = async (action: () => Promise<unknown>): Promise<void> => {
    await action();
    await sim.settle();
    frames.push(frame(sim.gm));
    for (const client of sim.clients) expect(frame(client)).toEqual(frame(sim.gm));
  };
  const gm = combatOn(sim.gm);
  sim.dice.push(7, 12, 12, 3);
  await step(() => combatOn(sim.client(ALICE)).rollInitiative([idOf(sim.gm, "aria")]));
  await step(() => gm.rollInitiative([idOf(sim.gm, "brom"), idOf(sim.gm, "officer")], modeOptions("private")));
  await step(() => gm.rollAll());
  await step(() => gm.startCombat());
  await step(() => gm.nextTurn());
  await step(() => gm.nextTurn());
  await step(() => gm.previousTurn());
  await step(() => gm.nextTurn());
  await step(() => gm.nextTurn());
  await step(() => gm.nextTurn()); // wraps into round 2
  await step(() => gm.nextRound());
  await step(() => gm.previousRound());
  await step(() => gm.previousTurn());
  await step(() => combatOn(sim.client(BOB)).nextTurn());
  const chat = sim.server.world.messages.map((m) => ({
    author: m.author,
    flavor: m.flavor,
    whisper: m.whisper,
    blind: m.blind,
    speaker: m.speaker,
    rolls: m.rolls,
    flags: m.flags,
  }));
  const hooks = sim.clients.map((c) => c.hookLog.map((h) => h.name).filter((n) => CORE_HOOKS.includes(n)));
  return { frames, chat, hooks };
}

describe('mode "system" behaves exactly as the base class without the module', () => {
  it("same turns, rounds, initiative values, order, chat messages and core hooks", async () => {
    const withModule = await script(await world(), "system");
    const without = await script(await world({ bundlePath: null }));
    expect(withModule.frames).toEqual(without.frames);
    expect(withModule.chat).toEqual(without.chat);
    expect(withModule.hooks).toEqual(without.hooks);
    // The script really exercised something.
    expect(without.frames.at(-1)?.round).toBeGreaterThan(0);
    expect(without.chat).toHaveLength(4);
  });

  it("stores the same combat document apart from the module's mode flag", async () => {
    const a = await world();
    await script(a, "system");
    const b = await world({ bundlePath: null });
    await script(b);
    const strip = (sim: Sim): unknown => {
      const { flags: _flags, ...rest } = serverCombat(sim);
      return rest;
    };
    expect(strip(a)).toEqual(strip(b));
    expect(serverCombat(a).flags).toEqual({ "structured-initiative": { mode: "system" } });
  });
});
