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
import type { Requester } from "../../src/core/engine";
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
import {
  GM,
  ModeRun,
  T as t,
  expectStepBack,
  freshIds,
  perRoundTally,
  pickId,
  requester,
  senders,
  variant,
  type By,
} from "./property-harness";

const CODES = ["2D", "2D+1", "3D", "3D"] as const;
const SIDE_IDS = ["s0", "s1", "s2"] as const;

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

const by = senders();
const action: fc.Arbitrary<Action> = fc.oneof(
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
function pick(state: SidesState, n: number, preferCurrent = false): string {
  const current = sidesMode.view(state).current;
  if (preferCurrent && current !== null) return current;
  const ids = state.combatants.map((c) => c.id);
  return pickId(ids, n);
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
  const view = sidesMode.view(state);
  let command: SidesCommand | null = null;
  if (state.step === "pass") command = { type: "nextTurn" };
  if (state.step === "declaration" && view.current !== null) {
    command = { type: "declare", combatantId: view.current, actions: [{ text: "x" }], forcePoint: false };
  }
  if (command === null) return;
  const isNextTurn = command.type === "nextTurn";
  expectStepBack(sidesMode, state, command, (after) => {
    if (isNextTurn && after.round === state.round) expect(sidesMode.view(after).current).toBe(view.next);
  });
}

describe("sides mode: invariants under random command sequences", () => {
  it("holds after every step", () => {
    const roster = fc.array(fc.record({ isPC: fc.boolean(), d: fc.nat(3), p: fc.nat(3), s: fc.nat(2) }), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 60 }), (people, actions) => {
        const fresh = freshIds();
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
        /** Declared actions taken or lost, per "round:id" (reactions are extra actions, counted apart). */
        const taken = perRoundTally("actionTaken", "slowedActionLost");
        const run = new ModeRun(sidesMode, state, {
          accepted: ({ before, events }) => {
            for (const { key, combatantId, count } of taken(events)) {
              const d = declarationOf(before, combatantId);
              const declared = d === undefined || d.hesitated ? 0 : d.actions.length;
              expect(count, `more actions than declared: ${key}`).toBeLessThanOrEqual(declared);
            }
          },
          invariants: (reached) => {
            checkState(reached);
            if (reached.started) checkUndo(reached);
          },
        });
        for (const a of actions) {
          run.steps(resolve(run.state, a, fresh));
          if (a.k === "declareAll") {
            // Everyone still to declare declares in turn, through the GM.
            for (let i = 0; i < 12; i++) {
              const id = sidesMode.view(run.state).current;
              if (run.state.step !== "declaration" || id === null) break;
              const count = a.counts[i % a.counts.length] ?? 1;
              const actions = Array.from({ length: count }, () => ({ text: "act" }));
              run.step({ type: "declare", combatantId: id, actions, forcePoint: false }, GM);
            }
          }
          if (a.k !== "begin") continue;
          // The GM orders tied sides, so the round goes on to the declarations.
          for (let i = 0; i < 3; i++) {
            const tie = pendingSideTies(run.state)[0];
            if (tie !== undefined) run.step({ type: "orderTiedSides", sideIds: [...tie] }, GM);
          }
        }
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});
