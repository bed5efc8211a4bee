/**
 * JSON diffs and patches, used to store undo snapshots as small reverse patches and to build
 * Foundry update data that sends only what changed. Pure: no Foundry globals.
 */

/** A JSON value as stored in document flags. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/**
 * One patch operation: set the value at a path, delete it (no value), or edit the list of unique
 * strings at a path (`"l"`: see {@link ListEdit}). A path step into an array is an index, or
 * `length` to cut or extend it.
 */
export type PatchOp =
  | readonly [path: readonly string[], value: Json]
  | readonly [path: readonly string[]]
  | readonly [path: readonly string[], edit: ListEdit, kind: "l"];

/**
 * How one list of unique strings (an order of combatant ids) becomes another: drop `d`, then insert
 * each `[index, item]` of `i` in turn (ascending indexes). Moving one combatant is one drop and one
 * insert, whatever the list's length.
 */
export interface ListEdit {
  readonly d: readonly string[];
  readonly i: readonly (readonly [number, string])[];
}

/** A list of operations that turns one JSON object into another. */
export type Patch = readonly PatchOp[];

function isArray(value: Json | undefined): value is readonly Json[] {
  return Array.isArray(value);
}

function isObject(value: unknown): value is { readonly [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep structural equality of two plain-data values (JSON, or a mode state: objects, arrays and
 * primitives). The one equality the engine and the store use.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item: unknown, i) => jsonEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** A key that can stand for a list item in stored flags (no dots, no `-=`, never a marker key). */
const LIST_ITEM_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Whether an array is a list of distinct strings each usable as a key (an order of ids). */
function isKeyList(value: readonly Json[]): value is readonly string[] {
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== "string" || !LIST_ITEM_KEY.test(item) || seen.has(item)) return false;
    seen.add(item);
  }
  return true;
}

/**
 * The indexes (into `values`) of a longest strictly increasing subsequence: the items of a list that
 * can stay where they are when it is reordered. O(n log n).
 */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(values.length).fill(-1);
  values.forEach((value, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((values[tails[mid] ?? 0] ?? 0) < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1] ?? -1;
    tails[lo] = i;
  });
  const keep = new Set<number>();
  for (let i = tails[tails.length - 1] ?? -1; i >= 0; i = previous[i] ?? -1) keep.add(i);
  return keep;
}

/** The edit that turns one list of unique strings into another (see {@link ListEdit}). */
export function listEdit(from: readonly string[], to: readonly string[]): ListEdit {
  const at = new Map(from.map((item, i) => [item, i]));
  const kept = to.filter((item) => at.has(item));
  const stay = longestIncreasing(kept.map((item) => at.get(item) ?? 0));
  const staying = new Set(kept.filter((_, i) => stay.has(i)));
  return {
    d: from.filter((item) => !staying.has(item)),
    i: to.flatMap((item, index): (readonly [number, string])[] => (staying.has(item) ? [] : [[index, item]])),
  };
}

function applyListEdit(target: Json, edit: ListEdit): Json {
  const dropped = new Set(edit.d);
  const list: Json[] = isArray(target) ? target.filter((item) => !dropped.has(item as string)) : [];
  for (const [index, item] of edit.i) list.splice(index, 0, item);
  return list;
}

/** Options of {@link diff}. */
interface DiffOptions {
  /** Compare arrays element by element (patches) or as wholes (Foundry update data). */
  readonly arrays: "elements" | "whole";
}

/**
 * The operations that turn `from` into `to`. Objects are compared key by key; arrays element by
 * element (lists of unique strings as one {@link ListEdit}), or as wholes with `arrays: "whole"`.
 */
export function diff(from: Json, to: Json, path: readonly string[] = [], options?: DiffOptions): PatchOp[] {
  if (jsonEqual(from, to)) return [];
  if (isArray(from) && isArray(to) && options?.arrays !== "whole") return diffArrays(from, to, path);
  if (!isObject(from) || !isObject(to)) return [[path, to]];
  const ops: PatchOp[] = [];
  for (const key of Object.keys(from)) {
    if (!(key in to)) ops.push([[...path, key]]);
  }
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (before === undefined) ops.push([[...path, key], value]);
    else ops.push(...diff(before, value, [...path, key], options));
  }
  return ops;
}

