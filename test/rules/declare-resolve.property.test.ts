/**
 * Property test of the `declare-resolve` mode: random interleavings of rolls, ties, declarations
 * (legal and not), turn and round changes, upkeep, IP changes, conditions, joins, defeats and
 * removals, sent by the GM and two players (each owning some combatants), checking the mode's
 * invariants after every step.
 *
 * Invariants checked:
 * - A refusal leaves the state deep-equal (every input is deep-frozen, and compared after): apply
 *   never mutates.
 * - The view's order is a permutation of the combatants; `current` is one of them or null.
 * - `allowed()` never offers what `apply` refuses, for the GM and both players.
 * - parse(JSON(state)) deep-equals the state.
 * - Every declaration fits the AP rule: its costs fit the AP available, or it is one action that
 *   needs all of it and carries the rest (at most a budget).
 * - Every refusal code is a shared one or one of the mode's own.
 * - A next turn then a previous turn (through the engine's `dispatch`) gives back an equal encounter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REFUSAL_CODES, dispatch, type AllowedAction, type Encounter, type Requester } from "../../src/core/engine";
import {
  DECLARE_RESOLVE_REFUSALS,
  availableAP,
  currentDeclarer,
  declareResolveMode,
  pendingTies,
  type ActionInput,
  type DeclareResolveCommand,
  type DeclareResolveState,
} from "../../src/modes/declare-resolve/rules/declare-resolve";
import { parseDeclareResolveState } from "../../src/modes/declare-resolve/rules/state";

const GM: Requester = { userId: "gm", isGM: true, owns: [] };
/** Every refusal code the rules may return: the shared ones and the mode's own. */
const KNOWN_CODES: readonly string[] = [...REFUSAL_CODES, ...DECLARE_RESOLVE_REFUSALS];

type By = "gm" | "p1" | "p2";

/** Player 1 owns the even-numbered combatants, player 2 the odd ones (joiners are the GM's). */
function requester(state: DeclareResolveState, by: By): Requester {
  if (by === "gm") return GM;
  const parity = by === "p1" ? 0 : 1;
  const owns = state.combatants.filter((c, i) => c.isPC && i % 2 === parity).map((c) => c.id);
  return { userId: by, isGM: false, owns };
}

type Action =
  | { k: "roll"; t: number; total: number; mod: number; by: By }
  | { k: "rollAll"; totals: readonly number[] }
  | { k: "start"; by: By }
  | { k: "orderTie"; seed: number; by: By }
  | { k: "declare"; current: boolean; t: number; actions: readonly number[]; by: By }
  | { k: "next"; by: By }
  | { k: "nextRound"; by: By }
  | { k: "upkeep"; by: By }
  | { k: "ipChange"; t: number; amount: number; duration: number }
  | { k: "removeChange"; t: number }
  | { k: "conditions"; t: number; bleeding: number; dazed: number; stunned: number }
  | { k: "budget"; budget: number }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number }
  | { k: "defeat"; t: number; v: boolean };

/** The catalogue the glue would send, plus a few bad entries. */
const CATALOGUE: readonly ActionInput[] = [
  { name: "Dodge", cost: 2, kind: "defence", def: 3 },
  { name: "Melee Attack", cost: 4, kind: "attack" },
  { name: "Power Attack", cost: 7, kind: "attack" },
  { name: "Jab", cost: 1, kind: "attack" },
  { name: "Shout", cost: 0, kind: "other" },
  { name: "Ritual", cost: 12, kind: "other" },
  { name: "Cheat", cost: -1, kind: "other" },
  { name: "Odd", cost: Number.NaN, kind: "other" },
  { name: "Sing", cost: 1, kind: "song" },
];

const by = fc.constantFrom<By>("gm", "gm", "p1", "p2");
const t = fc.nat(20);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      k: fc.constant("roll" as const),
      t,
      total: fc.integer({ min: 2, max: 8 }),
      mod: fc.integer({ min: 0, max: 2 }),
      by,
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      k: fc.constant("rollAll" as const),
      totals: fc.array(fc.integer({ min: 2, max: 9 }), { minLength: 8, maxLength: 8 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ k: fc.constant("start" as const), by }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("orderTie" as const), seed: fc.nat(), by }), weight: 3 },
  {
    arbitrary: fc.record({
      k: fc.constant("declare" as const),
      current: fc.boolean(),
      t,
      // Jab (1 AP) often, so that declarations with extra attacks fit the budget.
      actions: fc.array(
        fc.oneof({ arbitrary: fc.constant(3), weight: 2 }, { arbitrary: fc.nat(CATALOGUE.length - 1), weight: 3 }),
        {
          maxLength: 3,
        },
      ),
      by,
    }),
    weight: 10,
  },
  { arbitrary: fc.record({ k: fc.constant("next" as const), by }), weight: 8 },
  { arbitrary: fc.record({ k: fc.constant("nextRound" as const), by }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("upkeep" as const), by }), weight: 2 },
  {
    arbitrary: fc.record({
      k: fc.constant("ipChange" as const),
      t,
      amount: fc.integer({ min: -3, max: 3 }),
      duration: fc.nat(3),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ k: fc.constant("removeChange" as const), t }), weight: 1 },
  {
    arbitrary: fc.record({
      k: fc.constant("conditions" as const),
      t,
      bleeding: fc.nat(3),
      dazed: fc.nat(2),
      stunned: fc.nat(2),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ k: fc.constant("budget" as const), budget: fc.integer({ min: 1, max: 8 }) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("add" as const), isPC: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("remove" as const), t }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("defeat" as const), t, v: fc.boolean() }), weight: 1 },
);

