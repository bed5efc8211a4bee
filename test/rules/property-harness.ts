/**
 * The shared harness of the mode property tests (`test/rules/<mode>.property.test.ts`): generic
 * over a mode's `ModeDefinition`, so a new mode's property test brings only what is its own (its
 * action generator, how an action becomes commands, its invariants).
 *
 * - Requesters: `GM` (from `./harness`, the rules tests' shared helpers), `STRANGER`, `By` and `requester(by, subject)`, `senders()` to draw a `By`.
 * - Generators: `variant(k, fields, weight)` for one weighted kind of action in `fc.oneof`, `T`
 *   for a combatant number, `pickId()` to turn a number into a live id or a stranger (`GHOST`),
 *   `freshIds()` for joiners.
 * - The runner: `new ModeRun(mode, state, checks)` applies commands from requesters and checks
 *   after every one that a refusal left the (deep-frozen) state deep-equal, then the mode's own
 *   checks of each accepted command and of each state reached.
 * - Checks every mode shares: `expectStepBack()` (a step through the engine's `applyToEncounter`, then
 *   `previousTurn`, gives back an equal encounter) and `perRoundTally()` (counts events per round
 *   and combatant, for "at most once a round" invariants).
 */
import fc from "fast-check";
import { expect } from "vitest";
import {
  applyToEncounter,
  type Command,
  type EngineCommand,
  type Encounter,
  type ModeDefinition,
  type Requester,
  type RuleEvent,
} from "../../src/core/engine";
import type { Json } from "../../src/core/patch";
import { GM, deepFreeze } from "./harness";

// ---------------------------------------------------------------------------------------------
// Requesters

/** The GM (the rules tests' own, `test/rules/harness.ts`). */
export { GM };
/** A player who owns nothing in the encounter. */
export const STRANGER: Requester = { userId: "stranger", isGM: false, owns: ["nobody"] };

/** Who sends a command: the GM, the owner of the combatant it is about, or another player. */
export type By = "gm" | "owner" | "other";

/** The requester of a kind for a command about `subject` (an owner of nothing is a stranger). */
export function requester(kind: By, subject: string | null): Requester {
  if (kind === "gm") return GM;
  if (kind === "other" || subject === null) return STRANGER;
  return { userId: `owner-${subject}`, isGM: false, owns: [subject] };
}

/** Draws a sender; repeat a kind to weight it (default: the GM half the time, else owner or other). */
export function senders(kinds: readonly By[] = ["gm", "gm", "owner", "other"]): fc.Arbitrary<By> {
  return fc.constantFrom<By>(...kinds);
}

// ---------------------------------------------------------------------------------------------
// Generators

/** A combatant number: `pickId` maps it onto the roster. */
export const T = fc.nat(20);

/** The id of no combatant in the encounter. */
export const GHOST = "ghost";

/**
 * A combatant id from a number: mostly one of `ids`, one number in `ghostEvery` a stranger (and a
 * stranger when there is nobody).
 */
export function pickId(ids: readonly string[], n: number, ghostEvery = 9): string {
  if (n % ghostEvery === ghostEvery - 1) return GHOST;
  return ids[n % Math.max(ids.length, 1)] ?? GHOST;
}

/** New combatant ids for joiners: `j0`, `j1`, … (one generator per run). */
export function freshIds(prefix = "j"): () => string {
  let joined = 0;
  return () => `${prefix}${joined++}`;
}

/** One kind of action for `fc.oneof`: a record `{ k, ...fields }` drawn `weight` times as often. */
export function variant<K extends string, R extends object>(
  k: K,
  fields: { [P in keyof R]: fc.Arbitrary<R[P]> },
  weight: number,
): fc.WeightedArbitrary<{ k: K } & R> {
  // The signature types the fields; fc.record's own typing cannot follow a generic spread.
  const model: Record<string, fc.Arbitrary<unknown>> = { k: fc.constant(k), ...fields };
  return { arbitrary: fc.record(model) as fc.Arbitrary<unknown> as fc.Arbitrary<{ k: K } & R>, weight };
}

