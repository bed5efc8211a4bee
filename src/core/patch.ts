/**
 * JSON diffs and patches, used to store undo snapshots as small reverse patches and to build
 * Foundry update data that sends only what changed. Pure: no Foundry globals.
 */

/** A JSON value as stored in document flags. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** One patch operation: set the value at a path, or delete it (no value). */
export type PatchOp = readonly [path: readonly string[], value: Json] | readonly [path: readonly string[]];

/** A list of operations that turns one JSON object into another. */
export type Patch = readonly PatchOp[];

function isArray(value: Json | undefined): value is readonly Json[] {
  return Array.isArray(value);
}

function isObject(value: unknown): value is { readonly [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy of plain data (objects, arrays, primitives), sharing nothing with the original. */
export function copyJson(value: Json): Json {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return (value as readonly Json[]).map(copyJson);
  const record = value as { readonly [key: string]: Json };
  const out: { [key: string]: Json } = {};
  for (const key in record) out[key] = copyJson(record[key] ?? null);
  return out;
}

/**
 * Deep structural equality of two plain-data values (JSON, or a mode state: objects, arrays and
 * primitives). The one equality the engine and the store use.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const aList = Array.isArray(a);
  if (aList !== Array.isArray(b)) return false;
  if (aList) {
    const x = a as readonly unknown[];
    const y = b as readonly unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i += 1) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as { readonly [key: string]: unknown };
  const y = b as { readonly [key: string]: unknown };
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) if (!Object.hasOwn(y, key) || !jsonEqual(x[key], y[key])) return false;
  return true;
}

/**
 * The operations that turn `from` into `to`. Objects are compared key by key; arrays as wholes.
 * With `compact` (patches the module applies itself, never Foundry update data), an object whose
 * operations would outweigh it is set whole instead (emptying a long list is one operation).
 */
export function diff(from: Json, to: Json, path: readonly string[] = [], compact = false): PatchOp[] {
  const ops: PatchOp[] = [];
  diffInto(from, to, [...path], compact, ops);
  return ops;
}

/**
 * Append to `ops` the operations that turn `from` into `to` at `path` (a stack shared by the walk,
 * copied only into an operation). Objects are walked once, equal ones giving no operations; any
 * other value is compared whole.
 */
function diffInto(from: Json, to: Json, path: string[], compact: boolean, ops: PatchOp[]): void {
  if (from === to) return;
  if (!isObject(from) || !isObject(to)) {
    if (!jsonEqual(from, to)) ops.push([path.slice(), to]);
    return;
  }
  const first = ops.length;
  for (const key in from) {
    if (!(key in to)) ops.push([[...path, key]]);
  }
  for (const key in to) {
    const value = to[key] as Json;
    const before = from[key];
    if (before === undefined) {
      ops.push([[...path, key], value]);
      continue;
    }
    path.push(key);
    diffInto(before, value, path, compact, ops);
    path.pop();
  }
  const count = ops.length - first;
  if (compact && count > 1) {
    // Set whole when its operations are longer than the object: the object's length is counted only
    // up to theirs, so a long object whose few operations are short is not written out.
    const longer = JSON.stringify(ops.slice(first)).length - 8 * path.length - 8;
    if (jsonLength(to, longer) < longer) {
      ops.length = first;
      ops.push([path.slice(), to]);
    }
  }
}

/**
 * The length of `JSON.stringify(value)` when it is at most `limit`, else some length above `limit`
 * (counting stops there). Plain data only: objects, arrays, strings, numbers, booleans, null, and
 * undefined where JSON leaves a key out or writes null in an array.
 */
export function jsonLength(value: unknown, limit: number): number {
  if (value === undefined) return 0;
  if (typeof value !== "object" || value === null) return (JSON.stringify(value) as string | undefined)?.length ?? 0;
  let length = 1;
  if (Array.isArray(value)) {
    const list = value as readonly unknown[];
    for (let i = 0; i < list.length && length <= limit; i += 1) {
      const item = list[i];
      const bare = item === undefined || typeof item === "function" || typeof item === "symbol";
      length += (i > 0 ? 1 : 0) + (bare ? 4 : jsonLength(item, limit - length));
    }
    return length + 1;
  }
  const record = value as { readonly [key: string]: unknown };
  let first = true;
  for (const key in record) {
    if (length > limit) break;
    const item = record[key];
    if (!Object.hasOwn(record, key) || item === undefined || typeof item === "function" || typeof item === "symbol")
      continue;
    length += (first ? 0 : 1) + JSON.stringify(key).length + 1 + jsonLength(item, limit - length);
    first = false;
  }
  return length + 1;
}

/** Apply a patch, returning a new value; the input is not mutated. */
export function applyPatch(target: Json, patch: Patch): Json {
  let result = target;
  for (const op of patch) result = applyOp(result, op[0], op.length === 2 ? op[1] : undefined, op.length === 1);
  return result;
}

function applyOp(target: Json, path: readonly string[], value: Json | undefined, remove: boolean): Json {
  const [head, ...rest] = path;
  if (head === undefined) return remove ? null : (value ?? null);
  const base: { [key: string]: Json } = isObject(target) ? { ...target } : {};
  if (rest.length === 0 && remove) {
    return Object.fromEntries(Object.entries(base).filter(([key]) => key !== head));
  }
  base[head] = applyOp(base[head] ?? null, rest, value, remove);
  return base;
}

/** Whether a value is a well-formed patch (flags are untrusted data). */
export function isPatch(value: unknown): value is Patch {
  return (
    Array.isArray(value) &&
    value.every(
      (op: unknown) =>
        Array.isArray(op) &&
        (op.length === 1 || op.length === 2) &&
        Array.isArray(op[0]) &&
        (op[0] as unknown[]).every((k) => typeof k === "string"),
    )
  );
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

/** The update-data key that deletes `key` from an object field (v13's syntax; see `toUpdateData`). */
export function deletionKey(key: string): string {
  return `-=${key}`;
}

/** The key an update-data key deletes ({@link deletionKey}), or null when it sets its key. */
export function deletedBy(updateKey: string): string | null {
  return updateKey.startsWith("-=") ? updateKey.slice(2) : null;
}

/**
 * Foundry update data for turning `from` into `to` under an object field: nested objects for
 * changed keys and `-=key: null` for deleted ones (Foundry's deletion syntax for object fields).
 */
export function toUpdateData(from: Json, to: Json): { [key: string]: unknown } {
  const update: { [key: string]: unknown } = {};
  for (const op of diff(from, to)) {
    const path = op[0];
    let node = update;
    for (const key of path.slice(0, -1)) {
      const child = node[key];
      if (isObject(child)) node = child;
      else node = node[key] = {};
    }
    const last = path[path.length - 1];
    if (last === undefined) continue;
    if (op.length === 1) node[deletionKey(last)] = null;
    else node[last] = op[1];
  }
  return update;
}

/** The key that marks an encoded array and holds its length (elements at or past it are stale). */
const ARRAY_LENGTH_KEY = "_a";

/** The key that marks an encoded list of unique strings and holds its floor (lower ranks are stale). */
const LIST_KEY = "_o";

type Encoded = { readonly [key: string]: Json };

/**
 * Ranks for a list, keeping the (live) ranks `previous` gave the items that can stay in place (a
 * longest run already in rank order): moving one item re-ranks that item alone. New or moved items
 * get ranks between their neighbours'; when doubles run out of room the list is ranked afresh.
 */
function ranksFor(list: readonly string[], live: ReadonlyMap<string, number>, floor: number): number[] {
  const fresh = list.map((_, i) => floor + i);
  const known = list.flatMap((item, i) => (live.has(item) ? [i] : []));
  const keep = longestIncreasing(known.map((i) => live.get(list[i] ?? "") ?? 0));
  const ranks: (number | undefined)[] = list.map(() => undefined);
  known.forEach((i, k) => {
    if (keep.has(k)) ranks[i] = live.get(list[i] ?? "");
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
      if (low !== undefined && high !== undefined) rank = low + ((high - low) / (count + 1)) * k;
      else if (low !== undefined) rank = Math.floor(low) + k;
      else if (high !== undefined) rank = Math.max(floor, Math.ceil(high) - (count + 1)) + k - 1;
      else rank = floor + k - 1;
      ranks[i + k - 1] = rank;
    }
    i = j;
  }
  const out = ranks as number[];
  for (let k = 0; k < out.length; k += 1) {
    if (!((out[k] ?? 0) >= floor) || (k > 0 && !((out[k] ?? 0) > (out[k - 1] ?? 0)))) return fresh;
  }
  return out;
}

/**
 * A list of unique strings as `{_o: floor, <item>: rank}`; an item is in the list when its rank is at
 * least the floor. Against the stored form it replaces, either the items that stayed keep their
 * ranks and only moved, new and dropped items change; or, when that would touch more keys, the floor
 * is raised past every old rank (one key turns the whole old list stale) and the items are ranked
 * anew above it. Stale entries are kept, so an undo can bring an old list back by lowering the floor.
 */
function encodeList(list: readonly string[], previous: Encoded | undefined): Encoded {
  const oldFloor = typeof previous?.[LIST_KEY] === "number" ? previous[LIST_KEY] : undefined;
  if (previous === undefined || oldFloor === undefined) {
    const out: { [key: string]: Json } = { [LIST_KEY]: 0 };
    list.forEach((item, i) => (out[item] = i));
    return out;
  }
  const entries = Object.entries(previous).filter(
    (entry): entry is [string, number] => entry[0] !== LIST_KEY && typeof entry[1] === "number",
  );
  const live = new Map(entries.filter(([, rank]) => rank >= oldFloor));
  const ranks = ranksFor(list, live, oldFloor);
  const inList = new Set(list);
  const keep: { [key: string]: Json } = { [LIST_KEY]: oldFloor };
  for (const [item, rank] of entries) if (rank < oldFloor && !inList.has(item)) keep[item] = rank;
  list.forEach((item, i) => (keep[item] = ranks[i] ?? i));
  const changedKeep =
    list.filter((item, i) => previous[item] !== ranks[i]).length +
    [...live.keys()].filter((item) => !inList.has(item)).length;
  if (changedKeep <= list.length + 1) return keep;
  const floor = Math.floor(Math.max(oldFloor, ...entries.map(([, rank]) => rank))) + 1;
  const raised: { [key: string]: Json } = { ...Object.fromEntries(entries), [LIST_KEY]: floor };
  list.forEach((item, i) => (raised[item] = floor + i));
  return raised;
}

/**
 * The stored form each object or array of a state, the state itself included, was loaded from,
 * written as or encoded as (see {@link encodeArrays}). No table of the module holds these: a loaded
 * revision keeps one (`LoadedEncounter.forms` in store.ts) and hands it on to the revision its write
 * makes. States are never changed once made (test/unit/frozen-revisions.test.ts proves what relies on
 * it), and a rule's new state shares what did not change with the state before it, so encoding it
 * against that state's stored form meets the same objects again.
 */
export type StoredForms = WeakMap<object, Json>;

/**
 * Encode every array as an object, because Foundry replaces arrays wholesale in an update but merges
 * objects key by key, so one change travels alone instead of the whole array: a list of unique
 * key-safe strings (an order of ids) as ranks (see {@link encodeList}); any other array keyed by
 * index, plus its length under `_a`. `previous` is the stored form this one replaces: ranks are
 * kept where items did not move, and elements past a shortened array's end are kept (stale) rather
 * than deleted, so emptying a list or an array is one key.
 *
 * With `forms`, an object or array that was encoded as the very object `previous` holds at its place
 * is that form again (encoding a value against its own form gives that form back), so it is reused,
 * not walked: encoding a state against the form of the state it came from walks only what changed,
 * and the diffs between the two forms skip what they share (`diff` compares identical objects in one
 * step). Each object encoded is remembered in `forms` with its form.
 */
export function encodeArrays(value: Json, previous?: Json, forms?: StoredForms): Json {
  if (typeof value !== "object" || value === null) return value;
  if (typeof previous === "object" && previous !== null && forms?.get(value) === previous) return previous;
  const out = encodeFresh(value, previous, forms);
  if (typeof out === "object" && out !== null) forms?.set(value, out);
  return out;
}

function encodeFresh(value: Json, previous: Json | undefined, forms: StoredForms | undefined): Json {
  const before = isObject(previous) ? previous : undefined;
  if (isArray(value)) {
    // An emptied array of other things stays one (its length key), rather than turning into a list.
    const emptied = value.length === 0 && before !== undefined && ARRAY_LENGTH_KEY in before;
    if (isKeyList(value) && !emptied)
      return encodeList(value, before !== undefined && LIST_KEY in before ? before : undefined);
    const out: { [key: string]: Json } = { [ARRAY_LENGTH_KEY]: value.length };
    if (before !== undefined && ARRAY_LENGTH_KEY in before) {
      for (const [key, item] of Object.entries(before))
        if (key !== ARRAY_LENGTH_KEY && Number(key) >= value.length) out[key] = item;
    }
    value.forEach((item: Json, i) => (out[String(i)] = encodeArrays(item, before?.[String(i)], forms)));
    return out;
  }
  if (isObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) out[key] = encodeArrays(item, before?.[key], forms);
    return out;
  }
  return value;
}

/** Undo `encodeArrays`. */
export function decodeArrays(value: Json): Json {
  if (!isObject(value)) return value;
  const floor = value[LIST_KEY];
  if (typeof floor === "number") {
    return Object.entries(value)
      .filter(
        (entry): entry is [string, number] =>
          entry[0] !== LIST_KEY && typeof entry[1] === "number" && entry[1] >= floor,
      )
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