function diffArrays(from: readonly Json[], to: readonly Json[], path: readonly string[]): PatchOp[] {
  const whole: PatchOp[] = [[path, to]];
  let ops: PatchOp[];
  if (isKeyList(from) && isKeyList(to)) ops = [[path, listEdit(from, to), "l"]];
  else {
    ops = [];
    const common = Math.min(from.length, to.length);
    for (let i = 0; i < common; i += 1) ops.push(...diff(from[i] ?? null, to[i] ?? null, [...path, String(i)]));
    for (let i = common; i < to.length; i += 1) ops.push([[...path, String(i)], to[i] ?? null]);
    if (to.length < from.length) ops.push([[...path, "length"], to.length]);
  }
  // Whichever is smaller: a short array that changed throughout travels whole.
  return JSON.stringify(ops).length < JSON.stringify(whole).length ? ops : whole;
}

/** Apply a patch, returning a new value; the input is not mutated. */
export function applyPatch(target: Json, patch: Patch): Json {
  let result = target;
  for (const op of patch) {
    result =
      op.length === 3
        ? applyOp(result, op[0], op[1], "list")
        : applyOp(result, op[0], op[1], op.length === 1 ? "delete" : "set");
  }
  return result;
}

function applyOp(
  target: Json,
  path: readonly string[],
  value: Json | ListEdit | undefined,
  how: "set" | "delete" | "list",
): Json {
  const [head, ...rest] = path;
  if (head === undefined) {
    if (how === "list") return applyListEdit(target, value as ListEdit);
    return how === "delete" ? null : ((value as Json | undefined) ?? null);
  }
  if (isArray(target)) {
    const list: Json[] = [...target];
    if (head === "length" && rest.length === 0) return list.slice(0, typeof value === "number" ? value : list.length);
    const index = Number(head);
    if (!Number.isInteger(index) || index < 0 || index > list.length) return list;
    list[index] = applyOp(list[index] ?? null, rest, value, how);
    return list;
  }
  const base: { [key: string]: Json } = isObject(target) ? { ...target } : {};
  if (rest.length === 0 && how === "delete") {
    return Object.fromEntries(Object.entries(base).filter(([key]) => key !== head));
  }
  base[head] = applyOp(base[head] ?? null, rest, value, how);
  return base;
}

function isListEdit(value: unknown): value is ListEdit {
  if (!isObject(value)) return false;
  const { d, i } = value as { d?: unknown; i?: unknown };
  return (
    Array.isArray(d) &&
    d.every((item) => typeof item === "string") &&
    Array.isArray(i) &&
    i.every(
      (entry: unknown) =>
        Array.isArray(entry) && entry.length === 2 && Number.isInteger(entry[0]) && typeof entry[1] === "string",
    )
  );
}

/** Whether a value is a well-formed patch (flags are untrusted data). */
export function isPatch(value: unknown): value is Patch {
  return (
    Array.isArray(value) &&
    value.every(
      (op: unknown) =>
        Array.isArray(op) &&
        (op.length === 1 || op.length === 2 || (op.length === 3 && op[2] === "l" && isListEdit(op[1]))) &&
        Array.isArray(op[0]) &&
        (op[0] as unknown[]).every((k) => typeof k === "string"),
    )
  );
}

/**
 * Foundry update data for turning `from` into `to` under an object field: nested objects for
 * changed keys and `-=key: null` for deleted ones (Foundry's deletion syntax for object fields).
 */
export function toUpdateData(from: Json, to: Json): { [key: string]: unknown } {
  const update: { [key: string]: unknown } = {};
  for (const op of diff(from, to, [], { arrays: "whole" })) {
    const path = op[0];
    let node = update;
    for (const key of path.slice(0, -1)) {
      const child = node[key];
      if (isObject(child)) node = child;
      else node = node[key] = {};
    }
    const last = path[path.length - 1];
    if (last === undefined) continue;
    if (op.length === 1) node[`-=${last}`] = null;
    else if (op.length === 2) node[last] = op[1];
  }
  return update;
}

