/**
 * Driving a structured encounter with timed Active Effects on one combatant (the "bearer"), step by
 * step with the GM's commands, recording after each step the acting turn, the bearer's place in
 * `combat.turns` and its effects. Shared by `effect-expiry.test.ts` (the events each mode announces)
 * and `effect-order-changes.test.ts` (each order change, one by one).
 */
import { expect } from "vitest";
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
import type { CreateSimOptions, Sim, SimClient, SimCombat } from "../sim/index.js";
import type { RefreshRecord } from "../sim/effects.js";
import type { Dict } from "../sim/utils.js";
import { apiOn, combatOn, type Api } from "./world.js";

export const KITS: Record<string, AnyKit> = {
  individual: individualKit,
  sides: sidesKit,
  slots: slotsKit,
  "declare-resolve": declareResolveKit,
  phases: phasesKit,
};

/** The GM's commands that move an encounter on, most wanted first. */
export const PRIORITY = [
  "orderTiedSides",
  "orderTied",
  "declare",
  "declareIntent",
  "fillSlot",
  "pickNext",
  "startTurn",
  "endTurn",
  "nextPhase",
  "upkeep",
  "nextTurn",
  "recordSideRoll",
  "recordIP",
];

/** The command an allowed action names, with the few a kit leaves to the caller. */
export function build(kit: AnyKit, state: unknown, action: AllowedAction): unknown {
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

/** The sim's log of `ActiveEffect.registry.refresh` calls on a client (v14). */
export function refreshesOn(client: SimClient): RefreshRecord[] {
  return (client.api as unknown as { effectRefreshes: RefreshRecord[] }).effectRefreshes;
}

/** An effect as the tests read it. */
export interface EffectView {
  readonly name: string;
  readonly expired: boolean;
  readonly start: Dict;
  readonly duration: Dict;
}

export function effectsOn(client: SimClient, actorId: string): EffectView[] {
  const actor = client.game.actors.get(actorId) as unknown as {
    effects: { contents: { _source: Dict; duration: Dict }[] };
  };
  return actor.effects.contents.map((e) => ({
    name: String(e._source.name),
    expired: (e._source.duration as Dict | undefined)?.expired === true,
    start: { ...((e._source.start as Dict | undefined) ?? {}) },
    duration: { ...e.duration },
  }));
}

export const roundOf = (key: string): number => Number(key.slice(0, key.indexOf(":")));

/** The state after one step. */
export interface Step {
  readonly key: string | null;
  readonly round: number;
  readonly turn: number | null;
  /** The length of the GM's refresh log after the step. */
  readonly logged: number;
  /** The bearer's place in `combat.turns` (−1 before there is a bearer). */
  readonly index: number;
  /** The bearer's initiative. */
  readonly initiative: number | null;
  /** The bearer's effects, by name. */
  readonly effects: Readonly<Record<string, EffectView>>;
  /** What the step was. */
  readonly label: string;
}

export interface Bearer {
  readonly combatantId: string;
  readonly actorId: string;
  /** The round of the acting turn the effects were applied in. */
  readonly round: number;
  /** The index of the step the effects were applied after. */
  readonly at: number;
}

/** What a scenario sees. */
export interface DriveContext {
  readonly sim: Sim;
  readonly combat: SimCombat;
  readonly api: Api;
  readonly module: AnyModeModule;
  readonly kit: AnyKit;
  readonly bearer: Bearer;
  /** The acting turn's key now. */
  key(): string | null;
  state(): unknown;
}

export interface DriveOptions {
  readonly seed?: number;
  readonly extra?: CreateSimOptions;
  /** The effects, as created on the bearer's actor during its first acting turn. */
  readonly effects: readonly Dict[];
  /** Which acting turn of round 1 is the bearer's (default the second). */
  readonly bearerTurn?: number;
  /** Called once, right after the effects are applied. */
  afterApply?(ctx: DriveContext): Promise<void>;
  /**
   * Tried after each later step until it returns true (the order change of a scenario); a label for
   * the step it makes.
   */
  change?(ctx: DriveContext): Promise<string | false>;
  /** Commands the driver does not send itself (the scenario's own). */
  readonly avoid?: readonly string[];
}

export interface Drive {
  readonly sim: Sim;
  readonly combat: SimCombat;
  readonly steps: readonly Step[];
  readonly bearer: Bearer;
  /** The step the change was made at (−1: never). */
  readonly changedAt: number;
  /** The steps where the bearer's first acting turn in a later round started and ended. */
  readonly startAt: number;
  readonly endAt: number;
}

/**
 * Run a mode's encounter: the kit's start, then the GM's commands until the bearer's acting turn of a
 * later round has ended and the round after has begun.
 */
export async function drive(id: string, options: DriveOptions): Promise<Drive> {
  const module = MODES.find((m) => m.id === id) as AnyModeModule;
  const kit = KITS[id] as AnyKit;
  const sim: Sim = await kit.sim.world(options.seed ?? 31, options.extra);
  await kit.sim.begin(sim);
  const combat = combatOn(sim.gm);
  const api = apiOn(sim.gm);
  const key = (): string | null => turnKeyOf(module.rules, stateOn(module, sim.gm));
  let bearer: Bearer | null = null;
  const snapshot = (label: string): Step => {
    const effects: Record<string, EffectView> = {};
    if (bearer !== null) for (const e of effectsOn(sim.gm, bearer.actorId)) effects[e.name] = e;
    const id = bearer?.combatantId;
    return {
      key: key(),
      round: combat.round,
      turn: combat.turn,
      logged: refreshesOn(sim.gm).length,
      index: id === undefined ? -1 : combat.turns.findIndex((c) => c.id === id),
      initiative: id === undefined ? null : (combat.combatants.get(id)?.initiative ?? null),
      effects,
      label,
    };
  };
  const steps: Step[] = [snapshot("begin")];
  const context = (): DriveContext => ({
    sim,
    combat,
    api,
    module,
    kit,
    bearer: bearer as Bearer,
    key,
    state: () => stateOn(module, sim.gm),
  });
  let acting = steps[0]?.key === null ? 0 : 1;
  let changedAt = -1;
  const wanted = options.bearerTurn ?? 2;
  for (let n = 0; n < 400; n++) {
    const last = steps.at(-1) as Step;
    if (bearer !== null && last.key !== null && roundOf(last.key) > bearer.round + 1) break;
    if (bearer !== null && changedAt < 0 && options.change !== undefined) {
      const label = await options.change(context());
      if (label !== false) {
        await sim.settle();
        steps.push(snapshot(label));
        changedAt = steps.length - 1;
        continue;
      }
    }
    const allowed = api.allowed(combat).filter((a) => !(options.avoid ?? []).includes(a.type));
    const type = PRIORITY.find((t) => allowed.some((a) => a.type === t));
    const ofType = allowed.filter((a) => a.type === type);
    // Of the wanted type, each in turn (two sides each owe a roll: not the same one again and again).
    const action = ofType[n % Math.max(ofType.length, 1)];
    if (action === undefined) throw new Error(`${id}: stuck, allowed ${JSON.stringify(allowed)}`);
    const result = await api.command(combat, build(kit, stateOn(module, sim.gm), action));
    expect(result, `${id}: ${action.type}`).toEqual({ ok: true });
    await sim.settle();
    const now = key();
    if (now !== null && now !== last.key) acting++;
    if (bearer === null && acting === wanted && now !== null) {
      const combatantId = turnKeyCombatant(now);
      const actorId = combat.combatants.get(combatantId)?.actorId ?? "";
      const actor = sim.gm.game.actors.get(actorId) as unknown as {
        createEmbeddedDocuments(name: string, data: readonly Dict[]): Promise<unknown>;
      };
      await actor.createEmbeddedDocuments("ActiveEffect", options.effects);
      await sim.settle();
      bearer = { combatantId, actorId, round: roundOf(now), at: steps.length };
      steps.push(snapshot(`${action.type} (effects applied)`));
      await options.afterApply?.(context());
      await sim.settle();
      continue;
    }
    steps.push(snapshot(action.type));
  }
  expect(bearer, `${id}: no acting turn ${wanted}`).not.toBeNull();
  const b = bearer as Bearer;
  // The bearer's first acting turn start, and end, in a later round.
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
  const trail = steps.map((s) => `${s.label} → ${s.key ?? "-"} [${s.index}]`).join("\n");
  expect(startAt, `${id}: the bearer acted again in a later round\n${trail}`).toBeGreaterThan(0);
  expect(endAt, `${id}: the bearer's turn ended in a later round\n${trail}`).toBeGreaterThan(0);
  return { sim, combat, steps, bearer: b, changedAt, startAt, endAt };
}

/** The steps, one a line, for a failure's message. */
export function trailOf(run: Drive): string {
  return run.steps
    .map(
      (s, i) =>
        `${i}: ${s.label} → ${s.key ?? "-"} r${s.round} t${String(s.turn)} [bearer at ${s.index}] ${Object.values(
          s.effects,
        )
          .map((e) => `${e.name}${e.expired ? "✗" : ""}`)
          .join(", ")}`,
    )
    .join("\n");
}
