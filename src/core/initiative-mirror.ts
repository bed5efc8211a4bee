/**
 * The initiative mirror, pure: the `Combatant#initiative` values that make core's sort (initiative
 * descending, then name, then id) give a structured encounter's turn order, changing as few
 * combatants as it can.
 *
 * A mode says which combatants are *ranked* (they show a number: they have rolled, or the encounter
 * runs) and, for each, the number it would like shown (its check's total), or none. The others keep
 * no initiative (core and other modules read that as "has not rolled") and sort after the ranked
 * ones by name, then id, as core sorts them. The ranked ones take strictly decreasing values along
 * the mode's order. Values already in place that still fall in order are kept (the longest such
 * run); only the others get new values, placed between their kept neighbours. Moving one combatant
 * therefore changes one value; everyone is renumbered only when no room is left between two values.
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
/** How far below its tied neighbour a value with the same hint is placed. */
const TIE_STEP = 0.01;

/** The coarsest rounding of `value` (integer, then 1, 2, … decimals) that stays strictly inside (lo, hi). */
function nice(value: number, lo: number, hi: number): number {
  for (const decimals of [0, 1, 2, 3, 4, 6, 8, 10]) {
    const f = 10 ** decimals;
    const r = Math.round(value * f) / f;
    if (r > lo && r < hi) return r;
  }
  return value;
}

/** A hint level with the value above it (or with one a tie put just below it): a tie, not a move. */
function tied(hint: number | null, upper: number): boolean {
  return hint !== null && hint >= upper && hint - upper < 1;
}

/**
 * Strictly decreasing values for `members` inside the open interval (lo, hi), close to their hints
 * (a tie is placed just below its neighbour; a member without a hint is placed evenly, whole numbers
 * where there is room); null when there is no room.
 */
function fill(members: readonly RankedEntry[], lo: number, hi: number): number[] | null {
  const out: number[] = [];
  let upper = hi;
  members.forEach((member, i) => {
    const after = members.length - i - 1;
    const hint = member.hint;
    let value: number;
    if (hint !== null && hint < upper && hint > lo && (lo === -Infinity || hint - lo > MIN_GAP * (after + 1))) {
      value = hint;
    } else if (upper === Infinity) {
      // Nothing above: count down to the value below (or to zero).
      value = lo === -Infinity ? after + 1 : Math.floor(lo) + after + 1;
    } else if (lo === -Infinity) {
      // Nothing below: a tie sits just under its neighbour, anything else a whole number lower.
      value = tied(hint, upper) ? nice(upper - TIE_STEP, upper - 1, upper) : Math.ceil(upper) - 1;
    } else {
      // Evenly between the two, leaving room for the rest; a tie just under its neighbour.
      const step = (upper - lo) / (after + 2);
      const near = tied(hint, upper) ? Math.min(TIE_STEP, step) : step;
      value = nice(upper - near, upper - 1.5 * near, upper - 0.5 * near);
    }
    out.push(value);
    upper = value;
  });
  let prev = hi;
  for (const v of out) {
    if (!Number.isFinite(v) || v >= prev || (prev !== Infinity && prev - v < MIN_GAP)) return null;
    prev = v;
  }
  if (out.length > 0 && lo !== -Infinity && (out.at(-1) ?? lo) - lo < MIN_GAP) return null;
  return out;
}

/**
 * Which of `ranked` keep their live value: the longest run, in order, of strictly decreasing live
 * values among those whose value is their hint, or a tie's place just below it (or who have no hint).
 * Quadratic in the ranked count.
 */
function kept(ranked: readonly RankedEntry[], live: ReadonlyMap<string, number | null>): Set<number> {
  const value = ranked.map((entry) => {
    const v = live.get(entry.id);
    if (typeof v !== "number" || !Number.isFinite(v)) return null;
    // In place: within 1 of its own number: a tie placed just below it (see `tied`), or a value
    // placed between two neighbours earlier (`fill`), so that moving one combatant does not
    // renumber the run it left or the one it joined.
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
      if (vj === null || vj === undefined || vj <= vi || (length[j] ?? 0) + 1 <= (length[i] ?? 0)) continue;
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
  let upper = Infinity;
  for (let i = 0; i <= ranked.length; i += 1) {
    if (i < ranked.length && !keep.has(i)) continue;
    const anchor = i < ranked.length ? (live.get(ranked[i]?.id ?? "") ?? null) : null;
    const lower = anchor ?? -Infinity;
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
  const values = place(ranked, live) ?? fill(ranked, -Infinity, Infinity) ?? ranked.map((_, i) => ranked.length - i);
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
