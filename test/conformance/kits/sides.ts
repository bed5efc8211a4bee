/**
 * Conformance kit of the `sides` mode: side rolls, tied sides, declarations, passes, reactions and
 * slowing down from the GM, owners and strangers (the generators of `test/rules/sides.property.test.ts`,
 * cut down), and the sides world (sides from token dispositions, traits from the actors) in the
 * simulated Foundry.
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { AllowedAction } from "../../../src/core/engine";
import {
  pendingSideTies,
  pendingTies,
  sidesToRoll,
  slowedWaiting,
  passOrder,
} from "../../../src/modes/sides/rules/derived";
import { sidesMode } from "../../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../../src/modes/sides/rules/types";
import { GM, T as t, pickId, requester, senders, variant, type By } from "../../rules/property-harness";
import { apiOn, combatOn } from "../../integration/world.js";
import { sidesEncounter, sidesOn, sidesWorld } from "../../integration/sides-world.js";
import { defineKit, rosterOf, type Sent } from "../kit";

const CODES = ["2D", "2D+1", "3D", "3D"] as const;

type Action =
  | { k: "begin"; totals: readonly number[] }
  | { k: "start"; by: By }
  | { k: "roll"; s: number; total: number; by: By }
  | { k: "orderSides"; legal: boolean }
  | { k: "declareAll"; counts: readonly number[] }
  | { k: "declare"; n: number; t: number; current: boolean; by: By }
  | { k: "hesitate"; t: number; current: boolean }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "react"; t: number; by: By }
  | { k: "slow"; t: number; after: number; by: By }
  | { k: "letPass"; t: number; by: By }
  | { k: "orderTied"; legal: boolean }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number }
  | { k: "move"; t: number; s: number };

const by = senders();
const play = [
  // The GM's undo can take an encounter back to before its start: it starts again.
  variant("begin", { totals: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }) }, 3),
  variant("start", { by }, 1),
  variant("roll", { s: fc.nat(3), total: fc.integer({ min: 1, max: 3 }), by }, 4),
  variant("orderSides", { legal: fc.boolean() }, 2),
  variant("declareAll", { counts: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }) }, 5),
  variant("declare", { n: fc.nat(3), t, current: fc.constantFrom(true, true, true, false), by }, 8),
  variant("hesitate", { t, current: fc.boolean() }, 1),
  variant("next", { by }, 10),
  variant("nextRound", { by }, 1),
  variant("react", { t, by }, 3),
  variant("slow", { t, after: t, by }, 5),
  variant("letPass", { t, by }, 2),
  variant("orderTied", { legal: fc.boolean() }, 2),
] as const;
// Declarations move a round on: the simulation declares in turn more often.
const simAction: fc.Arbitrary<Action> = fc.oneof(
  ...play,
  variant("declareAll", { counts: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }) }, 5),
);
const action: fc.Arbitrary<Action> = fc.oneof(
  ...play,
  variant("add", { isPC: fc.boolean() }, 1),
  variant("remove", { t }, 1),
  variant("move", { t, s: fc.nat(2) }, 1),
);

function pick(state: SidesState, n: number, preferCurrent = false): string {
  const current = sidesMode.view(state).current;
  if (preferCurrent && current !== null) return current;
  return pickId(
    state.combatants.map((c) => c.id),
    n,
  );
}

function sideAt(state: SidesState, n: number): string {
  return n >= state.sides.length ? "nowhere" : (state.sides[n]?.id ?? "nowhere");
}

function* resolve(a: Action, now: () => SidesState, fresh: () => string): Iterable<Sent<SidesCommand>> {
  const s = now();
  switch (a.k) {
    case "begin": {
      yield [{ type: "start" }, GM];
      for (const [i, side] of now().sides.entries()) {
        yield [{ type: "recordSideRoll", sideId: side.id, total: a.totals[i % a.totals.length] ?? 1 }, GM];
      }
      for (let i = 0; i < 3; i++) {
        const tie = pendingSideTies(now())[0];
        if (tie !== undefined) yield [{ type: "orderTiedSides", sideIds: [...tie] }, GM];
      }
      return;
    }
    case "start":
      yield [{ type: "start" }, requester(a.by, null)];
      return;
    case "roll": {
      // Mostly a side still to roll, so that a round rewound to its initiative step goes on.
      const open = sidesToRoll(s);
      const sideId = a.s === 3 || open.length === 0 ? sideAt(s, a.s) : (open[a.s % open.length] ?? "nowhere");
      const roller = s.combatants.find((c) => c.sideId === sideId)?.id ?? null;
      yield [{ type: "recordSideRoll", sideId, total: a.total }, requester(a.by, roller)];
      return;
    }
    case "orderSides": {
      const tie = pendingSideTies(s)[0];
      const sideIds = a.legal && tie !== undefined ? [...tie].reverse() : [sideAt(s, 0), sideAt(s, 1)];
      yield [{ type: "orderTiedSides", sideIds }, GM];
      return;
    }
    case "declareAll":
      // The GM's undo may have gone back before the start (`Combat#previousTurn` asks nothing): the GM
      // starts and rolls again, as at the table, so a simulation never stays stuck before the start.
      if (!s.started) yield* resolve({ k: "begin", totals: [1, 2, 3] }, now, fresh);
      // Everyone still to declare declares in turn, through the GM.
      for (let i = 0; i < 10; i++) {
        const state = now();
        const id = sidesMode.view(state).current;
        if (state.step !== "declaration" || id === null) return;
        const count = a.counts[i % a.counts.length] ?? 1;
        const actions = Array.from({ length: count }, () => ({ text: "act" }));
        yield [{ type: "declare", combatantId: id, actions, forcePoint: false }, GM];
      }
      return;
    case "declare": {
      const id = pick(s, a.t, a.current);
      const actions = Array.from({ length: a.n }, (_, i) => ({ text: `a${i}` }));
      yield [{ type: "declare", combatantId: id, actions, forcePoint: a.n === 3 }, requester(a.by, id)];
      return;
    }
    case "hesitate":
      yield [{ type: "hesitate", combatantId: pick(s, a.t, a.current) }, GM];
      return;
    case "next":
      yield [{ type: "nextTurn" }, requester(a.by, sidesMode.view(s).current)];
      return;
    case "nextRound":
      yield [{ type: "nextRound" }, requester(a.by, null)];
      return;
    case "react": {
      const id = pick(s, a.t);
      yield [{ type: "react", combatantId: id, kind: a.t % 2 === 0 ? "dodge" : "parry" }, requester(a.by, id)];
      return;
    }
    case "slow": {
      const id = pick(s, a.t, a.t % 3 === 0);
      const open = passOrder(s).filter((x) => x !== id && !s.done.includes(x));
      const after = a.after % 3 === 2 ? pick(s, a.after) : (open[a.after % Math.max(open.length, 1)] ?? "ghost");
      yield [{ type: "slowDown", combatantId: id, after }, requester(a.by, id)];
      return;
    }
    case "letPass": {
      const id = a.t % 2 === 0 ? (sidesMode.view(s).current ?? pick(s, a.t)) : pick(s, a.t);
      yield [{ type: "letPass", combatantId: id }, requester(a.by, id)];
      return;
    }
    case "orderTied": {
      const tie = pendingTies(s)[0];
      const combatantIds = a.legal && tie !== undefined ? [...tie].reverse() : [pick(s, 0), pick(s, 1)];
      yield [{ type: "orderTied", pass: Math.max(s.pass, 1), combatantIds }, GM];
      return;
    }
    case "add": {
      const id = fresh();
      yield [{ type: "addCombatant", combatant: { id, name: "joiner", isPC: a.isPC } }, GM];
      yield [{ type: "setSide", combatantId: id, sideId: sideAt(now(), 1) }, GM];
      return;
    }
    case "remove":
      yield [{ type: "removeCombatant", combatantId: pick(s, a.t) }, GM];
      return;
    case "move":
      yield [{ type: "setSide", combatantId: pick(s, a.t), sideId: sideAt(s, a.s) }, GM];
      return;
  }
}

/** Three sides; everyone seated by joining order, with traits that make ties likely. */
function* setup(state: SidesState): Iterable<SidesCommand> {
  for (const sideId of ["s0", "s1", "s2"]) yield { type: "defineSide", sideId, name: sideId, colour: "#777" };
  for (const [i, c] of state.combatants.entries()) {
    yield { type: "setSide", combatantId: c.id, sideId: `s${i % 3}` };
    const code = (n: number): string => CODES[n % CODES.length] ?? "2D";
    yield {
      type: "setTraits",
      combatantId: c.id,
      dexterity: code(i),
      perception: code(i + 1),
      initiativeScore: code(i),
    };
  }
}

