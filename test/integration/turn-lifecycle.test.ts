/**
 * Turn events follow one rule in every mode (issue 14, items 5 and 6): each acting turn (the mode's
 * `turnKey`) runs the system's turn end and turn start once each, with their Region turn events (and
 * each round's end and start the Region round events of every combatant's token); a
 * declaration-only step runs none and an undo runs none; `combatTurnChange` and the turn markers
 * follow the acting combatant once per change on every client; world time moves as core's. Run with
 * a stand-in for dnd5e 5.3.x's Combat turn hooks (`test/fixtures/dnd5e-turns.ts`) in both variants of
 * core's dispatch (with and without turn events when only the combatant changes at the same index,
 * https://github.com/foundryvtt/foundryvtt/issues/9741).
 */
import { describe, expect, it, vi } from "vitest";
import { turnKeyCombatant, turnKeyOf, type AllowedAction } from "../../src/core/engine";
import { MODES } from "../../src/modes/registry";
import type { AnyModeModule } from "../../src/modes/contract";
import { kit as declareResolveKit } from "../conformance/kits/declare-resolve";
import { kit as individualKit } from "../conformance/kits/individual";
import { kit as phasesKit } from "../conformance/kits/phases";
import { kit as sidesKit } from "../conformance/kits/sides";
import { kit as slotsKit } from "../conformance/kits/slots";
import type { AnyKit } from "../conformance/kit";
import { stateOn } from "../conformance/checks";
import { GM as GM_REQUESTER } from "../rules/property-harness";
import { dnd5eTurnHooks, recoveriesOn, type Recovery } from "../fixtures/dnd5e-turns";
import type { Sim, SimClient } from "../sim/index.js";
import { ticks, type Dict } from "../sim/utils.js";
import {
  ALICE,
  apiOn,
  combatOn,
  encounter,
  expectNoErrors,
  idOf,
  rollAs,
  serverCombat,
  SETTINGS,
  start,
  world,
} from "./world.js";

// The modes' glue reads Foundry's `Hooks` when its files load (as in the conformance suite); the
// simulated Foundry runs the built bundle in realms of its own.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const KITS: Record<string, AnyKit> = {
  individual: individualKit,
  sides: sidesKit,
  slots: slotsKit,
  "declare-resolve": declareResolveKit,
  phases: phasesKit,
};

/** The GM's commands that move an encounter on, most wanted first (never next round: it skips turns). */
const PRIORITY = [
  "orderTiedSides",
  "orderTied",
  "declare",
  "declareIntent",
  "fillSlot",
  "startTurn",
  "endTurn",
  "nextPhase",
  "upkeep",
  "nextTurn",
  // Last: the GM may roll again where a roll is already in.
  "recordSideRoll",
  "recordIP",
];

const TURN_TIME = 1;
const ROUND_TIME = 6;

/** The realm set-up: the dnd5e stand-in, a turn time of 1 s. */
function systemSetup(realm: Dict): void {
  dnd5eTurnHooks(realm);
  (realm.CONFIG as { time: { turnTime: number; roundTime: number } }).time.turnTime = TURN_TIME;
}

/** One Region over the whole scene on every client (the sim's Regions are scene data, no documents). */
function coverScene(sim: Sim): void {
  for (const client of sim.clients) {
    for (const scene of client.game.scenes.contents) {
      scene._source.regions = [{ _id: "regionEverywhere", x: -1e6, y: -1e6, width: 2e6, height: 2e6 }];
    }
  }
}

function regionEvents(client: SimClient): { name: string; combatantId: string | null; round: unknown }[] {
  const scene = client.game.scenes.contents[0] as unknown as {
    regions: { get(id: string): { events: { name: string; combatantId: string | null; round: unknown }[] } };
  };
  return scene.regions.get("regionEverywhere").events;
}

/** The command the GM sends for an allowed action; sides declares one to three actions (several passes). */
function build(kit: AnyKit, state: unknown, action: AllowedAction, n: number): unknown {
  if (kit.id === "sides" && action.type === "declare") {
    const actions = Array.from({ length: 1 + (n % 3) }, (_, i) => ({ text: `action ${i}` }));
    return { type: "declare", combatantId: action.combatantId, actions, forcePoint: false };
  }
  if (kit.id === "declare-resolve" && action.type === "declare") {
    // One or two attacks (a second attack resolves in the extra-attacks pass), or a defence.
    const jab = { name: "Jab", cost: 1, kind: "attack" };
    const actions = [[jab], [jab, jab], [{ name: "Dodge", cost: 2, kind: "defence" }]][n % 3];
    return { type: "declare", combatantId: action.combatantId, actions };
  }
  return kit.commandFor(state, action, GM_REQUESTER);
}

