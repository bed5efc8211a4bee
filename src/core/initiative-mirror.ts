/**
 * The initiative mirror, pure: the `Combatant#initiative` values that make core's sort (initiative
 * descending, then name, then id) give a structured encounter's turn order, changing as few
 * combatants as it can.
 *
 * A mode says which combatants are *ranked* (they show a number: they have rolled, or the encounter
 * runs) and, for each, the number it would like shown (its check's total), or none. The others keep
 * no initiative (core and other modules read that as "has not rolled") and sort after the ranked
 * ones by name, then id, as core sorts them. The ranked ones take decreasing values along the mode's
 * order: strictly decreasing, except that a tie (neighbours the mode gives the same number) shows that
 * number on each, and the module's `Combat#_sortCombatants` (`src/foundry/combat.ts`), which core's
 * `setupTurns` and modules that re-sort (Carousel Combat Tracker) call, keeps the mode's order inside
 * it. Values already in place that still fall in order are kept (the longest such run); only the
 * others get new values, placed between their kept neighbours. Moving one combatant therefore changes
 * one value; everyone is renumbered only when no room is left between two values.
 */

/** A ranked combatant: its id and the number its mode would like shown (null: none, a place is shown). */
export interface RankedEntry {
  readonly id: string;
  readonly hint: number | null;
}

/** One combatant's new initiative (null: none). */
export interface MirrorChange {
  readonly _id: string;
  readonly initiative: number | null;
}

/** The gap below which two values are too close to place another between them. */
const MIN_GAP = 1e-6;

/** The coarsest rounding of `value` (integer, then 1, 2, … decimals) that stays strictly inside (lo, hi). */
function nice(value: number, lo: number, hi: number): number {
  for (const decimals of [0, 1, 2, 3, 4, 6, 8, 10]) {
    const f = 10 ** decimals;
    const r = Math.round(value * f) / f;
    if (r > lo && r < hi) return r;
  }
  return value;
}

/** Whether two neighbours in the order are a tie: the mode gives both the same number. */
function tie(above: number | null, below: number | null): boolean {
  return above !== null && above === below;
}

/** A bound of an interval to fill: a value (±Infinity: none) and the hint of who holds it. */
interface Bound {
  readonly value: number;
  readonly hint: number | null;
}

/** No bound above or below. */
const NONE_ABOVE: Bound = { value: Infinity, hint: null };
const NONE_BELOW: Bound = { value: -Infinity, hint: null };

/**
 * Decreasing values for `members` between `hi` and `lo`, close to their hints: strictly inside the
 * interval and strictly decreasing, except that a member tied with its neighbour (the same hint)
 * takes that neighbour's value. A member without a hint is placed evenly, whole numbers where there
 * is room. Null when there is no room.
 */
function fill(members: readonly RankedEntry[], lo: Bound, hi: Bound): number[] | null {
  const out: number[] = [];
  let upper = hi.value;
  let upperHint = hi.hint;
  members.forEach((member, i) => {
    const after = members.length - i - 1;
    const hint = member.hint;
    // The last member may share the value below with a tie there (nobody comes between them).
    const floor = after === 0 && tie(hint, lo.hint) ? lo.value : null;
    let value: number;
    if (tie(upperHint, hint) && upper !== Infinity) {
      value = upper;
    } else if (floor !== null && floor < upper) {
      value = floor;
    } else if (
      hint !== null &&
      hint < upper &&
      hint > lo.value &&
      (lo.value === -Infinity || hint - lo.value > MIN_GAP * (after + 1))
    ) {
      value = hint;
    } else if (upper === Infinity) {
      // Nothing above: count down to the value below (or to zero).
      value = lo.value === -Infinity ? after + 1 : Math.floor(lo.value) + after + 1;
    } else if (lo.value === -Infinity) {
      // Nothing below: a whole number lower.
      value = Math.ceil(upper) - 1;
    } else {
      // Evenly between the two, leaving room for the rest.
      const step = (upper - lo.value) / (after + 2);
      value = nice(upper - step, upper - 1.5 * step, upper - 0.5 * step);
    }
    out.push(value);
    upper = value;
    upperHint = hint;
  });
  return ordered(
    [hi, ...out.map((value, i) => ({ value, hint: members[i]?.hint ?? null })), lo].filter(
      (b) => Math.abs(b.value) !== Infinity,
    ),
  )
    ? out
    : null;
}

