/**
 * The `sides` mode (RULES.md §1, rulebook excerpt 000): side initiative, a declaration step and
 * action passes, the D6 way.
 *
 * Every round has three steps:
 * 1. **Initiative.** Each side with members makes one roll, made by its roller: the member with the
 *    best initiative score (ties: the first to join), unless the GM picked another member. Sides then
 *    declare in **ascending** order of their rolls. On a tie a GM side (all members NPCs, or marked so)
 *    declares before a PC side; a tie between two sides of the same kind waits for the GM to order it.
 * 2. **Declaration.** Sides in that order; inside a side, characters by Perception, **lowest** first
 *    (ties: joining order). Only the character whose turn it is declares: 0 to `maxActions` actions,
 *    each a short text, and Force Point use. A declaration is locked once made. A character that does
 *    not declare in time **hesitates** (`hesitate`, sent by the glue's countdown): no actions this round.
 * 3. **Passes.** Pass k holds every character with at least k declared actions, by Dexterity
 *    **highest** first, then Perception highest first, then the GM's order (joining order until the GM
 *    orders the tie, which stays exposed). Reactions (dodge, parry) may be added at any time during
 *    the passes: each counts as an action and raises the penalty of the actions still to come. A
 *    character may slow down to act right after a named character of the pass; a slowed action that
 *    is not taken before the pass ends is lost, and still counts for the penalty.
 *
 * The round ends when no declared action remains: the `nextTurn` that ends the last action (or the
 * declaration that leaves nobody with an action) begins the next round's initiative step at once.
 * The hesitation countdown is the glue's: the rules keep no clock, they only take `hesitate`.
 *
 * The declaration order and the pass order are derived, never stored (a stored list of the whole
 * cast rewrites every index whenever it is made again, and its undo snapshot carries the old one):
 * - the declaration order (`declarationOrder`): the stored side order, and inside each side its
 *   members by Perception, lowest first (ties: joining order);
 * - the pass order (`passOrder`): who acted (`done`, in the order they did), then the slowed
 *   characters whose moment has come (`due`), then the rest of the pass's natural order (its actors
 *   by `compareActors`), without the slowed ones.
 * Both use the facts a combatant had when the step began: a side, trait or roster change in the
 * running step keeps the combatant's earlier facts in `held` until the next pass (or round) begins,
 * so the orders of the running step do not move (a joiner is held with no side: it takes part from
 * the next round).
 *
 * Invariants of a started state:
 * - `done`, `due`, `slowed` and `held` name present combatants, each at most once.
 * - During a pass, `due` holds slowed characters that have not acted; the current actor is the
 *   first of `due`, else the first of the natural order that neither acted nor slowed down. A slowed
 *   character waiting for its moment is in `slowed` and neither in `done` nor in `due`.
 */

import {
  accept,
  refuse,
  type AllowedAction,
  type ModeDefinition,
  type Outcome,
  type Requester,
  type RosterEntry,
  type RuleEvent,
  type TurnView,
} from "../../../core/engine";
import {
  addToRoster,
  allowedByTrial,
  dispatch,
  type RefusalChecks,
  type Handlers,
  canControl,
  findById,
  includesId,
  isFiniteNumber,
  isId,
  isRecord,
  oncePerId,
  parseRosterCommand,
  stepKind,
  without,
  markTyped,
  parseTyped,
  type TypedMark,
  sameSet,
  updateCombatant,
} from "../../../core/common";
import {
  compareDiceCodes,
  formatDiceCode,
  multiplyDiceCode,
  normaliseDiceCode,
  parseDiceCode,
} from "../../../core/dice-code";

// ---------------------------------------------------------------------------------------------
// State, commands, events
// ---------------------------------------------------------------------------------------------

/** Default most actions one character may declare in a round. */
export const DEFAULT_MAX_ACTIONS = 10;
/** The highest `maxActions` that can be configured; also the cap on actions plus reactions. */
export const MAX_ACTIONS_LIMIT = 99;
/** Default multiple-action penalty per action beyond the first (the D6 preset: −1D). */
export const DEFAULT_ACTION_PENALTY = "1D";
/** Default most reactions (dodges and parries) one character may make in a round. */
export const DEFAULT_MAX_REACTIONS = 10;

/** Refusal codes this mode adds to the shared ones (each has a message `Refusal.<code>`). */
export const SIDES_REFUSALS = ["tooManyReactions", "notSlowed"] as const;
/** Longest text of one declared action. */
export const MAX_ACTION_TEXT_LENGTH = 200;
/** Longest side name. */
export const MAX_SIDE_NAME_LENGTH = 100;
/** Most sides an encounter may have. */
export const MAX_SIDES = 20;
/** Most replaced totals kept for one side's roll (the latest ones). */
export const MAX_EARLIER_ROLLS = 20;

/** A combatant as the sides mode tracks it. Traits are canonical dice codes, null until known. */
export interface SidesCombatant {
  readonly id: string;
  readonly name: string;
  /** Has a player owner. */
  readonly isPC: boolean;
  /** The side it belongs to, or null (it then takes no part in the round). */
  readonly sideId: string | null;
  /** Orders the passes (highest first). Unknown counts as 0D. */
  readonly dexterity: string | null;
  /** Orders declarations (lowest first) and breaks Dexterity ties (highest first). Unknown counts as 0D. */
  readonly perception: string | null;
  /** Picks the side's roller (highest first). Unknown counts as 0D. */
  readonly initiativeScore: string | null;
}

/** A side. Its members are the combatants whose `sideId` is its id. */
export interface Side {
  readonly id: string;
  readonly name: string;
  /** A CSS hex colour ("#rrggbb" or "#rgb"). */
  readonly colour: string;
  /** Marked a GM side (true) or a PC side (false) by the GM; null: a GM side when every member is an NPC. */
  readonly gmSide: boolean | null;
  /** The roller the GM picked; null: the member with the best initiative score. */
  readonly roller: string | null;
}

/** A side's initiative roll this round. */
export interface SideRoll extends TypedMark {
  readonly sideId: string;
  readonly total: number;
  /** The totals it replaced (the GM's re-rolls and corrections), oldest first; absent when none. */
  readonly earlier?: readonly number[];
}

/** One declared action: what the character says it will do. Dodges and parries are never declared. */
export interface DeclaredAction {
  readonly text: string;
}

/** A reaction: taken when attacked, not declared. */
export type ReactionKind = "dodge" | "parry";

/** A reaction taken this round. */
export interface Reaction {
  readonly kind: ReactionKind;
  /** The pass it was taken in. */
  readonly pass: number;
}

/** A character's declaration this round. A hesitating character has one too, with no actions. */
export interface Declaration {
  readonly combatantId: string;
  readonly actions: readonly DeclaredAction[];
  readonly forcePoint: boolean;
  /** Did not declare in time: no actions this round. */
  readonly hesitated: boolean;
  readonly reactions: readonly Reaction[];
}

/** A character that slowed down in this pass, to act right after `after`. */
export interface SlowedEntry {
  readonly combatantId: string;
  /** The character to follow; null when that one left the encounter (the action will be lost). */
  readonly after: string | null;
}

/**
 * The facts a combatant had when the running step began (its side for the declaration order, its
 * traits for the declaration and pass orders), kept once one of them changes in that step.
 */
