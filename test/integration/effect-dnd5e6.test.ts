/**
 * dnd5e 6.x's default effect durations in every mode (issue 28, item 1), on a stand-in shaped on its
 * public code (`test/fixtures/dnd5e6-effects.ts`, each rule with its source). dnd5e 6 runs on v14
 * only (PR https://github.com/foundryvtt/dnd5e/pull/6837 "Reliant (obviously) on V14"), so this
 * runs on the v14 flavour; on v13 there is nothing to expire.
 *
 * The combatant of round 1's second acting turn gets, during that turn, the effects an activity
 * would apply with each default duration: 1 round (dnd5e gives it the "turnStart" expiry), 1 turn,
 * 1 minute, and dnd5e's own "until the start of your next turn" (sourceStart, from itself) and "until
 * the end of your next turn" (targetEnd). Then the mode's order change that moves it up is made
 * (`effect-changes.ts`), and the encounter runs on: each ends at the bearer's next turn start or end
 * in the next round, exactly there, the minute stays.
 */
import { describe, expect, it, vi } from "vitest";
import { turnKeyCombatant } from "../../src/core/engine";
import { SIM_GENERATION } from "../sim/index.js";
import { dnd5e6Effects, effectDurationOf } from "../fixtures/dnd5e6-effects.js";
import { drive, trailOf, type DriveContext } from "./effect-drive.js";
import { MOVING_CHANGE, tried } from "./effect-changes.js";

vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const v14 = SIM_GENERATION === 14;

/** The effects an activity applies, by name: its duration as dnd5e 6 turns it into an effect's. */
function effects(origin: string): Record<string, unknown>[] {
  return [
    { name: "1 round", duration: effectDurationOf({ value: 1, units: "round" }) },
    { name: "1 turn", duration: effectDurationOf({ value: 1, units: "turn" }) },
    { name: "1 minute", duration: effectDurationOf({ value: 1, units: "minute" }) },
    { name: "start of your next turn", origin, duration: { value: 1, units: "rounds", expiry: "sourceStart" } },
    { name: "end of your next turn", origin, duration: { value: 1, units: "rounds", expiry: "targetEnd" } },
  ];
}

/** The bearer's actor's uuid, as an item's origin names its actor. */
const originOf = (ctx: { bearer: { actorId: string } }): string => `Actor.${ctx.bearer.actorId}`;

describe.runIf(v14).each(Object.keys(MOVING_CHANGE))("dnd5e 6 default durations in %s", (mode) => {
  it("each ends at the bearer's next turn start or end, across the mode's order change", async () => {
    let origin = "";
    const run = await drive(mode, {
      extra: { systemSetup: dnd5e6Effects },
      effects: [],
      async afterApply(ctx: DriveContext) {
        origin = originOf(ctx);
        const actor = ctx.sim.gm.game.actors.get(ctx.bearer.actorId) as unknown as {
          createEmbeddedDocuments(name: string, data: readonly Record<string, unknown>[]): Promise<unknown>;
        };
        await actor.createEmbeddedDocuments("ActiveEffect", effects(origin));
      },
      change: MOVING_CHANGE[mode],
    });
    const { steps, bearer, startAt, endAt } = run;
    const trail = trailOf(run);
    // The stand-in's creation rules took hold (what dnd5e 6 stores).
    const created = steps[bearer.at + 1]?.effects ?? {};
    expect(created["1 round"]?.duration.expiry, trail).toBe("turnStart");
    expect(created["start of your next turn"]?.duration.value, trail).toBeNull();
    expect(created["end of your next turn"]?.duration.value, trail).toBeNull();

    const expectAt = (name: string, at: number | null): void => {
      const from = bearer.at + 1;
      const seen = steps.slice(from).map((s) => s.effects[name]?.expired === true);
      const wanted = steps.slice(from).map((_, k) => at !== null && from + k >= at);
      expect(seen, `"${name}" expired after each step (ends at step ${String(at)})\n${trail}`).toEqual(wanted);
    };
    expectAt("1 round", startAt);
    expectAt("1 turn", startAt);
    expectAt("1 minute", null);
    expectAt("start of your next turn", startAt);
    expectAt("end of your next turn", endAt);
  }, 60_000);
});

describe.runIf(v14)("dnd5e 6 in individual: a turn the bearer ends by delaying", () => {
  it("'until the end of your next turn' does not end with the turn it was applied in, though the delay moved the bearer", async () => {
    let delayedAt = -1;
    const run = await drive("individual", {
      extra: { systemSetup: dnd5e6Effects },
      effects: [],
      async afterApply(ctx: DriveContext) {
        const actor = ctx.sim.gm.game.actors.get(ctx.bearer.actorId) as unknown as {
          createEmbeddedDocuments(name: string, data: readonly Record<string, unknown>[]): Promise<unknown>;
        };
        await actor.createEmbeddedDocuments("ActiveEffect", effects(originOf(ctx)));
      },
      async change(ctx: DriveContext) {
        if (delayedAt >= 0) return false;
        const key = ctx.key();
        if (key === null || turnKeyCombatant(key) !== ctx.bearer.combatantId) return false;
        const [next] = ctx.combat.turns.slice(ctx.combat.turns.findIndex((c) => c.id === ctx.bearer.combatantId) + 1);
        const after = next?.id ?? null;
        if (!(await tried(ctx, { type: "delay", combatantId: ctx.bearer.combatantId, after }))) return false;
        delayedAt = 0;
        return "delay (the bearer, in its own turn)";
      },
    });
    const { steps, bearer, changedAt } = run;
    const trail = trailOf(run);
    expect(changedAt, trail).toBeGreaterThan(bearer.at);
    const before = steps[changedAt - 1];
    const after = steps[changedAt];
    expect(after?.index, `the delay moved the bearer\n${trail}`).not.toBe(before?.index);
    // Its turn ended with the delay: the effect applied in that turn stays.
    expect(after?.effects["end of your next turn"]?.expired, trail).toBe(false);
    // It ends at the end of the bearer's next acting turn (the one it takes when the delay ends).
    let next = -1;
    for (let i = changedAt + 1; i < steps.length && next < 0; i++) {
      const [a, z] = [steps[i - 1]?.key ?? null, steps[i]?.key ?? null];
      if (a !== z && a !== null && turnKeyCombatant(a) === bearer.combatantId) next = i;
    }
    expect(next, trail).toBeGreaterThan(changedAt);
    const seen = steps.slice(changedAt).map((s) => s.effects["end of your next turn"]?.expired === true);
    expect(seen, trail).toEqual(steps.slice(changedAt).map((_, k) => changedAt + k >= next));
  }, 60_000);
});