/** Whether values fall in order: strictly decreasing by at least `MIN_GAP`, or equal within a tie. */
function ordered(values: readonly Bound[]): boolean {
  for (let i = 1; i < values.length; i += 1) {
    const above = values[i - 1];
    const below = values[i];
    if (above === undefined || below === undefined || !Number.isFinite(below.value)) return false;
    if (below.value === above.value && tie(above.hint, below.hint)) continue;
    if (above.value - below.value < MIN_GAP) return false;
  }
  return true;
}

/**
 * Which of `ranked` keep their live value: the longest run, in order, of decreasing live values
 * (strictly, or equal within a tie) among those whose value is near their hint (or who have no hint).
 * Quadratic in the ranked count.
 */
function kept(ranked: readonly RankedEntry[], live: ReadonlyMap<string, number | null>): Set<number> {
  const value = ranked.map((entry) => {
    const v = live.get(entry.id);
    if (typeof v !== "number" || !Number.isFinite(v)) return null;
    // In place: within 1 of its own number: a value placed between two neighbours earlier
    // (`fill`), or a tie's hundredth below its neighbour written by earlier versions, so that moving
    // one combatant does not renumber the run it left or the one it joined.
    return entry.hint === null || Math.abs(entry.hint - v) < 1 ? v : null;
  });
  const length = value.map(() => 0);
  const prev = value.map(() => -1);
  let best = -1;
  for (let i = 0; i < ranked.length; i += 1) {
    const vi = value[i];
    if (vi === null || vi === undefined) continue;
    length[i] = 1;
    for (let j = 0; j < i; j += 1) {
      const vj = value[j];
      if (vj === null || vj === undefined || (length[j] ?? 0) + 1 <= (length[i] ?? 0)) continue;
      if (vj < vi || (vj === vi && !tie(ranked[j]?.hint ?? null, ranked[i]?.hint ?? null))) continue;
      length[i] = (length[j] ?? 0) + 1;
      prev[i] = j;
    }
    if (best < 0 || (length[i] ?? 0) > (length[best] ?? 0)) best = i;
  }
  const keep = new Set<number>();
  for (let i = best; i >= 0; i = prev[i] ?? -1) keep.add(i);
  return keep;
}

/** New values for every ranked combatant, in order: the kept ones as they are, the others filled between. */
function place(ranked: readonly RankedEntry[], live: ReadonlyMap<string, number | null>): number[] | null {
  const keep = kept(ranked, live);
  const values: number[] = [];
  let start = 0;
  let upper: Bound = NONE_ABOVE;
  for (let i = 0; i <= ranked.length; i += 1) {
    if (i < ranked.length && !keep.has(i)) continue;
    const anchor = i < ranked.length ? (live.get(ranked[i]?.id ?? "") ?? null) : null;
    const lower: Bound = anchor === null ? NONE_BELOW : { value: anchor, hint: ranked[i]?.hint ?? null };
    const gap = fill(ranked.slice(start, i), lower, upper);
    if (gap === null) return null;
    values.push(...gap);
    if (anchor !== null) values.push(anchor);
    upper = lower;
    start = i + 1;
  }
  return values;
}

/**
 * The initiative writes that bring the live values in line with the order: `ranked` in turn order
 * (each once), `all` every combatant id (the ones not ranked get no initiative), `live` the values
 * they hold now. Only values that differ are returned.
 */
export function planInitiativeMirror(
  ranked: readonly RankedEntry[],
  all: readonly string[],
  live: ReadonlyMap<string, number | null>,
): MirrorChange[] {
  const values = place(ranked, live) ?? fill(ranked, NONE_BELOW, NONE_ABOVE) ?? ranked.map((_, i) => ranked.length - i);
  const target = new Map<string, number | null>(ranked.map((entry, i) => [entry.id, values[i] ?? null]));
  for (const id of all) if (!target.has(id)) target.set(id, null);
  const changes: MirrorChange[] = [];
  for (const [id, value] of target) {
    if ((live.get(id) ?? null) !== value) changes.push({ _id: id, initiative: value });
  }
  return changes;
}

/**
 * The turn order core's sort gives once the mirror is applied: the ranked ids in the mode's order,
 * then the others by name, then id. Every client derives `combat.turns` with it.
 */
export function mirroredOrder(
  ranked: readonly string[],
  all: readonly string[],
  nameOf: (id: string) => string,
): string[] {
  const rankedSet = new Set(ranked);
  const rest = all
    .filter((id) => !rankedSet.has(id))
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const live = new Set(all);
  return [...ranked.filter((id) => live.has(id)), ...rest];
}