function commandFor(state: SidesState, action: AllowedAction): SidesCommand | null {
  const id = action.combatantId ?? "";
  const groupId = action.groupId ?? "";
  switch (action.type) {
    case "addCombatant":
      return { type: "addCombatant", combatant: { id: "kit-joiner", name: "Joiner", isPC: false } };
    case "removeCombatant":
    case "hesitate":
    case "letPass":
      return { type: action.type, combatantId: id };
    case "defineSide":
      return { type: "defineSide", sideId: "kit-side", name: "Kit side", colour: "#123456" };
    case "configure":
      return { type: "configure", maxActions: 4, actionPenalty: "1D" };
    case "setSide": {
      const current = state.combatants.find((c) => c.id === id)?.sideId;
      const side = state.sides.find((x) => x.id !== current) ?? state.sides[0];
      return side === undefined ? null : { type: "setSide", combatantId: id, sideId: side.id };
    }
    case "setTraits":
      return { type: "setTraits", combatantId: id, dexterity: "3D", perception: "2D+1", initiativeScore: "2D" };
    case "setRoller":
      return { type: "setRoller", sideId: groupId, combatantId: null };
    case "removeSide":
      return { type: "removeSide", sideId: groupId };
    case "start":
    case "nextTurn":
    case "nextRound":
      return { type: action.type };
    case "declare":
      return { type: "declare", combatantId: id, actions: [{ text: "kit action" }], forcePoint: false };
    case "react":
      return { type: "react", combatantId: id, kind: "parry" };
    case "slowDown": {
      const after =
        passOrder(state).find((x) => x !== id && !state.done.includes(x)) ??
        slowedWaiting(state).find((entry) => entry.combatantId !== id)?.combatantId;
      return after === undefined ? null : { type: "slowDown", combatantId: id, after };
    }
    case "recordSideRoll":
      return { type: "recordSideRoll", sideId: groupId, total: 7 };
    case "orderTiedSides": {
      const tie = pendingSideTies(state).find((x) => x[0] === groupId);
      return tie === undefined ? null : { type: "orderTiedSides", sideIds: [...tie].reverse() };
    }
    case "orderTied": {
      const tie = pendingTies(state).find((x) => x[0] === id);
      return tie === undefined ? null : { type: "orderTied", pass: state.pass, combatantIds: [...tie].reverse() };
    }
    default:
      return null;
  }
}