// ---------------------------------------------------------------------------------------------
// The runner

/** Freeze a value and everything in it (`test/rules/harness.ts`), so a mode that mutates its input throws. */
export { deepFreeze };

/** An accepted command, as the mode's checks see it. */
export interface Accepted<S extends Json, C extends Command> {
  readonly command: C;
  readonly who: Requester;
  readonly before: S;
  readonly after: S;
  readonly events: readonly RuleEvent[];
}

/** A mode's own checks, run by {@link ModeRun} after each accepted command. */
export interface RunChecks<S extends Json, C extends Command> {
  /** The command's events and effect, against the state before it (runs first). */
  accepted?(step: Accepted<S, C>): void;
  /** Invariants of the state the command reached (runs after `accepted`). */
  invariants?(state: S, command: C): void;
}

/**
 * Applies commands to a mode state one at a time. Every state is deep-frozen; a refusal must leave
 * it deep-equal to before; an accepted command moves the state on after the mode's checks.
 */
export class ModeRun<S extends Json, C extends Command> {
  private current: S;

  constructor(
    readonly mode: ModeDefinition<S, C>,
    initial: S,
    private readonly checks: RunChecks<S, C> = {},
  ) {
    this.current = deepFreeze(initial);
  }

  /** The state now. */
  get state(): S {
    return this.current;
  }

  /** Apply one command from `who`; true when it was accepted. */
  step(command: C, who: Requester): boolean {
    const before = structuredClone(this.current);
    const outcome = this.mode.apply(this.current, command, who);
    if (!outcome.ok) {
      expect(this.current).toEqual(before);
      return false;
    }
    const after = deepFreeze(outcome.state);
    this.checks.accepted?.({ command, who, before: this.current, after, events: outcome.events });
    this.current = after;
    this.checks.invariants?.(after, command);
    return true;
  }

  /** Apply commands in order, each against the state the previous one left. */
  steps(commands: Iterable<readonly [C, Requester]>): void {
    for (const [command, who] of commands) this.step(command, who);
  }
}

// ---------------------------------------------------------------------------------------------
// Shared checks

/**
 * `command` (default next turn) by the GM through the engine's `applyToEncounter`, then previous turn,
 * gives back an equal encounter. `forward` checks the state the step reached. Both must be accepted.
 */
export function expectStepBack<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  state: S,
  command: C | EngineCommand | { readonly type: "nextTurn" } = { type: "nextTurn" },
  forward?: (after: S) => void,
): void {
  const encounter: Encounter<S> = { mode: mode.id, state, history: [] };
  const ahead = applyToEncounter(mode, encounter, command as C, GM);
  if (!ahead.ok) throw new Error(`${command.type} refused: ${ahead.refusal.code}`);
  forward?.(ahead.state.state);
  const back = applyToEncounter(mode, ahead.state, { type: "previousTurn" }, GM);
  if (!back.ok) throw new Error(`previousTurn refused: ${back.refusal.code}`);
  expect(back.state).toEqual(encounter);
}

/** One tallied event: its `round:combatant` key and how many such events that key has had so far. */
export interface Tallied {
  readonly key: string;
  readonly combatantId: string;
  readonly count: number;
}

/**
 * Counts events of these types per round and combatant across a run: call the result with each
 * accepted command's events; it returns the tallied ones with their running counts.
 */
export function perRoundTally(...types: readonly string[]): (events: readonly RuleEvent[]) => Tallied[] {
  const counts = new Map<string, number>();
  return (events) =>
    events
      .filter((e) => types.includes(e.type))
      .map((e) => {
        const combatantId = e.combatantId ?? "?";
        const key = `${e.round ?? "?"}:${combatantId}`;
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return { key, combatantId, count };
      });
}
