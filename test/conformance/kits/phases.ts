/**
 * Conformance kit of the `phases` mode: intents, Collapse spends, phase and turn changes, turn starts
 * and hand-off picks, skill rolls with honest and forged dice, free actions, defenses, Advantage gains
 * and spends, failure answers and out-of-reach marks from the GM, owners and strangers (the
 * generators of `test/rules/phases.property.test.ts`, cut down), and a started encounter of the
 * phases test world in the simulated Foundry (skill rolls sent as commands with their faces).
 */
import fc from "fast-check";
import { expect } from "vitest";
import { defendableIntents, heroesToAct, nextComplexity } from "../../../src/modes/phases/rules/derived";
import { phasesMode } from "../../../src/modes/phases/rules/mode";
import { type PhasesCommand, type PhasesState } from "../../../src/modes/phases/rules/types";
import { phasesCommandFor } from "../../rules/phases-commands";
import { GM, T as t, pickId, requester, senders, variant, type By } from "../../rules/property-harness";
import { apiOn, combatOn } from "../../integration/world.js";
import { phasesEncounter, phasesWorld } from "../../integration/phases-world.js";
import { defineKit, rosterOf, type Sent } from "../kit";

type Action =
  | { k: "begin"; surprise: boolean }
  | { k: "start"; surprise: boolean; by: By }
  | { k: "intent"; t: number; attack: boolean; target: number }
  | { k: "collapse"; t: number; target: number; by: By }
  | { k: "nextPhase"; by: By }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "handOff"; on: boolean }
  | { k: "take"; t: number; pick: boolean; by: By }
  | { k: "roll"; size: number; faces: readonly number[]; forge: number; advantage: boolean; defend: number; by: By }
  | { k: "free"; move: boolean; by: By }
  | { k: "end"; by: By }
  | { k: "answer"; collapse: boolean; by: By }
  | { k: "spend"; by: By }
  | { k: "cap"; cap: number }
  | { k: "reach"; i: number; v: boolean }
  | { k: "defeat"; t: number; v: boolean }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number };

const by = senders(["gm", "gm", "owner", "owner", "other"]);
const play = [
  variant("begin", { surprise: fc.constantFrom(false, false, false, true) }, 3),
  variant("start", { surprise: fc.boolean(), by }, 1),
  variant("intent", { t, attack: fc.boolean(), target: t }, 5),
  variant("collapse", { t, target: t, by }, 1),
  variant("nextPhase", { by }, 2),
  variant("next", { by }, 6),
  variant("nextRound", { by }, 1),
  variant("handOff", { on: fc.boolean() }, 1),
  variant("take", { t, pick: fc.boolean(), by }, 8),
  variant(
    "roll",
    {
      size: fc.constantFrom(4, 6, 8, 10, 12, 12),
      faces: fc.array(fc.integer({ min: 0, max: 13 }), { minLength: 8, maxLength: 8 }),
      forge: fc.nat(9),
      advantage: fc.boolean(),
      defend: fc.nat(4),
      by,
    },
    10,
  ),
  variant("free", { move: fc.boolean(), by }, 2),
  variant("end", { by }, 4),
  variant("answer", { collapse: fc.boolean(), by }, 5),
  variant("spend", { by }, 1),
  variant("cap", { cap: fc.nat(3) }, 1),
  variant("reach", { i: fc.nat(4), v: fc.boolean() }, 1),
  variant("defeat", { t, v: fc.boolean() }, 1),
] as const;
const simAction: fc.Arbitrary<Action> = fc.oneof(...play);
const action: fc.Arbitrary<Action> = fc.oneof(
  ...play,
  variant("add", { isPC: fc.boolean() }, 1),
  variant("remove", { t }, 1),
);

function pick(state: PhasesState, n: number, pcs: boolean | null): string {
  return pickId(
    state.combatants.filter((c) => pcs === null || c.isPC === pcs).map((c) => c.id),
    n,
    11,
  );
}

/** Dice of the next skill action: mostly a fair roll, sometimes one too few, one too many or off the die. */
function diceFor(state: PhasesState, a: Extract<Action, { k: "roll" }>): number[] {
  const count = nextComplexity(state) ?? 2;
  const fair = Array.from({ length: count }, (_, i) => ((a.faces[i % a.faces.length] ?? 1) % a.size) + 1);
  if (a.forge === 0) return fair.slice(1);
  if (a.forge === 1) return [...fair, 1];
  if (a.forge === 2) return fair.map((f, i) => (i === 0 ? a.size + 1 : f));
  return fair;
}

