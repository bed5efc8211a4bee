/**
 * Property test of the `sides` mode: random sequences of legal and illegal commands from the GM, an
 * owner and a non-owner, checking the mode's invariants after every step.
 *
 * Invariants checked:
 * - A refusal leaves the state unchanged (every input is deep-frozen, and compared after).
 * - Each character takes (or loses) at most its declared actions in a round (counted from
 *   `actionTaken` and `slowedActionLost` events), and `actionsTaken` never exceeds its declared
 *   actions plus its reactions.
 * - In pass k, the pass order still to act plus the slowed characters waiting is exactly the set of
 *   characters with at least k declared actions that have not acted in this pass; `done` is a
 *   prefix of the pass order.
 * - The tracker order shows every combatant once; the stored state passes `parseSidesState`.
 * - Next turn (or the current declaration) then previous turn, through the engine's `dispatch`,
 *   gives back an equal encounter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dispatch, type Encounter, type Requester } from "../../src/core/engine";
import {
  actionsTaken,
  declarationOf,
  pendingSideTies,
  pendingTies,
  sidesMode,
  slowedWaiting,
  type SidesCommand,
  type SidesState,
} from "../../src/modes/sides/rules/sides";
import { parseSidesState } from "../../src/modes/sides/rules/state";

const GM: Requester = { userId: "gm", isGM: true, owns: [] };
const STRANGER: Requester = { userId: "stranger", isGM: false, owns: ["nobody"] };
const CODES = ["2D", "2D+1", "3D", "3D"] as const;
const SIDE_IDS = ["s0", "s1", "s2"] as const;

type By = "gm" | "owner" | "other";

type Action =
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

const by = fc.constantFrom<By>("gm", "gm", "owner", "other");
const t = fc.nat(20);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      k: fc.constant("begin" as const),
      totals: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ k: fc.constant("roll" as const), s: fc.nat(3), total: fc.integer({ min: 1, max: 3 }), by }),
    weight: 4,
  },
  { arbitrary: fc.record({ k: fc.constant("orderSides" as const), legal: fc.boolean() }), weight: 2 },
  {
    arbitrary: fc.record({
      k: fc.constant("declareAll" as const),
      counts: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      k: fc.constant("declare" as const),
      n: fc.nat(3),
      t,
      current: fc.constantFrom(true, true, true, false),
      by,
    }),
    weight: 10,
  },
  { arbitrary: fc.record({ k: fc.constant("hesitate" as const), t, current: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("next" as const), by }), weight: 10 },
  { arbitrary: fc.record({ k: fc.constant("nextRound" as const), by }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("react" as const), t, by }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant("slow" as const), t, after: t, by }), weight: 6 },
  { arbitrary: fc.record({ k: fc.constant("orderTied" as const), legal: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("add" as const), isPC: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("remove" as const), t }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("move" as const), t, s: fc.nat(2) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("traits" as const), t, d: fc.nat(3), p: fc.nat(3) }), weight: 1 },
);

/** A combatant id from a number: mostly a live one, sometimes the one acting, sometimes a stranger. */
function pick(state: SidesState, n: number, preferCurrent = false): string {
  const current = sidesMode.view(state).current;
  if (preferCurrent && current !== null) return current;
  if (n % 9 === 8) return "ghost";
  return state.combatants[n % Math.max(state.combatants.length, 1)]?.id ?? "ghost";
}

function requester(kind: By, subject: string | null): Requester {
  if (kind === "gm") return GM;
  if (kind === "other" || subject === null) return STRANGER;
  return { userId: `owner-${subject}`, isGM: false, owns: [subject] };
}

function code(n: number): string {
  return CODES[n % CODES.length] ?? "2D";
}

