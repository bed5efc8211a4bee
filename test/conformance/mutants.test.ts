/**
 * Each conformance check can fail: run on a deliberately broken copy of a mode (or, for the
 * simulated Foundry, a client whose copy is tampered with after it settled), each check throws, for
 * the reason it exists. The mutants are built from the `slots` mode, the cheapest to walk; the checks
 * themselves know no mode.
 */
import { describe, expect, it, vi } from "vitest";
import type { Command, ModeDefinition, Outcome } from "../../src/core/engine";
import type { Json } from "../../src/core/patch";
import { MODES } from "../../src/modes/registry";
import {
  SEED,
  checkAllowed,
  checkInterleavings,
  checkJunk,
  checkOrder,
  checkRefusals,
  checkRoundTrip,
  checkStepBack,
  type PureMode,
  type Tamper,
} from "./checks";
import { combatOn } from "../integration/world.js";
import { kit } from "./kits/slots";

vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

const RUNS = 25;
const found = MODES.find((m) => m.id === kit.id);
if (found === undefined) throw new Error(`no registered mode ${kit.id}`);
const mode: PureMode = found;
const rules = mode.rules;

/** The mode with some of its rules replaced. */
function broken(change: Partial<ModeDefinition<Json, Command>>, parseState = mode.parseState): PureMode {
  return { ...mode, parseState, rules: { ...rules, ...change } };
}

/** The messages of the error `run` throws and of its causes (fast-check puts the check's own in `cause`). */
function failureOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    return messages(error);
  }
  return "(it did not fail)";
}

function messages(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message);
  return parts.join("\n<- ");
}

function isCommandLike(value: unknown): value is Command {
  return isRecord(value) && typeof value.type === "string";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

describe("each rules check fails on a mode that breaks it", () => {
  it("the unbroken mode passes them all (so the failures below are the mutants')", () => {
    checkRefusals(mode, kit, RUNS);
    checkStepBack(mode, kit, RUNS);
  });

  it.each<[string, PureMode, RegExp]>([
    [
      "apply mutates the state it refuses",
      broken({
        apply(state, command, who): Outcome<Json> {
          const outcome = rules.apply(state, command, who);
          if (!outcome.ok) (state as { round: number }).round += 1;
          return outcome;
        },
      }),
      /threw \(a mutation of the frozen state\?\)/u,
    ],
    [
      "a refusal returns a state",
      broken({
        apply(state, command, who) {
          const outcome = rules.apply(state, command, who);
          return outcome.ok ? outcome : ({ ...outcome, state } as unknown as Outcome<Json>);
        },
      }),
      /a refusal of \w+ returned more/u,
    ],
    [
      "a refusal code nobody declared",
      broken({
        apply(state, command, who) {
          const outcome = rules.apply(state, command, who);
          return outcome.ok ? outcome : { ok: false, refusal: { code: "somethingElse" } };
        },
      }),
      /unknown code somethingElse/u,
    ],
  ])("1. refusals: %s", (_name, mutant, reason) => {
    expect(
      failureOf(() => {
        checkRefusals(mutant, kit, RUNS);
      }),
    ).toMatch(reason);
  });

  it("2a. parseCommand lets unknown data through", () => {
    const lax = broken({
      parseCommand: (data) => rules.parseCommand(data) ?? (isCommandLike(data) ? data : null),
    });
    expect(
      failureOf(() => {
        checkJunk(lax, kit, RUNS);
      }),
    ).toMatch(/accepted/u);
  });

  it("2a. parseCommand keeps fields it did not check (huge strings, __proto__)", () => {
    const leaky = broken({
      parseCommand(data) {
        const command = rules.parseCommand(data);
        return command === null || !isRecord(data) ? command : { ...data, ...command };
      },
    });
    expect(
      failureOf(() => {
        checkJunk(leaky, kit, RUNS);
      }),
    ).toMatch(/kept|fixed point/u);
  });

  it("2b. parseState loses a field", () => {
    const lossy = broken({}, (data) => {
      const state = mode.parseState(data) as { round: number } | null;
      return state === null ? null : { ...state, round: 0 };
    });
    expect(
      failureOf(() => {
        checkRoundTrip(lossy, kit, RUNS);
      }),
    ).toMatch(/parseState\(JSON\(state\)\)/u);
  });

  it("3. a next turn the engine cannot step back (it is taken for a roster command)", () => {
    const unrecorded = broken({
      isRosterCommand: (command) => command.type === "nextTurn" || rules.isRosterCommand(command),
    });
    expect(
      failureOf(() => {
        checkStepBack(unrecorded, kit, RUNS);
      }),
    ).toMatch(/previousTurn/u);
  });

  it("4. the order names someone twice", () => {
    const twice = broken({
      view(state) {
        const view = rules.view(state);
        const first = view.order[0];
        return first === undefined ? view : { ...view, order: [...view.order, first] };
      },
    });
    expect(
      failureOf(() => {
        checkOrder(twice, kit, RUNS);
      }),
    ).toMatch(/an id twice/u);
  });

  it("4. the order leaves a live combatant out", () => {
    const short = broken({
      view: (state) => {
        const view = rules.view(state);
        return { ...view, order: view.order.slice(1) };
      },
    });
    expect(
      failureOf(() => {
        checkOrder(short, kit, RUNS);
      }),
    ).toMatch(/not the combatants the mode puts in it/u);
  });

  it("5. allowed() offers next round to everyone", () => {
    const generous = broken({ allowed: (state, who) => [...rules.allowed(state, who), { type: "nextRound" }] });
    expect(
      failureOf(() => {
        checkAllowed(generous, kit, RUNS);
      }),
    ).toMatch(/"nextRound"\} offered to .* refused/u);
  });
});

describe("the simulated-Foundry check fails when a client disagrees", () => {
  const ALICE = "player0000000001";
  const BOB = "player0000000002";
  const tampers: [string, Tamper, RegExp][] = [
    [
      "a client's combat.turn differs",
      (sim, batch) => {
        if (batch !== 2) return;
        const combat = combatOn(sim.client(ALICE));
        combat.turn = ((combat.turn ?? -1) + 1) % Math.max(combat.turns.length, 1);
      },
      /player0000000001's turns/u,
    ],
    [
      "a client's turn order differs",
      (sim, batch) => {
        if (batch === 1) combatOn(sim.client(BOB)).turns.reverse();
      },
      /player0000000002's turns/u,
    ],
    [
      "a client's stored state differs",
      (sim, batch) => {
        if (batch !== 1) return;
        combatOn(sim.client(BOB)).updateSource({ "flags.structured-initiative.encounter.state.round": 77 });
      },
      /player0000000002's stored state/u,
    ],
    [
      "the current combatant is not the rules' current",
      (sim, batch) => {
        if (batch !== 3) return;
        for (const client of sim.clients) {
          const combat = combatOn(client);
          combat.turn = combat.turn === null ? 0 : null;
        }
      },
      /combat\.combatant is who the rules say acts/u,
    ],
  ];
  it.each(tampers)("6. %s", async (_name, tamper, reason) => {
    const failure = await checkInterleavings(mode, kit, 0, SEED, 5, tamper).then(
      () => "(it did not fail)",
      (error: unknown) => messages(error),
    );
    expect(failure).toMatch(reason);
  });
});