export interface HeldFacts {
  readonly combatantId: string;
  readonly sideId: string | null;
  readonly dexterity: string | null;
  readonly perception: string | null;
}

/** A slowed action that was not taken before its pass ended. */
export interface LostAction {
  readonly combatantId: string;
  readonly pass: number;
}

/** Step keys of `TurnView.step` in this mode ("setup" before the start). */
export type SidesStep = "setup" | "initiative" | "declaration" | "pass";

/** The sides mode's state. Plain JSON data; never mutated. */
export interface SidesState {
  /** Every combatant, in the order they joined the encounter. */
  readonly combatants: readonly SidesCombatant[];
  /** Every side, in the order they were defined. */
  readonly sides: readonly Side[];
  /** Most actions a character may declare in a round. */
  readonly maxActions: number;
  /** Most reactions (dodges and parries) a character may make in a round. */
  readonly maxReactions: number;
  /** The multiple-action penalty per action beyond the first, as a dice code. */
  readonly actionPenalty: string;
  readonly started: boolean;
  /** 0 before the start. */
  readonly round: number;
  readonly step: SidesStep;
  /** The current pass (1, 2, …) during the "pass" step; 0 otherwise. */
  readonly pass: number;
  /** This round's side rolls. */
  readonly rolls: readonly SideRoll[];
  /** The GM's orders of tied sides this round, oldest first. */
  readonly sideTieOrders: readonly (readonly string[])[];
  /** The order sides declare in, stored when the declaration step begins. */
  readonly sideOrder: readonly string[];
  /** This round's declarations (and hesitations), in the order they were made. */
  readonly declarations: readonly Declaration[];
  /** Who has taken its action in the current pass, in the order they did. */
  readonly done: readonly string[];
  /** Slowed characters whose moment has come (the one they follow acted) and that have not acted yet, in order. */
  readonly due: readonly string[];
  /** Who slowed down in the current pass, in the order they did. */
  readonly slowed: readonly SlowedEntry[];
  /** Facts of combatants changed in the running step, as they were when it began (see the top). */
  readonly held: readonly HeldFacts[];
  /** Slowed actions lost this round. */
  readonly lost: readonly LostAction[];
  /** The GM's orders of characters tied on Dexterity and Perception this round, oldest first. */
  readonly tieOrders: readonly (readonly string[])[];
}

/** Commands of the sides mode. */
export type SidesCommand =
  | { readonly type: "addCombatant"; readonly combatant: RosterEntry }
  | { readonly type: "removeCombatant"; readonly combatantId: string }
  | {
      readonly type: "defineSide";
      readonly sideId: string;
      readonly name: string;
      readonly colour: string;
      /** true / false: mark it a GM / PC side; null: derive it; absent: keep (derive for a new side). */
      readonly isGMSide?: boolean | null;
    }
  | { readonly type: "removeSide"; readonly sideId: string }
  | { readonly type: "setSide"; readonly combatantId: string; readonly sideId: string }
  | {
      readonly type: "setTraits";
      readonly combatantId: string;
      readonly dexterity: string;
      readonly perception: string;
      readonly initiativeScore: string;
    }
  | {
      readonly type: "configure";
      readonly maxActions: number;
      readonly actionPenalty: string;
      /** Absent: keep the current limit. */
      readonly maxReactions?: number;
    }
  | { readonly type: "start" }
  | { readonly type: "setRoller"; readonly sideId: string; readonly combatantId: string | null }
  | { readonly type: "recordSideRoll"; readonly sideId: string; readonly total: number; readonly typed?: boolean }
  | { readonly type: "orderTiedSides"; readonly sideIds: readonly string[] }
  | {
      readonly type: "declare";
      readonly combatantId: string;
      readonly actions: readonly DeclaredAction[];
      readonly forcePoint: boolean;
    }
  | { readonly type: "hesitate"; readonly combatantId: string }
  | { readonly type: "orderTied"; readonly pass: number; readonly combatantIds: readonly string[] }
  | { readonly type: "nextTurn" }
  | { readonly type: "nextRound" }
  | { readonly type: "react"; readonly combatantId: string; readonly kind: ReactionKind }
  | { readonly type: "slowDown"; readonly combatantId: string; readonly after: string }
  | { readonly type: "letPass"; readonly combatantId: string };

/** The `type` of every sides-mode command. */
export type SidesCommandType = SidesCommand["type"];

/** Events the sides mode emits (`RuleEvent.type`). */
export const SIDES_EVENTS = [
  "combatantAdded",
  "combatantRemoved",
  "sideDefined",
  "sideRemoved",
  "sideChanged",
  "traitsChanged",
  "configured",
  "rollerChosen",
  "combatStarted",
  "roundStarted",
  "sideRolled",
  "sidesOrdered",
  "declarationStarted",
  "turnStarted",
  "declared",
  "hesitated",
  "passStarted",
  "actionTaken",
  "reacted",
  "slowedDown",
  "slowedActionLost",
  "tieOrdered",
] as const;
/** One sides-mode event type. */
export type SidesEventType = (typeof SIDES_EVENTS)[number];

// ---------------------------------------------------------------------------------------------
// Derived helpers for the tracker
// ---------------------------------------------------------------------------------------------

const ZERO = { dice: 0, pips: 0 };

function trait(value: string | null): { dice: number; pips: number } {
  return parseDiceCode(value) ?? ZERO;
}

/** Members of a side, in joining order (empty for an unknown side). */
export function sideMembers(state: SidesState, sideId: string): readonly string[] {
  return state.combatants.filter((c) => c.sideId === sideId).map((c) => c.id);
}

/** Ids of the sides that have members, in the order they were defined. */
export function activeSides(state: SidesState): readonly string[] {
  return state.sides.filter((side) => sideMembers(state, side.id).length > 0).map((side) => side.id);
}

/** Whether a side is a GM side: marked so, or (unmarked) every member is an NPC. */
export function isGMSide(state: SidesState, sideId: string): boolean {
  const side = findById(state.sides, sideId);
  if (side === undefined) return false;
  if (side.gmSide !== null) return side.gmSide;
  const members = state.combatants.filter((c) => c.sideId === sideId);
  return members.length > 0 && members.every((c) => !c.isPC);
}

/** Who rolls for a side: the GM's pick, else the member with the best initiative score (ties: first to join). */
export function sideRoller(state: SidesState, sideId: string): string | null {
  const side = findById(state.sides, sideId);
  if (side === undefined) return null;
  const members = state.combatants.filter((c) => c.sideId === sideId);
  if (side.roller !== null && members.some((c) => c.id === side.roller)) return side.roller;
  let best: SidesCombatant | undefined;
  for (const c of members) {
    if (best === undefined || compareDiceCodes(trait(c.initiativeScore), trait(best.initiativeScore)) > 0) best = c;
  }
  return best?.id ?? null;
}

/** A side's roll this round, or null. */
export function sideRoll(state: SidesState, sideId: string): number | null {
  return state.rolls.find((r) => r.sideId === sideId)?.total ?? null;
}

/** The totals a side's roll this round replaced (re-rolls and corrections), oldest first. */
export function earlierRolls(state: SidesState, sideId: string): readonly number[] {
  return state.rolls.find((r) => r.sideId === sideId)?.earlier ?? [];
}

/** Sides with members that have not rolled this round (in the initiative step). */
export function sidesToRoll(state: SidesState): readonly string[] {
  if (!state.started || state.step !== "initiative") return [];
  return activeSides(state).filter((id) => sideRoll(state, id) === null);
}