/** A combatant id from a number: mostly a present one, sometimes a stranger. */
function pick(state: DeclareResolveState, n: number): string {
  if (n % 11 === 10) return "ghost";
  return state.combatants[n % Math.max(state.combatants.length, 1)]?.id ?? "ghost";
}

/** Turn an abstract action into commands and their senders, against the current state. */
function resolve(state: DeclareResolveState, a: Action, fresh: () => string): [DeclareResolveCommand, Requester][] {
  switch (a.k) {
    case "roll":
      return [
        [{ type: "recordIP", combatantId: pick(state, a.t), total: a.total, modifier: a.mod }, requester(state, a.by)],
      ];
    case "rollAll":
      return state.combatants
        .filter((c) => c.ip === null)
        .map((c, i) => [{ type: "recordIP", combatantId: c.id, total: a.totals[i % 8] ?? 5, modifier: i % 3 }, GM]);
    case "start":
      return [[{ type: "start" }, requester(state, a.by)]];
    case "orderTie": {
      const tie = pendingTies(state)[a.seed % Math.max(pendingTies(state).length, 1)];
      if (tie === undefined) return [];
      // A rotation of the tie, chosen by the seed.
      const r = a.seed % tie.length;
      return [[{ type: "orderTied", combatantIds: [...tie.slice(r), ...tie.slice(0, r)] }, requester(state, a.by)]];
    }
    case "declare": {
      const id = a.current ? (currentDeclarer(state) ?? pick(state, a.t)) : pick(state, a.t);
      const actions = a.actions.map((i) => CATALOGUE[i] ?? { name: "Jab", cost: 1, kind: "attack" });
      return [[{ type: "declare", combatantId: id, actions }, requester(state, a.by)]];
    }
    case "next":
      return [[{ type: "nextTurn" }, requester(state, a.by)]];
    case "nextRound":
      return [[{ type: "nextRound" }, requester(state, a.by)]];
    case "upkeep":
      return [[{ type: "upkeep" }, requester(state, a.by)]];
    case "ipChange": {
      const durations = [
        { kind: "round" },
        { kind: "rounds", rounds: 2 },
        { kind: "untilRemoved" },
        { kind: "rounds", rounds: 1 },
      ] as const;
      return [
        [
          {
            type: "addIPChange",
            combatantId: pick(state, a.t),
            cause: "Haste",
            amount: a.amount,
            duration: durations[a.duration % durations.length] ?? { kind: "round" },
          },
          GM,
        ],
      ];
    }
    case "removeChange": {
      const c = state.combatants.find((x) => x.ipChanges.length > 0);
      const changeId = c?.ipChanges[a.t % Math.max(c.ipChanges.length, 1)]?.id ?? "none";
      return [[{ type: "removeIPChange", combatantId: c?.id ?? pick(state, a.t), changeId }, GM]];
    }
    case "conditions":
      return [
        [
          {
            type: "setConditions",
            combatantId: pick(state, a.t),
            bleeding: a.bleeding,
            dazed: a.dazed,
            stunned: a.stunned,
          },
          GM,
        ],
      ];
    case "budget":
      return [[{ type: "setBudget", budget: a.budget }, GM]];
    case "add":
      return [[{ type: "addCombatant", combatant: { id: fresh(), name: "joiner", isPC: a.isPC } }, GM]];
    case "remove":
      return [[{ type: "removeCombatant", combatantId: pick(state, a.t) }, GM]];
    case "defeat":
      return [[{ type: "setDefeated", combatantId: pick(state, a.t), defeated: a.v }, GM]];
  }
}

