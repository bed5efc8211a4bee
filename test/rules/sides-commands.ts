/**
 * The generators of the `sides` mode, shared by its property tests and its conformance kit: abstract
 * actions (side rolls, tied sides, declarations legal and not, hesitation, turns and rounds,
 * reactions, slow-downs, let-passes, tie orders, joins, removals, side and trait changes) from the GM,
 * owners and strangers, how each becomes commands against the state it meets, the command an allowed
 * action names, and the roster and setup commands a random encounter of the property tests starts
 * from.
 */
import fc from "fast-check";
import type { AllowedAction } from "../../src/core/engine";
import {
  passOrder,
  pendingSideTies,
  pendingTies,
  sidesToRoll,
  slowedWaiting,
} from "../../src/modes/sides/rules/derived";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../src/modes/sides/rules/types";
import type { Sent } from "../conformance/kit";
import { GM, T as t, pickId, requester, senders, variant, type By } from "./property-harness";

export const CODES = ["2D", "2D+1", "3D", "3D"] as const;
export const SIDE_IDS = ["s0", "s1", "s2"] as const;

export function code(n: number): string {
  return CODES[n % CODES.length] ?? "2D";
}

/** An abstract action. */
export type SidesAction =
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
  | { k: "move"; t: number; s: number }
  | { k: "traits"; t: number; d: number; p: number };

/** The counts of actions each declarer of a `declareAll` declares, in turn. */
export const declareCounts = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 });

/**
 * The actions. `roster: false` leaves out joins, removals and side changes (in Foundry they come from
 * documents); `traits: true` adds trait changes; `extra` adds more kinds of action (or more weight to
 * one), weighted alongside.
 */
export function sidesActions({
  roster = true,
  traits = false,
  extra = [],
}: {
  roster?: boolean;
  traits?: boolean;
  extra?: readonly fc.WeightedArbitrary<SidesAction>[];
} = {}): fc.Arbitrary<SidesAction> {
  const by = senders();
  const play: fc.WeightedArbitrary<SidesAction>[] = [
    // The GM's undo can take an encounter back to before its start: it starts again.
    variant("begin", { totals: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }) }, 3),
    variant("start", { by }, 1),
    variant("roll", { s: fc.nat(3), total: fc.integer({ min: 1, max: 3 }), by }, 4),
    variant("orderSides", { legal: fc.boolean() }, 2),
    variant("declareAll", { counts: declareCounts }, 5),
    variant("declare", { n: fc.nat(3), t, current: fc.constantFrom(true, true, true, false), by }, 8),
    variant("hesitate", { t, current: fc.boolean() }, 1),
    variant("next", { by }, 10),
    variant("nextRound", { by }, 1),
    variant("react", { t, by }, 3),
    variant("slow", { t, after: t, by }, 5),
    variant("letPass", { t, by }, 2),
    variant("orderTied", { legal: fc.boolean() }, 2),
  ];
  const changes: fc.WeightedArbitrary<SidesAction>[] = roster
    ? [variant("add", { isPC: fc.boolean() }, 1), variant("remove", { t }, 1), variant("move", { t, s: fc.nat(2) }, 1)]
    : [];
  if (traits) changes.push(variant("traits", { t, d: fc.nat(3), p: fc.nat(3) }, 1));
  return fc.oneof(...play, ...extra, ...changes);
}

/** A combatant id from a number: mostly a live one, sometimes the one acting, sometimes a stranger. */
function pick(state: SidesState, n: number, preferCurrent = false): string {
  const current = sidesMode.view(state).current;
  if (preferCurrent && current !== null) return current;
  return pickId(
    state.combatants.map((c) => c.id),
    n,
  );
}

/** The id of the n-th side, or of no side past the last. */
function sideAt(state: SidesState, n: number): string {
  return n >= state.sides.length ? "nowhere" : (state.sides[n]?.id ?? "nowhere");
}

/**
 * Turn an action into commands and their senders, each against the state `now()` returns at the time
 * (`begin` and `declareAll` read the state between their commands). `fresh` names joiners.
 */
export function* sidesCommands(
  a: SidesAction,
  now: () => SidesState,
  fresh: () => string,
): Iterable<Sent<SidesCommand>> {
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
      if (!s.started) yield* sidesCommands({ k: "begin", totals: [1, 2, 3] }, now, fresh);
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
    case "traits":
      yield [
        {
          type: "setTraits",
          combatantId: pick(s, a.t),
          dexterity: code(a.d),
          perception: code(a.p),
          initiativeScore: code(a.p + 1),
        },
        GM,
      ];
      return;
  }
}

/** The command an allowed action names, or null when it names none this helper builds. */
export function sidesCommandFor(state: SidesState, action: AllowedAction): SidesCommand | null {
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

/** One person of a random roster: PC or not, Dexterity, Perception and side (indices). */
export interface Person {
  readonly isPC: boolean;
  readonly d: number;
  readonly p: number;
  readonly s: number;
}

/** A random roster of one to six people. */
export const roster: fc.Arbitrary<Person[]> = fc.array(
  fc.record({ isPC: fc.boolean(), d: fc.nat(3), p: fc.nat(3), s: fc.nat(2) }),
  { minLength: 1, maxLength: 6 },
);

/** The encounter of a roster before its setup commands. */
export function created(people: readonly Person[]): SidesState {
  return sidesMode.create(people.map((p, i) => ({ id: `c${i}`, name: `C${i}`, isPC: p.isPC })));
}

/** The sides and each person's side and traits. */
export function setupCommands(people: readonly Person[]): SidesCommand[] {
  return [
    ...SIDE_IDS.map((sideId): SidesCommand => ({ type: "defineSide", sideId, name: sideId, colour: "#777" })),
    ...people.flatMap((p, i): SidesCommand[] => [
      { type: "setSide", combatantId: `c${i}`, sideId: SIDE_IDS[p.s] ?? "s0" },
      {
        type: "setTraits",
        combatantId: `c${i}`,
        dexterity: code(p.d),
        perception: code(p.p),
        initiativeScore: code(p.d + p.p),
      },
    ]),
  ];
}
