/**
 * Timed Active Effects (issue 28, item 1). On v14 every structured mode announces core's combat
 * events to the effect registry at its own moments, each once, on the active GM: a turn start and a
 * turn end per acting turn (none for a declaration, none on undo), each round's end and start, the
 * start; "combatEnd" is core's own, once, when the encounter ends. An effect lasting one round or
 * one turn from a combatant's acting turn expires at that combatant's next acting turn in a later
 * round (its start, or its end for a "turnEnd" effect), though the order moved the combatant up in
 * between. On v13 nothing expires (core has no registry there).
 *
 * Each mode is driven with the GM's commands (as in turn-lifecycle.test.ts) after its kit's start;
 * the effects go on the combatant of the second acting turn, and right after, the combatant first in
 * the turn order leaves the encounter (in sides, where the leaver could be a side's last, the sides'
 * rolls of the next round move the order instead), so that the bearer's turn index falls by one:
 * where core compares positions, its next round would come one turn short.
 */
import { describe, expect, it, vi } from "vitest";
import { turnKeyCombatant } from "../../src/core/engine";
import { MODES } from "../../src/modes/registry";
import { SIM_GENERATION } from "../sim/index.js";
import { expectNoErrors } from "./world.js";
import { drive, refreshesOn, roundOf, trailOf, type Step } from "./effect-drive.js";

vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const v14 = SIM_GENERATION === 14;

/** The three timed effects, as a GM applies them during the bearer's turn (core fills `start`). */
const EFFECTS = [
  { name: "one round", duration: { value: 1, units: "rounds" } },
  { name: "one turn", duration: { value: 1, units: "turns" } },
  { name: "one round to turn end", duration: { value: 1, units: "rounds", expiry: "turnEnd" } },
];

describe.each(MODES.map((m) => m.id))("timed effects in %s", (id) => {
  it(`a one-round and a one-turn effect end at the bearer's next acting turn though the order moved it up (v${SIM_GENERATION})`, async () => {
    const run = await drive(id, {
      effects: EFFECTS,
      // Right after, the combatant first in the order leaves (in sides, where the leaver could be the
      // last of its side, which ends the encounter's rolls, the sides' new rolls each round move the
      // order instead).
      async afterApply({ combat, bearer }) {
        const ahead = combat.turns.findIndex((c) => c.id === bearer.combatantId);
        const leaving = combat.turns[0];
        expect(ahead, `${id}: the bearer is not first in the order`).toBeGreaterThan(0);
        if (id !== "sides" && leaving !== undefined && leaving.id !== bearer.combatantId) await leaving.delete();
      },
    });
    const { sim, combat, steps, startAt, endAt } = run;
    const b = run.bearer;
    const trail = trailOf(run);

    expect(Object.keys(steps[b.at]?.effects ?? {}).sort()).toEqual(EFFECTS.map((e) => e.name).sort());
    // Each effect, step by step after it was applied: live before its moment, expired from it on
    // (on v13 never: core has no registry there).
    const expectAt = (name: string, at: number): void => {
      const seen = steps.slice(b.at + 1).map((s) => s.effects[name]?.expired === true);
      const wanted = steps.slice(b.at + 1).map((_, k) => v14 && b.at + 1 + k >= at);
      expect(seen, `${id}: "${name}" expired after each step (ends at step ${at})\n${trail}`).toEqual(wanted);
    };
    expectAt("one round", startAt);
    expectAt("one turn", startAt);
    expectAt("one round to turn end", endAt);

    // Each event announced once, on the active GM, at the mode's own moments: a turn start and end
    // per acting turn (a declaration has none), each round's end and start.
    const expected: string[] = [];
    for (let i = 1; i < steps.length; i++) {
      const [a, z] = [steps[i - 1] as Step, steps[i] as Step];
      if (a.key !== z.key && a.key !== null) expected.push(`turnEnd ${turnKeyCombatant(a.key)}@${roundOf(a.key)}`);
      if (z.round > a.round && a.round > 0) expected.push(`roundEnd @${a.round}`);
      if (z.round > a.round) expected.push(`roundStart @${z.round}`);
      if (a.key !== z.key && z.key !== null) expected.push(`turnStart ${turnKeyCombatant(z.key)}@${roundOf(z.key)}`);
    }
    const told = (from: number, to?: number): string[] =>
      refreshesOn(sim.gm)
        .slice(from, to)
        .map((r) => `${r.event} ${r.combatantId ?? ""}@${String(r.round)}`);
    const first = steps[0] as Step;
    const announced = v14 ? told(first.logged) : [];
    expect(announced.length, `${id}: v13 has no registry`).toBe(v14 ? expected.length : 0);
    if (v14) expect([...announced].sort(), `${id}: the events announced`).toEqual([...expected].sort());
    if (v14)
      expect(
        told(0, first.logged).filter((e) => e.startsWith("combatStart")),
        `${id}: the start`,
      ).toHaveLength(1);
    for (const player of sim.players) expect(refreshesOn(player), `${id}: nothing on a player's client`).toEqual([]);

    // Undo announces nothing; the end of the encounter announces "combatEnd" once (core's own).
    const before = refreshesOn(sim.gm).length;
    for (let k = 0; k < 3; k++) {
      await combat.previousTurn();
      await sim.settle();
    }
    expect(told(before), `${id}: undo announced`).toEqual([]);
    await combat.delete();
    await sim.settle();
    expect(told(before), `${id}: the end`).toEqual(v14 ? [`combatEnd @${String(combat.round)}`] : []);
    expectNoErrors(sim);
  }, 60_000);
});