/** Turn an abstract action into commands and their senders, against the current state. */
function resolve(state: SidesState, a: Action, fresh: () => string): [SidesCommand, Requester][] {
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
      const open = state.passOrder.filter((x) => x !== id && !state.done.includes(x));
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

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function checkState(state: SidesState): void {
  expect(parseSidesState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  const view = sidesMode.view(state);
  expect([...view.order].sort()).toEqual(state.combatants.map((c) => c.id).sort());
  for (const d of state.declarations) {
    const declared = d.hesitated ? 0 : d.actions.length;
    expect(actionsTaken(state, d.combatantId)).toBeLessThanOrEqual(declared + d.reactions.length);
  }
  if (state.step !== "pass") return;
  const k = state.pass;
  expect(state.done).toEqual(state.passOrder.slice(0, state.done.length));
  const toAct = [
    ...state.passOrder.filter((id) => !state.done.includes(id)),
    ...slowedWaiting(state).map((e) => e.combatantId),
  ];
  const expected = state.declarations
    .filter((d) => !d.hesitated && d.actions.length >= k && !state.done.includes(d.combatantId))
    .map((d) => d.combatantId);
  expect([...toAct].sort()).toEqual([...expected].sort());
  expect(new Set(toAct).size).toBe(toAct.length);
  expect(view.current).toBe(state.passOrder.find((id) => !state.done.includes(id)) ?? null);
}

function checkUndo(state: SidesState): void {
  const encounter: Encounter<SidesState> = { mode: "sides", state, history: [] };
  const view = sidesMode.view(state);
  let command: SidesCommand | null = null;
  if (state.step === "pass") command = { type: "nextTurn" };
  if (state.step === "declaration" && view.current !== null) {
    command = { type: "declare", combatantId: view.current, actions: [{ text: "x" }], forcePoint: false };
  }
  if (command === null) return;
  const forward = dispatch(sidesMode, encounter, command, GM);
  if (!forward.ok) throw new Error(`${command.type} refused: ${forward.refusal.code}`);
  if (command.type === "nextTurn" && forward.state.state.round === state.round) {
    expect(sidesMode.view(forward.state.state).current).toBe(view.next);
  }
  const back = dispatch(sidesMode, forward.state, { type: "previousTurn" }, GM);
  if (!back.ok) throw new Error(`previousTurn refused: ${back.refusal.code}`);
  expect(back.state).toEqual(encounter);
}

describe("sides mode: invariants under random command sequences", () => {
  it("holds after every step", () => {
    const roster = fc.array(fc.record({ isPC: fc.boolean(), d: fc.nat(3), p: fc.nat(3), s: fc.nat(2) }), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 60 }), (people, actions) => {
        let joined = 0;
        const fresh = (): string => `j${joined++}`;
        let state = sidesMode.create(people.map((p, i) => ({ id: `c${i}`, name: `C${i}`, isPC: p.isPC })));
        const setupCommands: SidesCommand[] = [
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
        for (const command of setupCommands) {
          const outcome = sidesMode.apply(state, command, GM);
          if (outcome.ok) state = outcome.state;
        }
        state = deepFreeze(state);
        /** Declared actions taken or lost, per "round:id" (reactions are extra actions, counted apart). */
        const taken = new Map<string, number>();
        const step = (command: SidesCommand, who: Requester): void => {
          const before = structuredClone(state);
          const outcome = sidesMode.apply(state, command, who);
          if (!outcome.ok) {
            expect(state).toEqual(before);
            return;
          }
          for (const e of outcome.events) {
            if (e.type !== "actionTaken" && e.type !== "slowedActionLost") continue;
            const id = e.combatantId ?? "?";
            const key = `${e.round ?? "?"}:${id}`;
            const count = (taken.get(key) ?? 0) + 1;
            taken.set(key, count);
            const d = declarationOf(state, id);
            const declared = d === undefined || d.hesitated ? 0 : d.actions.length;
            expect(count, `more actions than declared: ${key}`).toBeLessThanOrEqual(declared);
          }
          state = deepFreeze(outcome.state);
          checkState(state);
          if (state.started) checkUndo(state);
        };
        for (const a of actions) {
          for (const [command, who] of resolve(state, a, fresh)) step(command, who);
          if (a.k === "declareAll") {
            // Everyone still to declare declares in turn, through the GM.
            for (let i = 0; i < 12; i++) {
              const id = sidesMode.view(state).current;
              if (state.step !== "declaration" || id === null) break;
              const count = a.counts[i % a.counts.length] ?? 1;
              const actions = Array.from({ length: count }, () => ({ text: "act" }));
              step({ type: "declare", combatantId: id, actions, forcePoint: false }, GM);
            }
          }
          if (a.k !== "begin") continue;
          // The GM orders tied sides, so the round goes on to the declarations.
          for (let i = 0; i < 3; i++) {
            const tie = pendingSideTies(state)[0];
            if (tie !== undefined) step({ type: "orderTiedSides", sideIds: [...tie] }, GM);
          }
        }
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});