interface Step {
  readonly type: string;
  readonly key: string | null;
  readonly round: number;
  readonly current: string | null;
  readonly time: number;
  /** Each client's hook log length after the step. */
  readonly hooks: readonly number[];
}

/** Drive the encounter with the GM's commands until `rounds` rounds are over; the turn key after each. */
async function drive(module: AnyModeModule, kit: AnyKit, sim: Sim, rounds: number, sent: Count = {}): Promise<Step[]> {
  const combat = combatOn(sim.gm);
  const api = apiOn(sim.gm);
  const steps: Step[] = [];
  const look = (type: string): Step => {
    const state = stateOn(module, sim.gm);
    const view = module.rules.view(state);
    return {
      type,
      key: turnKeyOf(module.rules, state),
      round: view.round,
      current: view.current,
      time: sim.gm.game.time.worldTime,
      hooks: sim.clients.map((c) => c.hookLog.length),
    };
  };
  steps.push(look("begin"));
  for (let n = 0; n < 200 && (steps.at(-1)?.round ?? 0) <= rounds; n++) {
    const state = stateOn(module, sim.gm);
    const allowed = api.allowed(combat);
    const action = PRIORITY.map((type) => allowed.find((a) => a.type === type)).find((a) => a !== undefined);
    if (action === undefined) throw new Error(`${module.id}: stuck, allowed ${JSON.stringify(allowed)}`);
    const command = build(kit, state, action, n);
    const round = steps.at(-1)?.round ?? 0;
    // What the rules count as turns, tallied apart from them: a slot filled, an action declared (sides).
    if (action.type === "fillSlot") bump(sent, `${action.combatantId ?? ""}@${round}`);
    if (kit.id === "sides" && action.type === "declare") {
      const count = (command as { actions: unknown[] }).actions.length;
      sent[`${action.combatantId ?? ""}@${round}`] = count;
    }
    const result = await api.command(combat, command);
    expect(result, `${module.id}: ${JSON.stringify(command)}`).toEqual({ ok: true });
    await sim.settle();
    steps.push(look(action.type));
  }
  return steps;
}

type Count = Record<string, number>;

function bump(count: Count, key: string): void {
  count[key] = (count[key] ?? 0) + 1;
}

/** The turn starts and ends the keys say, per `combatant@round`. */
function expectedTurns(steps: readonly Step[]): { starts: Count; ends: Count } {
  const starts: Count = {};
  const ends: Count = {};
  const at = (key: string): string => `${turnKeyCombatant(key)}@${key.slice(0, key.indexOf(":"))}`;
  for (let i = 1; i < steps.length; i++) {
    const before = steps[i - 1]?.key ?? null;
    const after = steps[i]?.key ?? null;
    if (before === after) continue;
    if (before !== null) bump(ends, at(before));
    if (after !== null) bump(starts, at(after));
  }
  return { starts, ends };
}

function counted(recoveries: readonly Recovery[], period: Recovery["period"]): Count {
  const count: Count = {};
  for (const r of recoveries) if (r.period === period) bump(count, `${r.combatantId}@${r.round}`);
  return count;
}

const modeIds = MODES.map((m) => m.id);

