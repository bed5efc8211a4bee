/**
 * What a mode brings to the conformance suite (`conformance.test.ts`): a "kit" in
 * `test/conformance/kits/<mode id>.ts`, exported as `kit`. The suite finds kits by file name and fails
 * for a registered mode (`src/modes/registry.ts`) that has none.
 *
 * A kit is small: a roster, a fast-check arbitrary of abstract actions and how each becomes commands
 * (with their senders) against the state it meets, how to build the command an allowed action names,
 * the order invariant of the mode's view, and a world for the simulated Foundry. The suite does the
 * rest, the same way for every mode.
 */
import type fc from "fast-check";
import type { AllowedAction, Command, Requester, RosterEntry } from "../../src/core/engine";
import type { CreateSimOptions, Sim } from "../sim/index.js";

/** One command and who sends it. */
export type Sent<C extends Command> = readonly [C, Requester];

/** A mode's conformance kit. `S` is its state, `C` its commands, `A` its abstract actions. */
export interface Kit<S, C extends Command, A> {
  /** The mode's id (the kit's file name). */
  readonly id: string;
  /** The combatants of a fresh encounter. */
  readonly roster: fc.Arbitrary<readonly RosterEntry[]>;
  /** Commands the GM applies to a fresh state before the random actions (sides: define and fill sides). */
  setup?(state: S): Iterable<C>;
  /** Random actions, legal and illegal, from the GM, owners and strangers. */
  readonly action: fc.Arbitrary<A>;
  /**
   * Turn an action into commands, each sent against the state `now()` returns at the time (a
   * generator can read the state between its commands). `fresh` names joiners.
   */
  resolve(action: A, now: () => S, fresh: () => string): Iterable<Sent<C>>;
  /**
   * The command an allowed action names, built from the state and the kit's data (an action is a
   * type plus the combatant, group or slot it is about). Null: the kit cannot build it (a failure).
   */
  commandFor(state: S, action: AllowedAction, who: Requester): C | null;
  /** Commands that step forward (tried by the GM for next-then-previous); default `nextTurn`. */
  steps?(state: S): readonly C[];
  /**
   * The ids the view's order must hold, each once (the rest of its ids must be live too); default
   * every live combatant (`roster.ids`). A mode whose order leaves people out says who is in it here.
   */
  inOrder?(state: S): readonly string[];
  /** The mode's own invariants of a reached state (throws, or `expect`s, on a violation). */
  invariants?(state: S): void;
  /** The simulated Foundry: a world, and how an encounter gets going in it. */
  readonly sim: SimKit<A>;
}

/** A mode's part of the simulated-Foundry interleavings. */
export interface SimKit<A> {
  /**
   * A world running the built module with this mode's settings (a GM, Alice and Bob, each owning a PC);
   * `extra` adds options (a system fixture, a sim variant).
   */
  world(seed: number, extra?: CreateSimOptions): Promise<Sim>;
  /** Create the (only) encounter and bring it to an interesting state (started, usually). */
  begin(sim: Sim): Promise<void>;
  /**
   * The actions used in the simulation (default the kit's `action`): roster changes come from
   * documents in Foundry, so they are usually left out here.
   */
  readonly action?: fc.Arbitrary<A>;
}

/** A kit with its types hidden, as the suite holds it. */
// Kits of different state types sit in one table; each is only ever given its own states.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKit = Kit<any, Command, any>;

/** Declare a kit (checks it against the interface, keeps its types in its own file). */
export function defineKit<S, C extends Command, A>(kit: Kit<S, C, A>): Kit<S, C, A> {
  return kit;
}

/** A roster of `n` combatants from PC flags: `c0`, `c1`, … */
export function rosterOf(pcs: readonly boolean[]): RosterEntry[] {
  return pcs.map((isPC, i) => ({ id: `c${i}`, name: `C${i}`, isPC }));
}
