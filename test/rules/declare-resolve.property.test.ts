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
 * - A next turn then a previous turn (through the engine's `applyToEncounter`) gives back an equal encounter.
 * - NEXT is whoever really comes next (issue 27 item 4): played on from any state by the current
 *   declarer's declarations (any actions, or none) and next turns, the first combatant other than the
 *   current one to become current this round is `view().next`; null when the round ends first.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REFUSAL_CODES, applyToEncounter, type Encounter, type Requester } from "../../src/core/engine";
import {
  DECLARE_RESOLVE_REFUSALS,
  type DeclareResolveCommand,
  type DeclareResolveState,
} from "../../src/modes/declare-resolve/rules/types";
import { declareResolveMode } from "../../src/modes/declare-resolve/rules/mode";
import { parseDeclareResolveState } from "../../src/modes/declare-resolve/rules/state";
import { currentDeclarer } from "../../src/modes/declare-resolve/rules/derived";
import {
  CATALOGUE,
  drActions,
  drCommandFor,
  drCommands,
  expectDeclarationsFit,
  type DrAction,
} from "./declare-resolve-commands";
import { GM, deepFreeze } from "./harness";

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

type Action = DrAction<By>;

const action: fc.Arbitrary<Action> = drActions(fc.constantFrom<By>("gm", "gm", "p1", "p2"));

/** Turn an abstract action into commands and their senders, against the current state. */
function resolve(state: DeclareResolveState, a: Action, fresh: () => string): [DeclareResolveCommand, Requester][] {
  return drCommands(state, a, fresh, (by) => requester(state, by));
}

function checkState(state: DeclareResolveState): void {
  expect(parseDeclareResolveState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  const view = declareResolveMode.view(state);
  const ids = state.combatants.map((c) => c.id);
  expect([...view.order].sort()).toEqual([...ids].sort());
  if (view.current !== null) expect(ids).toContain(view.current);
  expectDeclarationsFit(state);
}

function checkAllowed(state: DeclareResolveState): void {
  for (const sender of ["gm", "p1", "p2"] as const) {
    const who = requester(state, sender);
    for (const allowed of declareResolveMode.allowed(state, who)) {
      const command = drCommandFor(state, allowed);
      expect(command, `no command for ${allowed.type}`).not.toBeNull();
      if (command === null) continue;
      const outcome = declareResolveMode.apply(state, command, who);
      expect(outcome.ok, `${sender} offered ${JSON.stringify(allowed)}, refused`).toBe(true);
    }
  }
}

function checkUndo(state: DeclareResolveState): void {
  const encounter: Encounter<DeclareResolveState> = { mode: "declare-resolve", state, history: [] };
  const forward = applyToEncounter(declareResolveMode, encounter, { type: "nextTurn" }, GM);
  if (!forward.ok) return;
  const back = applyToEncounter(declareResolveMode, forward.state, { type: "previousTurn" }, GM);
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

  it("NEXT names whoever really comes next, in the declarations and the resolution (issue 27 item 4)", () => {
    // How a round is played on: per step, the actions the current declarer declares (catalogue
    // indexes, Jab often, so that one declarer's attacks follow each other; empty: the GM's next turn
    // skips it). A resolver's turn ends with next turn.
    const pickAction = fc.oneof({ arbitrary: fc.constant(3), weight: 2 }, fc.nat(CATALOGUE.length - 1));
    const playOn = fc.array(fc.array(pickAction, { maxLength: 3 }), { minLength: 40, maxLength: 40 });
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(action, { minLength: 10, maxLength: 80 }),
        playOn,
        (size, actions, declarations) => {
          let joined = 0;
          const fresh = (): string => `j${joined++}`;
          let state = declareResolveMode.create(
            Array.from({ length: size }, (_, i) => ({ id: `c${i}`, name: `C${i}`, isPC: i < 2 })),
          );
          for (const a of actions) {
            for (const [command, who] of resolve(state, a, fresh)) {
              const outcome = declareResolveMode.apply(state, command, who);
              if (outcome.ok) state = outcome.state;
            }
            // The rest of this round, played on: every state on the way and what was done from it.
            const path: { state: DeclareResolveState; done: string }[] = [];
            let s = state;
            let roundOver = false;
            for (const picks of declarations) {
              const declarer = currentDeclarer(s);
              const declare =
                declarer === null || picks.length === 0
                  ? null
                  : declareResolveMode.apply(
                      s,
                      {
                        type: "declare",
                        combatantId: declarer,
                        actions: picks.map((i) => CATALOGUE[i] ?? { name: "Jab", cost: 1, kind: "attack" }),
                      },
                      GM,
                    );
              const outcome = declare?.ok === true ? declare : declareResolveMode.apply(s, { type: "nextTurn" }, GM);
              path.push({
                state: s,
                done: declare?.ok === true ? `${declarer ?? ""} declares ${picks.join(",")}` : "next",
              });
              // Refused: the round stands still (a tie waits for the GM), nobody else comes.
              roundOver = !outcome.ok || outcome.state.round !== state.round;
              if (!outcome.ok) break;
              s = outcome.state;
              if (roundOver) break;
            }
            const currents = path.map((p) => declareResolveMode.view(p.state).current);
            path.forEach((from, i) => {
              const { current, next, step } = declareResolveMode.view(from.state);
              if (current === null) return;
              const cameNext = currents.slice(i + 1).find((c) => c !== null && c !== current) ?? null;
              if (cameNext === null && !roundOver) return;
              seen.add(`${step}:${next === null ? "nobody" : "someone"}`);
              const then = path.slice(i).map((p) => p.done);
              expect(next, `${step}, ${current} now; then ${then.join("; ")}`).toBe(cameNext);
            });
          }
        },
      ),
      { numRuns: 100 },
    );
    // Both steps, with someone and with nobody next, were met.
    for (const met of ["declare:someone", "declare:nobody", "resolve:someone", "resolve:nobody", "extraAttacks:nobody"])
      expect(seen).toContain(met);
  }, 60_000);
});
