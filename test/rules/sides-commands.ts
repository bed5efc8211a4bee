/**
 * The generators of the `sides` mode, shared by its property tests: abstract actions (side rolls,
 * tie orders, declarations legal and not, hesitation, turns and rounds, reactions, slow-downs, joins,
 * removals, side and trait changes), how each becomes commands against the state it meets, and the
 * roster and setup commands a random encounter starts from.
 */
import fc from "fast-check";
import type { Requester } from "../../src/core/engine";
import { passOrder, pendingSideTies, pendingTies } from "../../src/modes/sides/rules/derived";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import type { SidesCommand, SidesState } from "../../src/modes/sides/rules/types";
import { GM, T as t, pickId, requester, senders, variant, type By } from "./property-harness";

export const CODES = ["2D", "2D+1", "3D", "3D"] as const;
export const SIDE_IDS = ["s0", "s1", "s2"] as const;

export type Action =
  | { k: "begin"; totals: readonly number[] }
  | { k: "roll"; s: number; total: number; by: By }
  | { k: "declareAll"; counts: readonly number[] }
  | { k: "orderSides"; legal: boolean }
  | { k: "declare"; n: number; t: number; current: boolean; by: By }
  | { k: "hesitate"; t: number; current: boolean }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "react"; t: number; by: By }
  | { k: "slow"; t: number; after: number; by: By }
  | { k: "orderTied"; legal: boolean }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number }
  | { k: "move"; t: number; s: number }
  | { k: "traits"; t: number; d: number; p: number };

const by = senders();
export const action: fc.Arbitrary<Action> = fc.oneof(
  variant("begin", { totals: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }) }, 2),
  variant("roll", { s: fc.nat(3), total: fc.integer({ min: 1, max: 3 }), by }, 4),
  variant("orderSides", { legal: fc.boolean() }, 2),
  variant("declareAll", { counts: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }) }, 6),
  variant("declare", { n: fc.nat(3), t, current: fc.constantFrom(true, true, true, false), by }, 10),
  variant("hesitate", { t, current: fc.boolean() }, 2),
  variant("next", { by }, 10),
  variant("nextRound", { by }, 1),
  variant("react", { t, by }, 3),
  variant("slow", { t, after: t, by }, 6),
  variant("orderTied", { legal: fc.boolean() }, 2),
  variant("add", { isPC: fc.boolean() }, 1),
  variant("remove", { t }, 1),
  variant("move", { t, s: fc.nat(2) }, 1),
  variant("traits", { t, d: fc.nat(3), p: fc.nat(3) }, 1),
);

/** A combatant id from a number: mostly a live one, sometimes the one acting, sometimes a stranger. */
export function pick(state: SidesState, n: number, preferCurrent = false): string {
  const current = sidesMode.view(state).current;
  if (preferCurrent && current !== null) return current;
  const ids = state.combatants.map((c) => c.id);
  return pickId(ids, n);
}

export function code(n: number): string {
  return CODES[n % CODES.length] ?? "2D";
}

/** Turn an abstract action into commands and their senders, against the current state. */
export function resolve(state: SidesState, a: Action, fresh: () => string): [SidesCommand, Requester][] {
  switch (a.k) {
    case "begin": {
      const list: [SidesCommand, Requester][] = [[{ type: "start" }, GM]];
      SIDE_IDS.forEach((sideId, i) => list.push([{ type: "recordSideRoll", sideId, total: a.totals[i] ?? 1 }, GM]));
      return list; // tied sides are settled by the property itself: it needs the state between commands
    }
    case "declareAll":
      return []; // run by the property itself: it needs the state between declarations
    case "roll": {
      const sideId = SIDE_IDS[a.s] ?? "nowhere";
      const roller = state.combatants.find((c) => c.sideId === sideId)?.id ?? null;
      return [[{ type: "recordSideRoll", sideId, total: a.total }, requester(a.by, roller)]];
    }
    case "orderSides": {
      const tie = pendingSideTies(state)[0];
      const sideIds = a.legal && tie !== undefined ? [...tie].reverse() : ["s0", "s1"];
      return [[{ type: "orderTiedSides", sideIds }, GM]];
    }
    case "declare": {
      const id = pick(state, a.t, a.current);
      const actions = Array.from({ length: a.n }, (_, i) => ({ text: `a${i}` }));
      return [[{ type: "declare", combatantId: id, actions, forcePoint: a.n === 3 }, requester(a.by, id)]];
    }
    case "hesitate":
      return [[{ type: "hesitate", combatantId: pick(state, a.t, a.current) }, GM]];
    case "next":
      return [[{ type: "nextTurn" }, requester(a.by, sidesMode.view(state).current)]];
    case "nextRound":
      return [[{ type: "nextRound" }, requester(a.by, null)]];
    case "react": {
      const id = pick(state, a.t);
      return [[{ type: "react", combatantId: id, kind: a.t % 2 === 0 ? "dodge" : "parry" }, requester(a.by, id)]];
    }
    case "slow": {
      const id = pick(state, a.t, a.t % 3 === 0);
      const open = passOrder(state).filter((x) => x !== id && !state.done.includes(x));
      const after = a.after % 3 === 2 ? pick(state, a.after) : (open[a.after % Math.max(open.length, 1)] ?? "ghost");
      return [[{ type: "slowDown", combatantId: id, after }, requester(a.by, id)]];
    }
    case "orderTied": {
      const tie = pendingTies(state)[0];
      const combatantIds = a.legal && tie !== undefined ? [...tie].reverse() : [pick(state, 0), pick(state, 1)];
      return [[{ type: "orderTied", pass: Math.max(state.pass, 1), combatantIds }, GM]];
    }
    case "add": {
      const id = fresh();
      return [
        [{ type: "addCombatant", combatant: { id, name: "joiner", isPC: a.isPC } }, GM],
        [{ type: "setSide", combatantId: id, sideId: "s1" }, GM],
      ];
    }
    case "remove":
      return [[{ type: "removeCombatant", combatantId: pick(state, a.t) }, GM]];
    case "move":
      return [[{ type: "setSide", combatantId: pick(state, a.t), sideId: SIDE_IDS[a.s] ?? "s0" }, GM]];
    case "traits":
      return [
        [
          {
            type: "setTraits",
            combatantId: pick(state, a.t),
            dexterity: code(a.d),
            perception: code(a.p),
            initiativeScore: code(a.p + 1),
          },
          GM,
        ],
      ];
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
