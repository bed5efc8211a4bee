/**
 * Property test of what `declare-resolve` says a user may do (`declareResolveMode.allowed`). The
 * rules try per-combatant commands only for who may act for the combatant, a declaration only for
 * the current declarer and a roll only where one may be taken, and try the GM's roster, condition
 * and IP-change commands (and the rolls) by their refusal checks alone. Whatever the state and
 * whoever asks, that must give exactly the actions (and in the same order) that trying every
 * command on every combatant (every IP change of each) through `declareResolveMode.apply` gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedByTrial } from "../../src/core/common";
import type { AllowedAction, Requester } from "../../src/core/engine";
import { declareResolveMode } from "../../src/modes/declare-resolve/rules/mode";
import { pendingTies } from "../../src/modes/declare-resolve/rules/points";
import type { DeclareResolveCommand, DeclareResolveState } from "../../src/modes/declare-resolve/rules/types";
import { drActions, drCommands, type DrAction } from "./declare-resolve-commands";
import { GM, STRANGER } from "./property-harness";

type DrProbe = { readonly action: AllowedAction; readonly command: DeclareResolveCommand };

/** Every command the tracker's controls stand for, on every combatant, whoever asks. */
function everyProbe(state: DeclareResolveState): DrProbe[] {
  const list: DrProbe[] = [
    { action: { type: "start" }, command: { type: "start" } },
    { action: { type: "nextTurn" }, command: { type: "nextTurn" } },
    { action: { type: "nextRound" }, command: { type: "nextRound" } },
    { action: { type: "upkeep" }, command: { type: "upkeep" } },
    { action: { type: "setBudget" }, command: { type: "setBudget", budget: state.budget } },
  ];
  for (const tie of pendingTies(state)) {
    list.push({
      action: { type: "orderTied", combatantId: tie[0] },
      command: { type: "orderTied", combatantIds: tie },
    });
  }
  for (const c of state.combatants) {
    const combatantId = c.id;
    const on = (command: DeclareResolveCommand): DrProbe => ({ action: { type: command.type, combatantId }, command });
    list.push(
      on({ type: "declare", combatantId, actions: [] }),
      on({ type: "recordIP", combatantId, total: 0, modifier: 0 }),
      on({ type: "setDefeated", combatantId, defeated: !c.defeated }),
      on({ type: "removeCombatant", combatantId }),
      on({ type: "setConditions", combatantId, ...c.conditions }),
      on({ type: "addIPChange", combatantId, cause: "?", amount: 0, duration: { kind: "round" } }),
    );
    // Every change (one action names them all: the first one's removal).
    for (const change of c.ipChanges) list.push(on({ type: "removeIPChange", combatantId, changeId: change.id }));
  }
  return list;
}

/** What `who` may do, found by applying every command. */
function byEveryTrial(state: DeclareResolveState, who: Requester): AllowedAction[] {
  const given: AllowedAction[] = who.isGM ? [{ type: "addCombatant" }] : [];
  return allowedByTrial(state, who, given, everyProbe(state), (s, command, w) =>
    declareResolveMode.apply(s, command, w),
  );
}

type By = "gm" | "p1" | "p2";

/** Player 1 owns the even-numbered combatants, player 2 the odd ones (joiners are the GM's). */
function requester(state: DeclareResolveState, by: By): Requester {
  if (by === "gm") return GM;
  const parity = by === "p1" ? 0 : 1;
  const owns = state.combatants.filter((c, i) => c.isPC && i % 2 === parity).map((c) => c.id);
  return { userId: by, isGM: false, owns };
}

const action: fc.Arbitrary<DrAction<By>> = drActions(fc.constantFrom<By>("gm", "gm", "p1", "p2"));

describe("declare-resolve: what a user may do", () => {
  it("is what trying every command on every combatant gives, for the GM, two players and a stranger", () => {
    const roster = fc.array(fc.boolean(), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(roster, fc.array(action, { minLength: 10, maxLength: 80, size: "medium" }), (pcs, actions) => {
        let joined = 0;
        const fresh = (): string => `j${joined++}`;
        let state = declareResolveMode.create(pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC })));
        const check = (): void => {
          for (const who of [GM, requester(state, "p1"), requester(state, "p2"), STRANGER])
            expect(declareResolveMode.allowed(state, who)).toEqual(byEveryTrial(state, who));
        };
        check();
        for (const a of actions) {
          for (const [command, who] of drCommands(state, a, fresh, (by) => requester(state, by))) {
            const outcome = declareResolveMode.apply(state, command, who);
            if (!outcome.ok) continue;
            state = outcome.state;
            check();
          }
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
