/**
 * The rules engine: the types every mode shares and the dispatcher that adds undo history.
 *
 * A mode is a pure state machine: `state + command + requester -> new state + events`, or a typed
 * refusal with a reason code. Nothing here touches Foundry, the DOM or randomness; dice results
 * arrive inside commands as plain numbers.
 */
import { jsonEqual, type Json } from "./patch";

/**
 * A structured mode's id, such as `sides`. The modes are the ones registered in
 * `src/modes/registry.ts`; the engine knows none of them. "system default" is not a rules mode: it
 * bypasses the engine.
 */
export type ModeId = string;

/** Who sends a command, as attested by Foundry (never as claimed by the sender). */
export interface Requester {
  /** The Foundry user id. */
  readonly userId: string;
  /** Whether the user is a GM (Foundry's `User#isGM`). */
  readonly isGM: boolean;
  /** Ids of the combatants whose actor this user owns. */
  readonly owns: readonly string[];
}

/**
 * Reasons a command can be refused that several modes share. A mode adds its own in its module
 * (`refusalCodes`). The glue turns each code into the localised message
 * `STRUCTURED_INITIATIVE.Refusal.<code>`; a test checks that every code has one, and the conformance
 * suite that every code a mode's rules return is one of these or the mode's own.
 */
export const REFUSAL_CODES = [
  "notGM",
  "notOwner",
  "unknownCombatant",
  "duplicateCombatant",
  "unknownGroup",
  "notStarted",
  "alreadyStarted",
  "notYourTurn",
  "alreadyActed",
  "initiativeMissing",
  "rollOffPending",
  "notTied",
  "invalidValue",
  "emptyGroup",
  "noHistory",
  "notDelaying",
  "notReady",
  "alreadyWaiting",
  "notAware",
  "noCombatants",
  "inGroup",
  "notNPC",
  "unknownCommand",
  "wrongStep",
  "unknownSide",
  "emptySide",
  "sideNotEmpty",
  "noSide",
  "notOnSide",
  "alreadyRolled",
  "rerollGMOnly",
  "typedResult",
  "tiePending",
  "alreadyDeclared",
  "hesitated",
  "notDeclared",
  "skipDeclarerGM",
  "tooManyActions",
  "notInPass",
  "alreadySlowed",
  "unknownSlot",
  "slotPassed",
  "notCurrentSlot",
  "slotTaken",
  "slotClaimed",
  "wrongSlotKind",
  "alreadyClaimed",
  "notClaimed",
  "combatantDefeated",
] as const;
/** A reason code for a refused command: a shared one (`REFUSAL_CODES`) or one its mode declares. */
export type RefusalCode = string;

/** A refused command: nothing changed. */
export interface Refusal {
  readonly code: RefusalCode;
  /** The combatant the refusal is about, when there is one (for the message). */
  readonly combatantId?: string;
}

/** Something that happened, for the glue to announce (chat, hooks, screen readers). */
export interface RuleEvent {
  readonly type: string;
  readonly round?: number;
  readonly combatantId?: string;
}

/** How a successful command should be recorded for undo. */
export type StepKind = "turn" | "round";

/** The result of applying a command. */
export type Outcome<S> =
  | {
      readonly ok: true;
      readonly state: S;
      readonly events: readonly RuleEvent[];
      /** Set when the command is a step that previous-turn / previous-round can undo. */
      readonly step?: StepKind;
    }
  | { readonly ok: false; readonly refusal: Refusal };

/** A command: a tagged plain object. Mode-specific unions extend this. */
export interface Command {
  readonly type: string;
}

/** A combatant as the rules see it. */
export interface RosterEntry {
  readonly id: string;
  readonly name: string;
  /** Has a player owner (Foundry's `Combatant#hasPlayerOwner`). */
  readonly isPC: boolean;
}

/** The derived "who acts now" view every mode provides; the glue builds `combat.turns` from it. */
export interface TurnView {
  /** Whether the encounter has started. */
  readonly started: boolean;
  /** The round number (0 before the start). */
  readonly round: number;
  /** The mode's current step or phase (a key under `STRUCTURED_INITIATIVE.Step`). */
  readonly step: string;
  /** Combatant ids in tracker order; `combat.turns` follows it. */
  readonly order: readonly string[];
  /** Who acts now, or null. */
  readonly current: string | null;
  /** Who acts next, or null. */
  readonly next: string | null;
}

