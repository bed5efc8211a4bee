/**
 * The `sides` rules as they were before the declaration and pass orders were derived (they stored
 * `declarationOrder` and `passOrder`, each the whole cast): the reference the derived orders are
 * checked against (`sides-derived.property.test.ts`), and the producer of older-shape states. This
 * is the project's own earlier `src/modes/sides/rules/sides.ts`, kept as it was, with its imports
 * pointed here; it is test code, never built.
 */
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
 * Invariants of a started state:
 * - `declarationOrder`, `passOrder`, `done` and `slowed` name present combatants, each at most once.
 * - During a pass, `done` is a prefix of `passOrder`; the current actor is the first of `passOrder`
 *   not in `done`. A slowed character waiting for its moment is in `slowed` and not in `passOrder`.
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
} from "../../src/core/engine";
import {
  addToRoster,
  allowedByTrial,
  runHandler,
  type Handlers,
  canControl,
  findById,
  includesId,
  insertAt,
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
  updateCombatant,
} from "../../src/core/common";
import {
  compareDiceCodes,
  formatDiceCode,
  multiplyDiceCode,
  normaliseDiceCode,
  parseDiceCode,
} from "../../src/core/dice-code";

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
export type SidesCombatant = {
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
};

/** A side. Its members are the combatants whose `sideId` is its id. */
export type Side = {
  readonly id: string;
  readonly name: string;
  /** A CSS hex colour ("#rrggbb" or "#rgb"). */
  readonly colour: string;
  /** Marked a GM side (true) or a PC side (false) by the GM; null: a GM side when every member is an NPC. */
  readonly gmSide: boolean | null;
  /** The roller the GM picked; null: the member with the best initiative score. */
  readonly roller: string | null;
};

/** A side's initiative roll this round. */
export type SideRoll = TypedMark & {
  readonly sideId: string;
  readonly total: number;
  /** The totals it replaced (the GM's re-rolls and corrections), oldest first; absent when none. */
  readonly earlier?: readonly number[];
};

/** One declared action: what the character says it will do. Dodges and parries are never declared. */
export type DeclaredAction = {
  readonly text: string;
};

/** A reaction: taken when attacked, not declared. */
export type ReactionKind = "dodge" | "parry";

/** A reaction taken this round. */
export type Reaction = {
  readonly kind: ReactionKind;
  /** The pass it was taken in. */
  readonly pass: number;
};

/** A character's declaration this round. A hesitating character has one too, with no actions. */
export type Declaration = {
  readonly combatantId: string;
  readonly actions: readonly DeclaredAction[];
  readonly forcePoint: boolean;
  /** Did not declare in time: no actions this round. */
  readonly hesitated: boolean;
  readonly reactions: readonly Reaction[];
};

/** A character that slowed down in this pass, to act right after `after`. */
export type SlowedEntry = {
  readonly combatantId: string;
  /** The character to follow; null when that one left the encounter (the action will be lost). */
  readonly after: string | null;
};

/** A slowed action that was not taken before its pass ended. */
export type LostAction = {
  readonly combatantId: string;
  readonly pass: number;
};

/** Step keys of `TurnView.step` in this mode ("setup" before the start). */
export type SidesStep = "setup" | "initiative" | "declaration" | "pass";

/** The sides mode's state. Plain JSON data; never mutated. */
export type SidesState = {
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
  /** The order characters declare in, stored when the declaration step begins. */
  readonly declarationOrder: readonly string[];
  /** This round's declarations (and hesitations), in the order they were made. */
  readonly declarations: readonly Declaration[];
  /** The current pass's order (slowed characters move in it), stored when the pass begins. */
  readonly passOrder: readonly string[];
  /** Who has taken its action in the current pass. */
  readonly done: readonly string[];
  /** Who slowed down in the current pass, in the order they did. */
  readonly slowed: readonly SlowedEntry[];
  /** Slowed actions lost this round. */
  readonly lost: readonly LostAction[];
  /** The GM's orders of characters tied on Dexterity and Perception this round, oldest first. */
  readonly tieOrders: readonly (readonly string[])[];
};

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

function joinIndex(state: SidesState, id: string): number {
  return state.combatants.findIndex((c) => c.id === id);
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
  let byState = rollers.get(state);
  if (byState === undefined) {
    byState = new Map();
    rollers.set(state, byState);
  }
  const known = byState.get(sideId);
  if (known !== undefined) return known;
  const roller = findRoller(state, sideId);
  byState.set(sideId, roller);
  return roller;
}