/** The key that marks an encoded array and holds its length. */
const ARRAY_LENGTH_KEY = "_a";

/** The key that marks an encoded list of unique strings (each item keyed by itself, valued by its rank). */
const LIST_KEY = "_o";

/**
 * Ranks for a list, keeping the ranks `previous` gave the items that can stay in place (a longest run
 * already in rank order): moving one item re-ranks that item alone. New or moved items get ranks
 * between their neighbours'; when doubles run out of room between two neighbours the whole list is
 * ranked afresh (0, 1, 2, ...), which is rare.
 */
function ranksFor(list: readonly string[], previous: { readonly [key: string]: Json } | undefined): number[] {
  const fresh = list.map((_, i) => i);
  if (previous === undefined || previous[LIST_KEY] !== 1) return fresh;
  const old = list.map((item) => previous[item]);
  const known = old.flatMap((rank, i) => (typeof rank === "number" && Number.isFinite(rank) ? [i] : []));
  const keep = longestIncreasing(known.map((i) => old[i] as number));
  const ranks: (number | undefined)[] = list.map(() => undefined);
  known.forEach((i, k) => {
    if (keep.has(k)) ranks[i] = old[i] as number;
  });
  let i = 0;
  while (i < list.length) {
    if (ranks[i] !== undefined) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < list.length && ranks[j] === undefined) j += 1;
    const low = i > 0 ? ranks[i - 1] : undefined;
    const high = j < list.length ? ranks[j] : undefined;
    const count = j - i;
    for (let k = 1; k <= count; k += 1) {
      let rank: number;
      if (low !== undefined && high !== undefined) {
        const step = (high - low) / (count + 1);
        rank = step >= 1 && count === 1 ? Math.floor(low + step) : low + step * k;
      } else if (low !== undefined) rank = Math.floor(low) + k;
      else if (high !== undefined) rank = Math.ceil(high) - (count + 1 - k);
      else rank = k - 1;
      ranks[i + k - 1] = rank;
    }
    i = j;
  }
  const out = ranks as number[];
  for (let k = 1; k < out.length; k += 1) if (!((out[k] ?? 0) > (out[k - 1] ?? 0))) return fresh;
  return out;
}

/**
 * Encode every array as an object, because Foundry replaces arrays wholesale in an update but merges
 * objects key by key, so one change travels alone instead of the whole array:
 * - a list of unique key-safe strings (an order of ids) as `{_o: 1, <item>: rank}`, with the ranks of
 *   `previous` (the stored form it replaces) kept where the item did not move;
 * - any other array keyed by index, plus its length under `_a`.
 */
export function encodeArrays(value: Json, previous?: Json): Json {
  const before = isObject(previous) ? previous : undefined;
  if (isArray(value)) {
    if (value.length > 1 && isKeyList(value)) {
      const ranks = ranksFor(value, before);
      const out: { [key: string]: Json } = { [LIST_KEY]: 1 };
      value.forEach((item, i) => (out[item] = ranks[i] ?? i));
      return out;
    }
    const out: { [key: string]: Json } = { [ARRAY_LENGTH_KEY]: value.length };
    value.forEach((item: Json, i) => (out[String(i)] = encodeArrays(item, before?.[String(i)])));
    return out;
  }
  if (isObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) out[key] = encodeArrays(item, before?.[key]);
    return out;
  }
  return value;
}

/** Undo `encodeArrays`. */
export function decodeArrays(value: Json): Json {
  if (!isObject(value)) return value;
  if (value[LIST_KEY] === 1) {
    return Object.entries(value)
      .filter((entry): entry is [string, number] => entry[0] !== LIST_KEY && typeof entry[1] === "number")
      .sort((a, b) => a[1] - b[1])
      .map(([item]) => item);
  }
  const length = value[ARRAY_LENGTH_KEY];
  if (typeof length === "number") {
    const out: Json[] = [];
    for (let i = 0; i < length; i += 1) out.push(decodeArrays(value[String(i)] ?? null));
    return out;
  }
  const out: { [key: string]: Json } = {};
  for (const [key, item] of Object.entries(value)) out[key] = decodeArrays(item);
  return out;
}
