/**
 * The generators of the `declare-resolve` mode, shared by its property test and its conformance kit:
 * abstract actions (rolls, ties, declarations legal and not, turn and round changes, upkeep, IP
 * changes, conditions, the budget, joins, removals and defeats), how each becomes commands against
 * the state it meets, and the command an allowed action names. The sender of an action is drawn by
 * the caller's arbitrary and turned into a requester by the caller (the property test has two
 * players owning alternate PCs, the kit the harness's GM, owner and stranger).
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { AllowedAction, Requester } from "../../src/core/engine";
import { availableAP, declarationOf, pendingTies } from "../../src/modes/declare-resolve/rules/points";
import { currentDeclarer, currentResolver } from "../../src/modes/declare-resolve/rules/derived";
import type {
  ActionInput,
  DeclareResolveCommand,
  DeclareResolveState,
} from "../../src/modes/declare-resolve/rules/types";
import { GM, T as t, pickId, variant } from "./property-harness";

/** An abstract action; `B` is who sends it. */
export type DrAction<B> =
  | { k: "roll"; t: number; total: number; mod: number; by: B }
  | { k: "rollAll"; totals: readonly number[] }
  | { k: "start"; by: B }
  | { k: "orderTie"; seed: number; by: B }
  | { k: "declare"; current: boolean; t: number; actions: readonly number[]; by: B }
  | { k: "next"; by: B }
  | { k: "nextRound"; by: B }
  | { k: "upkeep"; by: B }
  | { k: "ipChange"; t: number; amount: number; duration: number }
  | { k: "removeChange"; t: number }
  | { k: "conditions"; t: number; bleeding: number; dazed: number; stunned: number }
  | { k: "budget"; budget: number }
  | { k: "add"; isPC: boolean }
  | { k: "remove"; t: number }
  | { k: "defeat"; t: number; v: boolean };