function* resolve(a: Action, now: () => PhasesState, fresh: () => string): Iterable<Sent<PhasesCommand>> {
  const s = now();
  const acting = s.turn?.combatantId ?? pick(s, 0, true);
  switch (a.k) {
    case "begin": {
      // The GM starts (if need be), declares an attack for every live foe, and moves on.
      if (!s.started) yield [{ type: "start", surprise: a.surprise }, GM];
      const live = now()
        .combatants.filter((c) => c.isPC && !c.defeated)
        .map((c) => c.id);
      for (const [i, c] of now().combatants.entries()) {
        const target = live[i % Math.max(live.length, 1)];
        if (c.isPC || c.defeated || target === undefined || now().phase !== "foesDeclare") continue;
        yield [{ type: "declareIntent", foeId: c.id, text: "attack", kind: "attack", targets: [target] }, GM];
      }
      if (now().phase === "foesDeclare") yield [{ type: "nextPhase" }, GM];
      return;
    }
    case "start":
      yield [{ type: "start", surprise: a.surprise }, requester(a.by, null)];
      return;
    case "intent": {
      const target = pick(s, a.target, true);
      yield [
        {
          type: "declareIntent",
          foeId: pick(s, a.t, false),
          text: "intent",
          kind: a.attack ? "attack" : "other",
          targets: a.attack ? [target] : [],
        },
        GM,
      ];
      return;
    }
    case "collapse":
      yield [
        { type: "spendCollapse", foeId: pick(s, a.t, false), text: "extra", targets: [pick(s, a.target, true)] },
        requester(a.by, null),
      ];
      return;
    case "nextPhase":
      yield [{ type: "nextPhase" }, requester(a.by, null)];
      return;
    case "next":
      yield [{ type: "nextTurn" }, requester(a.by, s.turn?.combatantId ?? null)];
      return;
    case "nextRound":
      yield [{ type: "nextRound" }, requester(a.by, null)];
      return;
    case "handOff":
      yield [{ type: "setHandOff", on: a.on }, GM];
      return;
    case "take": {
      // Mostly a hero still to act, so that turns race for the same moment.
      const waiting = heroesToAct(s);
      const id =
        a.t % 4 === 3 ? pick(s, a.t, true) : (waiting[a.t % Math.max(waiting.length, 1)] ?? pick(s, a.t, true));
      const type = a.pick ? "pickNext" : "startTurn";
      yield [{ type, combatantId: id }, requester(a.by, a.pick ? s.lastHero : id)];
      return;
    }
    case "roll": {
      const intents = defendableIntents(s);
      const defend = a.defend < intents.length ? intents[a.defend] : undefined;
      const base: PhasesCommand = {
        type: "skillRoll",
        combatantId: acting,
        dieSize: a.size,
        dice: diceFor(s, a),
        gainsAdvantage: a.advantage,
      };
      yield [defend === undefined ? base : { ...base, defendsIntent: defend }, requester(a.by, acting)];
      return;
    }
    case "free":
      yield [{ type: "freeAction", combatantId: acting, kind: a.move ? "move" : "item" }, requester(a.by, acting)];
      return;
    case "end":
      yield [{ type: "endTurn", combatantId: acting }, requester(a.by, acting)];
      return;
    case "answer":
      yield [
        a.collapse
          ? { type: "resolveFailure", choice: "collapse" }
          : { type: "resolveFailure", choice: "effect", text: "ouch" },
        requester(a.by, null),
      ];
      return;
    case "spend":
      yield [{ type: "spendAdvantage", note: "spent" }, requester(a.by, null)];
      return;
    case "cap":
      yield [{ type: "setPoolCap", cap: a.cap }, GM];
      return;
    case "reach": {
      const intent = s.intents[a.i % Math.max(s.intents.length, 1)];
      yield [{ type: "markOutOfReach", intentId: intent?.id ?? "i999", outOfReach: a.v }, GM];
      return;
    }
    case "defeat":
      yield [{ type: "setDefeated", combatantId: pick(s, a.t, null), defeated: a.v }, GM];
      return;
    case "add":
      yield [{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM];
      return;
    case "remove":
      yield [{ type: "removeCombatant", combatantId: pick(s, a.t, null) }, GM];
      return;
  }
}

/** At most one hero turn, run by a hero that has acted; the pool within its cap; targets are heroes. */
function invariants(state: PhasesState): void {
  expect(state.pool).toBeGreaterThanOrEqual(0);
  expect(state.pool).toBeLessThanOrEqual(state.poolCap);
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  if (state.turn !== null) {
    expect(state.phase, "a turn runs only in phase 2").toBe("heroes");
    expect(byId.get(state.turn.combatantId)?.acted, "the acting hero has acted").toBe(true);
  }
  for (const c of state.combatants) if (!c.isPC) expect(c.acted, `foe ${c.id} acted`).toBe(false);
  for (const i of state.intents) {
    expect(byId.get(i.foeId)?.isPC, `intent ${i.id} of a hero`).toBe(false);
    for (const target of i.targets) expect(byId.get(target)?.isPC, `intent ${i.id} aims at a foe`).toBe(true);
  }
}

const CAST = ["aria", "brom", "officer", "trooper1", "trooper2"] as const;

export const kit = defineKit<PhasesState, PhasesCommand, Action>({
  id: phasesMode.id,
  roster: fc.array(fc.boolean(), { minLength: 0, maxLength: 7 }).map(rosterOf),
  action,
  resolve,
  commandFor: (state, allowed) => phasesCommandFor(state, allowed),
  invariants,
  sim: {
    world: (seed, extra) => phasesWorld({ seed, ...extra }),
    async begin(sim) {
      await phasesEncounter(sim, CAST);
      const combat = combatOn(sim.gm);
      const api = apiOn(sim.gm);
      await api.command(combat, { type: "start", surprise: false });
      await sim.settle();
    },
    action: simAction,
  },
});
