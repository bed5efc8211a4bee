/**
 * Conformance kit of the `declare-resolve` mode: IP rolls (one and all), ties ordered by the GM,
 * declarations legal and not, turn and round changes, upkeep, IP changes, conditions, the AP budget,
 * joins, removals and defeats from the GM, owners and strangers (the generators of
 * `test/rules/declare-resolve.property.test.ts`, in `test/rules/declare-resolve-commands.ts`), and an
 * encounter of the declare-resolve test world in the simulated Foundry with IP rolled as Foundry
 * rolls of exact dice, then started.
 */
import fc from "fast-check";
import { expect } from "vitest";
import {
  MAX_IP_CHANGES,
  type ActionInput,
  type DeclareResolveCommand,
  type DeclareResolveState,
} from "../../../src/modes/declare-resolve/rules/types";
import { currentDeclarer, currentResolver } from "../../../src/modes/declare-resolve/rules/derived";
import { declareResolveMode } from "../../../src/modes/declare-resolve/rules/mode";
import { pendingTies, resolvedOf, rollsNeeded } from "../../../src/modes/declare-resolve/rules/points";
import { resolutionTurns } from "../../../src/modes/declare-resolve/rules/resolution";
import {
  CATALOGUE,
  drActions,
  drCommandFor,
  drCommands,
  expectDeclarationsFit,
  type DrAction,
} from "../../rules/declare-resolve-commands";
import { GM, requester, senders, variant, type By } from "../../rules/property-harness";
import { combatOn } from "../../integration/world.js";
import { drEncounter, drWorld, rollIPs } from "../../integration/declare-resolve-world.js";
import { defineKit, rosterOf, type Sent } from "../kit";

/** The property test's actions, and two that keep the rounds going: the GM's set-up, and the current actor acting. */
type Action = DrAction<By> | { k: "begin"; totals: readonly number[] } | { k: "act"; plan: number; by: By };

/** Declarations of catalogue names the current declarer makes (`act`), most of them fitting 5 AP. */
const PLANS: readonly (readonly string[])[] = [
  ["Jab", "Jab", "Dodge"],
  ["Melee Attack", "Jab"],
  ["Jab", "Jab", "Jab"],
  ["Power Attack"],
  ["Dodge", "Shout"],
  [],
  ["Melee Attack", "Melee Attack"],
];

const by = senders(["gm", "gm", "owner", "owner", "other"]);
const begin = variant(
  "begin",
  { totals: fc.array(fc.integer({ min: 2, max: 20 }), { minLength: 8, maxLength: 8 }) },
  3,
);
const act = variant(
  "act",
  { plan: fc.nat(PLANS.length - 1), by: senders(["gm", "owner", "owner", "owner", "other"]) },
  8,
);

function plan(n: number): ActionInput[] {
  return (PLANS[n % PLANS.length] ?? []).map((name) => ({
    ...(CATALOGUE.find((a) => a.name === name) ?? { name, cost: 1, kind: "other" }),
  }));
}

function* resolve(
  a: Action,
  now: () => DeclareResolveState,
  fresh: () => string,
): Iterable<Sent<DeclareResolveCommand>> {
  switch (a.k) {
    case "begin": {
      // The GM rolls for whoever has no IP (ties now and then), orders every tie, and starts.
      for (const [i, c] of now().combatants.entries()) {
        if (c.ip === null)
          yield [{ type: "recordIP", combatantId: c.id, total: a.totals[i % 8] ?? 5, modifier: 1 }, GM];
      }
      for (const tie of pendingTies(now())) yield [{ type: "orderTied", combatantIds: [...tie].reverse() }, GM];
      if (now().phase === "setup") yield [{ type: "start" }, GM];
      return;
    }
    case "act": {
      // Whoever's turn it is takes it: the declarer declares, the resolver ends its turn, the GM moves the rest on.
      const s = now();
      const declarer = currentDeclarer(s);
      if (declarer !== null) {
        yield [{ type: "declare", combatantId: declarer, actions: plan(a.plan) }, requester(a.by, declarer)];
        return;
      }
      const resolver = currentResolver(s);
      if (resolver !== null) yield [{ type: "nextTurn" }, requester(a.by, resolver)];
      else yield [{ type: s.phase === "upkeep" ? "upkeep" : "nextTurn" }, GM];
      return;
    }
    default:
      yield* drCommands(now(), a, fresh, requester);
  }
}

