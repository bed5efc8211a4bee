/** The sides mode's derived helpers: what the tracker and the rules read off the state (orders, rolls, ties, penalties). */
import { findById, includesId } from "../../../core/common";
import { compareDiceCodes, formatDiceCode, multiplyDiceCode, parseDiceCode } from "../../../core/dice-code";
import type { SidesState, SidesCombatant, Declaration, HeldFacts, SlowedEntry, LostAction } from "./types";

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

/**
 * The GM's order for two tied entries, as a comparator: the latest record naming both decides
 * (negative: `a` first); 0 when none does. Each entry's places in the records are listed once, so a
 * comparison looks through the records naming `a`, not through every record (a sort compares the
 * same entries many times).
 */
function recordedOrder(records: readonly (readonly string[])[]): (a: string, b: string) => number {
  // Per entry: record index → its first place there, records in order.
  const places = new Map<string, Map<number, number>>();
  records.forEach((record, i) => {
    record.forEach((id, at) => {
      let of = places.get(id);
      if (of === undefined) places.set(id, (of = new Map<number, number>()));
      if (!of.has(i)) of.set(i, at);
    });
  });
  return (a, b) => {
    const inB = places.get(b);
    if (inB === undefined) return 0;
    let order = 0;
    for (const [i, at] of places.get(a) ?? []) {
      const other = inB.get(i);
      if (other !== undefined) order = at - other;
    }
    return order;
  };
}

/** Negative: side `a` declares first. Lower roll first; equal: GM side first; then the GM's order. */
function sideComparator(state: SidesState): (a: string, b: string) => number {
  const byRecords = recordedOrder(state.sideTieOrders);
  return (a, b) => {
    const byRoll = (sideRoll(state, a) ?? 0) - (sideRoll(state, b) ?? 0);
    if (byRoll !== 0) return byRoll;
    const byKind = Number(isGMSide(state, b)) - Number(isGMSide(state, a));
    if (byKind !== 0) return byKind;
    return byRecords(a, b);
  };
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
  // Two entries are ordered when a record names both (recordedOrder's comparator is then not 0).
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
  return stableSort(rolled, sideComparator(state));
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
export function currentFacts(c: SidesCombatant): HeldFacts {
  return { combatantId: c.id, sideId: c.sideId, dexterity: c.dexterity, perception: c.perception };
}

/** The facts the running step's orders use: held ones when changed in it, else the current ones. */
export function factsOf(state: SidesState, c: SidesCombatant): HeldFacts {
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
 * Whether the character is in the current pass's order (`passOrder`), found without ranking the
 * pass: who acted or is due, or whoever declared enough actions and has not slowed down.
 */
export function inPassOrder(state: SidesState, combatantId: string): boolean {
  if (!state.started || state.step !== "pass") return false;
  if (state.done.includes(combatantId) || state.due.includes(combatantId)) return true;
  if (state.slowed.some((entry) => entry.combatantId === combatantId)) return false;
  return state.declarations.some(
    (x) => x.combatantId === combatantId && !x.hesitated && x.actions.length >= state.pass,
  );
}

/**
 * Everyone ranked as the passes rank them (Dexterity, then Perception, highest first; the GM's tie
 * orders; joining order): the tracker's order all round.
 */
export function ranking(state: SidesState): readonly string[] {
  return stableSort(
    state.combatants.map((c) => c.id),
    actorComparator(state),
  );
}

/** The current pass number during the passes, else null. */
export function currentPass(state: SidesState): number | null {
  return state.started && state.step === "pass" ? state.pass : null;
}

export function passCurrent(state: SidesState): string | null {
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
  const byRecords = recordedOrder(state.tieOrders);
  return (a, b) => {
    const ka = keys.get(a) ?? none;
    const kb = keys.get(b) ?? none;
    const byDex = compareDiceCodes(kb.dex, ka.dex);
    if (byDex !== 0) return byDex;
    const byPer = compareDiceCodes(kb.per, ka.per);
    if (byPer !== 0) return byPer;
    return byRecords(a, b) || ka.at - kb.at;
  };
}