describe.each([false, true])("turn events, core dispatching on a same-index change: %s", (sameIndex) => {
  it.each(modeIds)(
    "%s: one turn start and one turn end per acting turn, none for declarations; hooks, Regions, markers and time follow",
    async (id) => {
      const module = MODES.find((m) => m.id === id) as AnyModeModule;
      const kit = KITS[id] as AnyKit;
      const sim = await kit.sim.world(7, { systemSetup, turnEventsOnCombatantChange: sameIndex });
      coverScene(sim);
      await kit.sim.begin(sim);
      const startLog = recoveriesOn(sim.gm).length;
      const startRegions = regionEvents(sim.gm).length;
      const sent: Count = {};
      const steps = await drive(module, kit, sim, 2, sent);
      const recoveries = recoveriesOn(sim.gm).slice(startLog);
      const { starts, ends } = expectedTurns(steps);

      // dnd5e's turn-start and turn-end recoveries: once per acting turn, per combatant and round.
      expect(Object.keys(starts).length, `${id}: the drive saw no acting turn`).toBeGreaterThan(2);
      expect(counted(recoveries, "turnStart"), `${id}: turn starts\n${JSON.stringify(steps)}`).toEqual(starts);
      expect(counted(recoveries, "turnEnd"), `${id}: turn ends`).toEqual(ends);
      // The issue's failures, counted apart from the rules' turn keys: in slots every filled slot ends
      // its turn (not only a round's last); in sides each declared action is one turn in its pass
      // (pass 1 and pass 2 included), and a declaration is none.
      if (id === "slots" || id === "sides") {
        expect(counted(recoveries, "turnStart"), `${id}: turn starts against what was sent`).toEqual(sent);
        expect(counted(recoveries, "turnEnd"), `${id}: turn ends against what was sent`).toEqual(sent);
      }
      // Players' clients run no turn events (the active GM only).
      for (const player of sim.players) expect(recoveriesOn(player).slice(startLog)).toEqual([]);

      // Region turn events: one per turn start and end (every token stands in the Region).
      const regions = regionEvents(sim.gm).slice(startRegions);
      const regionCount = (name: string): Count => {
        const count: Count = {};
        for (const e of regions) if (e.name === name) bump(count, `${e.combatantId ?? ""}@${String(e.round)}`);
        return count;
      };
      expect(regionCount("tokenTurnStart")).toEqual(starts);
      expect(regionCount("tokenTurnEnd")).toEqual(ends);
      // Region round events: every combatant's token once per round that ended and per round that began.
      const everyone = combatOn(sim.gm).combatants.contents.map((c) => c.id ?? "");
      const roundStarts: Count = {};
      const roundEnds: Count = {};
      for (let i = 1; i < steps.length; i++) {
        const [a, b] = [steps[i - 1] as Step, steps[i] as Step];
        if (b.round <= a.round) continue;
        for (const combatantId of everyone) {
          bump(roundStarts, `${combatantId}@${String(b.round)}`);
          if (a.round > 0) bump(roundEnds, `${combatantId}@${String(a.round)}`);
        }
      }
      expect(Object.keys(roundEnds).length, `${id}: the drive ended no round`).toBeGreaterThan(0);
      expect(regionCount("tokenRoundStart"), `${id}: round starts`).toEqual(roundStarts);
      expect(regionCount("tokenRoundEnd"), `${id}: round ends`).toEqual(roundEnds);

      // combatTurnChange and the turn markers: once per change of the acting combatant, on every
      // client (core's own, for an update that moves the turn index or the round but keeps the
      // combatant, may add one: never two).
      for (const [c, client] of sim.clients.entries()) {
        for (let i = 1; i < steps.length; i++) {
          const [a, b] = [steps[i - 1] as Step, steps[i] as Step];
          const window = client.hookLog.slice(a.hooks[c], b.hooks[c]);
          const label = `${id}: step ${i} (${b.type}, ${String(a.current)} → ${String(b.current)}) on ${client.userId}`;
          const changes = window.filter((h) => h.name === "combatTurnChange").length;
          if (a.current !== b.current) expect(changes, `${label}: combatTurnChange`).toBe(1);
          else expect(changes, `${label}: combatTurnChange`).toBeLessThanOrEqual(1);
          const markers = window.filter(
            (h) => h.name === "refreshToken" && (h.args[1] as Dict).refreshTurnMarker === true,
          ).length;
          const expected = a.current === b.current ? 0 : Number(a.current !== null) + Number(b.current !== null);
          expect(markers, `${label}: turn markers`).toBe(expected);
        }
      }

      // World time: a round's time for each new round, a turn's for each turn that ended within one.
      let time = steps[0]?.time ?? 0;
      for (let i = 1; i < steps.length; i++) {
        const [a, b] = [steps[i - 1] as Step, steps[i] as Step];
        if (b.round > a.round) time += Math.max(0, b.round - Math.max(a.round, 1)) * ROUND_TIME;
        else if (a.key !== b.key && a.key !== null) time += TURN_TIME;
        expect(b.time, `${id}: world time after step ${i} (${b.type})`).toBe(time);
      }
      for (const client of sim.clients) expect(client.game.time.worldTime).toBe(time);

      // Undo runs no turn event and gives the time back.
      const before = { recoveries: recoveriesOn(sim.gm).length, regions: regionEvents(sim.gm).length };
      const times: number[] = [];
      for (let k = 0; k < 4; k++) {
        times.push(sim.gm.game.time.worldTime);
        await combatOn(sim.gm).previousTurn();
        await sim.settle();
      }
      expect(recoveriesOn(sim.gm).length, `${id}: undo ran turn events`).toBe(before.recoveries);
      expect(regionEvents(sim.gm).length, `${id}: undo ran Region events`).toBe(before.regions);
      const back = steps.at(-5) as Step;
      expect(sim.gm.game.time.worldTime, `${id}: four undos give back their time`).toBe(back.time);
      expectNoErrors(sim);
    },
    60_000,
  );
});