/** The catalogue the glue would send, plus a few bad entries. */
export const CATALOGUE: readonly ActionInput[] = [
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

/**
 * The actions, senders drawn by `by`. `roster: false` leaves out joins and removals (in Foundry they
 * come from combatant documents); `extra` adds a caller's own kinds of action, weighted alongside.
 */
export function drActions<B, X = never>(
  by: fc.Arbitrary<B>,
  { roster = true, extra = [] }: { roster?: boolean; extra?: readonly fc.WeightedArbitrary<X>[] } = {},
): fc.Arbitrary<DrAction<B> | X> {
  const play = [
    variant("roll", { t, total: fc.integer({ min: 2, max: 8 }), mod: fc.integer({ min: 0, max: 2 }), by }, 2),
    variant("rollAll", { totals: fc.array(fc.integer({ min: 2, max: 9 }), { minLength: 8, maxLength: 8 }) }, 2),
    variant("start", { by }, 2),
    variant("orderTie", { seed: fc.nat(), by }, 3),
    variant(
      "declare",
      {
        current: fc.boolean(),
        t,
        // Jab (1 AP) often, so that declarations with extra attacks fit the budget.
        actions: fc.array(
          fc.oneof({ arbitrary: fc.constant(3), weight: 2 }, { arbitrary: fc.nat(CATALOGUE.length - 1), weight: 3 }),
          { maxLength: 3 },
        ),
        by,
      },
      10,
    ),
    variant("next", { by }, 8),
    variant("nextRound", { by }, 1),
    variant("upkeep", { by }, 2),
    variant("ipChange", { t, amount: fc.integer({ min: -3, max: 3 }), duration: fc.nat(3) }, 2),
    variant("removeChange", { t }, 1),
    variant("conditions", { t, bleeding: fc.nat(3), dazed: fc.nat(2), stunned: fc.nat(2) }, 1),
    variant("budget", { budget: fc.integer({ min: 1, max: 8 }) }, 1),
    variant("defeat", { t, v: fc.boolean() }, 1),
  ] as const;
  const joins = roster ? [variant("add", { isPC: fc.boolean() }, 1), variant("remove", { t }, 1)] : [];
  const all: fc.WeightedArbitrary<DrAction<B> | X>[] = [...play, ...joins, ...extra];
  return fc.oneof(...all);
}

/** A combatant id from a number: mostly a present one, one in 11 a stranger. */
function pick(state: DeclareResolveState, n: number): string {
  return pickId(
    state.combatants.map((c) => c.id),
    n,
    11,
  );
}

const DURATIONS = [
  { kind: "round" },
  { kind: "rounds", rounds: 2 },
  { kind: "untilRemoved" },
  { kind: "rounds", rounds: 1 },
] as const;

/**
 * Turn an abstract action into commands and their senders, against the current state. `who` makes
 * the requester of a sender for a command about `subject` (null: about nobody in particular).
 */
export function drCommands<B>(
  state: DeclareResolveState,
  a: DrAction<B>,
  fresh: () => string,
  who: (by: B, subject: string | null) => Requester,
): [DeclareResolveCommand, Requester][] {
  switch (a.k) {
    case "roll": {
      const id = pick(state, a.t);
      return [[{ type: "recordIP", combatantId: id, total: a.total, modifier: a.mod }, who(a.by, id)]];
    }
    case "rollAll":
      return state.combatants
        .filter((c) => c.ip === null)
        .map((c, i) => [{ type: "recordIP", combatantId: c.id, total: a.totals[i % 8] ?? 5, modifier: i % 3 }, GM]);
    case "start":
      return [[{ type: "start" }, who(a.by, null)]];
    case "orderTie": {
      const tie = pendingTies(state)[a.seed % Math.max(pendingTies(state).length, 1)];
      if (tie === undefined) return [];
      // A rotation of the tie, chosen by the seed.
      const r = a.seed % tie.length;
      return [[{ type: "orderTied", combatantIds: [...tie.slice(r), ...tie.slice(0, r)] }, who(a.by, null)]];
    }
    case "declare": {
      const id = a.current ? (currentDeclarer(state) ?? pick(state, a.t)) : pick(state, a.t);
      const actions = a.actions.map((i) => CATALOGUE[i] ?? { name: "Jab", cost: 1, kind: "attack" });
      return [[{ type: "declare", combatantId: id, actions }, who(a.by, id)]];
    }
    case "next":
      return [[{ type: "nextTurn" }, who(a.by, currentResolver(state) ?? currentDeclarer(state))]];
    case "nextRound":
      return [[{ type: "nextRound" }, who(a.by, null)]];
    case "upkeep":
      return [[{ type: "upkeep" }, who(a.by, null)]];
    case "ipChange":
      return [
        [
          {
            type: "addIPChange",
            combatantId: pick(state, a.t),
            cause: "Haste",
            amount: a.amount,
            duration: DURATIONS[a.duration % DURATIONS.length] ?? { kind: "round" },
          },
          GM,
        ],
      ];
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

/** The command an allowed action stands for (the tracker's button sends it); null for one it cannot build. */
export function drCommandFor(
  state: DeclareResolveState,
  allowed: AllowedAction,
  joiner = "brand-new",
): DeclareResolveCommand | null {
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
      return { type: "addCombatant", combatant: { id: joiner, name: "New", isPC: false } };
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

/**
 * Every declaration fits the AP rule: its costs fit the AP available, or it is one action that needs
 * all of it and carries the rest (at most a budget).
 */
export function expectDeclarationsFit(state: DeclareResolveState): void {
  for (const c of state.combatants) {
    // This round's: an earlier round's declaration was checked against that round's budget.
    const d = declarationOf(state, c);
    if (d === null) continue;
    const total = d.actions.reduce((sum, x) => sum + x.cost, 0);
    const available = availableAP(state, c);
    if (d.carry === 0) expect(total, `${c.id}'s declaration over the AP`).toBeLessThanOrEqual(available);
    else {
      expect(d.actions, `${c.id} carries AP from more than one action`).toHaveLength(1);
      expect(d.carry, `${c.id}'s carry`).toBe(total - available);
      expect(d.carry, `${c.id} carries more than a budget`).toBeLessThanOrEqual(state.budget);
    }
  }
}