/** The GM's order for two tied entries: the latest record naming both (negative: `a` first); 0 when none. */
function recordedOrder(records: readonly (readonly string[])[], a: string, b: string): number {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] ?? [];
    const ia = record.indexOf(a);
    const ib = record.indexOf(b);
    if (ia >= 0 && ib >= 0) return ia - ib;
  }
  return 0;
}

/** Negative: side `a` declares first. Lower roll first; equal: GM side first; then the GM's order. */
function compareSides(state: SidesState, a: string, b: string): number {
  const byRoll = (sideRoll(state, a) ?? 0) - (sideRoll(state, b) ?? 0);
  if (byRoll !== 0) return byRoll;
  const byKind = Number(isGMSide(state, b)) - Number(isGMSide(state, a));
  if (byKind !== 0) return byKind;
  return recordedOrder(state.sideTieOrders, a, b);
}

/** Sets of entries that are tied on `key` and not (fully) ordered by the GM's records, each in `ids` order. */
function unorderedTies(
  ids: readonly string[],
  key: (id: string) => string,
  records: readonly (readonly string[])[],
): string[][] {
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const k = key(id);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [id]);
    else group.push(id);
  }
  // Two entries are ordered when a record names both (recordedOrder is then not 0).
  const recordsOf = new Map<string, number[]>();
  records.forEach((record, i) => {
    for (const id of record) recordsOf.set(id, [...(recordsOf.get(id) ?? []), i]);
  });
  const ordered = (a: string, b: string): boolean => {
    const inB = recordsOf.get(b) ?? [];
    return (recordsOf.get(a) ?? []).some((i) => inB.includes(i));
  };
  // A record naming the whole group orders every pair of it (the GM orders a tie in one record).
  const sets = new Map<number, ReadonlySet<string>>();
  const setOf = (i: number): ReadonlySet<string> => {
    let set = sets.get(i);
    if (set === undefined) {
      set = new Set(records[i]);
      sets.set(i, set);
    }
    return set;
  };
  const whole = (group: readonly string[]): boolean =>
    (recordsOf.get(group[0] ?? "") ?? []).some((i) => group.every((id) => setOf(i).has(id)));
  const ties: string[][] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    if (whole(group)) continue;
    const open = group.some((a, i) => group.some((b, j) => j > i && a !== b && !ordered(a, b)));
    if (open) ties.push(group);
  }
  return ties;
}

/**
 * Ties between sides that wait for the GM (`orderTiedSides`): rolled sides with the same roll and of
 * the same kind (two GM sides, or two PC sides). A GM side tied with a PC side needs nothing: it
 * declares first.
 */
export function pendingSideTies(state: SidesState): readonly (readonly string[])[] {
  if (!state.started || state.step !== "initiative") return [];
  const rolled = activeSides(state).filter((id) => sideRoll(state, id) !== null);
  return unorderedTies(
    rolled,
    (id) => `${sideRoll(state, id) ?? 0}:${isGMSide(state, id) ? "gm" : "pc"}`,
    state.sideTieOrders,
  );
}

/** The order sides declare in: stored once the declaration step begins, derived from the rolls before. */
export function declaringSides(state: SidesState): readonly string[] {
  if (state.step === "declaration" || state.step === "pass") {
    // A side removed in the running step may stay in the stored order for its held members.
    return state.sideOrder.filter((id) => findById(state.sides, id) !== undefined);
  }
  const rolled = activeSides(state).filter((id) => sideRoll(state, id) !== null);
  return stableSort(rolled, (a, b) => compareSides(state, a, b));
}

/** A character's declaration this round, if it has declared (or hesitated). */
export function declarationOf(state: SidesState, combatantId: string): Declaration | undefined {
  return state.declarations.find((d) => d.combatantId === combatantId);
}

function declaredCount(state: SidesState, combatantId: string): number {
  const d = declarationOf(state, combatantId);
  return d === undefined || d.hesitated ? 0 : d.actions.length;
}

/** Who declares now (the first in the declaration order who has not), or null outside the declaration step. */
export function currentDeclarer(state: SidesState): string | null {
  if (!state.started || state.step !== "declaration") return null;
  return declarationOrder(state).find((id) => declarationOf(state, id) === undefined) ?? null;
}

/** A combatant's facts as they are now. */
function currentFacts(c: SidesCombatant): HeldFacts {
  return { combatantId: c.id, sideId: c.sideId, dexterity: c.dexterity, perception: c.perception };
}

/** The facts the running step's orders use: held ones when changed in it, else the current ones. */
function factsOf(state: SidesState, c: SidesCombatant): HeldFacts {
  return (state.held.length === 0 ? undefined : state.held.find((h) => h.combatantId === c.id)) ?? currentFacts(c);
}

/**
 * The order characters declare in (the declaration step only; empty otherwise): the sides in their
 * order, inside each side its members by Perception, lowest first (ties: joining order).
 */
export function declarationOrder(state: SidesState): readonly string[] {
  if (!state.started || state.step !== "declaration") return [];
  const facts = state.combatants.map((c) => factsOf(state, c));
  const order = state.sideOrder.flatMap((sideId) =>
    stableSort(
      facts.filter((f) => f.sideId === sideId),
      (a, b) => compareDiceCodes(trait(a.perception), trait(b.perception)),
    ).map((f) => f.combatantId),
  );
  return order;
}

/**
 * Pass k's natural order (before anyone slowed down): every character with at least k declared
 * actions, by Dexterity and Perception, highest first, the GM's tie orders, then joining order.
 */
export function naturalOrder(state: SidesState): readonly string[] {
  if (!state.started || state.step !== "pass") return [];
  const actors = state.declarations
    .filter((x) => !x.hesitated && x.actions.length >= state.pass)
    .map((x) => x.combatantId);
  return stableSort(actors, actorComparator(state));
}

/**
 * The current pass's order (during a pass; empty otherwise): who acted, in the order they did; the
 * slowed characters whose moment has come; the rest of the natural order, without the slowed ones.
 * The slowed characters still waiting are not in it (`slowedWaiting`).
 */
export function passOrder(state: SidesState): readonly string[] {
  if (!state.started || state.step !== "pass") return [];
  const out = new Set([...state.done, ...state.due]);
  const slowed = new Set(state.slowed.map((entry) => entry.combatantId));
  return [...state.done, ...state.due, ...naturalOrder(state).filter((id) => !out.has(id) && !slowed.has(id))];
}

/**
 * Everyone ranked as the passes rank them (Dexterity, then Perception, highest first; the GM's tie
 * orders; joining order): the tracker's order all round.
 */
function ranking(state: SidesState): readonly string[] {
  return stableSort(
    state.combatants.map((c) => c.id),
    actorComparator(state),
  );
}

/** The current pass number during the passes, else null. */
export function currentPass(state: SidesState): number | null {
  return state.started && state.step === "pass" ? state.pass : null;
}

function passCurrent(state: SidesState): string | null {
  if (!state.started || state.step !== "pass") return null;
  return state.due[0] ?? passOrder(state)[state.done.length] ?? null;
}

/** Characters that slowed down in this pass and still wait for the one they follow. */
export function slowedWaiting(state: SidesState): readonly SlowedEntry[] {
  return state.slowed.filter(
    (entry) => !includesId(state.done, entry.combatantId) && !state.due.includes(entry.combatantId),
  );
}

