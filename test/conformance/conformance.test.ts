/// <reference types="vite/client" />
/**
 * The conformance suite every registered mode must pass (issue 11, item 5). It runs for each module in
 * `MODES` (`src/modes/registry.ts`) with the mode's kit (`test/conformance/kits/<id>.ts`, see
 * `kit.ts`); a registered mode without a kit fails here. The checks are in `checks.ts`;
 * `mutants.test.ts` shows each of them failing on a broken mode.
 *
 * Rules (random walks of the kit's actions, and the GM's undo, through the engine's `applyToEncounter`; every
 * state deep-frozen):
 * 1. A refusal leaves the state deep-equal and returns no state (only `ok` and `refusal`); an accepted
 *    command leaves its input deep-equal too; every refusal code is a shared one or the mode's own.
 * 2. a. `parseCommand` rejects junk: values that are no command, unknown and prototype-named types,
 *    huge strings. What it accepts (from mutated commands of the kit: each field wrong-typed, emptied,
 *    huge or removed; prototype-pollution keys; random records) is clean: a fixed point through JSON,
 *    no string over 500 characters, no non-finite number, no `__proto__`/`constructor`/`prototype`
 *    key, plain objects only; the rules take it without throwing or mutating; nothing is polluted.
 *    `parseState` rejects junk.
 *    b. Every state reached survives encode then parse: `parseState(JSON(state))`, through
 *    `encodeArrays`/`decodeArrays`, `loadEncounter(initialStored(state))`, and the store's stored form
 *    (kept with `encodeEncounter` like the authority does) loads back to the same state and history.
 * 3. A GM step (next turn, or the kit's `steps`) through `applyToEncounter`, then `previousTurn`, gives back
 *    a deep-equal encounter (state and undo history).
 * 4. The view's order holds no id twice and only live ids (`roster.ids`), and exactly the ids the kit
 *    says are in it (`inOrder`: every live combatant, for individual, sides and slots); the current and
 *    next combatants are in it or null.
 * 5. Every action `allowed()` offers the GM, the owners of two combatants and a stranger, built into
 *    the command it names by the kit (`commandFor`), is accepted by `apply`.
 *
 * Simulated Foundry (the built bundle, a GM and two players):
 * 6. Randomised concurrent interleavings (2–4 actions from the GM and the players, started a few
 *    server messages apart; a tenth of them the GM's previous turn): after each, once settled, every
 *    client holds the same stored state and shows the same `combat.turns`, `combat.turn`, round and
 *    current combatant; the stored state parses; `combat.turns` is every combatant once, in the rules'
 *    order; `combat.combatant` is the rules' current and `combat.turn` points at it; the rules' roster
 *    is the combatant documents; check 4 and the kit's invariants hold; no client logged an error.
 *
 * Runs: `CONFORMANCE_RUNS` interleavings per mode (default 200; `CONFORMANCE_RUNS=1000` for the long
 * run), `BATCHES` to a simulated world; the rules walks scale with it. `CONFORMANCE_SEED` replays.
 */
import { describe, expect, it, vi } from "vitest";
import { MODES } from "../../src/modes/registry";
import {
  BATCHES,
  RUNS,
  SEED,
  WALKS,
  checkAllowed,
  checkInterleavings,
  checkJunk,
  checkOrder,
  checkRefusals,
  checkRoundTrip,
  checkStepBack,
} from "./checks";
import type { AnyKit } from "./kit";

// The modes' glue reads Foundry's `Hooks` when its files load; the rules checks never call it (the
// simulated Foundry runs the built bundle in realms of its own).
vi.hoisted(() => Object.assign(globalThis, { Hooks: {} }));

/** Time for one rules check (`WALKS` walks) and for one simulated world, on a slow, busy machine. */
const RULES_TIMEOUT = Math.max(30_000, WALKS * 200);
const SIM_TIMEOUT = 30_000;

/** The kits, by file name: `kits/<mode id>.ts` exporting `kit`. */
const KITS = new Map<string, AnyKit>();
for (const [file, loaded] of Object.entries(import.meta.glob<{ kit?: AnyKit }>("./kits/*.ts", { eager: true }))) {
  if (loaded.kit !== undefined) KITS.set(file.replace(/^.*\//u, "").replace(/\.ts$/u, ""), loaded.kit);
}

describe.each(MODES.map((module) => [module.id, module] as const))("conformance of %s", (id, module) => {
  const kit = KITS.get(id);

  it("has a conformance kit", () => {
    expect(
      kit,
      `mode "${id}" is registered in src/modes/registry.ts but has no kit: add test/conformance/kits/${id}.ts ` +
        "exporting `kit` (see test/conformance/kit.ts)",
    ).toBeDefined();
    expect(kit?.id, `test/conformance/kits/${id}.ts is the kit of another mode`).toBe(id);
  });
  if (kit === undefined) return;

  it(
    "1. a refusal leaves the state deep-equal and returns no state",
    () => {
      checkRefusals(module, kit);
    },
    RULES_TIMEOUT,
  );
  it(
    "2a. parseCommand rejects junk and accepts only clean commands",
    () => {
      checkJunk(module, kit);
    },
    RULES_TIMEOUT,
  );
  it(
    "2b. a stored state survives encode, then parse (alone and in the stored form with its history)",
    () => {
      checkRoundTrip(module, kit);
    },
    RULES_TIMEOUT,
  );
  it(
    "3. next-then-previous returns an equal state",
    () => {
      checkStepBack(module, kit);
    },
    RULES_TIMEOUT,
  );
  it(
    "4. the view's order holds each live combatant the mode puts in it, once",
    () => {
      checkOrder(module, kit);
    },
    RULES_TIMEOUT,
  );
  it(
    "5. allowed() never offers what apply refuses",
    () => {
      checkAllowed(module, kit);
    },
    RULES_TIMEOUT,
  );

  const sims = Array.from({ length: Math.ceil(RUNS / BATCHES) }, (_, i) => i);
  it.each(sims)(
    `6. simulated Foundry %i: ${BATCHES} concurrent interleavings agree`,
    async (index) => {
      await checkInterleavings(module, kit, index, SEED + 1000 * (MODES.indexOf(module) + 1) + index);
    },
    SIM_TIMEOUT,
  );
});
