/**
 * A system's own start effects and core's round and turn start run in the same order as without the
 * module, whichever side of `super.startCombat()` the system puts them on (issue 28, item 5):
 * - before `super`, as draw-steel 1.0.0 does (`test/fixtures/draw-steel-start.ts`): its Malice start
 *   sets the pool, then round 1's start adds to it, so round 1's Malice is kept;
 * - after `super`, as dnd5e 5.3.3 does (`test/fixtures/dnd5e-turns.ts`): its "encounter" recoveries
 *   come once round 1 and its first turn have started.
 * In every mode, on the active GM only, once; and a system-default encounter the same way.
 */
import { describe, expect, it, vi } from "vitest";
import { kit as declareResolveKit } from "../conformance/kits/declare-resolve";
import { kit as individualKit } from "../conformance/kits/individual";
import { kit as phasesKit } from "../conformance/kits/phases";
import { kit as sidesKit } from "../conformance/kits/sides";
import { kit as slotsKit } from "../conformance/kits/slots";
import type { AnyKit } from "../conformance/kit";
import { drawSteelStart, drawSteelStartOn, MALICE_AT_START } from "../fixtures/draw-steel-start";
import { dnd5eTurnHooks, recoveriesOn } from "../fixtures/dnd5e-turns";
import type { Sim } from "../sim/index.js";
import { combatOn, encounter, expectNoErrors, rollAs, SETTINGS, world } from "./world.js";

// The modes' glue reads Foundry's `Hooks` when its files load (as in the conformance suite); the
// simulated Foundry runs the built bundle in realms of its own.
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const KITS: readonly AnyKit[] = [individualKit, sidesKit, slotsKit, declareResolveKit, phasesKit];

/** The heroes draw-steel counts: combatants with a player owner. */
function heroes(sim: Sim): number {
  return combatOn(sim.gm).combatants.contents.filter((c) => c.hasPlayerOwner).length;
}

/** The draw-steel stand-in's log after the start: its start, round 1's start, then at most the first turn's. */
function expectDrawSteelOrder(sim: Sim, label: string): void {
  const { log, malice } = drawSteelStartOn(sim.gm);
  expect(log.slice(0, 2), `${label}: the order on the GM`).toEqual(["systemStart", "roundStart 1"]);
  const rest = log.slice(2);
  expect(rest.length, `${label}: at most the first turn started`).toBeLessThanOrEqual(1);
  for (const event of rest) expect(event, label).toMatch(/^turnStart /);
  // The start set the pool and round 1 added to it: round 1's Malice is kept.
  expect(malice, `${label}: Malice`).toBe(MALICE_AT_START + 1 + heroes(sim));
  for (const player of sim.players) expect(drawSteelStartOn(player).log, `${label}: ${player.userId}`).toEqual([]);
}

describe("a system whose start effects come before super.startCombat() (draw-steel)", () => {
  it.each(KITS.map((kit) => [kit.id, kit] as const))(
    "%s: its start, then round 1's start, then the first turn's; round 1's Malice is kept",
    async (id, kit) => {
      const sim = await kit.sim.world(5, { systemSetup: drawSteelStart });
      await kit.sim.begin(sim);
      await sim.settle();
      expect(combatOn(sim.gm).started, `${id}: started`).toBe(true);
      expectDrawSteelOrder(sim, id);
      // Moving on starts nothing again.
      const before = drawSteelStartOn(sim.gm).log.filter((e) => e === "systemStart").length;
      expect(before).toBe(1);
      expectNoErrors(sim);
    },
    60_000,
  );

  it("system default: the same order through core's own start", async () => {
    const settings = { ...SETTINGS, "structured-initiative.defaultMode": "system" };
    const sim = await world({ seed: 5, systemSetup: drawSteelStart, settings });
    await encounter(sim, ["aria", "brom", "officer"]);
    await rollAs(sim, { aria: 15, brom: 9, officer: 4 });
    await combatOn(sim.gm).startCombat();
    await sim.settle();
    expectDrawSteelOrder(sim, "system default");
    expect(drawSteelStartOn(sim.gm).log).toHaveLength(3);
    expectNoErrors(sim);
  });
});

describe("a system whose start effects come after super.startCombat() (dnd5e)", () => {
  it.each(KITS.map((kit) => [kit.id, kit] as const))(
    "%s: round 1's and the first turn's start, then its encounter recoveries",
    async (id, kit) => {
      const sim = await kit.sim.world(5, { systemSetup: dnd5eTurnHooks });
      await kit.sim.begin(sim);
      await sim.settle();
      const log = recoveriesOn(sim.gm);
      const firstEncounter = log.findIndex((r) => r.period === "encounter");
      expect(firstEncounter, `${id}: encounter recoveries`).toBeGreaterThanOrEqual(0);
      const lastStart = log.findLastIndex((r) => r.round === 1 && (r.period === "round" || r.period === "turnStart"));
      expect(lastStart, `${id}: round 1 started`).toBeGreaterThanOrEqual(0);
      expect(
        firstEncounter,
        `${id}: the encounter recoveries come after round 1's and the first turn's start`,
      ).toBeGreaterThan(lastStart);
      expect(
        log.slice(firstEncounter).every((r) => r.period === "encounter"),
        `${id}: nothing after`,
      ).toBe(true);
      expectNoErrors(sim);
    },
    60_000,
  );
});