/** Slowed actions lost this round (not taken before their pass ended; their penalty stands). */
export function lostActions(state: SidesState): readonly LostAction[] {
  return state.lost;
}

/**
 * Declared actions a character has taken (or lost) this round, plus its reactions. Never more than
 * its declared actions plus its reactions.
 */
export function actionsTaken(state: SidesState, combatantId: string): number {
  const d = declarationOf(state, combatantId);
  if (d === undefined) return 0;
  const declared = declaredCount(state, combatantId);
  const resolved =
    state.step === "pass" ? Math.min(declared, state.pass - 1) + (includesId(state.done, combatantId) ? 1 : 0) : 0;
  return resolved + d.reactions.length;
}

/**
 * The multiple-action penalty on a character's actions this round, as a dice code:
 * (declared actions + reactions taken − 1) × the per-action penalty, never below 0D.
 */
export function penalty(state: SidesState, combatantId: string): string {
  const d = declarationOf(state, combatantId);
  const count = d === undefined ? 0 : declaredCount(state, combatantId) + d.reactions.length;
  const per = parseDiceCode(state.actionPenalty) ?? ZERO;
  return formatDiceCode(multiplyDiceCode(per, count - 1));
}

/**
 * Characters of the current pass tied on Dexterity and Perception that the GM has not ordered
 * (`orderTied`); each set in its current (joining) order. Only those still to act count; a
 * character that slowed down has left the natural order and is in no tie.
 */
export function pendingTies(state: SidesState): readonly (readonly string[])[] {
  if (!state.started || state.step !== "pass") return [];
  const slowed = state.slowed.map((entry) => entry.combatantId);
  const open = passOrder(state).filter((id) => !includesId(state.done, id) && !slowed.includes(id));
  const key = (id: string): string => {
    const c = findById(state.combatants, id);
    return `${formatDiceCode(trait(c?.dexterity ?? null))}|${formatDiceCode(trait(c?.perception ?? null))}`;
  };
  return unorderedTies(open, key, state.tieOrders);
}

// ---------------------------------------------------------------------------------------------
// Round flow
// ---------------------------------------------------------------------------------------------

/** `Array#sort` is stable; this copies first so the input is never touched. */
function stableSort<T>(list: readonly T[], compare: (a: T, b: T) => number): T[] {
  return [...list].sort(compare);
}

/**
 * Negative: `a` acts first in a pass. Dexterity high → low, Perception high → low (the facts the
 * step began with), GM's order, joining order.
 */
function actorComparator(state: SidesState): (a: string, b: string) => number {
  const keys = new Map<
    string,
    { dex: { dice: number; pips: number }; per: { dice: number; pips: number }; at: number }
  >();
  state.combatants.forEach((c, at) => {
    const f = factsOf(state, c);
    keys.set(c.id, { dex: trait(f.dexterity), per: trait(f.perception), at });
  });
  const none = { dex: ZERO, per: ZERO, at: -1 };
  return (a, b) => {
    const ka = keys.get(a) ?? none;
    const kb = keys.get(b) ?? none;
    const byDex = compareDiceCodes(kb.dex, ka.dex);
    if (byDex !== 0) return byDex;
    const byPer = compareDiceCodes(kb.per, ka.per);
    if (byPer !== 0) return byPer;
    return recordedOrder(state.tieOrders, a, b) || ka.at - kb.at;
  };
}

function startRound(state: SidesState, round: number, events: RuleEvent[]): SidesState {
  events.push({ type: "roundStarted", round });
  return {
    ...state,
    round,
    step: "initiative",
    pass: 0,
    rolls: [],
    sideTieOrders: [],
    sideOrder: [],
    declarations: [],
    done: [],
    due: [],
    slowed: [],
    held: [],
    lost: [],
    tieOrders: [],
  };
}

function beginDeclaration(state: SidesState, events: RuleEvent[]): SidesState {
  const sideOrder = declaringSides(state);
  events.push({ type: "sidesOrdered", round: state.round }, { type: "declarationStarted", round: state.round });
  return { ...state, step: "declaration", sideOrder, held: [] };
}

/** Pass `k` begins with every character with at least k declared actions; with none, the next round. */
function beginPass(state: SidesState, k: number, events: RuleEvent[]): SidesState {
  const actors = state.declarations.filter((d) => !d.hesitated && d.actions.length >= k);
  if (actors.length === 0) return startRound(state, state.round + 1, events);
  events.push({ type: "passStarted", round: state.round });
  // The pass is ordered by the facts of its start: what was held for the step before is let go.
  return { ...state, step: "pass", pass: k, done: [], due: [], slowed: [], held: [] };
}

/** The pass ends: slowed actions still waiting are lost (their penalty stands); the next pass begins. */
function endPass(state: SidesState, events: RuleEvent[]): SidesState {
  const waiting = slowedWaiting(state);
  for (const entry of waiting) {
    events.push({ type: "slowedActionLost", round: state.round, combatantId: entry.combatantId });
  }
  const lost = [...state.lost, ...waiting.map((entry) => ({ combatantId: entry.combatantId, pass: state.pass }))];
  return beginPass({ ...state, lost }, state.pass + 1, events);
}

/** Whether every side with members has rolled and no tie waits for the GM. */
function initiativeComplete(state: SidesState): boolean {
  return activeSides(state).length > 0 && sidesToRoll(state).length === 0 && pendingSideTies(state).length === 0;
}

/** Take every step that needs nobody: all sides rolled, everyone declared, a pass run out. */
function settle(state: SidesState, events: RuleEvent[]): SidesState {
  if (!state.started) return state;
  if (state.step === "initiative" && initiativeComplete(state)) return settle(beginDeclaration(state, events), events);
  if (state.step === "declaration" && currentDeclarer(state) === null)
    return settle(beginPass(state, 1, events), events);
  if (state.step === "pass" && passCurrent(state) === null) return settle(endPass(state, events), events);
  return state;
}

/**
 * The current actor's action is done (or, `lost`, its moment passed without it acting: the action is
 * lost and its penalty stands); characters slowed to follow it act next, in the order they slowed.
 */
function finishAction(state: SidesState, events: RuleEvent[], lost = false): SidesState {
  const current = passCurrent(state);
  if (current === null) return state;
  events.push({ type: lost ? "slowedActionLost" : "actionTaken", round: state.round, combatantId: current });
  const followers = slowedWaiting(state)
    .filter((entry) => entry.after === current)
    .map((entry) => entry.combatantId);
  return {
    ...state,
    done: [...state.done, current],
    // The followers act next, before any earlier follower still due.
    due: [...followers, ...without(state.due, current)],
    lost: lost ? [...state.lost, { combatantId: current, pass: state.pass }] : state.lost,
  };
}

/** Who declares or acts now. */
function currentOf(state: SidesState): string | null {
  return currentDeclarer(state) ?? passCurrent(state);
}

/**
 * Keep a combatant's facts as they are before a side or trait change in the declaration step or a
 * pass, the first time they change there: the running step's orders keep using them.
 */
function holdFacts(state: SidesState, combatantId: string): SidesState {
  if (!state.started || (state.step !== "declaration" && state.step !== "pass")) return state;
  const c = findById(state.combatants, combatantId);
  if (c === undefined || state.held.some((h) => h.combatantId === combatantId)) return state;
  return { ...state, held: [...state.held, currentFacts(c)] };
}