describe("the system's own start effects", () => {
  it.each(modeIds)(
    "%s: dnd5e's startCombat recovers every combatant's encounter uses once, on the active GM, after the rules start it",
    async (id) => {
      const kit = KITS[id] as AnyKit;
      const sim = await kit.sim.world(5, { systemSetup });
      const before = recoveriesOn(sim.gm).length;
      await kit.sim.begin(sim);
      await sim.settle();
      const combat = combatOn(sim.gm);
      expect(combat.started, `${id}: started`).toBe(true);
      const everyone = combat.combatants.contents.map((c) => c.id ?? "").sort();
      const encounter = recoveriesOn(sim.gm)
        .slice(before)
        .filter((r) => r.period === "encounter");
      expect(encounter.map((r) => r.combatantId).sort(), `${id}: encounter recoveries`).toEqual(everyone);
      // Core's own start stood aside: the round is the rules' first, no second round written.
      expect(combat.round, `${id}: round`).toBe(1);
      // ...and wrote nothing the module had to put back (a turn written outside the rules is, with a warning).
      expect(
        sim.gm.notifications.filter((n) => n.type !== "info"),
        `${id}: notices`,
      ).toEqual([]);
      for (const player of sim.players)
        expect(recoveriesOn(player).filter((r) => r.period === "encounter")).toEqual([]);
      // Turning on does not start again.
      await combat.nextTurn();
      await sim.settle();
      expect(recoveriesOn(sim.gm).filter((r) => r.period === "encounter")).toHaveLength(everyone.length);
      expectNoErrors(sim);
    },
    60_000,
  );

  it("a system-default encounter starts through the system's method and core's, as without the module", async () => {
    const settings = { ...SETTINGS, "structured-initiative.defaultMode": "system" };
    const sim = await world({ seed: 5, systemSetup, settings });
    await encounter(sim, ["aria", "brom", "officer"]);
    const combat = combatOn(sim.gm);
    await combat.startCombat();
    await sim.settle();
    expect(combat.started).toBe(true);
    expect(combat.round).toBe(1);
    expect(recoveriesOn(sim.gm).filter((r) => r.period === "encounter")).toHaveLength(3);
    expectNoErrors(sim);
  });
});

describe("a player's request racing the GM's next turn", () => {
  it.each([0, 1, 2, 3])(
    "leaves combat.turn where the stored state puts it, on the server and every client (%i ticks apart)",
    async (apart) => {
      const sim = await world({ seed: 11 + apart });
      await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
      await rollAs(sim, { aria: 20, brom: 12, officer: 8, trooper1: 4 });
      await start(sim);
      const alice = sim.client(ALICE);
      const aria = idOf(alice, "aria");
      expect(combatOn(alice).combatant?.id).toBe(aria);
      // The GM ends Aria's turn while Alice, still seeing it, ends it too: her request is a write on
      // her combatant, which core gives the turn index her client still shows (#12990).
      const gmTurn = combatOn(sim.gm).nextTurn();
      await ticks(apart);
      const request = apiOn(alice).command(combatOn(alice), { type: "nextTurn" });
      await Promise.all([gmTurn, request]);
      await sim.settle();
      const stored = apiOn(sim.gm).view(combatOn(sim.gm));
      const server = serverCombat(sim);
      for (const client of sim.clients) {
        const combat = combatOn(client);
        const expected = stored?.current === null ? null : combat.turns.findIndex((c) => c.id === stored?.current);
        expect(combat.turn, `combat.turn on ${client.userId}`).toBe(expected);
        expect(combat.combatant?.id ?? null, `combat.combatant on ${client.userId}`).toBe(stored?.current ?? null);
        expect(server.turn, "the server's turn").toBe(expected);
      }
      expectNoErrors(sim);
    },
    30_000,
  );
});
