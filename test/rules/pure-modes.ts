/**
 * Every mode's pure rules and state parser, without the Foundry glue its module brings (which needs
 * Foundry's globals), and the binding of one to the stored form: for tests and benchmarks in Node.
 */
import { bindMode, type BoundEncounter, type ModeBinding } from "../../src/core/binding";
import type { Command, ModeDefinition } from "../../src/core/engine";
import type { Json } from "../../src/core/patch";
import { declareResolveMode } from "../../src/modes/declare-resolve/rules/mode";
import { parseDeclareResolveState } from "../../src/modes/declare-resolve/rules/state";
import { individualMode } from "../../src/modes/individual/rules/mode";
import { parseIndividualState } from "../../src/modes/individual/rules/state";
import { phasesMode } from "../../src/modes/phases/rules/mode";
import { parsePhasesState } from "../../src/modes/phases/rules/state";
import { sidesMode } from "../../src/modes/sides/rules/mode";
import { parseSidesState } from "../../src/modes/sides/rules/state";
import { slotsMode } from "../../src/modes/slots/rules/mode";
import { parseSlotsState } from "../../src/modes/slots/rules/state";

/** A mode's rules and parser, its types hidden. */
export interface PureRules {
  readonly id: string;
  readonly rules: ModeDefinition<Json, Command>;
  readonly parse: (data: unknown) => unknown;
}

/** Every mode's state is plain JSON data that names its combatants (the roster commands read them). */
export type WithCombatants = {
  readonly combatants: readonly { readonly id: string }[];
};

const pure = <S extends Json, C extends Command>(
  rules: ModeDefinition<S, C>,
  parse: (data: unknown) => S | null,
): PureRules => ({
  id: rules.id,
  // Each mode is only ever given its own states and commands.
  rules: rules,
  parse,
});

/** The five modes, in the registry's order. */
export const PURE_MODES: readonly PureRules[] = [
  pure(individualMode, parseIndividualState),
  pure(sidesMode, parseSidesState),
  pure(slotsMode, parseSlotsState),
  pure(declareResolveMode, parseDeclareResolveState),
  pure(phasesMode, parsePhasesState),
];

/** The pure rules of one mode. */
export function pureMode(id: string): PureRules {
  const found = PURE_MODES.find((m) => m.id === id);
  if (found === undefined) throw new Error(`no mode ${id}`);
  return found;
}

/** A mode's state parser, its types hidden as those of a state that names its combatants. */
export function parseWith(mode: PureRules): (data: unknown) => WithCombatants | null {
  return mode.parse as (data: unknown) => WithCombatants | null;
}

/**
 * A binding that loads as one encounter's authority does (`loadBound`, encounters.ts): each load is
 * handed the revision loaded before it, whose write (`BoundEncounter#written`) it reuses while the
 * flag holds exactly that write.
 */
export function asAuthority<S>(binding: ModeBinding<S>): ModeBinding<S> {
  let previous: BoundEncounter<S> | null = null;
  return {
    ...binding,
    load(stored, raw, given) {
      const bound = binding.load(stored, raw, given ?? previous);
      previous = bound;
      return bound;
    },
  };
}

/** A mode bound to the stored form, with the roster commands every mode shares. */
export function bindPure(mode: PureRules): ModeBinding<WithCombatants> {
  const rules = mode.rules as unknown as ModeDefinition<WithCombatants, Command>;
  return bindMode(rules, parseWith(mode), {
    add: (entry) => ({ type: "addCombatant", combatant: entry }),
    remove: (id) => ({ type: "removeCombatant", combatantId: id }),
    ids: (state) => state.combatants.map((c) => c.id),
  });
}