/** The command an allowed action stands for (the tracker's button sends it). */
function commandFor(state: DeclareResolveState, allowed: AllowedAction): DeclareResolveCommand | null {
  const id = allowed.combatantId ?? "";
  const c = state.combatants.find((x) => x.id === id);
  switch (allowed.type) {
    case "start":
    case "nextTurn":
    case "nextRound":
    case "upkeep":
      return { type: allowed.type };
    case "setBudget":
      return { type: "setBudget", budget: state.budget };
    case "addCombatant":
      return { type: "addCombatant", combatant: { id: "brand-new", name: "New", isPC: false } };
    case "orderTied": {
      const tie = pendingTies(state).find((x) => x[0] === id);
      return tie === undefined ? null : { type: "orderTied", combatantIds: tie };
    }
    case "declare":
      return { type: "declare", combatantId: id, actions: [] };
    case "recordIP":
      return { type: "recordIP", combatantId: id, total: 0, modifier: 0 };
    case "setDefeated":
      return c === undefined ? null : { type: "setDefeated", combatantId: id, defeated: !c.defeated };
    case "removeCombatant":
      return { type: "removeCombatant", combatantId: id };
    case "setConditions":
      return c === undefined ? null : { type: "setConditions", combatantId: id, ...c.conditions };
    case "addIPChange":
      return { type: "addIPChange", combatantId: id, cause: "?", amount: 0, duration: { kind: "round" } };
    case "removeIPChange": {
      const changeId = c?.ipChanges[0]?.id;
      return changeId === undefined ? null : { type: "removeIPChange", combatantId: id, changeId };
    }
    default:
      return null;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function checkState(state: DeclareResolveState): void {
  expect(parseDeclareResolveState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  const view = declareResolveMode.view(state);
  const ids = state.combatants.map((c) => c.id);
  expect([...view.order].sort()).toEqual([...ids].sort());
  if (view.current !== null) expect(ids).toContain(view.current);
  for (const c of state.combatants) {
    const d = c.declaration;
    if (d === null) continue;
    const total = d.actions.reduce((sum, x) => sum + x.cost, 0);
    const available = availableAP(state, c);
    if (d.carry === 0) expect(total).toBeLessThanOrEqual(available);
    else {
      expect(d.actions).toHaveLength(1);
      expect(d.carry).toBe(total - available);
      expect(d.carry).toBeLessThanOrEqual(state.budget);
    }
  }
}

function checkAllowed(state: DeclareResolveState): void {
  for (const sender of ["gm", "p1", "p2"] as const) {
    const who = requester(state, sender);
    for (const allowed of declareResolveMode.allowed(state, who)) {
      const command = commandFor(state, allowed);
      expect(command, `no command for ${allowed.type}`).not.toBeNull();
      if (command === null) continue;
      const outcome = declareResolveMode.apply(state, command, who);
      expect(outcome.ok, `${sender} offered ${JSON.stringify(allowed)}, refused`).toBe(true);
    }
  }
}

function checkUndo(state: DeclareResolveState): void {
  const encounter: Encounter<DeclareResolveState> = { mode: "declare-resolve", state, history: [] };
  const forward = dispatch(declareResolveMode, encounter, { type: "nextTurn" }, GM);
  if (!forward.ok) return;
  const back = dispatch(declareResolveMode, forward.state, { type: "previousTurn" }, GM);
  if (!back.ok) throw new Error(`previousTurn refused: ${back.refusal.code}`);
  expect(back.state).toEqual(encounter);
}

describe("declare-resolve mode: invariants under random interleavings", () => {
  it("holds after every step", () => {
    const roster = fc.array(fc.boolean(), { minLength: 0, maxLength: 6 });
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 80, size: "medium" }), (pcs, actions) => {
        let joined = 0;
        const fresh = (): string => `j${joined++}`;
        let state = deepFreeze(declareResolveMode.create(pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC }))));
        checkState(state);
        for (const a of actions) {
          for (const [command, who] of resolve(state, a, fresh)) {
            const before = structuredClone(state);
            const outcome = declareResolveMode.apply(state, command, who);
            if (!outcome.ok) {
              expect(state).toEqual(before);
              expect(KNOWN_CODES).toContain(outcome.refusal.code);
              continue;
            }
            expect(state).toEqual(before);
            state = deepFreeze(outcome.state);
            checkState(state);
            checkAllowed(state);
            checkUndo(state);
          }
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("reaches every step of a round (the generator is not stuck in setup)", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(action, { minLength: 30, maxLength: 80 }), (actions) => {
        let joined = 0;
        const fresh = (): string => `j${joined++}`;
        let state = declareResolveMode.create([0, 1, 2, 3].map((i) => ({ id: `c${i}`, name: `C${i}`, isPC: i < 2 })));
        for (const a of actions) {
          for (const [command, who] of resolve(state, a, fresh)) {
            const outcome = declareResolveMode.apply(state, command, who);
            if (outcome.ok) state = outcome.state;
            seen.add(declareResolveMode.view(state).step);
          }
        }
      }),
      { numRuns: 100 },
    );
    expect([...seen].sort()).toEqual(["declare", "extraAttacks", "resolve", "roll", "setup", "upkeep"]);
  }, 60_000);
});