/** One thing a user may do now, for the tracker's controls. */
export interface AllowedAction {
  readonly type: string;
  readonly combatantId?: string;
  /** The group the action is about, for commands addressed to a group rather than a combatant. */
  readonly groupId?: string;
}

/** The contract every mode implements. */
export interface ModeDefinition<S extends Json, C extends Command> {
  readonly id: ModeId;
  /** A fresh, not yet started state for these combatants. */
  create(roster: readonly RosterEntry[]): S;
  /** Apply one command. Must not mutate `state`; a refusal changes nothing. */
  apply(state: S, command: C, who: Requester): Outcome<S>;
  /** The derived order and current combatant. */
  view(state: S): TurnView;
  /** What this requester may do now. */
  allowed(state: S, who: Requester): readonly AllowedAction[];
  /**
   * Commands that change the roster (a combatant joins or is deleted) must also be applied to
   * every undo snapshot, so an undo never resurrects a deleted combatant or loses a joined one.
   */
  isRosterCommand(command: C): boolean;
  /** Commands are untrusted data from the network: narrow them. */
  parseCommand(data: unknown): C | null;
  /**
   * The command types this mode knows (undo aside): a command of another type that `parseCommand`
   * rejects (another mode's `setDefeated`) is refused as not part of this mode (`unknownCommand`),
   * not as malformed.
   */
  readonly commandTypes?: ReadonlySet<string>;
  /**
   * Where `previousRound` may land: the first kept snapshot of the previous round for which this
   * holds (a round that opens with rolls nobody wants to lose starts after them). Absent, or when no
   * snapshot of that round holds it: the oldest snapshot of that round.
   */
  roundStart?(state: S): boolean;
  /**
   * The acting turn under way: a key naming who acts and which of their turns this is (round, pass,
   * slot…), or null while nobody takes an acting turn (setup, a declaration step, an open slot, an
   * upkeep). The glue runs Foundry's turn lifecycle (turn end, turn start) once each time a forward
   * step changes this key. Absent: `round:current` once started (see `turnKeyOf`).
   */
  turnKey?(state: S): string | null;
}

/** The acting turn of `state` (`ModeDefinition#turnKey`, or round and current combatant by default). */
export function turnKeyOf<S extends Json, C extends Command>(
  definition: ModeDefinition<S, C>,
  state: S,
): string | null {
  if (definition.turnKey !== undefined) return definition.turnKey(state);
  const view = definition.view(state);
  return view.started && view.current !== null ? `${view.round}:${view.current}` : null;
}

/** The combatant id of a turn key (the part after its last `:`). */
export function turnKeyCombatant(key: string): string {
  return key.slice(key.lastIndexOf(":") + 1);
}

/** An undo snapshot: the mode state before a step. */
export interface Snapshot<S> {
  readonly kind: StepKind;
  readonly state: S;
  /**
   * The snapshot's round and whether the mode calls it the start of its round (`roundStart`), kept
   * with it when it is taken so that finding an undo target reads no snapshot's state.
   */
  readonly round?: number;
  readonly roundStart?: boolean;
}

/** A mode state with its undo history. */
export interface Encounter<S> {
  readonly mode: ModeId;
  readonly state: S;
  /** Oldest first. */
  readonly history: readonly Snapshot<S>[];
}

/** Commands the engine handles for every mode. */
export type EngineCommand = { readonly type: "previousTurn" } | { readonly type: "previousRound" };

/** Default bound on the undo history. */
export const DEFAULT_HISTORY_LIMIT = 100;

/** A refusal outcome. */
export function refuse<S>(code: RefusalCode, combatantId?: string): Outcome<S> {
  return { ok: false, refusal: combatantId === undefined ? { code } : { code, combatantId } };
}

/** A success outcome. */
export function accept<S>(state: S, events: readonly RuleEvent[] = [], step?: StepKind): Outcome<S> {
  return step === undefined ? { ok: true, state, events } : { ok: true, state, events, step };
}

/** A new encounter with an empty history. */
export function createEncounter<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  roster: readonly RosterEntry[],
): Encounter<S> {
  return { mode: mode.id, state: mode.create(roster), history: [] };
}

function isEngineCommand(command: Command): command is EngineCommand {
  return command.type === "previousTurn" || command.type === "previousRound";
}