/** `tied` with each of `ids` holding the pass facts of the place it takes in `state`'s pass order. */
function fillTiedPlaces(state: SidesState, tied: SidesState, ids: readonly string[]): SidesState {
  const places = naturalOrder(state).filter((id) => ids.includes(id));
  const facts = new Map<string, HeldFacts>();
  ids.forEach((id, i) => {
    const c = findById(state.combatants, id);
    const from = findById(state.combatants, places[i] ?? id);
    if (c === undefined || from === undefined) return;
    const f = factsOf(state, from);
    facts.set(id, { combatantId: id, sideId: c.sideId, dexterity: f.dexterity, perception: f.perception });
  });
  const kept = tied.held.filter((h) => !facts.has(h.combatantId));
  return { ...tied, held: [...kept, ...ids.flatMap((id) => facts.get(id) ?? [])] };
}

function updateDeclaration(state: SidesState, id: string, change: (d: Declaration) => Declaration): SidesState {
  return { ...state, declarations: state.declarations.map((d) => (d.combatantId === id ? change(d) : d)) };
}

function withoutId(records: readonly (readonly string[])[], id: string): (readonly string[])[] {
  return records.map((record) => without(record, id)).filter((record) => record.length > 1);
}

const COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

function isColour(value: unknown): value is string {
  return typeof value === "string" && COLOUR.test(value);
}

function isSideName(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "" && value.length <= MAX_SIDE_NAME_LENGTH;
}

function isActionText(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_ACTION_TEXT_LENGTH;
}

function isMaxActions(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ACTIONS_LIMIT;
}

