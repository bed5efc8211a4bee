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
import { SIM_GENERATION, type Sim, type SimClient } from "../sim/index.js";
import type { RefreshRecord } from "../sim/effects.js";
import type { Dict } from "../sim/utils.js";
import { apiOn, combatOn, expectNoErrors } from "./world.js";

vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const KITS: Record<string, AnyKit> = {
  individual: individualKit,
  sides: sidesKit,
  slots: slotsKit,
  "declare-resolve": declareResolveKit,
  phases: phasesKit,
};

/** The GM's commands that move an encounter on, most wanted first (as turn-lifecycle.test.ts). */
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
  "recordSideRoll",
  "recordIP",
];

function build(kit: AnyKit, state: unknown, action: AllowedAction): unknown {
  if (kit.id === "sides" && action.type === "declare")
    return { type: "declare", combatantId: action.combatantId, actions: [{ text: "act" }], forcePoint: false };
  if (kit.id === "declare-resolve" && action.type === "declare")
    return {
      type: "declare",
      combatantId: action.combatantId,
      actions: [{ name: "Jab", cost: 1, kind: "attack" }],
    };
  return kit.commandFor(state, action, GM_REQUESTER);
}

interface Step {
  readonly key: string | null;
  readonly round: number;
  /** The length of the GM's refresh log after the step. */
  readonly logged: number;
  /** The bearer's effects after the step, by name: expired or not. */
  readonly expired: Readonly<Record<string, boolean>>;
}

const v14 = SIM_GENERATION === 14;

function refreshesOn(client: SimClient): RefreshRecord[] {
  return (client.api as unknown as { effectRefreshes: RefreshRecord[] }).effectRefreshes;
}

interface EffectView {
  readonly name: string;
  readonly expired: boolean;
}

function effectsOn(client: SimClient, actorId: string): EffectView[] {
  const actor = client.game.actors.get(actorId) as unknown as { effects: { contents: { _source: Dict }[] } };
  return actor.effects.contents.map((e) => ({
    name: String(e._source.name),
    expired: (e._source.duration as Dict | undefined)?.expired === true,
  }));
}

const roundOf = (key: string): number => Number(key.slice(0, key.indexOf(":")));

/** The three timed effects, as a GM applies them during the bearer's turn (core fills `start`). */
const EFFECTS = [
  { name: "one round", duration: { value: 1, units: "rounds" } },
  { name: "one turn", duration: { value: 1, units: "turns" } },
  { name: "one round to turn end", duration: { value: 1, units: "rounds", expiry: "turnEnd" } },
];

describe.each(MODES.map((m) => m.id))("timed effects in %s", (id) => {
  it(`a one-round and a one-turn effect end at the bearer's next acting turn though the order moved it up (v${SIM_GENERATION})`, async () => {
    const module = MODES.find((m) => m.id === id) as AnyModeModule;
    const kit = KITS[id] as AnyKit;
    const sim: Sim = await kit.sim.world(31);
    await kit.sim.begin(sim);
    const combat = combatOn(sim.gm);
    const api = apiOn(sim.gm);
    const key = (): string | null => turnKeyOf(module.rules, stateOn(module, sim.gm));
    const flags = (actorId: string | undefined): Record<string, boolean> =>
      actorId === undefined ? {} : Object.fromEntries(effectsOn(sim.gm, actorId).map((e) => [e.name, e.expired]));
    const steps: Step[] = [{ key: key(), round: combat.round, logged: refreshesOn(sim.gm).length, expired: {} }];
    let bearer: { combatantId: string; actorId: string; round: number; at: number } | null = null;
    let acting = steps[0]?.key === null ? 0 : 1;
    for (let n = 0; n < 300; n++) {
      const last = steps.at(-1) as Step;
      if (bearer !== null && last.key !== null && roundOf(last.key) > bearer.round + 1) break;
      const allowed = api.allowed(combat);
      // Of the wanted type, each in turn (two sides each owe a roll: not the same one again and again).
      const type = PRIORITY.find((t) => allowed.some((a) => a.type === t));
      const ofType = allowed.filter((a) => a.type === type);
      const action = ofType[n % Math.max(ofType.length, 1)];
      if (action === undefined) throw new Error(`${id}: stuck, allowed ${JSON.stringify(allowed)}`);
      const result = await api.command(combat, build(kit, stateOn(module, sim.gm), action));
      expect(result, `${id}: ${action.type}`).toEqual({ ok: true });
      await sim.settle();
      const now = key();
      if (now !== null && now !== last.key) acting++;
      if (bearer === null && acting === 2 && now !== null) {
        // The second acting turn: its combatant takes the effects, then the first in the order leaves.
        const combatantId = turnKeyCombatant(now);
        const actorId = combat.combatants.get(combatantId)?.actorId ?? "";
        const actor = sim.gm.game.actors.get(actorId) as unknown as {
          createEmbeddedDocuments(name: string, data: Dict[]): Promise<unknown>;
        };
        await actor.createEmbeddedDocuments("ActiveEffect", EFFECTS);
        await sim.settle();
        const ahead = combat.turns.findIndex((c) => c.id === combatantId);
        const leaving = combat.turns[0];
        expect(ahead, `${id}: the bearer is not first in the order`).toBeGreaterThan(0);
        // In sides the leaver could be the last of its side, which ends the encounter's rolls; there
        // the sides' new rolls each round move the order instead.
        if (id !== "sides" && leaving !== undefined && leaving.id !== combatantId) await leaving.delete();
        await sim.settle();
        bearer = { combatantId, actorId, round: roundOf(now), at: steps.length };
      }
      steps.push({
        key: key(),
        round: combat.round,
        logged: refreshesOn(sim.gm).length,
        expired: flags(bearer?.actorId),
      });
    }
    expect(bearer, `${id}: no second acting turn`).not.toBeNull();
    const b = bearer as { combatantId: string; actorId: string; round: number; at: number };

    // The oracle: the bearer's first acting turn start, and end, in a later round.
    let startAt = -1;
    let endAt = -1;
    for (let i = b.at + 1; i < steps.length; i++) {
      const [before, after] = [steps[i - 1]?.key ?? null, steps[i]?.key ?? null];
      if (before === after) continue;
      if (endAt < 0 && before !== null && turnKeyCombatant(before) === b.combatantId && roundOf(before) > b.round)
        endAt = i;
      if (startAt < 0 && after !== null && turnKeyCombatant(after) === b.combatantId && roundOf(after) > b.round)
        startAt = i;
    }
    expect(
      startAt,
      `${id}: the bearer acted again in a later round ${JSON.stringify(b)} ${JSON.stringify(steps.map((s) => s.key))}`,
    ).toBeGreaterThan(0);

    const effects = effectsOn(sim.gm, b.actorId);
    expect(effects.map((e) => e.name).sort()).toEqual(EFFECTS.map((e) => e.name).sort());
    // Each effect, step by step after it was applied: live before its moment, expired from it on
    // (on v13 never: core has no registry there).
    const expectAt = (name: string, at: number): void => {
      const seen = steps.slice(b.at + 1).map((s) => s.expired[name] === true);
      const wanted = steps.slice(b.at + 1).map((_, k) => v14 && b.at + 1 + k >= at);
      expect(seen, `${id}: "${name}" expired after each step (ends at step ${at})`).toEqual(wanted);
    };
    expectAt("one round", startAt);
    expectAt("one turn", startAt);
    expect(endAt, `${id}: the bearer's turn ended in a later round`).toBeGreaterThan(0);
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
