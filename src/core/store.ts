/**
 * How an encounter is kept in a Combat's flags, and how one step becomes one small update.
 *
 * `flags.structured-initiative.encounter` holds the mode state, a revision counter and the undo
 * history. Each undo snapshot is stored under its own key as a reverse patch against the state that
 * followed it, so a step writes one new small entry (and deletes the oldest when the bound is hit):
 * the size of an update does not grow with the history's length. Pure: no Foundry globals.
 */
import type { Encounter, ModeId, Snapshot, StepKind } from "./engine";
import { applyPatch, decodeArrays, diff, encodeArrays, isPatch, toUpdateData, type Json, type Patch } from "./patch";

/** One stored undo entry. */
export interface StoredSnapshot {
  readonly kind: StepKind;
  /** Turns the state that followed this snapshot back into it. */
  readonly undo: Patch;
}

/** The storage format this version of the module reads and writes. */
export const STORED_VERSION = 1;

/**
 * Whether untrusted flag data is an encounter stored by a newer version of the module (a format it
 * cannot read): such data is refused and never overwritten, so a module downgrade loses nothing.
 */
export function isNewerFormat(value: unknown): boolean {
  const v = typeof value === "object" && value !== null ? (value as { v?: unknown }).v : undefined;
  return typeof v === "number" && Number.isInteger(v) && v > STORED_VERSION;
}

/** The stored form of an encounter. */
export interface StoredEncounter {
  /** Storage format version. */
  readonly v: 1;
  /** Incremented by every write. */
  readonly rev: number;
  /** The next history key. */
  readonly seq: number;
  /** The id of the last player request applied (lets the requester resolve its promise). */
  readonly applied: string | null;
  /** The mode state with arrays encoded as objects (see `encodeArrays`). */
  readonly state: Json;
  /** Undo entries keyed by a increasing sequence number (as a string). */
  readonly history: { readonly [seq: string]: StoredSnapshot };
}

/**
 * A player's request, written on a combatant the player owns (player-writable). It is stored as one
 * JSON string (see `encodeRequest`): Foundry merges object updates key by key and sends only the keys
 * that changed, so an object would reach the GM as a partial diff, and keys of an earlier request
 * (say a delay's `after`) would survive into the next one.
 */
export interface StoredRequest {
  /** A fresh random id per request. */
  readonly id: string;
  /** The user the request claims to come from; must equal the server-attested author. */
  readonly userId: string;
  readonly combatId: string;
  readonly command: Json;
}

/** The loaded form: the rules' encounter plus the storage bookkeeping the next write needs. */
export interface LoadedEncounter<S> {
  readonly encounter: Encounter<S>;
  readonly stored: StoredEncounter;
  /** The history key of each snapshot, in the same order as `encounter.history`. */
  readonly seqs: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Narrow untrusted flag data to a stored encounter, or null when it is malformed. */
export function parseStoredEncounter(value: unknown): StoredEncounter | null {
  if (!isRecord(value)) return null;
  const { v, rev, seq, applied, state, history } = value;
  if (v !== STORED_VERSION || !Number.isInteger(rev) || !Number.isInteger(seq)) return null;
  if (applied !== null && typeof applied !== "string") return null;
  if (!isRecord(state) || !isRecord(history)) return null;
  for (const entry of Object.values(history)) {
    if (!isRecord(entry) || (entry.kind !== "turn" && entry.kind !== "round") || !isPatch(entry.undo)) return null;
  }
  return value as unknown as StoredEncounter;
}

/** The stored (flag) form of a request: the whole request as one string, replaced wholesale by every write. */
export function encodeRequest(request: StoredRequest): string {
  return JSON.stringify(request);
}

/** Narrow a player's request flag (the string `encodeRequest` wrote), or null when it is malformed. */
export function parseStoredRequest(raw: unknown): StoredRequest | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { id, userId, combatId, command } = value;
  if (typeof id !== "string" || typeof userId !== "string" || typeof combatId !== "string") return null;
  if (!isRecord(command)) return null;
  return value as unknown as StoredRequest;
}

/** A fresh stored encounter for a newly created state. */
export function initialStored(state: Json): StoredEncounter {
  return { v: 1, rev: 0, seq: 0, applied: null, state: encodeArrays(state), history: {} };
}

/**
 * Rebuild the rules' encounter from storage, walking the reverse patches from the current state back.
 * `parseState` narrows each reconstructed state; a malformed one makes the whole load fail.
 */
export function loadEncounter<S>(
  mode: ModeId,
  stored: StoredEncounter,
  parseState: (data: unknown) => S | null,
): LoadedEncounter<S> | null {
  const state = parseState(decodeArrays(stored.state));
  if (state === null) return null;
  const seqs = Object.keys(stored.history).sort((a, b) => Number(a) - Number(b));
  const history: Snapshot<S>[] = [];
  let after: Json = stored.state;
  for (let i = seqs.length - 1; i >= 0; i -= 1) {
    const entry = stored.history[seqs[i] ?? ""];
    if (entry === undefined) return null;
    after = applyPatch(after, entry.undo);
    const snap = parseState(decodeArrays(after));
    if (snap === null) return null;
    history.unshift({ kind: entry.kind, state: snap });
  }
  return { encounter: { mode, state, history }, stored, seqs };
}

/**
 * The new stored encounter and the minimal Foundry update data (relative to the encounter flag)
 * for going from `before` to `next`. History entries kept from `before` (same snapshot object) keep
 * their key and are rewritten only when their patch changed; dropped ones are deleted.
 */
export function encodeEncounter<S>(
  before: LoadedEncounter<S>,
  next: Encounter<S>,
  appliedRequest: string | null,
): { stored: StoredEncounter; update: { [key: string]: unknown }; loaded: LoadedEncounter<S> } {
  const toJson = (s: S): Json => encodeArrays(s as unknown as Json);
  let seq = before.stored.seq;
  const followingOf = (history: readonly Snapshot<S>[], current: S, i: number): S => history[i + 1]?.state ?? current;
  const known = new Map<Snapshot<S>, { key: string; following: S }>();
  before.encounter.history.forEach((snap, i) =>
    known.set(snap, {
      key: before.seqs[i] ?? "",
      following: followingOf(before.encounter.history, before.encounter.state, i),
    }),
  );
  const history: { [seq: string]: StoredSnapshot } = {};
  const seqs: string[] = [];
  next.history.forEach((snap, i) => {
    const following = followingOf(next.history, next.state, i);
    const old = known.get(snap);
    const kept = old === undefined ? undefined : before.stored.history[old.key];
    // An entry whose snapshot and successor are unchanged keeps its patch: no diff, no write.
    const key = old?.key ?? String(seq++);
    seqs.push(key);
    if (old !== undefined && kept !== undefined && old.following === following) history[key] = kept;
    else history[key] = { kind: snap.kind, undo: diff(toJson(following), toJson(snap.state)) };
  });
  const stored: StoredEncounter = {
    v: 1,
    rev: before.stored.rev + 1,
    seq,
    applied: appliedRequest ?? before.stored.applied,
    state: toJson(next.state),
    history,
  };
  const update = toUpdateData(before.stored as unknown as Json, stored as unknown as Json);
  return { stored, update, loaded: { encounter: next, stored, seqs } };
}