function isReactionKind(value: unknown): value is ReactionKind {
  return value === "dodge" || value === "parry";
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

function newCombatant(entry: RosterEntry): SidesCombatant {
  return {
    id: entry.id,
    name: entry.name,
    isPC: entry.isPC,
    sideId: null,
    dexterity: null,
    perception: null,
    initiativeScore: null,
  };
}

/** Refusal for commands of the passes outside them. */
function needPass(state: SidesState): Outcome<SidesState> | null {
  if (!state.started) return refuse("notStarted");
  return state.step === "pass" ? null : refuse("wrongStep");
}

type SidesCommandOf<T extends SidesCommandType> = Extract<SidesCommand, { readonly type: T }>;

/** Why `who` may not declare these actions now, or null (then `declare` accepts them). */
function declareRefusal(
  state: SidesState,
  { combatantId, actions }: SidesCommandOf<"declare">,
  who: Requester,
): Outcome<SidesState> | null {
  if (!state.started) return refuse("notStarted");
  if (state.step !== "declaration") return refuse("wrongStep");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  const existing = declarationOf(state, combatantId);
  if (existing !== undefined) return refuse(existing.hesitated ? "hesitated" : "alreadyDeclared", combatantId);
  if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
  if (actions.length > state.maxActions) return refuse("tooManyActions", combatantId);
  if (!actions.every((a) => isActionText(a.text))) return refuse("invalidValue", combatantId);
  return null;
}

/** Why `who` may not mark the character hesitating now, or null (then `hesitate` accepts it). */
function hesitateRefusal(
  state: SidesState,
  { combatantId }: SidesCommandOf<"hesitate">,
  who: Requester,
): Outcome<SidesState> | null {
  if (!who.isGM) return refuse("notGM");
  if (!state.started) return refuse("notStarted");
  if (state.step !== "declaration") return refuse("wrongStep");
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  const existing = declarationOf(state, combatantId);
  if (existing !== undefined) return refuse(existing.hesitated ? "hesitated" : "alreadyDeclared", combatantId);
  if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
  return null;
}

/** Why `who` may not act for the character in a pass now (a pass running, the character there and theirs), or null. */
function passActorRefusal(state: SidesState, combatantId: string, who: Requester): Outcome<SidesState> | null {
  const wrong = needPass(state);
  if (wrong !== null) return wrong;
  if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
  if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
  return null;
}

/** Why `who` may not make this reaction now, or null (then `react` accepts it). */
function reactRefusal(
  state: SidesState,
  { combatantId, kind }: SidesCommandOf<"react">,
  who: Requester,
): Outcome<SidesState> | null {
  const wrong = passActorRefusal(state, combatantId, who);
  if (wrong !== null) return wrong;
  const d = declarationOf(state, combatantId);
  if (d === undefined) return refuse("notDeclared", combatantId);
  if (d.hesitated) return refuse("hesitated", combatantId);
  if (!isReactionKind(kind)) return refuse("invalidValue", combatantId);
  if (d.reactions.length >= state.maxReactions) return refuse("tooManyReactions", combatantId);
  if (d.actions.length + d.reactions.length >= MAX_ACTIONS_LIMIT) return refuse("tooManyActions", combatantId);
  return null;
}

/** Why `who` may not slow the character down now to act after `after`, or null (then `slowDown` accepts it). */
function slowDownRefusal(
  state: SidesState,
  { combatantId, after }: SidesCommandOf<"slowDown">,
  who: Requester,
): Outcome<SidesState> | null {
  const wrong = passActorRefusal(state, combatantId, who);
  if (wrong !== null) return wrong;
  if (includesId(state.done, combatantId)) return refuse("alreadyActed", combatantId);
  if (state.slowed.some((entry) => entry.combatantId === combatantId)) return refuse("alreadySlowed", combatantId);
  if (!includesId(passOrder(state), combatantId)) return refuse("notInPass", combatantId);
  if (findById(state.combatants, after) === undefined) return refuse("unknownCombatant", after);
  if (after === combatantId) return refuse("invalidValue", after);
  if (includesId(state.done, after)) return refuse("alreadyActed", after);
  return null;
}

/** Why `who` may not let the character's moment pass now, or null (then `letPass` accepts it). */
function letPassRefusal(
  state: SidesState,
  { combatantId }: SidesCommandOf<"letPass">,
  who: Requester,
): Outcome<SidesState> | null {
  const wrong = passActorRefusal(state, combatantId, who);
  if (wrong !== null) return wrong;
  if (!state.slowed.some((entry) => entry.combatantId === combatantId)) return refuse("notSlowed", combatantId);
  if (passCurrent(state) !== combatantId) return refuse("notYourTurn", combatantId);
  return null;
}

const handlers: Handlers<SidesState, SidesCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    const s: SidesState = {
      ...state,
      combatants: state.combatants.filter((c) => c.id !== combatantId),
      sides: state.sides.map((side) => (side.roller === combatantId ? { ...side, roller: null } : side)),
      declarations: state.declarations.filter((d) => d.combatantId !== combatantId),
      done: without(state.done, combatantId),
      due: without(state.due, combatantId),
      held: state.held.filter((h) => h.combatantId !== combatantId),
      slowed: state.slowed
        .filter((entry) => entry.combatantId !== combatantId)
        .map((entry) => (entry.after === combatantId ? { ...entry, after: null } : entry)),
      lost: state.lost.filter((entry) => entry.combatantId !== combatantId),
      tieOrders: withoutId(state.tieOrders, combatantId),
    };
    return accept(s, [{ type: "combatantRemoved", round: s.round, combatantId }]);
  },

  defineSide(state, { sideId, name, colour, isGMSide: mark }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!isId(sideId) || !isSideName(name) || !isColour(colour)) return refuse("invalidValue");
    const existing = findById(state.sides, sideId);
    const events: RuleEvent[] = [{ type: "sideDefined", round: state.round }];
    if (existing === undefined) {
      if (state.sides.length >= MAX_SIDES) return refuse("invalidValue");
      const side: Side = { id: sideId, name: name.trim(), colour, gmSide: mark ?? null, roller: null };
      return accept({ ...state, sides: [...state.sides, side] }, events);
    }
    const side: Side = {
      ...existing,
      name: name.trim(),
      colour,
      gmSide: mark === undefined ? existing.gmSide : mark,
    };
    return accept({ ...state, sides: state.sides.map((x) => (x.id === sideId ? side : x)) }, events);
  },

  removeSide(state, { sideId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    if (sideMembers(state, sideId).length > 0) return refuse("sideNotEmpty");
    const s: SidesState = {
      ...state,
      sides: state.sides.filter((side) => side.id !== sideId),
      rolls: state.rolls.filter((r) => r.sideId !== sideId),
      sideTieOrders: withoutId(state.sideTieOrders, sideId),
      // A held member still declares in this side's place: the side keeps it until the round ends.
      sideOrder: state.held.some((h) => h.sideId === sideId) ? state.sideOrder : without(state.sideOrder, sideId),
    };
    return accept(s, [{ type: "sideRemoved", round: s.round }]);
  },

  setSide(state, { combatantId, sideId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    const s = updateCombatant(holdFacts(state, combatantId), combatantId, (c) => ({ ...c, sideId }));
    return accept(s, [{ type: "sideChanged", round: s.round, combatantId }]);
  },

  setTraits(state, { combatantId, dexterity, perception, initiativeScore }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    const dex = normaliseDiceCode(dexterity);
    const per = normaliseDiceCode(perception);
    const score = normaliseDiceCode(initiativeScore);
    if (dex === null || per === null || score === null) return refuse("invalidValue", combatantId);
    const s = updateCombatant(holdFacts(state, combatantId), combatantId, (c) => ({
      ...c,
      dexterity: dex,
      perception: per,
      initiativeScore: score,
    }));
    return accept(s, [{ type: "traitsChanged", round: s.round, combatantId }]);
  },

  configure(state, { maxActions, actionPenalty, maxReactions = state.maxReactions }, who) {
    if (!who.isGM) return refuse("notGM");
    const per = normaliseDiceCode(actionPenalty);
    if (!isMaxActions(maxActions) || !isMaxActions(maxReactions) || per === null) return refuse("invalidValue");
    return accept({ ...state, maxActions, maxReactions, actionPenalty: per }, [
      { type: "configured", round: state.round },
    ]);
  },

  start(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (state.started) return refuse("alreadyStarted");
    if (state.combatants.length === 0) return refuse("noCombatants");
    const sideless = state.combatants.find((c) => c.sideId === null);
    if (sideless !== undefined) return refuse("noSide", sideless.id);
    const events: RuleEvent[] = [{ type: "combatStarted", round: 1 }];
    return accept(startRound({ ...state, started: true }, 1, events), events);
  },

  setRoller(state, { sideId, combatantId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    if (combatantId !== null) {
      const c = findById(state.combatants, combatantId);
      if (c === undefined) return refuse("unknownCombatant", combatantId);
      if (c.sideId !== sideId) return refuse("notOnSide", combatantId);
    }
    const s: SidesState = {
      ...state,
      sides: state.sides.map((side) => (side.id === sideId ? { ...side, roller: combatantId } : side)),
    };
    const event: RuleEvent =
      combatantId === null
        ? { type: "rollerChosen", round: s.round }
        : { type: "rollerChosen", round: s.round, combatantId };
    return accept(s, [event]);
  },

  recordSideRoll(state, { sideId, total, typed }, who) {
    if (!state.started) return refuse("notStarted");
    // The GM may still correct a roll in the declaration step, until the first declaration.
    const correcting = state.step === "declaration" && state.declarations.length === 0 && who.isGM;
    if (state.step !== "initiative" && !correcting) return refuse("wrongStep");
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    const roller = sideRoller(state, sideId);
    if (roller === null) return refuse("emptySide");
    if (!canControl(who, roller)) return refuse("notOwner", roller);
    if (typed === true && !who.isGM) return refuse("typedResult", roller);
    const old = state.rolls.find((r) => r.sideId === sideId);
    // A side rolls once a round; only the GM re-rolls or corrects it (the old total is kept).
    if (old !== undefined && !who.isGM) return refuse("alreadyRolled");
    if (!isFiniteNumber(total)) return refuse("invalidValue");
    const events: RuleEvent[] = [{ type: "sideRolled", round: state.round, combatantId: roller }];
    if (old === undefined)
      return accept({ ...state, rolls: [...state.rolls, markTyped({ sideId, total }, typed)] }, events, "turn");
    const replaced: SideRoll = markTyped(
      { sideId, total, earlier: [...(old.earlier ?? []), old.total].slice(-MAX_EARLIER_ROLLS) },
      typed,
    );
    // The declaration order is worked out again from the corrected rolls (`settle`); the GM's order
    // of a tie this side was in no longer holds.
    const s: SidesState = {
      ...state,
      step: "initiative",
      sideOrder: [],
      held: [],
      rolls: state.rolls.map((r) => (r.sideId === sideId ? replaced : r)),
      sideTieOrders: withoutId(state.sideTieOrders, sideId),
    };
    return accept(s, events, "turn");
  },

  orderTiedSides(state, { sideIds }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    if (state.step !== "initiative") return refuse("wrongStep");
    if (!pendingSideTies(state).some((tie) => sameSet(sideIds, tie))) return refuse("notTied");
    return accept({ ...state, sideTieOrders: [...state.sideTieOrders, [...sideIds]] });
  },

  declare(state, command, who) {
    const refusal = declareRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId, actions, forcePoint } = command;
    const declaration: Declaration = {
      combatantId,
      actions: actions.map((a) => ({ text: a.text.trim() })),
      forcePoint,
      hesitated: false,
      reactions: [],
    };
    const s: SidesState = { ...state, declarations: [...state.declarations, declaration] };
    return accept(s, [{ type: "declared", round: s.round, combatantId }], "turn");
  },

  hesitate(state, command, who) {
    const refusal = hesitateRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId } = command;
    const declaration: Declaration = { combatantId, actions: [], forcePoint: false, hesitated: true, reactions: [] };
    const s: SidesState = { ...state, declarations: [...state.declarations, declaration] };
    return accept(s, [{ type: "hesitated", round: s.round, combatantId }], "turn");
  },

  orderTied(state, { pass, combatantIds }, who) {
    if (!who.isGM) return refuse("notGM");
    const wrong = needPass(state);
    if (wrong !== null) return wrong;
    if (pass !== state.pass) return refuse("invalidValue");
    if (!pendingTies(state).some((tie) => sameSet(combatantIds, tie))) return refuse("notTied", combatantIds[0]);
    // The tied characters keep the places they hold in the pass, now filled in the GM's order: the
    // newest record orders them (the pass order is derived). One whose traits changed in this pass
    // is ordered by its held ones: each takes the held facts of the place it fills.
    const tied = { ...state, tieOrders: [...state.tieOrders, [...combatantIds]] };
    const s: SidesState = combatantIds.some((id) => state.held.some((h) => h.combatantId === id))
      ? fillTiedPlaces(state, tied, combatantIds)
      : tied;
    return accept(s, [{ type: "tieOrdered", round: s.round }]);
  },

  nextTurn(state, _command, who) {
    if (!state.started) return refuse("notStarted");
    if (state.step === "initiative") {
      const missing = sidesToRoll(state)[0];
      if (missing !== undefined) return refuse("initiativeMissing", sideRoller(state, missing) ?? undefined);
      return pendingSideTies(state).length > 0 ? refuse("tiePending") : refuse("noCombatants");
    }
    if (state.step === "declaration") {
      // Declaring is done by declaring (or hesitating): a player cannot skip a declarer.
      const declarer = currentDeclarer(state) ?? undefined;
      return refuse(who.isGM ? "notDeclared" : "skipDeclarerGM", declarer);
    }
    const current = passCurrent(state);
    if (current === null) return refuse("wrongStep");
    // Someone else's combatant is acting: the reason is ownership, not whose turn it is.
    if (!canControl(who, current)) return refuse("notOwner", current);
    const events: RuleEvent[] = [];
    return accept(finishAction(state, events), events, "turn");
  },

  nextRound(state, _command, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    const events: RuleEvent[] = [];
    return accept(startRound(state, state.round + 1, events), events, "round");
  },

  react(state, command, who) {
    const refusal = reactRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId, kind } = command;
    const s = updateDeclaration(state, combatantId, (x) => ({
      ...x,
      reactions: [...x.reactions, { kind, pass: state.pass }],
    }));
    return accept(s, [{ type: "reacted", round: s.round, combatantId }], "turn");
  },

  slowDown(state, command, who) {
    const refusal = slowDownRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const { combatantId, after } = command;
    const s: SidesState = { ...state, slowed: [...state.slowed, { combatantId, after }] };
    return accept(s, [{ type: "slowedDown", round: s.round, combatantId }], "turn");
  },

  letPass(state, command, who) {
    const refusal = letPassRefusal(state, command, who);
    if (refusal !== null) return refusal;
    const events: RuleEvent[] = [];
    return accept(finishAction(state, events, true), events, "turn");
  },
};