/**
 * Apply a command to an encounter: undo commands are handled here, the rest by the mode.
 * Steps push the prior state onto a bounded history; roster commands are replayed on the history.
 */
export function applyToEncounter<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  encounter: Encounter<S>,
  command: C | EngineCommand,
  who: Requester,
  historyLimit: number = DEFAULT_HISTORY_LIMIT,
): Outcome<Encounter<S>> {
  if (isEngineCommand(command)) return undo(mode, encounter, command, who);
  const outcome = mode.apply(encounter.state, command, who);
  if (!outcome.ok) return outcome;
  let history = encounter.history;
  const roster = mode.isRosterCommand(command);
  if (roster) {
    const replayed = history.map((snap) => {
      const again = mode.apply(snap.state, command, who);
      return again.ok ? snapshotOf(mode, snap.kind, again.state) : snap;
    });
    // Replaying can make a snapshot equal to the state after it (say, the removed combatant was
    // acting there and the turn passed on): drop it, or an undo would seem to do nothing.
    history = replayed.filter((snap, i) => !jsonEqual(snap.state, replayed[i + 1]?.state ?? outcome.state));
  }
  // A roster command is never pushed as a step: its prior state still holds the deleted (or lacks
  // the joined) combatant, so restoring it would undo the roster change.
  if (outcome.step !== undefined && historyLimit > 0 && !roster) {
    // The oldest dropped once the bound is reached.
    const drop = Math.max(0, history.length + 1 - historyLimit);
    history = [...history.slice(drop), snapshotOf(mode, outcome.step, encounter.state)];
  }
  const next: Encounter<S> = { mode: encounter.mode, state: outcome.state, history };
  return outcome.step === undefined
    ? { ok: true, state: next, events: outcome.events }
    : { ok: true, state: next, events: outcome.events, step: outcome.step };
}

/** A snapshot of a state, with its round facts (see `Snapshot`). */
export function snapshotOf<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  kind: StepKind,
  state: S,
): Snapshot<S> {
  const roundStart = mode.roundStart?.(state);
  const round = mode.view(state).round;
  return roundStart === undefined ? { kind, state, round } : { kind, state, round, roundStart };
}

/** The index of the history snapshot an undo command returns to (-1: none). */
function undoTarget<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  encounter: Encounter<S>,
  type: EngineCommand["type"],
): number {
  const { history } = encounter;
  if (type === "previousTurn") return history.length - 1;
  // Back to the start of the previous round: the oldest snapshot taken in that round, or the first
  // the mode calls the round's start.
  const round = mode.view(encounter.state).round;
  const wanted = Math.max(round - 1, 0);
  const inRound = (snap: Snapshot<S>): boolean => (snap.round ?? mode.view(snap.state).round) === wanted;
  const startsRound = (snap: Snapshot<S>): boolean =>
    mode.roundStart !== undefined && (snap.roundStart ?? mode.roundStart(snap.state));
  let first = -1;
  for (let i = 0; i < history.length; i += 1) {
    const snap = history[i];
    if (snap === undefined || !inRound(snap)) continue;
    if (startsRound(snap)) return i;
    if (first < 0) first = i;
  }
  return first;
}

/**
 * Where an undo command would land: the view of the snapshot it restores, or null when there is none
 * (the command would be refused with `noHistory`, so it is not worth offering).
 */
export function undoPreview<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  encounter: Encounter<S>,
  type: EngineCommand["type"],
): TurnView | null {
  const snapshot = encounter.history[undoTarget(mode, encounter, type)];
  return snapshot === undefined ? null : mode.view(snapshot.state);
}

function undo<S extends Json, C extends Command>(
  mode: ModeDefinition<S, C>,
  encounter: Encounter<S>,
  command: EngineCommand,
  who: Requester,
): Outcome<Encounter<S>> {
  if (!who.isGM) return refuse("notGM");
  const target = undoTarget(mode, encounter, command.type);
  const snapshot = encounter.history[target];
  if (target < 0 || snapshot === undefined) return refuse("noHistory");
  const restored: Encounter<S> = {
    mode: encounter.mode,
    state: snapshot.state,
    history: encounter.history.slice(0, target),
  };
  return { ok: true, state: restored, events: [{ type: "rewound", round: mode.view(snapshot.state).round }] };
}