/** Each state's rollers by side, found once (states are never mutated; a tracker row asks per row). */
const rollers = new WeakMap<SidesState, Map<string, string | null>>();

function findRoller(state: SidesState, sideId: string): string | null {
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
  const ties: string[][] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
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
  if (state.step === "declaration" || state.step === "pass") return state.sideOrder;
  const rolled = activeSides(state).filter((id) => sideRoll(state, id) !== null);
  return stableSort(rolled, (a, b) => compareSides(state, a, b));
}

/** A character's declaration this round, if it has declared (or hesitated). */
export function declarationOf(state: SidesState, combatantId: string): Declaration | undefined {
  const list = state.declarations;
  if (list.length < 16) return list.find((d) => d.combatantId === combatantId);
  let index = declarationIndexes.get(list);
  if (index === undefined) {
    const built = new Map<string, Declaration>();
    for (const d of list) if (!built.has(d.combatantId)) built.set(d.combatantId, d);
    declarationIndexes.set(list, built);
    index = built;
  }
  return index.get(combatantId);
}

/** Declarations by combatant, for long lists (states are never mutated). */
const declarationIndexes = new WeakMap<readonly Declaration[], ReadonlyMap<string, Declaration>>();

function declaredCount(state: SidesState, combatantId: string): number {
  const d = declarationOf(state, combatantId);
  return d === undefined || d.hesitated ? 0 : d.actions.length;
}

/** Who declares now (the first in the declaration order who has not), or null outside the declaration step. */
export function currentDeclarer(state: SidesState): string | null {
  if (!state.started || state.step !== "declaration") return null;
  return state.declarationOrder.find((id) => declarationOf(state, id) === undefined) ?? null;
}

/** The current pass number during the passes, else null. */
export function currentPass(state: SidesState): number | null {
  return state.started && state.step === "pass" ? state.pass : null;
}

function passCurrent(state: SidesState): string | null {
  if (!state.started || state.step !== "pass") return null;
  return state.passOrder.find((id) => !includesId(state.done, id)) ?? null;
}

/** Characters that slowed down in this pass and still wait for the one they follow. */
export function slowedWaiting(state: SidesState): readonly SlowedEntry[] {
  return state.slowed.filter((entry) => !state.passOrder.includes(entry.combatantId));
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
  const open = state.passOrder.filter((id) => !includesId(state.done, id) && !slowed.includes(id));
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

/** Negative: `a` acts first in a pass. Dexterity high → low, Perception high → low, GM's order, joining order. */
function compareActors(state: SidesState, a: string, b: string): number {
  const ca = findById(state.combatants, a);
  const cb = findById(state.combatants, b);
  const byDex = compareDiceCodes(trait(cb?.dexterity ?? null), trait(ca?.dexterity ?? null));
  if (byDex !== 0) return byDex;
  const byPer = compareDiceCodes(trait(cb?.perception ?? null), trait(ca?.perception ?? null));
  if (byPer !== 0) return byPer;
  return recordedOrder(state.tieOrders, a, b) || joinIndex(state, a) - joinIndex(state, b);
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
    declarationOrder: [],
    declarations: [],
    passOrder: [],
    done: [],
    slowed: [],
    lost: [],
    tieOrders: [],
  };
}

function beginDeclaration(state: SidesState, events: RuleEvent[]): SidesState {
  const sideOrder = declaringSides(state);
  const declarationOrder = sideOrder.flatMap((sideId) => {
    const members = state.combatants.filter((c) => c.sideId === sideId);
    return stableSort(members, (a, b) => compareDiceCodes(trait(a.perception), trait(b.perception))).map((c) => c.id);
  });
  events.push({ type: "sidesOrdered", round: state.round }, { type: "declarationStarted", round: state.round });
  return { ...state, step: "declaration", sideOrder, declarationOrder };
}

/** Pass `k` begins with every character with at least k declared actions; with none, the next round. */
function beginPass(state: SidesState, k: number, events: RuleEvent[]): SidesState {
  const actors = state.declarations.filter((d) => !d.hesitated && d.actions.length >= k).map((d) => d.combatantId);
  if (actors.length === 0) return startRound(state, state.round + 1, events);
  const ordered = stableSort(actors, (a, b) => compareActors(state, a, b));
  events.push({ type: "passStarted", round: state.round });
  return { ...state, step: "pass", pass: k, passOrder: ordered, done: [], slowed: [] };
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
  const at = state.passOrder.indexOf(current) + 1;
  return {
    ...state,
    done: [...state.done, current],
    passOrder: insertAt(state.passOrder, at, ...followers),
    lost: lost ? [...state.lost, { combatantId: current, pass: state.pass }] : state.lost,
  };
}