function applyHandler(state: SidesState, command: SidesCommand, who: Requester): Outcome<SidesState> {
  return dispatch(handlers, state, command, who);
}

/**
 * Apply a command, then take every step that needs nobody (all sides rolled → declaration; all
 * declared → pass 1; a pass run out → the next pass or round). A command that moves the round on to
 * another step, or to another round, is an undoable step.
 */
function applyCommand(state: SidesState, command: SidesCommand, who: Requester): Outcome<SidesState> {
  const outcome = applyHandler(state, command, who);
  if (!outcome.ok) return outcome;
  const events = [...outcome.events];
  const after = settle(outcome.state, events);
  const current = currentOf(after);
  const moved = after.round !== state.round || after.step !== state.step || after.pass !== state.pass;
  if (current !== null && (moved || current !== currentOf(state))) {
    events.push({ type: "turnStarted", round: after.round, combatantId: current });
  }
  const step = outcome.step !== undefined || moved ? stepKind(state.round, after.round) : undefined;
  return accept(after, events, step);
}

// ---------------------------------------------------------------------------------------------
// View and allowed actions
// ---------------------------------------------------------------------------------------------

/**
 * One order all round: everyone by the passes' ranking (`ranking`). During a pass, the places its
 * actors hold in it are filled in the pass order, then with the slowed characters still waiting, so
 * a slow-down moves one combatant and nobody else; the declarer is wherever it ranks.
 */
function viewOrder(state: SidesState): readonly string[] {
  const ranked = ranking(state);
  if (!state.started || state.step !== "pass") return ranked;
  const sequence = [...passOrder(state), ...slowedWaiting(state).map((entry) => entry.combatantId)];
  const inPass = new Set(sequence);
  let k = 0;
  return ranked.map((id) => (inPass.has(id) ? (sequence[k++] ?? id) : id));
}

function nextOf(state: SidesState): string | null {
  if (!state.started) return null;
  if (state.step === "declaration") {
    const current = currentDeclarer(state);
    const order = declarationOrder(state);
    const rest = order.slice(order.indexOf(current ?? "") + 1);
    return rest.find((id) => declarationOf(state, id) === undefined) ?? null;
  }
  if (state.step !== "pass") return null;
  const after = settle(finishAction(state, []), []);
  return after.round === state.round ? passCurrent(after) : null;
}

function view(state: SidesState): TurnView {
  return {
    started: state.started,
    round: state.round,
    step: state.started ? state.step : "setup",
    order: viewOrder(state),
    current: currentOf(state),
    next: nextOf(state),
  };
}

type Probe = { readonly action: AllowedAction; readonly command: SidesCommand };

function probes(state: SidesState, who: Requester): Probe[] {
  const list: Probe[] = [
    { action: { type: "start" }, command: { type: "start" } },
    { action: { type: "nextTurn" }, command: { type: "nextTurn" } },
    { action: { type: "nextRound" }, command: { type: "nextRound" } },
  ];
  // Whom a slow-down follows: the first other still to act in the pass, else the first other
  // waiting. Only the first two of each can be that, so each list is looked through once.
  const open = passOrder(state)
    .filter((x) => !includesId(state.done, x))
    .slice(0, 2);
  const waiting = slowedWaiting(state)
    .slice(0, 2)
    .map((entry) => entry.combatantId);
  const other = (id: string): string | undefined => open.find((x) => x !== id) ?? waiting.find((x) => x !== id);
  for (const c of state.combatants) {
    const combatantId = c.id;
    // Every per-combatant command needs the GM or the combatant's owner: skip the rest untried.
    if (!canControl(who, combatantId)) continue;
    const on = (command: SidesCommand): Probe => ({ action: { type: command.type, combatantId }, command });
    const follow = other(combatantId);
    list.push(
      on({ type: "declare", combatantId, actions: [], forcePoint: false }),
      on({ type: "hesitate", combatantId }),
      on({ type: "react", combatantId, kind: "dodge" }),
      on({ type: "letPass", combatantId }),
    );
    if (follow !== undefined) list.push(on({ type: "slowDown", combatantId, after: follow }));
  }
  for (const side of state.sides) {
    const groupId = side.id;
    list.push({
      action: { type: "recordSideRoll", groupId },
      command: { type: "recordSideRoll", sideId: groupId, total: 0 },
    });
  }
  for (const tie of pendingSideTies(state)) {
    const groupId = tie[0];
    if (groupId !== undefined) {
      list.push({ action: { type: "orderTiedSides", groupId }, command: { type: "orderTiedSides", sideIds: tie } });
    }
  }
  for (const tie of pendingTies(state)) {
    const combatantId = tie[0];
    if (combatantId !== undefined) {
      list.push({
        action: { type: "orderTied", combatantId },
        command: { type: "orderTied", pass: state.pass, combatantIds: tie },
      });
    }
  }
  return list;
}

/** What the GM may always do, listed without a trial apply (trying them for every row is quadratic). */
function gmActions(state: SidesState): AllowedAction[] {
  const out: AllowedAction[] = [{ type: "addCombatant" }, { type: "defineSide" }, { type: "configure" }];
  for (const c of state.combatants) {
    const combatantId = c.id;
    out.push(
      { type: "setSide", combatantId },
      { type: "setTraits", combatantId },
      { type: "removeCombatant", combatantId },
    );
  }
  for (const side of state.sides) {
    out.push({ type: "setRoller", groupId: side.id });
    if (sideMembers(state, side.id).length === 0) out.push({ type: "removeSide", groupId: side.id });
  }
  return out;
}

