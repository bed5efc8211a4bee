/**
 * Extend, never replace (issue 3 item 1): the module builds its classes on whatever a game system
 * installed before `init`, so the system's own overrides keep running under the module.
 */
import { describe, expect, it } from "vitest";
import type { SimClasses } from "../sim/runtime.js";
import type { Dict } from "../sim/utils.js";
import {
  ALICE,
  apiOn,
  combatOn,
  encounter,
  expectAgreement,
  expectNoErrors,
  idOf,
  rollAs,
  start,
  turnsOn,
  world,
} from "./world.js";

type CombatClass = SimClasses["Combat"];
type LogEntry = readonly [string, ...unknown[]];

/**
 * A stand-in game system: a Combat subclass that orders lowest initiative first, logs every
 * `nextTurn` call and every turn start (what dnd5e or pf2e do to reset reactions).
 */
function installSystem(realm: Dict): void {
  const config = realm.CONFIG as { Combat: { documentClass: CombatClass } };
  const log: LogEntry[] = [];
  realm.systemLog = log;
  const Base = config.Combat.documentClass;
  class SystemCombat extends Base {
    override _sortCombatants(
      a: InstanceType<SimClasses["Combatant"]>,
      b: InstanceType<SimClasses["Combatant"]>,
    ): number {
      const ia = a.initiative ?? Number.POSITIVE_INFINITY;
      const ib = b.initiative ?? Number.POSITIVE_INFINITY;
      return ia - ib || a.name.localeCompare(b.name);
    }
    override async nextTurn(): Promise<this> {
      log.push(["nextTurn"]);
      return super.nextTurn();
    }
    override async _onStartTurn(combatant: InstanceType<SimClasses["Combatant"]>, context: Dict): Promise<void> {
      log.push(["startTurn", combatant.name, context.round]);
      return super._onStartTurn(combatant, context);
    }
    override async _onStartRound(context: Dict): Promise<void> {
      log.push(["startRound", context.round]);
      return super._onStartRound(context);
    }
  }
  config.Combat.documentClass = SystemCombat;
}

function systemLog(client: { realm: Dict }): LogEntry[] {
  return client.realm.systemLog as LogEntry[];
}

describe("extend, never replace: the module builds on the game system's classes", () => {
  it("CONFIG.Combat.documentClass is SICombat, derived from the system's class", async () => {
    const sim = await world({ systemSetup: installSystem });
    for (const client of sim.clients) {
      expect(client.eval("CONFIG.Combat.documentClass.name")).toBe("SICombat");
      expect(client.eval("Object.getPrototypeOf(CONFIG.Combat.documentClass).name")).toBe("SystemCombat");
      expect(client.eval("CONFIG.Combatant.documentClass.name")).toBe("SICombatant");
      expect(client.eval("CONFIG.ui.combat.name")).toBe("SICombatTracker");
    }
    await encounter(sim, ["aria"], "system");
    expect(sim.gm.eval("game.combats.contents[0] instanceof CONFIG.Combat.documentClass")).toBe(true);
  });

  it("a system-default encounter runs the system's own sort and nextTurn", async () => {
    const sim = await world({ systemSetup: installSystem });
    await encounter(sim, ["aria", "brom", "officer"], "system");
    sim.dice.push(10, 15, 12); // Aria 13, Brom 16, Officer 14 with the system's formula 1d20 (no modifier)
    const combat = combatOn(sim.gm);
    await combat.rollAll();
    await combat.startCombat();
    await sim.settle();
    // The system orders lowest first: Aria 10, Officer 12, Brom 15.
    expect(turnsOn(sim.gm).order).toEqual(["Aria", "Officer", "Brom"]);
    await combat.nextTurn();
    await sim.settle();
    expect(systemLog(sim.gm).filter((e) => e[0] === "nextTurn")).toHaveLength(1);
    expect(turnsOn(sim.gm).current).toBe("Officer");
    expect(
      systemLog(sim.gm)
        .filter((e) => e[0] === "startTurn")
        .map((e) => e[1]),
    ).toEqual(["Aria", "Officer"]);
    expectAgreement(sim);
    expectNoErrors(sim);
  });

  it("a structured encounter still runs the system's turn-start and round-start code on the active GM", async () => {
    const sim = await world({ systemSetup: installSystem });
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 10, brom: 15, officer: 12 }); // 13, 16, 14
    await start(sim);
    expect(turnsOn(sim.gm)).toMatchObject({ order: ["Brom", "Officer", "Aria"], current: "Brom" });
    await combatOn(sim.client("player0000000002")).nextTurn();
    await sim.settle();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    await combatOn(sim.client(ALICE)).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Brom", round: 2 });
    const events = systemLog(sim.gm).filter((e) => e[0] !== "nextTurn");
    expect(events).toEqual([
      ["startRound", 1],
      ["startTurn", "Brom", 1],
      ["startTurn", "Officer", 1],
      ["startTurn", "Aria", 1],
      ["startRound", 2],
      ["startTurn", "Brom", 2],
    ]);
    // A delay hands the turn on at the same index: the system's turn-start code still runs for the
    // one who acts now; an undo runs none.
    const bob = sim.client("player0000000002");
    await apiOn(bob).command(combatOn(bob), { type: "delay", combatantId: idOf(bob, "brom") });
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Officer", round: 2 });
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ current: "Brom", round: 2 });
    expect(
      systemLog(sim.gm)
        .filter((e) => e[0] === "startTurn")
        .slice(4),
    ).toEqual([["startTurn", "Officer", 2]]);
    // Only the active GM runs turn lifecycle code.
    expect(systemLog(sim.client(ALICE)).filter((e) => e[0] !== "nextTurn")).toEqual([]);
    expect(apiOn(sim.gm).view(combatOn(sim.gm))?.current).toBe(idOf(sim.gm, "brom"));
    expectAgreement(sim);
    expectNoErrors(sim);
  });
});