/** Who declares or acts now. */
function currentOf(state: SidesState): string | null {
  return currentDeclarer(state) ?? passCurrent(state);
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

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && new Set(a).size === a.length && a.every((id) => b.includes(id));
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

const handlers: Handlers<SidesState, SidesCommand> = {
  addCombatant: (state, { combatant }, who) => addToRoster(state, combatant, who, newCombatant),

  removeCombatant(state, { combatantId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    const s: SidesState = {
      ...state,
      combatants: state.combatants.filter((c) => c.id !== combatantId),
      sides: state.sides.map((side) => (side.roller === combatantId ? { ...side, roller: null } : side)),
      declarationOrder: without(state.declarationOrder, combatantId),
      declarations: state.declarations.filter((d) => d.combatantId !== combatantId),
      passOrder: without(state.passOrder, combatantId),
      done: without(state.done, combatantId),
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
      sideOrder: without(state.sideOrder, sideId),
    };
    return accept(s, [{ type: "sideRemoved", round: s.round }]);
  },

  setSide(state, { combatantId, sideId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (findById(state.sides, sideId) === undefined) return refuse("unknownSide");
    const s = updateCombatant(state, combatantId, (c) => ({ ...c, sideId }));
    return accept(s, [{ type: "sideChanged", round: s.round, combatantId }]);
  },

  setTraits(state, { combatantId, dexterity, perception, initiativeScore }, who) {
    if (!who.isGM) return refuse("notGM");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    const dex = normaliseDiceCode(dexterity);
    const per = normaliseDiceCode(perception);
    const score = normaliseDiceCode(initiativeScore);
    if (dex === null || per === null || score === null) return refuse("invalidValue", combatantId);
    const s = updateCombatant(state, combatantId, (c) => ({
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
      declarationOrder: [],
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

  declare(state, { combatantId, actions, forcePoint }, who) {
    if (!state.started) return refuse("notStarted");
    if (state.step !== "declaration") return refuse("wrongStep");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    const existing = declarationOf(state, combatantId);
    if (existing !== undefined) return refuse(existing.hesitated ? "hesitated" : "alreadyDeclared", combatantId);
    if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
    if (actions.length > state.maxActions) return refuse("tooManyActions", combatantId);
    if (!actions.every((a) => isActionText(a.text))) return refuse("invalidValue", combatantId);
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

  hesitate(state, { combatantId }, who) {
    if (!who.isGM) return refuse("notGM");
    if (!state.started) return refuse("notStarted");
    if (state.step !== "declaration") return refuse("wrongStep");
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    const existing = declarationOf(state, combatantId);
    if (existing !== undefined) return refuse(existing.hesitated ? "hesitated" : "alreadyDeclared", combatantId);
    if (currentDeclarer(state) !== combatantId) return refuse("notYourTurn", combatantId);
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
    // The tied characters keep the places they hold in the pass, now filled in the GM's order.
    const queue = [...combatantIds];
    const passOrder = state.passOrder.map((id) => (combatantIds.includes(id) ? (queue.shift() ?? id) : id));
    const s: SidesState = { ...state, passOrder, tieOrders: [...state.tieOrders, [...combatantIds]] };
    return accept(s, [{ type: "tieOrdered", round: s.round }]);
  },

  nextTurn(state, _command, who) {
    if (!state.started) return refuse("notStarted");
    if (state.step === "initiative") {
      const missing = sidesToRoll(state)[0];
      if (missing !== undefined) return refuse("initiativeMissing", sideRoller(state, missing) ?? undefined);
      return pendingSideTies(state).length > 0 ? refuse("tiePending") : refuse("noCombatants");
    }
    // Refusal texts as today's rules word them (issue 27 item 3): a player cannot skip a declarer.
    if (state.step === "declaration")
      return refuse(who.isGM ? "notDeclared" : "skipDeclarerGM", currentDeclarer(state) ?? undefined);
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

  react(state, { combatantId, kind }, who) {
    const wrong = needPass(state);
    if (wrong !== null) return wrong;
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    const d = declarationOf(state, combatantId);
    if (d === undefined) return refuse("notDeclared", combatantId);
    if (d.hesitated) return refuse("hesitated", combatantId);
    if (!isReactionKind(kind)) return refuse("invalidValue", combatantId);
    if (d.reactions.length >= state.maxReactions) return refuse("tooManyReactions", combatantId);
    if (d.actions.length + d.reactions.length >= MAX_ACTIONS_LIMIT) return refuse("tooManyActions", combatantId);
    const s = updateDeclaration(state, combatantId, (x) => ({
      ...x,
      reactions: [...x.reactions, { kind, pass: state.pass }],
    }));
    return accept(s, [{ type: "reacted", round: s.round, combatantId }], "turn");
  },

  slowDown(state, { combatantId, after }, who) {
    const wrong = needPass(state);
    if (wrong !== null) return wrong;
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (state.done.includes(combatantId)) return refuse("alreadyActed", combatantId);
    if (state.slowed.some((entry) => entry.combatantId === combatantId)) return refuse("alreadySlowed", combatantId);
    if (!state.passOrder.includes(combatantId)) return refuse("notInPass", combatantId);
    if (findById(state.combatants, after) === undefined) return refuse("unknownCombatant", after);
    if (after === combatantId) return refuse("invalidValue", after);
    if (state.done.includes(after)) return refuse("alreadyActed", after);
    const s: SidesState = {
      ...state,
      passOrder: without(state.passOrder, combatantId),
      slowed: [...state.slowed, { combatantId, after }],
    };
    return accept(s, [{ type: "slowedDown", round: s.round, combatantId }], "turn");
  },

  letPass(state, { combatantId }, who) {
    const wrong = needPass(state);
    if (wrong !== null) return wrong;
    if (findById(state.combatants, combatantId) === undefined) return refuse("unknownCombatant", combatantId);
    if (!canControl(who, combatantId)) return refuse("notOwner", combatantId);
    if (!state.slowed.some((entry) => entry.combatantId === combatantId)) return refuse("notSlowed", combatantId);
    if (passCurrent(state) !== combatantId) return refuse("notYourTurn", combatantId);
    const events: RuleEvent[] = [];
    return accept(finishAction(state, events, true), events, "turn");
  },
};

function applyHandler(state: SidesState, command: SidesCommand, who: Requester): Outcome<SidesState> {
  return runHandler(handlers, state, command, who);
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

function bySide(state: SidesState): string[] {
  const ids = state.sides.flatMap((side) => sideMembers(state, side.id));
  return [...ids, ...state.combatants.filter((c) => !ids.includes(c.id)).map((c) => c.id)];
}

function viewOrder(state: SidesState): string[] {
  let head: readonly string[];
  if (!state.started || state.step === "initiative") return bySide(state);
  if (state.step === "declaration") head = state.declarationOrder;
  else head = [...state.passOrder, ...slowedWaiting(state).map((entry) => entry.combatantId)];
  return [...head, ...state.combatants.filter((c) => !head.includes(c.id)).map((c) => c.id)];
}

function nextOf(state: SidesState): string | null {
  if (!state.started) return null;
  if (state.step === "declaration") {
    const current = currentDeclarer(state);
    const rest = state.declarationOrder.slice(state.declarationOrder.indexOf(current ?? "") + 1);
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
  const other = (id: string): string | undefined =>
    state.passOrder.find((x) => x !== id && !state.done.includes(x)) ??
    slowedWaiting(state).find((entry) => entry.combatantId !== id)?.combatantId;
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

function allowed(state: SidesState, who: Requester): readonly AllowedAction[] {
  return allowedByTrial(state, who, who.isGM ? gmActions(state) : [], probes(state, who), applyHandler);
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
    declarationOrder: [],
    declarations: [],
    passOrder: [],
    done: [],
    slowed: [],
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

export const sidesModeV1: ModeDefinition<SidesState, SidesCommand> = {
  id: "sides",
  create,
  apply: applyCommand,
  view,
  allowed,
  isRosterCommand: (command) => command.type === "addCombatant" || command.type === "removeCombatant",
  parseCommand,
  turnKey: sidesTurnKey,
  // Previous round keeps the round's side rolls: it lands where the declaration step began.
  roundStart: (state) => state.started && state.step !== "initiative",
};