/** A declaration steps forward in the declaration step; next turn in the passes. */
function steps(state: SidesState): SidesCommand[] {
  const current = sidesMode.view(state).current;
  if (state.step === "declaration" && current !== null) {
    return [{ type: "declare", combatantId: current, actions: [{ text: "x" }], forcePoint: false }];
  }
  return [{ type: "nextTurn" }];
}

/** In pass k, `done` is a prefix of the pass order, and who is still to act (or waits slowed) acts once. */
function invariants(state: SidesState): void {
  if (state.step !== "pass") return;
  expect(state.done).toEqual(passOrder(state).slice(0, state.done.length));
  const toAct = [
    ...passOrder(state).filter((id) => !state.done.includes(id)),
    ...slowedWaiting(state).map((e) => e.combatantId),
  ];
  const expected = state.declarations
    .filter((d) => !d.hesitated && d.actions.length >= state.pass && !state.done.includes(d.combatantId))
    .map((d) => d.combatantId);
  expect([...toAct].sort()).toEqual([...expected].sort());
  expect(new Set(toAct).size).toBe(toAct.length);
}

const CAST = ["ace", "jaluun", "officer", "trooper1", "trooper2"] as const;

export const kit = defineKit<SidesState, SidesCommand, Action>({
  id: sidesMode.id,
  roster: fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }).map(rosterOf),
  setup,
  action,
  resolve,
  commandFor,
  steps,
  invariants,
  sim: {
    world: (seed, extra) => sidesWorld({ seed, ...extra }),
    async begin(sim) {
      await sidesEncounter(sim, CAST);
      const combat = combatOn(sim.gm);
      const api = apiOn(sim.gm);
      await api.command(combat, { type: "start" });
      await sim.settle();
      for (const [i, side] of sidesOn(sim.gm).sides.entries()) {
        await api.command(combat, { type: "recordSideRoll", sideId: side.id, total: 10 + i });
      }
      await sim.settle();
    },
    action: simAction,
  },
});