/**
 * The per-character commands tried by their refusal check alone (their handlers, once past it,
 * always accept), so that a trial builds no state for each character: a reaction or a slow-down is
 * open to most of the cast in a pass. `test/rules/sides-allowed.property.test.ts` compares them with
 * trying every command through the handlers.
 */
const refusalChecks: RefusalChecks<SidesState, SidesCommand> = {
  declare: declareRefusal,
  hesitate: hesitateRefusal,
  react: reactRefusal,
  slowDown: slowDownRefusal,
  letPass: letPassRefusal,
};

function allowed(state: SidesState, who: Requester): readonly AllowedAction[] {
  return allowedByTrial(state, who, who.isGM ? gmActions(state) : [], probes(state, who), applyHandler, refusalChecks);
}

// ---------------------------------------------------------------------------------------------
// Untrusted data
// ---------------------------------------------------------------------------------------------

function parseIdList(data: unknown, max: number): string[] | null {
  if (!Array.isArray(data) || data.length < 2 || data.length > max) return null;
  const ids = (data as readonly unknown[]).filter(isId);
  return ids.length === data.length && new Set(ids).size === ids.length ? ids : null;
}

function parseActions(data: unknown): DeclaredAction[] | null {
  if (!Array.isArray(data) || data.length > MAX_ACTIONS_LIMIT) return null;
  const actions: DeclaredAction[] = [];
  for (const item of data as readonly unknown[]) {
    // An entry with a kind is a dodge or parry in disguise: those are never declared.
    if (!isRecord(item) || !isActionText(item.text) || "kind" in item) return null;
    actions.push({ text: item.text });
  }
  return actions;
}

function parseCommand(data: unknown): SidesCommand | null {
  if (!isRecord(data)) return null;
  const d = data;
  const id = d.combatantId;
  const roster = parseRosterCommand(d);
  // Sides keep no defeated flag: `setDefeated` is not one of their commands.
  if (roster !== undefined) return roster?.type === "setDefeated" ? null : roster;
  switch (d.type) {
    case "hesitate":
    case "letPass":
      return isId(id) ? { type: d.type, combatantId: id } : null;
    case "defineSide": {
      const { sideId, name, colour, isGMSide: mark } = d;
      if (!isId(sideId) || !isSideName(name) || !isColour(colour)) return null;
      if (mark === undefined) return { type: "defineSide", sideId, name, colour };
      return mark === null || typeof mark === "boolean"
        ? { type: "defineSide", sideId, name, colour, isGMSide: mark }
        : null;
    }
    case "removeSide":
      return isId(d.sideId) ? { type: "removeSide", sideId: d.sideId } : null;
    case "setSide":
      return isId(id) && isId(d.sideId) ? { type: "setSide", combatantId: id, sideId: d.sideId } : null;
    case "setTraits": {
      const dexterity = normaliseDiceCode(d.dexterity);
      const perception = normaliseDiceCode(d.perception);
      const initiativeScore = normaliseDiceCode(d.initiativeScore);
      if (!isId(id) || dexterity === null || perception === null || initiativeScore === null) return null;
      return { type: "setTraits", combatantId: id, dexterity, perception, initiativeScore };
    }
    case "configure": {
      const actionPenalty = normaliseDiceCode(d.actionPenalty);
      if (!isMaxActions(d.maxActions) || actionPenalty === null) return null;
      if (d.maxReactions === undefined) return { type: "configure", maxActions: d.maxActions, actionPenalty };
      return isMaxActions(d.maxReactions)
        ? { type: "configure", maxActions: d.maxActions, actionPenalty, maxReactions: d.maxReactions }
        : null;
    }
    case "start":
      // The generic tracker may send `surprise: false`; this mode has no surprise round.
      return d.surprise === undefined || d.surprise === false ? { type: "start" } : null;
    case "setRoller":
      if (!isId(d.sideId)) return null;
      if (id === null) return { type: "setRoller", sideId: d.sideId, combatantId: null };
      return isId(id) ? { type: "setRoller", sideId: d.sideId, combatantId: id } : null;
    case "recordSideRoll":
      return isId(d.sideId) && isFiniteNumber(d.total)
        ? { type: "recordSideRoll", sideId: d.sideId, total: d.total, ...parseTyped(d) }
        : null;
    case "orderTiedSides": {
      const sideIds = parseIdList(d.sideIds, MAX_SIDES);
      return sideIds === null ? null : { type: "orderTiedSides", sideIds };
    }
    case "declare": {
      const actions = parseActions(d.actions);
      return isId(id) && actions !== null && typeof d.forcePoint === "boolean"
        ? { type: "declare", combatantId: id, actions, forcePoint: d.forcePoint }
        : null;
    }
    case "orderTied": {
      const combatantIds = parseIdList(d.combatantIds, 1000);
      const pass = d.pass;
      return combatantIds !== null &&
        Number.isInteger(pass) &&
        (pass as number) >= 1 &&
        (pass as number) <= MAX_ACTIONS_LIMIT
        ? { type: "orderTied", pass: pass as number, combatantIds }
        : null;
    }
    case "nextTurn":
    case "nextRound":
      return { type: d.type };
    case "react":
      return isId(id) && isReactionKind(d.kind) ? { type: "react", combatantId: id, kind: d.kind } : null;
    case "slowDown":
      return isId(id) && isId(d.after) ? { type: "slowDown", combatantId: id, after: d.after } : null;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The mode
// ---------------------------------------------------------------------------------------------

function create(roster: readonly RosterEntry[]): SidesState {
  const combatants = oncePerId(roster, newCombatant);
  return {
    combatants,
    sides: [],
    maxActions: DEFAULT_MAX_ACTIONS,
    maxReactions: DEFAULT_MAX_REACTIONS,
    actionPenalty: DEFAULT_ACTION_PENALTY,
    started: false,
    round: 0,
    step: "setup",
    pass: 0,
    rolls: [],
    sideTieOrders: [],
    sideOrder: [],
    declarations: [],
    done: [],
    due: [],
    slowed: [],
    held: [],
    lost: [],
    tieOrders: [],
  };
}

/** Side initiative (RULES.md §1): sides roll, characters declare, then act in passes. */
/**
 * The acting turn: a character's action in a pass, named by round, pass and character. Side rolls and
 * declarations are no turns (docs/modes/sides.md, "Turn events").
 */
export function sidesTurnKey(state: SidesState): string | null {
  if (!state.started || state.step !== "pass") return null;
  const current = currentOf(state);
  return current === null ? null : `${state.round}:pass${state.pass}:${current}`;
}

export const sidesMode: ModeDefinition<SidesState, SidesCommand> = {
  id: "sides",
  create,
  apply: applyCommand,
  view,
  allowed,
  isRosterCommand: (command) => command.type === "addCombatant" || command.type === "removeCombatant",
  parseCommand,
  commandTypes: new Set(Object.keys(handlers)),
  turnKey: sidesTurnKey,
  // Previous round keeps the round's side rolls: it lands where the declaration step began.
  roundStart: (state) => state.started && state.step !== "initiative",
};
