/**
 * Previous turn and previous round near the start (issue 15 item 6): in round 1 either could return
 * the encounter to setting up with no warning. One that would undo the start asks the GM first
 * (DialogV2.confirm); refused, nothing changes. Neither is offered where the undo history holds
 * nothing for it to do. `Combat#previousTurn` and `#previousRound` themselves (a macro, another
 * module) ask nothing, as core's do: they undo the start when told to, and the GM starts again (issue 27
 * item 4, the long conformance run's sim 28 of `sides`).
 */
import { describe, expect, it } from "vitest";
import type { Sim, SimClient } from "../sim/index.js";
import { SETTINGS, combatOn, encounter, rollAs, start, turnsOn, world } from "./world.js";
import type { CreateSimOptions } from "../sim/index.js";
import { expectSidesAgreement, run, sidesEncounter, sidesOn, sidesWorld } from "./sides-world.js";

interface TrackerApp {
  _prepareContext(options: object): Promise<{ structuredInitiative?: { turnControls: { action: string }[] } | null }>;
}

async function turnActions(client: SimClient): Promise<string[]> {
  const ctx = (await (client.ui.combat as TrackerApp)._prepareContext({})).structuredInitiative;
  return (ctx?.turnControls ?? []).map((c) => c.action);
}

interface Dialogs {
  answer: boolean;
  asked: string[];
}
const dialogs = (client: SimClient): Dialogs => client.eval("foundry.applications.api.DialogV2") as Dialogs;

async function battle(extra: CreateSimOptions = {}): Promise<Sim> {
  const sim = await world(extra);
  await encounter(sim, ["aria", "brom", "officer", "trooper1"]);
  await rollAs(sim, { aria: 15, brom: 10, officer: 4, trooper1: 1 });
  await start(sim);
  return sim;
}

describe("undo near the start", () => {
  it("in round 1, previous round asks before returning to setting up; No changes nothing", async () => {
    const sim = await battle();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Brom" });
    const asked = dialogs(sim.gm);
    asked.answer = false;
    await sim.gm.runAction("siPreviousRound");
    await sim.settle();
    expect(asked.asked).toEqual(["Return to setting up?"]);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Brom" });

    asked.answer = true;
    await sim.gm.runAction("siPreviousRound");
    await sim.settle();
    expect(asked.asked).toHaveLength(2);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 0, current: null });
  });

  it("previous turn asks only when it would undo the start", async () => {
    const sim = await battle();
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    const asked = dialogs(sim.gm);
    // Back to Aria's turn: still round 1, no question.
    await sim.gm.runAction("siPreviousTurn");
    await sim.settle();
    expect(asked.asked).toEqual([]);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Aria" });
    // One more would undo the start: asked; No keeps the battle.
    asked.answer = false;
    await sim.gm.runAction("siPreviousTurn");
    await sim.settle();
    expect(asked.asked).toEqual(["Return to setting up?"]);
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Aria" });
  });

  it("previous turn and previous round are offered only where the history holds a step for them", async () => {
    // A history of one step: after the first turn change the start's snapshot is gone.
    const sim = await battle({ settings: { ...SETTINGS, "structured-initiative.historyLimit": 1 } });
    // (End combat closes the GM's footer once started: issue 14 item 8.)
    expect(await turnActions(sim.gm)).toEqual([
      "siPreviousRound",
      "siPreviousTurn",
      "siNextTurn",
      "siNextRound",
      "siEndCombat",
    ]);
    await combatOn(sim.gm).nextTurn();
    await sim.settle();
    // Round 1 has no earlier round kept: previous round would do nothing.
    expect(await turnActions(sim.gm)).toEqual(["siPreviousTurn", "siNextTurn", "siNextRound", "siEndCombat"]);
    await combatOn(sim.gm).previousTurn();
    await sim.settle();
    expect(turnsOn(sim.gm)).toMatchObject({ round: 1, current: "Aria" });
    expect(await turnActions(sim.gm)).toEqual(["siNextTurn", "siNextRound", "siEndCombat"]);
  });
});

describe("undo past the start through Combat's own methods (issue 27 item 4)", () => {
  it("sides: the GM's Combat#previousTurn undoes the side rolls and the start without asking; the encounter starts again", async () => {
    const sim = await sidesWorld();
    await sidesEncounter(sim, ["ace", "jaluun", "officer", "trooper1"]);
    expect(await run(sim, sim.gm, { type: "start" })).toMatchObject({ ok: true });
    for (const [i, side] of sidesOn(sim.gm).sides.entries())
      expect(await run(sim, sim.gm, { type: "recordSideRoll", sideId: side.id, total: 10 + i })).toMatchObject({
        ok: true,
      });
    const rolled = sidesOn(sim.gm);
    expect(rolled.step).toBe("declaration");
    // Each side roll is an undo step, then the start: one more previous turn than there are sides.
    for (let i = 0; i <= rolled.sides.length; i++) {
      await combatOn(sim.gm).previousTurn();
      await sim.settle();
    }
    expect(dialogs(sim.gm).asked).toEqual([]);
    expect(sidesOn(sim.gm).started).toBe(false);
    expect(combatOn(sim.gm).round).toBe(0);
    expectSidesAgreement(sim);
    // Nothing is stuck: the GM starts again, the sides roll again and the declarations begin.
    expect(await run(sim, sim.gm, { type: "start" })).toMatchObject({ ok: true });
    for (const [i, side] of sidesOn(sim.gm).sides.entries())
      expect(await run(sim, sim.gm, { type: "recordSideRoll", sideId: side.id, total: 12 - i })).toMatchObject({
        ok: true,
      });
    expect(sidesOn(sim.gm)).toMatchObject({ started: true, round: 1, step: "declaration" });
    expectSidesAgreement(sim);
  });
});
