/**
 * The shared helpers of the rules tests (`test/rules/<mode>.test.ts` and the others that drive a
 * mode's pure rules): who sends a command, who is in the roster, and how a command is applied,
 * generic over a mode's `ModeDefinition`. A mode's test keeps only what is its own (its command
 * builders, its scenarios).
 *
 * - Requesters: `GM`, and `player(...owns)` for a player owning those combatants.
 * - Roster entries: `pc(id)` and `npc(id)`, named after their id.
 * - `rulesOf(mode)` gives `apply` (the outcome), `must` (a command that must be accepted: its state,
 *   events and step, else it throws with the refusal), `run` (commands in a row from the GM, each of
 *   which must be accepted) and `verdict` (the refusal's code, or "accepted").
 * - `refusal(outcome)`: the refusal of an outcome, null when it was accepted.
 * - `deepFreeze(value)`: freeze a value and everything in it, so a mode that mutates its input throws.
 */
import type {
  Command,
  ModeDefinition,
  Outcome,
  Refusal,
  Requester,
  RosterEntry,
  RuleEvent,
  StepKind,
} from "../../src/core/engine";
import type { Json } from "../../src/core/patch";

// ---------------------------------------------------------------------------------------------
// Requesters and roster

/** The GM: may do anything the rules let anyone do. */
export const GM: Requester = { userId: "gm", isGM: true, owns: [] };

/** A player who owns these combatants. */
export const player = (...owns: string[]): Requester => ({ userId: `player-${owns.join("-")}`, isGM: false, owns });

/** A player character named after its id. */
export const pc = (id: string): RosterEntry => ({ id, name: id, isPC: true });

/** A non-player character named after its id. */
export const npc = (id: string): RosterEntry => ({ id, name: id, isPC: false });

// ---------------------------------------------------------------------------------------------
// Applying commands

/** What an accepted command gives. */
export interface Applied<S> {
  readonly state: S;
  readonly events: readonly RuleEvent[];
  readonly step: StepKind | undefined;
}

/** A mode's rules with the test helpers bound to them. */
export interface RulesHarness<S extends Json, C extends Command> {
  /** Apply one command from `who` (default the GM). */
  readonly apply: (state: S, command: C, who?: Requester) => Outcome<S>;
  /** Apply a command that must be accepted (throws with the refusal's code and combatant otherwise). */
  readonly must: (state: S, command: C, who?: Requester) => Applied<S>;
  /** Apply commands in a row from the GM, each against the state the previous one left; each must be accepted. */
  readonly run: (state: S, ...commands: C[]) => S;
  /** The code of the refusal of one command from `who` (default the GM), or "accepted". */
  readonly verdict: (state: S, command: C, who?: Requester) => string;
}

/** The helpers of a mode's rules tests. */
export function rulesOf<S extends Json, C extends Command>(mode: ModeDefinition<S, C>): RulesHarness<S, C> {
  const apply = (state: S, command: C, who: Requester = GM): Outcome<S> => mode.apply(state, command, who);
  const must = (state: S, command: C, who: Requester = GM): Applied<S> => {
    const outcome = apply(state, command, who);
    if (!outcome.ok)
      throw new Error(`${command.type} refused: ${outcome.refusal.code} ${outcome.refusal.combatantId ?? ""}`);
    return { state: outcome.state, events: outcome.events, step: outcome.step };
  };
  return {
    apply,
    must,
    run: (state, ...commands) => commands.reduce((s, command) => must(s, command).state, state),
    verdict: (state, command, who = GM) => {
      const outcome = apply(state, command, who);
      return outcome.ok ? "accepted" : outcome.refusal.code;
    },
  };
}

/** The refusal of an outcome; null when the command was accepted. */
export function refusal<S>(outcome: Outcome<S>): Refusal | null {
  return outcome.ok ? null : outcome.refusal;
}

// ---------------------------------------------------------------------------------------------
// Immutability

/** Freeze a value and everything in it, so a mode that mutates its input throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
