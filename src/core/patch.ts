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

/** The operations that turn `from` into `to`. Objects are compared key by key; arrays as wholes. */
export function diff(from: Json, to: Json, path: readonly string[] = []): PatchOp[] {
  if (jsonEqual(from, to)) return [];
  if (!isObject(from) || !isObject(to)) return [[path, to]];
  const ops: PatchOp[] = [];
  for (const key of Object.keys(from)) {
    if (!(key in to)) ops.push([[...path, key]]);
  }
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (before === undefined) ops.push([[...path, key], value]);
    else ops.push(...diff(before, value, [...path, key]));
  }
  return ops;
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
    if (op.length === 1) node[`-=${last}`] = null;
    else node[last] = op[1];
  }
  return update;
}

/** The key that marks an encoded array and holds its length. */
const ARRAY_LENGTH_KEY = "_a";

/**
 * Encode every array as an object keyed by index (plus its length under `_a`). Foundry replaces
 * arrays wholesale in an update but merges objects key by key, so this lets one appended or changed
 * element travel alone instead of the whole array.
 */
export function encodeArrays(value: Json): Json {
  if (Array.isArray(value)) {
    const out: { [key: string]: Json } = { [ARRAY_LENGTH_KEY]: value.length };
    value.forEach((item: Json, i) => (out[String(i)] = encodeArrays(item)));
    return out;
  }
  if (isObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) out[key] = encodeArrays(item);
    return out;
  }
  return value;
}

/** Undo `encodeArrays`. */
export function decodeArrays(value: Json): Json {
  if (!isObject(value)) return value;
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