/**
 * The round's bookkeeping: round 0 exactly in the set-up; a waiting tie leaves nobody current, else
 * the stored step has someone to act (a roll still needed, a declarer, a resolver); nobody has more
 * resolution turns done than it has; a declaration only from a combatant that rolled; the AP rule;
 * IP changes with unique ids, within their bound, none past its last round.
 */
function invariants(state: DeclareResolveState): void {
  expect(state.round === 0, `round ${state.round} in step ${state.phase}`).toBe(state.phase === "setup");
  const view = declareResolveMode.view(state);
  if (pendingTies(state).length > 0) {
    expect(view.current, "someone is current while a tie waits for the GM").toBeNull();
  } else {
    if (state.phase === "roll")
      expect(rollsNeeded(state).length, "the roll step with nobody to roll").toBeGreaterThan(0);
    if (state.phase === "declare") expect(currentDeclarer(state), "the declare step with no declarer").not.toBeNull();
    if (state.phase === "resolve") expect(currentResolver(state), "the resolve step with no resolver").not.toBeNull();
  }
  for (const c of state.combatants) {
    expect(resolvedOf(state, c), `${c.id}'s resolution turns done`).toBeLessThanOrEqual(
      resolutionTurns(state, c).length,
    );
    if (c.declaration !== null)
      expect(c.declaration.round, `${c.id} declared in a later round`).toBeLessThanOrEqual(state.round);
    if (state.phase === "setup") expect(c.declaration, `${c.id} declared before the start`).toBeNull();
    if (c.declaration !== null) expect(c.ip, `${c.id} declared without IP`).not.toBeNull();
    const ids = c.ipChanges.map((x) => x.id);
    expect(new Set(ids).size, `${c.id}'s IP change ids`).toBe(ids.length);
    expect(ids.length).toBeLessThanOrEqual(MAX_IP_CHANGES);
    for (const x of c.ipChanges) {
      if (x.lastRound !== null)
        expect(x.lastRound, `${c.id}'s ${x.id} outlived its round`).toBeGreaterThanOrEqual(state.round);
    }
  }
  expectDeclarationsFit(state);
}

/** The players' PCs and three foes, with IP totals 14, 9, 16, 4 and 9 (modifiers 4, 3, 4, 0, 1): no tie. */
const CAST = ["aria", "brom", "officer", "trooper1", "trooper2"] as const;
const FACES = { aria: [5, 5], brom: [3, 3], officer: [6, 6], trooper1: [2, 2], trooper2: [4, 4] } as const;

export const kit = defineKit<DeclareResolveState, DeclareResolveCommand, Action>({
  id: declareResolveMode.id,
  roster: fc.array(fc.boolean(), { minLength: 0, maxLength: 6 }).map(rosterOf),
  action: drActions<By, Action>(by, { extra: [begin, act] }),
  resolve,
  commandFor: (state, allowed) => drCommandFor(state, allowed, "kit-joiner"),
  // Moving on, skipping to the upkeep, confirming it, and the current declarer's "no actions" are steps.
  steps(state) {
    const declarer = currentDeclarer(state);
    const steps: DeclareResolveCommand[] = [{ type: "nextTurn" }, { type: "nextRound" }, { type: "upkeep" }];
    if (declarer !== null) steps.push({ type: "declare", combatantId: declarer, actions: [] });
    return steps;
  },
  invariants,
  sim: {
    world: (seed, extra) => drWorld({ seed, ...extra }),
    async begin(sim) {
      await drEncounter(sim, CAST);
      await rollIPs(sim, FACES);
      await combatOn(sim.gm).startCombat();
      await sim.settle();
    },
    action: drActions<By, Action>(by, { roster: false, extra: [act] }),
  },
});
