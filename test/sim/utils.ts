/**
 * Object helpers of the simulated Foundry, shared by the server and every realm's `foundry.utils`.
 * Semantics follow Foundry's public API pages for `foundry.utils`
 * (https://foundryvtt.com/api/modules/foundry.utils.html): dotted keys, `-=key` deletion and
 * `==key` forced replacement in updates. Written from the documented behaviour, not from core code.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Dict = Record<string, unknown>;

/**
 * v14's operators serialise under this key (https://foundryvtt.com/api/v14/variables/foundry.data.operators.OPERATOR_IDENTIFIER.html);
 * the sim's `ForcedDeletion` carries it as an own property holding its class name, so it reads the
 * same before and after the socket's JSON.
 */
export const OPERATOR_IDENTIFIER = "__$OPERATOR$__";

/** Whether a value is v14's `ForcedDeletion` (https://foundryvtt.com/api/v14/classes/foundry.data.operators.ForcedDeletion.html). */
export function isForcedDeletion(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as Dict)[OPERATOR_IDENTIFIER] === "ForcedDeletion";
}

export function isPlainObject(v: unknown): v is Dict {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  // Objects from another realm have that realm's Object.prototype: accept any prototype-less or
  // prototype-is-an-Object.prototype object.
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** JSON-safe deep copy (functions and undefined dropped), like `foundry.utils.deepClone` for data. */
export function deepClone<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x: unknown) => deepClone(x)) as T;
  if (isPlainObject(v)) {
    const out: Dict = {};
    for (const [k, x] of Object.entries(v)) out[k] = deepClone(x);
    return out as T;
  }
  if (v instanceof Date) return new Date(v.getTime()) as T;
  return v;
}

export function toJson(v: unknown): Json {
  return JSON.parse(JSON.stringify(v ?? null)) as Json;
}

export function toJsonObject(v: unknown): JsonObject {
  const j = toJson(v);
  if (!isPlainObject(j)) throw new Error("Expected an object");
  return j;
}

export function getProperty(obj: unknown, key: string): unknown {
  if (!key) return undefined;
  if (isPlainObject(obj) && key in obj) return obj[key];
  let cur: unknown = obj;
  for (const part of key.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Dict)[part];
  }
  return cur;
}

export function setProperty(obj: Dict, key: string, value: unknown): boolean {
  const parts = key.split(".");
  const last = parts.pop() ?? key;
  let cur: Dict = obj;
  for (const p of parts) {
    const next = cur[p];
    if (!isPlainObject(next)) cur[p] = {};
    cur = cur[p] as Dict;
  }
  const changed = cur[last] !== value;
  cur[last] = value;
  return changed;
}

/** `{"a.b": 1}` -> `{a: {b: 1}}` (https://foundryvtt.com/api/functions/foundry.utils.expandObject.html). */
export function expandObject(obj: Dict): Dict {
  const out: Dict = {};
  for (const [k, v] of Object.entries(obj)) {
    const val = isPlainObject(v) ? expandObject(v) : deepClone(v);
    const existing = getProperty(out, k);
    if (isPlainObject(existing) && isPlainObject(val)) mergeObject(existing, val);
    else setProperty(out, k, val);
  }
  return out;
}

export function flattenObject(obj: Dict, prefix = ""): Dict {
  const out: Dict = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length) Object.assign(out, flattenObject(v, key));
    else out[key] = v;
  }
  return out;
}

export interface MergeOptions {
  insertKeys?: boolean;
  overwrite?: boolean;
  recursive?: boolean;
  inplace?: boolean;
  performDeletions?: boolean;
}

/**
 * `foundry.utils.mergeObject` (https://foundryvtt.com/api/functions/foundry.utils.mergeObject.html):
 * merges `other` into `original` (in place by default); dotted keys are expanded;
 * with `performDeletions`, `-=key` deletes and `==key` replaces without merging.
 */
export function mergeObject<T extends Dict>(original: T, other: Dict = {}, options: MergeOptions = {}): T {
  const o = { insertKeys: true, overwrite: true, recursive: true, inplace: true, performDeletions: false, ...options };
  const target: Dict = o.inplace ? original : deepClone(original);
  const src = Object.keys(other).some((k) => k.includes(".")) ? expandObject(other) : other;
  for (const [key, v] of Object.entries(src)) {
    // v14: `{key: new ForcedDeletion()}` deletes the key (https://github.com/sun-dragon-cult/fvtt-system-rqg/issues/890).
    if (o.performDeletions && isForcedDeletion(v)) {
      Reflect.deleteProperty(target, key);
      continue;
    }
    if (o.performDeletions && key.startsWith("-=")) {
      Reflect.deleteProperty(target, key.slice(2));
      continue;
    }
    if (o.performDeletions && key.startsWith("==")) {
      target[key.slice(2)] = deepClone(v);
      continue;
    }
    const exists = Object.prototype.hasOwnProperty.call(target, key);
    const cur = target[key];
    if (exists && isPlainObject(cur) && isPlainObject(v) && o.recursive) {
      mergeObject(cur, v, { ...o, inplace: true });
    } else if (exists) {
      if (o.overwrite) target[key] = deepClone(v);
    } else if (o.insertKeys) {
      target[key] = deepClone(v);
    }
  }
  return target as T;
}

export function objectsEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Keys of `other` whose values differ from `original` (https://foundryvtt.com/api/functions/foundry.utils.diffObject.html). */
export function diffObject(
  original: Dict,
  other: Dict,
  { deletionKeys = true }: { deletionKeys?: boolean } = {},
): Dict {
  const out: Dict = {};
  for (const [k, v] of Object.entries(other)) {
    if (deletionKeys && (k.startsWith("-=") || k.startsWith("=="))) {
      if (k.startsWith("==") || k.slice(2) in original) out[k] = v;
      continue;
    }
    if (isForcedDeletion(v)) {
      if (k in original) out[k] = v;
      continue;
    }
    const cur = original[k];
    if (isPlainObject(v) && isPlainObject(cur)) {
      const d = diffObject(cur, v, { deletionKeys });
      if (Object.keys(d).length) out[k] = d;
    } else if (!(k in original) || !objectsEqual(cur, v)) out[k] = v;
  }
  return out;
}

export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Map || v instanceof Set) return v.size === 0;
  if (typeof v === "object") return Object.keys(v).length === 0;
  return false;
}

/** Seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
let idRandom = prng(0x5eed);
export function resetIds(seed: number): void {
  idRandom = prng(seed);
}
/** 16-character ids like `foundry.utils.randomID` (deterministic here so test runs are repeatable). */
export function randomID(length = 16): string {
  let s = "";
  for (let i = 0; i < length; i++) s += ID_CHARS[Math.floor(idRandom() * ID_CHARS.length)] ?? "a";
  return s;
}

export const macrotask: (fn: () => void) => void =
  typeof setImmediate === "function" ? (fn) => void setImmediate(fn) : (fn) => void setTimeout(fn, 0);

/**
 * Let the simulated server deliver `n` more messages (each delivery is one `macrotask`) before the
 * caller goes on: no wall-clock time, only the sim's own turns.
 */
export async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await new Promise<void>((resolve) => {
      macrotask(resolve);
    });
}
